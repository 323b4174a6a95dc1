"""Commands on one deal: show it, verify a move list."""

from __future__ import annotations

import sys
from typing import Any

import click

from dailydeal import cards as C
from dailydeal.cli import main
from dailydeal.cli.common import GAME_ARG, JSON_OPTION, deal_options, echo_json, game_header
from dailydeal.games import Game, spec_of
from dailydeal.verify import replay


@main.command()
@GAME_ARG
@deal_options
@JSON_OPTION
def deal(game: Game[Any], as_json: bool) -> None:
    """Show the deal of GAME for --seed N (or --cards).

    Without --json, a picture of the layout; with --json,
    {"game","variant","seed","deal":{...}}, the seed a decimal string (as in the API).
    """
    if as_json:
        echo_json({"deal": game.deal_json()}, game)
        return
    click.echo(game_header(game))
    click.echo(game.render())
    if spec_of(game).shows_dealing_order:
        # Accordion's row starts empty: show the stock as it will be dealt, 13 a line.
        stock = [f"{C.pretty(c):>3}" for c in game.cards]
        click.echo("dealing order (first dealt first):")
        for n in range(0, 52, 13):
            click.echo(" ".join(stock[n : n + 13]))


@main.command()
@GAME_ARG
@deal_options
@JSON_OPTION
@click.argument("moves", nargs=-1)
def verify(game: Game[Any], as_json: bool, moves: tuple[str, ...]) -> None:
    """Replay MOVES on the deal and print the verdict.

    MOVES are in the notation of docs/rules.md, as separate arguments or one string separated by
    spaces or commas; `-` reads them from standard input (text or a JSON list).
    With --json: {"game","variant","seed","valid","won","state","score","moves","error"},
    the seed a decimal string (as in the API).
    Exits 0 when the list is valid, 1 when a move is bad, 2 on malformed input.
    """
    text = sys.stdin.read() if moves == ("-",) else " ".join(moves)
    try:
        verdict = replay(game, text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="MOVES") from None
    if as_json:
        echo_json(verdict.to_json(), game)
    else:
        click.echo(game_header(game))
        if verdict.error:
            e = verdict.error
            click.echo(f"move {e.index} ({e.move!r}) is bad: {e.reason}")
        click.echo(
            f"{'valid' if verdict.valid else 'invalid'}; state: {verdict.state}; "
            f"score: {verdict.score}; moves played: {verdict.moves}"
        )
        click.echo(game.render())
    sys.exit(0 if verdict.valid else 1)
