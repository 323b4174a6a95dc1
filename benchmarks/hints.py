"""Hint latency: p50/p95/p99 per game from random positions of stored-style daily deals.

    .venv/bin/python benchmarks/hints.py [--deals 3] [--positions 5] [--max-nodes 30000]
    .venv/bin/python benchmarks/hints.py --db data/dailydeal.db   # the stored deals

Deals: with ``--db``, the newest stored deals of each game; otherwise deals made as the
generator makes them (HMAC candidate seeds of a benchmark secret, the first ones its solver
wins within the generation budget, one per date). Positions, per deal, of two kinds:

- ``line``: a random prefix of the deal's solution (a player on a good path), answered as
  the API answers a daily deal: from its stored solution, without a search (``--no-line``:
  searched like the others, as for a numbered deal);
- ``random``: up to 40 random legal moves from the start (a player who wandered): always
  a search.

Each hint is computed cold (an empty cache) with the service's node budget and no time
limit; the time is the wall-clock of ``hint()`` in this process, without HTTP and without
the solver process the API hands it to (and its CPU time: on a loaded machine the wall
clock is the larger). Every searched ``winnable`` answer's line has been replayed by the
rules inside ``solve_hint``. A warm answer (the same position again, from the cache) is
timed too.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from dailydeal.config import DAILY_GAMES, Settings
from dailydeal.daily import store
from dailydeal.daily.seeds import candidate_seeds
from dailydeal.games import Game, new_game
from dailydeal.hints import HintCache, budget_for, hint
from dailydeal.solvers import WON, solve
from dailydeal.web.hints import stored_shortest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solvers import percentile  # noqa: E402  (benchmarks/solvers.py: one nearest-rank rule)

SECRET = b"benchmark-hints-secret"


def generated_deals(game: str, variant: str, n: int) -> list[tuple[int, list[str], bool]]:
    """(seed, solution, proved shortest) of n deals chosen as the generator does (first win
    per date)."""
    budget = Settings().solve_max_nodes
    out = []
    day = dt.date(2026, 12, 1)
    while len(out) < n:
        for attempt, seed in candidate_seeds(SECRET, day, game, variant):
            result = solve(game, seed, variant, max_nodes=budget, time_limit=30)
            if result.status == WON:
                out.append((seed, result.moves, stored_shortest(
                    {"game": game, "solver": {"stats": result.stats}})))
                break
            if attempt > 30:
                break
        day += dt.timedelta(days=1)
    return out


def stored_deals(db_path: Path, game: str, n: int) -> list[tuple[int, list[str], bool]]:
    db = store.open_db(db_path)
    try:
        rows = db.query(
            "SELECT id FROM deals WHERE game = ? ORDER BY date DESC, id LIMIT ?", [game, n]
        )
        deals = [store.get_deal(db, r["id"]) for r in rows]
        return [(d["seed"], d["solution"], stored_shortest(d)) for d in deals if d is not None]
    finally:
        db.close()


def positions(
    game: str, variant: str, seed: int, solution: list[str], k: int, rng: random.Random
) -> list[tuple[str, Game[Any]]]:
    out: list[tuple[str, Game[Any]]] = []
    for i in range(k):
        position = new_game(game, seed, variant)
        if i % 2 == 0:
            for text in solution[: rng.randrange(len(solution))]:
                position.play(position.parse_move(text))
            out.append(("line", position))
        else:
            for _ in range(rng.randrange(41)):
                legal = position.legal_moves()
                if not legal or position.is_over():
                    break
                position.play(rng.choice(legal))
            out.append(("random", position))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals per game")
    parser.add_argument("--positions", type=int, default=6, help="positions per deal")
    parser.add_argument("--max-nodes", type=int, help="node budget (default: the game's)")
    parser.add_argument("--db", type=Path, help="take the deals from this database")
    parser.add_argument("--games", default=",".join(g for g, _ in DAILY_GAMES))
    parser.add_argument("--seed", type=int, default=1, help="seed of the position sampler")
    parser.add_argument("--no-line", action="store_true",
                        help="search the line positions too (no stored solution)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    variants = dict(DAILY_GAMES)
    print(f"hint latency, cold (solver runs); {args.deals} deals x {args.positions} "
          "positions per game")
    print(f"{'game':10} {'kind':7} {'n':>3} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
          f" {'max ms':>8} {'cpu p95':>8} {'cpu p99':>8}  verdicts")
    for game in args.games.split(","):
        variant = variants[game]
        print(f"{game}: node budget {budget_for(game, args.max_nodes)}")
        t0 = time.perf_counter()
        deals = (stored_deals(args.db, game, args.deals) if args.db
                 else generated_deals(game, variant, args.deals))
        prep = time.perf_counter() - t0
        times: dict[str, list[float]] = {"line": [], "random": []}
        cpu: dict[str, list[float]] = {"line": [], "random": []}
        verdicts: dict[str, Counter[str]] = {"line": Counter(), "random": Counter()}
        shortest = 0
        warm: list[float] = []
        for seed, solution, optimal in deals:
            for kind, position in positions(game, variant, seed, solution, args.positions, rng):
                cache = HintCache()
                line = None if args.no_line else solution
                t, c = time.perf_counter(), time.process_time()
                answer = hint(position, max_nodes=args.max_nodes, time_limit=None, cache=cache,
                              line=line, line_shortest=optimal)
                times[kind].append(time.perf_counter() - t)
                cpu[kind].append(time.process_time() - c)
                verdicts[kind][answer.verdict] += 1
                shortest += answer.shortest and answer.verdict == "winnable"
                t = time.perf_counter()
                hint(position, max_nodes=args.max_nodes, time_limit=None, cache=cache,
                     line=line, line_shortest=optimal)
                warm.append(time.perf_counter() - t)
        for kind in ("line", "random", "all"):
            values = times["line"] + times["random"] if kind == "all" else times[kind]
            cpus = cpu["line"] + cpu["random"] if kind == "all" else cpu[kind]
            counts = verdicts["line"] + verdicts["random"] if kind == "all" else verdicts[kind]
            print(f"{game:10} {kind:7} {len(values):3d} {1000 * percentile(values, 50):8.1f} "
                  f"{1000 * percentile(values, 95):8.1f} {1000 * percentile(values, 99):8.1f}"
                  f" {1000 * max(values, default=0):8.1f}"
                  f" {1000 * percentile(cpus, 95):8.1f} {1000 * percentile(cpus, 99):8.1f}"
                  f"  {dict(counts)}")
        print(f"{game:10} warm    {len(warm):3d} {1000 * percentile(warm, 50):8.3f} "
              f"{1000 * percentile(warm, 95):8.3f}  (cache hit); {shortest} winnable answers "
              f"proved shortest; deals ready in {prep:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
