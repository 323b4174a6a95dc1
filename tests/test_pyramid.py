"""Pyramid rules (docs/rules.md): accessibility, pairs, kings, draw, recycle, won/lost, variants."""

from __future__ import annotations

import pytest

from dailydeal import cards as C
from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.games import new_game
from dailydeal.games.pyramid import DRAW, RECYCLE, Draw, King, Pair, Pyramid, Recycle
from dailydeal.verify import verify


def place(row: int, i: int) -> int:
    """Index in the deck of pyramid row ``row``, place ``i`` (both 1-based)."""
    return row * (row - 1) // 2 + i - 1


def build(
    pyramid: dict[tuple[int, int], str], stock: list[str], stock_end: tuple[str, ...] = ()
) -> str:
    """An explicit deal: the given pyramid places, the stock's first and last cards, and
    the other cards in canonical order in the places left."""
    used = set(pyramid.values()) | set(stock) | set(stock_end)
    assert len(used) == len(pyramid) + len(stock) + len(stock_end)
    rest = iter([n for n in C.CARD_NAMES if n not in used])
    cells = [pyramid.get((r, i)) or next(rest) for r in range(1, 8) for i in range(1, r + 1)]
    return " ".join([*cells, *stock, *rest, *stock_end])


def game_of(cards: str, variant: str | None = None) -> Pyramid:
    game = new_game("pyramid", cards=cards, variant=variant)
    assert isinstance(game, Pyramid)
    return game


def names(cards: list[int]) -> list[str]:
    return C.names(cards)


def test_layout_and_initial_accessibility() -> None:
    deck = C.CARD_NAMES  # canonical order: row 7 is the 22nd..28th cards
    game = game_of(" ".join(deck))
    assert names(game.accessible()) == list(deck[21:28])
    assert game.position_json()["pyramid"][1] == ["2S", "3S"]
    assert game.position_json()["stock_count"] == 24
    assert game.stock[-1] == C.parse(deck[28])  # the 29th card is drawn first
    game.push(DRAW)
    assert names(game.waste) == [deck[28]]


def test_a_card_becomes_accessible_when_both_covering_cards_are_gone() -> None:
    cards = build({(6, 1): "5S", (7, 1): "KS", (7, 2): "8H", (7, 3): "KH"}, [])
    game = game_of(cards)
    assert game.illegal_reason(game.parse_move("5S+8H")) == "5S is covered by KS and 8H"
    game.push(game.parse_move("KS"))
    assert game.illegal_reason(game.parse_move("5S+8H")) == "5S is covered by 8H"
    assert C.parse("5S") not in game.accessible()
    # 8H covers 5S: a card cannot pair with a card that covers it (docs/rules.md decision).
    assert Pair(C.parse("5S"), C.parse("8H")) not in game.legal_moves()
    game.push(game.parse_move("KH"))
    assert C.parse("5S") not in game.accessible()


def test_pair_with_the_waste_top_and_kings_from_the_waste() -> None:
    cards = build({(7, 1): "4S"}, ["9H", "KD", "3C"])
    game = game_of(cards)
    assert game.illegal_reason(game.parse_move("4S+9H")) == "9H is in the stock"
    game.push(DRAW)
    assert Pair(C.parse("4S"), C.parse("9H")) in game.legal_moves()
    game.push(DRAW)  # KD covers 9H in the waste
    assert game.illegal_reason(game.parse_move("4S+9H")) == "9H is in the waste under KD"
    assert King(C.parse("KD")) in game.legal_moves()
    game.push(game.parse_move("KD"))
    game.push(game.parse_move("9h+4s"))
    assert names(game.waste) == []
    assert game.illegal_reason(game.parse_move("4S+9H")) == "4S is already on the foundation"
    game.pop()
    assert names(game.waste) == ["9H"] and C.parse("4S") in game.accessible()


def test_pairs_must_sum_to_13() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    # Row 7 of the canonical deal: 9H TH JH QH KH AD 2D.
    assert game.illegal_reason(game.parse_move("9H+TH")) == "9H and TH do not sum to 13"
    legal = {str(m) for m in game.legal_moves()}
    assert legal == {"JH+2D", "QH+AD", "KH", "d"}


