"""The solve command."""

from __future__ import annotations

import sys
from typing import Any

import click

from dailydeal.cli import main
from dailydeal.cli.common import GAME_ARG, JSON_OPTION, deal_options, echo_json, game_header
from dailydeal.games import Game
from dailydeal.solvers import WON, proved_shortest, solve_position


@main.command()
@GAME_ARG
@deal_options
@click.option("--time-limit", type=click.FloatRange(min=0), help="Seconds before giving up.")
@click.option("--max-nodes", type=click.IntRange(min=0), help="Positions before giving up.")
@JSON_OPTION
def solve(game: Game[Any], time_limit: float | None, max_nodes: int | None, as_json: bool) -> None:
    """Solve the deal: won (with a solution), lost (proved) or unknown (budget spent).

    JSON: {"game","variant","seed","status","moves","nodes","seconds","proved_shortest"};
    the seed is a decimal string (as in the API). proved_shortest is true when no shorter
    solution exists (Pyramid, when the search finished), false when the budget ran out
    before that proof (the solution is valid, maybe not shortest), null when the game's
    solver never looks for the shortest (Accordion, Gaps) or there is no win. Exits 0 when
    won, 1 otherwise.
    """
    result = solve_position(game, max_nodes=max_nodes, time_limit=time_limit)
    shortest = proved_shortest(result)
    if as_json:
        echo_json({**result.to_json(), "proved_shortest": shortest}, game)
    else:
        click.echo(game_header(game))
        click.echo(f"{result.status} after {result.nodes} positions in {result.seconds:.3f} s")
        if result.moves:
            proof: dict[bool | None, str] = {
                True: ", proved shortest", False: ", not proved shortest (budget)"
            }
            click.echo(
                f"solution ({len(result.moves)} moves{proof.get(shortest, '')}): "
                + " ".join(result.moves)
            )
    sys.exit(0 if result.status == WON else 1)
