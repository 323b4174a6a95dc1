"""dailydeal/web/static/rules.js (the rules in the browser) held equal to the Python engine.

Four checks: the committed vectors are what the engine answers today (stale vectors fail);
rules.js gives every answer of the vectors (positions, legal moves, reasons word for word,
verdicts, state answers, decks, redeals, the probes' lines); each rule of rules.js broken in
a copy fails those vectors (tests/js/mutations.py), so they catch it without the walk; and
the differential walk: 10,000 positions of every variant played by both implementations
with the same generator, compared position by position (the position JSON, an attempted
move in an odd spelling and its outcome, what was played). The Node.js tests skip without
`node` (CI installs Debian's nodejs).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

JS = Path(__file__).resolve().parent / "js"
HARNESS = JS / "harness.mjs"
WALK_STEPS = 10_000  # positions per variant (issue 24: at least 10,000)
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="Node.js is not installed: rules.js is not compared with the engine"
)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, JS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


mv = _load("make_vectors")
mutations = _load("mutations")


def test_the_vectors_are_what_the_engine_answers_today() -> None:
    fresh = mv.dumps(mv.vectors())
    committed = mv.VECTORS.read_text(encoding="utf-8")
    assert fresh == committed, (
        "tests/js/vectors.json is stale: the Python engine answers otherwise now. If the rule"
        " change is meant, change rules.js alike and run: python tests/js/make_vectors.py"
    )
    assert len(committed) < 2_000_000


@needs_node
def test_rules_js_gives_every_answer_of_the_vectors() -> None:
    run = subprocess.run(
        [str(NODE), str(HARNESS), "vectors", str(mv.VECTORS)],
        capture_output=True, text=True, timeout=120,
    )
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines, (
        "rules.js differs from the Python engine on these vectors (expected = Python):\n"
        + "\n".join(line[:1500] for line in lines[:15]) + run.stderr[-3000:]
    )
    summary = json.loads(lines[-1])
    assert summary["mismatches"] == 0 and summary["checks"] > 2000, summary


def test_every_mutant_replaces_rule_code_found_once_in_rules_js() -> None:
    mutations.check_patterns(mutations.sources())
    assert len(mutations.MUTANTS) >= 50


@needs_node
def test_every_rule_broken_in_a_copy_of_rules_js_fails_the_vectors() -> None:
    """The fast vectors alone catch each mutant of tests/js/mutations.py (not the slow walk)."""
    rows = mutations.run()
    survivors = [f"{name}: {why}" for name, killer, why in rows if killer is None]
    assert not survivors, (
        "these rules of rules.js can be broken and the vectors still pass (add a probe to"
        " tests/js/make_vectors.py that reaches them):\n" + "\n".join(survivors))


def _node_walks(walks: list[dict[str, Any]], tmp: Path) -> tuple[subprocess.Popen[str], Path]:
    """Start the harness on ``walks`` (files, not pipes: it runs while Python walks)."""
    specs, out = tmp / f"specs{len(walks)}.json", tmp / f"walks{len(walks)}.jsonl"
    specs.write_text(json.dumps({"junk": mv.JUNK, "walks": walks}), encoding="utf-8")
    with specs.open() as stdin, out.open("w") as stdout:
        proc = subprocess.Popen(
            [str(NODE), str(HARNESS), "walk"], stdin=stdin, stdout=stdout,
            stderr=subprocess.PIPE, text=True,
        )
    return proc, out


def _first_difference(spec: dict[str, Any], index: int, tmp: Path) -> str:
    """Both implementations' records up to the first differing one, shown side by side."""
    spec = {**spec, "steps": index, "full": True}
    proc, path = _node_walks([spec], tmp)
    _, err = proc.communicate(timeout=120)
    out = path.read_text(encoding="utf-8")
    js = json.loads(out)["records"][index] if out else err
    py = list(mv.walk(spec["game"], spec["variant"], index, spec["prng"]))[index]
    parts = [f"{spec['game']} {spec['variant']} (prng {spec['prng']}), record {index}:"]
    names = ("position", "attempt", "outcome", "done")
    for name, a, b in zip(names, py, js if isinstance(js, list) else [js] * 4, strict=True):
        if a != b and isinstance(a, dict) and isinstance(b, dict):
            for key in a.keys() | b.keys():
                if a.get(key) != b.get(key):
                    parts.append(f"  {name}.{key}: Python {a.get(key)!r}\n{'':>{len(name) + 7}}"
                                 f"rules.js {b.get(key)!r}")
        elif a != b:
            parts.append(f"  {name}: Python {a!r}\n  {'':>{len(name)}}  rules.js {b!r}")
    return "\n".join(parts)


@needs_node
@pytest.mark.slow
def test_random_walks_of_every_variant_agree_position_by_position(tmp_path: Path) -> None:
    walks = [
        {"game": game, "variant": variant, "steps": WALK_STEPS, "prng": 1000 + n,
         "cap": mv.MAX_GAME_STEPS}
        for n, (game, variant) in enumerate(mv.WALK_VARIANTS)
    ]
    proc, path = _node_walks(walks, tmp_path)  # node walks while Python does
    python = [mv.walk_digests(w["game"], w["variant"], w["steps"], w["prng"]) for w in walks]
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-3000:]
    node = [json.loads(line)["digests"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(node) == len(walks)
    problems = []
    for spec, py, js in zip(walks, python, node, strict=True):
        assert len(py) == WALK_STEPS + 1
        differ = [i for i, (a, b) in enumerate(zip(py, js, strict=False)) if a != b]
        if differ or len(py) != len(js):
            at = differ[0] if differ else min(len(py), len(js))
            problems.append(_first_difference(spec, at, tmp_path))
    assert not problems, "rules.js and the Python engine part ways:\n" + "\n".join(problems)


def test_the_module_is_served_as_plain_javascript_without_imports(client: Any) -> None:
    resp = client.get("/static/rules.js")
    assert resp.status_code == 200 and resp.mimetype == "text/javascript"
    text = resp.get_data(as_text=True)
    assert "export function newGame(" in text
    assert not re.search(r"^\s*import\b", text, re.M), "rules.js runs with no build step"
