"""Results of verified plays: counted only for a play the server saw begin (a signed,
single-use token, no sooner than a person plays), once per client and deal, with the
server's hints and time; aggregates kept at write time and rebuilt by replay; move lists
dropped after the retention; no address or client id stored; a store that cannot be
written is a 503 that heals by itself."""

from __future__ import annotations

import datetime as dt
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.clock import Clock

from dailydeal import results
from dailydeal.config import Settings
from dailydeal.daily import store
from dailydeal.results import plays, sqlite_store
from dailydeal.web import create_app
from dailydeal.web import results as web_results
from dailydeal.web.db import forget
from dailydeal.web.extensions import SETTINGS

API = "/api/v1"


@pytest.fixture
def clock(now: dt.datetime) -> Clock:
    return Clock(now)


@pytest.fixture
def app(db_path: Path, clock: Clock) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "db_path": db_path, "NOW": clock,
                      "counted_rate_limit": "1000 per minute"})
    yield app
    forget(db_path)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def today_id(days: dict[str, dt.date], game: str = "pyramid", tier: str = "easy") -> str:
    return f"{days['today']}-{game}-{tier}"


def begin(http: FlaskClient, id_: str, address: str = "127.0.0.1") -> str:
    resp = http.post(f"{API}/deals/{id_}/plays", environ_base={"REMOTE_ADDR": address})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    assert resp.headers["Cache-Control"] == "no-store"
    token: str = resp.get_json()["play"]
    return token


def post(http: FlaskClient, id_: str, address: str = "127.0.0.1", **body: Any) -> Any:
    return http.post(f"{API}/deals/{id_}/results", json=body,
                     environ_base={"REMOTE_ADDR": address})


def play_and_post(http: FlaskClient, clock: Clock, id_: str, client: str,
                  moves: list[str], address: str = "127.0.0.1", **body: Any) -> Any:
    token = begin(http, id_, address)
    clock.advance(plays.min_seconds(len(moves)) + 1)
    return post(http, id_, address, client=client, moves=moves, play=token, **body)


def test_a_play_counts_once_with_the_servers_hints_and_time(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date],
    solutions: dict[str, list[str]], problem: Any,
) -> None:
    id_ = today_id(days)
    win = solutions["pyramid"]
    begun = client.post(f"{API}/deals/{id_}/plays").get_json()
    token = begun["play"]
    assert begun["expires"] > begun["issued"] and begun["min_seconds_per_move"] == 0.5
    # two hints asked with the token (a GET and a POST); without it, one on the line from
    # this network (counted: issue 39) and one from another network (not this play's)
    assert client.get(f"{API}/deals/{id_}/hint?moves=&play={token}").status_code == 200
    assert client.post(f"{API}/deals/{id_}/hint",
                       json={"moves": win[:2], "play": token}).status_code == 200
    bare = client.get(f"{API}/deals/{id_}/hint?moves={quote(' '.join(win[:3]))}")
    assert bare.status_code == 200
    assert bare.headers["Cache-Control"] == "private, max-age=3600"  # noted: no shared cache
    assert client.get(f"{API}/deals/{id_}/hint?moves=",
                      environ_base={"REMOTE_ADDR": "203.0.113.77"}).status_code == 200
    me = str(uuid.uuid4())
    # sooner than a person plays: accepted at once (202), counted by the server when the
    # play's least time is over, with nothing more to send (issue 38)
    clock.advance(3)
    need = plays.min_seconds(len(win))
    early = post(client, id_, client=me, moves=win, play=token, seconds=1)
    assert early.status_code == 202, early.get_data(as_text=True)
    body = early.get_json()
    assert (body["counted"], body["pending"]) == (False, True)
    issued = dt.datetime.fromisoformat(begun["issued"])
    assert dt.datetime.fromisoformat(body["counts_at"]) == issued + dt.timedelta(seconds=need)
    assert body["result"] == {"won": True, "state": "won", "moves": len(win), "score": 0,
                              "hints": 3, "seconds": 3, "reported_seconds": 1}
    # the answer's statistics hold this play; everybody's have it pending until its time
    assert (body["stats"]["plays"], body["stats"]["wins"], body["stats"]["pending"]) == (1, 1, 0)
    assert body["stats"]["winning_moves"] == [{"moves": len(win), "count": 1}]
    waiting = client.get(f"{API}/deals/{id_}/stats").get_json()
    assert (waiting["plays"], waiting["pending"]) == (0, 1)
    # the same post again (a retry, through any node): 200, still pending, not twice
    retry = post(client, id_, client=me, moves=win, play=token, seconds=96)
    assert retry.status_code == 200 and retry.get_json()["pending"] is True
    clock.advance(need - 3)
    # counted at its time by the next request that looks (or the scheduler's job)
    stats = client.get(body["links"]["stats"]).get_json()
    assert (stats["plays"], stats["wins"], stats["win_rate"], stats["pending"]) == (1, 1, 1.0, 0)
    assert stats["winning_moves"] == [{"moves": len(win), "count": 1}]
    assert stats["best"] == len(win) and stats["wins_without_hints"] == 0
    assert stats["solution_length"] == len(win) and stats["final"] is False
    again = post(client, id_, client=me, moves=win, play=token)
    assert again.status_code == 200
    assert (again.get_json()["counted"], again.get_json()["pending"]) == (False, False)
    assert again.get_json()["stats"] == {k: v for k, v in stats.items()}
    # another play of the same client: 409 with the result that counts
    other = begin(client, id_)
    clock.advance(60)
    twice = problem(post(client, id_, client=me, moves=win[:3], play=other), 409)
    assert twice["reason"] == "client-counted" and twice["result"]["won"] is True
    # a hint after the result is not counted on the spent play
    assert client.get(f"{API}/deals/{id_}/hint?moves=&play={token}").status_code == 200


