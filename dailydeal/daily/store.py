"""SQLite storage with sqlite-utils: schema, migrations and queries for daily deals.

A stored day is never changed: inserts are INSERT OR IGNORE on the unique key
(date, game, variant, tier), and ``id`` is readable, e.g. ``2026-12-01-pyramid-hard``.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from dailydeal.games import default_variant, new_game

migrations = Migrations("dailydeal")


@migrations()
def m001_deals(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS deals (
            id TEXT PRIMARY KEY,
            date TEXT NOT NULL,
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            tier TEXT NOT NULL,
            seed TEXT NOT NULL,          -- decimal text: seeds are unsigned 64-bit
            rating REAL NOT NULL,
            deal TEXT NOT NULL,          -- JSON, the shapes of docs/api.md
            solution TEXT NOT NULL,      -- JSON list of moves in docs/rules.md notation
            solution_length INTEGER NOT NULL,
            solver TEXT NOT NULL,        -- JSON solver statistics
            features TEXT NOT NULL DEFAULT '{}',  -- JSON rating features
            version TEXT NOT NULL,       -- what made the row (rules/solver/generator)
            created_at TEXT NOT NULL,
            UNIQUE (date, game, variant, tier)
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS deals_date ON deals (date, game)")


@migrations()
def m002_attempt_and_unfilled(db: sqlite_utils.Database) -> None:
    """The candidate number of each deal, and the tiers a generator could not fill.

    ``attempt`` is NULL for rows stored before this migration (none were, in practice).
    ``unfilled`` remembers a failed search so that the hourly scheduler does not repeat
    the same (deterministic, expensive) search; it is tried again when the generator
    version or budget changes or when more attempts are allowed.
    """
    cols = {r["name"] for r in db.query("PRAGMA table_info(deals)")}
    if "attempt" not in cols:
        db.execute("ALTER TABLE deals ADD COLUMN attempt INTEGER")
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS unfilled (
            date TEXT NOT NULL,
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            tier TEXT NOT NULL,
            attempts INTEGER NOT NULL,   -- candidates tried
            signature TEXT NOT NULL,     -- generator version and solver budget
            created_at TEXT NOT NULL,
            PRIMARY KEY (date, game, variant, tier)
        )
        """
    )


JSON_COLUMNS = ("deal", "solution", "solver", "features")


def deal_id(date: dt.date | str, game: str, tier: str, variant: str | None = None,
            default_variant: str | None = None) -> str:
    """``2026-12-01-pyramid-hard``; a non-default variant is named too."""
    day = date.isoformat() if isinstance(date, dt.date) else date
    extra = "" if variant is None or variant == default_variant else f"-{variant}"
    return f"{day}-{game}{extra}-{tier}"


