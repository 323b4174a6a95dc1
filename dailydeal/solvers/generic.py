"""A plain exhaustive depth-first search over any game's push()/pop() and key().

It is the reference the fast per-game solvers are measured against, and the fallback for a
game without a solver of its own. Graph search (each key expanded once) is exact: a win is
found iff one is reachable, so an exhausted search proves the deal lost.
"""

from __future__ import annotations

from typing import Any

from dailydeal.games import Game
from dailydeal.games.base import LOST as GAME_LOST
from dailydeal.games.base import WON as GAME_WON
from dailydeal.solvers.base import LOST, UNKNOWN, WON, Budget, SolveResult


def solve_game(game: Game[Any], budget: Budget) -> SolveResult:
    start_depth = len(game.move_stack)
    seen = {game.key()}
    nodes = 0
    stack = [iter(game.legal_moves())]
    try:
        if game.status() == GAME_WON:
            return SolveResult(WON, [], nodes)
        while stack:
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if len(game.move_stack) > start_depth:
                    game.pop()
                continue
            game.push(move)
            nodes += 1
            key = game.key()
            state = game.status()
            if state == GAME_WON:
                return SolveResult(WON, [str(m) for m in game.move_stack[start_depth:]], nodes)
            if key in seen or state == GAME_LOST:
                game.pop()
                continue
            if budget.spent(nodes):
                return SolveResult(UNKNOWN, [], nodes)
            seen.add(key)
            stack.append(iter(game.legal_moves()))
        return SolveResult(LOST, [], nodes)
    finally:
        while len(game.move_stack) > start_depth:
            game.pop()