def test_recycle_turns_the_waste_over_in_the_same_order() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    stock = names(list(reversed(game.stock)))
    assert game.illegal_reason(RECYCLE) == "the stock is not empty yet"
    for _ in range(24):
        game.push(DRAW)
    assert game.illegal_reason(DRAW) == "the stock is empty: recycle the waste with r"
    assert RECYCLE in game.legal_moves() and DRAW not in game.legal_moves()
    game.push(RECYCLE)
    drawn = []
    for _ in range(24):
        game.push(DRAW)
        drawn.append(C.name(game.waste[-1]))
    assert drawn == stock  # the cards come out again in the same order
    game.push(RECYCLE)  # unlimited in the default variant
    assert game.recycles == 2 and len(game.stock) == 24


def test_recycle_needs_a_waste() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    game.stock.clear()  # white box: a position with stock and waste both empty
    assert game.illegal_reason(RECYCLE) == "the waste is empty"
    assert RECYCLE not in game.legal_moves() and DRAW not in game.legal_moves()


@pytest.mark.parametrize("passes", [1, 2, 3])
def test_passes_variant_limits_recycles(passes: int) -> None:
    game = game_of(" ".join(C.CARD_NAMES), variant=f"passes={passes}")
    assert game.position_json()["passes_left"] == passes  # the current pass included
    for n in range(passes):
        for _ in range(24):
            game.push(DRAW)
        if n < passes - 1:
            game.push(RECYCLE)
    assert RECYCLE not in game.legal_moves()
    assert game.illegal_reason(RECYCLE) == f"no pass through the stock is left (at most {passes})"
    # A draw is not told to recycle when no recycle is left
    assert game.illegal_reason(DRAW) == (
        f"the stock is empty and no pass through it is left (at most {passes})"
    )
    assert game.position_json()["passes_left"] == 1  # the last pass is under way


def blocked_deck(stock: list[str], stock_end: tuple[str, ...] = ()) -> str:
    """Row 7 holds only aces and 2s, and the queens and jacks not in ``stock`` or
    ``stock_end`` are buried in rows 1..4; no king is accessible."""
    bottom = ["AS", "AH", "AD", "AC", "2S", "2H", "2D"]
    pyramid = {(7, i + 1): c for i, c in enumerate(bottom)}
    mates = ("QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC")
    buried = [c for c in mates if c not in stock and c not in stock_end]
    places = [(r, i) for r in range(1, 5) for i in range(1, r + 1)]
    pyramid.update(zip(places, buried, strict=False))
    return build(pyramid, stock, stock_end)


def test_lost_when_no_draw_or_recycle_can_remove_a_pyramid_card() -> None:
    game = game_of(blocked_deck([]))
    assert game.status() == "lost" and game.score() == 28
    assert {str(m) for m in game.legal_moves()} == {"d"}  # draws remain, but they are useless
    # The same layout with a queen in the stock is in progress: a draw brings it.
    assert game_of(blocked_deck(["QS"])).status() == "in progress"


def test_waste_cards_count_as_reachable_while_a_recycle_is_left() -> None:
    for variant, expected in ((None, "in progress"), ("passes=2", "in progress"),
                              ("passes=1", "lost")):
        game = game_of(blocked_deck(["QS"]), variant)
        for _ in range(24):
            game.push(DRAW)  # QS is drawn first, so it lies deep in the waste
        assert game.status() == expected, variant


def test_a_waste_king_on_top_of_a_useful_card_does_not_block() -> None:
    # passes=1: QS then KH are the last two stock cards; after drawing everything, KH lies
    # on QS with no recycle left. Removing KH alone uncovers QS, so the game is not blocked.
    game = game_of(blocked_deck([], ("QS", "KH")), "passes=1")
    assert names(game.stock[:2]) == ["KH", "QS"]  # the top of the list is drawn first
    for _ in range(23):
        game.push(DRAW)
    assert C.name(game.waste[-1]) == "QS" and game.status() == "in progress"
    game.push(DRAW)
    assert C.name(game.waste[-1]) == "KH" and not game.stock
    assert game.status() == "in progress"
    game.push(game.parse_move("KH"))
    assert Pair(C.parse("AS"), C.parse("QS")) in game.legal_moves()
    # Without the king on top (QS last, drawn last), the same holds trivially; with a
    # non-king on top of QS, QS is out of reach for good: lost.
    game2 = game_of(blocked_deck([], ("QS", "3H")), "passes=1")
    for _ in range(24):
        game2.push(DRAW)
    assert game2.status() == "lost"


