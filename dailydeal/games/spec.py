"""What each game is, said once: a ``GameSpec`` per game, in the manner of python-chess's
variant classes.

Everything outside ``dailydeal/games/`` that behaves differently from game to game reads
the game's spec (``dailydeal.games.spec_of``) instead of comparing its name: the hint
budgets, whether a solution is shortest, and what the CLI and the web show.
(``tests/test_game_spec.py`` fails when a module outside ``games/`` compares a name.)

The solver, the player model and the rating formula live in layers above ``games/``
(docs/architecture.md), so they are not here: each of those layers keeps a table by game
name (``dailydeal.solvers.SOLVERS``, ``dailydeal.rating.models.MODELS``).

A spec names its engines and rules core by a loader (``load``), imported when first asked
for (``variants``, ``rules``): ``dailydeal solve accordion`` imports neither the Pyramid
nor the Gaps engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any, Literal

from dailydeal.games.base import Game

GameClass = type[Game[Any]]
# Whether a won solution is the shortest: EVERY: every win of a deal has the same length;
# PROVED: when the solver says so (stats "optimal"); NEVER: the solver does not look for it.
Shortest = Literal["every", "proved", "never"]
EVERY: Shortest = "every"
PROVED: Shortest = "proved"
NEVER: Shortest = "never"
# How a deal is laid out, for pictures of it (daily/picture.py draws each kind): rows of
# a pyramid over a stock; a grid of rows with gaps; a stock dealt into one row.
Layout = Literal["pyramid", "grid", "row"]


@dataclass(frozen=True)
class GameSpec:
    """One game: its variants, its rules core, its hint budgets and shortest claims, and
    what is shown of it."""

    name: str  # as in URLs and the API
    title: str  # as a person reads it
    # the engines (the first is the default variant) and the rules core
    # (dailydeal.games.rules.<game>), imported when first asked for: ``variants``, ``rules``
    load: Callable[[], tuple[tuple[GameClass, ...], ModuleType]]
    hint_max_nodes: int  # the node budget of a hint's search
    hint_first_nodes: int | None  # a first, smaller search; None: search once
    shortest: Shortest
    # With PROVED: the oldest solver VERSION whose "proved shortest" claims stand; a
    # stored solution made (or last rechecked) by an older one is not claimed shortest
    # (``dailydeal recheck`` re-solves those rows; docs/api.md).
    shortest_since: int
    daily: bool  # dealt every day
    # What the web and the CLI need to show it:
    layout: Layout
    shows_par: bool  # the daily page shows the solution length as "par"
    stuck: str  # said of a selected card that has no move
    example: str  # a few moves in the notation, the notation box's placeholder
    score_name: str  # the score's name on the board ("Piles")
    score_title: str  # what the score counts, in a sentence
    shows_dealing_order: bool  # `dailydeal deal` prints the stock in dealing order
    goal: str
    play: str
    notation: str
    score: str
    clicks: str  # how to play it with a mouse or a finger

    @cached_property
    def variants(self) -> tuple[GameClass, ...]:
        """The engines, the first the default variant (imported at the first call)."""
        return self.load()[0]

    @cached_property
    def rules(self) -> ModuleType:
        """The rules core, ``dailydeal.games.rules.<game>``."""
        return self.load()[1]

    @property
    def default(self) -> GameClass:
        return self.variants[0]

    def info(self) -> dict[str, str]:
        """What ``GET /games/{game}`` and the play page say of the rules."""
        return {"goal": self.goal, "play": self.play, "notation": self.notation,
                "score": self.score}

    def browser(self) -> dict[str, Any]:
        """What the page's element shows differently from game to game, never a rule: the
        ``SPECS`` table of web/static/specs.js (tests/test_game_spec.py holds it equal); the
        rules, the moves and their words are rules.js's; its names and words (title, score
        name, a stuck card) are the catalogs' (web/static/locales/, tests/test_i18n.py)."""
        return {"layout": self.layout, "shows_par": self.shows_par, "example": self.example}


# The loaders: imports inside functions, as the engines import this module's neighbours
# (and tests/test_architecture.py sees each arrow).
def _accordion() -> tuple[tuple[GameClass, ...], ModuleType]:
    from dailydeal.games.accordion import Accordion, ForcedAccordion, OpenAccordion
    from dailydeal.games.rules import accordion

    return (Accordion, ForcedAccordion, OpenAccordion), accordion


