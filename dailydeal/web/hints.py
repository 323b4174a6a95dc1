"""Hint routes: ``/deals/{id}/hint`` and ``/games/{game}/hint`` (bodies as for ``state``).

The answer is ``dailydeal.hints.hint()`` for the position after the moves: the solver's
verdict, the next move of a winning line, the moves left on it and whether it is proved
shortest. A daily deal's position on its stored winning line is answered from that line
without a search; any other is searched in this worker's solver processes
(``dailydeal.solverpool``: bounded, niced, off the request path), never in the request
worker. A full queue, a failed solver process and a search stopped by the wall-clock
safety net are a 503 with ``Retry-After`` (``busy``, the one place it is set), never a
different answer. An illegal move in the list is a 422 (there is no position to hint
from). Hints have their own per-client rate limit (``hint_rate_limit``).

The body is a function of the deal, the moves, ``from`` and the budget alone: the same on
every worker and node, whatever each answered before (``dailydeal.hints``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, request

from dailydeal.games import Game, new_game, spec_of
from dailydeal.games.spec import EVERY, PROVED
from dailydeal.hints import line_hint
from dailydeal.solverpool import HintJob, Job, PoolBusy, SolverPool
from dailydeal.verify import replay
from dailydeal.web import plays, schema
from dailydeal.web.extensions import limit, settings
from dailydeal.web.http import (
    NO_STORE,
    json_response,
    numbered_position,
    published_row,
    read_model,
)
from dailydeal.web.operations import GAME, ID, MOVES, NOT_MODIFIED, operation, param
from dailydeal.web.problems import Problem
from dailydeal.web.reasons import move_error_json

bp = Blueprint("hints", __name__)
F = TypeVar("F", bound=Callable[..., Any])

GET_CACHE = "public, max-age=3600"  # a hint of a position is the same tomorrow
#: A hint asked with a play token counts for that play: a shared cache that answered it
#: again would give hints the play never paid for.
PLAY_CACHE = "private, no-store"
#: A hint of an open daily deal without a token is noted for the network that asked: no
#: shared cache may answer it in the server's stead (the browser's own may).
NOTED_CACHE = "private, max-age=3600"
POOL = "dailydeal_solverpool"  # app.extensions key
PROBLEMS = {
    400: "", 404: "", 422: "",
    429: "Too many requests of this kind from this client (a limit of its own)",
    503: "The solver is busy (its queue is full) or its safety net stopped it: try again "
    "after `Retry-After` seconds",
}


@dataclass
class HintRequest:
    """What a hint request asks, read in one place (``read_hint_request``)."""

    position: Game[Any]  # the deal's start; the moves are not played yet
    moves: list[str]
    play: Any = None  # a play token: the hint counts for that play
    line: list[str] | None = None  # a daily deal's stored winning line
    line_shortest: bool = False
    follow_from: int | None = None  # "from": the move where the player began following


def read_hint_request(
    body: schema.HintBody | schema.NumberedHintBody | None,
    id_: str | None = None,
    game: str | None = None,
) -> HintRequest:
    """The deal, moves and options of a hint request: a daily deal ``id_`` (its query on a
    GET, read by ``HintBody`` as a body would be; a ``HintBody`` on a POST) or a numbered
    deal of ``game`` (a ``NumberedHintBody``). ``?play=`` counts on any request."""
    if id_ is not None:
        row = published_row(id_)
        if body is None:
            # a query's texts: "" is no value, numbers are read from their digits
            query = {k: v for k, v in request.args.items() if v != "" or k == "moves"}
            body = read_model(schema.HintBody, query, strict=False)
        position = new_game(row["game"], row["seed"], row["variant"])
        out = HintRequest(position, body.moves, request.args.get("play", body.play),
                          list(row["solution"]), stored_shortest(row))
    else:
        assert game is not None and isinstance(body, schema.NumberedHintBody)
        position, moves = numbered_position(game, body)
        out = HintRequest(position, moves)
    out.follow_from = body.from_
    return out


def stored_shortest(row: dict[str, Any]) -> bool:
    """Whether a stored solution is proved shortest (as ``hints`` says it of a search)."""
    shortest = spec_of(row["game"]).shortest
    if shortest == EVERY:
        return True  # every winning line has the same length (the game's spec)
    stats = (row.get("solver") or {}).get("stats") or {}
    return shortest == PROVED and stats.get("optimal") is True


def solvers() -> SolverPool:
    """This worker's solver pool, made with the app's settings at its first hint."""
    extensions = current_app.extensions
    found: SolverPool | None = extensions.get(POOL)
    if found is None:
        found = extensions[POOL] = SolverPool(settings().hint_processes, settings().hint_queue)
    return found


def admitted(view: F) -> F:
    """Refuse at once when the pool is full, before the body is read (put it above
    ``@operation``; a numbered hint always needs a search): a flood of refusals must cost
    little."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            solvers().check()
        except PoolBusy as exc:
            raise busy(f"the solver is busy: {exc.reason}", exc.retry_after) from None
        return view(*args, **kwargs)

    return cast(F, wrapper)


