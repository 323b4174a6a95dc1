"""Results routes: ``POST /deals/{id}/results`` and ``GET /deals/{id}/stats``.

A result counts in the shared statistics only for a play the server saw begin
(``POST /deals/{id}/plays``, web/plays.py): its token must be valid, for this deal and
unused; the hints are the server's count for the play (and the hints its network asked on
its line without the token), and the time is the server's. The moves are verified, then the
result is taken once per client and deal (dailydeal.results) and counted when the play's
rules allow (``results.Counting``): no sooner than ``plays.min_seconds(moves)`` after the
play began, and one result per network and deal every ``interval()`` seconds
(``counted_rate_limit``), the network being the one that began the play. Due now: 201,
counted. Later: 202, pending, counted at ``counts_at`` by the server itself (``count_due``
here, at each result and statistics request, and the scheduler's job,
``results.due``): nothing is posted again. The answer holds the deal's statistics with the
play in them. The same post again is 200; a different one is 409 with the result that
counts. Every refusal is a problem whose ``reason`` says why nothing was taken:

- 422 ``no-play`` / ``bad-play`` (no token, or not one of this deal), ``empty`` (no move:
  not a play), ``illegal`` (a move the rules refuse);
- 409 ``play-used`` (the token's result was taken already) or ``client-counted``;
- 429 ``counted-limit``: the network's turn would come after the deal's results close.

Results are taken while the deal's date lasts somewhere on Earth; once its solution opens
they are closed (403) and the statistics are final. Budgets per client network (the
address is never stored; ``extensions.network``): ``results_rate_limit`` posts,
``stats_rate_limit`` statistics, in the rate-limit storage (shared by every worker with
Redis); the turns are kept with the results. Refusals are ``no-store``: they are about one
client's post.

Where: the SQLite file by default (one machine); with ``redis_url`` (env
``DAILYDEAL_REDIS_URL``) in Redis (dailydeal.results.redis_store), so that every API node
counts the same results. A store that does not answer or cannot be written is a 503 (in
about half a second for Redis, 1.5 s for a locked SQLite file), never a half-stored
result; a SQLite connection that failed is dropped, so the next request opens a fresh one
(a file made writable again works without a restart).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import math
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, url_for

from dailydeal import results
from dailydeal.daily import clock
from dailydeal.results import ResultsStore, plays, sqlite_store
from dailydeal.web import schema
from dailydeal.web.db import forget, get_db
from dailydeal.web.extensions import limit, network, settings
from dailydeal.web.http import NO_STORE, json_response, now, published_row
from dailydeal.web.operations import ID, NOT_MODIFIED, json_answer, operation
from dailydeal.web.problems import Problem
from dailydeal.web.reasons import move_error_json

bp = Blueprint("results", __name__)
CLOSED = "Results closed: the solution is published"
log = logging.getLogger(__name__)

OPEN_STATS = "public, max-age=30"  # results still come in
FINAL_STATS = "public, max-age=86400"  # results are closed: the numbers are final
PRUNE_EVERY = 3600.0  # seconds between two retention passes of one process (SQLite)
T = TypeVar("T")
_pruned: dict[str, float] = {}
_prune_lock = threading.Lock()


# --- the store: SQLite or Redis, every failure a 503 ---------------------------------------
def shared() -> ResultsStore | None:
    """The app's Redis store (redis_store.RedisStore) when results live in Redis, else None."""
    url = settings().redis_url
    if not url:
        return None
    store = current_app.extensions.get("dailydeal_results_redis")
    if store is None:
        from dailydeal.results import redis_store  # the optional `redis` client

        redis: ResultsStore = redis_store.RedisStore(redis_store.connect(url))
        store = redis
        current_app.extensions["dailydeal_results_redis"] = store
    return store


def unavailable(detail: str = "the results store does not answer") -> Problem:
    return Problem(503, f"{detail}; retry in a few seconds", headers={"Retry-After": "5",
                   "Cache-Control": "no-store"})


