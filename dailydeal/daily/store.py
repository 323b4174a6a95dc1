"""SQLite storage with sqlite-utils: schema, migrations and queries for daily deals.

A stored day is never changed: inserts are INSERT OR IGNORE on the unique key
(date, game, variant, tier), and ``id`` is readable, e.g. ``2026-12-01-pyramid-hard``.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

from dailydeal.daily import fairness
from dailydeal.games import Game, default_variant, new_game, spec_of
from dailydeal.games.spec import EVERY, PROVED

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
    cols = db.table("deals").columns_dict
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


@migrations()
def m003_deal_commitments(db: sqlite_utils.Database) -> None:
    """Provably fair deals (docs/fairness.md): each row's nonce, the SHA-256 commitment to
    it and when it was made. Rows stored before get a random nonce here (the migration has
    no secret; a random nonce hides the deal just as well), and ``committed_at`` says that
    their commitment is only as old as this migration. A trigger makes the three columns
    unchangeable once set, and the committed deal (id, seed) with them."""
    cols = db.table("deals").columns_dict
    for col in ("nonce", "commitment", "committed_at"):
        if col not in cols:
            db.execute(f"ALTER TABLE deals ADD COLUMN {col} TEXT")
    now = _utc_now()
    for row in list(db.query("SELECT * FROM deals WHERE commitment IS NULL")):
        db.execute(
            "UPDATE deals SET nonce = ?, commitment = ?, committed_at = ? WHERE id = ?",
            [*_commit(row, fairness.random_nonce()), now, row["id"]],
        )
    db.execute(
        """
        CREATE TRIGGER IF NOT EXISTS deals_commitment_is_final
        BEFORE UPDATE ON deals
        WHEN OLD.commitment IS NOT NULL AND (
            NEW.commitment IS NOT OLD.commitment OR NEW.nonce IS NOT OLD.nonce
            OR NEW.committed_at IS NOT OLD.committed_at OR NEW.id IS NOT OLD.id
            OR NEW.seed IS NOT OLD.seed OR NEW.game IS NOT OLD.game
            OR NEW.variant IS NOT OLD.variant)
        BEGIN
            SELECT RAISE(ABORT, 'a published commitment never changes');
        END
        """
    )


@migrations()
def m004_results(db: sqlite_utils.Database) -> None:
    """Verified results of players (dailydeal.results.sqlite_store), one per client and deal.

    No address and no client id is stored: ``client`` is HMAC-SHA256(salt, deal id and
    client id), with a random salt kept in ``salts``, so a client's results on two deals
    cannot even be linked to each other.
    """
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS results (
            deal_id TEXT NOT NULL,
            client TEXT NOT NULL,        -- salted hash, never the id sent
            won INTEGER NOT NULL,        -- 0 or 1, as the verifier says
            state TEXT NOT NULL,         -- won, lost or in progress (gave up)
            moves INTEGER NOT NULL,      -- moves played, Accordion deals included
            score INTEGER NOT NULL,
            hints INTEGER NOT NULL,      -- hints used (m005: the server's count for the play)
            seconds INTEGER,             -- time played (m005: the server's, from the play)
            move_list TEXT NOT NULL,     -- JSON: the moves sent, to verify again
            created_at TEXT NOT NULL,
            PRIMARY KEY (deal_id, client)
        )
        """
    )
    db.execute("CREATE TABLE IF NOT EXISTS salts (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        "INSERT OR IGNORE INTO salts (name, value) VALUES ('results', ?)",
        [fairness.random_nonce()],
    )


