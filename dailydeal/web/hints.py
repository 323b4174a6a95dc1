"""Hint routes: ``/deals/{id}/hint`` and ``/games/{game}/hint`` (bodies as for ``state``).

The answer is ``dailydeal.hints.hint()`` for the position after the moves: the solver's
verdict, the next move of a winning line, the moves left on it and whether it is proved
shortest. An illegal move in the list is a 422 (there is no position to hint from); a
search stopped by the wall-clock safety net is a 503 with Retry-After, never a different
answer. Hints have their own per-client rate limit (``HINT_RATE_LIMIT``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request

from dailydeal.games import Game
from dailydeal.hints import HintTimeout, hint
from dailydeal.verify import replay
from dailydeal.web import plays
from dailydeal.web.api import (
    NO_STORE,
    deal_position,
    json_response,
    numbered_position,
)
from dailydeal.web.problems import Problem

bp = Blueprint("hints", __name__)

ENDPOINTS = ("hints.deal_hint", "hints.numbered_hint")
GET_CACHE = "public, max-age=3600"  # a hint of a position is the same tomorrow


def hint_json(position: Game[Any], moves: list[str]) -> dict[str, Any]:
    """Play the moves, then ask for the hint; 422 on an illegal move, 503 on the clock."""
    error = replay(position, moves, finish=False).error
    if error is not None:
        raise Problem(
            422,
            f"move {error.index} ({error.move[:20]!r}) cannot be played: {error.reason}; "
            "a hint needs a legal move list",
            error=asdict(error),
        )
    config = current_app.config
    try:
        answer = hint(
            position,
            max_nodes=config["HINT_MAX_NODES"],  # None: the game's default budget
            time_limit=config["HINT_TIME_LIMIT"],
        )
    except HintTimeout:
        raise Problem(
            503,
            "the solver could not answer in time on this server; try again in a moment",
            headers={"Retry-After": "5"},
        ) from None
    return {"moves_played": len(position.move_stack), **answer.to_json()}


@bp.route("/deals/<id_>/hint", methods=["GET", "POST"])
def deal_hint(id_: str) -> Response:
    """The hint after a move list of a daily deal (``?moves=`` or a body like state's)."""
    position, moves = deal_position(id_)
    out = {"deal": id_, **hint_json(position, moves)}
    plays.note_hint(id_)  # the hint counts for the play whose token came with it
    return json_response(out, GET_CACHE if request.method == "GET" else NO_STORE)


@bp.post("/games/<game>/hint")
def numbered_hint(game: str) -> Response:
    """The hint after the moves of a numbered-deal body (``seed`` or ``cards``)."""
    position, moves = numbered_position(game, required=False)
    seed = None if position.seed is None else str(position.seed)  # JSON: decimal text
    out = {"game": position.name, "variant": position.variant, "seed": seed}
    out.update(hint_json(position, moves))
    return json_response(out, NO_STORE)


def register(app: Flask, limiter: Any, exempt: Any) -> None:
    """Mount the routes under /api/v1 with their own per-client limit."""
    app.register_blueprint(bp, url_prefix="/api/v1")
    limit = limiter.shared_limit(
        lambda: str(current_app.config["HINT_RATE_LIMIT"]), scope="hint", exempt_when=exempt
    )
    for endpoint in ENDPOINTS:
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
