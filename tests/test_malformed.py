"""Malformed input of every kind gives a clear error, never a crash.

"Clear" means: either a ValueError whose message names the problem, or a verdict whose
error carries the index of the bad move, the move as sent and a readable reason.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dailydeal import cards as C
from dailydeal.games import GAMES, new_game
from dailydeal.verify import MAX_MOVES, Verdict, verify

GAME_NAMES = list(GAMES)


def bad_move_verdict(game: str, moves: Any, index: int = 0, **kw: Any) -> str:
    verdict = verify(game, 1, moves, **kw)
    assert isinstance(verdict, Verdict)
    assert not verdict.valid and not verdict.won
    assert verdict.error is not None and verdict.error.index == index
    assert verdict.moves == index
    reason = verdict.error.reason
    assert reason and "Traceback" not in reason
    json.dumps(verdict.to_json())  # always serialisable
    return reason


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(
    "move,words",
    [
        ("ZZ>4S", "unknown card 'ZZ'"),
        ("11X", "11X"),
        ("💩", "💩"),
        ("\u202e\u202d", "cannot read"),
        ("4S\x00", "4S"),
        ("Ａ♠", "Ａ♠"),
        ("abcdefghijklmnopqrstuvwxyz", "too long"),
    ],
)
def test_unreadable_moves(game: str, move: str, words: str) -> None:
    reason = bad_move_verdict(game, [move])
    assert words in reason or "unknown card" in reason or "cannot read" in reason


@pytest.mark.parametrize(
    "game,move,words",
    [
        ("accordion", "AS+QS", "an Accordion move is X>Y or d"),
        ("accordion", "2S@1", "an Accordion move is X>Y or d"),
        ("accordion", "R", "an Accordion move is X>Y or d"),
        ("pyramid", "4D>4S", "cannot read '4D>4S'"),
        ("pyramid", "2S@1", "cannot read '2S@1'"),
        ("pyramid", "7C", "only a king is removed alone"),
        ("gaps", "4D>4S", "unknown card"),
        ("gaps", "AS+QS", "unknown card"),
        ("gaps", "d", "unknown card 'd'"),
        ("gaps", "AS", "aces are out of play"),
    ],
)
def test_moves_in_another_games_notation(game: str, move: str, words: str) -> None:
    assert words in bad_move_verdict(game, [move])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_empty_move_in_a_list(game: str) -> None:
    assert bad_move_verdict(game, ["", "d"]) == "empty move"
    assert bad_move_verdict(game, json.dumps(["   "])) == "empty move"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_empty_list_is_valid_and_plays_nothing(game: str) -> None:
    empties: list[Any] = ["", "   ", "[]", [], ()]
    for empty in empties:
        verdict = verify(game, 1, empty)
        assert verdict.valid and verdict.moves == 0


@pytest.mark.parametrize("game", GAME_NAMES)
def test_ten_thousand_moves(game: str) -> None:
    with pytest.raises(ValueError, match=f"too many moves: 10000 \\(at most {MAX_MOVES}\\)"):
        verify(game, 1, ["d"] * 10_000)
    with pytest.raises(ValueError, match="too many moves"):
        verify(game, 1, " ".join(["d"] * 10_000))


def test_too_much_text() -> None:
    with pytest.raises(ValueError, match="move text too long"):
        verify("pyramid", 1, "d " * 60_000)


@pytest.mark.parametrize(
    "items,words",
    [
        ([1], "move 0 is int, not a string"),
        (["d", None], "move 1 is NoneType, not a string"),
        (["d", "d", {"m": "d"}], "move 2 is dict, not a string"),
        ([["d"]], "move 0 is list, not a string"),
        ([True], "move 0 is bool, not a string"),
    ],
)
def test_non_string_items(items: list[Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        verify("pyramid", 1, items)
    with pytest.raises(ValueError, match=words):
        verify("pyramid", 1, json.dumps(items))


@pytest.mark.parametrize("text", ['["d"', "[d, d]", "[1,]", '["d"] trailing'])
def test_broken_json(text: str) -> None:
    with pytest.raises(ValueError, match="the moves look like JSON but are not"):
        verify("pyramid", 1, text)


@pytest.mark.parametrize("moves", [None, 5, {"moves": ["d"]}, b"d d", 1.5])
def test_moves_of_the_wrong_type(moves: Any) -> None:
    with pytest.raises(ValueError, match="moves are a list of strings or text"):
        verify("accordion", 1, moves)


def test_json_that_is_not_a_list() -> None:
    # Not starting with "[": read as text, so it is a bad move at index 0, not a crash.
    assert "cannot read" in bad_move_verdict("accordion", '{"moves": ["d"]}')


@pytest.mark.parametrize(
    "cards,words",
    [
        (" ".join(C.CARD_NAMES[:51]), "got 51 cards; missing: KC"),
        (" ".join([*C.CARD_NAMES[:51], "AS"]), "twice: AS; missing: KC"),
        (" ".join([*C.CARD_NAMES, "AS"]), "got 53 cards; twice: AS"),
        (" ".join([*C.CARD_NAMES[:51], "11X"]), "unknown card '11X'"),
        ("", "got 0 cards"),
        ([*C.CARD_NAMES[:51], 7], "must be text"),
        ([*range(51), "KC"], "integer 0..51"),
        ([[0]] * 52, "integer 0..51"),
        (5, "a deal is text or a list of 52 cards, not int"),
        (b"AS", "a deal is text or a list of 52 cards, not bytes"),
        ({"AS": 1}, "a deal is text or a list of 52 cards, not dict"),
    ],
)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_explicit_deals_that_are_not_52_cards(game: str, cards: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        new_game(game, cards=cards)
    with pytest.raises(ValueError, match=words):
        verify(game, None, "d", cards=cards)


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: verify("chess", 1, "e4"), "unknown game 'chess'; games: accordion, pyramid, gaps"),
        (lambda: verify("gaps", 1, "R", "redeals=10"), "unknown variant 'redeals=10' of gaps"),
        (lambda: verify("pyramid", 1, "d", "standard"), "variants: relaxed, passes=1"),
        (lambda: verify(None, 1, "d"), "unknown game None"),  # type: ignore[arg-type]
        (lambda: verify("gaps", 1, "R", 3), "a variant is text"),  # type: ignore[arg-type]
        (lambda: verify("gaps", -1, "R"), "a seed is an integer"),
        (lambda: verify("gaps", 2**64, "R"), "a seed is an integer"),
        (lambda: verify("gaps", "12", "R"), "a seed is an integer"),  # type: ignore[arg-type]
        (lambda: verify("gaps", None, "R"), "give either a seed or the cards"),
        (lambda: new_game("gaps", 1, cards=" ".join(C.CARD_NAMES)), "give either a seed"),
    ],
)
def test_unknown_games_variants_and_seeds(call: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.text(max_size=300))
def test_any_text_is_a_verdict_or_a_value_error(game: str, text: str) -> None:
    try:
        verdict = verify(game, 3, text)
    except ValueError as exc:
        assert str(exc)
        return
    json.dumps(verdict.to_json())
    if verdict.error is not None:
        assert verdict.error.reason and 0 <= verdict.error.index


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from([*C.CARD_NAMES, "10♦", "xx", "", "AS"]), max_size=60),
    st.lists(st.integers(-3, 60), max_size=60),
    st.permutations(C.CARD_NAMES),
))
def test_any_explicit_deal_is_a_game_or_a_value_error(game: str, cards: Any) -> None:
    try:
        position = new_game(game, cards=cards)
    except ValueError as exc:
        assert str(exc)
        return
    assert sorted(position.cards) == list(range(52))


json_items = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.lists(json_items, max_size=20))
def test_any_json_list_is_a_verdict_or_a_value_error(game: str, items: list[Any]) -> None:
    for moves in (items, json.dumps(items)):
        try:
            verdict = verify(game, 3, moves)
        except ValueError as exc:
            assert str(exc)
            continue
        json.dumps(verdict.to_json())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.lists(st.sampled_from(
    ["d", "r", "R", "4D>4S", "AS+QS", "KS", "2S@1", "3S", "KD>4D", "QH", "", "x"]),
    max_size=30))
def test_plausible_junk_mixes_are_judged_not_crashed(game: str, moves: list[str]) -> None:
    verdict = verify(game, 3, moves)
    assert verdict.valid == (verdict.error is None)
    if verdict.error is not None:
        assert verdict.error.move == moves[verdict.error.index]
        assert verdict.moves == verdict.error.index
