"""Players' results: what counts, one interface, two stores side by side.

Only the web takes results (``web/plays.py``, ``web/results.py``), so they are a layer of
their own above ``daily/`` (which makes and keeps the deals) and below ``web/``: generation
never sees them. The rules are here, once, for both stores:

- ``judge``: the verifier's result of a move list on a stored deal (never the client's);
- ``client_hash``: a client is stored only as HMAC-SHA256 over the deal id and its id,
  keyed with the store's random salt (per deal: two days of one player cannot be linked);
- ``stats_dict``: the statistics answer from a deal's aggregates.

A result is accepted at once and counted when the play's rules allow (``Counting``): no
sooner than its play's least time, and one at a time per network and deal, evenly spaced;
until then it is stored as pending (``counted`` 0, ``counts_at``) and counted by
``count_due``, whoever calls it first (the web on its next result or statistics request,
or the scheduler's minute job, ``results.due``). ``marks``: the positions of a deal a
network asked hints on without a play token, added to the hints of its results on them.

``ResultsStore`` is what a store does; ``sqlite_store.SqliteStore`` (one machine, the
default: the deals' own SQLite file) and ``redis_store.RedisStore`` (several API nodes that
must count the same, ``DAILYDEAL_REDIS_URL``) are its two implementations. Play tokens are
``plays``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from dailydeal.games import new_game
from dailydeal.verify import MoveError, replay

CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{16,128}$")  # a UUID or 128 random bits, encoded
CLIENT_PREFIX = "dailydeal-client-v1"
MAX_SECONDS = 7 * 86400  # a play time longer than a week is not a play time

class PlayUsed(Exception):
    """The play's result was counted already (a play token is good for one result)."""


class QueueFull(Exception):
    """The network's turn for this result would come after the deal's results close."""

    def __init__(self, at: float) -> None:
        super().__init__(at)
        self.at = at


@dataclass(frozen=True)
class Counting:
    """When a result may count: no sooner than ``earliest`` (Unix seconds: the play's issue
    plus its least time), and ``interval`` seconds after the last result of the same
    ``network`` (the play's network tag) on the deal; never later than ``closes``."""

    network: str
    earliest: float
    interval: float
    now: float
    closes: float


def position_hash(moves: list[str]) -> str:
    """The name of the position after ``moves`` in ``marks`` (the moves as sent, in order)."""
    return hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16]


def line_hashes(moves: list[str]) -> list[str]:
    """``position_hash`` of every position of a line, its start and its end included."""
    out, h = [], hashlib.sha256()
    out.append(hashlib.sha256(b"").hexdigest()[:16])
    for i, move in enumerate(moves):
        h.update((" " if i else "").encode() + move.encode())
        out.append(h.copy().hexdigest()[:16])
    return out


@dataclass(frozen=True)
class Result:
    won: bool
    state: str
    moves: int  # moves played, Accordion deals included (comparable to solution_length)
    score: int
    hints: int
    seconds: int | None
    reported_seconds: int | None = None  # what the client says; ``seconds`` is the server's

    def to_json(self) -> dict[str, Any]:
        return {
            "won": self.won,
            "state": self.state,
            "moves": self.moves,
            "score": self.score,
            "hints": self.hints,
            "seconds": self.seconds,
            "reported_seconds": self.reported_seconds,
        }


def client_hash(salt_: bytes, deal_id: str, client: str) -> str:
    message = f"{CLIENT_PREFIX}|{deal_id}|{client}".encode()
    return hmac.new(salt_, message, hashlib.sha256).hexdigest()


def judge(
    deal: dict[str, Any], moves: list[str], hints: int, seconds: int | None,
    reported_seconds: int | None = None,
) -> tuple[Result, MoveError | None]:
    """The verifier's result of ``moves`` on a stored deal row, and its first illegal move
    (None when every move was legal: only then may the result be stored)."""
    verdict = replay(new_game(deal["game"], deal["seed"], deal["variant"]), moves)
    assert verdict.game is not None
    result = Result(
        verdict.won,
        verdict.state,
        len(verdict.game.move_stack),
        verdict.score,
        hints,
        seconds,
        reported_seconds,
    )
    return result, verdict.error


def row_result(row: dict[str, Any]) -> Result:
    return Result(bool(row["won"]), row["state"], row["moves"], row["score"], row["hints"],
                  row["seconds"], row.get("reported_seconds"))


