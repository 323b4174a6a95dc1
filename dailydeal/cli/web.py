"""The serve command (API issue)."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import errno
import ipaddress
import logging
import multiprocessing
import os
import re
import socket
import sys
from typing import Any

import click

from dailydeal.cli import main
from dailydeal.cli.common import forked_workers_exit_here, progress_bar, run_without_interrupt
from dailydeal.daily.today import todays_range

#: Seconds from the start of ``serve`` to the scheduler's first run, which stores the days
#: ahead in the background: gunicorn forks its workers first (a fork copies only the thread
#: that forks, and a job busy in another thread at that moment is better avoided).
FIRST_STOCK_DELAY = 10.0
#: The scheduler's one-off first run of ``serve --fill background``
FIRST_RUN_ID = "first-fill"


def fill_today(settings: Any, jobs: int, progress: bool, isolated: bool = False) -> None:
    """Store the missing deals of every date that is today somewhere; print the summary
    (the one summary of a ``serve``: the scheduler's runs then say what they add)."""
    from dailydeal.daily.generate import fill_days

    start, days = todays_range(dt.datetime.now(dt.UTC))
    last = start + dt.timedelta(days=days - 1)
    click.echo(f"filling the deals of {start} .. {last} into {settings.db_path}", err=True)
    with progress_bar("generating", shown=progress) as step:
        report = fill_days(settings, start, days, jobs=jobs, progress=step, isolated=isolated)
    click.echo(report.summary(), err=True)


def fill_today_then_stock(settings: Any) -> None:
    """The first run of ``serve --fill background``'s scheduler: today's dates with their
    summary, then the days ahead with one line (each fill in child processes, which
    import the compiled solvers as soon as a background build has finished them)."""
    from dailydeal.daily import scheduler

    fill_today(settings, settings.jobs, progress=False, isolated=True)
    scheduler.fill_stock(settings)


#: A host name as ``--host`` takes it: ASCII labels of letters, digits and inner hyphens.
HOST_NAME = re.compile(
    r"(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)
HOST_EXAMPLES = "e.g. 127.0.0.1, 0.0.0.0, ::1, [::1], :: or localhost"


def listen_host(text: str) -> str:
    """The address ``--host`` names, an IPv6 one without its brackets (``[::1]`` is
    ``::1``), else one line saying what is wrong with it."""
    host = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    with contextlib.suppress(ValueError):
        return str(ipaddress.ip_address(host))
    shown = repr(text[:80])
    if re.fullmatch(r"[^:\[\]]+:[0-9]*", text) or re.fullmatch(r"\[.*\]:[0-9]*", text):
        raise click.ClickException(f"--host {shown} holds a port: give the port with --port")
    if ":" in host or "[" in host or "]" in host:
        raise click.ClickException(
            f"--host {shown} is not an IPv6 address ({HOST_EXAMPLES})"
        )
    if re.fullmatch(r"[0-9.]+", host):
        raise click.ClickException(
            f"--host {shown} is not an IPv4 address: four numbers 0..255 ({HOST_EXAMPLES})"
        )
    if not HOST_NAME.fullmatch(host):
        raise click.ClickException(
            f"--host {shown} is neither an IP address nor a host name ({HOST_EXAMPLES})"
        )
    return host


def host_port(host: str, port: int) -> str:
    """``host:port`` as a URL or gunicorn's bind writes it (``[::1]:8000``)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_port(host: str, port: int) -> None:
    """Stop with one line if ``host:port`` cannot be listened on: before a first run spends
    minutes filling deals, not after. (SO_REUSEADDR, as the server binds: a port left in
    TIME_WAIT by the last run is free.)"""
    where = host_port(host, port)
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM
        )[0]
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise click.ClickException(
            f"cannot find the address of --host {host[:80]!r} ({reason}): give an address "
            f"of this machine ({HOST_EXAMPLES})"
        ) from None
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.EADDRINUSE:
            hint = "stop what uses it, or choose another with --port (make run PORT=8080)"
        elif exc.errno == errno.EACCES:
            hint = "a port below 1024 needs root: choose another with --port"
        elif exc.errno in (errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT):
            hint = "this machine has no IPv6: listen on an IPv4 address such as 127.0.0.1"
        elif exc.errno == errno.EADDRNOTAVAIL:
            hint = f"{host} is not an address of this machine"
        elif exc.errno == errno.EINVAL and host.lower().startswith("fe80:"):
            hint = "a link-local IPv6 address needs its interface, e.g. fe80::1%eth0"
        else:
            hint = "choose another --host or --port"
        raise click.ClickException(f"cannot listen on {where} ({reason}): {hint}") from None


def exit_stopping_fills(older: set[multiprocessing.process.BaseProcess]) -> None:
    """At the server's exit: a fill still running (a scheduler run in a thread, waiting on
    its solver processes) would hold the exit for minutes. Stop its pools and any other
    child started since ``older`` (the children from before the server) and leave now;
    the deals stored so far stay, and the next run fills the rest."""
    children = [p for p in multiprocessing.active_children() if p not in older]
    if not children:
        return
    from dailydeal.daily.generate import stop_running_fills

    click.echo("stopping the fill of deals (the deals stored so far are kept)", err=True)
    stop_running_fills()
    for child in children:
        child.terminate()
    for child in children:
        child.join(5)
    exc = sys.exc_info()[1]  # the server's SystemExit (its status), an error, or None
    code = exc.code if isinstance(exc, SystemExit) else (1 if exc is not None else None)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code if isinstance(code, int) else int(code is not None))


def start_background_fill(settings: Any, jobs: int) -> multiprocessing.process.BaseProcess:
    """``fill_today`` in a spawned process (never a thread or a fork of this process, which
    is about to fork gunicorn workers)."""
    proc = multiprocessing.get_context("spawn").Process(
        target=run_without_interrupt, args=(fill_today, settings, jobs, False),
        name="dailydeal-fill", daemon=True,
    )
    proc.start()
    return proc


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: IPv4, IPv6 (::1 or [::1]; :: for every address) or a name.",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    help="SQLite file (default: DAILYDEAL_DB, else data/dailydeal.db).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="gunicorn worker processes.",
)
@click.option(
    "--connections",
    default=1000,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Connections per worker (gevent: a slow client holds one, not a thread).",
)
@click.option(
    "--fill",
    type=click.Choice(["wait", "background", "no"]),
    default="wait",
    show_default=True,
    help="Generate today's missing deals before serving (wait), while serving "
    "(background: the API answers at once, today's dates 404 until stored), "
    "or not.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    help="Processes for generation, that fill and the scheduler's (default: "
    "DAILYDEAL_JOBS, else 1).",
)
@click.option(
    "--scheduler/--no-scheduler",
    default=True,
    show_default=True,
    help="Keep the stock filled from this process (one machine set-up).",
)
def serve(
    db_path: str | None,
    host: str,
    port: int,
    workers: int,
    connections: int,
    fill: str,
    jobs: int | None,
    scheduler: bool,
) -> None:
    """Serve the JSON API (gunicorn, gevent workers) with the scheduler in the same process.

    First makes sure the deals of every date that is "today" somewhere on Earth (from the
    date at UTC-12 to the date at UTC+14) are stored (on a first run this takes minutes;
    see --fill background), then starts the scheduler that keeps the stock filled, and
    serves the daily page on http://HOST:PORT/ and the API under /api/v1. The scheduler's
    first run comes at once, in the background: it stores (and commits to) the next
    DAILYDEAL_DAYS_AHEAD days while the server answers (with --fill background, today's
    dates first). The summary of today's dates is printed once; each scheduler run then
    logs one line of what it added. For a real deployment run
    `gunicorn -c deploy/gunicorn.conf.py` and ONE `dailydeal schedule` instead (see
    deploy/README.md).
    """
    from dailydeal.config import Settings
    from dailydeal.daily.scheduler import JOB_ID, create_scheduler
    from dailydeal.web import create_app
    from dailydeal.web.server import serve as run_server

    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO,
            stream=sys.stderr,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    host = listen_host(host)
    check_port(host, port)
    settings = Settings.from_env(db_path)
    if jobs is not None:
        settings = dataclasses.replace(settings, jobs=jobs)
    config: dict[str, Any] = dataclasses.asdict(settings)  # create_app's settings
    create_app(config)  # fail here, once and before filling, on a bad setting
    older = set(multiprocessing.active_children())
    filler = None
    if fill == "wait":
        fill_today(settings, settings.jobs, sys.stderr.isatty())
    elif fill == "background" and not scheduler:
        filler = start_background_fill(settings, settings.jobs)
    sched = None
    if scheduler:
        from dailydeal.results import due

        sched = create_scheduler(settings, blocking=False,
                                 every_minute=[(due.JOB_ID, due.count_due)])
        sched.start()
        # Today's deals first (stored above, or by the first run), then the days ahead,
        # committed to before their day, while the server answers.
        first = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=FIRST_STOCK_DELAY)
        if fill == "wait":
            sched.modify_job(JOB_ID, next_run_time=first)
        elif fill == "background":
            sched.add_job(fill_today_then_stock, "date", run_date=first, args=[settings],
                          id=FIRST_RUN_ID, name="store today's deals, then the days ahead")
    click.echo(
        f"serving the daily page at http://{host_port(host, port)}/ (the API at /api/v1/; "
        "Ctrl-C to stop)",
        err=True,
    )
    try:
        with forked_workers_exit_here():
            run_server(
                lambda: create_app(config), host, port, workers=workers, connections=connections
            )
    finally:
        if sched is not None and sched.running:
            sched.shutdown(wait=False)
        if filler is not None and filler.is_alive():
            filler.terminate()
        exit_stopping_fills(older)
