"""Dump what the solvers and the player models answer on fixed deals, one JSON line each.

    .venv/bin/python benchmarks/dump.py [--deals 100] [--max-nodes 20000] > before.jsonl
    (change the code) ... > after.jsonl; cmp before.jsonl after.jsonl
    (--game G, --variant V and --first N dump a part, to run parts side by side)

For each game of the registry, seeds 0..deals-1 of its default variant and seeds
0..variant-deals-1 of each of its other listed variants: the
solver's status, moves and node count within a fixed node budget (no time limit: the
answer depends on nothing but the code), and one recorded playout of each player model
(won, score, passes, moves). A refactoring that must not change any answer is checked by
comparing the two dumps byte for byte; nothing here is timed (benchmarks/solvers.py and
benchmarks/players.py measure speed).
"""

from __future__ import annotations

import argparse
import json
import sys

from dailydeal.games import GAMES, new_game
from dailydeal.rating.features import play, playout_rng
from dailydeal.rating.players import MODELS
from dailydeal.solvers import solve_position


def dump(game: str, variant: str, seed: int, max_nodes: int) -> dict[str, object]:
    position = new_game(game, seed, variant)
    result = solve_position(position, max_nodes=max_nodes)
    line: dict[str, object] = {
        "game": game,
        "variant": variant,
        "seed": seed,
        "status": result.status,
        "nodes": result.nodes,
        "moves": " ".join(result.moves),
    }
    for model in MODELS:
        p = play(position, model, playout_rng(position, model, 0), record=True)
        line[model] = [p.won, p.score, p.passes, " ".join(p.moves)]
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--variant-deals", type=int, default=20)
    parser.add_argument("--max-nodes", type=int, default=20_000)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    parser.add_argument("--first", type=int, default=0, help="skip the seeds below this")
    args = parser.parse_args()
    for game in args.game or list(GAMES):
        for n, variant in enumerate(GAMES[game]):
            if args.variant and variant not in args.variant:
                continue
            for seed in range(args.first, args.variant_deals if n else args.deals):
                line = dump(game, variant, seed, args.max_nodes)
                sys.stdout.write(json.dumps(line, sort_keys=True) + "\n")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
