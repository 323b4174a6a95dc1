"""Mutation checks of the Pyramid bounds: each mutant must make the admissibility tests fail.

    .venv/bin/python benchmarks/pyramid_mutants.py [--only NAME ...] [--list]

Each mutant is one textual change of ``dailydeal/solvers/pyramid_bounds.py`` or of
``pyramid_closure.py`` (the pass count, the reference of its C build) that breaks a rule
of the bounds (the rules argued in its docstrings) and makes them claim too much. For
each, the package is copied to a temporary directory, the change applied there (the
working tree is never touched), and the admissibility tests of
``tests/test_solver_pyramid.py`` run against the copy in pure Python (stopping at the first
failure). A mutant the tests do not catch is reported, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUNDS = Path("dailydeal/solvers/pyramid_bounds.py")
CLOSURE = Path("dailydeal/solvers/pyramid_closure.py")

# The tests that check the bounds against exact costs, fewest recycles and reference lines.
TESTS = (
    "exact_cost or issue_28 or reference_lines or passes_needed or chain or kept_in_the_waste"
    " or pass_count_along or partners_that_must or bounds_are_admissible"
    " or property_bounds_admissible or draw_counting or inherited"
)

# name: (what the mutant breaks, the file, the text replaced, its replacement)
MUTANTS: dict[str, tuple[str, Path, str, str]] = {
    "partner-rule-with-talon-partner": (
        "the partner rule applied to cards that still have a talon partner",
        CLOSURE,
        "        and not (ivals if inside >> i & 1 else vals) >> (PAIR_SUM - values[i]) & 1\n",
        "        and True\n",
    ),
    "window-not-in-waste": (
        "the window without its condition that the cards are in the waste",
        CLOSURE,
        "                            if j >= p or t0 >> 5:\n",
        "                            if False:\n",
    ),
    "window-every-chain-card": (
        "the window with every chain card in it",
        CLOSURE,
        "                                    if times[k] > drawn:\n",
        "                                    if True:\n",
    ),
    "window-draw-without-pass": (
        "the draw's time taken without its pass",
        CLOSURE,
        "                                drawn = t0 >> 5 << 5 | j",
        "                                drawn = j",
    ),
    "window-count-off-by-one": (
        "the count of the cards above off by one",
        CLOSURE,
        "            if takes >> 3 * (w - 1) & 7 > (above & vb[w]).bit_count():\n",
        "            if takes >> 3 * (w - 1) & 7 >= (above & vb[w]).bit_count():\n",
    ),
    "6c97fb2-late-at-earliest-cursor": (
        "6c97fb2: the chain cards late only after the earliest cursor (issue 28)",
        CLOSURE,
        "                            if times[k] >= end:\n",
        "                            if times[k] > t0:\n",
    ),
    "recycle-counted-twice": (
        "blocked_pass charges a recycle the caller already counts (VERSION 3 to 7)",
        BOUNDS,
        "            total = popcount(counted) + (0 if again else 1)\n",
        "            total = popcount(counted) + 1\n",
    ),
}


def run(name: str) -> tuple[bool, float, str]:
    """(caught, seconds, the first failing test or the tail of pytest's output)."""
    _, target, old, new = MUTANTS[name]
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        # The package and the tests (and the benchmarks' helpers they import), so that
        # nothing is imported from the working tree.
        for part in ("dailydeal", "tests", "benchmarks"):
            shutil.copytree(
                ROOT / part, Path(tmp) / part,
                ignore=shutil.ignore_patterns("*.so", "__pycache__"),
            )
        shutil.copy(ROOT / "pyproject.toml", tmp)
        path = Path(tmp) / target
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise SystemExit(f"mutant {name}: the text to replace is not there exactly once")
        path.write_text(text.replace(old, new), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": tmp, "DAILYDEAL_PURE_PYTHON": "1"}
        # The copy must be what the tests import, not the installed package.
        where = subprocess.run(
            [sys.executable, "-c", "import dailydeal; print(dailydeal.__file__)"],
            env=env, capture_output=True, text=True, check=True, cwd=tmp,
        ).stdout.strip()
        if not where.startswith(tmp):
            raise SystemExit(f"the tests would import {where}, not the mutant")
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "tests/test_solver_pyramid.py", "-k", TESTS],
            env=env, capture_output=True, text=True, cwd=tmp,
        )
        seconds = time.perf_counter() - t0
    lines = proc.stdout.splitlines()
    failed = [line for line in lines if line.startswith("FAILED")]
    return proc.returncode == 1, seconds, failed[0] if failed else "\n".join(lines[-3:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(MUTANTS))
    parser.add_argument("--list", action="store_true", help="list the mutants")
    args = parser.parse_args(argv)
    if args.list:
        for name, (what, _, _, _) in MUTANTS.items():
            print(f"{name}: {what}")
        return 0
    missed = 0
    for name in args.only or list(MUTANTS):
        caught, seconds, detail = run(name)
        missed += not caught
        print(f"{'caught' if caught else 'MISSED'}  {name} ({seconds:.0f} s): {detail}",
              flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
