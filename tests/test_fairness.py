"""Provably fair deals: commitments published ahead, nonces revealed with the deal, the
commitment recomputed here without the application's code, never changed once stored, and
the verification snippets of docs/fairness.md run as they stand."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils
from flask.testing import FlaskClient

from dailydeal import cards as C
from dailydeal.config import Settings
from dailydeal.daily import store
from dailydeal.daily.generate import fill_days
from dailydeal.shuffle import shuffled_deck

API = "/api/v1"
ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")


def independent_commitment(id_: str, seed: int, nonce: str) -> str:
    """docs/fairness.md by hand: the deck from the documented shuffle, the text, SHA-256."""
    cards = " ".join(C.CARD_NAMES[c] for c in shuffled_deck(seed))
    text = f"dailydeal-commitment-v1|{id_}|{seed}|{cards}|{nonce}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def listing(client: FlaskClient, start: dt.date, end: dt.date) -> dict[str, Any]:
    resp = client.get(f"{API}/commitments?from={start}&to={end}")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body: dict[str, Any] = resp.get_json()
    return body


def test_commitments_list_future_deals_and_nothing_else(
    client: FlaskClient, days: dict[str, dt.date], deal_rows: list[dict[str, Any]],
    db_path: Path,
) -> None:
    body = listing(client, days["past"], days["future"])
    ids = {c["id"] for c in body["commitments"]}
    expected = {r["id"] for r in deal_rows if days["past"].isoformat() <= r["date"]}
    assert ids == expected  # future dates included
    for c in body["commitments"]:
        assert set(c) == {"id", "date", "game", "variant", "tier", "commitment",
                          "committed_at", "in_advance", "links"}
        # the fixtures were stored just now: in advance of the future date only
        assert c["in_advance"] == (c["date"] == days["future"].isoformat())
        assert re.fullmatch(r"[0-9a-f]{64}", c["commitment"])
    future = [r for r in deal_rows if r["date"] == days["future"].isoformat()]
    text = json.dumps(body)
    db = store.open_db(db_path)
    for r in future:  # the nonce, which would open the commitment, is not out
        stored = store.get_deal(db, r["id"])
        assert stored is not None and stored["nonce"] not in text
    db.close()
    # the deal itself stays hidden until its date
    assert client.get(f"{API}/deals/{future[0]['id']}").status_code == 404


def test_deal_json_opens_its_commitment(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    published = {
        c["id"]: c["commitment"]
        for c in listing(client, days["past"], days["today"])["commitments"]
    }
    deals = client.get(f"{API}/daily/{days['today']}").get_json()["deals"]
    assert deals
    for deal in deals:
        opened = deal["commitment"]
        assert opened["sha256"] == published[deal["id"]]
        assert independent_commitment(deal["id"], int(deal["seed"]), opened["nonce"]) == (
            opened["sha256"]
        )
        assert hashlib.sha256(opened["text"].encode()).hexdigest() == opened["sha256"]


@pytest.mark.parametrize(
    "query,needle",
    [
        ("from=2026-13-01", "'from'"),
        ("from=tomorrow", "'from'"),
        ("from=2026-12-10&to=2026-12-01", "before"),
        ("from=2026-01-01&to=2026-12-31", "at most 62"),
    ],
)
def test_commitments_bad_ranges_are_400(
    client: FlaskClient, problem: Any, query: str, needle: str
) -> None:
    body = problem(client.get(f"{API}/commitments?{query}"), 400)
    assert needle in body["detail"]


def test_default_range_starts_today(client: FlaskClient, days: dict[str, dt.date]) -> None:
    body = client.get(f"{API}/commitments").get_json()
    assert body["from"] <= days["today"].isoformat() <= body["to"]
    assert any(c["date"] == days["future"].isoformat() for c in body["commitments"])


def test_deal_json_says_when_it_was_committed(
    db_path: Path, days: dict[str, dt.date], now: dt.datetime
) -> None:
    """The player's page reads ``commitment.committed_at`` and ``in_advance`` from the deal
    it loads: the same time as the commitments list, and "in advance" only when it was."""
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    later = now + dt.timedelta(days=3)  # the future date (stored "now") has begun
    client = create_app({"db_path": db_path, "NOW": lambda: later}).test_client()
    try:
        listed = {c["id"]: c for c in listing(client, days["today"], days["future"])[
            "commitments"]}
        seen = set()
        for day in ("today", "future"):
            for deal in client.get(f"{API}/daily/{days[day]}").get_json()["deals"]:
                opened, entry = deal["commitment"], listed[deal["id"]]
                assert opened["committed_at"] == entry["committed_at"]
                assert dt.datetime.fromisoformat(opened["committed_at"]) <= later
                # the fixtures were stored at the session's start: before the future date
                # began, after today's began
                assert opened["in_advance"] is entry["in_advance"] is (day == "future")
                single = client.get(f"{API}/deals/{deal['id']}").get_json()
                assert single["commitment"] == opened
                seen.add(opened["in_advance"])
        assert seen == {True, False}
    finally:
        forget(db_path)


def test_in_advance_is_before_the_date_begins_at_utc_plus_14() -> None:
    from dailydeal.daily.fairness import in_advance

    # 2026-12-01 begins at UTC+14: 2026-11-30 10:00 UTC
    assert in_advance("2026-12-01", "2026-11-30T09:59:59+00:00")
    assert not in_advance("2026-12-01", "2026-11-30T10:00:00+00:00")
    assert not in_advance("2026-12-01", "2026-11-30T20:00:00+10:00")  # 10:00 UTC
    assert in_advance("2026-12-01", "2026-11-24T00:05:00")  # no offset: UTC
    assert not in_advance("2026-12-01", None)


def test_a_commitment_never_changes(
    db_path: Path, deal_rows: list[dict[str, Any]]
) -> None:
    db = store.open_db(db_path)
    row = deal_rows[0]
    before = store.get_deal(db, row["id"])
    assert before is not None and before["commitment"]
    # storing the same deal again changes nothing (INSERT OR IGNORE) ...
    assert store.insert_deal(db, {**row, "nonce": "00" * 32}) is False
    # ... and the database itself refuses an update of the commitment or what it binds
    for sql, args in [
        ("UPDATE deals SET commitment = ? WHERE id = ?", ["ab" * 32, row["id"]]),
        ("UPDATE deals SET nonce = ? WHERE id = ?", ["cd" * 32, row["id"]]),
        ("UPDATE deals SET seed = ? WHERE id = ?", ["7", row["id"]]),
        ("UPDATE deals SET committed_at = ? WHERE id = ?", ["2000-01-01", row["id"]]),
    ]:
        with pytest.raises(sqlite3.IntegrityError, match="never changes"):
            with db.conn:
                db.execute(sql, args)
    db.execute("UPDATE deals SET rating = rating WHERE id = ?", [row["id"]])  # others may
    db.close()
    again = store.open_db(db_path)  # reopening (migrations) changes nothing either
    after = store.get_deal(again, row["id"])
    assert after is not None
    assert (after["nonce"], after["commitment"], after["committed_at"]) == (
        before["nonce"], before["commitment"], before["committed_at"]
    )
    again.close()


def test_migration_commits_to_rows_stored_before(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite_utils.Database(path)
    store.migrations.apply(old, stop_before="m003_deal_commitments")  # an older release
    row = store.deal_row(dt.date(2026, 12, 1), "accordion", "standard", "easy", 42,
                         rating=10.0, solution=["d"], version="old")
    assert store.insert_deal(old, row)
    assert "commitment" not in old["deals"].columns_dict
    old.close()
    db = store.open_db(path)
    got = store.get_deal(db, row["id"])
    assert got is not None and re.fullmatch(r"[0-9a-f]{64}", got["nonce"])
    assert got["commitment"] == independent_commitment(row["id"], 42, got["nonce"])
    db.close()


def test_generated_deals_commit_with_a_nonce_from_the_secret(tmp_path: Path) -> None:
    secret = "9f8e4c1a7b2d6e0f3a5c8b1d4e7f0a2c6b9d3e5f1a4c7e0b2d8f6a3c5e9b1d7f"
    settings = Settings(
        db_path=tmp_path / "g.db", secret=secret, games=(("accordion", "standard"),),
        max_attempts=8, solve_max_nodes=20_000,
    )
    day = dt.date(2030, 3, 1)
    fill_days(settings, day, 1)
    db = store.open_db(settings.db_path)
    rows = store.deals_on(db, day)
    assert rows
    for r in rows:
        nonce = hmac.new(secret.encode(), f"dailydeal-nonce-v1|{r['id']}".encode(),
                         hashlib.sha256).hexdigest()
        assert r["nonce"] == nonce
        assert r["commitment"] == independent_commitment(r["id"], r["seed"], nonce)
    before = {r["id"]: r["commitment"] for r in rows}
    db.close()
    fill_days(settings, day, 1)  # a second run keeps every stored commitment
    db = store.open_db(settings.db_path)
    assert {r["id"]: r["commitment"] for r in store.deals_on(db, day)} == before
    db.close()


def _snippet(language: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", DOC, re.S)
    assert len(blocks) == 1, f"docs/fairness.md should hold one {language} snippet"
    return blocks[0]


@pytest.fixture
def real_answers(
    client: FlaskClient, days: dict[str, dt.date], tmp_path: Path
) -> list[tuple[Path, Path]]:
    """(deal.json, commitments.json) of today's deal of each game, as the API answers."""
    commitments = tmp_path / "commitments.json"
    commitments.write_bytes(
        client.get(f"{API}/commitments?from={days['today']}&to={days['future']}").data
    )
    out = []
    for deal in client.get(f"{API}/daily/{days['today']}").get_json()["deals"]:
        if deal["tier"] != "hard":
            continue
        path = tmp_path / f"{deal['id']}.json"
        path.write_bytes(client.get(f"{API}/deals/{deal['id']}").data)
        out.append((path, commitments))
    assert len(out) == 3
    return out


