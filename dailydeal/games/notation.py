"""The move codecs: each game's moves of the rules core <-> its notation (docs/rules.md), once.

A core move is what the rules core, the solvers and the player models handle: cards and
cells as ints. The engines' move classes print themselves with these functions and read
text with ``parse``; the solvers and the player models write their lines with them
(``tests/test_notation.py`` checks that every line they write reads back as it was written).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from dailydeal import cards as C
from dailydeal.cards import Card
from dailydeal.errors import InvalidMoveError
from dailydeal.games.rules.gaps import COLS, is_two

_NAMES: Final = C.CARD_NAMES
# Each parse below is a pure function of the text: the texts read last are remembered, so a
# replay (verify, state, results, hints) reads a move it has met before without parsing it.
# A text that raises is not remembered. Gaps has about 200 move texts, Pyramid and
# Accordion a few thousand pairs: 8192 keeps the common ones at some 1 MB a process.
PARSED: Final = 8192


class AccordionNotation:
    """``X>Y``: the pile topped by X goes onto the pile topped by Y; ``d`` deals."""

    DEAL: Final = "d"
    SEPARATOR: Final = ">"

    @staticmethod
    def pile(src: Card, dst: Card) -> str:
        return _NAMES[src] + ">" + _NAMES[dst]

    @staticmethod
    @lru_cache(maxsize=PARSED)
    def parse(text: str) -> tuple[Card, Card] | None:
        """(src, dst) of a pile move, None for a deal."""
        if text.lower() == "d":
            return None
        parts = text.split(">")
        if len(parts) != 2:
            raise InvalidMoveError(f"cannot read {text!r}: an Accordion move is X>Y or d")
        return C.parse(parts[0]), C.parse(parts[1])


class PyramidNotation:
    """``X+Y`` a pair (lower card first), ``KS`` a king alone, ``d`` draws, ``r`` recycles."""

    DRAW: Final = "d"
    RECYCLE: Final = "r"
    SEPARATOR: Final = "+"

    @staticmethod
    def pair(a: Card, b: Card) -> str:
        """One pair, one text: the lower card number first."""
        return _NAMES[a] + "+" + _NAMES[b] if a < b else _NAMES[b] + "+" + _NAMES[a]

    @staticmethod
    def king(card: Card) -> str:
        return _NAMES[card]

    @staticmethod
    @lru_cache(maxsize=PARSED)
    def parse(text: str) -> str | tuple[Card, ...]:
        """``DRAW`` or ``RECYCLE``, (king,) or (a, b) for a pair (as written)."""
        low = text.lower()
        if low in ("d", "r"):
            return low
        if "+" in text:
            parts = text.split("+")
            if len(parts) != 2:
                raise InvalidMoveError(f"cannot read {text!r}: a pair is X+Y")
            return C.parse(parts[0]), C.parse(parts[1])
        try:
            card = C.parse(text)
        except InvalidMoveError:
            raise InvalidMoveError(
                f"cannot read {text!r}: a Pyramid move is X+Y, a king (KS), d or r"
            ) from None
        if C.value(card) != C.KING:
            raise InvalidMoveError(
                f"cannot read {text!r}: only a king is removed alone; a pair is X+Y"
            )
        return (card,)


class GapsNotation:
    """``X`` a card right of its predecessor, ``2S@R`` a 2 to column 1 of row R, ``R``
    redeals."""

    REDEAL: Final = "R"
    SEPARATOR: Final = ""

    @staticmethod
    def place_row(card: Card, row: int | None) -> str:
        """A placement with the row (1..4) of a 2, None for another card."""
        return _NAMES[card] if row is None else f"{_NAMES[card]}@{row}"

    @staticmethod
    def place(card: Card, dst: int) -> str:
        """A placement as the core has it: the card and its destination cell."""
        if is_two(card):  # a 2 names its row
            return f"{_NAMES[card]}@{dst // COLS + 1}"
        return _NAMES[card]

    @staticmethod
    @lru_cache(maxsize=PARSED)
    def parse(text: str) -> tuple[Card, int | None] | None:
        """(card, row of a 2 or None) of a placement, None for a redeal. A 2 without a row
        is read with None: the engine knows whether one row has a gap in column 1."""
        if text in ("R", "r"):
            return None
        card_text, at, row_text = text.partition("@")
        card = C.parse(card_text)
        if C.value(card) == C.ACE:
            raise InvalidMoveError(f"cannot read {text!r}: aces are out of play in Gaps")
        if not at:
            return card, None
        if C.value(card) != 2:
            raise InvalidMoveError(f"cannot read {text!r}: only a 2 is sent to a row (2S@1)")
        if row_text not in ("1", "2", "3", "4"):
            raise InvalidMoveError(f"cannot read {text!r}: the row is 1, 2, 3 or 4")
        return card, int(row_text)
