"""Results of verified plays: stored once per client and deal, never double counted, no
address or client id stored, statistics rebuilt from the rows, rate limited per address."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from dailydeal.daily import results, store

API = "/api/v1"


def today_id(days: dict[str, dt.date], game: str = "pyramid", tier: str = "easy") -> str:
    return f"{days['today']}-{game}-{tier}"


def post(http: FlaskClient, id_: str, **body: Any) -> Any:
    return http.post(f"{API}/deals/{id_}/results", json=body)


def test_a_win_counts_once(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    id_ = today_id(days)
    me = str(uuid.uuid4())
    won = post(client, id_, client=me, moves=solutions["pyramid"], hints=2, seconds=95)
    assert won.status_code == 201, won.get_data(as_text=True)
    body = won.get_json()
    assert body["counted"] is True
    assert body["result"] == {"won": True, "state": "won", "moves": len(solutions["pyramid"]),
                              "score": 0, "hints": 2, "seconds": 95}
    # the same post again (a retry): 200, not counted twice
    retry = post(client, id_, client=me, moves=solutions["pyramid"], hints=2, seconds=96)
    assert retry.status_code == 200 and retry.get_json()["counted"] is False
    # another play by the same client: 409 with the result that counts
    other = post(client, id_, client=me, moves=solutions["pyramid"][:3])
    assert other.status_code == 409
    assert other.get_json()["result"]["won"] is True
    stats = client.get(body["links"]["stats"]).get_json()
    assert (stats["plays"], stats["wins"], stats["win_rate"]) == (1, 1, 1.0)
    assert stats["winning_moves"] == [{"moves": len(solutions["pyramid"]), "count": 1}]
    assert stats["best"] == len(solutions["pyramid"]) and stats["wins_without_hints"] == 0
    assert stats["solution_length"] == len(solutions["pyramid"]) and stats["final"] is False


def test_stats_count_players_not_posts(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    id_ = today_id(days, "accordion")
    win = solutions["accordion"]
    for i in range(3):
        assert post(client, id_, client=f"winner-{i:012d}", moves=win).status_code == 201
    # a player who gave up half-way, and one who left out the Accordion deals (lazy)
    lazy = [m for m in win if m != "d"]
    assert post(client, id_, client="quitter-0000000000", moves=win[:20]).status_code == 201
    assert post(client, id_, client="lazy-dealer-000000", moves=lazy).status_code == 201
    resp = client.get(f"{API}/deals/{id_}/stats")
    stats = resp.get_json()
    assert (stats["plays"], stats["wins"], stats["win_rate"]) == (5, 4, 0.8)
    # the lazy list counts the deals the verifier made: the same length as the others
    assert stats["winning_moves"] == [{"moves": len(win), "count": 4}]
    assert "max-age=30" in resp.headers["Cache-Control"] and resp.headers.get("ETag")


def test_bad_results_are_not_stored(
    client: FlaskClient, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "gaps")
    good: dict[str, Any] = {"client": "c" * 20, "moves": solutions["gaps"]}
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({**good, "client": "short"}, 400, "client"),
        ({**good, "client": "has spaces in it!!"}, 400, "client"),
        ({"client": "c" * 20}, 400, "moves"),
        ({**good, "hints": -1}, 400, "hints"),
        ({**good, "hints": True}, 400, "hints"),
        ({**good, "seconds": "soon"}, 400, "seconds"),
        ({**good, "moves": ["ZZ"]}, 422, "illegal"),
    ]
    for body, status, needle in cases:
        got = problem(post(client, id_, **body), status)
        assert needle in got["detail"], got
    problem(client.post(f"{API}/deals/{id_}/results", data="x", content_type="text/plain"), 415)
    problem(post(client, f"{days['future']}-gaps-easy", **good), 404)
    assert client.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 0


def test_results_close_when_the_solution_opens(
    client: FlaskClient, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "pyramid").replace(str(days["today"]), str(days["past"]))
    body = problem(post(client, id_, client="late-player-000000", moves=solutions["pyramid"]),
                   403)
    assert "closed" in body["detail"] and body["closed_at"]
    resp = client.get(f"{API}/deals/{id_}/stats")
    assert resp.get_json()["final"] is True and "86400" in resp.headers["Cache-Control"]


def test_no_client_id_or_address_is_stored(
    client: FlaskClient, days: dict[str, dt.date], db_path: Path,
    solutions: dict[str, list[str]],
) -> None:
    me = "my-secret-client-" + uuid.uuid4().hex
    id_ = today_id(days)
    resp = client.post(f"{API}/deals/{id_}/results", json={"client": me,
                       "moves": solutions["pyramid"]}, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert resp.status_code == 201
    db = store.open_db(db_path)
    assert set(db["results"].columns_dict) == {
        "deal_id", "client", "won", "state", "moves", "score", "hints", "seconds",
        "move_list", "created_at",
    }
    db.close()
    for path in db_path.parent.glob(db_path.name + "*"):
        data = path.read_bytes()
        assert me.encode() not in data and b"203.0.113.9" not in data
    # the stored hash is keyed per deal: one client's rows on two deals do not match
    db = store.open_db(db_path)
    salt = results.salt(db)
    assert results.client_hash(salt, id_, me) != results.client_hash(salt, "other", me)
    assert [r["client"] for r in db.query("SELECT client FROM results")] == [
        results.client_hash(salt, id_, me)
    ]
    db.close()


def test_stats_can_be_rebuilt_from_the_stored_moves(
    client: FlaskClient, days: dict[str, dt.date], db_path: Path,
    solutions: dict[str, list[str]],
) -> None:
    id_ = today_id(days, "gaps")
    win = solutions["gaps"]
    post(client, id_, client="a" * 16, moves=win, hints=1)
    post(client, id_, client="b" * 16, moves=win[:10])
    db = store.open_db(db_path)
    deal = store.get_deal(db, id_)
    assert deal is not None
    rebuilt = results.reverify(db, deal)
    assert rebuilt.pop("differ") == 0
    assert rebuilt == results.deal_stats(db, id_)
    assert rebuilt["plays"] == 2 and rebuilt["wins"] == 1
    db.close()


def test_results_have_a_budget_per_address(
    app: Flask, days: dict[str, dt.date], problem: Any, solutions: dict[str, list[str]]
) -> None:
    app.config["RESULTS_RATE_LIMIT"] = "2 per hour"
    client = app.test_client()
    id_ = today_id(days)
    for i in range(2):
        assert post(client, id_, client=f"player-{i:012d}",
                    moves=solutions["pyramid"]).status_code == 201
    body = problem(post(client, id_, client="player-000000000099",
                        moves=solutions["pyramid"]), 429)
    assert "2 per 1 hour" in body["limit"]
    assert client.get(f"{API}/deals/{id_}/stats").get_json()["plays"] == 2
