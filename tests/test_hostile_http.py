"""Hostile requests found by the hardening review (issue 9 items 2, 3, 4, 8), kept fixed.

Each test names the defect it pins: a 500 from a crafted input, a header a client can set
that leaks into what others are served, a conditional request answered wrongly, a seed
read from non-ASCII digits, a seed a JavaScript client cannot hold.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from dailydeal import cards as C
from dailydeal.web import create_app
from dailydeal.web.db import forget

API = "/api/v1"


def deal_id(now: dt.datetime, game: str = "gaps", tier: str = "medium") -> str:
    return f"{now.date().isoformat()}-{game}-{tier}"


# --- item 3: inputs that gave a 500 ------------------------------------------------------
@pytest.mark.parametrize("depth", [3000, 60000])
def test_deeply_nested_brackets_in_a_text_body_are_a_400(
    client: FlaskClient, now: dt.datetime, problem: Any, depth: int
) -> None:
    resp = client.post(
        f"{API}/deals/{deal_id(now)}/verify", data="[" * depth, content_type="text/plain"
    )
    assert "JSON" in problem(resp, 400)["detail"]


def test_deeply_nested_brackets_in_a_json_moves_string_are_a_400(
    client: FlaskClient, problem: Any
) -> None:
    resp = client.post(f"{API}/games/gaps/verify", json={"seed": 1, "moves": "[" * 5000})
    problem(resp, 400)


def test_deeply_nested_brackets_in_a_shareable_state_url_are_a_400(
    client: FlaskClient, now: dt.datetime, problem: Any
) -> None:
    resp = client.get(f"{API}/deals/{deal_id(now)}/state?moves=" + "%5B" * 1300)
    problem(resp, 400)


@pytest.mark.parametrize("charset", ["undefined", "unicode-internal", "rot13", "base64", "hex"])
def test_a_text_body_in_an_unusable_charset_is_a_400(
    client: FlaskClient, now: dt.datetime, problem: Any, charset: str
) -> None:
    resp = client.post(
        f"{API}/deals/{deal_id(now)}/verify",
        data="d d d",
        content_type=f"text/plain; charset={charset}",
    )
    assert charset in problem(resp, 400)["detail"]


def test_a_lone_surrogate_in_a_move_is_a_400_not_echoed(
    client: FlaskClient, now: dt.datetime, problem: Any
) -> None:
    body = '{"moves": ["\\ud800"]}'
    for url in (f"{API}/deals/{deal_id(now)}/verify", f"{API}/deals/{deal_id(now)}/state"):
        resp = client.post(url, data=body, content_type="application/json")
        assert "surrogate" in problem(resp, 400)["detail"]
    resp = client.post(
        f"{API}/games/pyramid/verify",
        data='{"seed": 1, "variant": "\\udfff", "moves": []}',
        content_type="application/json",
    )
    problem(resp, 400)


# --- item 4: budget, conditional requests, ASCII input ----------------------------------
def test_head_on_state_counts_against_the_state_budget(db_path: Path, now: dt.datetime) -> None:
    app = create_app({"db_path": db_path, "NOW": lambda: now, "state_rate_limit": "2 per minute"})
    try:
        c = app.test_client()
        url = f"{API}/deals/{deal_id(now)}/state?moves=d"
        codes = [c.head(url).status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        assert c.get(url).status_code == 429  # HEAD and GET share the one budget
    finally:
        forget(db_path)


def test_if_match_star_on_a_get_is_a_plain_200(client: FlaskClient, now: dt.datetime) -> None:
    for url in (f"{API}/deals/{deal_id(now)}", f"{API}/games/gaps/deals/123", f"{API}/games"):
        resp = client.get(url, headers={"If-Match": "*"})
        assert resp.status_code == 200, url
        assert resp.get_json()


def test_a_failed_if_match_is_a_412_problem_without_the_representation(
    client: FlaskClient, now: dt.datetime, problem: Any
) -> None:
    url = f"{API}/deals/{deal_id(now)}"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-Match": etag}).status_code == 200
    body = problem(client.get(url, headers={"If-Match": '"not-this-one"'}), 412)
    assert "deal" not in body and "links" not in body
    # If-None-Match still gives 304 with an empty body
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""


@pytest.mark.parametrize("seed", ["١٢٣", "１２３", "123%0A", "%E2%80%8B123", "12_3", "+123"])
def test_seeds_in_urls_are_ascii_digits_only(client: FlaskClient, problem: Any, seed: str) -> None:
    problem(client.get(f"{API}/games/gaps/deals/{seed}"), 400)


@pytest.mark.parametrize("seed", ["١٢٣", "123\n", " 123", "1_000"])
def test_seed_strings_in_bodies_are_ascii_digits_only(
    client: FlaskClient, problem: Any, seed: str
) -> None:
    problem(client.post(f"{API}/games/gaps/verify", json={"seed": seed, "moves": []}), 400)


@pytest.mark.parametrize("date", ["٢٠٢٦-١١-٣٠", "2026-11-30\n", "２０２６-11-30"])
def test_dates_in_urls_are_ascii_digits_only(client: FlaskClient, problem: Any, date: str) -> None:
    problem(client.get(f"{API}/daily/{quote(date)}"), 400)


@pytest.mark.parametrize("tz", ["+٠٥:٣٠", "+０5", "UTC+٥"])
def test_utc_offsets_are_ascii_digits_only(client: FlaskClient, problem: Any, tz: str) -> None:
    problem(client.get(f"{API}/daily/today", query_string={"tz": tz}), 400)
    assert client.get(f"{API}/daily/today", query_string={"tz": "+05:30"}).status_code == 302


@pytest.mark.parametrize("text", ["Aſ", "Kſ", "ıS", "AK", "10ſ", "ＡS"])
def test_card_names_are_ascii_but_for_suit_symbols(text: str) -> None:
    with pytest.raises(ValueError, match="unknown card"):
        C.parse(text)
    assert C.parse("As") == C.parse("A♠") == C.parse("AS") == C.parse("a♤")


# --- item 2: links never from a client's header -----------------------------------------
def _feed_urls(client: FlaskClient, headers: dict[str, str]) -> list[str]:
    feed = client.get(f"{API}/feed.json", headers=headers).get_json()
    urls = [feed["home_page_url"], feed["feed_url"]]
    for item in feed["items"]:
        deals = item["_dailydeal"]["deals"]
        urls += [item["id"], item["url"], *(d[k] for d in deals for k in ("url", "play_url"))]
    # the calendar, the pages' share tags and an oEmbed answer are built from the same base
    urls.append(client.get(f"{API}/calendar.ics", headers=headers).get_data(as_text=True))
    urls.append(client.get("/", headers=headers).get_data(as_text=True))
    first = feed["items"][0]["_dailydeal"]["deals"][0]["play_url"]
    play_page = client.get(urllib.parse.urlsplit(first).path, headers=headers)
    urls.append(play_page.get_data(as_text=True))
    oembed = client.get(f"{API}/oembed", query_string={"url": first}, headers=headers)
    urls.append(oembed.get_data(as_text=True))
    atom = client.get(f"{API}/feed.atom", headers=headers).get_data(as_text=True)
    return urls + [atom]


@pytest.mark.parametrize("public", [None, "https://deals.example.org"])
def test_feed_links_never_come_from_forwarded_or_host_headers(
    db_path: Path, now: dt.datetime, public: str | None
) -> None:
    config = {"db_path": db_path, "NOW": lambda: now, "trusted_proxies": "127.0.0.1",
              "public_url": public}
    app = create_app(config)
    try:
        c = app.test_client()
        hostile = {"X-Forwarded-Host": "evil.example", "Host": "evil2.example"}
        urls = _feed_urls(c, hostile)
        assert not any("evil" in u for u in urls), [u for u in urls if "evil" in u][:3]
        assert urls[:-1] == _feed_urls(c, {})[:-1]  # what one client sends, nobody else sees
        if public:
            links = [u for u in urls[:-1] if u.startswith(("/", "http"))]
            assert links and all(u.startswith(public + "/") for u in links)
    finally:
        forget(db_path)


def test_proxy_count_still_reads_the_client_address_for_the_rate_limit(
    db_path: Path, now: dt.datetime
) -> None:
    app = create_app(
        {"db_path": db_path, "NOW": lambda: now, "trusted_proxies": "127.0.0.1",
         "verify_rate_limit": "1/minute"}
    )
    try:
        c = app.test_client()
        url = f"{API}/games/gaps/verify"
        first = {"X-Forwarded-For": "203.0.113.1"}
        assert c.post(url, json={"seed": 1, "moves": []}, headers=first).status_code == 200
        assert c.post(url, json={"seed": 1, "moves": []}, headers=first).status_code == 429
        other = {"X-Forwarded-For": "203.0.113.2"}
        assert c.post(url, json={"seed": 1, "moves": []}, headers=other).status_code == 200
    finally:
        forget(db_path)


# --- item 8: seeds as decimal strings ----------------------------------------------------
BIG = 12135775398892334671  # above 2**53: a JavaScript number would round it


def test_seeds_are_decimal_strings_in_every_json_answer(
    client: FlaskClient, now: dt.datetime
) -> None:
    numbered = client.get(f"{API}/games/gaps/deals/{BIG}").get_json()
    assert numbered["seed"] == str(BIG)
    for seed in (BIG, str(BIG)):  # both accepted on input
        verdict = client.post(f"{API}/games/gaps/verify", json={"seed": seed, "moves": []})
        assert verdict.get_json()["seed"] == str(BIG)
        state = client.post(f"{API}/games/gaps/state", json={"seed": seed, "moves": []})
        assert state.get_json()["seed"] == str(BIG)
    daily = client.get(f"{API}/daily/{now.date().isoformat()}").get_json()
    assert all(isinstance(d["seed"], str) and d["seed"].isdigit() for d in daily["deals"])
    one = client.get(f"{API}/deals/{deal_id(now)}").get_json()
    assert isinstance(one["seed"], str)
    state = client.get(f"{API}/deals/{deal_id(now)}/state").get_json()
    assert state["seed"] == one["seed"]
    raw = client.get(f"{API}/games/gaps/deals/{BIG}").get_data(as_text=True)
    assert f'"seed":"{BIG}"' in raw.replace(" ", "")


def test_the_openapi_document_says_seeds_are_strings(client: FlaskClient) -> None:
    doc = json.dumps(client.get(f"{API}/openapi.json").get_json())
    assert '"seed": {"type": "integer"}' not in doc
