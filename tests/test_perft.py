"""Perft: move-sequence counts from fixed positions, engine against a naive second opinion.

Each game gets a deliberately plain second implementation (tests/helpers/naive.py), written
from docs/rules.md alone: its own state (card names in tuples), its own move generator and its own
apply, and even its own SplitMix64/Fisher-Yates for the Gaps redeal. It never calls
legal_moves(), push() or the shuffle module. At every node of the tree the two must list
the same moves and agree on the state (won/lost/in progress) and the score; the leaf
counts are also pinned, so a change in the rules cannot pass unnoticed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.naive import CANONICAL, NAIVE

from dailydeal.games import Game, new_game


def perft(game: Game[Any], naive: Any, depth: int) -> int:
    """Leaf count of the move tree, checking engine and naive agree at every node."""
    moves = game.legal_moves()
    assert sorted(str(m) for m in moves) == sorted(naive.moves())
    assert game.status() == naive.state()
    assert game.score() == naive.score()
    if depth == 0:
        return 1
    total = 0
    key = game.key()
    for move in moves:
        game.push(move)
        child = naive.copy()
        child.apply(str(move))
        total += perft(game, child, depth - 1)
        game.pop()
        assert game.key() == key
    return total


def start(name: str, seed: int, variant: str | None, prefix: list[str]) -> tuple[Any, Any]:
    game = new_game(name, seed, variant)
    flat = [CANONICAL[c] for c in game.cards]
    naive = NAIVE[name](flat, variant, seed)
    for text in prefix:
        assert text in naive.moves()
        game.push(game.parse_move(text))
        naive.apply(text)
    return game, naive


def random_prefix(name: str, seed: int, variant: str | None, length: int, rng_seed: int,
                  until: str | None = None) -> list[str]:
    """A reproducible random line of play (optionally up to and including a move)."""
    game = new_game(name, seed, variant)
    rng = random.Random(rng_seed)
    out: list[str] = []
    for _ in range(length):
        moves = game.legal_moves()
        if not moves:
            break
        texts = [str(m) for m in moves]
        if until is not None and until in texts:
            out.append(until)
            break
        move = rng.choice(moves)
        game.push(move)
        out.append(str(move))
    return out


CASES = [
    # (game, seed, variant, prefix or ("random", length, rng seed), depth, leaf count)
    ("accordion", 0, None, ["d"] * 9, 5, 1183),
    ("accordion", 1, None, ["d"] * 20, 4, 16789),
    ("accordion", 42, "forced", ("random", 30, 1), 8, 3),  # forced: one option, mostly
    ("accordion", 7, "open", [], 3, 16565),
    ("pyramid", 0, None, [], 10, 852),
    ("pyramid", 1, None, ["d"] * 24, 6, 83),
    ("pyramid", 2, None, ("random", 20, 2), 10, 43),
    ("pyramid", 3, "passes=2", ["d"] * 24 + ["r"], 10, 72),
    ("gaps", 0, None, [], 4, 78),
    ("gaps", 212, None, ["2S@2", "R"], 4, 10609),  # after a redeal
    ("gaps", 5, "redeals=0", [], 4, 686),
    ("gaps", 11, None, ("random", 8, 4), 4, 380),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}-{c[4]}")
def test_perft_matches_the_naive_generator(case: tuple[Any, ...]) -> None:
    name, seed, variant, prefix, depth, expected = case
    if isinstance(prefix, tuple):
        prefix = random_prefix(name, seed, variant, prefix[1], prefix[2])
    game, naive = start(name, seed, variant, prefix)
    assert perft(game, naive, depth) == expected
