"""The recheck command: stored pars made true (issue 28)."""

from __future__ import annotations

import sys

import click

from dailydeal.cli import main
from dailydeal.config import Settings
from dailydeal.games import SPECS
from dailydeal.games.spec import PROVED

# The games whose solver proves solutions shortest: their stored pars can be rechecked.
PROVING = [name for name, spec in SPECS.items() if spec.shortest == PROVED]


@main.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="SQLite file.")
@click.option(
    "--game", default=PROVING[0], show_default=True, type=click.Choice(PROVING),
    help="The game whose stored solutions are re-solved.",
)
@click.option(
    "--max-nodes", type=click.IntRange(min=0),
    help="Solver positions per deal (default DAILYDEAL_MAX_NODES, 300000).",
)
@click.option("--dry-run", is_flag=True, help="Report only: change nothing.")
def recheck(db_path: str | None, game: str, max_nodes: int | None, dry_run: bool) -> None:
    """Re-solve stored deals whose "proved shortest" no longer stands.

    Every stored GAME row made (or last rechecked) by a solver version older than the
    one whose shortest claims stand (Pyramid: solver 8, issue 28) is solved again. A win
    proved shortest and verified replaces the stored solution, and the old one is kept in
    the deal_revisions table with the time and the reason; each row whose par changes is
    reported. A row the solver cannot prove within the budget is left as it is, and the
    API does not claim its par (proved_shortest: false, docs/api.md). Exits 1 if a row
    could not be made true.
    """
    from dailydeal.daily import store
    from dailydeal.daily.recheck import recheck as run

    overrides = {} if max_nodes is None else {"solve_max_nodes": max_nodes}
    settings = Settings.from_env(db_path, **overrides)
    db = store.open_db(settings.db_path)
    try:
        results = run(
            db, game, settings.solve_max_nodes, settings.solve_time_limit, dry_run=dry_run
        )
    finally:
        db.close()
    for result in results:
        if result.outcome != "same":
            click.echo(result.line())
    counts = {k: sum(r.outcome == k for r in results) for k in
              ("changed", "same", "not proved", "error")}
    dry = " (dry run: nothing changed)" if dry_run else ""
    click.echo(
        f"{len(results)} stored {game} rows rechecked{dry}: "
        f"{counts['changed']} pars changed, {counts['same']} stand, "
        f"{counts['not proved']} not proved within the budget, {counts['error']} errors"
    )
    sys.exit(1 if counts["not proved"] or counts["error"] else 0)
