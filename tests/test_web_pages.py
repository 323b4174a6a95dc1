"""The pages around the player, without a browser: routes, headers (CSP, framing, caching,
compression), the API index, and the state budget that lets one person play a whole game."""

from __future__ import annotations

import datetime as dt
import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dailydeal.daily.store import deal_id
from dailydeal.games import GAMES
from dailydeal.rating import TIERS

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_daily_page_lists_today_and_the_archive(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    for game in GAMES:
        for tier in TIERS:
            assert f'href="/play/{deal_id(days["today"], game, tier)}"' in html
            # a past date: its solution is open; today's is not
            assert f'data-solution="{deal_id(days["past"], game, tier)}"' in html
            assert f'data-solution="{deal_id(days["today"], game, tier)}"' not in html
    assert f'data-date="{days["future"]}"' not in html  # never served before it begins
    assert f'data-date="{days["old"]}"' not in html  # older than the 30 days of the archive
    assert "Solutions open when this date is over everywhere" in html


def test_an_empty_archive_says_so(tmp_path: Path, now: dt.datetime) -> None:
    from dailydeal.daily import store
    from dailydeal.web import create_app

    db = store.open_db(tmp_path / "one-day.db")
    assert list(store.deals_on(db, now.date())) == []  # a new service's first day
    app = create_app({"db_path": tmp_path / "one-day.db", "NOW": lambda: now})
    html = app.test_client().get("/").get_data(as_text=True)
    assert re.search(r'<p class="archive-empty" data-archive-empty>No earlier dates', html)


def test_a_full_archive_hides_the_empty_note(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<p class="archive-empty" data-archive-empty hidden>', html)


def test_play_pages(client: FlaskClient, days: dict[str, dt.date]) -> None:
    id_ = deal_id(days["today"], "pyramid", "hard")
    html = client.get(f"/play/{id_}").get_data(as_text=True)
    # the class names the game: site.css keeps its board's place before the script runs
    assert f'<daily-deal class="g-pyramid" deal="{id_}" api="/api/v1">' in html
    html = client.get("/play/gaps/18446744073709551615?variant=redeals=3").get_data(as_text=True)
    assert 'game="gaps" seed="18446744073709551615" variant="redeals=3"' in html
    assert client.get("/play?game=accordion&seed=7").headers["Location"] == "/play/accordion/7"


def test_bad_play_urls_are_readable_html_errors(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    # the page says the problem's code in the page's language (i18n: problem.<code>)
    cases = [
        ("/play/2001-01-01-gaps-easy", 404, "no published deal"),
        (f"/play/{deal_id(days['future'], 'gaps', 'easy')}", 404, "no published deal"),
        ("/play/solitaire/3", 404, "no such game"),
        ("/play/gaps/12x", 400, "A deal number is a whole number"),
        ("/play/gaps/18446744073709551616", 400, "A deal number is a whole number"),
        ("/play/gaps/3?variant=nope", 400, "no such variant"),
        ("/play?game=gaps&seed=", 400, "A deal number is a whole number"),
        ("/embed/nope", 404, "no published deal"),
    ]
    for url, status, text in cases:
        resp = client.get(url)
        assert resp.status_code == status, url
        assert resp.mimetype == "text/html" and text in resp.get_data(as_text=True), url
    french = client.get("/play/solitaire/3?lang=fr").get_data(as_text=True)
    assert '<html lang="fr" dir="ltr">' in french


def test_csp_allows_nothing_from_other_origins_and_only_embed_is_framed(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    id_ = deal_id(days["today"], "gaps", "easy")
    for url in ("/", f"/play/{id_}", "/play/gaps/1"):
        resp = client.get(url)
        csp = resp.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "http" not in csp
        assert resp.headers["X-Frame-Options"] == "DENY"
        # no inline script or style: the CSP would block them
        html = resp.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "<style" not in html
        assert " style=" not in html
    embed = client.get(f"/embed/{id_}")
    assert "frame-ancestors *" in embed.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in embed.headers
    api = client.get("/api/v1/games")
    assert api.headers["X-Frame-Options"] == "DENY"


def test_static_files_have_versioned_urls_and_long_caching(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'src="(/static/daily-deal\.js\?v=[0-9a-f]{12})"', html)
    assert url, "the page links the element's script by a versioned URL"
    resp = client.get(url.group(1))
    assert resp.mimetype == "text/javascript"
    assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert resp.headers["Access-Control-Allow-Origin"] == "*"  # a module from another origin
    again = client.get(url.group(1), headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304
    plain = client.get("/static/daily-deal.js")  # an embedder's copy without ?v=: revalidated
    assert plain.headers["Cache-Control"] == "public, max-age=300"
    assert plain.data == resp.data
    zipped = client.get(url.group(1), headers=GZIP)
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == resp.data
    assert "Accept-Encoding" in zipped.headers["Vary"]


def test_pages_and_json_are_gzipped_with_weak_etags(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    page = client.get("/", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"<daily-deal" not in page.data and b"Today&#39;s deals" in gzip.decompress(page.data)
    url = f"/api/v1/daily/{days['past']}"
    plain = client.get(url)
    zipped = client.get(url, headers=GZIP)
    assert gzip.decompress(zipped.data) == plain.data
    assert zipped.headers["ETag"] == "W/" + plain.headers["ETag"]
    assert (
        client.get(url, headers={**GZIP, "If-None-Match": zipped.headers["ETag"]}).status_code
        == 304
    )
    refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers
    odd = client.get(url, headers={"Accept-Encoding": "gzip;q=x"})
    assert odd.status_code == 200 and "Content-Encoding" not in odd.headers


def test_a_shared_answer_is_compressed_once(
    client: FlaskClient, days: dict[str, dt.date], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A public answer's gzip form is kept by its bytes (web/compress.py): the same bytes
    again are not compressed again, and what is sent is still their gzip."""
    from dailydeal.web import compress

    calls: list[int] = []
    real = gzip.compress

    def counted(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        calls.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(compress.gzip, "compress", counted)
    url = f"/api/v1/daily/{days['past']}"
    plain = client.get(url)
    first, again = (client.get(url, headers=GZIP) for _ in range(2))
    assert gzip.decompress(first.data) == gzip.decompress(again.data) == plain.data
    assert first.data == again.data and first.headers == again.headers
    assert calls.count(len(plain.data)) <= 1  # none when an earlier test compressed them


def test_api_index_links_everything(client: FlaskClient) -> None:
    body = client.get("/api/v1/").get_json()
    links = body["links"]
    assert links["today"] == "/api/v1/daily/today" and links["play"] == "/"
    for url in links.values():
        assert client.get(url).status_code in (200, 302), url


def test_state_has_its_own_budget_that_fits_a_whole_game(
    tmp_path: Path,
    fill_db: Any,
    now: dt.datetime,
    days: dict[str, dt.date],
    problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    """Hundreds of state requests (one per click) pass under the default state budget and
    leave the verify budget untouched; past the state budget, a 429 problem."""
    from dailydeal.config import Settings
    from dailydeal.web import create_app

    app: Flask = create_app(
        {
            "db_path": fill_db(tmp_path / "s.db"),
            "NOW": lambda: now,
            "verify_rate_limit": "1 per minute",
        }
    )
    assert Settings().state_rate_limit == "600 per minute"
    client = app.test_client()
    id_ = deal_id(days["today"], "pyramid", "hard")
    moves = solutions["pyramid"]
    for n in range(len(moves) + 1):  # the whole game, one request per move
        resp = client.post(f"/api/v1/deals/{id_}/state", json={"moves": moves[:n]})
        assert resp.status_code == 200, n
    assert resp.get_json()["state"] == "won"
    assert client.post(f"/api/v1/deals/{id_}/verify", json={"moves": moves}).status_code == 200
    problem(client.post(f"/api/v1/deals/{id_}/verify", json={"moves": moves}), 429)
    small = create_app(
        {
            "db_path": fill_db(tmp_path / "t.db"),
            "NOW": lambda: now,
            "state_rate_limit": "2 per minute",
        }
    ).test_client()
    for _ in range(2):
        assert small.get(f"/api/v1/deals/{id_}/state").status_code == 200
    body = problem(small.get(f"/api/v1/deals/{id_}/state"), 429)
    assert "2 per 1 minute" in body["detail"]


def test_the_state_limit_is_read_from_the_environment(monkeypatch: Any) -> None:
    from dailydeal.config import Settings

    monkeypatch.setenv("DAILYDEAL_STATE_LIMIT", "5 per second")
    assert Settings.from_env().state_rate_limit == "5 per second"  # what the routes read


def test_templates_and_static_files_ship_with_the_package() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[1]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    shipped = data["dailydeal"]
    assert "web/templates/*.html" in shipped and "web/static/*" in shipped


def test_feed_links_land_on_their_date_and_the_types_are_served(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    # A feed item opens /#YYYY-MM-DD: the daily page has an element with that id
    page = client.get("/").get_data(as_text=True)
    assert f'id="{days["today"].isoformat()}"' in page
    types = client.get("/static/daily-deal.d.ts")
    assert types.status_code == 200 and b"dailydeal-won" in types.data


def test_the_daily_page_shows_no_par_for_accordion(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    # Every Accordion win is 52 deals and 51 moves: a par of 103 would say nothing
    html = client.get("/").get_data(as_text=True)
    for game in GAMES:
        row = re.search(
            rf'data-deal="{deal_id(days["today"], game, "easy")}".*?</li>', html, re.S
        )
        assert row is not None
        assert ('class="par"' in row.group(0)) == (game != "accordion"), game
