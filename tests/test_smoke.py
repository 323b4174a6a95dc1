"""End-to-end smoke checks of the foundation: deal, random play, verify, solve."""

import random

import pytest

from dailydeal.games import GAMES, new_game
from dailydeal.solvers import solve
from dailydeal.verify import verify


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("variant", [None])
def test_random_playouts_verify_and_undo(name: str, variant: str | None) -> None:
    for seed in range(20):
        game = new_game(name, seed, variant)
        rng = random.Random(seed)
        keys = [game.key()]
        for _ in range(300):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
            keys.append(game.key())
        verdict = verify(name, seed, [str(m) for m in game.move_stack], variant)
        assert verdict.valid and verdict.state == game.status()
        while game.move_stack:
            game.pop()
            keys.pop()
            assert game.key() == keys[-1]


@pytest.mark.parametrize("name", list(GAMES))
def test_solver_wins_verify(name: str) -> None:
    result = solve(name, 2, time_limit=20)
    assert result.status == "won"
    assert verify(name, 2, result.moves).won
