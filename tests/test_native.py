"""The compiled solvers (mypyc, setup.py) against their Python source, and the stale guard.

The Python source is the reference: a compiled build must reach the same verdicts with the
same node counts and the same moves. When the modules are not compiled here (no C compiler
at install), the comparison has nothing to compare and says so as a skip.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import dailydeal.solvers.gaps as gaps_solver
from dailydeal import native
from dailydeal.solvers import solve

ROOT = Path(__file__).resolve().parents[1]

# (game, variant, seeds, node budget): some won, lost and unknown answers in every game
CASES = [
    ("accordion", None, [1, 2, 3, 4, 5, 6], 20_000),
    ("accordion", "forced", [1, 2, 3, 4], 20_000),
    ("pyramid", None, [1, 2, 3, 4, 5, 6], 3_000),
    ("pyramid", "passes=2", [1, 2, 3], 3_000),
    ("gaps", None, [1, 2, 3, 4], 20_000),
    ("gaps", "redeals=0", [1, 2, 3, 4], 20_000),
]

REPLAY = """
import json, sys
from dailydeal import native
from dailydeal.solvers import solve
cases = json.loads(sys.argv[1])
out = [[native.BUILD]]
for game, variant, seeds, nodes in cases:
    for seed in seeds:
        r = solve(game, seed, variant, max_nodes=nodes)
        out.append([game, variant, seed, r.status, r.nodes, r.moves])
print(json.dumps(out))
"""


def answers() -> list[list[object]]:
    out: list[list[object]] = []
    for game, variant, seeds, nodes in CASES:
        for seed in seeds:
            r = solve(game, seed, variant, max_nodes=nodes)
            out.append([game, variant, seed, r.status, r.nodes, r.moves])
    return out


def run_python(code: str, *args: str, pythonpath: Path = ROOT, pure: bool = False,
               ) -> subprocess.CompletedProcess[str]:
    """Run ``code`` importing dailydeal from ``pythonpath``.

    -S: without site-packages, where an editable install's finder would import the
    installed tree first (the solvers need nothing beyond the standard library); run in
    ``pythonpath``, as ``-c`` puts the working directory first on the path.
    """
    env = {k: v for k, v in os.environ.items() if k != native.PURE_SETTING}
    env["PYTHONPATH"] = str(pythonpath)
    if pure:
        env[native.PURE_SETTING] = "1"
    return subprocess.run(
        [sys.executable, "-S", "-c", code, *args], env=env, capture_output=True, text=True,
        timeout=600, check=False, cwd=pythonpath,
    )


def test_the_compiled_list_is_one_list() -> None:
    """pyproject.toml names real modules, and the build recorded exactly those."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["dailydeal"]["compiled"]
    assert paths and all((ROOT / p).is_file() for p in paths)
    manifest = native.recorded()
    if manifest:
        names = {p.removesuffix(".py").replace("/", ".") for p in paths}
        assert set(manifest) == names


def test_compiled_solvers_answer_as_the_python_source() -> None:
    if native.BUILD != native.COMPILED:
        pytest.skip(f"the solvers are not compiled here: {native.BUILD}")
    assert native.is_compiled(gaps_solver)
    compiled = answers()
    proc = run_python(REPLAY, json.dumps(CASES), pure=True)
    assert proc.returncode == 0, proc.stderr
    pure = json.loads(proc.stdout)
    assert pure[0] == [native.REQUESTED]
    assert pure[1:] == compiled
    statuses = {row[3] for row in compiled}
    assert statuses == {"won", "lost", "unknown"}, statuses  # every kind of answer compared


def loaded(modules: list[str], **kw: Any) -> tuple[str, list[bool], list[str], str]:
    """(BUILD, compiled or not, file, stderr) of ``modules`` imported by a new interpreter."""
    code = (
        "import importlib, json, sys\n"
        "from dailydeal import native\n"
        "ms = [importlib.import_module(n) for n in sys.argv[1:]]\n"
        "print(json.dumps([native.BUILD, [native.is_compiled(m) for m in ms],"
        " [m.__file__ for m in ms]]))"
    )
    proc = run_python(code, *modules, **kw)
    assert proc.returncode == 0, proc.stderr
    build, compiled, files = json.loads(proc.stdout)
    return build, compiled, files, proc.stderr


def test_a_changed_source_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    """A copy of the package whose gaps.py changed after the build imports gaps.py."""
    if not native.recorded():
        pytest.skip(f"the solvers are not compiled here: {native.BUILD}")
    copy = tmp_path / "dailydeal"
    shutil.copytree(ROOT / "dailydeal", copy, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "solvers" / "gaps.py").open("a", encoding="utf-8") as f:
        f.write("\n# an edit after the build\n")
    build, compiled, files, stderr = loaded(
        ["dailydeal.solvers.gaps", "dailydeal.solvers.pyramid"], pythonpath=tmp_path
    )
    assert build == native.STALE
    # every recorded module runs from source, not only the changed one: they call each other
    assert compiled == [False, False]
    assert files[0] == str(copy / "solvers" / "gaps.py")
    assert "dailydeal.solvers.gaps changed since it was compiled" in stderr


def test_a_changed_c_source_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    """The table is built from table.c: an edit of the C source alone makes it stale too
    (the manifest's hash covers the .py and the .c)."""
    if "dailydeal.solvers.table" not in native.recorded():
        pytest.skip(f"the table is not compiled here: {native.BUILD}")
    copy = tmp_path / "dailydeal"
    shutil.copytree(ROOT / "dailydeal", copy, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "solvers" / "table.c").open("a", encoding="utf-8") as f:
        f.write("\n/* an edit after the build */\n")
    build, compiled, files, stderr = loaded(["dailydeal.solvers.table"], pythonpath=tmp_path)
    assert build == native.STALE and compiled == [False]
    assert files[0] == str(copy / "solvers" / "table.py")
    assert "dailydeal.solvers.table changed since it was compiled" in stderr


