"""The read side of /api/v1: games, daily deals, deals by id, numbered deals, caching, CORS,
publication dates and problem details."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from flask.testing import FlaskClient

from dailydeal.daily import clock
from dailydeal.games import GAMES, default_variant, new_game
from dailydeal.rating import TIERS

API = "/api/v1"


def test_games_lists_every_game_variant_and_tier(client: FlaskClient) -> None:
    resp = client.get(f"{API}/games")
    assert resp.status_code == 200
    games = {g["name"]: g for g in resp.get_json()["games"]}
    assert set(games) == set(GAMES)
    for name, info in games.items():
        assert info["default_variant"] == default_variant(name)
        assert [v["name"] for v in info["variants"]] == list(GAMES[name])
        assert info["tiers"] == list(TIERS)
        rules = client.get(info["links"]["rules"])
        assert rules.status_code == 200
        assert rules.get_json()["rules"]["notation"]


def test_daily_date_lists_all_deals_without_solutions(
    client: FlaskClient, days: dict[str, dt.date], deal_rows: list[dict[str, Any]]
) -> None:
    day = days["past"]
    resp = client.get(f"{API}/daily/{day}")
    assert resp.status_code == 200
    deals = resp.get_json()["deals"]
    expected = [r for r in deal_rows if r["date"] == day.isoformat()]
    assert sorted(d["id"] for d in deals) == sorted(r["id"] for r in expected)
    for d in deals:
        assert "solution" not in d
        position = new_game(d["game"], int(d["seed"]), d["variant"])
        assert d["deal"] == position.deal_json()
        assert d["solution_length"] > 0
        assert d["links"]["verify"] == f"{API}/deals/{d['id']}/verify"
    # complete day: immutable
    assert "immutable" in resp.headers["Cache-Control"]


def test_daily_game_gives_four_tiers_in_order(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    resp = client.get(f"{API}/daily/{days['today']}/gaps")
    assert resp.status_code == 200
    assert [d["tier"] for d in resp.get_json()["deals"]] == list(TIERS)
    assert {d["game"] for d in resp.get_json()["deals"]} == {"gaps"}


def test_one_daily_deal_and_by_id_agree(client: FlaskClient, days: dict[str, dt.date]) -> None:
    day = days["today"]
    one = client.get(f"{API}/daily/{day}/pyramid/hard")
    assert one.status_code == 200
    body = one.get_json()
    assert (body["date"], body["game"], body["tier"]) == (day.isoformat(), "pyramid", "hard")
    by_id = client.get(body["links"]["self"])
    assert by_id.get_json() == body
    assert by_id.headers["ETag"] == one.headers["ETag"]
    assert body["solution_opens_at"] == clock.iso(clock.solution_opens_at(day))


def test_dated_deal_is_cached_forever_with_strong_etag(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    url = f"{API}/daily/{days['past']}/accordion/easy"
    resp = client.get(url)
    etag = resp.headers["ETag"]
    assert not etag.startswith("W/")
    assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    other = client.get(url, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200


@pytest.mark.parametrize("suffix", ["", "/pyramid", "/pyramid/easy"])
def test_today_redirects_to_the_dated_url(
    client: FlaskClient, suffix: str, days: dict[str, dt.date]
) -> None:
    resp = client.get(f"{API}/daily/today{suffix}")
    assert resp.status_code == 302
    assert resp.headers["Location"] == f"{API}/daily/{days['today']}{suffix}"
    assert resp.headers["Cache-Control"] == "public, max-age=60"
    followed = client.get(f"{API}/daily/today{suffix}", follow_redirects=True)
    assert followed.status_code == 200


def test_today_in_a_time_zone(problem: Any, client: FlaskClient, now: dt.datetime) -> None:
    for tz, offset in (("+14:00", 14), ("-12:00", -12), ("UTC+5", 5)):
        resp = client.get(f"{API}/daily/today?tz={tz.replace('+', '%2B')}")
        assert resp.status_code == 302
        expected = (now + dt.timedelta(hours=offset)).date()
        assert resp.headers["Location"].endswith(expected.isoformat())
    resp = client.get(f"{API}/daily/today?tz=Pacific/Kiritimati")
    assert resp.headers["Location"].endswith((now + dt.timedelta(hours=14)).date().isoformat())
    resp = client.get(f"{API}/daily/today/pyramid/easy?tz=UTC&variant=passes%3D1")
    assert resp.headers["Location"].endswith("/pyramid/easy?variant=passes%3D1")
    problem(client.get(f"{API}/daily/today?tz=Mars/Olympus"), 400)
    problem(client.get(f"{API}/daily/today?tz=%2B15:00"), 400)


def test_future_dates_never_leak(
    problem: Any, client: FlaskClient, days: dict[str, dt.date]
) -> None:
    future = days["future"]
    for url in (
        f"{API}/daily/{future}",
        f"{API}/daily/{future}/gaps",
        f"{API}/daily/{future}/gaps/easy",
        f"{API}/deals/{future}-gaps-easy",
        f"{API}/deals/{future}-gaps-easy/solution",
        f"{API}/deals/{future}-gaps-easy/state",
    ):
        body = problem(client.get(url), 404)
        assert str(future) in body["detail"]  # says which date or id, but nothing of it
        assert "deal" not in body and "seed" not in body
    body = problem(client.post(f"{API}/deals/{future}-gaps-easy/verify", json={"moves": []}), 404)
    # the same answer as for an id that does not exist at all
    missing = problem(client.get(f"{API}/deals/{future}-gaps-nonsense"), 404)
    assert missing.keys() == body.keys()


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/daily/2026-02-30", 400),
        ("/daily/20261201", 400),
        ("/daily/yesterday", 400),
        ("/daily/{today}/chess", 404),
        ("/daily/{today}/gaps/impossible", 404),
        ("/daily/today/chess", 404),
        ("/daily/today/gaps/impossible", 404),
        ("/deals/no-such-deal", 404),
        ("/games/chess/deals/1", 404),
        ("/games/gaps/deals/-1", 400),
        ("/games/gaps/deals/18446744073709551616", 400),
        ("/games/gaps/deals/12abc", 400),
        ("/games/gaps/deals/1?variant=redeals=99", 400),
        ("/nothing/here", 404),
        ("/daily/{old}", 404),
    ],
)
def test_bad_reads_are_problems(
    problem: Any, client: FlaskClient, url: str, status: int, days: dict[str, dt.date], db_path: Any
) -> None:
    if "{old}" in url:  # a published date with nothing stored: delete the rows first
        import sqlite3

        with sqlite3.connect(db_path) as conn:
            conn.execute("DELETE FROM deals WHERE date = ?", [days["old"].isoformat()])
    problem(client.get(API + url.format(today=days["today"], old=days["old"])), status)


def test_unknown_path_outside_api_is_a_problem_too(problem: Any, client: FlaskClient) -> None:
    problem(client.get("/nowhere"), 404)  # "/" is the daily page (pages.py)
    problem(client.get("/static/x.js"), 404)


def test_405_lists_allowed_methods(
    problem: Any, client: FlaskClient, days: dict[str, dt.date]
) -> None:
    body = problem(client.delete(f"{API}/deals/{days['past']}-gaps-easy/verify"), 405)
    assert body["allow"] == ["POST"] or "POST" in body["allow"]
    resp = client.put(f"{API}/games")
    assert "GET" in resp.headers["Allow"]
    problem(resp, 405)


def test_numbered_deal_is_computed_for_any_seed(client: FlaskClient) -> None:
    big = 2**64 - 1
    for game in GAMES:
        for seed in (0, 12345, big):
            resp = client.get(f"{API}/games/{game}/deals/{seed}")
            assert resp.status_code == 200
            body = resp.get_json()
            assert body["seed"] == str(seed)  # a decimal string: JavaScript holds no 64 bits
            assert body["deal"] == new_game(game, seed).deal_json()
            assert "immutable" in resp.headers["Cache-Control"]
    variant = client.get(f"{API}/games/pyramid/deals/7?variant=passes=1").get_json()
    assert variant["variant"] == "passes=1"


def test_cors_on_success_errors_and_preflight(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    assert client.get(f"{API}/games").headers["Access-Control-Allow-Origin"] == "*"
    assert client.get(f"{API}/deals/nope").headers["Access-Control-Allow-Origin"] == "*"
    pre = client.options(
        f"{API}/deals/{days['past']}-gaps-easy/verify",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert "content-type" in pre.headers["Access-Control-Allow-Headers"].lower()
    assert "ETag" in pre.headers["Access-Control-Expose-Headers"]


def test_solution_locked_until_the_date_is_over_everywhere(
    problem: Any, client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    locked = problem(client.get(f"{API}/deals/{days['today']}-pyramid-easy/solution"), 403)
    opens = clock.solution_opens_at(days["today"])
    assert locked["opens_at"] == clock.iso(opens)
    assert clock.iso(opens) in locked["detail"]
    resp = client.get(f"{API}/deals/{days['past']}-pyramid-easy/solution")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["moves"] == solutions["pyramid"]
    # a solution is a verify body as it stands
    verdict = client.post(body["links"]["verify"], json=body).get_json()
    assert verdict["won"]
    assert "immutable" in resp.headers["Cache-Control"]


def test_healthz_lists_what_is_missing_today(
    client: FlaskClient, db_path: Any, days: dict[str, dt.date]
) -> None:
    resp = client.get(f"{API}/healthz")
    body = resp.get_json()
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == "no-store"
    first, last = (dt.date.fromisoformat(d) for d in body["today"])
    # the fixture stores every tier of "today" (UTC) and nothing of the dates either side
    expected = {
        f"{first + dt.timedelta(days=i)}-{g}-{default_variant(g)}-{t}"
        for i in range((last - first).days + 1)
        for g in GAMES
        for t in TIERS
        if first + dt.timedelta(days=i) != days["today"]
    }
    assert set(body["missing"]) == expected
    assert body["status"] == ("ok" if not expected else "degraded")
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        conn.execute("DELETE FROM deals WHERE id = ?", [f"{days['today']}-gaps-hard"])
    again = client.get(f"{API}/healthz").get_json()
    assert f"{days['today']}-gaps-standard-hard" in again["missing"]
    assert again["status"] == "degraded"


def test_a_deal_stored_later_appears_and_stored_ones_are_remembered(
    client: FlaskClient,
    problem: Any,
    days: dict[str, dt.date],
    db_path: Any,
    deal_rows: list[dict[str, Any]],
) -> None:
    import sqlite3

    from dailydeal.daily.store import insert_deal, open_db

    day = days["today"]
    url = f"{API}/daily/{day}/accordion/expert"
    with sqlite3.connect(db_path) as conn:
        conn.execute("DELETE FROM deals WHERE id = ?", [f"{day}-accordion-expert"])
    problem(client.get(url), 404)
    problem(client.get(f"{API}/deals/{day}-accordion-expert"), 404)
    row = next(r for r in deal_rows if r["id"] == f"{day}-accordion-expert")
    db = open_db(db_path)
    insert_deal(db, row)
    db.close()
    first = client.get(url)
    assert first.status_code == 200 and first.get_json()["id"] == row["id"]
    assert client.get(f"{API}/deals/{row['id']}").get_json() == first.get_json()
    # answers are remembered per URL: other tiers and games are still their own
    other = client.get(f"{API}/daily/{day}/accordion/easy").get_json()
    assert other["tier"] == "easy" and other["id"] != row["id"]
    assert client.get(url).get_data() == first.get_data()


def test_a_bug_is_a_bare_500_problem_without_traceback(
    client: FlaskClient, problem: Any, days: dict[str, dt.date], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals /etc/dailydeal")

    monkeypatch.setattr("dailydeal.daily.store.deals_on", broken)
    resp = client.get(f"{API}/daily/{days['past']}")
    body = problem(resp, 500)
    assert "secret internals" not in resp.get_data(as_text=True)
    assert resp.headers["Cache-Control"] == "no-store"
    assert body["detail"] == "The server failed to answer this request."
