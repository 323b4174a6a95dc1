"""Hints: from the position after a player's moves, is the deal still winnable, and how?

``hint(position)`` asks the game's solver (``dailydeal.solvers``; every solver starts from
the position it is given: Accordion from its row and the cards still in the stock, Pyramid
from the pyramid, stock, waste and recycles, Gaps from its cells and the redeals used) and
answers:

- ``verdict``: ``winnable`` (the solver found a winning line from here), ``lost`` (proved:
  the rules say the game is over, or the solver's search was exhaustive) or ``unknown``
  (the node budget ran out first);
- ``move``: the first move of that line in docs/rules.md notation, playable as it is by the
  verifier; ``moves_left``: the length of the line; ``shortest``: whether no line is
  shorter (proved).

A hint is never wrong: before it is given, the whole line is replayed from the position
through the rule engine, exactly as the verifier would, and must end in a win; otherwise
the answer is ``unknown`` (and the mismatch is logged as a solver bug).

The answer is a function of the position and the budget alone, so every worker and every
node gives the same one, whatever it answered before:

- on a deal with a stored winning line (a daily deal), a position of that line (the same
  ``key()`` as the line's position after some of its moves, whatever the move order) is
  answered from the line, without a search (``line_hint``);
- otherwise the solver searches with a node budget. Pyramid's first search gets
  ``FIRST_NODES`` (its A* is the costly part; past that budget it answers with the pool
  plan, a win not proved shortest), and only an ``unknown`` searches again with the hint's
  whole budget: a hint in milliseconds, and the same steps on every machine.

The time limit is only a safety net: when the clock stops a search, the answer could
differ from the node-budget answer, so it is not an answer at all: ``HintTimeout`` is
raised and nothing is cached.

Answers are cached in a bounded LRU keyed by the deal and the position's ``key()`` (the
same position reached by two move orders is one entry): the answer depends on nothing
else, so the cache never changes an answer, it only saves the work.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from dailydeal.games import SPECS, Game, spec_of
from dailydeal.games.base import LOST as GAME_LOST
from dailydeal.games.base import WON as GAME_WON
from dailydeal.games.spec import EVERY, PROVED
from dailydeal.memo import Memo
from dailydeal.solvers import Budget, SolveResult, solver_for
from dailydeal.solvers.base import LOST, WON
from dailydeal.solvers.base import UNKNOWN as UNKNOWN_STATUS

log = logging.getLogger(__name__)

WINNABLE, HOPELESS, UNKNOWN = "winnable", "lost", "unknown"
VERDICTS = (WINNABLE, HOPELESS, UNKNOWN)
# Node budgets per game, from its spec (``hint_max_nodes``, measured by benchmarks/hints.py).
# A Pyramid node (A*) costs far more than the others; past its budget, Pyramid still answers
# with its pool plan (a win, not proved shortest).
MAX_NODES = {game: spec.hint_max_nodes for game, spec in SPECS.items()}
DEFAULT_MAX_NODES = 30_000  # a game not in MAX_NODES
# The first search's budget; an ``unknown`` from it searches again with the hint's whole
# budget. Pyramid: within 600 nodes its A* proves the line shortest on about half of the
# positions off a stored line, and where it does not, the pool plan is a win at once (on
# 60 random positions of 12 deals, CPU p95 33 ms, against 50 ms at 1,000 nodes and 23 ms
# at 400, where a third as many lines are proved shortest); a pool search longer than
# that, or a pass limit the pool plan does not fit, is what the second search is for.
# Games whose spec has no ``hint_first_nodes`` search once, with the budget.
FIRST_NODES = {
    game: spec.hint_first_nodes for game, spec in SPECS.items()
    if spec.hint_first_nodes is not None
}


def budget_for(game: str, max_nodes: int | None = None) -> int:
    """The node budget of a hint: ``max_nodes`` when given, else the game's default."""
    return max_nodes if max_nodes is not None else MAX_NODES.get(game, DEFAULT_MAX_NODES)