def _pyramid() -> tuple[tuple[GameClass, ...], ModuleType]:
    from dailydeal.games.pyramid import PASSES_VARIANTS, Pyramid
    from dailydeal.games.rules import pyramid

    return (Pyramid, *PASSES_VARIANTS), pyramid


def _gaps() -> tuple[tuple[GameClass, ...], ModuleType]:
    from dailydeal.games.gaps import REDEALS_VARIANTS, Gaps
    from dailydeal.games.rules import gaps

    return (Gaps, *REDEALS_VARIANTS), gaps


def _specs() -> tuple[GameSpec, ...]:
    return (
        GameSpec(
            name="accordion", title="Accordion",
            load=_accordion,
            hint_max_nodes=30_000, hint_first_nodes=None,
            # Every win has the same length: each deal adds a pile, each move takes one
            # away, and a win is one pile with the stock empty, so from s cards in stock
            # and p piles a line has s deals and p + s - 1 moves, whatever their order.
            shortest=EVERY, shortest_since=0, layout="row",
            daily=True, shows_par=False, shows_dealing_order=True,
            stuck="has nowhere to go now", example="4D>4S", score_name="Piles",
            score_title="Score: the piles left, lower is better; 1 pile is a win",
            goal="Squeeze the 52 cards into a single pile.",
            play=(
                "Deal the stock one card at a time to the right end of a row. A pile moves onto "
                "the pile immediately to its left or exactly three places to its left when their "
                "top cards share a suit or a rank. Moves are optional."
            ),
            notation=(
                "X>Y moves the pile topped by X onto the pile topped by Y (4D>4S); d deals. "
                "Deals may be left out: the verifier deals just enough, and the rest at the end."
            ),
            score="Piles left; 1 is a win.",
            clicks=(
                "Click the stock to deal. Click a pile, then the pile to land it on: one or "
                "three places to its left, with the same suit or rank on top. The landing "
                "places light up."
            ),
        ),
        GameSpec(
            name="pyramid", title="Pyramid",
            load=_pyramid,
            # A Pyramid node (A*) costs far more than the others; past its budget, Pyramid
            # still answers with its pool plan (a win, not proved shortest). The first
            # search: within 600 nodes its A* proves the line shortest on about half of
            # the positions off a stored line (dailydeal.hints).
            hint_max_nodes=5_000, hint_first_nodes=600,
            # Its bounds were not admissible in solver VERSION 3 to 7 (issue 28), nor,
            # window_blocked's table, up to 13 (issue 41).
            shortest=PROVED, shortest_since=14, layout="pyramid",
            daily=True, shows_par=True, shows_dealing_order=False,
            stuck="has no partner now", example="d 7S+6H KC r", score_name="Cards left",
            score_title="Score: the pyramid cards left, lower is better; 0 is a win",
            goal="Clear the 28 cards of the pyramid.",
            play=(
                "Remove two accessible cards whose values sum to 13 (J=11, Q=12), or a king "
                "alone. Draw from the stock to the waste; recycle the waste when the stock is "
                "empty (unlimited in the default variant)."
            ),
            notation="X+Y pairs two cards (5H+8C); KS removes a king; d draws; r recycles.",
            score="Pyramid cards left; 0 is a win.",
            clicks=(
                "Click a card, then its partner (the two sum to 13); a king goes with one "
                "click. Click the stock to draw, the empty stock to recycle the waste."
            ),
        ),
        GameSpec(
            name="gaps", title="Gaps",
            load=_gaps,
            hint_max_nodes=30_000, hint_first_nodes=None,
            shortest=NEVER, shortest_since=0, layout="grid",
            daily=True, shows_par=True, shows_dealing_order=False,
            stuck="has nowhere to go now", example="8C 2S@3 R", score_name="In place",
            score_title="Score: the cards in kept sequences, higher is better; 48 is a win",
            goal="Order each of the 4 rows 2..K of one suit from column 1.",
            play=(
                "The aces are removed, leaving 4 gaps. A card moves into the gap right of its "
                "predecessor (same suit, one rank lower); a 2 moves into a gap in column 1. "
                "When blocked, redeal the cards not in place (2 redeals in the default variant)."
            ),
            notation="X moves card X (8C); 2S@R moves a 2 to column 1 of row R; R redeals.",
            score="Cards in kept sequences (0..48); 48 is a win.",
            clicks=(
                "Click a card to move it into the gap after its predecessor, or click a gap "
                "to fill it; a 2 goes to a gap in column 1. When blocked, redeal."
            ),
        ),
    )


SPECS: dict[str, GameSpec] = {spec.name: spec for spec in _specs()}
