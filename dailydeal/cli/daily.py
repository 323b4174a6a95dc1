"""The generate and schedule commands (pipeline issue)."""

from __future__ import annotations

import datetime as dt
import logging
import sys

import click

from dailydeal.cli import main
from dailydeal.cli.common import progress_bar
from dailydeal.config import Settings

DATE = click.DateTime(formats=["%Y-%m-%d"])


def _setup_logging(verbose: bool = False) -> None:
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.DEBUG if verbose else logging.INFO,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )


@main.command()
@click.option(
    "--from", "start", type=DATE, metavar="DATE",
    help="First date, YYYY-MM-DD (default: today, UTC).",
)
@click.option("--to", "end", type=DATE, metavar="DATE", help="Last date, inclusive.")
@click.option(
    "--days", type=click.IntRange(min=0),
    help="Number of dates (default: today..today+days_ahead, i.e. days_ahead+1).",
)
@click.option("--jobs", type=click.IntRange(min=1), help="Processes (default 1).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="SQLite file.")
@click.option("--max-attempts", type=click.IntRange(min=1), help="Candidates per date and game.")
@click.option("--strict", is_flag=True, help="Exit 1 if a tier could not be filled.")
@click.option("-v", "--verbose", is_flag=True, help="Log a line per date and game.")
def generate(
    start: dt.datetime | None,
    end: dt.datetime | None,
    days: int | None,
    jobs: int | None,
    db_path: str | None,
    max_attempts: int | None,
    strict: bool,
    verbose: bool,
) -> None:
    """Store the daily deals of a range of dates: every (game, tier) still missing.

    For each date and each game of the day, candidate seeds from the server secret are
    solved and rated until the four tiers easy, medium, hard and expert are filled, or the
    attempts run out (reported). Stored days are never changed; running it again, or two at
    once, only fills what is missing. Settings come from DAILYDEAL_* variables
    (see dailydeal.config). A progress bar is shown on a terminal.
    """
    from dailydeal.daily.generate import fill_days, utc_today

    if end is not None and days is not None:
        raise click.UsageError("give --to or --days, not both")
    settings = Settings.from_env(db_path, jobs=jobs, max_attempts=max_attempts)
    _setup_logging(verbose)
    first = start.date() if start else utc_today()
    if end is not None:
        count = (end.date() - first).days + 1
        if count < 0:
            raise click.UsageError("--to is before --from")
    else:
        count = settings.days_ahead + 1 if days is None else days
    tty = sys.stderr.isatty()
    if not verbose:
        logging.getLogger("dailydeal").setLevel(logging.WARNING if tty else logging.INFO)
    with progress_bar("generating", shown=tty) as progress:
        report = fill_days(settings, first, count, jobs=settings.jobs, progress=progress)
    click.echo(report.summary())
    if strict and not report.ok:
        sys.exit(1)


@main.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="SQLite file.")
@click.option(
    "--days-ahead", type=click.IntRange(min=0),
    help="Keep through today+N (UTC) stored (default 7, or DAILYDEAL_DAYS_AHEAD).",
)
@click.option("--jobs", type=click.IntRange(min=1), help="Processes for backfills.")
def schedule(db_path: str | None, days_ahead: int | None, jobs: int | None) -> None:
    """Keep the stock of daily deals filled, as a long-running process.

    First stores anything missing from every date that is "today" somewhere on Earth (from
    the date at UTC-12, as serve does) to today+N (UTC), then runs an APScheduler cron job
    (UTC, every hour at minute 5) that does the same; missed runs are coalesced. Every
    minute it also counts the players' results whose turn has come. Stop it with Ctrl-C
    or SIGTERM; a kill at any point is safe.
    """
    from dailydeal.daily.scheduler import run_scheduler
    from dailydeal.results import due

    _setup_logging()
    run_scheduler(Settings.from_env(db_path, days_ahead=days_ahead, jobs=jobs),
                  every_minute=[(due.JOB_ID, due.count_due)])
