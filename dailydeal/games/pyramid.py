"""Pyramid, relaxed (RULES.md): clear the 28 pyramid cards by pairs summing to 13 and kings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dailydeal import cards as C
from dailydeal.errors import InvalidMoveError
from dailydeal.games.base import IN_PROGRESS, LOST, WON, Game, NumberedVariants

ROWS = 7
SIZE = 28  # pyramid places; index of row r (0-based), place p: r * (r + 1) // 2 + p
ROW_OF = tuple(r for r in range(ROWS) for _ in range(r + 1))
PLACE_OF = tuple(p for r in range(ROWS) for p in range(r + 1))
# The two places that cover each place (none for the bottom row).
COVERS: tuple[tuple[int, ...], ...] = tuple(
    () if r == ROWS - 1 else ((r + 1) * (r + 2) // 2 + p, (r + 1) * (r + 2) // 2 + p + 1)
    for r in range(ROWS)
    for p in range(r + 1)
)

_FIRST_BOTTOM = SIZE - ROWS  # index of the first place of row 7
_LEFT_COVER = tuple(c[0] for c in COVERS[:_FIRST_BOTTOM])


@dataclass(frozen=True, slots=True)
class Pair:
    """``X+Y``: two accessible cards summing to 13 go to the foundation."""

    a: int
    b: int

    def __post_init__(self) -> None:
        if self.a > self.b:  # one pair, one value: store in canonical order
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"{C.name(self.a)}+{C.name(self.b)}"


@dataclass(frozen=True, slots=True)
class King:
    """``KS``: an accessible king goes to the foundation alone."""

    card: int

    def __str__(self) -> str:
        return C.name(self.card)


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class Recycle:
    def __str__(self) -> str:
        return "r"


PyramidMove = Pair | King | Draw | Recycle
DRAW, RECYCLE = Draw(), Recycle()


def place_name(i: int) -> str:
    return f"row {ROW_OF[i] + 1}, place {PLACE_OF[i] + 1}"


class Pyramid(Game[PyramidMove]):
    name = "pyramid"
    variant = "relaxed"
    description = "clear the pyramid; unlimited recycles"

    PASSES: ClassVar[int | None] = None  # passes through the stock; None is unlimited

    def __init__(self, cards: Sequence[int], seed: int | None = None) -> None:
        super().__init__(cards, seed)
        self.pyramid: list[int | None] = list(self.cards[:SIZE])
        self.place: dict[int, int] = {c: i for i, c in enumerate(self.cards[:SIZE])}
        self.stock: list[int] = list(reversed(self.cards[SIZE:]))  # top (next drawn) last
        self.waste: list[int] = []  # top last
        self.recycles = 0
        self._undo_info: list[list[tuple[str, int]]] = []

    # --- notation -------------------------------------------------------------------
    def _parse_move(self, text: str) -> PyramidMove:
        low = text.lower()
        if low == "d":
            return DRAW
        if low == "r":
            return RECYCLE
        if "+" in text:
            parts = text.split("+")
            if len(parts) != 2:
                raise InvalidMoveError(f"cannot read {text!r}: a pair is X+Y")
            return Pair(C.parse(parts[0]), C.parse(parts[1]))
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
        return King(card)

    # --- rules ----------------------------------------------------------------------
    def is_accessible_place(self, i: int) -> bool:
        return self.pyramid[i] is not None and all(self.pyramid[c] is None for c in COVERS[i])

    def accessible(self) -> list[int]:
        """Accessible pyramid cards, in place order (a hot path for solvers and players)."""
        pyr = self.pyramid
        out = []
        for i in range(_FIRST_BOTTOM):  # rows 1..6: covered by places a and a + 1
            c = pyr[i]
            if c is not None:
                a = _LEFT_COVER[i]
                if pyr[a] is None and pyr[a + 1] is None:
                    out.append(c)
        out.extend(c for c in pyr[_FIRST_BOTTOM:] if c is not None)
        return out

    def recycles_left(self) -> float:
        return float("inf") if self.PASSES is None else self.PASSES - 1 - self.recycles

    def legal_moves(self) -> list[PyramidMove]:
        acc = self.accessible()
        top = self.waste[-1] if self.waste else None
        moves: list[PyramidMove] = []
        for n, a in enumerate(acc):
            for b in acc[n + 1 :]:
                if C.value(a) + C.value(b) == 13:
                    moves.append(Pair(a, b))
            if top is not None and C.value(a) + C.value(top) == 13:
                moves.append(Pair(a, top))
        moves.extend(King(c) for c in acc if C.value(c) == C.KING)
        if top is not None and C.value(top) == C.KING:
            moves.append(King(top))
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self.recycles_left() > 0:
            moves.append(RECYCLE)
        return moves

    def _locate(self, card: int) -> str | None:
        """None when the card is accessible, else why it is not."""
        i = self.place.get(card)
        if i is not None and self.pyramid[i] is not None:
            covering = [C.name(c) for k in COVERS[i] if (c := self.pyramid[k]) is not None]
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
            return None if self.stock else "the stock is empty: recycle the waste with r"
        if isinstance(move, Recycle):
            if self.stock:
                return "the stock is not empty yet"
            if not self.waste:
                return "the waste is empty"
            if self.recycles_left() <= 0:
                return f"no pass through the stock is left (at most {self.PASSES})"
            return None
        if isinstance(move, King):
            if C.value(move.card) != C.KING:
                return f"{C.name(move.card)} is not a king"
            return self._locate(move.card)
        if C.value(move.a) + C.value(move.b) != 13:
            return f"{C.name(move.a)} and {C.name(move.b)} do not sum to 13"
        return self._locate(move.a) or self._locate(move.b)

    def _remove(self, card: int, undo: list[tuple[str, int]]) -> None:
        i = self.place.get(card)
        if i is not None and self.pyramid[i] == card:
            self.pyramid[i] = None
            undo.append(("p", i))
        else:
            self.waste.pop()
            undo.append(("w", card))

    def _apply(self, move: PyramidMove) -> None:
        if isinstance(move, Draw):
            self.waste.append(self.stock.pop())
        elif isinstance(move, Recycle):
            self.stock = self.waste[::-1]
            self.waste = []
            self.recycles += 1
        else:
            undo: list[tuple[str, int]] = []
            for card in (move.card,) if isinstance(move, King) else (move.a, move.b):
                self._remove(card, undo)
            self._undo_info.append(undo)

    def _undo(self, move: PyramidMove) -> None:
        if isinstance(move, Draw):
            self.stock.append(self.waste.pop())
        elif isinstance(move, Recycle):
            self.waste = self.stock[::-1]
            self.stock = []
            self.recycles -= 1
        else:
            for kind, x in reversed(self._undo_info.pop()):
                if kind == "p":
                    self.pyramid[x] = self.cards[x]
                else:
                    self.waste.append(x)

    def pyramid_left(self) -> int:
        return SIZE - self.pyramid.count(None)

    def can_progress(self) -> bool:
        """Can some sequence of draws and recycles lead to removing a pyramid card?"""
        acc = self.accessible()
        values = {C.value(c) for c in acc}
        if C.KING in values or any(13 - v in values for v in values):
            return True
        return any(13 - C.value(c) in values for c in self.reachable())

    def reachable(self) -> list[int]:
        """Stock and waste cards that draws and recycles can bring to the waste top.

        Every stock card can be drawn. With a recycle left, every waste card comes round
        again. Without one, only the waste top is reachable, and the cards under it as long
        as everything above them is a king (a waste king leaves alone, uncovering the next).
        """
        out = list(self.stock)
        if self.recycles_left() > 0:
            out.extend(self.waste)
            return out
        for card in reversed(self.waste):
            out.append(card)
            if C.value(card) != C.KING:
                break
        return out

    def status(self) -> str:
        if self.pyramid_left() == 0:
            return WON
        return IN_PROGRESS if self.can_progress() else LOST

    def score(self) -> int:
        """Pyramid cards left (0 is a win)."""
        return self.pyramid_left()

    def key(self) -> Hashable:
        mask = sum(1 << i for i, c in enumerate(self.pyramid) if c is not None)
        recycles = self.recycles if self.PASSES is not None else 0
        return (mask, tuple(self.stock), tuple(self.waste), recycles)

    # --- views ----------------------------------------------------------------------
    def _rows(self, cells: Sequence[int | None]) -> list[list[str | None]]:
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
        for r in range(ROWS):
            cells = [self.pyramid[r * (r + 1) // 2 + p] for p in range(r + 1)]
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