def use_store(fn: Callable[[ResultsStore], T]) -> T:
    """Run ``fn`` on the store that holds results (Redis, else the SQLite file); a store
    that fails is a 503 (a SQLite connection that failed is closed: the next one is fresh)."""
    store = shared()
    if store is not None:
        try:
            return fn(store)
        except results.Unavailable:
            raise unavailable() from None
    path = settings().db_path
    for attempt in (1, 2):
        try:
            return fn(sqlite_store.SqliteStore(get_db()))
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:  # locked, read-only, I/O error, full disk...
            log.warning("results store %s failed: %s", path, exc)
            forget(path)
            # a connection opened while the file was read-only stays so: one fresh try
            if attempt == 2 or "readonly" not in str(exc):
                raise unavailable(f"the results store cannot be written ({exc})") from None
    raise AssertionError("unreachable")


def play_key() -> bytes:
    """The key that signs play tokens (read once per app: it never changes)."""
    key: bytes | None = current_app.extensions.get("dailydeal_play_key")
    if key is None:
        key = use_store(lambda s: s.play_key())
        current_app.extensions["dailydeal_play_key"] = key
    return key


def results_close(row: dict[str, Any]) -> dt.datetime:
    return clock.solution_opens_at(dt.date.fromisoformat(row["date"]))


def is_open(row: dict[str, Any], current: dt.datetime) -> bool:
    """Whether the deal still takes plays, hints counted on them and results."""
    return current < results_close(row)


def open_row(id_: str) -> tuple[dict[str, Any], dt.datetime]:
    """The row of a deal that is published and still takes results, and the time now; a
    404 if it is not published, a 403 (``closed``) once its solution is out."""
    row = published_row(id_)
    current = now()
    if not is_open(row, current):
        raise closed(id_, row)
    return row, current


def closed(id_: str, row: dict[str, Any]) -> Problem:
    opens = results_close(row)
    return Problem(
        403,
        f"results of {id_} closed at {clock.iso(opens)}, when its solution was "
        "published; the statistics are final",
        code="results_closed",
        closed_at=clock.iso(opens),
        headers={"Cache-Control": "no-store"},
    )


def refused(status: int, reason: str, detail: str, **extra: Any) -> Problem:
    """A result that did not count: ``reason`` for programs, ``detail`` for people;
    ``no-store`` (about one client's post, never to be cached)."""
    headers = {"Cache-Control": "no-store", **extra.pop("headers", {})}
    return Problem(status, detail, reason=reason, counted=False, headers=headers, **extra)


def _retention() -> dt.timedelta:
    return dt.timedelta(days=settings().results_retention_days)


def _prune(current: dt.datetime) -> None:
    """Drop old move lists and spent plays, at most once per PRUNE_EVERY per process and
    file (SQLite; Redis expires its keys itself). Failures only log: nothing depends on
    it but the file's size."""
    path = str(settings().db_path)
    with _prune_lock:
        if time.monotonic() - _pruned.get(path, -math.inf) < PRUNE_EVERY:
            return
        _pruned[path] = time.monotonic()
    day = current.date()
    offset = clock.solution_opens_at(day) - dt.datetime.combine(day, dt.time(), dt.UTC)
    results_before = (current - _retention() - offset).date() + dt.timedelta(days=1)
    plays_before = (current - offset).date() + dt.timedelta(days=1)
    try:
        rows, spent = sqlite_store.prune(get_db(), results_before, plays_before, current)
    except sqlite3.Error as exc:
        log.warning("retention pass failed: %s", exc)
        return
    if rows or spent:
        log.info("retention: %d results before %s and %d plays dropped", rows,
                 results_before, spent)


# --- routes ------------------------------------------------------------------------------
def no_store_refusals(resp: Response) -> Response:
    """Every 4xx and 5xx of a play, result or statistics request is about one client's
    request (or a passing outage): never cached (problems default to max-age=60)."""
    if resp.status_code >= 400:
        resp.headers["Cache-Control"] = "no-store"
    return resp


bp.after_request(no_store_refusals)


def _play(id_: str, token: Any) -> plays.Play:
    if token is None:
        raise refused(422, "no-play", "a result counts only for a play the server saw begin: "
                      f"send the 'play' token of POST /api/v1/deals/{id_}/plays")
    try:
        return plays.read(play_key(), id_, token)
    except plays.BadPlay as exc:
        raise refused(422, "bad-play", f"{exc}; nothing was counted") from None


