"""Results in SQLite (one machine, the default): the deals' own file keeps them.

A result is stored once per client and deal (primary key), only after the verifier has
replayed its moves; its ``won``, ``state``, ``moves`` and ``score`` are the verifier's, never
the client's. When it comes with a play (``dailydeal.results.plays``), ``hints`` is the count
the server kept for that play and ``seconds`` the time the server measured from the play's
start; the client's own figure is kept apart as ``reported_seconds``. Privacy: no address
and no client id is stored, only ``client_hash()``: HMAC-SHA256 over the deal id and the
client id, keyed with a random salt stored in the database (table ``salts``). It is per
deal, so the rows of one player on two days cannot be linked.

Statistics are aggregates (``deal_stats``, ``deal_winning_moves``) updated in the same
transaction that stores a result, so reading them costs a row whatever the number of
plays; ``rebuild`` replays every stored move list and writes them again from the rows, and
``prune`` drops the move lists of deals closed longer than the retention, keeping their
final numbers.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

import sqlite_utils

from dailydeal.results import (
    Counting,
    PlayUsed,
    QueueFull,
    Result,
    client_hash,
    judge,
    row_result,
    stats_dict,
    stats_of,
)

BATCH = 500  # pending results counted in one transaction (or one Redis script)
WRITE_TIMEOUT_MS = 1500  # a locked database: give up (503) rather than hold the request


def salt(db: sqlite_utils.Database) -> bytes:
    return _salt(db, "results")


def play_key(db: sqlite_utils.Database) -> bytes:
    """The key that signs play tokens (made by migration m005)."""
    return _salt(db, "plays")


def _salt(db: sqlite_utils.Database, name: str) -> bytes:
    row = db.execute("SELECT value FROM salts WHERE name = ?", [name]).fetchone()
    if row is None:
        raise RuntimeError(f"the {name} salt is missing (migrations m004, m005)")
    return bytes.fromhex(row[0])


def _row(db: sqlite_utils.Database, deal_id: str, key: str) -> dict[str, Any] | None:
    cur = db.execute("SELECT * FROM results WHERE deal_id = ? AND client = ?", [deal_id, key])
    row = cur.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cur.description], row, strict=True))


def stored(db: sqlite_utils.Database, deal_id: str, client: str) -> dict[str, Any] | None:
    """This client's stored result of the deal, if any."""
    return _row(db, deal_id, client_hash(salt(db), deal_id, client))


def play_state(db: sqlite_utils.Database, play_id: str) -> tuple[int, bool]:
    """(hints noted, result counted) of a play; (0, False) for a play the store never saw."""
    row = db.execute("SELECT hints, used FROM plays WHERE id = ?", [play_id]).fetchone()
    return (0, False) if row is None else (int(row[0]), bool(row[1]))


def note_hint(db: sqlite_utils.Database, play_id: str, deal_id: str) -> bool:
    """Count a hint of a play (not once its result counted): True when counted."""
    with _writing(db):
        cur = db.execute(
            "INSERT INTO plays (id, deal_id, hints) VALUES (?, ?, 1) ON CONFLICT (id) DO"
            " UPDATE SET hints = hints + 1 WHERE used = 0",
            [play_id, deal_id],
        )
    return cur.rowcount == 1


def record(
    db: sqlite_utils.Database,
    deal_id: str,
    client: str,
    result: Result,
    moves: list[str],
    now: dt.datetime,
    play_id: str | None = None,
    counting: Counting | None = None,
) -> tuple[bool, dict[str, Any]]:
    """Store a result unless this client has one for this deal: (inserted, stored row).

    With ``play_id`` the play is marked used and its noted hints are added to
    ``result.hints`` (the hints the caller found asked without its token), in the one
    transaction that inserts the row and, when it counts now, updates the deal's
    aggregates (so a kill -9 leaves all or nothing); a play already used raises
    ``PlayUsed``. ``counting``: its turn (``take_turn``); not due yet, the row is stored
    pending (``counted`` 0) and ``count_due`` counts it when its ``counts_at`` comes."""
    key = client_hash(salt(db), deal_id, client)
    with _writing(db, immediate=True):
        old = _row(db, deal_id, key)
        if old is not None:
            return False, old
        hints = result.hints
        if play_id is not None:
            noted, used = play_state(db, play_id)
            if used:
                raise PlayUsed(play_id)
            hints += noted
        at = int(now.timestamp())
        if counting is not None:
            turn = take_turn(db, deal_id, counting)
            if turn >= now.timestamp() + 1:  # a second is the clock's grain
                at = math.ceil(turn)
        counted = at <= now.timestamp()
        if play_id is not None:
            db.execute(
                "INSERT INTO plays (id, deal_id, hints, used) VALUES (?, ?, 0, 1)"
                " ON CONFLICT (id) DO UPDATE SET used = 1",
                [play_id, deal_id],
            )
        db.execute(
            "INSERT INTO results (deal_id, client, won, state, moves, score, hints, seconds,"
            " reported_seconds, move_list, created_at, counted, counts_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [deal_id, key, int(result.won), result.state, result.moves, result.score,
             hints, result.seconds, result.reported_seconds, json.dumps(moves),
             now.astimezone(dt.UTC).isoformat(timespec="seconds"), int(counted), at],
        )
        if counted:
            _count(db, deal_id, result.won, result.moves, hints)
        else:
            _count(db, deal_id, False, 0, 0, n=0, pending=1)
        row = _row(db, deal_id, key)
    assert row is not None
    return True, row


