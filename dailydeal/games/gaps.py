"""Gaps / Montana (RULES.md): build 2..K rows by suit into gaps; redeals only when blocked."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dailydeal import cards as C
from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.games.base import IN_PROGRESS, LOST, WON, Game, NumberedVariants
from dailydeal.shuffle import redeal_shuffle

ROWS, COLS = 4, 13


@dataclass(frozen=True, slots=True)
class Place:
    """``X``: a card moves right of its predecessor; ``2S@R``: a 2 moves to column 1 of row R."""

    card: int
    row: int | None = None  # 1..4, only for a 2

    def __str__(self) -> str:
        return C.name(self.card) + ("" if self.row is None else f"@{self.row}")


@dataclass(frozen=True, slots=True)
class Redeal:
    """``R``: collect, shuffle and deal back everything outside the kept sequences."""

    def __str__(self) -> str:
        return "R"


GapsMove = Place | Redeal
REDEAL = Redeal()


class Gaps(Game[GapsMove]):
    name = "gaps"
    variant = "standard"
    description = "two redeals, a redeal only when blocked"

    REDEALS: ClassVar[int] = 2

    def __init__(self, cards: Sequence[int], seed: int | None = None) -> None:
        super().__init__(cards, seed)
        self.cells: list[int | None] = [None if C.value(c) == C.ACE else c for c in self.cards]
        self.pos: list[int] = [-1] * 52  # cell of each card on the board, -1 for aces
        for i, c in enumerate(self.cells):
            if c is not None:
                self.pos[c] = i
        self.redeals_used = 0
        self._undo_info: list[list[int | None]] = []

    # --- notation -------------------------------------------------------------------
    def _parse_move(self, text: str) -> GapsMove:
        if text in ("R", "r"):
            return REDEAL
        card_text, at, row_text = text.partition("@")
        card = C.parse(card_text)
        if C.value(card) == C.ACE:
            raise InvalidMoveError(f"cannot read {text!r}: aces are out of play in Gaps")
        if at:
            if C.value(card) != 2:
                raise InvalidMoveError(f"cannot read {text!r}: only a 2 is sent to a row (2S@1)")
            if row_text not in ("1", "2", "3", "4"):
                raise InvalidMoveError(f"cannot read {text!r}: the row is 1, 2, 3 or 4")
            return Place(card, int(row_text))
        if C.value(card) == 2:
            rows = self.column_one_gaps()
            if len(rows) != 1:
                where = "no row" if not rows else "rows " + ", ".join(map(str, rows))
                raise IllegalMoveError(
                    f"{C.name(card)} needs a row: {where} {'has' if not rows else 'have'} a gap"
                    f" in column 1; write {C.name(card)}@R"
                )
            return Place(card, rows[0])
        return Place(card)

    # --- rules ----------------------------------------------------------------------
    def column_one_gaps(self) -> list[int]:
        """Rows (1..4) whose column 1 is a gap."""
        return [r + 1 for r in range(ROWS) if self.cells[r * COLS] is None]

    def place_moves(self) -> list[Place]:
        moves: list[Place] = []
        cells = self.cells
        for g, c in enumerate(cells):
            if c is not None:
                continue
            if g % COLS == 0:
                moves.extend(Place(C.make(2, s), g // COLS + 1) for s in range(4))
                continue
            left = cells[g - 1]
            if left is not None and C.value(left) != C.KING:
                moves.append(Place(left + 1))
        return moves

    def redeals_left(self) -> int:
        return self.REDEALS - self.redeals_used

    def legal_moves(self) -> list[GapsMove]:
        moves: list[GapsMove] = list(self.place_moves())
        if not moves and self.redeals_left() > 0 and not self.is_complete():
            moves.append(REDEAL)
        return moves

    def illegal_reason(self, move: GapsMove) -> str | None:
        if isinstance(move, Redeal):
            if self.is_complete():
                return "the game is won"
            if self.place_moves():
                return "a redeal is allowed only when blocked, and a move exists"
            if self.redeals_left() <= 0:
                return f"no redeal left (at most {self.REDEALS})"
            return None
        card = move.card
        if C.value(card) == C.ACE:
            return "aces are out of play in Gaps"
        if C.value(card) == 2:
            if move.row is None or not 1 <= move.row <= ROWS:
                return f"{C.name(card)} needs a row 1..4 ({C.name(card)}@R)"
            target = self.cells[(move.row - 1) * COLS]
            if target is not None:
                return f"row {move.row} has no gap in column 1 ({C.name(target)} is there)"
            return None
        if move.row is not None:
            return f"only a 2 is sent to a row; {C.name(card)} goes right of {C.name(card - 1)}"
        p = self.pos[card - 1]
        if p % COLS == COLS - 1:
            return f"{C.name(card - 1)} ends its row: there is no place right of it"
        right = self.cells[p + 1]
        if right is not None:
            return f"the place right of {C.name(card - 1)} holds {C.name(right)}, not a gap"
        return None

    def _target(self, move: Place) -> int:
        if move.row is not None:
            return (move.row - 1) * COLS
        return self.pos[move.card - 1] + 1

    def _apply(self, move: GapsMove) -> None:
        if isinstance(move, Redeal):
            self._undo_info.append(list(self.cells))
            self._redeal()
            return
        src, dst = self.pos[move.card], self._target(move)
        self.cells[src], self.cells[dst] = None, move.card
        self.pos[move.card] = dst
        self._undo_info.append([src])

    def _undo(self, move: GapsMove) -> None:
        info = self._undo_info.pop()
        if isinstance(move, Redeal):
            self.cells = info
            self.redeals_used -= 1
            self._reindex()
            return
        src = info[0]
        assert src is not None
        dst = self.pos[move.card]
        self.cells[dst], self.cells[src] = None, move.card
        self.pos[move.card] = src

    def _reindex(self) -> None:
        for i, c in enumerate(self.cells):
            if c is not None:
                self.pos[c] = i

    def kept_lengths(self) -> list[int]:
        """Per row, the length of the suit sequence from a 2 in column 1 (0..12)."""
        out = []
        for r in range(ROWS):
            base = r * COLS
            first = self.cells[base]
            n = 0
            if first is not None and C.value(first) == 2:
                n = 1
                while n < COLS - 1 and self.cells[base + n] == first + n:
                    n += 1
            out.append(n)
        return out

    def _redeal(self) -> None:
        kept = self.kept_lengths()
        collected = [
            c
            for r in range(ROWS)
            for c in self.cells[r * COLS + kept[r] : (r + 1) * COLS]
            if c is not None
        ]
        self.redeals_used += 1
        stream = redeal_shuffle(collected, 0 if self.seed is None else self.seed, self.redeals_used)
        it = iter(stream)
        for r in range(ROWS):
            base = r * COLS
            self.cells[base + kept[r]] = None
            for col in range(kept[r] + 1, COLS):
                self.cells[base + col] = next(it)
        self._reindex()

    def is_complete(self) -> bool:
        return self.kept_lengths() == [COLS - 1] * ROWS

    def status(self) -> str:
        if self.is_complete():
            return WON
        if self.place_moves() or self.redeals_left() > 0:
            return IN_PROGRESS
        return LOST

    def score(self) -> int:
        """Cards in kept sequences (0..48)."""
        return sum(self.kept_lengths())

    def key(self) -> Hashable:
        return (tuple(self.cells), self.redeals_used)

    # --- views ----------------------------------------------------------------------
    def _rows(self, cells: Sequence[int | None]) -> list[list[str | None]]:
        return [
            [None if (c := cells[r * COLS + k]) is None else C.name(c) for k in range(COLS)]
            for r in range(ROWS)
        ]

    def deal_json(self) -> dict[str, Any]:
        return {"rows": self._rows([None if C.value(c) == C.ACE else c for c in self.cards])}

    def position_json(self) -> dict[str, Any]:
        gaps = []
        for g, c in enumerate(self.cells):
            if c is not None:
                continue
            left = self.cells[g - 1] if g % COLS else None
            if g % COLS == 0:
                accepts: str | None = "any 2"
            elif left is None or C.value(left) == C.KING:
                accepts = None
            else:
                accepts = C.name(left + 1)
            gaps.append({"row": g // COLS + 1, "column": g % COLS + 1, "accepts": accepts})
        return {
            "rows": self._rows(self.cells),
            "gaps": gaps,
            "kept": self.kept_lengths(),
            "redeals_used": self.redeals_used,
            "redeals_left": self.redeals_left(),
        }

    def render(self) -> str:
        lines = [
            " ".join(
                " .." if c is None else f"{C.pretty(c):>3}"
                for c in self.cells[r * COLS : (r + 1) * COLS]
            )
            for r in range(ROWS)
        ]
        lines.append(f"redeals left: {self.redeals_left()}")
        return "\n".join(lines)


# Any redeals=N (N = 2 is the standard game itself).
redeals_variant = NumberedVariants(Gaps, "redeals", "REDEALS", (0, 9), lambda n: f"{n} redeals")

# The variants listed in the registry; any other redeals=N is made on demand.
REDEALS_VARIANTS: tuple[type[Gaps], ...] = tuple(redeals_variant(n) for n in (0, 1, 3))