def busy(detail: str, retry_after: int) -> Problem:
    """The 503 of a hint that cannot be computed now; ``Retry-After``: the seconds after
    which this worker's queue has drained at its recent pace (``SolverPool.retry_after``)."""
    return Problem(503, f"{detail}; try again in {retry_after} s", code="solver_busy",
                   headers={"Retry-After": str(retry_after)}, retry_after=retry_after)


def play_or_422(position: Game[Any], moves: list[str], what: str) -> None:
    """Play ``moves`` on ``position``; a 422 naming the illegal move: ``what`` (a hint, a
    review) needs a position to look from."""
    error = replay(position, moves, finish=False).error
    if error is not None:
        raise Problem(
            422,
            f"move {error.index} ({error.move[:20]!r}) cannot be played: {error.reason}; "
            f"{what} needs a legal move list",
            error=move_error_json(error),
        )


def searched(job: Job, what: str) -> dict[str, Any]:
    """The answer of ``job`` in this worker's solver processes (its part named ``job.kind``):
    a 503 when they are busy, or when the safety net stopped ``what`` (never an answer of
    another kind)."""
    try:
        answer = solvers().run(job)
    except PoolBusy as exc:
        raise busy(f"the solver is busy: {exc.reason}", exc.retry_after) from None
    if "timeout" in answer:
        raise busy(f"the solver could not {what} in time on this server",
                   solvers().retry_after()) from None
    found: dict[str, Any] = answer[job.kind]
    return found


def hint_json(req: HintRequest) -> dict[str, Any]:
    """Play the moves, then ask for the hint; 422 on an illegal move, 503 when busy."""
    position = req.position
    play_or_422(position, req.moves, "a hint")
    config = settings()
    if req.line is not None:  # no search, no queue: a replay of the stored line, here
        known = line_hint(position, req.line, req.line_shortest,
                          max_nodes=config.hint_max_nodes)
        if known is not None:
            return {"moves_played": len(position.move_stack), **known.to_json()}
    job = HintJob(
        game=position.name,
        variant=position.variant,
        seed=position.seed,
        cards=None if position.seed is not None else position.cards,
        moves=tuple(req.moves),  # replayed there as here
        max_nodes=config.hint_max_nodes,  # None: the game's default budget
        time_limit=config.hint_time_limit,
        line=None if req.line is None else tuple(req.line),
        line_shortest=req.line_shortest,
        follow_from=req.follow_from,
    )
    return {"moves_played": len(position.move_stack), **searched(job, "answer")}


@bp.route("/deals/<id_>/hint", methods=["GET", "POST"])
@limit("hint", key=plays.hint_key)
@limit("hint_network", exempt=plays.without_token)
@operation(
    "GET", "Verdict and next move of a winning line after `moves` (cacheable)",
    params=(ID, MOVES,
            param("from", "Moves after which the player began following hints: the rest of "
                  "that hint's line (empty: none)",
                  {"anyOf": [{"type": "integer", "minimum": 0, "maximum": schema.MAX_FROM},
                             {"const": ""}]}, "query"),
            param("play", "A play token: the hint counts for that play (results)",
                  {"type": "string"}, "query")),
    answer=schema.Hint, answer_text="The hint", problems=PROBLEMS, responses=NOT_MODIFIED,
)
@operation("POST", "Verdict and next move of a winning line after the moves",
           body=schema.HintBody, text=True, answer=schema.Hint, answer_text="The hint",
           params=(ID,), problems=PROBLEMS)
def deal_hint(id_: str, body: schema.HintBody | None = None) -> Response:
    """The hint after a move list of a daily deal (``?moves=`` or a body like state's)."""
    req = read_hint_request(body, id_=id_)
    play = plays.hint_play(id_, req.play)  # a forged token is refused before any search
    out = {"deal": id_, **hint_json(req)}
    # the hint counts for the play whose token came with it, or, without one, on this
    # network's results through this position (the deal's results still open)
    counted = plays.note_hint(id_, play, req.moves)
    if request.method != "GET":
        return json_response(out, NO_STORE)
    if play is not None:
        return json_response(out, PLAY_CACHE)
    return json_response(out, GET_CACHE if not counted else NOTED_CACHE)


@bp.post("/games/<game>/hint")
@limit("hint")
@admitted
@operation("POST", "A hint on a numbered or explicit deal (a state body)",
           body=schema.NumberedHintBody, answer=schema.Hint, answer_text="The hint",
           params=(GAME,), problems=PROBLEMS)
def numbered_hint(game: str, body: schema.NumberedHintBody) -> Response:
    """The hint after the moves of a numbered-deal body (``seed`` or ``cards``)."""
    req = read_hint_request(body, game=game)
    seed = None if req.position.seed is None else str(req.position.seed)  # JSON: decimal
    out = {"game": req.position.name, "variant": req.position.variant, "seed": seed}
    out.update(hint_json(req))
    return json_response(out, NO_STORE)
