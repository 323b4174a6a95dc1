"""Each game's rating model, by the game's name: the player model that plays it, the
formula that turns the careful player's results into a rating, and their figures.

A table here, not names in the game's spec: the player models and the formulas are this
layer's (docs/architecture.md), and an import is an arrow tests/test_architecture.py sees.
tests/test_game_spec.py holds the table's keys to the registry of games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from dailydeal.rating.players import Playout, accordion_player, gaps_player, pyramid_player


class Player(Protocol):
    """A player model's entry: one playout of ``model`` on the deal of ``game`` (an engine of
    the game, its variant's settings honoured)."""

    def __call__(
        self, game: Any, rng: random.Random, model: str, *, record: bool = False
    ) -> Playout: ...


# A rating formula: a value 0..1 from the careful player's win rate ``w``, mean score and
# mean passes ``P`` (``combine()`` scales it to 0..100).
Formula = Callable[[float, float, float], float]


def accordion_rating(win_rate: float, mean_score: float, mean_passes: float) -> float:
    """Blind wins are rare, so the expected piles left ``m`` carries it,
    ``1 - exp(-(m - 1) / 8)``."""
    return 1 - math.exp(-(mean_score - 1) / 8)


def pyramid_rating(win_rate: float, mean_score: float, mean_passes: float) -> float:
    """Losing often and leaving cards ``L`` both count, and among deals the player always
    wins, the passes through the stock it needs,
    ``0.55 (1 - w) + 0.3 min(1, L / 14) + 0.15 min(1, (P - 1) / 6)``."""
    return (0.55 * (1 - win_rate) + 0.3 * min(1.0, mean_score / 14)
            + 0.15 * min(1.0, max(0.0, mean_passes - 1) / 6))


def gaps_rating(win_rate: float, mean_score: float, mean_passes: float) -> float:
    """Wins are rare, the share of the 48 cards not built ``S`` counts most,
    ``0.25 (1 - w) + 0.75 (1 - S / 48)``."""
    return 0.25 * (1 - win_rate) + 0.75 * (1 - mean_score / 48)


@dataclass(frozen=True)
class RatingModel:
    player: Player
    formula: Formula
    model_version: str  # bump when the player model changes, then recalibrate
    playouts: int  # playouts of the careful model per rated deal (about 0.1-0.3 s of CPU)
    counts_passes: bool  # the formula reads the passes through the stock
    solution_counts: tuple[tuple[str, str], ...] = ()  # (feature, move text) in a solution


MODELS: dict[str, RatingModel] = {
    "accordion": RatingModel(accordion_player, accordion_rating, "accordion-1", playouts=160,
                             counts_passes=False),
    "pyramid": RatingModel(pyramid_player, pyramid_rating, "pyramid-2", playouts=160,
                           counts_passes=True,
                           solution_counts=(("solution_draws", "d"), ("solution_recycles", "r"))),
    "gaps": RatingModel(gaps_player, gaps_rating, "gaps-1", playouts=32, counts_passes=False,
                        solution_counts=(("solution_redeals", "R"),)),
}
