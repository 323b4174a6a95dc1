"""The rate command."""

from __future__ import annotations

import sys
from typing import Any

import click

from dailydeal.cli import main
from dailydeal.cli.common import GAME_ARG, JSON_OPTION, deal_options, echo_json, game_header
from dailydeal.games import Game
from dailydeal.rating import rate as rate_deal
from dailydeal.rating import thresholds


@main.command()
@GAME_ARG
@deal_options
@JSON_OPTION
def rate(game: Game[Any], as_json: bool) -> None:
    """Rate the difficulty of a winnable deal: a rating 0..100, a tier and its features.

    The deal is solved first (a deal not known to be winnable is an error, exit 1), then
    played many times by a player model that sees only what a person sees.

    JSON: {"game","variant","seed","rating","tier","features","thresholds"}; the seed is a
    decimal string (as in the API).
    """
    cards = None if game.seed is not None else list(game.cards)
    try:
        result = rate_deal(game.name, game.seed, game.variant, cards=cards)
    except ValueError as exc:
        if as_json:
            echo_json({"error": str(exc)}, game)
        else:
            click.echo(f"{game_header(game)}: cannot rate: {exc}", err=True)
        sys.exit(1)
    limits = list(thresholds(game.name))
    if as_json:
        echo_json({**result.to_json(), "thresholds": limits}, game)
        return
    click.echo(game_header(game))
    click.echo(f"rating: {result.rating:.1f} / 100")
    click.echo(f"tier:   {result.tier} (thresholds {', '.join(f'{t:g}' for t in limits)})")
    for key, value in result.features.items():
        click.echo(f"  {key}: {value}")
