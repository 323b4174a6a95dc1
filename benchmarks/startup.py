"""Start-up cost of the command line: CPU seconds of a ``dailydeal solve`` process before its
search, and of the whole process.

    .venv/bin/python benchmarks/startup.py --runs 20
    .venv/bin/python benchmarks/startup.py --runs 20 --compile --against /tmp/old-tree

Every figure is CPU time (user + system, from the children's rusage: other processes on a
shared machine add less to it than to wall-clock time), the median (and the least) over
``--runs`` processes, the commands taking turns:

- ``python -c pass``: the floor every Python process pays (the interpreter, site);
- ``before the search``: ``dailydeal solve GAME --seed N --json --max-nodes 0``, whose
  search stops at its first position: the interpreter, the imports, the arguments, the
  deal, the output;
- ``whole process``: the same solve with no budget; ``search`` is the difference of the two
  medians. The solver's own ``seconds`` (wall-clock, the search alone) is printed beside.

``--against DIR`` measures a second source tree (a checkout of an older revision, with its
own compiled build if any: ``python setup.py build_ext --inplace`` there) the same way, in
turns with this one, each process run as ``python -c 'from dailydeal.cli import main;
main()'`` with PYTHONPATH at its tree (the console script's code).

Python compiles a module that has no up-to-date bytecode cache at every import when it may
not write one (``PYTHONDONTWRITEBYTECODE``, set on the project's machines and in the
Docker image, whose ``pip install`` writes the caches of the installed package): the
output says how many of the package's modules have one. ``--compile`` writes them first
(``compileall``), as an installed package has them.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.argv[0] = 'dailydeal'; from dailydeal.cli import main; main()"


def cpu_of(command: list[str], env: dict[str, str] | None = None) -> tuple[float, bytes]:
    """CPU seconds (user + system) of one run of ``command``, and its standard output (run
    in the tree of its PYTHONPATH: ``python -c`` puts the working directory first)."""
    cwd = None if env is None else env["PYTHONPATH"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, check=False, env=env, cwd=cwd).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, out


def cached_bytecode(tree: Path) -> tuple[int, int]:
    """(modules of ``tree``'s package with an up-to-date bytecode cache, modules)."""
    sources = sorted((tree / "dailydeal").rglob("*.py"))
    fresh = 0
    for source in sources:
        cache = Path(importlib.util.cache_from_source(str(source)))
        if cache.is_file() and cache.stat().st_mtime >= source.stat().st_mtime:
            fresh += 1
    return fresh, len(sources)


def build_of(tree: Path, env: dict[str, str]) -> str:
    code = "from dailydeal import native; print(native.BUILD)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--game", default="accordion")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--compile", action="store_true",
                        help="write the package's bytecode caches first (compileall)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="a second source tree, measured in turns with this one")
    args = parser.parse_args(argv)
    trees = {"now": ROOT} if args.against is None else {"now": ROOT, "against": args.against}
    solve = ["solve", args.game, "--seed", args.seed, "--json"]
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], None)}
    for name, tree in trees.items():
        env = {**os.environ, "PYTHONPATH": str(tree)}
        if args.compile:
            compileall.compile_dir(tree / "dailydeal", quiet=1)
        fresh, total = cached_bytecode(tree)
        print(f"{name}: {tree}, build {build_of(tree, env)}, "
              f"bytecode cached for {fresh} of {total} modules")
        run = [sys.executable, "-c", MAIN] if args.against else [
            str(Path(sys.executable).parent / "dailydeal")]
        commands[f"{name}: before the search"] = ([*run, *solve, "--max-nodes", "0"], env)
        commands[f"{name}: whole process"] = ([*run, *solve], env)
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    reported: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, (command, env) in commands.items():
            used, out = cpu_of(command, env)
            cpu[name].append(used)
            if name.endswith("whole process"):
                reported[name.split(":")[0]].append(float(json.loads(out)["seconds"]))
    print(f"dailydeal solve {args.game} --seed {args.seed}, {args.runs} runs, "
          "CPU ms per process: median (least)")
    for name, values in cpu.items():
        print(f"  {name:28} {1000 * statistics.median(values):7.1f} ({1000 * min(values):5.1f})")
    for name in trees:
        search = statistics.median(cpu[f"{name}: whole process"]) - statistics.median(
            cpu[f"{name}: before the search"])
        print(f"  {name + ': search':28} {1000 * search:7.1f}          (the difference; "
              f"the solver's seconds, wall: {1000 * statistics.median(reported[name]):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
