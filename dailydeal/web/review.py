"""Review routes: ``POST /deals/{id}/review`` (a verify body) and ``POST /games/{game}/review``
(a numbered verify body): where the player's line lost the deal (``dailydeal.review``).

A review is a few searches (a bisection over the line's positions), so it runs where hints
run: in this worker's solver processes (``web.hints.solvers``: the same bound, the same 503
with ``Retry-After`` when they are busy), and counts against the hint limit
(``DAILYDEAL_HINT_LIMIT``, one shared budget per address). Each search has the hint's node
budget (``DAILYDEAL_HINT_MAX_NODES``); the whole review has one ``DAILYDEAL_HINT_TIME_LIMIT``
safety net.

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
from typing import Any

from flask import Blueprint, Response

from dailydeal.daily import clock
from dailydeal.games import Game, new_game
from dailydeal.memo import Memo
from dailydeal.solverpool import ReviewJob
from dailydeal.web import schema
from dailydeal.web.extensions import limit, settings
from dailydeal.web.hints import PROBLEMS, admitted, play_or_422, searched
from dailydeal.web.http import NO_STORE, json_response, now, numbered_position, published_row
from dailydeal.web.operations import GAME, ID, operation

bp = Blueprint("review", __name__)

CACHE_SIZE = 2_000  # reviews per worker (a few KB each: the line found and the checks)
_memo: Memo[bytes, dict[str, Any]] = Memo(CACHE_SIZE)


def review_json(position: Game[Any], moves: list[str], line: list[str] | None = None
                ) -> dict[str, Any]:
    """The review of ``moves`` from ``position`` (the deal's start), with the line: 422 on
    an illegal move, 503 when the solvers are busy or the safety net stopped them."""
    play_or_422(position.copy(), moves, "a review")
    config = settings()
    job = ReviewJob(
        game=position.name,
        variant=position.variant,
        seed=position.seed,
        cards=None if position.seed is not None else position.cards,
        moves=tuple(moves),
        max_nodes=config.hint_max_nodes,  # None: the game's default budget
        time_limit=config.hint_time_limit,
        line=None if line is None else tuple(line),
    )
    # a digest: a key of 5000 moves would hold their text for as long as it is remembered
    key = hashlib.sha256(json.dumps(job.to_json()).encode()).digest()
    found = _memo.get(key, lambda: searched(job, "finish the review"))
    return {"moves_played": len(moves), **found}


# counted against the hint limit: one budget per client shared with the hint routes
@bp.post("/deals/<id_>/review")
@limit("hint")
@operation("POST", "Where a move list lost a daily deal: the last winnable position and the "
           "move after it (the winning line once solutions open)",
           body=schema.MovesBody, text=True, answer=schema.Review, answer_text="The review",
           params=(ID,), problems=PROBLEMS)
def deal_review(id_: str, body: schema.MovesBody) -> Response:
    """The review of a daily deal's move list; the line only once its solutions are open."""
    row = published_row(id_)
    position = new_game(row["game"], row["seed"], row["variant"])
    out = {"deal": id_, **review_json(position, body.moves, list(row["solution"]))}
    day = dt.date.fromisoformat(row["date"])
    if clock.solution_open(day, now()):
        out["opens_at"] = None
    else:  # still played somewhere on Earth: no spoiler
        out["line"] = None
        out["opens_at"] = clock.iso(clock.solution_opens_at(day))
    return json_response(out, NO_STORE)


@bp.post("/games/<game>/review")
@limit("hint")
@admitted
@operation("POST", "Where a move list lost a numbered or explicit deal",
           body=schema.NumberedVerifyBody, answer=schema.Review, answer_text="The review",
           params=(GAME,), problems=PROBLEMS)
def numbered_review(game: str, body: schema.NumberedVerifyBody) -> Response:
    """The review of the moves of a numbered-deal body (``seed`` or ``cards``)."""
    position, moves = numbered_position(game, body)
    seed = None if position.seed is None else str(position.seed)  # JSON: decimal
    out = {"game": position.name, "variant": position.variant, "seed": seed,
           **review_json(position, moves), "opens_at": None}
    return json_response(out, NO_STORE)