def _answer(id_: str, inserted: bool, row: dict[str, Any], deal: dict[str, Any]) -> Response:
    """201: counted now; 202: accepted, counted at ``counts_at``; 200: the same post again.
    ``stats``: the deal's statistics with this result in them (counted or not yet)."""
    pending = not row.get("counted", 1)
    at = row.get("counts_at")
    body = {
        "deal": id_,
        "counted": inserted and not pending,
        "pending": pending,
        "counts_at": None if at is None else clock.iso(dt.datetime.fromtimestamp(at, dt.UTC)),
        "result": results.row_result(row).to_json(),
        "stats": stats_body(id_, deal, row),
        "links": {"stats": url_for("results.stats", id_=id_)},
    }
    return json_response(body, NO_STORE, status=(202 if pending else 201) if inserted else 200)


def _existing(id_: str, client: str, moves: list[str], play: plays.Play,
              deal: dict[str, Any]) -> Response | None:
    """The answer to a post by a client that has a result already (a retry: 200; another
    result: 409), or to a play counted already (409); None if neither."""
    row = use_store(lambda s: s.stored(id_, client))
    if row is not None:
        if json.loads(row["move_list"]) == moves:
            return _answer(id_, False, row, deal)  # the same post again: a retry
        raise refused(409, "client-counted", f"this client already has a result for {id_}: "
                      "a deal counts once per player",
                      result=results.row_result(row).to_json())
    _, used = use_store(lambda s: s.play_state(id_, play.id))
    if used:
        raise refused(409, "play-used", "this play's result was counted already: a play "
                      "token counts one result")
    return None


def interval() -> float:
    """Seconds between two counted results of one network on one deal: the period of
    ``counted_rate_limit`` over its amount (``1 per minute``: 60 s)."""
    from limits import parse

    item = parse(settings().counted_rate_limit)
    return item.get_expiry() / max(1, item.amount)


def network_tag(id_: str) -> str:
    """This request's network, named for the deal (``plays.network_tag``: no address)."""
    return plays.network_tag(play_key(), id_, network())


def count_due(current: dt.datetime) -> None:
    """Count the results whose turn has come (the lazy half of the counting: the
    scheduler's minute job is the other, ``results.due``). A failure only logs: the
    next request or the job counts them."""
    try:
        if shared() is not None:
            shared_store = shared()
            assert shared_store is not None
            shared_store.count_due(current)
        else:
            sqlite_store.SqliteStore(get_db()).count_due(current)
    except (results.Unavailable, sqlite3.Error) as exc:
        log.warning("pending results not counted now: %s", exc)


def stats_body(id_: str, row: dict[str, Any], mine: dict[str, Any] | None = None,
               ) -> dict[str, Any]:
    """The statistics answer of a deal; with ``mine`` (a stored result row not counted
    yet) that result counted in: the poster's own view until its turn comes."""
    final = clock.solution_open(dt.date.fromisoformat(row["date"]), now())
    numbers = use_store(lambda s: s.deal_stats(id_))
    if mine is not None and not mine.get("counted", 1):
        numbers = results.stats_with(numbers, results.row_result(mine))
    return {"deal": id_, **numbers, "solution_length": row["solution_length"],
            "final": final}


