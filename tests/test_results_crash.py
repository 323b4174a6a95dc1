"""A process counting results killed with SIGKILL mid-write: the file is sound, and every
result is counted in the aggregates exactly when its row and its spent play are there
(one transaction each: all or nothing)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from dailydeal import results
from dailydeal.daily import store
from dailydeal.results import sqlite_store

WRITER = """
import datetime as dt, sys
from dailydeal import results
from dailydeal.daily import store
from dailydeal.results import sqlite_store
db = store.open_db(sys.argv[1])
deal = store.get_deal(db, sys.argv[2])
moves = sys.argv[3].split()
now = dt.datetime.now(dt.UTC)
i = 0
while True:
    cut = moves[: 1 + i % len(moves)]
    result, _ = results.judge(deal, cut, 0, 60)
    play = f"play-{i:012d}"
    for _ in range(i % 3):
        sqlite_store.note_hint(db, play, deal["id"])
    sqlite_store.record(db, deal["id"], f"crash-client-{i:08d}", result, cut, now, play)
    i += 1
"""


def count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            return int(conn.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_kill_9_while_counting_results_loses_nothing_counted(
    db_path: Path, days: Any, solutions: dict[str, list[str]]
) -> None:
    id_ = f"{days['today']}-gaps-easy"
    moves = solutions["gaps"][:12]
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db_path), id_, " ".join(moves)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while count(db_path) < 40 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    db = store.open_db(db_path)  # recovers the WAL left by the killed process
    assert store.integrity_check(db) == "ok"
    rows = list(db.query("SELECT won, moves, hints FROM results WHERE deal_id = ?", [id_]))
    assert len(rows) >= 40
    kept = sqlite_store.deal_stats(db, id_)
    assert kept == results.stats_of([(bool(r["won"]), r["moves"], r["hints"]) for r in rows])
    used = db.execute("SELECT count(*) FROM plays WHERE used = 1").fetchone()[0]
    assert used == len(rows)  # a spent play for every row, and no row without one
    # the hints noted before each result are the ones stored with it
    assert sorted({r["hints"] for r in rows}) == [0, 1, 2]
    deal = store.get_deal(db, id_)
    assert deal is not None
    again = sqlite_store.rebuild(db, deal)
    assert again.pop("differ") == 0 and again == kept
    db.close()
