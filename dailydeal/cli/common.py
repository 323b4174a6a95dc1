"""Options shared by the commands that take a deal: --seed/--cards, --variant, --json."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import click

from dailydeal.games import GAMES, Game, get_game, new_game
from dailydeal.shuffle import MAX_SEED

GAME_ARG = click.argument("game", type=click.Choice(list(GAMES), case_sensitive=False))


def deal_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add --seed, --cards and --variant, and pass the ``game`` object built from them."""

    @click.option("--seed", type=click.IntRange(0, MAX_SEED), help="Deal number, 0..2**64-1.")
    @click.option(
        "--cards",
        help=(
            "An explicit deal instead of --seed: the 52 cards in dealing order (Accordion: "
            "the stock, first dealt first; Pyramid: the 28 pyramid cards row by row, then "
            "the stock, first drawn first; Gaps: the 4 rows of 13 as dealt, aces included). "
            "Gaps redeals of an explicit deal use the stream of seed 0."
        ),
    )
    @click.option("--variant", help="Variant of the game (default: the default of docs/rules.md).")
    @functools.wraps(func)
    def wrapper(
        game: str, seed: int | None, cards: str | None, variant: str | None, **kw: Any
    ) -> Any:
        if (seed is None) == (cards is None):
            raise click.UsageError("give exactly one of --seed N and --cards '...'")
        try:
            get_game(game, variant)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--variant") from None
        try:
            position = new_game(game, seed, variant, cards)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--cards") from None
        return func(position, **kw)

    return wrapper


JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def game_header(game: Game[Any]) -> str:
    seed = "explicit cards" if game.seed is None else f"seed {game.seed}"
    return f"{game.name} ({game.variant}), {seed}"
