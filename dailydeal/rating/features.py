"""Features of a deal: seeded playouts of a player model, and what the solver tells.

Playouts are seeded from the deal itself (a CRC of its cards, its seed and the playout
number), so the same deal always gives the same features, on every machine.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import Any

from dailydeal.cards import Card
from dailydeal.games import Game
from dailydeal.rating.players import Playout, play_accordion, play_gaps, play_pyramid
from dailydeal.solvers import SolveResult

# Playouts per deal for the rating model (A): about 0.1-0.3 s of CPU per deal.
PLAYOUTS = {"accordion": 160, "pyramid": 160, "gaps": 32}


def playout_rng(game: Game[Any], model: str, k: int) -> random.Random:
    """The RNG of playout ``k``: a function of the deal, the model and ``k`` only."""
    tag = f"{game.name}|{game.variant}|{game.seed}|{model}|{k}|".encode()
    return random.Random(zlib.crc32(bytes(game.cards), zlib.crc32(tag)))


def play(game: Game[Any], model: str, rng: random.Random, *, record: bool = False) -> Playout:
    """One playout of ``model`` on the deal of ``game`` (its variant's settings honoured)."""
    cards: Sequence[Card] = game.cards
    if game.name == "accordion":
        return play_accordion(
            cards, rng, model,
            jumps=getattr(game, "ALLOWED_JUMPS", (1, 3)),
            open_deal=bool(getattr(game, "OPEN", False)),
            record=record,
        )
    if game.name == "pyramid":
        return play_pyramid(cards, rng, model, passes=getattr(game, "PASSES", None), record=record)
    if game.name == "gaps":
        return play_gaps(cards, game.seed, rng, model, redeals=getattr(game, "REDEALS", 2),
                         record=record)
    raise ValueError(f"no player model for {game.name}")


def playout_stats(
    game: Game[Any], model: str = "careful", n: int | None = None
) -> dict[str, float]:
    """Win rate and mean score of ``n`` seeded playouts of ``model`` on the deal."""
    count = n if n is not None else PLAYOUTS[game.name]
    wins = 0
    total = 0
    passes = 0
    for k in range(count):
        p = play(game, model, playout_rng(game, model, k))
        wins += p.won
        total += p.score
        passes += p.passes
    out = {"playouts": count, "win_rate": wins / count, "mean_score": total / count}
    if game.name == "pyramid":
        out["mean_passes"] = passes / count
    return out


def solver_features(game: Game[Any], solution: SolveResult) -> dict[str, Any]:
    """What the solver result says. Reported, not weighted: the generic and the per-game
    solvers find different (not shortest) solutions with very different effort."""
    moves = solution.moves
    out: dict[str, Any] = {"solution_length": len(moves), "solver_nodes": solution.nodes}
    if game.name == "pyramid":
        out["solution_draws"] = sum(m == "d" for m in moves)
        out["solution_recycles"] = sum(m == "r" for m in moves)
    elif game.name == "gaps":
        out["solution_redeals"] = sum(m == "R" for m in moves)
    return out
