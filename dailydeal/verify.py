"""Replay a submitted move list from the deal and give the verdict of docs/rules.md."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dailydeal.games import Game, new_game
from dailydeal.games.base import WON

MAX_MOVES = 5000  # far beyond any sensible solution; bounds the work one request can ask
MAX_MOVES_TEXT = 100_000  # characters of move text read at most
_TEXT = frozenset((str,))


@dataclass(frozen=True)
class MoveError:
    index: int  # 0-based index of the first bad move in the list as sent
    move: str  # the move as sent
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "move": self.move, "reason": self.reason}


@dataclass
class Verdict:
    valid: bool
    won: bool
    state: str
    score: int
    moves: int  # moves of the list that were played
    error: MoveError | None = None
    game: Game[Any] | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        # Field by field: asdict() would deep-copy the game object only to drop it.
        return {
            "valid": self.valid,
            "won": self.won,
            "state": self.state,
            "score": self.score,
            "moves": self.moves,
            "error": None if self.error is None else self.error.to_json(),
        }


def split_moves(moves: str | Sequence[Any]) -> list[str]:
    """A move list as text (whitespace or comma separated), a JSON list, or a list of str."""
    if isinstance(moves, str):
        if len(moves) > MAX_MOVES_TEXT:
            raise ValueError(
                f"move text too long: {len(moves)} characters (at most {MAX_MOVES_TEXT})"
            )
        text = moves.strip()
        if text.startswith("["):
            try:
                moves = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"the moves look like JSON but are not: {exc.msg}") from None
            except RecursionError:  # "[[[[..." deeper than the parser's recursion limit
                raise ValueError("the moves look like JSON but are nested too deeply") from None
        else:
            items = text.replace(",", " ").split()
            moves = items
    if not isinstance(moves, (list, tuple)):
        raise ValueError(f"moves are a list of strings or text, not {type(moves).__name__}")
    if len(moves) > MAX_MOVES:
        raise ValueError(f"too many moves: {len(moves)} (at most {MAX_MOVES})")
    if not set(map(type, moves)) <= _TEXT:  # at C speed; a str subclass is looked at below
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise ValueError(f"move {i} is {type(m).__name__}, not a string")
    return list(moves)


def replay(game: Game[Any], moves: str | Sequence[Any], *, finish: bool = True) -> Verdict:
    """Play ``moves`` on ``game`` (in place) and judge the result.

    ``finish=False`` skips the end-of-game completion of a valid list, so ``game`` is left
    in the position a player sees after the moves (the API's state endpoints)."""
    texts = split_moves(moves)
    played, reason = game.play_texts(texts)
    error = None if reason is None else MoveError(played, texts[played], reason)
    if error is None and finish:
        game.finish()
    state = game.status()
    return Verdict(
        valid=error is None,
        won=state == WON,
        state=state,
        score=game.score(),
        moves=played,
        error=error,
        game=game,
    )


def verify(
    game: str,
    seed: int | None,
    moves: str | Sequence[Any],
    variant: str | None = None,
    *,
    cards: Any = None,
) -> Verdict:
    """Replay ``moves`` from the deal of ``seed`` (or explicit ``cards``) -> Verdict."""
    return replay(new_game(game, seed, variant, cards), moves)
