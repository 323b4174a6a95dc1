"""Review routes: ``POST /deals/{id}/review`` (a verify body) and ``POST /games/{game}/review``
(a numbered verify body): where the player's line lost the deal (``dailydeal.review``).

A review is a few searches (a bisection over the line's positions), so it runs where hints
run: in this worker's solver processes (``web.hints.solvers``: the same bound, the same 503
with ``Retry-After`` when they are busy), and counts against the hint limit
(``HINT_RATE_LIMIT``, one shared budget per address). Each search has the hint's node
budget (``HINT_MAX_NODES``); the whole review has one ``HINT_TIME_LIMIT`` safety net.

The winning line from the last winnable position is the answer's spoiler: for a daily deal
it is given only once the deal's solutions are (``daily.clock.solution_open``, the rule of
``GET /deals/{id}/solution``); before that it is null and ``opens_at`` says when. A
numbered deal has no secret: its line is always given.

Answers are remembered in this worker (a ``Memo`` by deal, moves and budget: a review is a
function of them alone), so asking again costs no search.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict
from typing import Any

from flask import Blueprint, Flask, Response, current_app

from dailydeal.daily import clock
from dailydeal.games import Game, new_game
from dailydeal.memo import Memo
from dailydeal.solverpool import PoolBusy, ReviewJob
from dailydeal.verify import replay
from dailydeal.web.hints import admit, busy, solvers
from dailydeal.web.http import (
    NO_STORE,
    json_response,
    move_list,
    now,
    numbered_position,
    published_row,
    read_body,
)
from dailydeal.web.openapi import (
    E400,
    E404,
    E413,
    E415,
    E422,
    E429_OWN,
    GAME,
    ID,
    MOVES_BODY,
    _json,
    _problem,
    _ref,
)
from dailydeal.web.problems import Problem

bp = Blueprint("review", __name__)

ENDPOINTS = ("review.deal_review", "review.numbered_review")
CACHE_SIZE = 2_000  # reviews per worker (a few KB each: the line found and the checks)
_memo: Memo[bytes, dict[str, Any]] = Memo(CACHE_SIZE)


def review_json(position: Game[Any], moves: list[str], line: list[str] | None = None
                ) -> dict[str, Any]:
    """The review of ``moves`` from ``position`` (the deal's start), with the line: 422 on
    an illegal move, 503 when the solvers are busy or the safety net stopped them."""
    error = replay(position.copy(), moves, finish=False).error
    if error is not None:
        raise Problem(
            422,
            f"move {error.index} ({error.move[:20]!r}) cannot be played: {error.reason}; "
            "a review needs a legal move list",
            error=asdict(error),
        )
    config = current_app.config
    job = ReviewJob(
        game=position.name,
        variant=position.variant,
        seed=position.seed,
        cards=None if position.seed is not None else position.cards,
        moves=tuple(moves),
        max_nodes=config["HINT_MAX_NODES"],  # None: the game's default budget
        time_limit=config["HINT_TIME_LIMIT"],
        line=None if line is None else tuple(line),
    )
    # a digest: a key of 5000 moves would hold their text for as long as it is remembered
    key = hashlib.sha256(json.dumps(job.to_json()).encode()).digest()
    return {"moves_played": len(moves), **_memo.get(key, lambda: _run(job))}


def _run(job: ReviewJob) -> dict[str, Any]:
    try:
        answer = solvers().run(job)
    except PoolBusy as exc:
        raise busy(f"the solver is busy: {exc.reason}", exc.retry_after) from None
    if "timeout" in answer:
        raise busy("the solver could not finish the review in time on this server",
                   solvers().retry_after()) from None
    found: dict[str, Any] = answer["review"]
    return found


@bp.post("/deals/<id_>/review")
def deal_review(id_: str) -> Response:
    """The review of a daily deal's move list; the line only once its solutions are open."""
    admit()
    row = published_row(id_)
    moves = move_list(read_body())
    position = new_game(row["game"], row["seed"], row["variant"])
    out = {"deal": id_, **review_json(position, moves, list(row["solution"]))}
    day = dt.date.fromisoformat(row["date"])
    if clock.solution_open(day, now()):
        out["opens_at"] = None
    else:  # still played somewhere on Earth: no spoiler
        out["line"] = None
        out["opens_at"] = clock.iso(clock.solution_opens_at(day))
    return json_response(out, NO_STORE)


@bp.post("/games/<game>/review")
def numbered_review(game: str) -> Response:
    """The review of the moves of a numbered-deal body (``seed`` or ``cards``)."""
    admit()
    position, moves = numbered_position(game)
    seed = None if position.seed is None else str(position.seed)  # JSON: decimal
    out = {"game": position.name, "variant": position.variant, "seed": seed,
           **review_json(position, moves), "opens_at": None}
    return json_response(out, NO_STORE)


def register(app: Flask, limiter: Any, exempt: Any) -> None:
    """Mount the routes under /api/v1, counted against the hint limit (scope ``hint``: one
    budget shared with the hint routes)."""
    app.register_blueprint(bp, url_prefix="/api/v1")
    limit = limiter.shared_limit(
        lambda: str(current_app.config["HINT_RATE_LIMIT"]), scope="hint", exempt_when=exempt
    )
    for endpoint in ENDPOINTS:
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])


def review_paths() -> dict[str, Any]:
    """The OpenAPI paths of the review routes (merged by ``openapi.document``)."""
    answers = {
        "200": _json("The review", _ref("Review")),
        "400": E400,
        "404": E404,
        "413": E413,
        "415": E415,
        "422": E422,
        "429": E429_OWN,
        "503": _problem("The solver is busy (its queue is full) or its safety net stopped it:"
                        " try again after `Retry-After` seconds"),
    }
    return {
        "/deals/{id}/review": {
            "post": {
                "summary": "Where a move list lost a daily deal: the last winnable position "
                           "and the move after it (the winning line once solutions open)",
                "parameters": [ID],
                "requestBody": MOVES_BODY,
                "responses": answers,
            }
        },
        "/games/{game}/review": {
            "post": {
                "summary": "Where a move list lost a numbered or explicit deal",
                "parameters": [GAME],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("NumberedVerifyBody")}},
                },
                "responses": answers,
            }
        },
    }
