"""Card codes and spellings (docs/rules.md, "Cards") and the explicit-deal check."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dailydeal import cards as C
from dailydeal.errors import InvalidMoveError


def test_canonical_order_and_numbers() -> None:
    assert C.CARD_NAMES[:13] == tuple("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS".split())
    assert [C.name(n) for n in (0, 12, 13, 35, 51)] == ["AS", "KS", "AH", "TD", "KC"]
    assert sorted(C.CARD_NAMES, key=C.parse) == list(C.CARD_NAMES)
    assert len(set(C.CARD_NAMES)) == 52


@pytest.mark.parametrize("card", range(52))
def test_value_suit_make_are_consistent(card: int) -> None:
    assert 1 <= C.value(card) <= 13 and 0 <= C.suit(card) <= 3
    assert C.make(C.value(card), C.suit(card)) == card
    assert C.name(card) == C.RANKS[C.value(card) - 1] + C.SUITS[C.suit(card)]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("TD", "TD"), ("10D", "TD"), ("td", "TD"), ("10d", "TD"), ("10♦", "TD"), ("T♦", "TD"),
        ("10♢", "TD"), (" as ", "AS"), ("A♠", "AS"), ("q♥", "QH"), ("Kc", "KC"), ("7♣", "7C"),
        ("2♤", "2S"),
    ],
)  # fmt: skip
def test_every_spelling_reads_to_the_canonical_card(text: str, expected: str) -> None:
    assert C.name(C.parse(text)) == expected


@pytest.mark.parametrize(
    "text", ["11X", "1D", "ZZ", "", "   ", "T", "10", "1OD", "AAS", "KSS", "♦10", "🂡", "AS♠",
             "\x00", "Ｔ♦", "10DD"],
)  # fmt: skip
def test_unknown_cards_are_an_error_naming_the_text(text: str) -> None:
    with pytest.raises(InvalidMoveError) as err:
        C.parse(text)
    message = str(err.value)
    assert "card" in message
    if text.strip():
        assert repr(text) in message


@pytest.mark.parametrize("thing", [None, 12, ["AS"], b"AS"])
def test_non_text_is_an_error(thing: object) -> None:
    with pytest.raises(InvalidMoveError, match="must be text"):
        C.parse(thing)  # type: ignore[arg-type]


def test_invalid_move_error_is_a_value_error() -> None:
    assert issubclass(InvalidMoveError, ValueError)


@given(st.permutations(range(52)))
def test_parse_deck_round_trips_any_permutation(deck: list[int]) -> None:
    assert C.parse_deck(" ".join(C.names(deck))) == deck
    assert C.parse_deck(",".join(C.pretty(c) for c in deck)) == deck
    assert C.parse_deck(C.names(deck)) == deck


@given(st.text(max_size=30))
def test_parse_never_crashes(text: str) -> None:
    try:
        card = C.parse(text)
    except InvalidMoveError:
        return
    assert C.name(card) in C.CARD_NAMES


def test_deck_with_51_cards() -> None:
    with pytest.raises(InvalidMoveError, match="got 51 cards; missing: KC"):
        C.parse_deck(C.CARD_NAMES[:51])


def test_deck_with_a_card_twice() -> None:
    names = list(C.CARD_NAMES)
    names[5] = "AS"
    with pytest.raises(InvalidMoveError, match="twice: AS; missing: 6S"):
        C.parse_deck(names)


def test_deck_with_53_cards() -> None:
    with pytest.raises(InvalidMoveError, match="got 53 cards; twice: 2S"):
        C.parse_deck([*C.CARD_NAMES, "2S"])


@pytest.mark.parametrize("bad", [[*range(51), 52], [*range(51), -1], [*range(51), "KC"],
                                 [*range(51), True], [*range(51), 1.0]])
def test_check_deck_rejects_non_card_numbers(bad: list[object]) -> None:
    with pytest.raises(InvalidMoveError, match="integer 0..51"):
        C.check_deck(bad)  # type: ignore[arg-type]


def test_pretty_names() -> None:
    assert C.pretty(C.parse("TD")) == "10♦"
    assert C.pretty(C.parse("AS")) == "A♠"
    assert [C.parse(C.pretty(c)) for c in range(52)] == list(range(52))
