"""Start-up cost of the command line: CPU seconds of a whole ``dailydeal solve`` process.

    .venv/bin/python benchmarks/startup.py --runs 20

Runs ``dailydeal solve GAME --seed N --json`` ``--runs`` times (and ``python -c pass`` as
the floor every Python process pays) and prints, per process, the mean and median CPU
seconds (user + system, from the children's rusage: other processes on a shared machine
add less to it than to wall-clock time), the solver's own seconds as it reports them, and
the difference: the start-up (interpreter, imports, argument parsing, output).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def cpu_of(command: list[str]) -> tuple[float, bytes]:
    """CPU seconds (user + system) of one run of ``command``, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, check=False).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--game", default="accordion")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)
    floor = [cpu_of([sys.executable, "-c", "pass"])[0] for _ in range(args.runs)]
    total, solver = [], []
    for _ in range(args.runs):
        command = [str(BIN / "dailydeal"), "solve", args.game, "--seed", args.seed, "--json"]
        used, out = cpu_of(command)
        total.append(used)
        solver.append(float(json.loads(out)["seconds"]))
    start_up = [t - s for t, s in zip(total, solver, strict=True)]
    print(f"dailydeal solve {args.game} --seed {args.seed}, {args.runs} runs, CPU s per process")
    for name, values in (
        ("python -c pass", floor),
        ("whole process", total),
        ("solver (reported)", solver),
        ("start-up", start_up),
    ):
        mean, median = statistics.fmean(values), statistics.median(values)
        print(f"  {name:18} mean {mean:.3f}  median {median:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
