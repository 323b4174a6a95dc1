"""The registry of games and variants: GAMES, SPECS, get_game(name, variant), deal()."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dailydeal.games.base import IN_PROGRESS, LOST, STATES, WON, Game
from dailydeal.games.spec import SPECS, GameClass, GameSpec


class _Registry(Mapping[str, dict[str, GameClass]]):
    """game name -> variant name -> class. The names are the specs'; a game's classes are
    imported when its variants are first asked for (``GameSpec.variants``), so a command
    that plays one game loads one engine."""

    def __init__(self) -> None:
        self._variants: dict[str, dict[str, GameClass]] = {}

    def __getitem__(self, game: str) -> dict[str, GameClass]:
        found = self._variants.get(game)
        if found is None:
            found = self._variants[game] = {g.variant: g for g in SPECS[game].variants}
        return found

    def __contains__(self, game: object) -> bool:  # a name, without importing its engine
        return game in SPECS

    def __iter__(self) -> Iterator[str]:
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)


# game name -> variant name -> class; the first variant of each game is its default.
GAMES: Mapping[str, dict[str, GameClass]] = _Registry()
# The games dealt every day, in the order the pages show them.
DAILY: tuple[str, ...] = tuple(game for game, spec in SPECS.items() if spec.daily)
ALIASES = {("gaps", "redeals=2"): "standard", ("gaps", "addiction"): "redeals=3"}


def _passes(n: int) -> GameClass:
    from dailydeal.games.pyramid import passes_variant

    return passes_variant(n)


def _redeals(n: int) -> GameClass:
    from dailydeal.games.gaps import redeals_variant

    return redeals_variant(n)


# The parametrised variants of docs/rules.md: any N in range, not only the ones listed in GAMES.
_PARAMETRISED: dict[tuple[str, str], Any] = {
    ("pyramid", "passes"): _passes,
    ("gaps", "redeals"): _redeals,
}


def load_all() -> None:
    """Import every game's engines now (a server's master, before it forks its workers)."""
    for game in GAMES:
        GAMES[game]


def default_variant(game: str) -> str:
    return next(iter(GAMES[check_game(game)]))


def spec_of(game: str | Game[Any]) -> GameSpec:
    """The spec of a game, by its name or from a position of it."""
    return SPECS[game.name if isinstance(game, Game) else check_game(game)]


def check_game(name: str) -> str:
    if not isinstance(name, str) or name.lower() not in GAMES:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return name.lower()


def get_game(name: str, variant: str | None = None) -> GameClass:
    """The class of a game variant; ``variant=None`` is the default of docs/rules.md."""
    game = check_game(name)
    if variant is None or variant == "":
        return next(iter(GAMES[game].values()))
    if not isinstance(variant, str):
        raise ValueError(f"a variant is text, not {type(variant).__name__}")
    v = ALIASES.get((game, variant.lower()), variant.lower())
    cls = GAMES[game].get(v)
    key, _, number = v.partition("=")
    if cls is None and (game, key) in _PARAMETRISED and number.isascii() and number.isdigit():
        try:
            cls = _PARAMETRISED[game, key](int(number))
        except ValueError as exc:
            raise ValueError(f"unknown variant {variant!r} of {game}: {exc}") from None
    if cls is None:
        raise ValueError(
            f"unknown variant {variant!r} of {game}; variants: {', '.join(GAMES[game])}"
        )
    return cls


def new_game(
    name: str,
    seed: int | None = None,
    variant: str | None = None,
    cards: Any = None,
) -> Game[Any]:
    """A game from a seed or from an explicit deal (exactly one of the two)."""
    cls = get_game(name, variant)
    if (seed is None) == (cards is None):
        raise ValueError("give either a seed or the cards of a deal")
    if cards is not None:
        return cls.from_cards(cards)
    assert seed is not None
    return cls.from_seed(seed)


def deal(name: str, seed: int, variant: str | None = None) -> dict[str, Any]:
    """The deal of a seed in the JSON shape of the rules issue."""
    game = new_game(name, seed, variant)
    return {"game": game.name, "variant": game.variant, "seed": seed, "deal": game.deal_json()}


__all__ = [
    "DAILY",
    "GAMES",
    "IN_PROGRESS",
    "LOST",
    "SPECS",
    "STATES",
    "WON",
    "Game",
    "GameSpec",
    "deal",
    "default_variant",
    "get_game",
    "load_all",
    "new_game",
    "spec_of",
]
