"""Accordion rules (docs/rules.md), with the source's worked example played move by move."""

from __future__ import annotations

import pytest

from dailydeal import cards as C
from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.games import new_game
from dailydeal.games.accordion import DEAL, Accordion, Deal, PileMove
from dailydeal.verify import verify

EXAMPLE_ROW = ["4S", "7H", "QC", "4D", "KD"]


def deck_starting(*first: str) -> str:
    """An explicit deal (--cards style): the given cards first, the rest in canonical order."""
    rest = [n for n in C.CARD_NAMES if n not in first]
    return " ".join([*first, *rest])


EXAMPLE = deck_starting(*EXAMPLE_ROW)


def tops(game: Accordion) -> list[str]:
    return [p["top"] for p in game.position_json()["piles"]]


def example_game(variant: str | None = None) -> Accordion:
    game = new_game("accordion", cards=EXAMPLE, variant=variant)
    assert isinstance(game, Accordion)
    return game


def test_source_example_4d_on_4s_then_kd_on_4d() -> None:
    game = example_game()
    for _ in range(5):
        game.push(game.parse_move("d"))
    assert tops(game) == EXAMPLE_ROW
    moves = {str(m) for m in game.legal_moves()}
    # 4D>4S (rank, three left), KD>4D (suit, adjacent), and a deal; QC>4S is two left.
    assert moves == {"4D>4S", "KD>4D", "d"}

    game.push(game.parse_move("4D>4S"))
    assert tops(game) == ["4D", "7H", "QC", "KD"]
    assert game.position_json()["piles"][0]["cards"] == ["4S", "4D"]  # 4S under 4D

    game.push(game.parse_move("KD>4D"))
    assert tops(game) == ["KD", "7H", "QC"]
    assert game.position_json()["piles"][0]["cards"] == ["4S", "4D", "KD"]


def test_source_example_kd_on_4d_first_loses_4d_on_4s() -> None:
    game = example_game()
    for _ in range(5):
        game.push(DEAL)
    game.push(game.parse_move("KD>4D"))
    assert tops(game) == ["4S", "7H", "QC", "KD"]
    reason = game.illegal_reason(game.parse_move("4D>4S"))
    assert reason == "4D is not on top of a pile"
    assert {str(m) for m in game.legal_moves()} == {"d"}  # KD>4S: neither suit nor rank


def test_source_example_through_the_verifier_with_lazy_deals() -> None:
    # Deals left out: the verifier deals just enough to bring the moving card into the row.
    verdict = verify("accordion", None, "4D>4S KD>4D", cards=EXAMPLE)
    assert verdict.valid and verdict.moves == 2
    played = verdict.game
    assert isinstance(played, Accordion)
    assert [str(m) for m in played.move_stack[:7]] == ["d", "d", "d", "d", "4D>4S", "d", "KD>4D"]
    # After the last move the rest of the stock is dealt before judging.
    assert played.dealt == 52

    alt = verify("accordion", None, ["KD>4D", "4D>4S"], cards=EXAMPLE)
    assert not alt.valid
    assert alt.error is not None
    assert (alt.error.index, alt.error.move) == (1, "4D>4S")
    assert "4D is not on top of a pile" in alt.error.reason


@pytest.mark.parametrize(
    "move,reason",
    [
        ("QC>4S", "4S is 2 piles left of QC; a pile moves 1 or 3 places left"),
        ("4S>QC", "QC is not left of 4S: piles only move left"),
        ("QC>7H", "QC and 7H share neither suit nor rank"),
        ("4D>7H", "7H is 2 piles left of 4D; a pile moves 1 or 3 places left"),
        ("KD>4S", "4S is 4 piles left of KD; a pile moves 1 or 3 places left"),
        ("4S>4S", "4S is not left of 4S: piles only move left"),
        ("AS>4S", "AS has not been dealt yet"),
    ],
)
def test_illegal_pile_moves_have_readable_reasons(move: str, reason: str) -> None:
    verdict = verify("accordion", None, f"d d d d d {move}", cards=EXAMPLE)
    assert not verdict.valid and verdict.error is not None
    assert verdict.error.index == 5 and verdict.error.move == move
    if move.startswith("AS"):  # AS is dealt lazily, then its target 4S is 5 piles left
        assert verdict.error.reason == "4S is 5 piles left of AS; a pile moves 1 or 3 places left"
    else:
        assert verdict.error.reason == reason
    game = example_game()
    for _ in range(5):
        game.push(DEAL)
    assert game.illegal_reason(game.parse_move(move)) == reason


def test_two_and_four_places_left_are_never_allowed() -> None:
    # 2S 9H 3S 8D 5S: 5S matches 3S (two left) and 2S (four left) by suit only.
    game = new_game("accordion", cards=deck_starting("2S", "9H", "3S", "8D", "5S"))
    for _ in range(5):
        game.push(DEAL)
    assert not any(isinstance(m, PileMove) for m in game.legal_moves())
    assert "2 piles left" in (game.illegal_reason(PileMove(C.parse("5S"), C.parse("3S"))) or "")
    assert "4 piles left" in (game.illegal_reason(PileMove(C.parse("5S"), C.parse("2S"))) or "")