DEFAULT_TIME_LIMIT = 10.0  # the safety net: seconds before a search gives up (HintTimeout)
CACHE_SIZE = 20_000  # positions (a line fills one per move): some 20 MB per process at most


class HintTimeout(Exception):
    """The clock, not the node budget, stopped the search: there is no answer to give."""


@dataclass(frozen=True)
class Hint:
    verdict: str  # winnable, lost or unknown
    move: str | None  # the next move of a winning line (None: won already, or no line)
    moves_left: int | None  # moves of that line (0 when the position is won)
    shortest: bool  # proved: no winning line from here is shorter
    state: str  # the position's own state: won, lost, in progress
    nodes: int  # positions the solver searched
    max_nodes: int  # the node budget
    line: tuple[str, ...] = ()  # the whole winning line (kept here, never sent)

    def to_json(self) -> dict[str, Any]:
        """What is sent: the same for a position whether it was searched or read from a
        stored line (``nodes`` is not in it)."""
        return {
            "verdict": self.verdict,
            "move": self.move,
            "moves_left": self.moves_left,
            "shortest": self.shortest,
            "state": self.state,
            "max_nodes": self.max_nodes,
        }


def line_wins(position: Game[Any], line: Sequence[str]) -> bool:
    """Whether ``line`` played from ``position`` as the verifier plays it wins the game."""
    probe = position.copy()
    try:
        for text in line:
            probe.play(probe.parse_move(text))
    except ValueError:
        return False
    probe.finish()
    return probe.status() == GAME_WON


def _proved_shortest(position: Game[Any], result: SolveResult) -> bool:
    """Every win of the game has one length (Accordion: its spec says why), or the solver
    proved it (Pyramid's A*); Gaps's solver never claims it."""
    shortest = spec_of(position).shortest
    return shortest == EVERY or (shortest == PROVED and result.stats.get("optimal") is True)


def node_steps(game: str, max_nodes: int) -> list[int]:
    """The budgets of a hint's searches, tried in turn while the answer is ``unknown``."""
    first = FIRST_NODES.get(game, max_nodes)
    return [first, max_nodes] if first < max_nodes else [max_nodes]


def line_hint(
    position: Game[Any],
    line: Sequence[str],
    shortest: bool,
    *,
    max_nodes: int | None = None,
    start: Game[Any] | None = None,
    within: int | None = None,
) -> Hint | None:
    """The hint for ``position`` from a known winning ``line`` played from ``start`` (by
    default the deal's start: a stored solution; ``shortest`` if proved so): the rest of
    the line when ``position`` is one of the line's positions (same ``key()``; only the
    first ``within`` moves of the line are looked at, when given), else None. No search:
    a replay of the line."""
    max_nodes = budget_for(position.name, max_nodes)
    key = position.key()
    probe = (start if start is not None else type(position)(position.cards, position.seed)).copy()
    last = len(line) if within is None else min(within, len(line))
    for i in range(last + 1):
        if probe.key() == key:
            rest = tuple(line[i:])
            state = position.status()
            if rest:  # a suffix of a winning (shortest) line is a winning (shortest) line
                return Hint(WINNABLE, rest[0], len(rest), shortest, state, 0, max_nodes, rest)
            return None  # the end of the line: solve_hint says won (or what it is) at once
        if i < last:
            try:
                probe.play(probe.parse_move(line[i]))
            except ValueError:
                log.error("a winning line does not replay at move %d: %r", i, line[i])
                return None
    return None