@migrations()
def m005_plays_and_stats(db: sqlite_utils.Database) -> None:
    """Plays and statistics kept at write time (dailydeal.results.sqlite_store, results.plays).

    ``plays``: per play token id, the hints its play asked for and whether its result was
    counted (no address, no client id). ``deal_stats`` and ``deal_winning_moves``: the
    aggregates of each deal, updated in the transaction that stores a result, so that
    ``/stats`` reads a row, not every result; filled here from the rows already stored.
    ``pruned_at``: when the deal's move lists were dropped (retention), its numbers final.
    ``results.reported_seconds``: the time the client says it played (``seconds`` is the
    server's, from the play token).
    """
    cols = db.table("results").columns_dict
    if "reported_seconds" not in cols:
        db.execute("ALTER TABLE results ADD COLUMN reported_seconds INTEGER")
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS plays (
            id TEXT PRIMARY KEY,         -- the token's random id
            deal_id TEXT NOT NULL,
            hints INTEGER NOT NULL DEFAULT 0,
            used INTEGER NOT NULL DEFAULT 0  -- 1 once its result counted
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS plays_deal ON plays (deal_id)")
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS deal_stats (
            deal_id TEXT PRIMARY KEY,
            plays INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            wins_without_hints INTEGER NOT NULL,
            pruned_at TEXT               -- move lists dropped: the numbers are final
        )
        """
    )
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS deal_winning_moves (
            deal_id TEXT NOT NULL,
            moves INTEGER NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (deal_id, moves)
        )
        """
    )
    db.execute(
        "INSERT OR IGNORE INTO deal_stats (deal_id, plays, wins, wins_without_hints)"
        " SELECT deal_id, count(*), sum(won), sum(won AND hints = 0) FROM results"
        " GROUP BY deal_id"
    )
    db.execute(
        "INSERT OR IGNORE INTO deal_winning_moves (deal_id, moves, count)"
        " SELECT deal_id, moves, count(*) FROM results WHERE won GROUP BY deal_id, moves"
    )
    db.execute(
        "INSERT OR IGNORE INTO salts (name, value) VALUES ('plays', ?)",
        [fairness.random_nonce()],
    )


@migrations()
def m006_deal_revisions(db: sqlite_utils.Database) -> None:
    """Stored solutions made true without being silently changed (``dailydeal recheck``).

    ``deals.checked`` is the solver version that last re-solved the row (NULL: only the
    one that made it, named in ``version``). ``deal_revisions`` keeps every earlier
    solution of a row, with when and why it was replaced, and a trigger refuses to change
    a row's solution, its length or its solver statistics unless the revision that keeps
    the old ones was written first (``revise_deal``)."""
    cols = db.table("deals").columns_dict
    if "checked" not in cols:
        db.execute("ALTER TABLE deals ADD COLUMN checked TEXT")
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS deal_revisions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            deal_id TEXT NOT NULL REFERENCES deals (id),
            revised_at TEXT NOT NULL,
            reason TEXT NOT NULL,
            old_solution TEXT NOT NULL,       -- JSON, as in deals
            old_solution_length INTEGER NOT NULL,
            old_solver TEXT NOT NULL,
            old_checked TEXT,                 -- the solver version behind the old solution
            new_solution TEXT NOT NULL,
            new_solution_length INTEGER NOT NULL,
            new_solver TEXT NOT NULL,
            new_checked TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS deal_revisions_deal ON deal_revisions (deal_id)")
    db.execute(
        """
        CREATE TRIGGER IF NOT EXISTS deals_solution_is_revised
        BEFORE UPDATE OF solution, solution_length, solver, checked ON deals
        WHEN NOT EXISTS (
            SELECT 1 FROM deal_revisions r WHERE r.deal_id = OLD.id
            AND r.old_solution = OLD.solution AND r.old_solver = OLD.solver
            AND r.new_solution = NEW.solution AND r.new_solver = NEW.solver
            AND r.new_solution_length = NEW.solution_length AND r.new_checked = NEW.checked)
        BEGIN
            SELECT RAISE(ABORT, 'a stored solution changes only with its revision kept');
        END
        """
    )


@migrations()
def m007_webhook_posts(db: sqlite_utils.Database) -> None:
    """Which date each webhook was told of (``dailydeal.daily.webhooks``): ``sending`` while
    a scheduler holds the claim, then ``sent`` or ``failed``. IF NOT EXISTS: the table was
    made by the webhooks module itself before it was a migration."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS webhook_posts (
            date TEXT NOT NULL, hook TEXT NOT NULL, status TEXT NOT NULL, at TEXT NOT NULL,
            PRIMARY KEY (date, hook))"""
    )


