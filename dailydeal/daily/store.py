"""SQLite storage with sqlite-utils: schema, migrations and queries for daily deals.

A stored day is never changed: inserts are INSERT OR IGNORE on the unique key
(date, game, variant, tier), and ``id`` is readable, e.g. ``2026-12-01-pyramid-hard``.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

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
            solution TEXT NOT NULL,      -- JSON list of moves in RULES.md notation
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


JSON_COLUMNS = ("deal", "solution", "solver", "features")


def deal_id(date: dt.date | str, game: str, tier: str, variant: str | None = None,
            default_variant: str | None = None) -> str:
    """``2026-12-01-pyramid-hard``; a non-default variant is named too."""
    day = date.isoformat() if isinstance(date, dt.date) else date
    extra = "" if variant is None or variant == default_variant else f"-{variant}"
    return f"{day}-{game}{extra}-{tier}"


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if needed) the database at ``path``, in WAL mode, migrated."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite_utils.Database(p)
    db.execute("PRAGMA busy_timeout = 30000")  # concurrent generators wait, never fail
    db.enable_wal()
    migrations.apply(db)
    return db


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
    with db.conn:
        cur = db.execute(
            f"INSERT OR IGNORE INTO deals ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
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
