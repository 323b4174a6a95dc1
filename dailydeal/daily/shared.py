"""One commitment time per deal across the generators of a cluster (docs/fairness.md,
"Several generators, one time").

Nodes that generate their own SQLite files with the same secret store the same deals and the
same commitments, each at its own time. So that every node serves the same ``committed_at``
(and ``in_advance``), a generator with ``DAILYDEAL_REDIS_URL`` records the first time any
generator committed to a deal in that Redis, ``dailydeal:committed:{sha256}``, set if absent
(SET NX, never overwritten, never expiring: some 100 bytes a deal), and stores that time in
its row. The first generator's time wins; a node started later adopts it. The key is the
commitment itself, so only the same committed text (same id, seed, cards and nonce) shares
a time. Without Redis the SQLite file is the one store: a row is stored once (INSERT OR
IGNORE) with its own time, as before.

The web never reads Redis for this: the time is in each node's row, so a deal's answer stays
a function of its row (immutable, byte-identical on every node) even while Redis is down.
A generator that cannot reach Redis stores nothing (``StoreError``): a row with its own time
would be the disagreement this module prevents; the next run stores it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dailydeal.daily.store import StoreError

KEY = "dailydeal:committed:{}"
#: seconds: connect and read timeouts (a generator is not a request: it may wait a little)
TIMEOUT = 5.0


class CommitTimes:
    """The shared commitment times in the Redis at ``url`` (the redis client is an extra:
    ``pip install 'dailydeal[redis]'``, which ``Settings`` checks for a ``redis_url``)."""

    def __init__(self, url: str) -> None:
        import redis
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry

        self._errors: tuple[type[Exception], ...] = (redis.RedisError,)
        self._client = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT,
            retry=Retry(ExponentialBackoff(cap=2.0), 3),
        )

    def first(self, commitment: str, made: str) -> str:
        """The time of ``commitment`` every node stores: the one recorded first, else
        ``made`` (this generator's), recorded now."""
        key = KEY.format(commitment)
        try:
            if self._client.set(key, made, nx=True):
                return made
            old: Any = self._client.get(key)  # written once, never changed: no race after NX
        except self._errors as exc:
            raise StoreError(f"cannot record a commitment time in Redis: {exc}") from None
        return made if old is None else bytes(old).decode()

    def record(self, rows: Iterable[dict[str, Any]]) -> None:
        """Record, where none is, the time of rows already stored (``commitment``,
        ``committed_at``): rows this file got before its generator had Redis, so that a
        node started later adopts their time instead of its own."""
        pipe = self._client.pipeline(transaction=False)
        for row in rows:
            if row.get("commitment") and row.get("committed_at"):
                pipe.set(KEY.format(row["commitment"]), row["committed_at"], nx=True)
        try:
            pipe.execute()
        except self._errors as exc:
            raise StoreError(f"cannot record a commitment time in Redis: {exc}") from None

    def close(self) -> None:
        self._client.close()


def commit_times(url: str | None) -> CommitTimes | None:
    """The shared times of a generator's settings (``redis_url``), or None without Redis."""
    return None if url is None else CommitTimes(url)
