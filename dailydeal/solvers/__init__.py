"""Solvers: ``solve()`` -> won (with a verified-able solution), lost (proved) or unknown.

``SOLVERS`` names each game's solver, a function
``solve_game(game: Game, budget: Budget) -> SolveResult``: its module
``dailydeal.solvers.<game>``, or the generic exhaustive search of
``dailydeal.solvers.generic`` for a game without one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from dailydeal.games import Game, new_game
from dailydeal.solvers.base import LOST, STATUSES, UNKNOWN, WON, Budget, SolveResult, SolverFn

# Bump when any solver's results can change: stored deals record it (their "version").
VERSION = "14"  # 2: Accordion Luby restarts, Pyramid draw-counting bounds, Gaps no-redeal search;
# 3: Pyramid bounds count the recycles a position needs (passes_needed);
# 4: Pyramid A* takes a forced pair (a card whose only partner left is accessible) alone;
# Gaps without redeals raises the limit on relocations of its limited game;
# 5: Pyramid A* opens ties by bucket (last in, first out), children inherit the pass count,
# positions dominated by draws are skipped, talons are kept in canonical form;
# 6: Gaps without redeals gives the limited game two passes in three (was one in two);
# Pyramid passes_needed follows the cards whose pyramid partners must all leave before
# them (or after them): what must leave before a card includes what must leave before
# every partner it can leave with, and a card that can only take a waste card under the
# cursor keeps it there, so what must leave before it takes only talon cards above it;
# 7: Pyramid A* drops a child whose pyramid the pool search (kept from phase 1, a table
# of pool states shared by all calls) cannot clear with the talon cards left;
# 8: Pyramid bounds admissible again (issue 28): passes_needed's room test over the whole
# cursor range, and no recycle counted twice by blocked_pass; some shortest lengths fall
# 9: Gaps without redeals keeps 1,800,000 positions proved lost (was 1,390,000) in the
# same memory (int keys of 64 bytes): solves past the old limit change;
# 10: Gaps without redeals: a cut of that table keeps the proofs met again since the last
# cut, then the newest, and drops first the cheap ones (one position to search again);
# it holds 2,400,000 positions (was 1,800,000);
# 11: Gaps without redeals keeps that table in two generations (no cut): the old one is
# dropped when the young one is full, a proof met in the old one moves to the young one
# 12: Gaps without redeals keeps that table in C (table.c, 40 bytes a slot, where a
# dict took about 100): up to 6,000,000 positions, aged past that (the proofs least
# recently used dropped)
# 13: that table fills its slots to 31/32 (an offset byte a slot says which records to
# compare): up to 8,000,000 positions in 344 MB, so a 10 s solve no longer ages it
# 14: Pyramid bounds admissible again (issue 41): window_blocked's table kept its first
# answer for every talon set of the same values, counts aside, so passes_needed could
# count a recycle too many (relaxed seed 59: 63 moves called shortest where 60 win);
# and Gaps without redeals plays a safe run extension alone where no 2 in column 1 can
# move again, and its real and limited games share the proofs of positions with the four
# 2s in column 1 (fewer nodes, other solutions; the variants with redeals unchanged)


def _accordion() -> SolverFn:
    from dailydeal.solvers.accordion import solve_game

    return solve_game


def _pyramid() -> SolverFn:
    from dailydeal.solvers.pyramid import solve_game

    return solve_game


def _gaps() -> SolverFn:
    from dailydeal.solvers.gaps import solve_game

    return solve_game


class _Solvers(Mapping[str, SolverFn]):
    """The table of solvers, each imported when first asked for: ``dailydeal solve
    accordion`` loads neither the Pyramid nor the Gaps solver (their imports were a fifth
    of its start-up). Each loader is a function with a plain import, an arrow
    tests/test_architecture.py sees."""

    def __init__(self, loaders: dict[str, Callable[[], SolverFn]]) -> None:
        self._loaders = loaders
        self._loaded: dict[str, SolverFn] = {}

    def __getitem__(self, game: str) -> SolverFn:
        solver = self._loaded.get(game)
        if solver is None:
            solver = self._loaded[game] = self._loaders[game]()
        return solver

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


# The solver of each game of the registry, by the game's name (tests/test_game_spec.py
# holds the keys to the registry); a game without a solver of its own names
# ``generic.solve_game``. Named here, not by the game's spec: games/ is below this layer,
# and a table of imports is an arrow tests/test_architecture.py sees.
SOLVERS: Mapping[str, SolverFn] = _Solvers(
    {"accordion": _accordion, "pyramid": _pyramid, "gaps": _gaps}
)


def solver_for(game: Game[Any]) -> SolverFn:
    """The solver of the game (``SOLVERS``), its module imported if it was not yet."""
    return SOLVERS[game.name]


def load_all() -> None:
    """Import every solver now (a process that will serve searches, before it says it is
    ready: its first search does not wait on an import)."""
    for game in SOLVERS:
        SOLVERS[game]


def solve_position(
    game: Game[Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SolveResult:
    """Solve a game object from its current position (its move stack is left as it was).

    ``time_limit`` is read on ``clock`` (wall-clock unless given, see ``Budget``); the
    result's ``seconds`` count the search alone, from after the solver's module is loaded.
    """
    solver = solver_for(game)  # an import the first time: not the search's time
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit, clock=clock)
    result = solver(game, budget)
    result.seconds = budget.elapsed()
    return result


def solve(
    game: str,
    seed: int | None = None,
    variant: str | None = None,
    *,
    cards: Any = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SolveResult:
    """Solve the deal of ``seed`` (or explicit ``cards``) of a game variant from the start."""
    return solve_position(
        new_game(game, seed, variant, cards),
        max_nodes=max_nodes,
        time_limit=time_limit,
        clock=clock,
    )


def proved_shortest(solved: SolveResult) -> bool | None:
    """Whether a win's solution is proved shortest: True or False for a solver that says
    (``stats["optimal"]``, Pyramid's), None for one that never claims it (its solution is
    the first its search finds, not the shortest), and for a result that is no win."""
    if solved.status != WON:
        return None
    optimal = solved.stats.get("optimal") if solved.stats else None
    return None if optimal is None else bool(optimal)


__all__ = [
    "LOST",
    "SOLVERS",
    "STATUSES",
    "UNKNOWN",
    "VERSION",
    "WON",
    "Budget",
    "SolveResult",
    "proved_shortest",
    "solve",
    "solve_position",
]
