"""Storage: schema and migrations, WAL, the unique key, queries, INSERT OR IGNORE."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from dailydeal.daily import store

DAY = dt.date(2026, 12, 1)


def row(day: dt.date = DAY, game: str = "pyramid", tier: str = "hard", **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": store.deal_id(day, game, tier),
        "date": day.isoformat(),
        "game": game,
        "variant": "relaxed",
        "tier": tier,
        "seed": 2**64 - 1,
        "rating": 61.5,
        "deal": {"rows": [["AS"]]},
        "solution": ["AS", "KH"],
        "solution_length": 2,
        "solver": {"nodes": 10},
        "features": {"f": 1.5},
        "version": "test",
    }
    base.update(kw)
    return base


def test_deal_id() -> None:
    assert store.deal_id(DAY, "pyramid", "hard") == "2026-12-01-pyramid-hard"
    assert store.deal_id("2026-12-01", "gaps", "easy", "standard", "standard") == (
        "2026-12-01-gaps-easy"
    )
    assert store.deal_id(DAY, "gaps", "easy", "redeals=3", "standard") == (
        "2026-12-01-gaps-redeals=3-easy"
    )


def test_open_db_wal_and_migrations(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "sub" / "d.db")
    assert db.journal_mode == "wal"
    assert store.migrations.pending(db) == []
    assert {"deals", "unfilled"} <= set(db.table_names())
    db.close()
    again = store.open_db(tmp_path / "sub" / "d.db")  # reopening is a no-op
    names = [r["name"] for r in again.query("SELECT name FROM _sqlite_migrations")]
    assert names[:2] == ["m001_deals", "m002_attempt_and_unfilled"]
    assert {"m003_deal_commitments", "m004_results"} <= set(names)


def test_upgrade_keeps_stored_days(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite_utils.Database(path)
    store.migrations.apply(old, stop_before="m002_attempt_and_unfilled")  # an older release
    r = row()
    assert store.insert_deal(old, r)
    assert "attempt" not in old["deals"].columns_dict
    old.close()
    db = store.open_db(path)
    got = store.get_deal(db, r["id"])
    assert got is not None and got["seed"] == r["seed"] and got["attempt"] is None
    assert store.count_deals(db) == 1


def test_insert_is_insert_or_ignore(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "d.db")
    r = row(attempt=3)
    assert store.insert_deal(db, r) is True
    first = store.get_deal(db, r["id"])
    assert first is not None
    assert {k: first[k] for k in r} == r
    assert isinstance(first["created_at"], str)
    # same key, other content (another id too): ignored, the stored day is unchanged
    assert store.insert_deal(db, row(id="other", seed=5, rating=1.0)) is False
    assert store.get_deal(db, r["id"]) == first
    assert store.get_deal(db, "other") is None
    assert store.count_deals(db) == 1
    with pytest.raises(ValueError, match="unknown"):
        store.insert_deal(db, row(tier="easy", evil="x"))
    # the unique key is in the schema itself, not only in insert_deal
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO deals (id, date, game, variant, tier, seed, rating, deal, solution,"
            " solution_length, solver, version, created_at)"
            " VALUES ('x', ?, 'pyramid', 'relaxed', 'hard', '1', 1, '{}', '[]', 0, '{}', 'v', 'c')",
            [DAY.isoformat()],
        )


def test_queries(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "d.db")
    for d in (DAY, DAY + dt.timedelta(days=2)):
        for tier in ("expert", "easy", "hard", "medium"):
            store.insert_deal(db, row(d, "pyramid", tier))
        store.insert_deal(db, row(d, "gaps", "medium", variant="standard"))
    assert [r["tier"] for r in store.deals_on(db, DAY, "pyramid")] == [
        "easy", "medium", "hard", "expert"
    ]
    assert [(r["game"], r["tier"]) for r in store.deals_on(db, DAY)][:1] == [("gaps", "medium")]
    assert [r["id"] for r in store.deals_on(db, DAY, tier="medium")] == [
        "2026-12-01-gaps-medium", "2026-12-01-pyramid-medium"
    ]
    assert store.deals_on(db, DAY + dt.timedelta(days=1)) == []
    end = DAY + dt.timedelta(days=5)
    assert store.dates_between(db, DAY, end) == [DAY + dt.timedelta(days=2), DAY]
    assert len(store.stored_keys(db, DAY, DAY)) == 5
    games = (("pyramid", "relaxed"), ("gaps", "standard"))
    missing = store.missing_keys(db, [DAY, DAY + dt.timedelta(days=1)], games, ("easy", "medium"))
    assert missing == [
        (DAY, "gaps", "standard", "easy"),
        (DAY + dt.timedelta(days=1), "pyramid", "relaxed", "easy"),
        (DAY + dt.timedelta(days=1), "pyramid", "relaxed", "medium"),
        (DAY + dt.timedelta(days=1), "gaps", "standard", "easy"),
        (DAY + dt.timedelta(days=1), "gaps", "standard", "medium"),
    ]
    assert store.integrity_check(db) == "ok"


def test_unfilled_notes(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "d.db")
    store.record_unfilled(db, DAY, "gaps", "standard", "easy", 10, "sig")
    store.record_unfilled(db, DAY, "gaps", "standard", "easy", 20, "sig2")  # replaces
    store.record_unfilled(db, DAY, "gaps", "standard", "expert", 20, "sig2")
    notes = store.unfilled_between(db, DAY, DAY)
    assert notes[(DAY.isoformat(), "gaps", "standard", "easy")]["attempts"] == 20
    assert len(notes) == 2
    store.insert_deal(db, row(game="gaps", tier="expert", variant="standard"))
    assert list(store.unfilled_between(db, DAY, DAY)) == [
        (DAY.isoformat(), "gaps", "standard", "easy")
    ]


def test_concurrent_first_open(tmp_path: Path) -> None:
    """Several processes opening (and migrating) a new file at once all succeed."""
    path = tmp_path / "d.db"
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def worker(i: int) -> None:
        try:
            barrier.wait()
            db = store.open_db(path)
            store.insert_deal(db, row(tier="expert", id=f"x{i}", seed=i))
            db.close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    db = store.open_db(path)
    assert store.count_deals(db) == 1
    names = [r["name"] for r in db.query("SELECT name FROM _sqlite_migrations")]
    assert names[:2] == ["m001_deals", "m002_attempt_and_unfilled"]
    assert len(names) == len(set(names))  # each applied once


def test_a_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all, " * 300)
    with pytest.raises(store.StoreError, match=f"cannot use the database {bad}: file is not"):
        store.open_db(bad)
    assert bad.read_bytes() == b"not a database at all, " * 300  # nothing overwritten


def test_an_impossible_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(store.StoreError, match="database .*a-file/d.db: .*a-file is not a dir"):
        store.open_db(blocker / "d.db")
    with pytest.raises(store.StoreError, match="is a directory"):
        store.open_db(tmp_path)


def test_pictures_are_stored_once_and_never_replaced(tmp_path: Path) -> None:
    """m010: each deal's preview picture, by the drawing's version (issue 39)."""
    db = store.open_db(tmp_path / "p.db")
    assert store.insert_deal(db, row())
    assert store.insert_deal(db, row(day=DAY - dt.timedelta(days=1)))
    missing = store.deals_without_picture(db, 1)
    yesterday = (DAY - dt.timedelta(days=1)).isoformat()
    assert [r["date"] for r in missing] == [DAY.isoformat(), yesterday]  # newest first
    assert [r["id"] for r in store.deals_without_picture(db, 1, since=DAY)] == [row()["id"]]
    assert len(store.deals_without_picture(db, 1, limit=1)) == 1
    assert store.put_picture(db, row()["id"], 1, b"first")
    assert not store.put_picture(db, row()["id"], 1, b"second")  # never replaced
    assert store.get_picture(db, row()["id"], 1) == b"first"
    assert store.get_picture(db, row()["id"], 2) is None  # another drawing: not stored yet
    assert [r["id"] for r in store.deals_without_picture(db, 1)] == [missing[1]["id"]]
    # a new drawing replaces the deal's older ones, and no other deal's
    assert store.put_picture(db, missing[1]["id"], 1, b"other")
    assert store.put_picture(db, row()["id"], 2, b"redrawn")
    assert store.get_picture(db, row()["id"], 2) == b"redrawn"
    assert store.get_picture(db, row()["id"], 1) is None
    assert store.get_picture(db, missing[1]["id"], 1) == b"other"
    assert not store.put_picture(db, row()["id"], 1, b"older")  # an older process: dropped
    assert store.get_picture(db, row()["id"], 1) is None
    assert store.get_picture(db, row()["id"], 2) == b"redrawn"
    assert store.deals_without_picture(db, 1) == []  # an older process draws none again
    db.execute("DROP TABLE deal_pictures")  # a node's copy of an older generator's file
    assert store.get_picture(db, row()["id"], 1) is None
    db.close()
