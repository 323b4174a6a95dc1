"""Pyramid, relaxed (docs/rules.md): clear the 28 pyramid cards by pairs summing to 13 and kings.

The engine: notation, push/pop and JSON over the position of the rules core
(``dailydeal.games.rules.pyramid``): the mask of filled places, the stock and the waste.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dailydeal import cards as C
from dailydeal.cards import Card
from dailydeal.games.base import IN_PROGRESS, LOST, WON, Game, NumberedVariants
from dailydeal.games.notation import PyramidNotation as N
from dailydeal.games.rules import EMPTY
from dailydeal.games.rules import pyramid as rules
from dailydeal.games.rules.pyramid import COVERS, PLACE_OF, ROW_OF, ROWS, SIZE

__all__ = ["COVERS", "PLACE_OF", "ROW_OF", "ROWS", "SIZE", "Pyramid"]


@dataclass(frozen=True, slots=True)
class Pair:
    """``X+Y``: two accessible cards summing to 13 go to the foundation."""

    a: Card
    b: Card

    def __post_init__(self) -> None:
        if self.a > self.b:  # one pair, one value: store in canonical order
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return N.pair(self.a, self.b)

    def __repr__(self) -> str:
        return f"Pair({self})"


@dataclass(frozen=True, slots=True)
class King:
    """``KS``: an accessible king goes to the foundation alone."""

    card: Card

    def __str__(self) -> str:
        return N.king(self.card)

    def __repr__(self) -> str:
        return f"King({self})"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return N.DRAW

    def __repr__(self) -> str:
        return f"Draw({self})"


@dataclass(frozen=True, slots=True)
class Recycle:
    def __str__(self) -> str:
        return N.RECYCLE

    def __repr__(self) -> str:
        return f"Recycle({self})"


PyramidMove = Pair | King | Draw | Recycle
DRAW, RECYCLE = Draw(), Recycle()


def place_name(i: int) -> str:
    return f"row {ROW_OF[i] + 1}, place {PLACE_OF[i] + 1}"


class Pyramid(Game[PyramidMove]):
    name = "pyramid"
    variant = "relaxed"
    description = "clear the pyramid; unlimited recycles"

    PASSES: ClassVar[int | None] = None  # passes through the stock; None is unlimited

    def __init__(self, cards: Sequence[Card], seed: int | None = None) -> None:
        super().__init__(cards, seed)
        self.mask = rules.FULL  # the places still holding their card (the rules core's view)
        self.place: dict[Card, int] = {c: i for i, c in enumerate(self.cards[:SIZE])}
        self.stock: list[Card] = list(reversed(self.cards[SIZE:]))  # top (next drawn) last
        self.waste: list[Card] = []  # top last
        self.recycles = 0
        self._undo_info: list[list[tuple[str, int]]] = []

    # --- notation -------------------------------------------------------------------
    def _parse_move(self, text: str) -> PyramidMove:
        move = N.parse(text)
        if move == N.DRAW:
            return DRAW
        if move == N.RECYCLE:
            return RECYCLE
        assert isinstance(move, tuple)
        return King(move[0]) if len(move) == 1 else Pair(move[0], move[1])

    # --- rules ----------------------------------------------------------------------
    @property
    def pyramid(self) -> list[Card | None]:
        """The 28 places, None where the card has left."""
        return [c if self.mask >> i & 1 else None for i, c in enumerate(self.cards[:SIZE])]

    def is_accessible_place(self, i: int) -> bool:
        return rules.is_free(self.mask, i)

    def accessible(self) -> list[Card]:
        """Accessible pyramid cards, in place order."""
        cards = self.cards
        return [cards[i] for i in rules.free_places(self.mask)]

    def waste_top(self) -> Card:
        return self.waste[-1] if self.waste else EMPTY

    def may_recycle(self) -> bool:
        return rules.may_recycle(self.PASSES, self.recycles)

    def recycles_left(self) -> float:
        return float("inf") if self.PASSES is None else self.PASSES - 1 - self.recycles

    def legal_moves(self) -> list[PyramidMove]:
        cards = self.cards
        places = rules.free_places(self.mask)
        top = self.waste_top()
        moves: list[PyramidMove] = [
            Pair(cards[a], top if b < 0 else cards[b]) for a, b in rules.pairs(cards, places, top)
        ]
        moves.extend(King(cards[i]) for i in places if rules.is_king(cards[i]))
        if top != EMPTY and rules.is_king(top):
            moves.append(King(top))
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self.may_recycle():
            moves.append(RECYCLE)
        return moves

    def _locate(self, card: Card) -> str | None:
        """None when the card is accessible, else why it is not."""
        i = self.place.get(card)
        if i is not None and self.mask >> i & 1:
            covering = [C.name(self.cards[k]) for k in COVERS[i] if self.mask >> k & 1]
            if covering:
                return f"{C.name(card)} is covered by {' and '.join(covering)}"
            return None
        if self.waste and self.waste[-1] == card:
            return None
        if card in self.waste:
            return f"{C.name(card)} is in the waste under {C.name(self.waste[-1])}"
        if card in self.stock:
            return f"{C.name(card)} is in the stock"
        return f"{C.name(card)} is already on the foundation"

    def illegal_reason(self, move: PyramidMove) -> str | None:
        if isinstance(move, Draw):
            return None if self.stock else self._empty_stock_reason()
        if isinstance(move, Recycle):
            if self.stock:
                return "the stock is not empty yet"
            if not self.waste:
                return "the waste is empty"
            if not self.may_recycle():
                return f"no pass through the stock is left (at most {self.PASSES})"
            return None
        if isinstance(move, King):
            if not rules.is_king(move.card):
                return f"{C.name(move.card)} is not a king"
            return self._locate(move.card)
        if not rules.is_pair(move.a, move.b):
            return f"{C.name(move.a)} and {C.name(move.b)} do not sum to 13"
        return self._locate(move.a) or self._locate(move.b)

    def _empty_stock_reason(self) -> str:
        # Offer the recycle only when it is allowed (passes=N may have used them all).
        if not self.waste:
            return "the stock and the waste are empty"
        if not self.may_recycle():
            return f"the stock is empty and no pass through it is left (at most {self.PASSES})"
        return "the stock is empty: recycle the waste with r"

    def _remove(self, card: Card, undo: list[tuple[str, int]]) -> None:
        i = self.place.get(card)
        if i is not None and self.mask >> i & 1:
            self.mask &= ~(1 << i)
            undo.append(("p", i))
        else:
            self.waste.pop()
            undo.append(("w", card))

    def _apply(self, move: PyramidMove) -> None:
        if isinstance(move, Draw):
            rules.draw(self.stock, self.waste)
        elif isinstance(move, Recycle):
            rules.recycle(self.stock, self.waste)
            self.recycles += 1
        else:
            undo: list[tuple[str, int]] = []
            for card in (move.card,) if isinstance(move, King) else (move.a, move.b):
                self._remove(card, undo)
            self._undo_info.append(undo)

    def _undo(self, move: PyramidMove) -> None:
        if isinstance(move, Draw):
            rules.undraw(self.stock, self.waste)
        elif isinstance(move, Recycle):
            rules.unrecycle(self.stock, self.waste)
            self.recycles -= 1
        else:
            for kind, x in reversed(self._undo_info.pop()):
                if kind == "p":
                    self.mask |= 1 << x
                else:
                    self.waste.append(x)

    def pyramid_left(self) -> int:
        return self.mask.bit_count()

    def can_progress(self) -> bool:
        """Can some sequence of draws and recycles lead to removing a pyramid card?"""
        return rules.can_progress(
            self.cards, self.mask, self.stock, self.waste, self.may_recycle()
        )

    def reachable(self) -> list[Card]:
        """Stock and waste cards that draws and recycles can bring to the waste top."""
        return rules.reachable(self.stock, self.waste, self.may_recycle())

    def status(self) -> str:
        if rules.is_won(self.mask):
            return WON
        lost = rules.is_lost(self.cards, self.mask, self.stock, self.waste, self.may_recycle())
        return LOST if lost else IN_PROGRESS

    def score(self) -> int:
        """Pyramid cards left (0 is a win)."""
        return self.pyramid_left()

    def key(self) -> Hashable:
        recycles = self.recycles if self.PASSES is not None else 0
        return (self.mask, tuple(self.stock), tuple(self.waste), recycles)

    # --- views ----------------------------------------------------------------------
    def _rows(self, cells: Sequence[Card | None]) -> list[list[str | None]]:
        return [
            [
                None if (c := cells[r * (r + 1) // 2 + p]) is None else C.name(c)
                for p in range(r + 1)
            ]
            for r in range(ROWS)
        ]

    def deal_json(self) -> dict[str, Any]:
        return {"pyramid": self._rows(self.cards[:SIZE]), "stock": C.names(self.cards[SIZE:])}

    def position_json(self) -> dict[str, Any]:
        return {
            "pyramid": self._rows(self.pyramid),
            "stock_count": len(self.stock),
            "waste": C.names(self.waste),
            "accessible": C.names(self.accessible()),
            "passes_left": None if self.PASSES is None else int(self.recycles_left()) + 1,
        }

    def render(self) -> str:
        lines = []
        pyramid = self.pyramid
        for r in range(ROWS):
            cells = [pyramid[r * (r + 1) // 2 + p] for p in range(r + 1)]
            text = " ".join(" .." if c is None else f"{C.pretty(c):>3}" for c in cells)
            lines.append(" " * (2 * (ROWS - 1 - r)) + text)
        top = C.pretty(self.waste[-1]) if self.waste else "--"
        lines.append(f"stock: {len(self.stock)} cards   waste: {top} ({len(self.waste)} cards)")
        return "\n".join(lines)


# Any passes=N; None (unlimited) is the relaxed game itself.
passes_variant = NumberedVariants(
    Pyramid, "passes", "PASSES", (1, 99), lambda n: f"at most {n} passes through the stock"
)

# The variants listed in the registry; any other passes=N is made on demand.
PASSES_VARIANTS: tuple[type[Pyramid], ...] = tuple(passes_variant(n) for n in (1, 2, 3))
