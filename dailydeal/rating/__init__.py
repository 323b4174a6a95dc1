"""Difficulty: ``rate()`` -> a rating 0..100 and a tier per game.

PROVISIONAL: the rating below uses solver effort only; the rating issue replaces it with
player-model playouts and calibrated tiers. The interface stays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from dailydeal.games import new_game
from dailydeal.solvers import SolveResult, solve_position

TIERS = ("easy", "medium", "hard", "expert")


@dataclass
class Rating:
    rating: float  # 0 (trivial) .. 100 (hardest)
    tier: str
    features: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"rating": round(self.rating, 2), "tier": self.tier, "features": self.features}


def tier_of(game: str, rating: float) -> str:
    thresholds = (25.0, 50.0, 75.0)
    return TIERS[sum(rating >= t for t in thresholds)]


def rate(
    game: str,
    seed: int | None = None,
    variant: str | None = None,
    *,
    cards: Any = None,
    solution: SolveResult | None = None,
) -> Rating:
    """Rate a winnable deal; raises ValueError if the solver does not win it."""
    position = new_game(game, seed, variant, cards)
    result = solution or solve_position(position, time_limit=10)
    if result.status != "won":
        raise ValueError(f"deal is not known to be winnable (solver: {result.status})")
    value = min(100.0, 100.0 * math.log10(1 + result.nodes) / 7)
    return Rating(value, tier_of(game, value), {"solver_nodes": result.nodes})