def test_a_won_game_with_cards_left_in_the_stock() -> None:
    # Each pyramid card is a king or pairs with the next stock card, in removal order.
    kings = ["KS", "KH", "KD", "KC"]
    others = [n for n in C.CARD_NAMES if n[0] != "K"]
    lows = [n for n in others if C.value(C.parse(n)) <= 6]  # 24 cards A..6
    order = [(r, i) for r in range(7, 0, -1) for i in range(1, r + 1)]  # removal order
    pyramid: dict[tuple[int, int], str] = {}
    stock: list[str] = []
    moves: list[str] = []
    low_iter = iter(lows)
    for n, where in enumerate(order):
        if n % 7 == 3 and kings:
            card = kings.pop()
            moves.append(card)
        else:
            card = next(low_iter)
            mate = C.name(C.make(13 - C.value(C.parse(card)), C.suit(C.parse(card))))
            stock.append(mate)
            moves += ["d", f"{card}+{mate}"]
        pyramid[where] = card
    assert not kings and len(stock) == 24
    verdict = verify("pyramid", None, moves, cards=build(pyramid, stock))
    assert verdict.valid, verdict.error
    assert verdict.won and verdict.state == "won" and verdict.score == 0
    # One move short: not won yet, one pyramid card left.
    short = verify("pyramid", None, moves[:-1], cards=build(pyramid, stock))
    assert short.state == "in progress" and short.score == 1


def test_notation() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    assert game.parse_move("d") == DRAW and isinstance(DRAW, Draw)
    assert game.parse_move("R") == RECYCLE and isinstance(RECYCLE, Recycle)
    pair = Pair(C.parse("AD"), C.parse("QH"))
    assert game.parse_move("QH+AD") == game.parse_move("ad+qh") == pair
    assert str(game.parse_move("10♥+3♠")) == "3S+TH"
    assert str(game.parse_move("k♥")) == "KH"
    with pytest.raises(InvalidMoveError, match="only a king is removed alone"):
        game.parse_move("QS")
    for bad in ["AS+QS+2S", "4D>4S", "AS+", "+", "11X", "2S@1", "x", "KS KH"]:
        with pytest.raises(InvalidMoveError):
            game.parse_move(bad)


def test_illegal_moves_raise_with_the_reason_when_pushed() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    with pytest.raises(IllegalMoveError, match="AS is covered by 2S and 3S"):
        game.push(game.parse_move("AS+QS"))
    with pytest.raises(IllegalMoveError, match="KS is covered"):
        game.push(game.parse_move("KS"))


def test_key_and_json_after_play_and_undo() -> None:
    game = game_of(" ".join(C.CARD_NAMES))
    key, view = game.key(), game.to_json()
    for move in ["d", "JH+2D", "KH", "d", "QH+AD"]:
        game.push(game.parse_move(move))
    assert game.score() == 23
    for _ in range(5):
        game.pop()
    assert game.key() == key and game.to_json() == view


def test_any_number_of_passes_is_a_variant() -> None:
    game = game_of(" ".join(C.CARD_NAMES), variant="passes=5")
    assert game.variant == "passes=5" and game.PASSES == 5
    for _ in range(4):
        for _ in range(24):
            game.push(DRAW)
        game.push(RECYCLE)
    for _ in range(24):
        game.push(DRAW)
    assert game.illegal_reason(RECYCLE) == "no pass through the stock is left (at most 5)"
    for bad in ("passes=0", "passes=100", "passes=x", "passes="):
        with pytest.raises(ValueError, match="unknown variant"):
            new_game("pyramid", 1, bad)