def take_turn(db: sqlite_utils.Database, deal_id: str, counting: Counting) -> float:
    """The time (Unix seconds) a result of ``counting.network`` counts on the deal: its
    earliest, and ``interval`` after the network's last turn, now at the soonest; the turn
    is taken (inside the caller's transaction). ``QueueFull`` past ``closes``."""
    last = db.execute(
        "SELECT last_at FROM count_slots WHERE deal_id = ? AND network = ?",
        [deal_id, counting.network],
    ).fetchone()
    due = counting.earliest
    if last is not None:
        due = max(due, float(last[0]) + counting.interval)
    turn = max(due, counting.now)
    if turn > counting.closes:
        raise QueueFull(turn)
    db.execute(
        "INSERT INTO count_slots (deal_id, network, last_at) VALUES (?, ?, ?)"
        " ON CONFLICT (deal_id, network) DO UPDATE SET last_at = excluded.last_at",
        [deal_id, counting.network, turn],
    )
    return turn


def count_due(db: sqlite_utils.Database, now: dt.datetime, most: int = BATCH) -> int:
    """Count the pending results whose ``counts_at`` has come (every deal, at most ``most``
    at a time): each moves into its deal's aggregates in one transaction. How many."""
    at = int(now.timestamp())
    probe = db.execute(
        "SELECT 1 FROM results WHERE counted = 0 AND counts_at <= ? LIMIT 1", [at]
    ).fetchone()
    if probe is None:  # the common case: a read, no write lock
        return 0
    n = 0
    with _writing(db, immediate=True):
        rows = db.execute(
            "SELECT deal_id, client, won, moves, hints FROM results"
            " WHERE counted = 0 AND counts_at <= ? ORDER BY counts_at LIMIT ?", [at, most]
        ).fetchall()
        for deal_id, client, won, moves, hints in rows:
            db.execute("UPDATE results SET counted = 1 WHERE deal_id = ? AND client = ?",
                       [deal_id, client])
            _count(db, deal_id, bool(won), moves, hints, pending=-1)
            n += 1
    return n


def mark(db: sqlite_utils.Database, deal_id: str, network: str, position: str) -> None:
    with _writing(db):
        db.execute("INSERT OR IGNORE INTO hint_marks (deal_id, network, position)"
                   " VALUES (?, ?, ?)", [deal_id, network, position])


def marked(db: sqlite_utils.Database, deal_id: str, networks: list[str],
           positions: list[str]) -> int:
    if not networks or not positions:
        return 0
    nets = ",".join("?" * len(networks))
    found: set[str] = set()
    for i in range(0, len(positions), 500):
        chunk = positions[i:i + 500]
        found.update(r[0] for r in db.execute(
            f"SELECT DISTINCT position FROM hint_marks WHERE deal_id = ? AND network IN ({nets})"
            f" AND position IN ({','.join('?' * len(chunk))})",
            [deal_id, *networks, *chunk]))
    return sum(1 for p in positions if p in found)


def _count(
    db: sqlite_utils.Database, deal_id: str, won: bool, moves: int, hints: int, n: int = 1,
    pending: int = 0,
) -> None:
    """Add ``n`` results to a deal's aggregates, and ``pending`` to its results waiting
    (inside the caller's transaction)."""
    win = n if won else 0
    db.execute(
        "INSERT INTO deal_stats (deal_id, plays, wins, wins_without_hints, pending)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (deal_id) DO UPDATE SET plays = plays + excluded.plays,"
        " wins = wins + excluded.wins,"
        " wins_without_hints = wins_without_hints + excluded.wins_without_hints,"
        " pending = pending + excluded.pending",
        [deal_id, n, win, win if hints == 0 else 0, pending],
    )
    if won and n:
        db.execute(
            "INSERT INTO deal_winning_moves (deal_id, moves, count) VALUES (?, ?, ?)"
            " ON CONFLICT (deal_id, moves) DO UPDATE SET count = count + excluded.count",
            [deal_id, moves, n],
        )