@migrations()
def m008_solves(db: sqlite_utils.Database) -> None:
    """Verified wins that prove themselves (``dailydeal.results.solves``): one row per
    deal and line (the id is their hash), written once with its signature, never changed."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS solves (
            id TEXT PRIMARY KEY, deal TEXT, date TEXT, game TEXT NOT NULL,
            variant TEXT NOT NULL, seed TEXT NOT NULL, moves INTEGER NOT NULL, par INTEGER,
            move_list TEXT NOT NULL, verified_at TEXT NOT NULL, key TEXT NOT NULL,
            signature TEXT NOT NULL, signed TEXT NOT NULL)"""
    )


@migrations()
def m009_pending_results(db: sqlite_utils.Database) -> None:
    """Results accepted at once and counted when due (dailydeal.results, ``Counting``).

    ``results.counted``: 0 while the result waits for its turn (it is not in the
    aggregates yet), 1 once counted; ``counts_at``: when it counts (Unix seconds).
    ``deal_stats.pending``: the deal's results waiting. ``count_slots``: per deal and
    network tag (an HMAC of the network, never an address), the time of its last turn.
    ``hint_marks``: the positions a network asked hints on without a play token (the hint
    counts on the results of that network on those positions). Both go when the deal's
    results close.
    """
    cols = db.table("results").columns_dict
    if "counted" not in cols:
        db.execute("ALTER TABLE results ADD COLUMN counted INTEGER NOT NULL DEFAULT 1")
    if "counts_at" not in cols:
        db.execute("ALTER TABLE results ADD COLUMN counts_at INTEGER")
    db.execute("CREATE INDEX IF NOT EXISTS results_pending ON results (counts_at)"
               " WHERE counted = 0")
    if "pending" not in db.table("deal_stats").columns_dict:
        db.execute("ALTER TABLE deal_stats ADD COLUMN pending INTEGER NOT NULL DEFAULT 0")
    db.execute(
        """CREATE TABLE IF NOT EXISTS count_slots (
            deal_id TEXT NOT NULL, network TEXT NOT NULL, last_at REAL NOT NULL,
            PRIMARY KEY (deal_id, network))"""
    )
    db.execute(
        """CREATE TABLE IF NOT EXISTS hint_marks (
            deal_id TEXT NOT NULL, network TEXT NOT NULL, position TEXT NOT NULL,
            PRIMARY KEY (deal_id, network, position))"""
    )


@migrations()
def m010_deal_pictures(db: sqlite_utils.Database) -> None:
    """Each deal's preview picture, drawn once when it is stored (``daily/picture.py``) and
    served as stored (issue 39: a picture drawn per request was a CPU denial of service).
    Keyed by the drawing's version: a new drawing is a new row, and replaces the deal's
    older ones once stored (``put_picture``). A new
    table, not a column of ``deals``: deal rows are never updated."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS deal_pictures (
            deal_id TEXT NOT NULL REFERENCES deals (id),
            version INTEGER NOT NULL,    -- daily/picture.py VERSION
            png BLOB NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (deal_id, version))"""
    )


def _utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _commit(
    row: dict[str, Any], nonce: str, dealt: Game[Any] | None = None
) -> tuple[str, str]:
    """(nonce, commitment) of a row with id, game, variant and seed."""
    seed = int(row["seed"])
    cards = _deal_of(row["game"], row["variant"], seed, dealt).cards
    return nonce, fairness.commitment(row["id"], seed, cards, nonce)


def _deal_of(game: str, variant: str, seed: int, dealt: Game[Any] | None) -> Game[Any]:
    """The deal of a row: ``dealt`` when the caller has it (generation deals a candidate
    once), which must be that deal, else dealt here from the seed."""
    if dealt is None:
        return new_game(game, seed, variant)
    if (dealt.name, dealt.variant, dealt.seed) != (game, variant, seed):
        raise ValueError(f"{dealt!r} is not the deal of {game}/{variant} seed {seed}")
    return dealt


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
    secret: bytes | None = None,
    dealt: Game[Any] | None = None,
) -> dict[str, Any]:
    """A row in the shape ``insert_deal`` stores; id, deal JSON and length are derived.

    With the server ``secret`` the row's nonce is derived from it (docs/fairness.md);
    without, ``insert_deal`` draws a random one. ``dealt``: the game of ``seed`` when the
    caller has dealt it already.
    """
    id_ = deal_id(date, game, tier, variant, default_variant(game))
    return {
        "id": id_,
        "date": date.isoformat(),
        "game": game,
        "variant": variant,
        "tier": tier,
        "seed": seed,
        "rating": float(rating),
        "deal": _deal_of(game, variant, seed, dealt).deal_json(),
        "solution": list(solution),
        "solution_length": len(solution),
        "solver": solver or {},
        "features": features or {},
        "version": version,
        **({} if secret is None else {"nonce": fairness.deal_nonce(secret, id_)}),
    }