def solve_hint(
    position: Game[Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    clock: Callable[[], float] = time.perf_counter,
) -> Hint:
    """The hint for ``position`` (not changed), without the cache. ``time_limit`` is read
    on ``clock`` (a solver process reads its CPU time: its wall clock is other processes')."""
    max_nodes = budget_for(position.name, max_nodes)
    state = position.status()
    if state == GAME_WON:
        return Hint(WINNABLE, None, 0, True, state, 0, max_nodes)
    if state == GAME_LOST:  # the rules say so: no move can change the outcome
        return Hint(HOPELESS, None, None, False, state, 0, max_nodes)
    solver = solver_for(position)  # an import the first time: before the deadline starts
    deadline = None if time_limit is None else clock() + time_limit
    nodes = 0
    for step in node_steps(position.name, max_nodes):
        # one deadline for all the steps: the safety net bounds the whole hint
        left = None if deadline is None else max(0.0, deadline - clock())
        budget = Budget(max_nodes=step, time_limit=left, clock=clock)
        result = solver(position, budget)
        nodes += result.nodes
        if budget.timed_out:
            raise HintTimeout(f"no answer within {time_limit} s ({nodes} nodes)")
        if result.status != UNKNOWN_STATUS:
            break
    if result.status == WON and result.moves:
        if line_wins(position, result.moves):
            return Hint(
                WINNABLE,
                result.moves[0],
                len(result.moves),
                _proved_shortest(position, result),
                state,
                nodes,
                max_nodes,
                tuple(result.moves),
            )
        log.error("solver line rejected by the rules: %r after %d moves",
                  position, len(position.move_stack))
    elif result.status == LOST:
        return Hint(HOPELESS, None, None, False, state, nodes, max_nodes)
    return Hint(UNKNOWN, None, None, False, state, nodes, max_nodes)


class HintCache:
    """A bounded LRU of hints by (deal, position key, budget), shared by threads."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.memo: Memo[Hashable, Hint] = Memo(size)

    @property
    def hits(self) -> int:
        return self.memo.hits

    @property
    def misses(self) -> int:
        return self.memo.misses

    @staticmethod
    def key(position: Game[Any], max_nodes: int) -> Hashable:
        return (
            position.name,
            position.variant,
            position.seed,
            position.cards,
            position.key(),
            max_nodes,
        )

    def get(
        self,
        position: Game[Any],
        *,
        max_nodes: int | None = None,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Hint:
        budget = budget_for(position.name, max_nodes)
        return self.memo.get(
            self.key(position, budget),
            lambda: solve_hint(position, max_nodes=budget, time_limit=time_limit, clock=clock),
        )


_cache = HintCache()


def hint(
    position: Game[Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    cache: HintCache | None = None,
    line: Sequence[str] | None = None,
    line_shortest: bool = False,
    follow_from: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Hint:
    """The hint for ``position`` (not changed), in this order:

    1. from ``line``, the deal's stored winning line (``line_shortest``: proved shortest),
       when the position is on it (``line_hint``);
    2. from the hint of the position after the first ``follow_from`` moves (the "anchor"),
       when the moves since are the start of that hint's line: a player who follows hints
       says where they began following, and gets the rest of the same line, so following
       hints always ends in a win (a fresh search from each position could send them round
       in circles: a Gaps line is no shortest one);
    3. from ``cache`` (default: this process's) or a search of the position.

    Each is a function of the position, the moves and the budget alone: the same answer on
    every worker and every machine."""
    if line is not None:
        known = line_hint(position, line, line_shortest, max_nodes=max_nodes)
        if known is not None:
            return known
    played = len(position.move_stack)
    if follow_from is not None and 0 <= follow_from < played:
        anchor = type(position)(position.cards, position.seed)
        for move in position.move_stack[:follow_from]:
            anchor.push(move)
        before = hint(anchor, max_nodes=max_nodes, time_limit=time_limit, cache=cache,
                      line=line, line_shortest=line_shortest, clock=clock)
        if before.verdict == WINNABLE and before.line:
            known = line_hint(position, before.line, before.shortest, max_nodes=max_nodes,
                              start=anchor, within=played - follow_from)
            if known is not None:
                return known
    return (cache or _cache).get(
        position, max_nodes=max_nodes, time_limit=time_limit, clock=clock
    )


__all__ = [
    "HOPELESS",
    "UNKNOWN",
    "VERDICTS",
    "WINNABLE",
    "Hint",
    "HintCache",
    "HintTimeout",
    "MAX_NODES",
    "budget_for",
    "hint",
    "line_hint",
    "line_wins",
    "node_steps",
    "solve_hint",
]