def stats_dict(plays: int, wins: int, wins_without_hints: int,
               histogram: dict[int, int], pending: int = 0) -> dict[str, Any]:
    """The statistics answer from aggregates (the one formula, SQLite and Redis alike);
    ``pending``: results accepted, not counted yet (they are not in the numbers)."""
    counts = {int(m): int(c) for m, c in histogram.items() if int(c) > 0}
    return {
        "pending": max(0, int(pending)),
        "plays": int(plays),
        "wins": int(wins),
        "win_rate": round(wins / plays, 4) if plays else None,
        "wins_without_hints": int(wins_without_hints),
        "best": min(counts) if counts else None,
        "winning_moves": [{"moves": m, "count": counts[m]} for m in sorted(counts)],
    }


def stats_with(stats: dict[str, Any], result: Result) -> dict[str, Any]:
    """``stats`` (a ``stats_dict``) with one pending result counted in: what the player who
    posted it sees at once (its own view; everybody's when it counts)."""
    histogram = {b["moves"]: b["count"] for b in stats["winning_moves"]}
    if result.won:
        histogram[result.moves] = histogram.get(result.moves, 0) + 1
    return stats_dict(
        stats["plays"] + 1, stats["wins"] + result.won,
        stats["wins_without_hints"] + (result.won and result.hints == 0), histogram,
        stats["pending"] - 1,
    )


def stats_of(results: list[tuple[bool, int, int]]) -> dict[str, Any]:
    """Statistics of (won, moves, hints) triples: what the aggregates of these rows are."""
    winning = [moves for won, moves, _ in results if won]
    clean = sum(1 for won, _, hints in results if won and hints == 0)
    return stats_dict(len(results), len(winning), clean, dict(Counter(winning)))


class Unavailable(Exception):
    """The store did not answer: the caller answers 503, nothing is half stored."""


class ResultsStore(Protocol):
    """Where results, plays and a deal's aggregates are kept (SQLite or Redis)."""

    def play_key(self) -> bytes:
        """The key that signs play tokens, made once per store."""
        ...

    def stored(self, deal_id: str, client: str) -> dict[str, Any] | None:
        """This client's stored row of the deal (the SQLite ``results`` shape), if any."""
        ...

    def play_state(self, deal_id: str, play_id: str) -> tuple[int, bool]:
        """(hints noted, result counted) of a play; (0, False) for one never seen."""
        ...

    def note_hint(self, play_id: str, deal_id: str, expire_at: dt.datetime) -> bool:
        """Count a hint of a play (not once its result counted): True when counted.
        ``expire_at``: when the deal's plays close (a store that expires keys uses it)."""
        ...

    def mark(self, deal_id: str, network: str, position: str, expire_at: dt.datetime) -> None:
        """Note that ``network`` (a tag) asked a hint on ``position`` without a token."""
        ...

    def marked(self, deal_id: str, networks: list[str], positions: list[str]) -> int:
        """How many of ``positions`` one of ``networks`` asked hints on without a token."""
        ...

    def record(
        self, deal_id: str, client: str, result: Result, moves: list[str], now: dt.datetime,
        play_id: str | None, drop_at: dt.datetime, closes_at: dt.datetime,
        counting: Counting | None = None,
    ) -> tuple[bool, dict[str, Any]]:
        """Store a result unless this client has one for this deal: (inserted, stored row);
        with ``play_id`` the play is marked used and its noted hints are added to
        ``result.hints``, all in one transaction; ``PlayUsed`` if it counted already.
        ``counting``: when it may count (counted now if due, else pending: the row's
        ``counted`` 0 and ``counts_at``); ``QueueFull`` if that is after ``closes``.
        ``drop_at``: when the move lists may go (retention); ``closes_at``: the plays."""
        ...

    def count_due(self, now: dt.datetime) -> int:
        """Count the pending results whose time has come (all deals): how many."""
        ...

    def deal_stats(self, deal_id: str) -> dict[str, Any]:
        """Plays, wins, win rate and the winning move counts of a deal (``stats_dict``)."""
        ...

    def rebuild(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Write a deal's aggregates again from its stored rows, each replayed: the
        statistics and ``differ`` (rows whose verdict changed)."""
        ...

    def save_solve(self, row: dict[str, Any]) -> dict[str, Any]:
        """Keep a solve (``solves.Solve.row()``) unless its id is kept already: the row
        that stands (the first one: its time and signature never change)."""
        ...

    def solve(self, id_: str) -> dict[str, Any] | None:
        """A kept solve's row, or None."""
        ...


__all__ = [
    "CLIENT_ID",
    "MAX_SECONDS",
    "Counting",
    "PlayUsed",
    "QueueFull",
    "Result",
    "ResultsStore",
    "Unavailable",
    "client_hash",
    "judge",
    "line_hashes",
    "position_hash",
    "row_result",
    "stats_dict",
    "stats_with",
    "stats_of",
]
