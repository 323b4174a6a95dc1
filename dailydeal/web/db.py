"""The web layer's access to the store: one SQLite connection per thread and file.

The API mostly reads (results are its one write). ``create_app`` opens the file once with
``open_db`` (which creates and migrates it); requests then reuse a per-thread connection,
so they do not pay for a connect and a migration check each. Under the gevent workers
(web/worker.py) ``threading.local`` is per greenlet, that is per client connection: its
requests share one SQLite connection, closed with the greenlet. A database error closes
the connection (``discard``, called by problems.py): SQLite opens a file it cannot write
read-only and keeps it so, and a connection is otherwise never reopened, so the next
request starts afresh.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import sqlite_utils

from dailydeal.daily.store import open_db
from dailydeal.web.extensions import settings

_local = threading.local()


def prepare(path: str | Path, attempts: int = 5) -> None:
    """Create and migrate the database file (once, at app creation). Several gunicorn
    workers may start on a fresh file at once: a loser of that race retries."""
    for attempt in range(attempts):
        try:
            open_db(path).close()
            return
        except sqlite3.DatabaseError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.1 * (attempt + 1))


def get_db() -> sqlite_utils.Database:
    """The connection of this thread to the app's database."""
    path = str(settings().db_path)
    cache: dict[str, sqlite_utils.Database] = getattr(_local, "dbs", None) or {}
    _local.dbs = cache
    db = cache.get(path)
    if db is None:
        conn = sqlite3.connect(path, timeout=30, check_same_thread=True)
        conn.execute("PRAGMA busy_timeout = 30000")
        db = sqlite_utils.Database(conn)
        cache[path] = db
    return db


def forget(path: str | Path) -> None:
    """Close this thread's connection to ``path`` (tests delete their temporary files)."""
    cache: dict[str, sqlite_utils.Database] = getattr(_local, "dbs", None) or {}
    db = cache.pop(str(path), None)
    if db is not None:
        db.close()


def discard() -> None:
    """Close every connection of this thread (after a database error): the next
    ``get_db`` opens a fresh one."""
    cache: dict[str, sqlite_utils.Database] = getattr(_local, "dbs", None) or {}
    while cache:
        _, db = cache.popitem()
        try:
            db.close()
        except sqlite3.Error:
            pass  # already unusable: dropping it is the point
