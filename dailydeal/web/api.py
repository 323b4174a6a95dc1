"""The ``/api/v1`` blueprint: daily deals, numbered deals, verification, state, solutions.

Thin by design: parse the request, call the store or ``dailydeal.verify``, format JSON.
Every error is a ``Problem`` (problems.py); an illegal move in a submitted solution is not an
error but a verdict (200). Dates later than the newest date begun on Earth are answered as
if nothing were stored, whatever the database holds, so a future deal never leaks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, request, url_for

from dailydeal import __version__
from dailydeal.daily import clock, fairness, store
from dailydeal.games import GAMES, Game, default_variant, new_game
from dailydeal.rating import TIERS
from dailydeal.shuffle import seed_text
from dailydeal.verify import replay
from dailydeal.web import i18n, schema, solves
from dailydeal.web.db import get_db
from dailydeal.web.extensions import limit
from dailydeal.web.gameinfo import RULES
from dailydeal.web.http import (
    IMMUTABLE,
    NO_STORE,
    SHORT,
    check_game,
    check_tier,
    daily_games,
    immutable_response,
    json_response,
    move_list,
    now,
    numbered_position,
    parse_seed,
    published_date,
    published_row,
    published_start,
)
from dailydeal.web.operations import (
    CACHED,
    DATE,
    GAME,
    ID,
    MOVES,
    NOT_MODIFIED,
    SEED,
    TIER,
    TODAY,
    TZ,
    VARIANT,
    operation,
)
from dailydeal.web.problems import Problem
from dailydeal.web.reasons import move_error_json, verdict_json

bp = Blueprint("api", __name__)
VERDICT = "The verdict, also for illegal moves"
E429 = "Too many verify (or state) requests from this client: Retry-After says when"

# a player's page asks for the state after every click: its own, larger budget than verify's


# --- helpers of this blueprint ---------------------------------------------------------
def deal_object(row: dict[str, Any]) -> dict[str, Any]:
    """The public view of a stored deal: never its solution, which has its own URL."""
    day = dt.date.fromisoformat(row["date"])
    id_ = row["id"]
    return {
        "id": id_,
        "date": row["date"],
        "game": row["game"],
        "variant": row["variant"],
        "tier": row["tier"],
        "rating": row["rating"],
        "seed": seed_text(row["seed"]),
        "deal": row["deal"],
        "solution_length": row["solution_length"],
        # Whether no solution is shorter (the par): only what the solver stands behind
        "proved_shortest": store.proved_shortest(row),
        "solution_opens_at": clock.iso(clock.solution_opens_at(day)),
        # Served from the date on (published rows only): the nonce opens the commitment
        # listed at /commitments before the date began (docs/fairness.md).
        "commitment": fairness.published(row),
        "links": {
            "self": url_for("api.deal", id_=id_),
            "verify": url_for("api.verify_daily", id_=id_),
            "solution": url_for("api.solution", id_=id_),
            "state": url_for("api.state", id_=id_),
            "rules": url_for("api.game", game=row["game"]),
        },
    }


def complete(rows: Sequence[dict[str, Any]], games: Sequence[tuple[str, str]]) -> bool:
    """Every tier of every given (game, variant) is stored: the answer can no longer grow."""
    have = {(r["game"], r["variant"], r["tier"]) for r in rows}
    return all((g, v, t) in have for g, v in games for t in TIERS)



# --- games -------------------------------------------------------------------------------
def game_summary(name: str) -> dict[str, Any]:
    daily = {g: v for g, v in daily_games()}
    return {
        "name": name,
        "default_variant": default_variant(name),
        "daily_variant": daily.get(name),
        "variants": [{"name": v, "description": cls.description} for v, cls in GAMES[name].items()],
        "tiers": list(TIERS),
        "links": {
            "rules": url_for("api.game", game=name),
            "deal": url_for("api.numbered_deal", game=name, seed="42"),
            "verify": url_for("api.verify_numbered", game=name),
        },
    }


@bp.get("/games")
@operation("GET", "Games, variants, tiers and links to the rules", answer=schema.GameList,
           answer_text="Games")
def games() -> Response:
    return json_response({"games": [game_summary(g) for g in GAMES]}, "public, max-age=3600")


@bp.get("/games/<game>")
@operation("GET", "One game and a summary of its rules and notation", answer=schema.GameRules,
           answer_text="Game", params=(GAME,), problems=(404,))
def game(game: str) -> Response:
    check_game(game)
    return json_response(
        {**game_summary(game), "rules": RULES.get(game, {})}, "public, max-age=3600"
    )


@bp.get("/games/<game>/deals/<seed>")
@operation("GET", "A numbered deal, dealt on the fly (never stored)", answer=schema.NumberedDeal,
           answer_text="Deal", params=(GAME, SEED, VARIANT), problems=(400, 404),
           responses={"200": {"headers": CACHED}, **NOT_MODIFIED})
def numbered_deal(game: str, seed: str) -> Response:
    """Any seed of any variant, dealt on the fly: the same cards forever."""
    check_game(game)
    number = parse_seed(seed)
    variant = request.args.get("variant")
    try:
        position = new_game(game, number, variant)
    except ValueError as exc:
        raise Problem(400, str(exc)) from None
    return json_response(
        {
            "game": position.name,
            "variant": position.variant,
            "seed": seed_text(position.seed),
            "deal": position.deal_json(),
            "links": {
                "verify": url_for("api.verify_numbered", game=game),
                "rules": url_for("api.game", game=game),
            },
        },
        IMMUTABLE,
    )


@bp.post("/games/<game>/verify")
@limit("verify")
@operation("POST", "Verify moves on a numbered or explicit deal", body=schema.NumberedVerifyBody,
           answer=schema.Verdict, answer_text=VERDICT, params=(GAME,),
           problems={404: "", 429: E429})
def verify_numbered(game: str, body: schema.NumberedVerifyBody) -> Response:
    """Body ``{"seed": N | "cards": ..., "variant": ..., "moves": ...}`` -> verdict."""
    position, moves = numbered_position(game, body)
    out: dict[str, Any] = {"game": position.name, "variant": position.variant,
                           "seed": seed_text(position.seed)}
    verdict = replay(position, moves)
    out.update(verdict_json(verdict))
    if body.seed is not None and (kept := solves.record_win(verdict, position, None)):
        out["solve"] = kept  # a deal of explicit cards has no name to sign
    return json_response(out, NO_STORE)


@bp.post("/games/<game>/state")
@limit("state")
@operation("POST", "The position after moves on a numbered or explicit deal",
           body=schema.NumberedStateBody, answer=schema.State, answer_text="Position",
           params=(GAME,), problems={404: "", 429: E429})
def state_numbered(game: str, body: schema.NumberedStateBody) -> Response:
    """The position after the moves of a numbered-deal body (thin clients)."""
    position, moves = numbered_position(game, body)
    return json_response(state_json(position, moves), NO_STORE)


# --- daily -------------------------------------------------------------------------------
def _today() -> dt.date:
    """Today in the request's ``tz``; a ``tz`` that is no zone is a 400 whatever the date
    asked (only ``today`` reads it, but the document says what a ``tz`` is)."""
    try:
        return clock.today_in(request.args.get("tz"), now())
    except ValueError as exc:
        raise Problem(400, str(exc)) from None


def _today_redirect(rest: str) -> Response:
    day = _today()
    target = url_for("api.daily", date=day.isoformat()) + rest
    if "variant" in request.args:  # the only query the dated URL reads
        target += "?" + urlencode({"variant": request.args["variant"]})
    resp = json_response({"date": day.isoformat(), "location": target}, SHORT, status=302)
    resp.headers["Location"] = target
    return resp


@bp.get("/daily/<date>")
@operation("GET", "Every deal of a date", answer=schema.DealList, answer_text="Deals",
           params=(DATE, TZ), problems=(400, 404), responses={**TODAY, **NOT_MODIFIED})
def daily(date: str) -> Response:
    if date == "today":
        return _today_redirect("")
    _today()  # a bad tz
    day = published_date(date)
    rows = store.deals_on(get_db(), day)
    if not rows:
        raise Problem(404, f"no deals are stored for {day.isoformat()}",
                      code="date_not_published")
    cache = IMMUTABLE if complete(rows, daily_games()) else SHORT
    return json_response({"date": day.isoformat(), "deals": [deal_object(r) for r in rows]}, cache)


@bp.get("/daily/<date>/<game>")
@operation("GET", "The four tiers of one game on a date", answer=schema.DealList,
           answer_text="Deals", params=(DATE, GAME, TZ), problems=(400, 404),
           responses={**TODAY, **NOT_MODIFIED})
def daily_game(date: str, game: str) -> Response:
    if date == "today":
        check_game(game)
        return _today_redirect(f"/{game}")
    _today()  # a bad tz
    day = published_date(date)
    check_game(game)
    rows = store.deals_on(get_db(), day, game)
    if not rows:
        raise Problem(404, f"no {game} deals are stored for {day.isoformat()}",
                      code="not_stored")
    variants = sorted({(r["game"], r["variant"]) for r in rows})
    cache = IMMUTABLE if complete(rows, variants) else SHORT
    return json_response(
        {"date": day.isoformat(), "game": game, "deals": [deal_object(r) for r in rows]}, cache
    )


@bp.get("/daily/<date>/<game>/<tier>")
@operation("GET", "One daily deal", answer=schema.Deal, answer_text="Deal",
           params=(DATE, GAME, TIER, TZ, VARIANT), problems=(400, 404),
           responses={"200": {"headers": CACHED}, **TODAY, **NOT_MODIFIED})
def daily_deal(date: str, game: str, tier: str) -> Response:
    if date == "today":
        check_game(game)
        check_tier(tier)
        return _today_redirect(f"/{game}/{tier}")
    _today()  # a bad tz
    day = published_date(date)
    check_game(game)
    check_tier(tier)
    variant = request.args.get("variant")

    def build() -> dict[str, Any]:
        rows = store.deals_on(get_db(), day, game, tier)
        if variant is not None:
            rows = [r for r in rows if r["variant"] == variant]
        else:
            daily = {g: v for g, v in daily_games()}
            preferred = [r for r in rows if r["variant"] == daily.get(game)]
            rows = preferred or rows
        if not rows:
            raise Problem(404, f"no {tier} {game} deal is stored for {day.isoformat()}",
                          code="not_stored")
        return deal_object(rows[0])

    return immutable_response(("daily", day, game, tier, variant), build)


# --- one deal ----------------------------------------------------------------------------
@bp.get("/deals/<id_>")
@operation("GET", "One daily deal by id", answer=schema.Deal, answer_text="Deal", params=(ID,),
           problems=(404,), responses={"200": {"headers": CACHED}, **NOT_MODIFIED})
def deal(id_: str) -> Response:
    # a stored row stays published once it is: published_row runs on the first request only
    return immutable_response(("deal", id_), lambda: deal_object(published_row(id_)))


@bp.post("/deals/<id_>/verify")
@limit("verify")
@operation("POST", "Verify a solution of a daily deal (rate limited per client)",
           body=schema.MovesBody, text=True, answer=schema.Verdict, answer_text=VERDICT,
           params=(ID,), problems={404: "", 429: E429})
def verify_daily(id_: str, body: schema.MovesBody) -> Response:
    """Body ``{"moves": [...]}`` or the moves as text/plain -> verdict (200 even if illegal)."""
    position = published_start(id_)  # its cards: dealt once per process (else 404)
    verdict = replay(position, body.moves)
    out = {"deal": id_, **verdict_json(verdict)}
    if (kept := solves.record_win(verdict, position, id_)) is not None:
        out["solve"] = kept  # the win kept and signed: its page is a link to share
    return json_response(out, NO_STORE)


@bp.get("/deals/<id_>/solution")
@operation("GET", "The stored solution, once the date is over everywhere",
           answer=schema.Solution, answer_text="Solution", params=(ID,),
           problems={403: "Not yet: `opens_at` says when", 404: ""}, responses=NOT_MODIFIED)
def solution(id_: str) -> Response:
    row = published_row(id_)
    day = dt.date.fromisoformat(row["date"])
    opens = clock.solution_opens_at(day)
    current = now()
    if current < opens:
        wait = int((opens - current).total_seconds()) + 1
        raise Problem(
            403,
            f"the solution of {id_} opens at {clock.iso(opens)}, when {day.isoformat()} "
            "is over everywhere on Earth (24:00 at UTC-12)",
            code="solution_locked",
            opens_at=clock.iso(opens),
            headers={"Retry-After": str(wait), "Cache-Control": f"public, max-age={min(wait, 60)}"},
        )
    return json_response(
        {
            "id": id_,
            "moves": row["solution"],  # the shape of a verify body: pipe it back to verify
            "solution_length": row["solution_length"],
            "links": {
                "deal": url_for("api.deal", id_=id_),
                "verify": url_for("api.verify_daily", id_=id_),
            },
        },
        IMMUTABLE,
    )


@bp.route("/deals/<id_>/state", methods=["GET", "POST"])
@limit("state")
@operation("GET", "The position after a move list (thin clients)", answer=schema.State,
           answer_text="Position", params=(ID, MOVES), problems={400: "", 404: "", 429: E429},
           responses=NOT_MODIFIED)
@operation("POST", "The position after a move list (thin clients)", body=schema.StateBody,
           text=True, answer=schema.State, answer_text="Position", params=(ID,),
           problems={404: "", 429: E429})
def state(id_: str, body: schema.StateBody | None = None) -> Response:
    """The position after a move list (``?moves=`` or a body like verify's): for clients
    that do not implement the rules. An illegal move stops the replay and is reported."""
    position = published_start(id_)
    # ?moves= on a GET (a shareable, cacheable URL)
    moves = body.moves if body is not None else move_list(
        {"moves": request.args.get("moves", "")})
    out = {"deal": id_, **state_json(position, moves)}
    return json_response(out, "public, max-age=86400" if request.method == "GET" else NO_STORE)


def state_json(position: Game[Any], moves: list[str]) -> dict[str, Any]:
    """The position after ``moves`` as a player sees it (no end-of-game completion); an
    illegal move stops the replay and is reported."""
    verdict = replay(position, moves, finish=False)
    return {
        "valid": verdict.valid,
        "error": move_error_json(verdict.error),
        **position.to_json(),
        "seed": seed_text(position.seed),
    }


# --- service -----------------------------------------------------------------------------
@bp.get("/")
@operation("GET", "Where to start: links to games, today, feeds, this document",
           answer=schema.Index, answer_text="Links")
def index() -> Response:
    """Where to start: links to the games, today's deals, the feeds and the description."""
    return json_response(
        {
            "name": "dailydeal",
            "version": __version__,
            # the languages of the pages and of the element (static/locales/{locale}.json)
            "locales": i18n.locales(),
            "links": {
                "games": url_for("api.games"),
                "today": url_for("api.daily", date="today"),
                "feed_json": url_for("feeds.feed_json"),
                "feed_atom": url_for("feeds.feed_atom"),
                "openapi": url_for("api.openapi_json"),
                "health": url_for("api.healthz"),
                "play": url_for("pages.daily_page"),
            },
        },
        "public, max-age=3600",
    )


@bp.get("/healthz")
@operation("GET", "Health: the database answers; dates of today missing, if any",
           answer=schema.Health, answer_text="Health",
           problems={503: "Database unavailable"})
def healthz() -> Response:
    """Liveness and readiness: the database answers and today's deals are there."""
    current = now()
    first, last = clock.earliest_today(current), clock.latest_published(current)
    dates = [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]
    try:
        keys = store.missing_keys(get_db(), dates, daily_games(), TIERS)
    except Exception as exc:  # noqa: BLE001 - any database failure is "unhealthy"
        raise Problem(503, f"the database does not answer: {type(exc).__name__}") from None
    missing = [f"{d.isoformat()}-{g}-{v}-{t}" for d, g, v, t in keys]
    return json_response(
        {
            "status": "ok" if not missing else "degraded",
            "version": __version__,
            "time": clock.iso(current),
            "today": [first.isoformat(), last.isoformat()],
            "missing": missing,  # date-game-variant-tier of today's deals not stored yet
        },
        NO_STORE,
    )


@bp.get("/openapi.json")
@operation("GET", "This document", answer_text="OpenAPI 3.1",
           media={"application/json": {"type": "object"}})
def openapi_json() -> Response:
    from dailydeal.web.openapi import document  # pydantic's schema writer: when asked

    return json_response(document(current_app._get_current_object()),  # type: ignore
                         "public, max-age=3600")