def test_the_guard_compares_source_hashes() -> None:
    name = "dailydeal.solvers.gaps"
    digest = hashlib.sha256(native.source_path(name).read_bytes()).hexdigest()
    assert native.changed({name: digest}) == []
    assert native.changed({name: "0" * 64}) == [name]
    assert native.changed({"dailydeal.no_such_module": digest}) == ["dailydeal.no_such_module"]


def test_the_guard_trusts_a_recorded_stat_only_for_the_file_hashed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """compiled.stat.json spares the hash of a source whose size, mtime and hash are those
    recorded at the build; any other stat, or a hash other than the manifest's, is hashed."""
    name = "dailydeal.solvers.gaps"
    digest = hashlib.sha256(native.source_path(name).read_bytes()).hexdigest()
    stat = native.source_stat(name)
    assert len(stat) == 2 and stat[0] == native.source_path(name).stat().st_size
    hashed: list[str] = []
    real_digest = native.source_digest
    monkeypatch.setattr(native, "source_digest", lambda n: hashed.append(n) or real_digest(n))
    assert native.changed({name: digest}, {name: [digest, *stat]}) == [] and hashed == []
    # another mtime: hashed, and still the same source
    assert native.changed({name: digest}, {name: [digest, stat[0], stat[1] + 1]}) == []
    assert hashed == [name]
    # the stat of a build whose hash was another: hashed, and changed
    assert native.changed({name: "0" * 64}, {name: [digest, *stat]}) == [name]
    assert native.source_stat("dailydeal.no_such_module") == []


def test_pure_python_can_be_asked_for() -> None:
    build, compiled, files, _ = loaded(["dailydeal.solvers.accordion"], pure=True)
    assert build == (native.REQUESTED if native.recorded() else native.NOT_BUILT)
    assert compiled == [False]
    assert files[0].endswith(".py")


def compiled_names() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["dailydeal"]["compiled"]
    return [p.removesuffix(".py").replace("/", ".") for p in paths]


def test_a_build_in_progress_runs_the_python_source(tmp_path: Path) -> None:
    """While `make run` compiles in the background (the manifest says "building"), a new
    process imports every recorded module from source, whatever compiled files lie there:
    with a compiled build here, the copy holds it, and it is not run."""
    copy = tmp_path / "dailydeal"
    shutil.copytree(ROOT / "dailydeal", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "compiled.json").write_text(
        json.dumps(dict.fromkeys(compiled_names(), native.BUILDING_MARK)), encoding="utf-8"
    )
    build, compiled, files, stderr = loaded(
        ["dailydeal.solvers.gaps", "dailydeal.games.rules.pyramid"], pythonpath=tmp_path
    )
    assert build == native.BUILDING
    assert compiled == [False, False]
    assert files == [str(copy / "solvers" / "gaps.py"),
                     str(copy / "games" / "rules" / "pyramid.py")]
    assert "changed since" not in stderr  # not a stale build: nothing to warn about


def load_setup(monkeypatch: pytest.MonkeyPatch, tree: Path) -> Any:
    """setup.py as a module (plain Python: nothing compiled on import), pointed at ``tree``."""
    import importlib.util

    monkeypatch.setenv(native.PURE_SETTING, "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "--name"])
    spec = importlib.util.spec_from_file_location("dailydeal_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", tree)
    return module


def test_an_in_place_build_never_exposes_half_a_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """setup.py's in-place build (make's background build) in a scratch tree: before the
    compiler touches a file the manifest says "building" and the old build is gone; the
    hashes written at the end are those of the sources as mypyc read them (an edit during
    the build leaves a stale build, which dailydeal.native does not run)."""
    pytest.importorskip("setuptools", reason="setup.py needs setuptools (a venv of 3.12+ has none)")
    from setuptools.command.build_ext import build_ext

    setup_py = load_setup(monkeypatch, tmp_path)
    capsys.readouterr()
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    paths = setup_py.compiled_modules()
    for path in paths:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("# source as compiled\n", encoding="utf-8")
        (tmp_path / path.replace(".py", ".cpython-311-x86_64-linux-gnu.so")).write_text("old")
    before = setup_py.source_hashes(paths)
    monkeypatch.setattr(setup_py, "_compiled_hashes", dict(before))
    manifest = tmp_path / setup_py.MANIFEST
    seen: dict[str, Any] = {}

    def fake_compile(self: Any) -> None:  # what build_ext does: compile, copy into the tree
        seen["manifest"] = json.loads(manifest.read_text(encoding="utf-8"))
        seen["old builds"] = sorted(tmp_path.rglob("*.so"))
        with (tmp_path / paths[0]).open("a", encoding="utf-8") as f:
            f.write("# an edit while the compiler runs\n")

    monkeypatch.setattr(build_ext, "run", fake_compile)
    from setuptools.dist import Distribution

    command = setup_py.OptionalBuildExt(Distribution({"ext_modules": []}))
    command.initialize_options()
    command.inplace = 1
    command.build_lib = str(tmp_path / "build-lib")
    command.extensions = ["one extension"]  # what mypycify returned
    command.run()
    names = [p.removesuffix(".py").replace("/", ".") for p in paths]
    assert seen["manifest"] == dict.fromkeys(names, native.BUILDING_MARK)
    assert seen["old builds"] == []
    final = json.loads(manifest.read_text(encoding="utf-8"))
    assert final == before  # the sources as compiled, not as they are now
    monkeypatch.setattr(native, "PACKAGE_DIR", tmp_path / "dailydeal")
    assert native.changed(final) == [names[0]]  # the edited one is stale: the source runs