class StoreError(Exception):
    """The database file cannot be used (a one-line message naming it): unreadable, not a
    database, in a directory that cannot be created or written."""


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if needed) the database at ``path``, in WAL mode, migrated.

    Raises ``StoreError`` when the file cannot be opened or is not a usable database.
    """
    p = Path(path)
    try:
        if p.parent.exists() and not p.parent.is_dir():
            raise StoreError(f"cannot open the database {p}: {p.parent} is not a directory")
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.is_dir():
            raise StoreError(f"the database {p} is a directory, not a file")
        _create_private(p)
        db = sqlite_utils.Database(p)
        try:
            db.execute("PRAGMA busy_timeout = 30000")  # concurrent generators wait, never fail
            # One opener at a time prepares the file: a lock beside it serialises first runs
            # across threads and processes (flock locks belong to each open file description).
            with open(p.with_name(p.name + ".lock"), "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                _prepare(db)
        except BaseException:
            db.close()
            raise
    except OSError as exc:
        raise StoreError(f"cannot open the database {p}: {exc.strerror or exc}") from None
    except sqlite3.OperationalError as exc:  # "unable to open", "readonly database", ...
        raise StoreError(
            f"cannot use the database {p}: {exc} (check that the file and its directory are "
            "writable by this user)"
        ) from None
    except sqlite3.DatabaseError as exc:  # "file is not a database", "malformed", ...
        raise StoreError(
            f"cannot use the database {p}: {exc} (not a dailydeal SQLite file, or damaged: "
            "restore it from a backup, see deploy/README.md)"
        ) from None
    return db


def _create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 unless it exists: the database holds a week of
    future seeds and solutions, so it is as private as the secret file (config.py), whatever
    the umask (systemd's units set 0077; a shell's is often 022). SQLite gives the -wal and
    -shm files the mode of the database file."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # an existing database keeps its mode (another user may be meant to read it)


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


def insert_deal(
    db: sqlite_utils.Database, row: dict[str, Any], *, dealt: Game[Any] | None = None,
    first: Callable[[str, str], str] | None = None,
) -> bool:
    """Store one deal unless its (date, game, variant, tier) exists. True when inserted.
    ``dealt``: the game of the row's seed when the caller has dealt it already. ``first``:
    (commitment, this row's time) -> the commitment time to store, the one every node of a
    cluster stores (``dailydeal.daily.shared``); by default the row's own ``created_at``."""
    record = dict(row)
    for col in JSON_COLUMNS:  # sqlite-utils writes lists and dicts as JSON
        record.setdefault(col, {} if col in ("solver", "features") else [])
    record["seed"] = str(record["seed"])
    record.setdefault("created_at", _utc_now())
    known = db.table("deals").columns_dict
    if "commitment" in known:  # (an older schema is committed to by m003 instead)
        # Computed here from the row itself, so it always matches the deal stored.
        nonce = record.get("nonce") or fairness.random_nonce()
        record["nonce"], record["commitment"] = _commit(record, nonce, dealt)
        record["committed_at"] = record["created_at"]
        if first is not None:
            record["committed_at"] = first(record["commitment"], record["created_at"])
    if unknown := set(record) - set(known):
        raise ValueError(f"unknown deal columns: {sorted(unknown)}")
    before = db.conn.total_changes  # sqlite-utils does not say whether a row was ignored
    db.table("deals").insert(record, ignore=True)
    return db.conn.total_changes > before


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
    db.table("unfilled").insert(
        {"date": date.isoformat(), "game": game, "variant": variant, "tier": tier,
         "attempts": attempts, "signature": signature, "created_at": _utc_now()},
        replace=True,
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


def solver_version(row: dict[str, Any]) -> int | None:
    """The solver version behind a row's solution: the one that last re-solved it
    (``checked``), else the one that made it (``solvers N`` in ``version``); None when
    the row names none."""
    checked = row.get("checked")
    if checked:
        return int(checked)
    for part in str(row.get("version", "")).split(";"):
        name, _, number = part.strip().partition(" ")
        if name == "solvers" and number.isdigit():
            return int(number)
    return None


def proved_shortest(row: dict[str, Any]) -> bool:
    """Whether the API may claim that no solution of the row's deal is shorter than its
    ``solution_length`` (its "par"): Accordion's wins all have one length; a Pyramid
    solution the solver proved shortest, with a solver version whose claims stand
    (the spec's ``shortest_since``, made or rechecked by it); never Gaps, whose solver
    does not look for the shortest."""
    spec = spec_of(row["game"])
    if spec.shortest == EVERY:
        return True
    stats = row["solver"].get("stats") or {}
    version = solver_version(row)
    return (
        spec.shortest == PROVED and stats.get("optimal") is True
        and version is not None and version >= spec.shortest_since
    )


def stale_rows(db: sqlite_utils.Database, game: str) -> list[dict[str, Any]]:
    """The rows of ``game`` whose solution was made, or last re-solved, by a solver version
    whose shortest claims no longer stand (the spec's ``shortest_since``), oldest date
    first."""
    spec = spec_of(game)
    if spec.shortest != PROVED:
        return []
    rows = [_decode(r) for r in db.query(
        "SELECT * FROM deals WHERE game = ? ORDER BY date, variant, tier", [game]
    )]
    return [r for r in rows if (solver_version(r) or 0) < spec.shortest_since]


def revise_deal(
    db: sqlite_utils.Database,
    id_: str,
    solution: list[str],
    solver: dict[str, Any],
    checked: str,
    reason: str,
) -> None:
    """Replace a row's solution and solver statistics with a re-solve's (by solver
    version ``checked``), keeping the old ones in ``deal_revisions`` with ``reason``, in
    one transaction. The deal itself (seed, tier, rating, commitment) never changes."""
    try:
        old = db.table("deals").get(id_)  # as stored: its JSON text is kept as it is
    except sqlite_utils.db.NotFoundError:
        raise KeyError(id_) from None
    new = {"solution": list(solution), "solution_length": len(solution), "solver": solver,
           "checked": checked}
    with db.atomic():
        db.table("deal_revisions").insert({
            "deal_id": id_, "revised_at": _utc_now(), "reason": reason,
            **{f"old_{col}": old[col] for col in new}, **{f"new_{col}": new[col] for col in new},
        })
        db.table("deals").update(id_, new)


def revisions(db: sqlite_utils.Database, id_: str) -> list[dict[str, Any]]:
    """The revisions of a row, oldest first (old and new solutions decoded)."""
    out = []
    for r in db.query("SELECT * FROM deal_revisions WHERE deal_id = ? ORDER BY id", [id_]):
        rev = dict(r)
        for col in ("old_solution", "old_solver", "new_solution", "new_solver"):
            rev[col] = json.loads(rev[col])
        out.append(rev)
    return out


def integrity_check(db: sqlite_utils.Database) -> str:
    """``PRAGMA integrity_check``: 'ok' when the file is sound."""
    return "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check").fetchall())


