"""What every game offers: a position with push()/pop(), legal moves, status, score.

The engines serve the verifier, the generic solver and the tests; they, the per-game
solvers and the player models all take the rules from the rules core
(``dailydeal.games.rules``), so a rule lives in exactly one place. Variants are subclasses
that override class settings.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from dailydeal import cards as C
from dailydeal.cards import Card
from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.shuffle import check_seed, shuffled_deck

WON, LOST, IN_PROGRESS = "won", "lost", "in progress"
STATES = (WON, LOST, IN_PROGRESS)

M = TypeVar("M")
G = TypeVar("G", bound="Game[Any]")

MAX_MOVE_TEXT = 16  # no move of any notation is longer; longer text is rejected unread


class Game(ABC, Generic[M]):
    """A position of one game, from a deal, with the history of the moves pushed."""

    name: ClassVar[str]
    variant: ClassVar[str]
    description: ClassVar[str] = ""

    def __init__(self, cards: Sequence[Card], seed: int | None = None) -> None:
        C.check_deck(cards)
        self.cards: tuple[Card, ...] = tuple(cards)
        self.seed = None if seed is None else check_seed(seed)
        self.move_stack: list[M] = []

    @classmethod
    def from_seed(cls: type[G], seed: int) -> G:
        return cls(shuffled_deck(seed), seed)

    @classmethod
    def from_cards(cls: type[G], cards: str | Sequence[str] | Sequence[Card]) -> G:
        """A game from an explicit deal: text, a list of card names, or card numbers."""
        if not isinstance(cards, (str, list, tuple)):
            raise InvalidMoveError(
                f"a deal is text or a list of 52 cards, not {type(cards).__name__}"
            )
        if isinstance(cards, str) or (cards and isinstance(cards[0], str)):
            deck = C.parse_deck(cards)
        else:
            deck = list(cards)
        return cls(deck, None)

    def copy(self: G) -> G:
        """A fresh game from the same deal with the same moves replayed."""
        game = type(self)(self.cards, self.seed)
        for move in self.move_stack:
            game.push(move)
        return game

    # --- notation -------------------------------------------------------------------
    def parse_move(self, text: str) -> M:
        """Read one move in this game's notation (docs/rules.md). Raises InvalidMoveError."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        t = text.strip()
        if not t:
            raise InvalidMoveError("empty move")
        if len(t) > MAX_MOVE_TEXT:
            raise InvalidMoveError(f"cannot read move {t[:MAX_MOVE_TEXT]!r}...: too long")
        return self._parse_move(t)

    @abstractmethod
    def _parse_move(self, text: str) -> M: ...

    # --- rules ----------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move in the current position, in a fixed order."""

    @abstractmethod
    def illegal_reason(self, move: M) -> str | None:
        """None when ``move`` is legal now, else a reason a person can read."""

    def is_legal(self, move: M) -> bool:
        return self.illegal_reason(move) is None

    def push(self, move: M) -> None:
        """Play a move; raises IllegalMoveError (with the reason) if the rules forbid it."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        self._apply(move)
        self.move_stack.append(move)

    def pop(self) -> M:
        """Take back the last move pushed."""
        move = self.move_stack.pop()
        self._undo(move)
        return move

    @abstractmethod
    def _apply(self, move: M) -> None: ...

    @abstractmethod
    def _undo(self, move: M) -> None: ...

    def play(self, move: M) -> list[M]:
        """Push a move as a submitted solution means it; returns every move pushed.

        The verifier plays through this hook: Accordion deals lazily here.
        """
        self.push(move)
        return [move]

    def play_texts(self, texts: Sequence[str]) -> tuple[int, str | None]:
        """Play the moves written in ``texts`` in turn, as a submitted solution means them
        (``parse_move`` then ``play``), until one is refused: (how many were played, the
        refusal's reason, or None when every one was). An engine may read and play its
        common moves faster (Gaps); it must refuse the same moves for the same reasons."""
        for i, text in enumerate(texts):
            try:
                self.play(self.parse_move(text))
            except ValueError as exc:  # InvalidMoveError and IllegalMoveError alike
                return i, str(exc)
        return len(texts), None

    def line(self) -> list[str]:
        """The moves pushed, as the notation writes them."""
        return [str(m) for m in self.move_stack]

    def finish(self) -> list[M]:
        """What happens after the last submitted move (Accordion deals the rest)."""
        return []

    @abstractmethod
    def status(self) -> str:
        """``won``, ``lost`` or ``in progress``."""

    def is_over(self) -> bool:
        return self.status() != IN_PROGRESS

    @abstractmethod
    def score(self) -> int: ...

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable key: equal keys mean positions with the same future."""

    # --- views ----------------------------------------------------------------------
    @abstractmethod
    def deal_json(self) -> dict[str, Any]:
        """The deal as dealt (docs/rules.md shapes), independent of the moves pushed."""

    @abstractmethod
    def position_json(self) -> dict[str, Any]:
        """What a client needs to draw the current position."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "variant": self.variant,
            "seed": self.seed,
            "position": self.position_json(),
            "state": self.status(),
            "score": self.score(),
            "moves": self.line(),
            "legal_moves": [str(m) for m in self.legal_moves()],
        }

    @abstractmethod
    def render(self) -> str:
        """A picture of the position for a terminal."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} moves={len(self.move_stack)}>"


def card_or_none(card: Card | None) -> str | None:
    return None if card is None else C.name(card)


class NumberedVariants(Generic[G]):
    """Variants named ``key=N`` that differ from a base game by one integer class setting.

    ``passes=3`` and ``redeals=0`` are settings, not copies (PySolFC style): calling this
    with N gives a subclass overriding ``setting`` with N, made once and cached.
    """

    def __init__(
        self,
        base: type[G],
        key: str,
        setting: str,
        bounds: tuple[int, int],
        describe: Callable[[int], str],
    ) -> None:
        self.base, self.key, self.setting, self.bounds = base, key, setting, bounds
        self.describe = describe
        self._classes: dict[int, type[G]] = {getattr(base, setting): base}

    def __call__(self, n: int) -> type[G]:
        lo, hi = self.bounds
        if not lo <= n <= hi:
            raise ValueError(f"{self.key}=N needs {lo} <= N <= {hi}, not {n}")
        if n not in self._classes:
            self._classes[n] = type(
                f"{self.base.__name__}{self.key.title()}{n}",
                (self.base,),
                {"variant": f"{self.key}={n}", self.setting: n, "description": self.describe(n)},
            )
        return self._classes[n]