@bp.post("/deals/<id_>/results")
@limit("results")
@operation(
    "POST", "Count a verified play of a daily deal, once per client and play",
    description="Taken only with a valid, unused play token of this deal; counted at once "
    "when its rules allow (its play began min_seconds_per_move x moves ago, and its "
    "network's turn on this deal has come: DAILYDEAL_COUNTED_LIMIT), else accepted (202) "
    "and counted by the server at `counts_at`, with nothing more to send. `stats` holds "
    "this result either way. Every refusal is a problem with `reason` and "
    "`counted: false`.",
    body=schema.ResultBody, answer=schema.ResultAnswer, answer_text="Counted", status=201,
    params=(ID,),
    responses={
        "200": json_answer("The same post again: not counted twice", "ResultAnswer"),
        "202": json_answer("Accepted: counted by the server at `counts_at` (pending)",
                           "ResultAnswer"),
    },
    problems={
        403: CLOSED, 404: "",
        409: "reason `client-counted` (this client has another result for this deal: "
        "`result`) or `play-used`",
        422: "reason `no-play`, `bad-play` (not a token of this deal), `empty` (no move) "
        "or `illegal` (`error` says which)",
        429: "reason `counted-limit` (the turn of the play's network on this deal would "
        "come after its results close: nothing was stored) or DAILYDEAL_RESULTS_LIMIT posts",
        503: "The results store does not answer or cannot be written",
    },
)
def post_result(id_: str, body: schema.ResultBody) -> Response:
    """Body ``{"client", "moves", "play", "seconds"}`` -> 201 counted, 200 repeat, 4xx."""
    row, current = open_row(id_)
    client, moves, reported = body.client, body.moves, body.seconds
    play = _play(id_, body.play)  # before the replay: a forged post costs a hash, not a replay
    if not moves:
        raise refused(422, "empty", "an empty move list is not a play: nothing was counted "
                      "(give up after a move or more and it counts as a play not won)")
    elapsed = play.elapsed(current)
    result, error = results.judge(row, moves, 0, elapsed, reported)
    if error is not None:
        raise refused(
            422, "illegal",
            f"move {error.index} ({error.move[:20]!r}) is illegal: {error.reason}; "
            "only a legal move list counts",
            error=move_error_json(error),
        )
    count_due(current)
    if (answer := _existing(id_, client, moves, play, row)) is not None:
        return answer
    # hints asked on this line without the token, by the play's network or this one
    here = network_tag(id_)
    nets = sorted({here, play.network} - {""})
    lines = results.line_hashes(moves)
    extra = use_store(lambda s: s.marked(id_, nets, lines))
    result = dataclasses.replace(result, hints=extra)
    need = plays.min_seconds(len(moves), float(settings().min_seconds_per_move))
    closes = results_close(row)
    counting = results.Counting(play.network or here, play.issued + need, interval(),
                                current.timestamp(), closes.timestamp())
    drop_at = closes + _retention()
    try:
        inserted, stored = use_store(lambda s: s.record(
            id_, client, result, moves, current, play.id, drop_at, closes, counting))
    except results.PlayUsed:
        raise refused(409, "play-used", "this play's result was counted already: a play "
                      "token counts one result") from None
    except results.QueueFull as full:
        at = clock.iso(dt.datetime.fromtimestamp(full.at, dt.UTC))
        raise refused(
            429, "counted-limit",
            f"the results of this network on {id_} are counted one every "
            f"{interval():g} s ({settings().counted_rate_limit}), and this one's turn "
            f"({at}) would come after its results close ({clock.iso(closes)}): nothing was "
            "stored", limit=settings().counted_rate_limit, counts_at=at,
        ) from None
    if shared() is None:
        _prune(current)
    if inserted:
        return _answer(id_, True, stored, row)
    if json.loads(stored["move_list"]) == moves:
        return _answer(id_, False, stored, row)  # a retry that raced its first post
    raise refused(409, "client-counted", f"this client already has a result for {id_}: "
                  "a deal counts once per player",
                  result=results.row_result(stored).to_json())


@bp.get("/deals/<id_>/stats")
@limit("stats")
@operation("GET", "Plays, wins, win rate and winning move counts of a daily deal",
           description="Aggregates kept as results are counted: one read.",
           answer=schema.Stats, answer_text="Statistics", params=(ID,), responses=NOT_MODIFIED,
           problems={404: "", 429: "More than DAILYDEAL_STATS_LIMIT requests from this address",
                     503: "The results store does not answer (Retry-After)"})
def stats(id_: str) -> Response:
    """Plays, wins, win rate, winning move counts, best count and the solver's length:
    the deal's aggregates (one read, whatever the number of results)."""
    row = published_row(id_)
    count_due(now())
    out = stats_body(id_, row)
    return json_response(out, FINAL_STATS if out["final"] else OPEN_STATS)
