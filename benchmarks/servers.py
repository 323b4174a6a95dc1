"""Real servers for the benchmarks (and the tests that need one running): a database that
already holds every deal the scheduler would generate now, and one of the shipped ways to
run the API started on a free loopback port.

- ``serve``: ``dailydeal serve`` (gunicorn from Python, the scheduler in its master);
- ``gunicorn``: ``gunicorn -c deploy/gunicorn.conf.py`` (the systemd unit's command);
- ``entrypoint``: ``deploy/docker-entrypoint.sh both``, the Docker image's command, run
  outside docker with the image's environment (the scheduler and gunicorn side by side).

The database is stocked up front so that the scheduler started by ``serve`` and the
entrypoint finds nothing to generate: a benchmark measures the server, not the solvers.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from dailydeal.config import DAILY_GAMES
from dailydeal.daily import clock
from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.rating import TIERS

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
KINDS = ("serve", "gunicorn", "entrypoint")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def redis_server(tmp: str) -> Iterator[str | None]:
    """A throwaway redis-server on a free loopback port: its URL, or None when the
    machine has no redis-server (apt-get install redis-server)."""
    exe = shutil.which("redis-server")
    if exe is None:
        yield None
        return
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", tmp],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:  # up once it takes a connection (a fixed wait was 0.5 s each time)
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def stock_db(path: Path, days_ahead: int = 7) -> Path:
    """Store every tier of every daily game from the earliest date that is today somewhere
    to ``days_ahead`` days past the latest (filler rows: seed = day number, no solution)."""
    now = dt.datetime.now(dt.UTC)
    first = clock.earliest_today(now) - dt.timedelta(days=1)
    last = clock.latest_published(now) + dt.timedelta(days=days_ahead + 1)
    db = open_db(path)
    day = first
    while day <= last:
        for game, variant in DAILY_GAMES:
            for i, tier in enumerate(TIERS):
                seed = day.toordinal() * 16 + i
                row = deal_row(day, game, variant, tier, seed, rating=10.0 + 25 * i,
                               solution=[], solver={"status": "filler"}, version="filler")
                insert_deal(db, row)
        day += dt.timedelta(days=1)
    db.close()
    return path


def command(
    kind: str, db: Path, port: int, args: Sequence[str] = ()
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of one way to run the API (``args``: gunicorn's
    own options, for the ``gunicorn`` kind)."""
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "DAILYDEAL_DB": str(db),
        "DAILYDEAL_SECRET": secrets.token_hex(32),
        "DAILYDEAL_BIND": f"127.0.0.1:{port}",
    }
    if kind == "serve":
        cmd = [str(BIN / "dailydeal"), "serve", "--db", str(db), "--port", str(port),
               "--fill", "no"]
    elif kind == "gunicorn":
        cmd = [str(BIN / "gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), *args]
    elif kind == "entrypoint":
        # the image's ENV (deploy/Dockerfile), but for the paths
        env["DAILYDEAL_FORWARDED_ALLOW_IPS"] = "*"
        cmd = ["sh", str(ROOT / "deploy" / "docker-entrypoint.sh"), "both"]
    else:
        raise ValueError(f"unknown server kind {kind!r}; kinds: {', '.join(KINDS)}")
    return cmd, env


def wait_until_up(base: str, proc: subprocess.Popen[bytes], log: Path, limit: float) -> None:
    deadline = time.monotonic() + limit
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/games", timeout=5):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.05)  # a poll: each start waited 0.1 s more on average at 0.2


@contextmanager
def running(
    kind: str,
    workdir: Path,
    *,
    env: dict[str, str] | None = None,
    args: Sequence[str] = (),
    startup: float = 60,
) -> Iterator[tuple[str, int]]:
    """Start ``kind`` on ``workdir``/dailydeal.db (stocked here unless it exists; ``env``
    added to its environment, ``args`` to gunicorn's command line); yield (base URL, pid).
    On exit: SIGTERM (a normal stop); the exit status is then in ``last_status[kind]``."""
    db = workdir / "dailydeal.db"
    if not db.exists():
        stock_db(db)
    port = free_port()
    cmd, base_env = command(kind, db, port, args)
    env = {**base_env, **(env or {})}
    log_path = workdir / f"{kind}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, proc, log_path, startup)
            yield base, proc.pid
        finally:
            last_status[kind] = stop(proc)


last_status: dict[str, int | None] = {}


def stop(proc: subprocess.Popen[bytes], grace: float = 30) -> int | None:
    """SIGTERM (a normal stop), then SIGKILL after ``grace`` s; the exit status (None if
    it had to be killed)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None
