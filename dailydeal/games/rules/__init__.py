"""The rules core: each rule of docs/rules.md stated once, per game, as plain functions.

A position is flat: lists (or bytes) of card ints, with ``EMPTY`` wherever no card is (a
Gaps cell, the waste top of an empty waste). The engine classes of ``dailydeal.games``
(push/pop, notation, JSON), the solvers and the player models all call these functions or
the tables they are built from; no other module decides what is legal, what a move does,
what is won or what a redeal deals. (``tests/test_rules_core.py`` holds them to it.)
"""

from __future__ import annotations

from typing import Final

from dailydeal.cards import Card

EMPTY: Final[Card] = 52  # no card here; one past the last card, so it fits in a byte

__all__ = ["EMPTY"]