def test_python_snippet_checks_a_real_answer(
    real_answers: list[tuple[Path, Path]], tmp_path: Path
) -> None:
    script = tmp_path / "check.py"
    script.write_text(_snippet("python"))
    for deal, commitments in real_answers:
        ok = subprocess.run([sys.executable, str(script), str(deal), str(commitments)],
                            capture_output=True, text=True, timeout=60)
        assert ok.returncode == 0 and ok.stdout.startswith("OK "), ok.stderr
    # a forged deal (another card order) is refused
    forged = json.loads(real_answers[0][0].read_text())
    text = forged["commitment"]["text"].split("|")
    cards = text[3].split(" ")
    cards[0], cards[1] = cards[1], cards[0]
    forged["commitment"]["text"] = "|".join([*text[:3], " ".join(cards), text[4]])
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(forged))
    no = subprocess.run([sys.executable, str(script), str(bad), str(real_answers[0][1])],
                        capture_output=True, text=True, timeout=60)
    assert no.returncode != 0 and "not the one committed to" in no.stderr


def test_javascript_snippet_checks_a_real_answer(
    real_answers: list[tuple[Path, Path]], tmp_path: Path
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JavaScript snippet is not run")
    script = tmp_path / "check.mjs"
    script.write_text(_snippet("javascript"))
    for deal, commitments in real_answers:
        ok = subprocess.run([node, str(script), str(deal), str(commitments)],
                            capture_output=True, text=True, timeout=60)
        assert ok.returncode == 0 and ok.stdout.startswith("OK "), ok.stderr
        digest = json.loads(deal.read_text())["commitment"]["sha256"]
        assert ok.stdout.split()[-1] == digest


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is absent")
def test_one_commitment_time_per_commitment_in_redis(tmp_path: Path) -> None:
    """daily/shared.py: the first time recorded wins, is never overwritten, and is the one
    a row stores; a commitment of its own (another key) keeps its own time."""
    from helpers import stop
    from helpers.cluster import start_redis

    from dailydeal.daily import shared

    redis, url = start_redis(tmp_path)
    times = shared.CommitTimes(url)
    try:
        times.record([{"commitment": "c1", "committed_at": "2026-11-24T10:05:00+00:00"},
                      {"commitment": None, "committed_at": "2026-11-24T10:05:00+00:00"}])
        assert times.first("c1", "2026-12-01T10:00:00+00:00") == "2026-11-24T10:05:00+00:00"
        assert times.first("c2", "2026-12-01T10:00:01+00:00") == "2026-12-01T10:00:01+00:00"
        times.record([{"commitment": "c2", "committed_at": "2026-11-01T00:00:00+00:00"}])
        assert times.first("c2", "2026-12-02T00:00:00+00:00") == "2026-12-01T10:00:01+00:00"
        db = store.open_db(tmp_path / "d.db")
        row = store.deal_row(dt.date(2026, 12, 1), "accordion", "standard", "easy", 42,
                             rating=10.0, solution=["d"], version="v", secret=b"s" * 32)
        assert store.insert_deal(db, row)  # a node without Redis: its own time
        first = store.get_deal(db, row["id"])
        assert first is not None
        made = {"commitment": first["commitment"], "committed_at": "2026-11-20T08:00:00+00:00"}
        times.record([made])  # another node's earlier row of the same commitment
        other = store.open_db(tmp_path / "e.db")
        assert store.insert_deal(other, row, first=times.first)
        got = store.get_deal(other, row["id"])
        assert got is not None and got["commitment"] == first["commitment"]
        assert got["committed_at"] == "2026-11-20T08:00:00+00:00" != got["created_at"]
        db.close()
        other.close()
    finally:
        times.close()
        stop(redis)
