"""Accordion (docs/rules.md): deal one by one; a pile moves 1 or 3 places left on suit or rank.

The engine: piles, notation, push/pop and JSON. The rules themselves are
``dailydeal.games.rules.accordion``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dailydeal import cards as C
from dailydeal.cards import Card
from dailydeal.games.base import IN_PROGRESS, LOST, WON, Game
from dailydeal.games.notation import AccordionNotation as N
from dailydeal.games.rules import accordion as rules
from dailydeal.games.rules.accordion import matches


@dataclass(frozen=True, slots=True)
class Deal:
    """``d``: the next stock card becomes a new pile at the right end of the row."""

    def __str__(self) -> str:
        return N.DEAL

    def __repr__(self) -> str:
        return f"Deal({self})"


@dataclass(frozen=True, slots=True)
class PileMove:
    """``X>Y``: the pile topped by ``src`` goes onto the pile topped by ``dst``."""

    src: Card
    dst: Card

    def __str__(self) -> str:
        return N.pile(self.src, self.dst)

    def __repr__(self) -> str:
        return f"PileMove({self})"


AccordionMove = Deal | PileMove
DEAL = Deal()


class Accordion(Game[AccordionMove]):
    name = "accordion"
    variant = "standard"
    description = "moves optional, cards dealt one by one"

    ALLOWED_JUMPS: ClassVar[tuple[int, ...]] = rules.JUMPS
    FORCED: ClassVar[bool] = False  # a move, when one exists, must be made before dealing
    OPEN: ClassVar[bool] = False  # all 52 cards are dealt before the first move

    def __init__(self, cards: Sequence[Card], seed: int | None = None) -> None:
        super().__init__(cards, seed)
        self.dealt = 0
        self.order: list[int] = [0] * 52  # card -> its place in the stock (dealing order)
        for n, card in enumerate(self.cards):
            self.order[card] = n
        self.piles: list[list[int]] = []
        self._undo_info: list[tuple[int, int, int]] = []
        if self.OPEN:
            for card in self.cards:
                self.piles.append([card])
            self.dealt = 52

    # --- notation -------------------------------------------------------------------
    def _parse_move(self, text: str) -> AccordionMove:
        move = N.parse(text)
        return DEAL if move is None else PileMove(*move)

    # --- rules ----------------------------------------------------------------------
    def tops(self) -> list[int]:
        return [p[-1] for p in self.piles]

    def pile_moves(self) -> list[PileMove]:
        tops = self.tops()
        moves = rules.by_source(rules.pile_moves(tops, self.ALLOWED_JUMPS))
        return [PileMove(tops[i], tops[j]) for i, j in moves]

    def can_deal(self) -> bool:
        return rules.can_deal(
            self.dealt, self.FORCED and bool(rules.pile_moves(self.tops(), self.ALLOWED_JUMPS)),
            self.FORCED,
        )

    def legal_moves(self) -> list[AccordionMove]:
        moves: list[AccordionMove] = list(self.pile_moves())
        if self.can_deal():
            moves.append(DEAL)
        return moves

    def _pile_of(self, card: Card) -> int | None:
        for i, pile in enumerate(self.piles):
            if pile[-1] == card:
                return i
        return None

    def is_dealt(self, card: Card) -> bool:
        return self.order[card] < self.dealt

    def _where(self, card: Card) -> str:
        if not self.is_dealt(card):
            if self.FORCED and self.pile_moves():
                return (
                    f"{C.name(card)} has not been dealt yet, and a move must be made before"
                    " dealing again (forced variant)"
                )
            return f"{C.name(card)} has not been dealt yet"
        return f"{C.name(card)} is not on top of a pile"

    def illegal_reason(self, move: AccordionMove) -> str | None:
        if isinstance(move, Deal):
            if self.can_deal():
                return None
            if self.dealt >= 52:
                return "the stock is empty"
            return "a move must be made before dealing again (forced variant)"
        i = self._pile_of(move.src)
        if i is None:
            return self._where(move.src)
        j = self._pile_of(move.dst)
        if j is None:
            return self._where(move.dst)
        x, y = C.name(move.src), C.name(move.dst)
        if j >= i:
            return f"{y} is not left of {x}: piles only move left"
        if i - j not in self.ALLOWED_JUMPS:
            allowed = " or ".join(str(k) for k in self.ALLOWED_JUMPS)
            return f"{y} is {i - j} piles left of {x}; a pile moves {allowed} places left"
        if not matches(move.src, move.dst):
            return f"{x} and {y} share neither suit nor rank"
        return None

    def _apply(self, move: AccordionMove) -> None:
        if isinstance(move, Deal):
            self.piles.append([self.cards[self.dealt]])
            self.dealt += 1
            return
        i = self._pile_of(move.src)
        j = self._pile_of(move.dst)
        assert i is not None and j is not None
        moved = self.piles.pop(i)
        self.piles[j].extend(moved)
        self._undo_info.append((i, j, len(moved)))

    def _undo(self, move: AccordionMove) -> None:
        if isinstance(move, Deal):
            self.piles.pop()
            self.dealt -= 1
            return
        i, j, n = self._undo_info.pop()
        moved = self.piles[j][-n:]
        del self.piles[j][-n:]
        self.piles.insert(i, moved)

    def play(self, move: AccordionMove) -> list[AccordionMove]:
        """Deal lazily, just enough to bring the moving card into the row (docs/rules.md)."""
        pushed: list[AccordionMove] = []
        if isinstance(move, PileMove) and not self.is_dealt(move.src):
            while self.can_deal():
                self.push(DEAL)
                pushed.append(DEAL)
                if self.cards[self.dealt - 1] == move.src:
                    break
        try:
            self.push(move)
        except ValueError:
            for _ in pushed:  # a rejected move leaves the position as it was
                self.pop()
            raise
        return [*pushed, move]

    def finish(self) -> list[AccordionMove]:
        pushed: list[AccordionMove] = []
        while self.can_deal():
            self.push(DEAL)
            pushed.append(DEAL)
        return pushed

    def status(self) -> str:
        if rules.is_won(self.dealt, len(self.piles)):
            return WON
        has_moves = bool(rules.pile_moves(self.tops(), self.ALLOWED_JUMPS))
        return LOST if rules.is_lost(self.dealt, len(self.piles), has_moves) else IN_PROGRESS

    def score(self) -> int:
        """Piles left, counting each undealt card as the pile it will become."""
        return rules.score(self.dealt, len(self.piles))

    def key(self) -> Hashable:
        return (self.dealt, tuple(p[-1] for p in self.piles))

    # --- views ----------------------------------------------------------------------
    def deal_json(self) -> dict[str, Any]:
        return {"stock": C.names(self.cards)}

    def position_json(self) -> dict[str, Any]:
        return {
            "piles": [{"top": C.name(p[-1]), "cards": C.names(p)} for p in self.piles],
            "stock_count": 52 - self.dealt,
        }

    def render(self) -> str:
        row = " ".join(
            C.pretty(p[-1]) + (f"({len(p)})" if len(p) > 1 else "") for p in self.piles
        )
        return f"row:   {row or '(empty)'}\nstock: {52 - self.dealt} cards"


class ForcedAccordion(Accordion):
    variant = "forced"
    description = "a move, when one exists, must be made before dealing again"
    FORCED = True


class OpenAccordion(Accordion):
    variant = "open"
    description = "all 52 cards dealt before the first move"
    OPEN = True
