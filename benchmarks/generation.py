"""Generation benchmark: one day (3 games x 4 tiers), then a backfill with --jobs 1 and 2.

    .venv/bin/python benchmarks/generation.py [--days 30] [--measure-days 30] [--jobs 1 2]

Each measurement starts from an empty temporary database with a fixed secret, so runs are
comparable. A 30-day backfill can take long on a shared machine: ``--measure-days K``
generates only K days and extrapolates linearly to ``--days`` (printed as such). The
budgets are those of ``Settings`` (DAILYDEAL_* variables or the options below). Wall time
is what a user waits; CPU time includes the worker processes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import sys
import tempfile
import time
from pathlib import Path

from dailydeal import native
from dailydeal.config import Settings, parse_games
from dailydeal.daily.generate import FillReport, fill_days

START = dt.date(2031, 1, 1)


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(settings: Settings, days: int, jobs: int) -> tuple[float, float, FillReport, float]:
    with tempfile.TemporaryDirectory() as tmp:
        s = settings.with_(db_path=Path(tmp) / "bench.db", secret_file=None)
        c0, t0 = cpu_seconds(), time.perf_counter()
        report = fill_days(s, START, days, jobs=jobs)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        again0 = time.perf_counter()
        rerun = fill_days(s, START, days, jobs=1)  # the hourly no-op of the scheduler
        assert rerun.filled == 0
        noop = time.perf_counter() - again0
    return wall, cpu, report, noop


def describe(
    label: str, result: tuple[float, float, FillReport, float], scale: float = 1.0
) -> None:
    wall, cpu, report, noop = result
    tried = sum(u.attempts for u in report.units)
    timeouts = sum(u.timeouts for u in report.units)
    not_shortest = sum(u.not_shortest for u in report.units)
    extra = (
        f"\n    x{scale:g} extrapolated: {wall * scale:.1f} s wall, {cpu * scale:.1f} s CPU"
        if scale != 1 else ""
    )
    print(
        f"{label}: {wall:.1f} s wall, {cpu:.1f} s CPU; {report.filled} deals stored, "
        f"{len(report.unfilled)} tiers not filled, {tried} candidates "
        f"({timeouts} stopped by the time limit, {not_shortest} wins not proved shortest); "
        f"a re-run with nothing to do: {noop:.2f} s{extra}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--days", type=int, default=30, help="backfill length to report")
    parser.add_argument("--measure-days", type=int, help="days really generated (default: --days)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", help="e.g. accordion,gaps (default: the daily games)")
    parser.add_argument("--max-nodes", type=int)
    parser.add_argument("--max-attempts", type=int)
    parser.add_argument("--time-limit", type=float)
    parser.add_argument("--skip-day", action="store_true", help="skip the one-day measure")
    args = parser.parse_args(argv)
    settings = Settings.from_env(
        "unused.db", secret="benchmark-secret-8a2c4e6f0b1d3f5a7c9e2b4d6f8a0c1e",
        solve_max_nodes=args.max_nodes, max_attempts=args.max_attempts,
        solve_time_limit=args.time_limit,
        games=parse_games(args.games) if args.games else None,
    )
    measured = args.measure_days or args.days
    scale = args.days / measured
    print(
        f"budget: max_nodes={settings.solve_max_nodes}, time_limit={settings.solve_time_limit}, "
        f"max_attempts={settings.max_attempts}; games: "
        + ", ".join(f"{g}/{v}" for g, v in settings.games)
        + f"; solvers: {native.BUILD}"
    )
    if not args.skip_day:
        result = run(settings, 1, 1)
        describe(f"one day ({START}), --jobs 1", result)
        for u in result[2].units:
            print(f"    {u.unit.label()}: {u.seconds:.1f} s, {u.attempts} candidates "
                  f"({u.timeouts} timed out), "
                  f"stored {u.filled}, not filled {u.unfilled}", flush=True)
    for jobs in args.jobs:
        describe(f"backfill {measured} days, --jobs {jobs}", run(settings, measured, jobs), scale)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
