"""The verifier: replay from the start, the verdict's fields and JSON shape."""

from __future__ import annotations

from dailydeal import cards as C
from dailydeal.games import new_game
from dailydeal.games.accordion import Accordion
from dailydeal.shuffle import shuffled_deck
from dailydeal.verify import MoveError, Verdict, replay, split_moves, verify

VERDICT_KEYS = {"valid", "won", "state", "score", "moves", "error"}


def test_verdict_json_shape_when_valid() -> None:
    out = verify("pyramid", 1, "d d d").to_json()
    assert set(out) == VERDICT_KEYS
    assert out == {
        "valid": True, "won": False, "state": "in progress", "score": 28, "moves": 3,
        "error": None,
    }  # fmt: skip


def test_verdict_json_shape_with_an_error() -> None:
    out = verify("pyramid", 1, ["d", "7H+9S"]).to_json()
    assert set(out) == VERDICT_KEYS
    assert out["valid"] is False and out["moves"] == 1
    assert out["error"] == {"index": 1, "move": "7H+9S", "reason": "9S and 7H do not sum to 13"}


def test_the_move_is_reported_as_sent() -> None:
    verdict = verify("gaps", 0, ["  10♠  "])
    assert verdict.error is not None and verdict.error.move == "  10♠  "


def test_split_moves_accepts_text_commas_and_json() -> None:
    assert split_moves("d, d,d  d\nd\td") == ["d"] * 6
    assert split_moves('["d", "4D>4S"]') == ["d", "4D>4S"]
    assert split_moves(("d", "r")) == ["d", "r"]
    assert split_moves("") == []


def test_moves_after_an_error_are_not_played() -> None:
    verdict = verify("pyramid", 1, ["d", "xx", "d", "d"])
    assert verdict.moves == 1 and verdict.game is not None
    assert len(verdict.game.move_stack) == 1 and verdict.state == "in progress"


def test_state_is_judged_where_the_list_stops() -> None:
    # Accordion: a valid list has the rest of the stock dealt before judging; a list with
    # a bad move is judged where it stopped.
    ok = verify("accordion", 1, [])
    assert ok.valid and isinstance(ok.game, Accordion) and ok.game.dealt == 52
    bad = verify("accordion", 1, ["d", "d", "nonsense"])
    assert isinstance(bad.game, Accordion) and bad.game.dealt == 2 and bad.score == 52


def test_explicit_cards_give_the_same_game_as_the_seed() -> None:
    for game in ("accordion", "pyramid"):
        cards = " ".join(C.names(shuffled_deck(9)))
        by_seed = verify(game, 9, "d d d d d d d d")
        by_cards = verify(game, None, "d d d d d d d d", cards=cards)
        assert by_seed.to_json() == by_cards.to_json()
        assert by_seed.game is not None and by_cards.game is not None
        assert by_seed.game.key() == by_cards.game.key()


def test_replay_plays_in_place() -> None:
    game = new_game("gaps", 4)
    verdict = replay(game, [])
    assert verdict.game is game and verdict.valid


def test_verdict_equality_ignores_the_game() -> None:
    a = verify("gaps", 4, [])
    b = verify("gaps", 4, [])
    assert a == b and isinstance(a, Verdict)
    assert MoveError(1, "x", "y") == MoveError(1, "x", "y")


def test_a_solution_that_wins() -> None:
    moves = []
    for row, s in enumerate("SHDC", start=1):
        moves += [f"2{s}@{row}"] + [f"{r}{s}" for r in "3456789TJQK"]
    verdict = verify("gaps", None, moves, cards=" ".join(C.CARD_NAMES))
    assert verdict.to_json() == {
        "valid": True, "won": True, "state": "won", "score": 48, "moves": 48, "error": None,
    }  # fmt: skip