class _writing:
    """A write transaction with a short busy timeout (a locked file is a quick failure,
    answered 503, not a request held for 30 s); BEGIN IMMEDIATE takes the write lock first,
    so two workers cannot both find a play unused."""

    def __init__(self, db: sqlite_utils.Database, immediate: bool = False) -> None:
        self.db = db
        self.immediate = immediate

    def __enter__(self) -> None:
        conn = self.db.conn
        conn.execute(f"PRAGMA busy_timeout = {WRITE_TIMEOUT_MS}")
        conn.execute("BEGIN IMMEDIATE" if self.immediate else "BEGIN")

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        conn = self.db.conn
        try:
            if kind is None:
                conn.commit()
            else:
                conn.rollback()
        finally:
            conn.execute("PRAGMA busy_timeout = 30000")


def deal_stats(db: sqlite_utils.Database, deal_id: str) -> dict[str, Any]:
    """Plays, wins, win rate and the winning move counts of a deal: its aggregates (a row
    and one row per distinct winning move count), never its results."""
    row = db.execute(
        "SELECT plays, wins, wins_without_hints, pending FROM deal_stats WHERE deal_id = ?",
        [deal_id],
    ).fetchone()
    histogram = dict(db.execute(
        "SELECT moves, count FROM deal_winning_moves WHERE deal_id = ?", [deal_id]
    ).fetchall())
    plays, wins, clean, pending = row if row is not None else (0, 0, 0, 0)
    return stats_dict(plays, wins, clean, histogram, pending)


def reverify(db: sqlite_utils.Database, deal: dict[str, Any]) -> dict[str, Any]:
    """The statistics of a deal rebuilt by replaying every stored move list again, and the
    number of stored rows whose verdict differs (0 unless the rules or the data changed)."""
    triples = []
    differ = 0
    for row in db.query("SELECT * FROM results WHERE deal_id = ? AND counted = 1",
                        [deal["id"]]):
        before = row_result(row)
        again, error = judge(deal, json.loads(row["move_list"]), before.hints, before.seconds,
                             before.reported_seconds)
        differ += again != before or error is not None
        triples.append((again.won, again.moves, again.hints))
    return {**stats_of(triples), "differ": differ}


def rebuild(db: sqlite_utils.Database, deal: dict[str, Any]) -> dict[str, Any]:
    """Write a deal's aggregates again from its stored rows, each replayed (``reverify``);
    the statistics and ``differ``. A deal whose move lists were pruned keeps its final
    numbers (there is nothing left to replay): ValueError."""
    pruned = db.execute(
        "SELECT pruned_at FROM deal_stats WHERE deal_id = ?", [deal["id"]]
    ).fetchone()
    if pruned is not None and pruned[0] is not None:
        raise ValueError(f"the move lists of {deal['id']} were dropped at {pruned[0]}: "
                         "its statistics are final")
    with _writing(db, immediate=True):
        again = reverify(db, deal)
        db.execute("DELETE FROM deal_stats WHERE deal_id = ?", [deal["id"]])
        db.execute("DELETE FROM deal_winning_moves WHERE deal_id = ?", [deal["id"]])
        pending = db.execute("SELECT count(*) FROM results WHERE deal_id = ? AND counted = 0",
                             [deal["id"]]).fetchone()[0]
        if again["plays"] or pending:
            db.execute(
                "INSERT INTO deal_stats (deal_id, plays, wins, wins_without_hints, pending)"
                " VALUES (?, ?, ?, ?, ?)",
                [deal["id"], again["plays"], again["wins"], again["wins_without_hints"],
                 pending],
            )
        again["pending"] = pending
        for bucket in again["winning_moves"]:
            db.execute(
                "INSERT INTO deal_winning_moves (deal_id, moves, count) VALUES (?, ?, ?)",
                [deal["id"], bucket["moves"], bucket["count"]],
            )
    return again


