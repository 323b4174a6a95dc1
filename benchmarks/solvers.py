"""Solver benchmark: won/lost/unknown counts, time percentiles, nodes/s, peak memory.

    .venv/bin/python benchmarks/solvers.py --game accordion --deals 1000 [--time-limit 10]

Deals are seeds drawn from a SplitMix64 stream of their own (--stream), so they are
random and not the small seeds the tests use. Every won solution is checked by the
verifier. Peak memory is the process high-water mark (an upper bound per deal). Times are
CPU seconds per deal, while --time-limit is wall-clock (what a service waits), so on a
loaded machine more deals end 'unknown' than the CPU figures suggest.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time

from dailydeal.games import get_game
from dailydeal.shuffle import SplitMix64
from dailydeal.solvers import solve
from dailydeal.verify import verify


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--variant")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--max-nodes", type=int)
    parser.add_argument("--stream", type=int, default=0xBE1C4, help="seed of the seed stream")
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument("--verbose", action="store_true", help="a line per deal")
    args = parser.parse_args(argv)
    get_game(args.game, args.variant)  # fail early on a bad name

    rng = SplitMix64(args.stream)
    seeds = [rng.next() for _ in range(args.deals)]
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    lengths: list[int] = []
    bad = 0
    not_optimal = 0  # wins whose solver could not prove the solution shortest
    started = time.perf_counter()
    for seed in seeds:
        t0 = time.process_time()
        result = solve(args.game, seed, args.variant, time_limit=args.time_limit,
                       max_nodes=args.max_nodes)
        cpu = time.process_time() - t0
        times.append(cpu)
        nodes += result.nodes
        counts[result.status] += 1
        if result.status == "won":
            lengths.append(len(result.moves))
            if result.stats.get("optimal") is False:
                not_optimal += 1
            if not verify(args.game, seed, result.moves, args.variant).won:
                bad += 1
                print(f"seed {seed}: solution does not verify", file=sys.stderr)
        if args.verbose:
            print(f"{seed} {result.status} {result.nodes} {cpu:.3f}s", flush=True)
    wall = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = {
        "game": args.game,
        "variant": args.variant,
        "deals": args.deals,
        "time_limit": args.time_limit,
        **counts,
        "won_pct": round(100 * counts["won"] / max(1, args.deals), 2),
        "solutions_not_verified": bad,
        "won_not_optimal": not_optimal,
        "cpu_s_median": round(statistics.median(times), 4) if times else None,
        "cpu_s_p90": round(percentile(times, 90), 4),
        "cpu_s_p99": round(percentile(times, 99), 4),
        "cpu_s_max": round(max(times), 4) if times else None,
        "nodes_per_s": round(nodes / max(1e-9, sum(times))),
        "mean_solution_length": round(statistics.mean(lengths), 1) if lengths else None,
        "peak_rss_mb": round(peak_mb, 1),
        "wall_s": round(wall, 1),
    }
    width = max(len(k) for k in summary)
    for key, value in summary.items():
        print(f"{key:<{width}}  {value}")
    if args.json:
        print(json.dumps(summary))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
