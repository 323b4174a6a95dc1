"""Cards as ints 0..51 with a name table (docs/rules.md, "Cards").

A card is ``suit * 13 + (value - 1)`` with suits in the canonical order S H D C and
values A=1 .. K=13, so sorting ints is the canonical order of docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dailydeal.errors import InvalidMoveError

Card = int

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
# Outline symbols are accepted as well as the filled ones.
_SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_NAME_TO_CARD = {name: i for i, name in enumerate(CARD_NAMES)}
DECK: tuple[Card, ...] = tuple(range(52))
_DECK_SET = frozenset(DECK)
_INT = {int}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13


def value(card: Card) -> int:
    """Rank value 1 (ace) .. 13 (king)."""
    return card % 13 + 1


def suit(card: Card) -> int:
    """Suit index 0..3 in the order S H D C."""
    return card // 13


def make(value_: int, suit_: int) -> Card:
    return suit_ * 13 + value_ - 1


def name(card: Card) -> str:
    """The canonical two-character name, e.g. ``TD``."""
    return CARD_NAMES[card]


def pretty(card: Card) -> str:
    """A name with a suit symbol for terminals, e.g. ``10♦``."""
    r = RANKS[card % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[card // 13]


def parse(text: str) -> Card:
    """Read one card in any spelling docs/rules.md accepts: ``TD``, ``10D``, ``td``, ``10♦``."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a card must be text, not {type(text).__name__}")
    t = text.strip()
    if not t:
        raise InvalidMoveError("empty card")
    if len(t) > 4:
        raise InvalidMoveError(f"unknown card {text!r}")
    # ASCII only (but for the suit symbols): str.upper() would read "ſ" (long s) as "S"
    if not t[:-1].isascii() or not (t[-1].isascii() or t[-1] in _SYMBOL_TO_SUIT):
        raise InvalidMoveError(f"unknown card {text!r}")
    s = _SYMBOL_TO_SUIT.get(t[-1], t[-1].upper())
    r = t[:-1].upper()
    if r == "10":
        r = "T"
    card = _NAME_TO_CARD.get(r + s)
    if card is None:
        raise InvalidMoveError(f"unknown card {text!r}")
    return card


def parse_list(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by whitespace or commas, or given as a list of strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse(item) for item in items]


def parse_deck(text: str | Iterable[str]) -> list[Card]:
    """Read an explicit deal: exactly the 52 cards, each once, in dealing order."""
    cards = parse_list(text)
    check_deck(cards)
    return cards


def check_deck(cards: Sequence[Card]) -> None:
    """Raise ValueError unless ``cards`` is a permutation of the 52 cards."""
    if len(cards) == 52 and set(map(type, cards)) == _INT and set(cards) == _DECK_SET:
        return  # the common case, at C speed: 52 ints (no bool), each card once
    bad = [c for c in cards if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52]
    if bad:
        raise InvalidMoveError(f"a card number is an integer 0..51, not {bad[0]!r}")
    seen: set[Card] = set()
    doubles = []
    for c in cards:
        if c in seen:
            doubles.append(name(c))
        seen.add(c)
    missing = [name(c) for c in DECK if c not in seen]
    if doubles or missing or len(cards) != 52:
        parts = [f"a deal is the 52 cards each once; got {len(cards)} cards"]
        if doubles:
            parts.append("twice: " + " ".join(doubles))
        if missing:
            parts.append("missing: " + " ".join(missing))
        raise InvalidMoveError("; ".join(parts))


def names(cards: Iterable[Card]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]