def prune(
    db: sqlite_utils.Database, results_before: dt.date, plays_before: dt.date, now: dt.datetime
) -> tuple[int, int]:
    """Drop the result rows (move lists) of deals dated before ``results_before`` and the
    plays of deals dated before ``plays_before`` (their results are closed: a token of them
    can no longer count). The aggregates stay, marked final (``pruned_at``), in the same
    transaction. Deal ids begin with their date, so no join is needed. (rows, plays)."""
    cut, plays_cut = results_before.isoformat(), plays_before.isoformat()
    with _writing(db, immediate=True):
        db.execute(
            "UPDATE deal_stats SET pruned_at = ? WHERE pruned_at IS NULL AND deal_id IN"
            " (SELECT DISTINCT deal_id FROM results WHERE substr(deal_id, 1, 10) < ?)",
            [now.astimezone(dt.UTC).isoformat(timespec="seconds"), cut],
        )
        rows = db.execute(
            "DELETE FROM results WHERE substr(deal_id, 1, 10) < ?", [cut]
        ).rowcount
        plays = db.execute(
            "DELETE FROM plays WHERE substr(deal_id, 1, 10) < ?", [plays_cut]
        ).rowcount
        for table in ("count_slots", "hint_marks"):
            db.execute(f"DELETE FROM {table} WHERE substr(deal_id, 1, 10) < ?", [plays_cut])
    return rows, plays


SOLVE_COLUMNS = ("id", "deal", "date", "game", "variant", "seed", "moves", "par", "move_list",
                 "verified_at", "key", "signature", "signed")


def save_solve(db: sqlite_utils.Database, row: dict[str, Any]) -> dict[str, Any]:
    """Store a solve unless its id is stored already; the stored row (the first stands)."""
    with _writing(db):
        db.execute(
            f"INSERT OR IGNORE INTO solves ({', '.join(SOLVE_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(SOLVE_COLUMNS))})",
            [row[c] for c in SOLVE_COLUMNS],
        )
    found = solve(db, row["id"])
    assert found is not None
    return found


def solve(db: sqlite_utils.Database, id_: str) -> dict[str, Any] | None:
    cur = db.execute(f"SELECT {', '.join(SOLVE_COLUMNS)} FROM solves WHERE id = ?", [id_])
    found = cur.fetchone()
    return None if found is None else dict(zip(SOLVE_COLUMNS, found, strict=True))


class SqliteStore:
    """``ResultsStore`` over one SQLite connection (the request's, in the web)."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db

    def play_key(self) -> bytes:
        return play_key(self.db)

    def stored(self, deal_id: str, client: str) -> dict[str, Any] | None:
        return stored(self.db, deal_id, client)

    def play_state(self, deal_id: str, play_id: str) -> tuple[int, bool]:
        return play_state(self.db, play_id)  # play ids are unique across deals

    def note_hint(self, play_id: str, deal_id: str, expire_at: dt.datetime) -> bool:
        return note_hint(self.db, play_id, deal_id)  # spent plays go with ``prune``

    def mark(self, deal_id: str, network: str, position: str, expire_at: dt.datetime) -> None:
        mark(self.db, deal_id, network, position)  # dropped with ``prune``

    def marked(self, deal_id: str, networks: list[str], positions: list[str]) -> int:
        return marked(self.db, deal_id, networks, positions)

    def record(
        self, deal_id: str, client: str, result: Result, moves: list[str], now: dt.datetime,
        play_id: str | None, drop_at: dt.datetime, closes_at: dt.datetime,
        counting: Counting | None = None,
    ) -> tuple[bool, dict[str, Any]]:
        return record(self.db, deal_id, client, result, moves, now, play_id, counting)

    def count_due(self, now: dt.datetime) -> int:
        total = n = count_due(self.db, now)
        while n == BATCH:  # in batches: no transaction holds the file for long
            n = count_due(self.db, now)
            total += n
        return total

    def deal_stats(self, deal_id: str) -> dict[str, Any]:
        return deal_stats(self.db, deal_id)

    def rebuild(self, deal: dict[str, Any]) -> dict[str, Any]:
        return rebuild(self.db, deal)

    def save_solve(self, row: dict[str, Any]) -> dict[str, Any]:
        return save_solve(self.db, row)

    def solve(self, id_: str) -> dict[str, Any] | None:
        return solve(self.db, id_)


__all__ = [
    "SqliteStore",
    "count_due",
    "deal_stats",
    "mark",
    "marked",
    "note_hint",
    "play_key",
    "play_state",
    "prune",
    "rebuild",
    "record",
    "reverify",
    "salt",
    "save_solve",
    "solve",
    "stored",
    "take_turn",
]
