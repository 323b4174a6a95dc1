"""Pyramid's precedence closure (dailydeal/solvers/pyramid_closure.py, and
pyramid_closure.c, its C build). The Python source is the reference; the C build must give
the same answers, function by function, on the positions of real searches and on random
masks and talon values."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import python_source

from dailydeal import native
from dailydeal.games.rules.pyramid import COVERS, SIZE
from dailydeal.solvers import new_game
from dailydeal.solvers import pyramid_closure as built
from dailydeal.solvers.pyramid_bounds import Bounds

PY = python_source("pyramid_closure")


def need_c() -> None:
    if not built.NATIVE:
        pytest.skip(f"pyramid_closure is not compiled here: {native.BUILD}")


def cases(count: int) -> list[tuple[bytes, int, int, int, int]]:
    """(values, mask, vals, inside, ivals): the deals of seeds 0..9 with random masks that
    keep every card under another one's place (real pyramids), random talon values (the
    fewer, the more cards with no talon partner, where the closure has work) and random windows."""
    rng = random.Random(41)
    out = []
    for seed in range(10):
        game: Any = new_game("pyramid", seed)
        values = Bounds(list(game.cards[:SIZE]), [], None).values
        for _ in range(count):
            mask = 0
            for i in reversed(range(SIZE)):  # a card stays only if its covers can
                if rng.random() < 0.75 and all(mask >> c & 1 or rng.random() < 0.3
                                               for c in COVERS[i]):
                    mask |= 1 << i
            share = rng.choice((0.3, 0.7, 0.95))
            vals = sum(1 << w for w in range(1, 14) if rng.random() < share)
            inside = mask & rng.getrandbits(SIZE)
            ivals = vals & rng.getrandbits(14)
            out.append((values, mask, vals, inside, ivals))
    return out


CASES = cases(300)


def test_the_reference_blockers_are_the_covers_closed() -> None:
    blockers = PY.blockers()
    assert blockers[SIZE - 1] == 0 and blockers[0] == (1 << SIZE) - 2
    for i in range(SIZE):
        for c in COVERS[i]:
            assert blockers[i] >> c & 1 and blockers[i] & blockers[c] == blockers[c]


def test_the_cases_reach_both_answers() -> None:
    """The random cases hold lost positions and open ones, chains empty and not."""
    got = [PY.forced_chain(values, mask, vals) for values, mask, vals, _, _ in CASES]
    assert None in got
    assert any(g is not None and g[0] for g in got) and any(g is not None and not g[0]
                                                           for g in got)
    usable = {PY.usable_values(values, mask, vals) for values, mask, vals, _, _ in CASES}
    assert len(usable) > 100
    takes = {PY.window_takes(*case) for case in CASES}
    assert -1 in takes and 0 in takes and len(takes) > 5


def test_the_c_build_answers_as_the_reference() -> None:
    need_c()
    assert built.blockers() == PY.blockers()
    for case in CASES:
        values, mask, vals, inside, ivals = case
        assert built.precedence(*case) == PY.precedence(*case), case
        assert built.window_takes(*case) == PY.window_takes(*case), case
        assert built.forced_chain(values, mask, vals) == PY.forced_chain(values, mask, vals), case
        assert built.usable_values(values, mask, vals) == PY.usable_values(values, mask, vals)
        pre = PY.precedence(values, mask, vals, 0, 0)
        if pre is not None:
            for c in range(SIZE):
                cand = mask & ~(1 << c)
                assert built.has_partner(pre, cand, c) == PY.has_partner(pre, cand, c)


def test_the_c_build_refuses_what_is_not_a_pyramid() -> None:
    need_c()
    values = bytes(range(1, 14)) * 3
    with pytest.raises(TypeError):
        built.precedence(list(values), 1, 0, 0, 0)
    with pytest.raises(ValueError):
        built.precedence(bytes(SIZE), 1, 0, 0, 0)
    with pytest.raises(OverflowError):
        built.window_takes(values, 1 << SIZE, 0, 0, 0)
    with pytest.raises(OverflowError):
        built.forced_chain(values, -1, 0)
    with pytest.raises(TypeError):
        built.forced_chain(values, 1)
    with pytest.raises(OverflowError):
        built.usable_values(values, 1, -1)
