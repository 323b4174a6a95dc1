"""Verified results in Redis, for several API nodes that must count the same.

The same rules as ``dailydeal.daily.results`` (SQLite, the default for one machine), the
same row shape and the same statistics formula (``stats_of``); only the storage differs:

- ``dailydeal:results:salt``: the random salt of ``client_hash``, created once by whichever
  node needs it first (SET NX), so every node hashes a client the same way;
- ``dailydeal:results:{deal id}``: a hash, field = the salted client hash, value = the
  stored row as JSON. HSETNX makes "once per client and deal" one atomic step across every
  node: a post through node A and its retry through node B count once.

Statistics are computed from the hash (HVALS) each time, as SQLite's are from the rows:
never counters, so they can be rebuilt and checked. Redis must persist (appendonly or RDB
snapshots) if results are to survive its restart; see deploy/README.md.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from typing import Any

import redis

from dailydeal.daily.results import Result, client_hash, stats_of

PREFIX = "dailydeal:results"
SALT_KEY = f"{PREFIX}:salt"


class Unavailable(Exception):
    """Redis did not answer: the caller answers 503, nothing is half stored."""


def connect(url: str) -> redis.Redis:
    """A client (with its own connection pool) of the Redis at ``url``; no I/O yet."""
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2)


def _key(deal_id: str) -> str:
    return f"{PREFIX}:{deal_id}"


def salt(r: redis.Redis) -> bytes:
    """The shared salt, created by the first node that needs one (every node reads it)."""
    try:
        r.set(SALT_KEY, secrets.token_hex(32), nx=True)
        value = r.get(SALT_KEY)
    except redis.RedisError as exc:
        raise Unavailable(type(exc).__name__) from None
    assert value is not None  # set NX above; the key is never deleted
    return bytes.fromhex(value.decode() if isinstance(value, bytes) else str(value))


def record(
    r: redis.Redis,
    deal_id: str,
    client: str,
    result: Result,
    moves: list[str],
    now: dt.datetime,
) -> tuple[bool, dict[str, Any]]:
    """Store a result unless this client has one for this deal: (inserted, stored row),
    the row in the shape of the SQLite table ``results``."""
    key = client_hash(salt(r), deal_id, client)
    row = {
        "deal_id": deal_id, "client": key, "won": int(result.won), "state": result.state,
        "moves": result.moves, "score": result.score, "hints": result.hints,
        "seconds": result.seconds, "move_list": json.dumps(moves),
        "created_at": now.astimezone(dt.UTC).isoformat(timespec="seconds"),
    }
    try:
        inserted = bool(r.hsetnx(_key(deal_id), key, json.dumps(row)))
        stored: Any = None if inserted else r.hget(_key(deal_id), key)
    except redis.RedisError as exc:
        raise Unavailable(type(exc).__name__) from None
    if not inserted:
        assert stored is not None  # fields are never deleted
        row = json.loads(stored)
    return inserted, row


def deal_stats(r: redis.Redis, deal_id: str) -> dict[str, Any]:
    """Plays, wins, win rate and the winning move counts of a deal, from its results."""
    try:
        values: Any = r.hvals(_key(deal_id))  # a list (the client is synchronous)
    except redis.RedisError as exc:
        raise Unavailable(type(exc).__name__) from None
    rows = [json.loads(v) for v in values]
    return stats_of([(bool(row["won"]), row["moves"], row["hints"]) for row in rows])


__all__ = ["Unavailable", "connect", "deal_stats", "record", "salt"]
