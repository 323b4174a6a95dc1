"""A generator killed with SIGKILL mid-run: the next run completes, nothing lost or doubled."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dailydeal.config import Settings
from dailydeal.daily import store
from dailydeal.daily.generate import fill_days

DAY = dt.date(2030, 3, 1)
DAYS = 4
ENV = {
    "DAILYDEAL_SECRET": "crash-secret-2e6a0c4f8b1d5e9a3c7f0b2d4e6a8c1f",
    "DAILYDEAL_GAMES": "accordion",
    "DAILYDEAL_MAX_NODES": "5000",
    "DAILYDEAL_TIME_LIMIT": "300",
    "DAILYDEAL_MAX_ATTEMPTS": "6",
}


def generate_cmd(db: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-c", "from dailydeal.cli import main; main()", "generate",
        "--db", str(db), "--from", DAY.isoformat(), "--days", str(DAYS), *extra,
    ]


def children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            return int(conn.execute("SELECT count(*) FROM deals").fetchone()[0])
    except sqlite3.OperationalError:  # not created or not migrated yet
        return 0


def content(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute(
            "SELECT id, date, game, variant, tier, seed, rating, deal, solution, features,"
            " version, attempt FROM deals ORDER BY id"
        ).fetchall()


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    """The same days generated in one uninterrupted run."""
    settings = Settings(db_path=tmp_path_factory.mktemp("ref") / "d.db",
                        secret=ENV["DAILYDEAL_SECRET"], solve_max_nodes=5000,
                        solve_time_limit=300.0, max_attempts=6,
                        games=(("accordion", "standard"),))
    fill_days(settings, DAY, DAYS)
    rows = content(settings.db_path)
    assert len(rows) >= 3, "too few deals for the test to mean anything"
    return rows


@pytest.mark.parametrize("jobs", [1, 2])
def test_kill_9_then_resume(
    tmp_path: Path, expected: list[tuple[Any, ...]], jobs: int
) -> None:
    env = {**os.environ, **ENV}
    db = tmp_path / "run" / "d.db"
    proc = subprocess.Popen(generate_cmd(db, "--jobs", str(jobs)), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while count(db) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the generator finished before it could be killed"
        workers = children(proc.pid) if jobs > 1 else []
        assert len(workers) >= jobs or jobs == 1, workers
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    if jobs > 1:
        # the orphaned worker processes notice and stop (within a candidate or two)
        deadline = time.monotonic() + 60
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [p for p in workers if alive(p)], "orphaned workers still running"
    assert proc.returncode == -signal.SIGKILL
    partial = count(db)
    assert 2 <= partial < len(expected)

    conn = store.open_db(db)  # recovers the WAL left by the killed process
    assert store.integrity_check(conn) == "ok"
    conn.close()

    done = subprocess.run(generate_cmd(db), env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{partial} already stored" in done.stdout
    got = content(db)
    assert got == expected  # nothing lost, nothing doubled, the same deals
    assert len({r[0] for r in got}) == len(got)
    conn = store.open_db(db)
    assert store.integrity_check(conn) == "ok"
