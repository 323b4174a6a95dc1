"""Solver benchmark: won/lost/unknown counts, time percentiles, nodes/s, peak memory.

    .venv/bin/python benchmarks/solvers.py --game accordion --deals 1000 [--time-limit 10]
        [--variant V] [--jobs 2] [--clock cpu|wall] [--seed S ...] [--verbose]
        [--reference NODES] [--fresh] [--slowest K] [--within 1,3] [--against LOG]

Deals are seeds drawn from a SplitMix64 stream of their own (--stream), so they are
random and not the small seeds the tests use (--seed S, repeated, runs given seeds
instead). Every won solution is checked by the verifier. Times are CPU seconds per deal.
--time-limit is read on CPU time by default (--clock cpu), so that other processes on a
shared machine do not turn decided deals into unknown ones; --clock wall is what a
service waits. --jobs N solves in N processes (CPU times stay per deal). Peak memory is
the high-water mark of the process (or of the largest worker): an upper bound per deal.
--fresh solves each deal in a process of its own, so that the peak memory of each deal
is its own (printed per deal with --verbose); "decided" is won plus lost.
"build" says whether the solvers ran compiled (mypyc, see setup.py) or as Python source
(DAILYDEAL_PURE_PYTHON=1 forces the source).

--reference NODES (Pyramid) also solves each deal with the reference search
(``dailydeal.solvers.pyramid.solve_reference``: the same A* with the push-time bound alone,
none of the pass count, threshold bound or pool check) within NODES nodes, and compares:
where the reference finishes, its verdict and shortest length must be the solver's. Each
disagreement is printed; ``reference_disagree`` counts them (the goal is 0).

--within T1,T2,... also prints the share of deals decided within each of those CPU seconds
(read from the per-deal times of this run): how the decided share grows with the time
given, which says how much more time a higher share would take.

--against LOG compares this run deal by deal with an earlier run's --verbose output (its
lines "seed status ..."): the deals decided in one run and not in the other, each way,
and the deals whose verdicts contradict (won in one, lost in the other: a bug). Two
builds run side by side, each with --verbose, then one with --against the other's log,
is the before/after comparison at equal load.

--stats (with --verbose) ends each deal's line with the solver's stats as key=value: for
Gaps without redeals, ``won_level`` (the relocation limit of the game that won, 255 the
real game) and ``searched_out_K`` (the pass at which the game of K relocations was
searched out), which say where a deal's time went.

--slowest K prints the K deals that took the most CPU (seed, status, nodes, seconds) and
the distribution of nodes per deal (median, p90, p99, p99.9, max, and the total): node
counts do not depend on the machine's load, times do.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import resource
import statistics
import sys
import time
from typing import Any

from dailydeal import native
from dailydeal.games import get_game, new_game
from dailydeal.shuffle import SplitMix64
from dailydeal.solvers import solve
from dailydeal.solvers.base import STATUSES, Budget
from dailydeal.verify import verify


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def _solve_one(
    task: tuple[str, str | None, int, float, int | None, str, int | None],
) -> dict[str, Any]:
    """Solve and verify one deal; a dict so that it crosses a process boundary."""
    game, variant, seed, time_limit, max_nodes, clock, reference = task
    t0 = time.process_time()
    result = solve(game, seed, variant, time_limit=time_limit, max_nodes=max_nodes,
                   clock=CLOCKS[clock])
    cpu = time.process_time() - t0
    won = result.status == "won"
    ref: dict[str, Any] = {}
    if reference is not None:
        from dailydeal.solvers.pyramid import solve_reference

        t1 = time.process_time()
        other = solve_reference(new_game(game, seed, variant), Budget(max_nodes=reference))
        ref = {
            "ref_status": other.status,
            "ref_length": len(other.moves) if other.status == "won" else None,
            "ref_exact": other.status == "lost" or bool(other.stats.get("optimal")),
            "ref_verified": other.status != "won" or verify(game, seed, other.moves, variant).won,
            "ref_cpu": time.process_time() - t1,
        }
    return {
        **ref,
        "seed": seed,
        "status": result.status,
        "nodes": result.nodes,
        "cpu": cpu,
        "length": len(result.moves) if won else None,
        "not_optimal": won and result.stats.get("optimal") is False,
        "verified": (not won) or verify(game, seed, result.moves, variant).won,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "stats": result.stats,
    }


def _read_log(path: str) -> dict[int, str]:
    """seed -> status from a --verbose log (other lines are skipped)."""
    out: dict[int, str] = {}
    with open(path, encoding="utf-8") as log:
        for line in log:
            words = line.split()
            if len(words) >= 2 and words[0].isdigit() and words[1] in STATUSES:
                out[int(words[0])] = words[1]
    return out


def _print_against(per_deal: list[tuple[float, int, str, int]], path: str) -> int:
    """This run against an earlier one, deal by deal; the number of contradictions."""
    before = _read_log(path)
    common = [(seed, status) for _, _, status, seed in per_deal if seed in before]
    gained = [seed for seed, status in common
              if status != "unknown" and before[seed] == "unknown"]
    lost = [seed for seed, status in common
            if status == "unknown" and before[seed] != "unknown"]
    wrong = [seed for seed, status in common
             if "unknown" not in (status, before[seed]) and status != before[seed]]
    print(f"against {path}: {len(common)} deals in both, "
          f"decided here only {len(gained)}, there only {len(lost)}, "
          f"contradictions {len(wrong)}")
    for name, seeds in (("decided here only", gained), ("there only", lost),
                        ("CONTRADICTION", wrong)):
        if seeds:
            print(f"  {name}: " + " ".join(str(seed) for seed in seeds))
    return len(wrong)


def _print_within(per_deal: list[tuple[float, int, str, int]], limits: list[float]) -> None:
    """The share of the deals decided within each CPU time of ``limits``."""
    deals = max(1, len(per_deal))
    shares = []
    for limit in limits:
        decided = sum(1 for cpu, _, status, _ in per_deal if status != "unknown" and cpu <= limit)
        shares.append(f"{limit:g} s {100 * decided / deals:.1f}%")
    print("decided within: " + ", ".join(shares))


def _print_slowest(per_deal: list[tuple[float, int, str, int]], k: int) -> None:
    """The ``k`` deals that took the most CPU, then the nodes per deal's distribution and total."""
    print(f"slowest {min(k, len(per_deal))} deals (seed status nodes cpu):")
    for cpu, nodes, status, seed in sorted(per_deal, reverse=True)[:k]:
        print(f"  {seed} {status} {nodes} {cpu:.3f}s")
    counts = [float(n) for _, n, _, _ in per_deal]
    print("nodes per deal: " + ", ".join(
        f"{name} {percentile(counts, q):.0f}"
        for name, q in (("median", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9), ("max", 100))
    ) + f", total {sum(counts):.0f}")


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--variant")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="what --time-limit is read on (default: CPU time)")
    parser.add_argument("--max-nodes", type=int)
    parser.add_argument("--jobs", type=int, default=1, help="solver processes")
    parser.add_argument("--stream", type=int, default=0xBE1C4, help="seed of the seed stream")
    parser.add_argument("--seed", type=int, action="append", help="solve these seeds instead")
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument("--verbose", action="store_true", help="a line per deal")
    parser.add_argument("--stats", action="store_true",
                        help="with --verbose, the solver's stats on each line (key=value)")
    parser.add_argument("--fresh", action="store_true",
                        help="a new process per deal: each deal's own peak memory")
    parser.add_argument("--reference", type=int, metavar="NODES",
                        help="Pyramid: compare with the reference search (NODES nodes each)")
    parser.add_argument("--slowest", type=int, default=0, metavar="K",
                        help="print the K slowest deals and the nodes' distribution")
    parser.add_argument("--within", metavar="T1,T2,...",
                        help="print the share decided within each of these CPU seconds")
    parser.add_argument("--against", metavar="LOG",
                        help="compare deal by deal with an earlier run's --verbose output")
    args = parser.parse_args(argv)
    get_game(args.game, args.variant)  # fail early on a bad name
    if args.reference is not None and args.game != "pyramid":
        parser.error("--reference is for Pyramid")
    try:
        within = [float(t) for t in args.within.split(",")] if args.within else []
    except ValueError:
        parser.error(f"--within takes seconds separated by commas, not {args.within!r}")
    if args.against:  # read at the end: the other run may still be writing it
        try:
            open(args.against, encoding="utf-8").close()
        except OSError as exc:
            parser.error(f"--against: cannot read {args.against}: {exc.strerror}")

    if args.seed:
        seeds = list(args.seed)
    else:
        rng = SplitMix64(args.stream)
        seeds = [rng.next() for _ in range(args.deals)]
    tasks = [(args.game, args.variant, seed, args.time_limit, args.max_nodes, args.clock,
              args.reference) for seed in seeds]
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    per_deal: list[tuple[float, int, str, int]] = []  # (cpu, nodes, status, seed)
    lengths: list[int] = []
    bad = 0
    not_optimal = 0  # wins whose solver could not prove the solution shortest
    peak_mb = 0.0
    checked = disagree = 0  # deals the reference search finished; answers that differ
    started = time.perf_counter()
    pooled = args.jobs > 1 or args.fresh
    with (
        multiprocessing.Pool(args.jobs, maxtasksperchild=1 if args.fresh else None)
        if pooled else contextlib.nullcontext()
    ) as pool:
        outcomes = pool.imap(_solve_one, tasks) if pool else map(_solve_one, tasks)
        for out in outcomes:
            times.append(out["cpu"])
            per_deal.append((out["cpu"], out["nodes"], out["status"], out["seed"]))
            nodes += out["nodes"]
            counts[out["status"]] += 1
            peak_mb = max(peak_mb, out["rss_mb"])
            if out["length"] is not None:
                lengths.append(out["length"])
            not_optimal += out["not_optimal"]
            if not out["verified"]:
                bad += 1
                print(f"seed {out['seed']}: solution does not verify", file=sys.stderr)
            if out.get("ref_exact") and out["status"] != "unknown":
                checked += 1
                exact = out["status"] == "lost" or not out["not_optimal"]
                if not out["ref_verified"] or (exact and (
                    out["ref_status"] != out["status"] or out["ref_length"] != out["length"]
                )):
                    disagree += 1
                    print(f"seed {out['seed']}: solver {out['status']} {out['length']}, "
                          f"reference {out['ref_status']} {out['ref_length']}", file=sys.stderr)
            if args.verbose:
                extra = "" if not out.get("ref_status") else (
                    f" reference {out['ref_status']} {out['ref_length']}"
                    f"{'' if out['ref_exact'] else ' (not exact)'} {out['ref_cpu']:.3f}s"
                )
                if args.stats:
                    extra += "".join(f" {key}={value}" for key, value in out["stats"].items())
                print(f"{out['seed']} {out['status']} {out['length']} {out['nodes']} "
                      f"{out['cpu']:.3f}s {out['rss_mb']:.0f}MB{extra}", flush=True)
    wall = time.perf_counter() - started
    if args.slowest:
        _print_slowest(per_deal, args.slowest)
    if within:
        _print_within(per_deal, within)
    contradictions = _print_against(per_deal, args.against) if args.against else 0
    summary = {
        "game": args.game,
        "variant": args.variant,
        "deals": len(seeds),
        "time_limit": args.time_limit,
        "clock": args.clock,
        "build": native.BUILD,  # compiled solvers or their Python source (dailydeal/native.py)
        **counts,
        "won_pct": round(100 * counts["won"] / max(1, len(seeds)), 2),
        "decided_pct": round(100 * (counts["won"] + counts["lost"]) / max(1, len(seeds)), 2),
        "solutions_not_verified": bad,
        "won_not_optimal": not_optimal,
        "cpu_s_median": round(statistics.median(times), 4) if times else None,
        "cpu_s_p90": round(percentile(times, 90), 4),
        "cpu_s_p99": round(percentile(times, 99), 4),
        "cpu_s_max": round(max(times), 4) if times else None,
        "nodes_per_s": round(nodes / max(1e-9, sum(times))),
        "mean_solution_length": round(statistics.mean(lengths), 1) if lengths else None,
        "peak_rss_mb": round(peak_mb, 1),
        **({} if args.reference is None else {
            "reference_checked": checked, "reference_disagree": disagree,
        }),
        "wall_s": round(wall, 1),
    }
    width = max(len(k) for k in summary)
    for key, value in summary.items():
        print(f"{key:<{width}}  {value}")
    if args.json:
        print(json.dumps(summary))
    return 1 if bad or disagree or contradictions else 0


if __name__ == "__main__":
    sys.exit(main())
