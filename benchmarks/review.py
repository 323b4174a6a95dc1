"""Review latency: p50/p95 per game of ``dailydeal.review.review`` on lines that end lost.

    .venv/bin/python benchmarks/review.py [--deals 3] [--lines 5] [--max-nodes N]

Deals as benchmarks/hints.py makes them (the generator's first win per date, with its
stored solution). Lines per deal, half of each kind, kept only when they end lost by the
rules (a random line that wins is dealt again):

- ``random``: random legal moves from the start to the end of the game;
- ``wander``: a random prefix of the stored solution, then random legal moves to the end
  (a player who went well, then erred: the bisection has a longer way to go).

Each review is cold (an empty hint cache), with the stored solution as the API gives it
for a daily deal, the service's node budget and no time limit; the time is the wall clock
(and the CPU time) of ``review()`` in this process, without HTTP and the solver process
the API hands it to.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from dailydeal.config import DAILY_GAMES
from dailydeal.games import Game, new_game
from dailydeal.games.base import LOST
from dailydeal.hints import HintCache, budget_for
from dailydeal.review import review

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hints import generated_deals  # noqa: E402  (benchmarks/hints.py: the same deals)
from solvers import percentile  # noqa: E402  (benchmarks/solvers.py: one nearest-rank rule)


def lost_line(
    game: str, variant: str, seed: int, solution: list[str], kind: str, rng: random.Random
) -> list[str] | None:
    """A line of ``kind`` that ends lost, or None after 50 tries."""
    for _ in range(50):
        position: Game[Any] = new_game(game, seed, variant)
        line = solution[: rng.randrange(len(solution))] if kind == "wander" else []
        for text in line:
            position.play(position.parse_move(text))
        while not position.is_over():
            move = rng.choice(position.legal_moves())
            position.play(move)
            line.append(str(move))
        if position.status() == LOST:
            return line
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals per game")
    parser.add_argument("--lines", type=int, default=5, help="lost lines per deal")
    parser.add_argument("--max-nodes", type=int, help="node budget (default: the game's)")
    parser.add_argument("--games", default=",".join(g for g, _ in DAILY_GAMES))
    parser.add_argument("--seed", type=int, default=1, help="seed of the line sampler")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    variants = dict(DAILY_GAMES)
    print(f"review latency, cold; {args.deals} deals x {args.lines} lost lines per game")
    print(f"{'game':10} {'n':>3} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu p50':>8}"
          f" {'cpu p95':>8} {'moves':>6} {'searches':>9}  verdicts")
    for game in args.games.split(","):
        variant = variants[game]
        times: list[float] = []
        cpu: list[float] = []
        searches: list[int] = []
        lengths: list[int] = []
        verdicts: Counter[str] = Counter()
        for seed, solution, _ in generated_deals(game, variant, args.deals):
            for i in range(args.lines):
                line = lost_line(game, variant, seed, solution,
                                 "wander" if i % 2 else "random", rng)
                if line is None:
                    continue
                start = new_game(game, seed, variant)
                t, c = time.perf_counter(), time.process_time()
                answer = review(start, line, line=solution, max_nodes=args.max_nodes,
                                time_limit=None, cache=HintCache())
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                searches.append(answer.searches)
                lengths.append(len(line))
                verdicts[answer.verdict] += 1
        mean = sum(searches) / max(len(searches), 1)
        print(f"{game:10} {len(times):3d} {1000 * percentile(times, 50):8.1f}"
              f" {1000 * percentile(times, 95):8.1f} {1000 * max(times, default=0):8.1f}"
              f" {1000 * percentile(cpu, 50):8.1f} {1000 * percentile(cpu, 95):8.1f}"
              f" {sum(lengths) / max(len(lengths), 1):6.0f} {mean:9.1f}  {dict(verdicts)}"
              f"  (budget {budget_for(game, args.max_nodes)} nodes a search)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