def deal_row(
    date: dt.date,
    game: str,
    variant: str,
    tier: str,
    seed: int,
    *,
    rating: float,
    solution: list[str],
    version: str,
    solver: dict[str, Any] | None = None,
    features: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A row in the shape ``insert_deal`` stores; id, deal JSON and length are derived."""
    return {
        "id": deal_id(date, game, tier, variant, default_variant(game)),
        "date": date.isoformat(),
        "game": game,
        "variant": variant,
        "tier": tier,
        "seed": seed,
        "rating": float(rating),
        "deal": new_game(game, seed, variant).deal_json(),
        "solution": list(solution),
        "solution_length": len(solution),
        "solver": solver or {},
        "features": features or {},
        "version": version,
    }


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if needed) the database at ``path``, in WAL mode, migrated."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite_utils.Database(p)
    db.execute("PRAGMA busy_timeout = 30000")  # concurrent generators wait, never fail
    # One opener at a time prepares the file: a lock beside it serialises first runs
    # across threads and processes (flock locks belong to each open file description).
    with open(p.with_name(p.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _prepare(db)
    return db


def _prepare(db: sqlite_utils.Database, tries: int = 20) -> None:
    """WAL mode and pending migrations; tolerate another process doing the same at once.

    ``Migrations.apply`` is not safe against a concurrent first run (both processes may
    see the same migration pending), and switching to WAL can report "database is locked"
    without waiting; the loser's transaction is rolled back and a retry then finds nothing
    left to do.
    """
    for attempt in range(tries):
        try:
            db.enable_wal()
            if migrations.pending(db) or not db[migrations.migrations_table].exists():
                migrations.apply(db)
            return
        except (sqlite3.OperationalError, sqlite3.IntegrityError):
            if attempt == tries - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for col in JSON_COLUMNS:
        out[col] = json.loads(out[col])
    out["seed"] = int(out["seed"])
    return out


def insert_deal(db: sqlite_utils.Database, row: dict[str, Any]) -> bool:
    """Store one deal unless its (date, game, variant, tier) exists. True when inserted."""
    record = dict(row)
    for col in JSON_COLUMNS:
        record[col] = json.dumps(record.get(col, {} if col in ("solver", "features") else []))
    record["seed"] = str(record["seed"])
    record.setdefault("created_at", dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))
    cols = list(record)
    known = {r["name"] for r in db.query("PRAGMA table_info(deals)")}
    if unknown := set(cols) - known:
        raise ValueError(f"unknown deal columns: {sorted(unknown)}")
    marks = ", ".join("?" for _ in cols)
    with db.conn:
        cur = db.execute(
            f"INSERT OR IGNORE INTO deals ({', '.join(cols)}) VALUES ({marks})",
            [record[c] for c in cols],
        )
    return cur.rowcount == 1


def get_deal(db: sqlite_utils.Database, id_: str) -> dict[str, Any] | None:
    rows = list(db.query("SELECT * FROM deals WHERE id = ?", [id_]))
    return _decode(rows[0]) if rows else None


def deals_on(
    db: sqlite_utils.Database,
    date: dt.date,
    game: str | None = None,
    tier: str | None = None,
) -> list[dict[str, Any]]:
    """The deals of one date, ordered by game then tier difficulty."""
    sql = "SELECT * FROM deals WHERE date = ?"
    params: list[Any] = [date.isoformat()]
    if game is not None:
        sql += " AND game = ?"
        params.append(game)
    if tier is not None:
        sql += " AND tier = ?"
        params.append(tier)
    sql += (
        " ORDER BY game, variant, CASE tier WHEN 'easy' THEN 0 WHEN 'medium' THEN 1"
        " WHEN 'hard' THEN 2 WHEN 'expert' THEN 3 ELSE 4 END"
    )
    return [_decode(r) for r in db.query(sql, params)]


def stored_keys(
    db: sqlite_utils.Database, start: dt.date, end: dt.date
) -> set[tuple[str, str, str, str]]:
    """(date, game, variant, tier) of every deal stored between start and end inclusive."""
    return {
        (r["date"], r["game"], r["variant"], r["tier"])
        for r in db.query(
            "SELECT date, game, variant, tier FROM deals WHERE date BETWEEN ? AND ?",
            [start.isoformat(), end.isoformat()],
        )
    }


def dates_between(db: sqlite_utils.Database, start: dt.date, end: dt.date) -> list[dt.date]:
    """Dates with at least one stored deal, newest first."""
    rows = db.query(
        "SELECT DISTINCT date FROM deals WHERE date BETWEEN ? AND ? ORDER BY date DESC",
        [start.isoformat(), end.isoformat()],
    )
    return [dt.date.fromisoformat(r["date"]) for r in rows]


def missing_keys(
    db: sqlite_utils.Database,
    dates: list[dt.date],
    games: tuple[tuple[str, str], ...],
    tiers: tuple[str, ...],
) -> list[tuple[dt.date, str, str, str]]:
    """(date, game, variant, tier) of ``dates x games x tiers`` not stored yet, in order."""
    if not dates:
        return []
    have = stored_keys(db, min(dates), max(dates))
    return [
        (day, game, variant, tier)
        for day in dates
        for game, variant in games
        for tier in tiers
        if (day.isoformat(), game, variant, tier) not in have
    ]


def count_deals(db: sqlite_utils.Database) -> int:
    return int(db.execute("SELECT count(*) FROM deals").fetchone()[0])


def record_unfilled(
    db: sqlite_utils.Database,
    date: dt.date,
    game: str,
    variant: str,
    tier: str,
    attempts: int,
    signature: str,
) -> None:
    """Remember that ``attempts`` candidates did not fill a tier (replaces an older note)."""
    with db.conn:
        db.execute(
            "INSERT OR REPLACE INTO unfilled"
            " (date, game, variant, tier, attempts, signature, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [date.isoformat(), game, variant, tier, attempts, signature,
             dt.datetime.now(dt.UTC).isoformat(timespec="seconds")],
        )


def unfilled_between(
    db: sqlite_utils.Database, start: dt.date, end: dt.date
) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """Notes of unfilled tiers between start and end inclusive, by (date, game, variant, tier).

    A note whose tier has since been stored is not returned.
    """
    rows = db.query(
        "SELECT u.* FROM unfilled u WHERE u.date BETWEEN ? AND ? AND NOT EXISTS ("
        " SELECT 1 FROM deals d WHERE d.date = u.date AND d.game = u.game"
        " AND d.variant = u.variant AND d.tier = u.tier)",
        [start.isoformat(), end.isoformat()],
    )
    return {(r["date"], r["game"], r["variant"], r["tier"]): dict(r) for r in rows}


def integrity_check(db: sqlite_utils.Database) -> str:
    """``PRAGMA integrity_check``: 'ok' when the file is sound."""
    return "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check").fetchall())