def test_a_result_in_time_counts_at_once_with_its_statistics(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "gaps")
    resp = play_and_post(client, clock, id_, "on-time-0000000000", solutions["gaps"])
    assert resp.status_code == 201
    body = resp.get_json()
    assert (body["counted"], body["pending"]) == (True, False)
    assert body["stats"]["plays"] == 1 and body["stats"]["pending"] == 0
    assert body["stats"] == client.get(f"{API}/deals/{id_}/stats").get_json()


def test_a_hint_with_a_play_is_never_kept_by_a_shared_cache(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    """Issue 39: a GET hint with ``&play=`` was ``public, max-age=3600``: a shared cache
    answering it again gave hints the play never counted."""
    id_ = today_id(days)
    token = begin(client, id_)
    counted = client.get(f"{API}/deals/{id_}/hint?moves=&play={token}")
    assert counted.status_code == 200
    assert counted.headers["Cache-Control"] == "private, no-store"
    # without a token, an open deal's hint is noted for the network (issue 39): no shared
    # cache either; once the results are closed, nothing counts and any cache may keep it
    noted = client.get(f"{API}/deals/{id_}/hint?moves=")
    assert noted.headers["Cache-Control"] == "private, max-age=3600"
    past = id_.replace(str(days["today"]), str(days["past"]))
    public = client.get(f"{API}/deals/{past}/hint?moves=")
    assert public.headers["Cache-Control"] == "public, max-age=3600"


def test_forged_and_reused_plays_do_not_count(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "gaps")
    win = solutions["gaps"]
    token = begin(client, id_)
    elsewhere = begin(client, today_id(days, "gaps", "hard"))
    clock.advance(3600)
    prefix, tid, issued, net, sig = token.split(".")
    other_net = plays.network_tag(b"k" * 32, id_, "192.0.2.1/32")
    cases: list[tuple[Any, int, str]] = [
        (None, 422, "no-play"),
        ("x" * 60, 422, "bad-play"),
        (elsewhere, 422, "bad-play"),  # a play of another deal
        (f"{prefix}.{tid}.{int(issued) - 3600}.{net}.{sig}", 422, "bad-play"),  # older
        (f"{prefix}.{'A' * 22}.{issued}.{net}.{sig}", 422, "bad-play"),  # another id
        (f"{prefix}.{tid}.{issued}.{other_net}.{sig}", 422, "bad-play"),  # another network
        (f"p1.{tid}.{issued}.{sig}", 422, "bad-play"),  # an older version's shape
        (12345, 422, "bad-play"),
    ]
    for value, status, reason in cases:
        body = {"client": "forger-" + uuid.uuid4().hex, "moves": win}
        if value is not None:
            body["play"] = value
        got = problem(post(client, id_, **body), status)
        assert got["reason"] == reason and got["counted"] is False, got
        assert got["detail"] and "no-store" in client.post(
            f"{API}/deals/{id_}/results", json=body).headers["Cache-Control"]
    # an empty move list is no play; a give-up after a few moves is a play not won
    empty = problem(post(client, id_, client="quitter-000000000000", moves=[], play=token),
                    422)
    assert empty["reason"] == "empty"
    lost = post(client, id_, client="quitter-000000000000", moves=win[:3], play=token)
    assert lost.status_code == 201 and lost.get_json()["result"]["won"] is False
    # the token is spent: another client cannot count with it
    reused = problem(post(client, id_, client="thief-0000000000000", moves=win, play=token),
                     409)
    assert reused["reason"] == "play-used"
    stats = client.get(f"{API}/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["wins"]) == (1, 0)
    # a forged token on a hint is refused too (a hint without one is answered)
    problem(client.get(f"{API}/deals/{id_}/hint?moves=&play=nope"), 422)


def test_a_network_counts_one_result_a_turn_and_none_waits_for_a_retry(
    app: Flask, clock: Clock, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    """Issues 38 and 39: each result is taken at once; a network's results of a deal count
    one every period / amount of DAILYDEAL_COUNTED_LIMIT, by the server; IPv6 addresses
    of one /64 are one network; a token counts in the turn of the network that took it."""
    app.extensions[SETTINGS].counted_rate_limit = "1 per minute"
    http = app.test_client()
    id_ = today_id(days, "accordion")
    win = solutions["accordion"]
    office = "198.51.100.7"
    tokens = [begin(http, id_, office) for _ in range(5)]
    v6 = [begin(http, id_, f"2001:db8:5:6::{i + 1}") for i in range(3)]
    clock.advance(3600)
    start = clock.t
    at = []
    for i, token in enumerate(tokens):
        resp = post(http, id_, office, client=f"office-{i:012d}", moves=win, play=token)
        assert resp.status_code == (201 if i == 0 else 202), resp.get_data(as_text=True)
        assert resp.get_json()["stats"]["plays"] == 1 + (i > 0)  # its own view
        at.append(dt.datetime.fromisoformat(resp.get_json()["counts_at"]))
    assert at == [start + dt.timedelta(minutes=i) for i in range(5)]
    # another network has its turns of its own; a /64 is one network, posted from anywhere
    assert play_and_post(http, clock, id_, "home-0000000000000", win,
                         "203.0.113.5").status_code == 201
    clock.t = start
    codes = [post(http, id_, "192.0.2.99" if i == 2 else f"2001:db8:5:6::{i + 9}",
                  client=f"phone-{i:013d}", moves=win, play=token).status_code
             for i, token in enumerate(v6)]
    assert codes == [201, 202, 202]
    assert http.get(f"{API}/deals/{id_}/stats").get_json()["pending"] == 6
    clock.advance(120)
    stats = http.get(f"{API}/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["pending"]) == (3 + 1 + 3, 2)  # office, home, /64
    clock.advance(3600)
    assert http.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 9
    # a turn after the results close: refused, nothing stored, the play unspent
    app.extensions[SETTINGS].counted_rate_limit = "1 per 3 day"
    late = [begin(http, id_, office) for _ in range(2)]
    clock.advance(60)
    # the office's last turn was 4 minutes after start: 3 days later is past the close
    refused = problem(post(http, id_, office, client="office-late-000000", moves=win,
                           play=late[0]), 429)
    assert refused["reason"] == "counted-limit" and refused["counts_at"]
    assert "Retry-After" not in refused
    assert http.get(f"{API}/deals/{id_}/stats").get_json()["pending"] == 0


def test_plays_stats_and_posts_have_budgets_per_address(
    app: Flask, days: dict[str, dt.date], problem: Any,
) -> None:
    app.extensions[SETTINGS].plays_rate_limit = "2 per day"
    app.extensions[SETTINGS].stats_rate_limit = "2 per minute"
    app.extensions[SETTINGS].results_rate_limit = "2 per minute"
    http = app.test_client()
    id_ = today_id(days)
    for _ in range(2):
        begin(http, id_)
        assert http.get(f"{API}/deals/{id_}/stats").status_code == 200
        problem(post(http, id_, client="c" * 20, moves=["d"]), 422)
    assert "2 per 1 day" in problem(http.post(f"{API}/deals/{id_}/plays"), 429)["limit"]
    problem(http.get(f"{API}/deals/{id_}/stats"), 429)
    problem(post(http, id_, client="c" * 20, moves=["d"]), 429)


def test_bad_results_are_not_stored(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "gaps")
    token = begin(client, id_)
    clock.advance(3600)
    good: dict[str, Any] = {"client": "c" * 20, "moves": solutions["gaps"], "play": token}
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({**good, "client": "short"}, 400, "client"),
        ({**good, "client": "has spaces in it!!"}, 400, "client"),
        ({"client": "c" * 20, "play": token}, 400, "moves"),
        ({**good, "seconds": -1}, 400, "seconds"),
        ({**good, "seconds": "soon"}, 400, "seconds"),
        ({**good, "moves": ["ZZ"]}, 422, "illegal"),
    ]
    for body, status, needle in cases:
        got = problem(post(client, id_, **body), status)
        assert needle in got["detail"], got
    refused = client.post(f"{API}/deals/{id_}/results", data="x", content_type="text/plain")
    problem(refused, 415)
    assert refused.headers["Cache-Control"] == "no-store"  # about one client's post
    problem(post(client, f"{days['future']}-gaps-easy", **good), 404)
    problem(client.post(f"{API}/deals/{days['future']}-gaps-easy/plays"), 404)
    assert client.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 0
    # the token was not spent by the refusals
    assert post(client, id_, **good).status_code == 201


def test_results_and_plays_close_when_the_solution_opens(
    client: FlaskClient, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "pyramid").replace(str(days["today"]), str(days["past"]))
    body = problem(post(client, id_, client="late-player-000000", moves=solutions["pyramid"]),
                   403)
    assert "closed" in body["detail"] and body["closed_at"]
    assert problem(client.post(f"{API}/deals/{id_}/plays"), 403)["closed_at"]
    resp = client.get(f"{API}/deals/{id_}/stats")
    assert resp.get_json()["final"] is True and "86400" in resp.headers["Cache-Control"]


def test_no_client_id_or_address_is_stored(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date], db_path: Path,
    solutions: dict[str, list[str]],
) -> None:
    me = "my-secret-client-" + uuid.uuid4().hex
    id_ = today_id(days)
    resp = play_and_post(client, clock, id_, me, solutions["pyramid"], "203.0.113.9")
    assert resp.status_code == 201
    db = store.open_db(db_path)
    assert set(db["results"].columns_dict) == {
        "deal_id", "client", "won", "state", "moves", "score", "hints", "seconds",
        "reported_seconds", "move_list", "created_at", "counted", "counts_at",
    }
    assert set(db["plays"].columns_dict) == {"id", "deal_id", "hints", "used"}
    assert set(db["count_slots"].columns_dict) == {"deal_id", "network", "last_at"}
    db.close()
    for path in db_path.parent.glob(db_path.name + "*"):
        data = path.read_bytes()
        assert me.encode() not in data and b"203.0.113.9" not in data
    # the stored hash is keyed per deal: one client's rows on two deals do not match
    db = store.open_db(db_path)
    salt = sqlite_store.salt(db)
    assert results.client_hash(salt, id_, me) != results.client_hash(salt, "other", me)
    assert [r["client"] for r in db.query("SELECT client FROM results")] == [
        results.client_hash(salt, id_, me)
    ]
    db.close()


def test_stats_are_aggregates_kept_at_write_time_and_rebuilt_by_replay(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date], db_path: Path,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "accordion")
    win = solutions["accordion"]
    for i in range(3):
        assert play_and_post(client, clock, id_, f"winner-{i:012d}", win).status_code == 201
    lazy = [m for m in win if m != "d"]  # the verifier makes the Accordion deals
    assert play_and_post(client, clock, id_, "quitter-0000000000", win[:20]).status_code == 201
    assert play_and_post(client, clock, id_, "lazy-dealer-000000", lazy).status_code == 201
    stats = client.get(f"{API}/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["wins"], stats["win_rate"]) == (5, 4, 0.8)
    assert stats["winning_moves"] == [{"moves": len(win), "count": 4}]
    db = store.open_db(db_path)
    deal = store.get_deal(db, id_)
    assert deal is not None
    kept = sqlite_store.deal_stats(db, id_)
    assert {k: stats[k] for k in kept} == kept
    again = sqlite_store.reverify(db, deal)
    assert again.pop("differ") == 0 and again == kept
    # /stats reads the aggregates only: wrong aggregates show, until rebuilt by replay
    with db.conn:
        db.execute("UPDATE deal_stats SET plays = 999 WHERE deal_id = ?", [id_])
        db.execute("DELETE FROM deal_winning_moves WHERE deal_id = ?", [id_])
    assert client.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 999
    rebuilt = sqlite_store.rebuild(db, deal)
    assert rebuilt.pop("differ") == 0 and rebuilt == kept == sqlite_store.deal_stats(db, id_)
    db.close()


def test_migration_fills_the_aggregates_of_results_already_stored(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "m.db")
    rows = [("d1", "a", 1, 30, 0), ("d1", "b", 1, 30, 2), ("d1", "c", 0, 10, 0),
            ("d2", "a", 1, 40, 0)]
    with db.conn:
        db.execute("DELETE FROM deal_stats")
        db.execute(f"DELETE FROM {store.migrations.migrations_table}"
                   " WHERE name = 'm005_plays_and_stats'")
        for deal_id, key, won, moves, hints in rows:
            db.execute("INSERT INTO results (deal_id, client, won, state, moves, score, hints,"
                       " move_list, created_at) VALUES (?, ?, ?, 'x', ?, 0, ?, '[]', 'now')",
                       [deal_id, key, won, moves, hints])
    db.close()
    db = store.open_db(tmp_path / "m.db")  # applies m005 again
    assert sqlite_store.deal_stats(db, "d1") == results.stats_of([(True, 30, 0), (True, 30, 2),
                                                             (False, 10, 0)])
    assert sqlite_store.deal_stats(db, "d2")["winning_moves"] == [{"moves": 40, "count": 1}]
    db.close()


def test_old_move_lists_are_dropped_after_the_retention_keeping_the_numbers(
    db_path: Path, now: dt.datetime, days: dict[str, dt.date],
    solutions: dict[str, list[str]], problem: Any,
) -> None:
    past = today_id(days, "gaps").replace(str(days["today"]), str(days["past"]))
    clock = Clock(dt.datetime.combine(days["past"], dt.time(12), dt.UTC))
    config = {"db_path": db_path, "NOW": clock, "counted_rate_limit": "1000 per minute",
              "results_retention_days": 1.0}
    http = create_app(config).test_client()
    web_results._pruned.clear()
    win = solutions["gaps"]
    for i in range(2):
        assert play_and_post(http, clock, past, f"old-player-{i:08d}", win[: 5 + i * 90],
                             ).status_code == 201
    spare = begin(http, past)  # a play never finished: dropped once results close
    before = http.get(f"{API}/deals/{past}/stats").get_json()
    forget(db_path)
    # days later (past + 3: its solution opened > 1 day ago), a result on today's deal
    clock.t = now
    web_results._pruned.clear()
    assert play_and_post(http, clock, today_id(days, "gaps"), "new-player-00000000",
                         win).status_code == 201
    db = store.open_db(db_path)
    assert db.execute("SELECT count(*) FROM results WHERE deal_id = ?", [past]).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM results").fetchone()[0] == 1  # today's stays
    assert db.execute("SELECT count(*) FROM plays WHERE deal_id = ?", [past]).fetchone()[0] == 0
    after = http.get(f"{API}/deals/{past}/stats").get_json()
    assert after == {**before, "final": True} and after["plays"] == 2
    deal = store.get_deal(db, past)
    assert deal is not None
    with pytest.raises(ValueError, match="final"):
        sqlite_store.rebuild(db, deal)
    db.close()
    assert spare


def test_a_store_that_cannot_be_written_is_a_503_that_heals_by_itself(
    app: Flask, clock: Clock, db_path: Path, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    http = app.test_client()
    id_ = today_id(days, "gaps")
    win = solutions["gaps"]
    tokens = [begin(http, id_) for _ in range(3)]
    clock.advance(3600)
    # locked: another process holds the write lock
    blocker = sqlite3.connect(db_path, timeout=1)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        locked = problem(post(http, id_, client="locked-00000000000", moves=win,
                              play=tokens[0]), 503)
        assert "locked" in locked["detail"] and locked["status"] == 503
    finally:
        blocker.rollback()
        blocker.close()
    assert post(http, id_, client="locked-00000000000", moves=win,
                play=tokens[0]).status_code == 201
    # read-only: a worker whose connection was opened while the file was read-only (as
    # root, chmod would not stop a write: the connection is opened read-only instead)
    real_connect = sqlite3.connect

    def read_only(path: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real_connect(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    forget(db_path)
    monkeypatch.setattr(sqlite3, "connect", read_only)
    try:
        ro = problem(post(http, id_, client="readonly-000000000", moves=win, play=tokens[1]),
                     503)
        assert "readonly" in ro["detail"] and ro["status"] == 503
        assert http.get(f"{API}/deals/{id_}/stats").status_code == 200  # reads still work
        assert http.get(f"{API}/deals/{id_}").status_code == 200
    finally:
        monkeypatch.undo()
    # ... and once writable again, the next post works, no restart
    clock.advance(1)  # the address's next turn (counted_rate_limit)
    healed = post(http, id_, client="readonly-000000000", moves=win, play=tokens[1])
    assert healed.status_code == 201, healed.get_data(as_text=True)
    assert http.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 2


def test_a_thousand_players_behind_one_address_can_all_begin_and_count(
    db_path: Path, clock: Clock, days: dict[str, dt.date], solutions: dict[str, list[str]],
) -> None:
    """The default budgets (docs/api.md): 1,000 plays of a deal from one address all begin,
    and all their results, posted at once, are taken and counted by the server within the
    day (one a minute: the last 999 minutes after the first), none posted twice."""
    from limits import parse

    # the deal's first hour (its results close 36 hours later)
    clock.t = dt.datetime.combine(days["today"], dt.time(0, 5), dt.UTC)
    assert parse(Settings().plays_rate_limit).amount >= 1000
    http = create_app({"db_path": db_path, "NOW": clock,
                       "results_rate_limit": "100000 per day"}).test_client()
    id_ = today_id(days)
    tokens = [begin(http, id_, "192.0.2.44") for _ in range(1000)]
    clock.advance(3600)
    start = clock.t
    last = start
    for i, token in enumerate(tokens):
        resp = post(http, id_, "192.0.2.44", client=f"colleague-{i:010d}",
                    moves=solutions["pyramid"][:4], play=token)
        assert resp.status_code in (201, 202), resp.get_data(as_text=True)
        last = dt.datetime.fromisoformat(resp.get_json()["counts_at"])
    assert last - start == dt.timedelta(minutes=999)
    clock.t = last
    stats = http.get(f"{API}/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["pending"]) == (1000, 0)


def test_pending_results_survive_a_restart_and_are_counted_by_the_scheduler_job(
    db_path: Path, clock: Clock, days: dict[str, dt.date], solutions: dict[str, list[str]],
) -> None:
    """Issue 38: a result taken but not counted yet is a row of the SQLite file, so a
    restart (a new app, a fresh connection) loses nothing; the scheduler's minute job
    (``dailydeal.results.due``) counts it at its time with no request at all, once."""
    from dailydeal.results import due

    config = {"db_path": db_path, "NOW": clock, "counted_rate_limit": "1 per minute"}
    http = create_app(dict(config)).test_client()
    id_ = today_id(days, "gaps")
    tokens = [begin(http, id_, "192.0.2.80") for _ in range(3)]
    clock.advance(3600)
    codes = [post(http, id_, "192.0.2.80", client=f"restart-{i:011d}", moves=["QC"],
                  play=t).status_code for i, t in enumerate(tokens)]
    assert codes == [201, 202, 202]
    forget(db_path)  # the worker is gone (kill -9 or a restart)
    settings = Settings(db_path=db_path)
    assert due.count_due(settings, clock.t) == 0  # not their time yet
    clock.advance(60)
    assert due.count_due(settings, clock.t) == 1
    assert due.count_due(settings, clock.t) == 0  # once
    again = create_app(dict(config)).test_client()
    stats = again.get(f"{API}/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["pending"]) == (2, 1)
    clock.advance(60)
    assert again.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 3
    assert due.count_due(settings, clock.t) == 0
    forget(db_path)


def test_budgets_group_addresses_into_networks() -> None:
    from dailydeal.web.extensions import network_of

    assert network_of("198.51.100.7") == "198.51.100.7/32"
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2::ff") \
        == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("::ffff:198.51.100.7") == "198.51.100.7/32"
    assert network_of("198.51.100.7", v4_prefix=24) == "198.51.100.0/24"
    assert network_of("2001:db8:1:2::1", v6_prefix=48) == "2001:db8:1::/48"
    assert network_of("fe80::1%eth0") == "fe80::/64"
    assert network_of("not an address") == "not an address"
    with pytest.raises(Exception, match="DAILYDEAL_NETWORK_V6"):
        Settings(network_v6_prefix=129)


def test_hints_with_a_token_have_a_budget_per_play(
    app: Flask, days: dict[str, dt.date], problem: Any,
) -> None:
    """Issue 39: a thousand players behind one address do not share 20 hints a minute:
    with a token the budget is the play's; without one, the network's."""
    app.extensions[SETTINGS].hint_rate_limit = "2 per minute"
    http = app.test_client()
    id_ = today_id(days)
    for _ in range(3):  # three players of one office, two hints each
        token = begin(http, id_, "192.0.2.90")
        for _ in range(2):
            assert http.get(f"{API}/deals/{id_}/hint?moves=&play={token}",
                            environ_base={"REMOTE_ADDR": "192.0.2.90"}).status_code == 200
        problem(http.get(f"{API}/deals/{id_}/hint?moves=&play={token}",
                         environ_base={"REMOTE_ADDR": "192.0.2.90"}), 429)
    for _ in range(2):
        assert http.get(f"{API}/deals/{id_}/hint?moves=",
                        environ_base={"REMOTE_ADDR": "192.0.2.90"}).status_code == 200
    problem(http.get(f"{API}/deals/{id_}/hint?moves=",
                     environ_base={"REMOTE_ADDR": "192.0.2.90"}), 429)
    # the plays of a network have a ceiling together
    app.extensions[SETTINGS].hint_network_rate_limit = "1 per minute"
    token = begin(http, id_, "192.0.2.91")
    assert http.get(f"{API}/deals/{id_}/hint?moves=&play={token}",
                    environ_base={"REMOTE_ADDR": "192.0.2.91"}).status_code == 200
    problem(http.get(f"{API}/deals/{id_}/hint?moves=&play={begin(http, id_, '192.0.2.91')}",
                     environ_base={"REMOTE_ADDR": "192.0.2.91"}), 429)


def test_a_token_of_the_earlier_shape_still_counts(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date], db_path: Path,
    solutions: dict[str, list[str]],
) -> None:
    """A page loaded before the upgrade holds a ``p1`` token (no network): it still
    counts, in the turns of the network that posts it."""
    db = store.open_db(db_path)
    key = sqlite_store.play_key(db)
    db.close()
    id_ = today_id(days, "gaps")
    issued = int(clock.t.timestamp())
    token = f"p1.{'A' * 22}.{issued}.{plays._signature(key, id_, 'A' * 22, issued)}"
    clock.advance(3600)
    resp = post(client, id_, client="old-page-00000000", moves=solutions["gaps"][:2],
                play=token)
    assert resp.status_code == 201, resp.get_data(as_text=True)
