"""Features of a deal: seeded playouts of a player model, and what the solver tells.

Playouts are seeded from the deal itself (a CRC of its cards, its seed and the playout
number), so the same deal always gives the same features, on every machine.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from dailydeal.games import Game
from dailydeal.rating.models import MODELS
from dailydeal.rating.players import Playout
from dailydeal.solvers import SolveResult

# Playouts per deal for the rating model (A), from each game's rating model.
PLAYOUTS = {game: model.playouts for game, model in MODELS.items()}


def playout_rng(game: Game[Any], model: str, k: int) -> random.Random:
    """The RNG of playout ``k``: a function of the deal, the model and ``k`` only."""
    tag = f"{game.name}|{game.variant}|{game.seed}|{model}|{k}|".encode()
    return random.Random(zlib.crc32(bytes(game.cards), zlib.crc32(tag)))


def play(game: Game[Any], model: str, rng: random.Random, *, record: bool = False) -> Playout:
    """One playout of ``model`` on the deal of ``game`` (its variant's settings honoured):
    the player of its rating model."""
    return MODELS[game.name].player(game, rng, model, record=record)


def playout_stats(
    game: Game[Any], model: str = "careful", n: int | None = None
) -> dict[str, float]:
    """Win rate and mean score of ``n`` seeded playouts of ``model`` on the deal."""
    rating = MODELS[game.name]
    count = n if n is not None else rating.playouts
    wins = 0
    total = 0
    passes = 0
    for k in range(count):
        p = play(game, model, playout_rng(game, model, k))
        wins += p.won
        total += p.score
        passes += p.passes
    out = {"playouts": count, "win_rate": wins / count, "mean_score": total / count}
    if rating.counts_passes:
        out["mean_passes"] = passes / count
    return out


def solver_features(game: Game[Any], solution: SolveResult) -> dict[str, Any]:
    """What the solver result says. Reported, not weighted: the generic and the per-game
    solvers find different (not shortest) solutions with very different effort."""
    moves = solution.moves
    out: dict[str, Any] = {"solution_length": len(moves), "solver_nodes": solution.nodes}
    for feature, text in MODELS[game.name].solution_counts:
        out[feature] = sum(m == text for m in moves)
    return out