# --- what generation, commitments and webhooks ask of the file -----------------------------
def count_other_versions(
    db: sqlite_utils.Database, start: dt.date, end: dt.date, game: str, variant: str,
    version: str,
) -> int:
    """Deals of ``game``/``variant`` stored from ``start`` to ``end`` inclusive by another
    ``version`` than the given one (kept as they are, never regenerated)."""
    return int(db.execute(
        "SELECT count(*) FROM deals WHERE date BETWEEN ? AND ? AND game = ?"
        " AND variant = ? AND version != ?",
        [start.isoformat(), end.isoformat(), game, variant, version],
    ).fetchone()[0])


def stored_commitments(
    db: sqlite_utils.Database, start: dt.date, end: dt.date
) -> list[dict[str, Any]]:
    """The published part of every deal stored from ``start`` to ``end`` inclusive (future
    dates too): its id, date, game, variant, tier, commitment and when it was made."""
    rows = db.query(
        "SELECT id, date, game, variant, tier, commitment, committed_at FROM deals"
        " WHERE date BETWEEN ? AND ? AND commitment IS NOT NULL ORDER BY date, id",
        [start.isoformat(), end.isoformat()],
    )
    return [dict(r) for r in rows]


def claim_webhook_post(
    db: sqlite_utils.Database, day: dt.date, hook: str, now: dt.datetime,
    stale_before: dt.datetime,
) -> bool:
    """Claim the announcement of ``day`` to ``hook`` (``sending``): False when it was sent,
    failed, or is being sent by another scheduler. A claim older than ``stale_before`` was
    left by a process that died while posting, and is taken over."""
    with db.atomic():
        db.execute(
            "DELETE FROM webhook_posts WHERE date = ? AND hook = ? AND status = "
            "'sending' AND at < ?", [day.isoformat(), hook, stale_before.isoformat()],
        )
        before = db.conn.total_changes
        db.table("webhook_posts").insert(
            {"date": day.isoformat(), "hook": hook, "status": "sending", "at": now.isoformat()},
            ignore=True,
        )
        return db.conn.total_changes > before


