"""Hostile input: a few thousand generated bad requests against every route.

Whatever arrives (odd paths, methods, content types, bodies, JSON of any shape, query
strings, validators), the answer is never a 5xx and never shows a traceback; every error is
an RFC 9457 problem with CORS headers. Derandomized, so the same requests run every time.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dailydeal.daily.store import insert_deal, open_db
from dailydeal.games import GAMES
from dailydeal.rating import TIERS

FUZZ = settings(
    max_examples=600,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module")
def fuzz_client(
    tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]], now: dt.datetime
) -> Iterator[FlaskClient]:
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    db = open_db(path)
    for row in deal_rows:
        insert_deal(db, row)
    db.close()
    app: Flask = create_app(
        {"db_path": path, "NOW": lambda: now, "verify_rate_limit": "1000000 per minute"}
    )
    yield app.test_client()
    forget(path)


def check(resp: Any) -> None:
    text = resp.get_data(as_text=True)
    assert resp.status_code < 500, (resp.status_code, text[:500])
    # the header of a traceback: a moves text "Traceback" is echoed in error.move, legitimately
    assert "Traceback (most recent call last)" not in text
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"
    if resp.status_code >= 400 and resp.request.method != "HEAD":  # HEAD: headers only
        assert resp.mimetype == "application/problem+json", text[:300]
        body = json.loads(text)
        assert body["status"] == resp.status_code and body["detail"]


def _ids(now: dt.datetime) -> list[str]:
    today = now.date()
    return [
        f"{today + dt.timedelta(days=d)}-{g}-{t}" for d in (-3, 0, 3) for g in GAMES for t in TIERS
    ]


segment = st.one_of(
    st.sampled_from(
        [
            *GAMES,
            *TIERS,
            "today",
            "deals",
            "daily",
            "games",
            "verify",
            "state",
            "solution",
            "feed.json",
            "feed.atom",
            "openapi.json",
            "healthz",
            "..",
            ".",
            "%00",
            "%ff",
            "2026-02-30",
            "99999999999999999999999",
            "-1",
            "0",
        ]
    ),
    st.text(min_size=0, max_size=30),
    st.dates().map(str),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
methods = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=30,
)
move_texts = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "d",
                "r",
                "R",
                "KS",
                "2S@1",
                "2S@9",
                "4D>4S",
                "5H+8C",
                "QC",
                "",
                " ",
                "X" * 40,
                "10♦",
                "AS>",
                "+",
                "@",
            ]
        ),
        st.text(max_size=12),
    ),
    max_size=40,
)
bodies = st.one_of(
    json_values.map(lambda v: {"moves": v}),
    st.fixed_dictionaries(
        {},
        optional={
            "moves": st.one_of(move_texts, move_texts.map(" ".join), json_values),
            "seed": st.one_of(
                st.integers(min_value=-5, max_value=2**65), st.text(max_size=25), json_values
            ),
            "cards": st.one_of(
                st.text(max_size=200), st.lists(st.text(max_size=4), max_size=60), json_values
            ),
            "variant": st.one_of(
                st.none(),
                st.text(max_size=15),
                st.sampled_from(["relaxed", "passes=1", "redeals=3", "forced"]),
            ),
        },
    ),
    json_values,
)
content_types = st.sampled_from(
    [
        "application/json",
        "text/plain",
        "application/problem+json",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "text/plain; charset=latin-1",
        "",
        "application/json; x=y",
    ]
)


@FUZZ
@given(
    parts=st.lists(segment, min_size=0, max_size=5),
    method=methods,
    query=st.dictionaries(
        st.sampled_from(["moves", "tz", "variant", "x"]), st.text(max_size=40), max_size=3
    ),
    etag=st.one_of(st.none(), st.text(st.characters(blacklist_characters="\r\n\x00"), max_size=30)),
)
def test_random_paths_and_methods(
    fuzz_client: FlaskClient,
    parts: list[str],
    method: str,
    query: dict[str, str],
    etag: str | None,
) -> None:
    clean = (p.replace("/", "").replace("?", "%3F").replace("#", "%23") for p in parts)
    path = "/api/v1/" + "/".join(clean)
    headers = (
        {} if etag is None else {"If-None-Match": etag.encode("utf-8", "replace").decode("latin-1")}
    )
    check(fuzz_client.open(path, method=method, query_string=query, headers=headers))


@FUZZ
@given(
    index=st.integers(min_value=0, max_value=10**6),
    body=bodies,
    ctype=content_types,
    endpoint=st.sampled_from(["verify", "state"]),
)
def test_random_bodies_on_daily_verify_and_state(
    fuzz_client: FlaskClient,
    now: dt.datetime,
    index: int,
    body: Any,
    ctype: str,
    endpoint: str,
) -> None:
    ids = _ids(now)
    url = f"/api/v1/deals/{ids[index % len(ids)]}/{endpoint}"
    data = body if ctype.startswith("text/plain") and isinstance(body, str) else json.dumps(body)
    check(fuzz_client.post(url, data=data, content_type=ctype or None))


@FUZZ
@given(
    game=st.sampled_from([*GAMES, "chess"]),
    body=bodies,
    ctype=content_types,
    endpoint=st.sampled_from(["verify", "state"]),
)
def test_random_bodies_on_numbered_verify_and_state(
    fuzz_client: FlaskClient, game: str, body: Any, ctype: str, endpoint: str
) -> None:
    url = f"/api/v1/games/{game}/{endpoint}"
    check(fuzz_client.post(url, data=json.dumps(body), content_type=ctype or None))


@FUZZ
@given(raw=st.binary(max_size=300), ctype=content_types)
def test_random_bytes(fuzz_client: FlaskClient, now: dt.datetime, raw: bytes, ctype: str) -> None:
    check(
        fuzz_client.post(
            f"/api/v1/deals/{_ids(now)[5]}/verify", data=raw, content_type=ctype or None
        )
    )
    check(fuzz_client.post("/api/v1/games/gaps/verify", data=raw, content_type=ctype or None))


@pytest.fixture(scope="module")
def review_client(
    tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]], now: dt.datetime
) -> Iterator[FlaskClient]:
    """The fuzz deals with the hint limit out of the way (reviews count against it) and a
    small search budget: the answer must be a 200 or a problem whatever the budget."""
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    path = tmp_path_factory.mktemp("fuzz-review") / "fuzz.db"
    db = open_db(path)
    for row in deal_rows:
        insert_deal(db, row)
    db.close()
    app: Flask = create_app({"db_path": path, "NOW": lambda: now, "hint_processes": 0,
                             "hint_rate_limit": "1000000 per minute", "hint_max_nodes": 500})
    yield app.test_client()
    forget(path)


@settings(FUZZ, max_examples=200)
@given(
    index=st.integers(min_value=0, max_value=10**6),
    game=st.sampled_from([*GAMES, "chess"]),
    body=bodies,
    ctype=content_types,
    numbered=st.booleans(),
)
def test_random_bodies_on_reviews(
    review_client: FlaskClient, now: dt.datetime, index: int, game: str, body: Any,
    ctype: str, numbered: bool,
) -> None:
    ids = _ids(now)
    url = f"/api/v1/games/{game}/review" if numbered else (
        f"/api/v1/deals/{ids[index % len(ids)]}/review")
    data = body if ctype.startswith("text/plain") and isinstance(body, str) else json.dumps(body)
    check(review_client.post(url, data=data, content_type=ctype or None))
