"""Results routes: ``POST /deals/{id}/results`` and ``GET /deals/{id}/stats``.

A result is verified, then stored once per client and deal (dailydeal.daily.results): the
first post of a client is 201; the same post again (a retry) is 200 with ``counted: false``;
a different one is 409 with the result that counts. Results are taken while the deal's
date lasts somewhere on Earth; once its solution opens they are closed (403), so nobody
counts a copied solution and the statistics become final. Posts are rate limited per
client address (``RESULTS_RATE_LIMIT``); the address is never stored.

Where: the SQLite file by default (one machine); with ``REDIS_URL`` (env
``DAILYDEAL_REDIS_URL``) in Redis (dailydeal.daily.results_redis), so that every API node
counts the same results. A Redis that does not answer is a 503, never a half-stored result.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from flask import Blueprint, Flask, Response, current_app, url_for

from dailydeal.daily import results
from dailydeal.verify import MAX_MOVES
from dailydeal.web import clock
from dailydeal.web.api import (
    NO_STORE,
    json_response,
    move_list,
    now,
    published_row,
    read_body,
)
from dailydeal.web.db import get_db
from dailydeal.web.problems import Problem

bp = Blueprint("results", __name__)

OPEN_STATS = "public, max-age=30"  # results still come in
FINAL_STATS = "public, max-age=86400"  # results are closed: the numbers are final


def _redis() -> Any | None:
    """The app's Redis client when results live in Redis (``REDIS_URL``), else None."""
    url = current_app.config.get("REDIS_URL")
    if not url:
        return None
    client = current_app.extensions.get("dailydeal_results_redis")
    if client is None:
        from dailydeal.daily import results_redis  # the optional `redis` client

        client = current_app.extensions["dailydeal_results_redis"] = results_redis.connect(url)
    return client


def _unavailable() -> Problem:
    return Problem(503, "the results store does not answer; retry in a few seconds")


def _record(
    id_: str, client: str, result: results.Result, moves: list[str]
) -> tuple[bool, dict[str, Any]]:
    shared = _redis()
    if shared is None:
        return results.record(get_db(), id_, client, result, moves, now())
    from dailydeal.daily import results_redis

    try:
        return results_redis.record(shared, id_, client, result, moves, now())
    except results_redis.Unavailable:
        raise _unavailable() from None


def _stats(id_: str) -> dict[str, Any]:
    shared = _redis()
    if shared is None:
        return results.deal_stats(get_db(), id_)
    from dailydeal.daily import results_redis

    try:
        return results_redis.deal_stats(shared, id_)
    except results_redis.Unavailable:
        raise _unavailable() from None


def _count(payload: dict[str, Any], name: str, upper: int, default: int | None) -> int | None:
    value = payload.get(name, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= upper:
        raise Problem(400, f"'{name}' is an integer 0..{upper}, not {str(value)[:40]!r}")
    return value


def _client(payload: dict[str, Any]) -> str:
    client = payload.get("client")
    if not isinstance(client, str) or not results.CLIENT_ID.match(client):
        raise Problem(
            400,
            "'client' is the random id this client keeps: 16 to 128 characters of "
            "A-Z a-z 0-9 _ - (a UUID will do); it is stored only as a salted hash",
        )
    return client


@bp.post("/deals/<id_>/results")
def post_result(id_: str) -> Response:
    """Body ``{"client", "moves", "hints", "seconds"}`` -> 201 stored, 200 repeat, 409."""
    row = published_row(id_)
    opens = clock.solution_opens_at(dt.date.fromisoformat(row["date"]))
    if now() >= opens:
        raise Problem(
            403,
            f"results of {id_} closed at {clock.iso(opens)}, when its solution was "
            "published; the statistics are final",
            closed_at=clock.iso(opens),
        )
    payload = read_body(allow_text=False)
    client = _client(payload)
    moves = move_list(payload)
    hints = _count(payload, "hints", MAX_MOVES, 0)
    seconds = _count(payload, "seconds", results.MAX_SECONDS, None)
    assert hints is not None
    result, error = results.judge(row, moves, hints, seconds)
    if error is not None:
        raise Problem(
            422,
            f"move {error.index} ({error.move[:20]!r}) is illegal: {error.reason}; "
            "only a legal move list counts",
            error={"index": error.index, "move": error.move, "reason": error.reason},
        )
    inserted, stored = _record(id_, client, result, moves)
    body = {
        "deal": id_,
        "counted": inserted,
        "result": results.row_result(stored).to_json(),
        "links": {"stats": url_for("results.stats", id_=id_)},
    }
    if inserted:
        return json_response(body, NO_STORE, status=201)
    if json.loads(stored["move_list"]) == moves and stored["hints"] == hints:
        return json_response(body, NO_STORE)  # the same post again: a retry, not a play
    raise Problem(
        409,
        f"this client already has a result for {id_}: a deal counts once per player",
        result=body["result"],
    )


@bp.get("/deals/<id_>/stats")
def stats(id_: str) -> Response:
    """Plays, wins, win rate, winning move counts, best count and the solver's length."""
    row = published_row(id_)
    final = clock.solution_open(dt.date.fromisoformat(row["date"]), now())
    out = {
        "deal": id_,
        **_stats(id_),
        "solution_length": row["solution_length"],
        "final": final,
    }
    return json_response(out, FINAL_STATS if final else OPEN_STATS)


def register(app: Flask, limiter: Any, exempt: Any) -> None:
    """Mount the routes under /api/v1; posting results has its own per-address limit."""
    app.register_blueprint(bp, url_prefix="/api/v1")
    limit = limiter.limit(
        lambda: str(current_app.config["RESULTS_RATE_LIMIT"]), scope="results",
        exempt_when=exempt,
    )
    app.view_functions["results.post_result"] = limit(app.view_functions["results.post_result"])
