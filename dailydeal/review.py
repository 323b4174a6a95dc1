"""A review of a lost (or abandoned) game: the last position of the player's line from which
the deal could still be won, and the move that lost it.

Winnability along a line is monotone one way: a successor of a lost position is lost, so
the positions after 0, 1, ..., n moves are winnable up to some k and lost after it. The
review finds k by bisection over the prefixes, each position answered by
``dailydeal.hints.hint`` (the hint cache, or a search with the hint's node budget): about
log2(n) searches instead of n. Shortcuts, without a search:

- a position of a known winning line (same ``key()``) is winnable: the last one the
  player's line passes through, on the deal's stored solution (a daily deal's start
  always is: stored deals are proved winnable) or on the line a search found from an
  earlier position (a player who followed hints), moves the bisection on at once;
- the end of the line: a won line is reviewed as won, a position the rules call lost is
  lost, and if the last position is still winnable nothing was lost (the player gave up).

An ``unknown`` (the node budget ran out) decides nothing, so the review never guesses:
the undecided positions cut the range left into runs, the next search is in the middle of
the longest run (away from the undecided one: its neighbours are as hard), and if
``max_searches`` are spent before the bracket closes, the verdict is ``unknown`` with the
positions proved on either side and the undecided ones named.

As for a hint, the answer is a function of the deal, the moves and the budget alone (node
budgets, never the clock); the time limit is one safety net for the whole review, and
when it stops a search ``HintTimeout`` is raised: no answer at all.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dailydeal.games import Game
from dailydeal.games.base import WON as GAME_WON
from dailydeal.hints import (
    DEFAULT_TIME_LIMIT,
    HOPELESS,
    UNKNOWN,
    WINNABLE,
    HintCache,
    budget_for,
    hint,
)

#: The review's verdicts: ``lost`` (the move that lost it is known), ``winnable`` (the last
#: position can still be won: nothing was lost), ``won``, ``unwinnable`` (the deal cannot
#: be won from its start: no move lost it) and ``unknown`` (the budget ran out first).
LOST, WON, UNWINNABLE = "lost", "won", "unwinnable"
VERDICTS = (LOST, WINNABLE, WON, UNWINNABLE, UNKNOWN)


def max_searches_for(moves: int) -> int:
    """The searches a review may run: the end of the line, a bisection of the rest, and as
    many again for positions the budget leaves undecided."""
    return 2 * math.ceil(math.log2(moves + 2)) + 2


@dataclass(frozen=True)
class Review:
    """Where a line lost the deal, and what the review spent to tell."""

    verdict: str  # one of VERDICTS
    index: int | None  # moves kept: the position after them is the last proved winnable
    move: str | None  # the move after which no win was left (the player's move index + 1)
    line: tuple[str, ...]  # a winning line from the position after ``index`` moves
    lost_from: int | None  # the first position proved lost (moves played), if any
    undecided: tuple[int, ...]  # positions between the two whose search ran out of budget
    checked: tuple[tuple[int, str], ...]  # (moves, verdict) of every position asked
    searches: int  # positions the solver searched (not answered by a known line or the rules)
    max_nodes: int  # the node budget of each search
    max_searches: int
    moves: int  # moves in the player's line

    def to_json(self) -> dict[str, Any]:
        """The answer, line included (whether to show it is the caller's rule)."""
        return {
            "verdict": self.verdict,
            "index": self.index,
            "move": self.move,
            "line": list(self.line) if self.index is not None else None,
            "moves_left": len(self.line) if self.index is not None else None,
            "lost_from": self.lost_from,
            "undecided": list(self.undecided),
            "moves_checked": [{"moves": k, "verdict": v} for k, v in self.checked],
            "searches": self.searches,
            "max_searches": self.max_searches,
            "max_nodes": self.max_nodes,
            "words": self.words(),
        }

    def words(self) -> str:
        """The review in one or two sentences a player reads."""
        if self.verdict == WON:
            return "Won: no move lost this game."
        if self.verdict == UNWINNABLE:
            return "This deal cannot be won from its start: no move lost it."
        if self.verdict == WINNABLE:
            return (f"The game could still be won after your last move (move {self.moves}): "
                    f"a winning line of {len(self.line)} moves was left.")
        if self.verdict == LOST:
            assert self.index is not None
            before = ("from the deal's start" if self.index == 0
                      else f"after move {self.index}")
            return (f"Move {self.index + 1} ({self.move}) lost the game: {before} it could "
                    f"still be won, after it no move could win.")
        known = ("no position was proved winnable" if self.index is None
                 else f"it could still be won after move {self.index}")
        lost = ("" if self.lost_from is None
                else f", and no longer after move {self.lost_from}")
        where = ", ".join(str(k) for k in self.undecided) or "none"
        return (f"The solver could not tell within its budget where the game was lost: "
                f"{known}{lost}; undecided after moves {where}.")


class _Line:
    """The player's line on one position, moved to the position after any number of its
    moves by pushing and popping (a copy per probe would cost a replay each)."""

    def __init__(self, start: Game[Any], moves: Sequence[str]) -> None:
        self.position = start.copy()
        self.marks = [0]  # the move stack's length after each move as sent
        for text in moves:  # as the verifier plays them: Accordion deals on the way
            self.position.play(self.position.parse_move(text))
            self.marks.append(len(self.position.move_stack))
        self.pushed = list(self.position.move_stack)

    def at(self, k: int) -> Game[Any]:
        stack, mark = self.position.move_stack, self.marks[k]
        while len(stack) > mark:
            self.position.pop()
        for move in self.pushed[len(stack):mark]:
            self.position.push(move)
        return self.position


def review(
    start: Game[Any],
    moves: Sequence[str],
    *,
    line: Sequence[str] | None = None,
    max_nodes: int | None = None,
    max_searches: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    cache: HintCache | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Review:
    """The review of ``moves`` (legal, as sent; a ``ValueError`` otherwise) played from
    ``start`` (the deal, not changed); ``line``: the deal's stored winning line. Raises
    ``hints.HintTimeout`` when ``time_limit`` (one for all the searches) stops a search."""
    budget = budget_for(start.name, max_nodes)
    n = len(moves)
    cap = max_searches_for(n) if max_searches is None else max_searches
    played = _Line(start, moves)
    deadline = None if time_limit is None else clock() + time_limit
    known: dict[int, str] = {}
    lines: dict[int, tuple[str, ...]] = {}  # the winning line found from each position
    searches = 0

    finished = played.at(n).copy()
    finished.finish()  # as the verifier judges a line: Accordion deals the rest
    if finished.status() == GAME_WON:
        return Review(WON, n, None, (), None, (), ((n, WON),), 0, budget, cap, n)

    lo = -1  # the last position proved winnable
    hi: int | None = None  # the first position proved lost

    def follow(winning: Sequence[str], k: int) -> None:
        """The last position of the player's line (past ``lo``) that is one of the
        positions of ``winning`` played from the position after ``k`` moves is winnable,
        with the rest of that line: no search (a player who followed a line, or hints)."""
        nonlocal lo
        at = _line_keys(played.at(k), winning)
        last = max((j for j in range(lo + 1, n + 1) if played.at(j).key() in at), default=-1)
        if last > lo:
            rest = tuple(winning[at[played.at(last).key()]:])
            lo, known[last], lines[last] = last, WINNABLE, rest

    def ask(k: int) -> None:
        nonlocal searches, lo, hi
        position = played.at(k)
        left = None if deadline is None else max(0.0, deadline - clock())
        answer = hint(position, max_nodes=budget, time_limit=left, cache=cache, clock=clock)
        if answer.nodes:  # not the rules' answer (a cached search counts: the same answer)
            searches += 1
        known[k] = answer.verdict
        if answer.verdict == WINNABLE:
            lo, lines[k] = max(lo, k), answer.line
            follow(answer.line, k)
        elif answer.verdict == HOPELESS:
            hi = k if hi is None else min(hi, k)

    if line is not None:
        follow(line, 0)  # a daily deal: at least its start is on its stored line
    if lo < n:
        ask(n)  # the end first: the rules or one search may settle it (a give-up)
    while searches < cap:
        # the open positions between lo and hi, cut by the undecided ones into runs: probe
        # the middle of the longest run (the later one of a tie: fewer cards, cheaper), so
        # an unknown sends the next search away from it, not to its neighbour
        upper = hi if hi is not None else n + 1
        bounds = [lo, *(k for k in range(lo + 1, upper) if k in known), upper]
        width, start_at = max((b - a - 1, a) for a, b in itertools.pairwise(bounds))
        if width <= 0:
            break
        ask(start_at + 1 + width // 2)
    upper = hi if hi is not None else n + 1
    undecided = tuple(k for k in range(lo + 1, upper) if known.get(k) == UNKNOWN)
    checked = tuple(sorted(known.items()))
    best = lines.get(lo, ())
    index = lo if lo >= 0 else None
    if lo == n:
        return Review(WINNABLE, n, None, best, None, (), checked, searches, budget, cap, n)
    if hi is not None and hi == lo + 1:
        if lo < 0:
            return Review(UNWINNABLE, None, None, (), 0, (), checked, searches, budget, cap, n)
        return Review(LOST, lo, moves[lo], best, hi, (), checked, searches, budget, cap, n)
    return Review(UNKNOWN, index, None, best, hi, undecided, checked, searches, budget, cap, n)


def _line_keys(position: Game[Any], line: Sequence[str]) -> dict[Any, int]:
    """The ``key()`` of every position of a winning line played from ``position`` (not
    changed), and the moves of the line played to reach it (the first time)."""
    probe = position.copy()
    keys = {probe.key(): 0}
    for i, text in enumerate(line, 1):
        try:
            probe.play(probe.parse_move(text))
        except ValueError:
            break  # hints.line_hint logs a line that does not replay
        keys.setdefault(probe.key(), i)
    return keys


__all__ = ["LOST", "UNWINNABLE", "VERDICTS", "WON", "Review", "max_searches_for", "review"]