def test_lazy_deal_is_undone_when_the_move_is_rejected() -> None:
    game = example_game()
    key = game.key()
    with pytest.raises(IllegalMoveError):
        game.play(game.parse_move("QC>4S"))
    assert game.key() == key and game.move_stack == [] and game.dealt == 0


def test_move_of_a_card_still_in_the_stock_is_rejected_when_pushed() -> None:
    game = example_game()
    assert game.illegal_reason(game.parse_move("4D>4S")) == "4D has not been dealt yet"


def test_dealing_everything_is_not_lost_while_a_move_exists() -> None:
    game = example_game()
    assert game.status() == "in progress" and game.score() == 52
    game.finish()
    assert game.dealt == 52 and game.score() == 52 == len(game.piles)
    assert game.pile_moves() and game.status() == "in progress"


def block_moves(block: list[str]) -> list[str]:
    """Pile each card of a same-suit block onto its left neighbour."""
    return [f"{b}>{a}" for a, b in zip(block, block[1:], strict=False)]


def test_a_won_game() -> None:
    # Canonical order: piling each card onto its left neighbour (same suit) leaves 4 piles
    # topped KS KH KD KC, whose tops then pair by rank.
    moves = []
    for s in "SHDC":
        moves += block_moves([f"{r}{s}" for r in "A23456789TJQK"])
    moves += ["KC>KD", "KC>KH", "KC>KS"]
    verdict = verify("accordion", None, moves, cards=" ".join(C.CARD_NAMES))
    assert verdict.valid, verdict.error
    assert verdict.won and verdict.state == "won" and verdict.score == 1
    game = verdict.game
    assert isinstance(game, Accordion)
    assert game.legal_moves() == [] and len(game.piles[0]) == 52


def test_a_lost_game_scores_its_piles() -> None:
    # Four same-suit blocks ending KS, QH, JD, 9C: after piling each block, no two tops
    # match one or three places apart, and the stock is empty: lost with 4 piles.
    blocks = [
        [f"{r}S" for r in "A23456789TJQK"],
        [f"{r}H" for r in "A23456789TJKQ"],
        [f"{r}D" for r in "A23456789TQKJ"],
        [f"{r}C" for r in "A2345678TJQK9"],
    ]
    moves = [m for block in blocks for m in block_moves(block)]
    verdict = verify("accordion", None, moves, cards=" ".join(sum(blocks, [])))
    assert verdict.valid, verdict.error
    assert (verdict.state, verdict.won, verdict.score) == ("lost", False, 4)
    game = verdict.game
    assert isinstance(game, Accordion) and game.legal_moves() == []
    assert tops(game) == ["KS", "QH", "JD", "9C"]
    # One move fewer: the last two clubs are separate piles and 9C>KC is still possible.
    shorter = verify("accordion", None, moves[:-1], cards=" ".join(sum(blocks, [])))
    assert shorter.state == "in progress" and shorter.score == 5


def test_forced_variant_must_move_before_dealing() -> None:
    game = example_game("forced")
    for _ in range(4):
        game.push(DEAL)  # 4S 7H QC 4D: 4D>4S exists
    assert game.illegal_reason(DEAL) == "a move must be made before dealing again (forced variant)"
    assert [str(m) for m in game.legal_moves()] == ["4D>4S"]
    verdict = verify("accordion", None, "d d d d d", variant="forced", cards=EXAMPLE)
    assert verdict.error is not None and verdict.error.index == 4
    # Lazy dealing stops where a move is forced, with a reason that says so.
    lazy = verify("accordion", None, "KD>4D", variant="forced", cards=EXAMPLE)
    assert lazy.error is not None and lazy.error.index == 0
    assert "forced variant" in lazy.error.reason
    assert verify("accordion", None, "4D>4S KD>4D", variant="forced", cards=EXAMPLE).valid


def test_open_variant_deals_all_52_first() -> None:
    game = example_game("open")
    assert game.dealt == 52 and len(game.piles) == 52
    assert tops(game)[:5] == EXAMPLE_ROW
    assert DEAL not in game.legal_moves()
    assert game.illegal_reason(DEAL) == "the stock is empty"
    assert "4D>4S" in {str(m) for m in game.legal_moves()}


def test_notation() -> None:
    game = example_game()
    assert game.parse_move("d") == DEAL == game.parse_move("D")
    assert isinstance(DEAL, Deal)
    assert game.parse_move("4d>4s") == PileMove(C.parse("4D"), C.parse("4S"))
    assert game.parse_move("10♦>10♠") == PileMove(C.parse("TD"), C.parse("TS"))
    assert str(game.parse_move("10♦ > 10♠")) == "TD>TS"
    for bad in ["4D", "4D>", ">4S", "4D>4S>3S", "4D-4S", "x", "R", "AS+QS", "4D>11X"]:
        with pytest.raises(InvalidMoveError):
            game.parse_move(bad)


def test_key_ignores_buried_cards_but_not_tops() -> None:
    a = example_game()
    b = example_game()
    for g in (a, b):
        for _ in range(5):
            g.push(DEAL)
    a.push(a.parse_move("4D>4S"))
    a.push(a.parse_move("KD>4D"))
    b.push(b.parse_move("KD>4D"))
    assert a.key() != b.key()
    assert a.key() == (5, tuple(C.parse(x) for x in ("KD", "7H", "QC")))
