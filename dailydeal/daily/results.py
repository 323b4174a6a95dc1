"""Verified results of players and the statistics of a deal, computed from them.

A result is stored once per client and deal (primary key), only after the verifier has
replayed its moves; its ``won``, ``state``, ``moves`` and ``score`` are the verifier's, never
the client's. ``hints`` and ``seconds`` are what the client reports. Privacy: no address and
no client id is stored, only ``client_hash()``: HMAC-SHA256 over the deal id and the client
id, keyed with a random salt stored in the database (table ``salts``). It is per deal, so
the rows of one player on two days cannot be linked.

Statistics are never counters: ``deal_stats`` computes them from the rows each time, and
``reverify`` replays every stored move list again, so they can always be rebuilt and
checked.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from dailydeal.games import new_game
from dailydeal.verify import MoveError, replay

CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{16,128}$")  # a UUID or 128 random bits, encoded
CLIENT_PREFIX = "dailydeal-client-v1"
MAX_SECONDS = 7 * 86400  # a play time longer than a week is not a play time


@dataclass(frozen=True)
class Result:
    won: bool
    state: str
    moves: int  # moves played, Accordion deals included (comparable to solution_length)
    score: int
    hints: int
    seconds: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "won": self.won,
            "state": self.state,
            "moves": self.moves,
            "score": self.score,
            "hints": self.hints,
            "seconds": self.seconds,
        }


def salt(db: sqlite_utils.Database) -> bytes:
    row = db.execute("SELECT value FROM salts WHERE name = 'results'").fetchone()
    if row is None:
        raise RuntimeError("the results salt is missing (migration m004_results)")
    return bytes.fromhex(row[0])


def client_hash(salt_: bytes, deal_id: str, client: str) -> str:
    message = f"{CLIENT_PREFIX}|{deal_id}|{client}".encode()
    return hmac.new(salt_, message, hashlib.sha256).hexdigest()


def judge(
    deal: dict[str, Any], moves: list[str], hints: int, seconds: int | None
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
    )
    return result, verdict.error


def record(
    db: sqlite_utils.Database,
    deal_id: str,
    client: str,
    result: Result,
    moves: list[str],
    now: dt.datetime,
) -> tuple[bool, dict[str, Any]]:
    """Store a result unless this client has one for this deal: (inserted, stored row)."""
    key = client_hash(salt(db), deal_id, client)
    try:
        with db.conn:
            db.execute(
                "INSERT INTO results (deal_id, client, won, state, moves, score, hints,"
                " seconds, move_list, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [deal_id, key, int(result.won), result.state, result.moves, result.score,
                 result.hints, result.seconds, json.dumps(moves),
                 now.astimezone(dt.UTC).isoformat(timespec="seconds")],
            )
        inserted = True
    except sqlite3.IntegrityError:  # the primary key: this client counted already
        inserted = False
    row = db.execute(
        "SELECT * FROM results WHERE deal_id = ? AND client = ?", [deal_id, key]
    ).fetchone()
    cols = [d[0] for d in db.execute("SELECT * FROM results LIMIT 0").description]
    return inserted, dict(zip(cols, row, strict=True))


def row_result(row: dict[str, Any]) -> Result:
    return Result(bool(row["won"]), row["state"], row["moves"], row["score"], row["hints"],
                  row["seconds"])


def deal_stats(db: sqlite_utils.Database, deal_id: str) -> dict[str, Any]:
    """Plays, wins, win rate and the winning move counts of a deal, from its results."""
    rows = list(
        db.query("SELECT won, moves, hints FROM results WHERE deal_id = ?", [deal_id])
    )
    return stats_of([(bool(r["won"]), r["moves"], r["hints"]) for r in rows])


def stats_of(results: list[tuple[bool, int, int]]) -> dict[str, Any]:
    """Statistics of (won, moves, hints) triples (the one formula, used on stored rows)."""
    plays = len(results)
    winning = [moves for won, moves, _ in results if won]
    histogram = Counter(winning)
    return {
        "plays": plays,
        "wins": len(winning),
        "win_rate": round(len(winning) / plays, 4) if plays else None,
        "wins_without_hints": sum(1 for won, _, hints in results if won and hints == 0),
        "best": min(winning) if winning else None,
        "winning_moves": [{"moves": m, "count": histogram[m]} for m in sorted(histogram)],
    }


def reverify(db: sqlite_utils.Database, deal: dict[str, Any]) -> dict[str, Any]:
    """The statistics of a deal rebuilt by replaying every stored move list again, and the
    number of stored rows whose verdict differs (0 unless the rules or the data changed)."""
    triples = []
    differ = 0
    for row in db.query("SELECT * FROM results WHERE deal_id = ?", [deal["id"]]):
        stored = row_result(row)
        again, error = judge(deal, json.loads(row["move_list"]), stored.hints, stored.seconds)
        differ += again != stored or error is not None
        triples.append((again.won, again.moves, again.hints))
    return {**stats_of(triples), "differ": differ}


__all__ = [
    "CLIENT_ID",
    "MAX_SECONDS",
    "Result",
    "client_hash",
    "deal_stats",
    "judge",
    "record",
    "reverify",
    "stats_of",
]
