"""Gaps / Montana (docs/rules.md): build 2..K rows by suit into gaps; redeals only when blocked.

The engine: notation, push/pop and JSON over the 52 cells of the rules core
(``dailydeal.games.rules.gaps``), ``EMPTY`` for a gap.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dailydeal import cards as C
from dailydeal.cards import Card
from dailydeal.errors import IllegalMoveError
from dailydeal.games.base import IN_PROGRESS, LOST, WON, Game, NumberedVariants
from dailydeal.games.notation import GapsNotation as N
from dailydeal.games.rules import EMPTY
from dailydeal.games.rules import gaps as rules
from dailydeal.games.rules.gaps import COLS, ROWS

__all__ = ["COLS", "EMPTY", "REDEAL", "ROWS", "Gaps", "Place", "Redeal"]


@dataclass(frozen=True, slots=True)
class Place:
    """``X``: a card moves right of its predecessor; ``2S@R``: a 2 moves to column 1 of row R."""

    card: Card
    row: int | None = None  # 1..4, only for a 2
    # its notation, written once: a won verify writes out its whole line (the solve's id)
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", N.place_row(self.card, self.row))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Place({self})"


@dataclass(frozen=True, slots=True)
class Redeal:
    """``R``: collect, shuffle and deal back everything outside the kept sequences."""

    text: ClassVar[str] = N.REDEAL

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Redeal({self})"


GapsMove = Place | Redeal
REDEAL = Redeal()
# Every placement there is, made once (a Place is immutable: one object serves every game).
# A replay reads a move per text; making a frozen dataclass per move was a tenth of it.
_PLACES: dict[tuple[Card, int | None], Place] = {
    (card, row): Place(card, row) for card in range(52) for row in (None, 1, 2, 3, 4)
}
# The placements whose reading needs no position, by their text as the notation writes it
# (``KS``, ``2S@1``: every line the solvers, the element and the API give): what
# ``parse_move`` reads them as, looked up in one step, with the cell a 2 goes to (-1 for
# another card: right of its predecessor). Any other text (a redeal, a 2 without its row,
# another spelling) is read by ``parse_move``.
_READ: dict[str, tuple[Place, int]] = {
    str(place): (place, -1 if row is None else rules.target((), card, row))
    for (card, row), place in _PLACES.items()
    if not rules.is_ace(card) and (row is None) != rules.is_two(card)
}


def _target(cells: Sequence[Card], pos: Sequence[int], card: Card, row: int | None) -> int:
    """The cell a placement goes to when it is legal now, else -1 (``Gaps._refusal``
    says why): a 2 to the gap in column 1 of its row, another card (no ace) to the gap
    right of its predecessor, when that is not the last of its row."""
    rank = card % 13  # rules.is_two and rules.is_ace, inlined: a replay's hottest line
    if rank == 1:
        if row is None or not 1 <= row <= ROWS:
            return -1
    elif rank == 0 or row is not None or pos[card - 1] % COLS == COLS - 1:
        return -1
    dst = rules.target(pos, card, row)
    return dst if cells[dst] == EMPTY else -1


class Gaps(Game[GapsMove]):
    name = "gaps"
    variant = "standard"
    description = "two redeals, a redeal only when blocked"

    REDEALS: ClassVar[int] = 2

    def __init__(self, cards: Sequence[Card], seed: int | None = None) -> None:
        super().__init__(cards, seed)
        self.cells: list[Card] = rules.start_cells(self.cards)  # EMPTY for a gap
        self.pos: list[int] = rules.positions(self.cells)  # cell of each card, -1 for aces
        self.redeals_used = 0
        # per move pushed: the cell a placement left, or the cells before a redeal
        self._undo_info: list[int | list[Card]] = []

    # --- notation -------------------------------------------------------------------
    def _parse_move(self, text: str) -> GapsMove:
        move = N.parse(text)
        if move is None:
            return REDEAL
        card, row = move
        if row is not None:
            return _PLACES[card, row]
        if C.value(card) == 2:
            rows = self.column_one_gaps()
            if len(rows) != 1:
                where = "no row" if not rows else "rows " + ", ".join(map(str, rows))
                raise IllegalMoveError(
                    f"{C.name(card)} needs a row: {where} {'has' if not rows else 'have'} a gap"
                    f" in column 1; write {C.name(card)}@R"
                )
            return _PLACES[card, rows[0]]
        return _PLACES[card, None]

    # --- rules ----------------------------------------------------------------------
    def column_one_gaps(self) -> list[int]:
        """Rows (1..4) whose column 1 is a gap."""
        return [r + 1 for r in range(ROWS) if self.cells[r * COLS] == EMPTY]

    def place_moves(self) -> list[Place]:
        return [
            _PLACES[card, dst // COLS + 1 if rules.is_two(card) else None]
            for card, dst in rules.place_moves(self.cells)
        ]

    def line(self) -> list[str]:
        return [m.text for m in self.move_stack]  # each move's text, written once

    def redeals_left(self) -> int:
        return self.REDEALS - self.redeals_used

    def legal_moves(self) -> list[GapsMove]:
        moves: list[GapsMove] = list(self.place_moves())
        if not moves and rules.can_redeal(self.cells, self.redeals_left()):
            moves.append(REDEAL)
        return moves

    def illegal_reason(self, move: GapsMove) -> str | None:
        if isinstance(move, Redeal):
            if self.is_complete():
                return "the game is won"
            if rules.place_moves(self.cells):
                return "a redeal is allowed only when blocked, and a move exists"
            if self.redeals_left() <= 0:
                return f"no redeal left (at most {self.REDEALS})"
            return None
        return self._placement(move)[0]

    def _placement(self, move: Place) -> tuple[str | None, int]:
        """(None, the cell it goes to) when the placement is legal now, else (the reason,
        -1): push reads the cell found by the check instead of looking for it again."""
        dst = _target(self.cells, self.pos, move.card, move.row)
        return (None, dst) if dst >= 0 else (self._refusal(move), -1)

    def _refusal(self, move: Place) -> str:
        """Why a placement is not legal now (``_target`` found no cell for it)."""
        card = move.card
        value = C.value(card)
        if value == C.ACE:
            return "aces are out of play in Gaps"
        if value == 2:
            if move.row is None or not 1 <= move.row <= ROWS:
                return f"{C.name(card)} needs a row 1..4 ({C.name(card)}@R)"
            target = self.cells[rules.target(self.pos, card, move.row)]
            return f"row {move.row} has no gap in column 1 ({C.name(target)} is there)"
        if move.row is not None:
            return f"only a 2 is sent to a row; {C.name(card)} goes right of {C.name(card - 1)}"
        if self.pos[card - 1] % COLS == COLS - 1:
            return f"{C.name(card - 1)} ends its row: there is no place right of it"
        right = self.cells[rules.target(self.pos, card, None)]
        return f"the place right of {C.name(card - 1)} holds {C.name(right)}, not a gap"

    def push(self, move: GapsMove) -> None:
        if isinstance(move, Redeal):
            super().push(move)
            return
        reason, dst = self._placement(move)  # checked and found in one pass
        if reason is not None:
            raise IllegalMoveError(reason)
        self._undo_info.append(rules.move(self.cells, self.pos, move.card, dst))
        self.move_stack.append(move)

    def play_texts(self, texts: Sequence[str]) -> tuple[int, str | None]:
        """``Game.play_texts``, a placement written as the notation writes it read in one
        lookup and played at once when legal (a verify replays 100 or so of them); any
        other text, and a refusal, go the general way, which says why."""
        cells, pos = self.cells, self.pos
        stack, undo = self.move_stack, self._undo_info
        move = rules.move
        for i, text in enumerate(texts):
            found = _READ.get(text)
            if found is not None:
                # _target inlined (a verify's hottest loop): a 2's cell is known, another
                # card goes right of its predecessor unless that ends its row
                place, dst = found
                if dst < 0 and (dst := pos[place.card - 1] + 1) % COLS == 0:
                    dst = -1
                if dst >= 0 and cells[dst] == EMPTY:
                    undo.append(move(cells, pos, place.card, dst))
                    stack.append(place)
                    continue
            try:
                self.play(self.parse_move(text))
            except ValueError as exc:  # InvalidMoveError and IllegalMoveError alike
                return i, str(exc)
            cells, pos = self.cells, self.pos  # a redeal lays out new ones
        return len(texts), None

    def _apply(self, move: GapsMove) -> None:
        # a redeal: push plays a placement itself, at the cell its check found
        assert isinstance(move, Redeal)
        self._undo_info.append(self.cells)
        self.redeals_used += 1
        self.cells = rules.redeal(self.cells, self.seed, self.redeals_used)
        self.pos = rules.positions(self.cells)

    def _undo(self, move: GapsMove) -> None:
        info = self._undo_info.pop()
        if isinstance(move, Redeal):
            assert isinstance(info, list)  # the cells before it
            self.cells = info
            self.redeals_used -= 1
            self.pos = rules.positions(self.cells)
            return
        assert isinstance(info, int)  # the cell the card left
        rules.unmove(self.cells, self.pos, move.card, info)

    def kept_lengths(self) -> list[int]:
        """Per row, the length of the suit sequence from a 2 in column 1 (0..12)."""
        return rules.kept_lengths(self.cells)

    def is_complete(self) -> bool:
        return rules.is_won(self.cells)

    def status(self) -> str:
        if self.is_complete():
            return WON
        return LOST if rules.is_lost(self.cells, self.redeals_left()) else IN_PROGRESS

    def score(self) -> int:
        """Cards in kept sequences (0..48)."""
        return rules.score(self.cells)

    def key(self) -> Hashable:
        return (tuple(self.cells), self.redeals_used)

    # --- views ----------------------------------------------------------------------
    def _rows(self, cells: Sequence[Card]) -> list[list[str | None]]:
        return [
            [None if (c := cells[r * COLS + k]) == EMPTY else C.name(c) for k in range(COLS)]
            for r in range(ROWS)
        ]

    def deal_json(self) -> dict[str, Any]:
        return {"rows": self._rows(rules.start_cells(self.cards))}

    def position_json(self) -> dict[str, Any]:
        gaps = []
        for g, c in enumerate(self.cells):
            if c != EMPTY:
                continue
            fits = rules.fits(self.cells, g)
            accepts = "any 2" if g % COLS == 0 else C.name(fits[0]) if fits else None
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
                " .." if c == EMPTY else f"{C.pretty(c):>3}"
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
