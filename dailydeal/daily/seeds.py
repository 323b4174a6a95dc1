"""Secret daily seeds: HMAC-SHA256(secret, message) -> candidate seed.

For one date, game and variant there is a single stream of candidate seeds, numbered by
``attempt`` = 0, 1, 2, ...  The generator rates the candidates in that order and gives each
tier the first winnable candidate whose rating falls in it, so a stored day depends only on
the secret, the date, the game, the variant and the rules/solver/rating versions: never on
the order in which days are generated or the number of processes.

The message is ASCII text, fields separated by ``|``::

    dailydeal-seed-v1|<date YYYY-MM-DD>|<game>|<variant>|<attempt in decimal>

for example ``dailydeal-seed-v1|2026-12-01|pyramid|relaxed|0``, with the game and the
variant in their canonical lower-case names (aliases resolved). The seed is the first
8 bytes of the HMAC-SHA256 digest read as a big-endian unsigned 64-bit integer.

Without the secret, nobody can compute a future day's candidates (HMAC is a PRF); with it,
anyone can recompute and check every stored day.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Iterator

from dailydeal.games import get_game

MESSAGE_PREFIX = "dailydeal-seed-v1"


def seed_message(date: dt.date, game: str, variant: str | None, attempt: int) -> bytes:
    """The canonical HMAC message of one candidate (see the module docstring)."""
    if attempt < 0:
        raise ValueError("attempt must be >= 0")
    cls = get_game(game, variant)
    return f"{MESSAGE_PREFIX}|{date.isoformat()}|{cls.name}|{cls.variant}|{attempt}".encode(
        "ascii"
    )


def candidate_seed(
    secret: bytes, date: dt.date, game: str, variant: str | None, attempt: int
) -> int:
    """The ``attempt``-th candidate seed of a date, game and variant: an unsigned 64-bit int."""
    if not secret:
        raise ValueError("the secret is empty")
    digest = hmac.new(secret, seed_message(date, game, variant, attempt), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big")


def candidate_seeds(
    secret: bytes, date: dt.date, game: str, variant: str | None, start: int = 0
) -> Iterator[tuple[int, int]]:
    """(attempt, seed) pairs of the candidate stream, from ``start`` on, without end."""
    attempt = start
    while True:
        yield attempt, candidate_seed(secret, date, game, variant, attempt)
        attempt += 1
