"""The move codecs (``dailydeal.games.notation``): the engines, the solvers and the player
models write the same text for the same move, and it reads back as the same move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dailydeal.errors import InvalidMoveError
from dailydeal.games import GAMES, Game, get_game
from dailydeal.games.accordion import PileMove
from dailydeal.games.gaps import Place
from dailydeal.games.notation import AccordionNotation, GapsNotation, PyramidNotation
from dailydeal.games.pyramid import King, Pair
from dailydeal.rating.features import play, playout_rng
from dailydeal.rating.players import MODELS
from dailydeal.solvers import solve_position

VARIANTS = [(game, variant) for game, table in GAMES.items() for variant in table]


def walk(game: str, variant: str, seed: int, steps: int) -> Game[Any]:
    rng = random.Random(seed)
    position = get_game(game, variant).from_seed(seed)
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


def core_text(move: object) -> str:
    """The codec's text of an engine move, from its core fields (not from ``str``)."""
    if isinstance(move, PileMove):
        return AccordionNotation.pile(move.src, move.dst)
    if isinstance(move, Pair):
        return PyramidNotation.pair(move.b, move.a)  # either order: one text
    if isinstance(move, King):
        return PyramidNotation.king(move.card)
    if isinstance(move, Place):
        return GapsNotation.place_row(move.card, move.row)
    return str(move)


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_every_legal_move_reads_back(game: str, variant: str) -> None:
    for seed in range(8):
        position = walk(game, variant, seed, random.Random(seed).randrange(80))
        for move in position.legal_moves():
            text = str(move)
            assert text == core_text(move)
            assert position.parse_move(text) == move
            assert position.parse_move(text.lower()) == move


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_solver_and_player_lines_are_the_engine_text(game: str, variant: str) -> None:
    """Each line a solver or a player model writes replays through the engine, and each of
    its moves is written exactly as the engine writes the move it reads."""
    for seed in range(3):
        position = get_game(game, variant).from_seed(seed)
        lines = [p.moves for p in (play(position, m, playout_rng(position, m, 0), record=True)
                                   for m in MODELS)]
        solved = solve_position(position, max_nodes=3_000)
        lines.append(solved.moves)
        for line in lines:
            replay = position.copy()
            for text in line:
                move = replay.parse_move(text)
                assert str(move) == text
                replay.push(move)


def test_codec_refusals() -> None:
    for bad in ("4D", "4D>4S>4H", "XX>4S"):
        with pytest.raises(InvalidMoveError):
            AccordionNotation.parse(bad)
    for bad in ("QS", "5H+8C+AS", "zz"):
        with pytest.raises(InvalidMoveError):
            PyramidNotation.parse(bad)
    for bad in ("AS", "3S@1", "2S@5"):
        with pytest.raises(InvalidMoveError):
            GapsNotation.parse(bad)
    assert GapsNotation.parse("2S@3") == (1, 3) and GapsNotation.parse("r") is None
    assert PyramidNotation.parse("KS") == (12,) and PyramidNotation.parse("D") == "d"
    assert GapsNotation.place(1, 26) == "2S@3" and GapsNotation.place(2, 26) == "3S"
