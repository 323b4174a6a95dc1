"""The scheduler's half of counting results: every minute, count the pending results whose
turn has come (``dailydeal.results``, ``Counting``), so that a result is counted at its
time even when no request comes (the web counts lazily too, at each result and statistics
request). Each store counts a pending result once, whoever looks first: the SQLite file's
transaction, or Redis's one script, shared by every node and scheduler.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3

from dailydeal.config import Settings
from dailydeal.daily import store

log = logging.getLogger(__name__)

JOB_ID = "count-results"
EVERY = 60  # seconds between two runs of the job


def count_due(settings: Settings, now: dt.datetime | None = None) -> int:
    """Count the due pending results of every deal (Redis with ``redis_url``, else the
    SQLite file): how many. A store that does not answer logs one line: the next run, or
    the next request, counts them."""
    from dailydeal.results import Unavailable, sqlite_store

    current = now or dt.datetime.now(dt.UTC)
    try:
        if settings.redis_url:
            from dailydeal.results import redis_store

            shared = redis_store.RedisStore(redis_store.connect(settings.redis_url))
            n = shared.count_due(current)
        else:
            db = store.open_db(settings.db_path)
            try:
                n = sqlite_store.SqliteStore(db).count_due(current)
            finally:
                db.close()
    except (Unavailable, OSError, sqlite3.Error) as exc:
        log.warning("pending results not counted this minute: %s", exc)
        return 0
    if n:
        log.info("counted %d pending results", n)
    return n


__all__ = ["EVERY", "JOB_ID", "count_due"]