def finish_webhook_post(db: sqlite_utils.Database, day: dt.date, hook: str, status: str) -> None:
    """Note how a claimed announcement ended: ``sent`` or ``failed`` are kept; ``retry``
    drops the claim, so the next run posts again."""
    with db.conn:
        if status == "retry":
            db.execute("DELETE FROM webhook_posts WHERE date = ? AND hook = ?",
                       [day.isoformat(), hook])
        else:
            db.execute("UPDATE webhook_posts SET status = ? WHERE date = ? AND hook = ?",
                       [status, day.isoformat(), hook])


# --- preview pictures (daily/picture.py draws them, web/share.py serves them) ---------------
def deals_without_picture(
    db: sqlite_utils.Database, version: int, since: dt.date | None = None,
    limit: int = -1,
) -> list[dict[str, Any]]:
    """Every deal dated ``since`` or later (all, with None) that has no picture of
    ``version`` (or newer) yet, newest first (at most ``limit``; -1: all)."""
    rows = db.query(
        "SELECT * FROM deals d WHERE (? IS NULL OR d.date >= ?) AND NOT EXISTS ("
        "SELECT 1 FROM deal_pictures p WHERE p.deal_id = d.id AND p.version >= ?)"
        " ORDER BY d.date DESC, d.id LIMIT ?",
        [None if since is None else since.isoformat()] * 2 + [version, limit],
    )
    return [_decode(r) for r in rows]


def put_picture(db: sqlite_utils.Database, deal: str, version: int, png: bytes) -> bool:
    """Store a deal's picture of ``version`` unless it or a newer one is stored (never
    replaced), and drop the deal's older drawings, which nothing serves once this one is
    stored (a process still running older code finds none and draws on request, bounded).
    True when stored."""
    with db.conn:
        cur = db.execute(
            "INSERT OR IGNORE INTO deal_pictures (deal_id, version, png, created_at)"
            " SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM deal_pictures"
            " WHERE deal_id = ? AND version > ?)",  # an older process, a newer drawing
            [deal, version, png, _utc_now(), deal, version],
        )
        db.execute("DELETE FROM deal_pictures WHERE deal_id = ? AND version < ?",
                   [deal, version])
        return cur.rowcount > 0


def get_picture(db: sqlite_utils.Database, deal: str, version: int) -> bytes | None:
    """The stored picture of a deal, or None (not drawn yet, or an older file)."""
    try:
        row = db.execute(
            "SELECT png FROM deal_pictures WHERE deal_id = ? AND version = ?", [deal, version]
        ).fetchone()
    except sqlite3.OperationalError:  # a copy made before m010 (a node's older snapshot)
        return None
    return None if row is None else bytes(row[0])
