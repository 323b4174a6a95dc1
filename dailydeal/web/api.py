"""The ``/api/v1`` blueprint: daily deals, numbered deals, verification, state, solutions.

Thin by design: parse the request, call the store or ``dailydeal.verify``, format JSON.
Every error is a ``Problem`` (problems.py); an illegal move in a submitted solution is not an
error but a verdict (200). Dates later than the newest date begun on Earth are answered as
if nothing were stored, whatever the database holds, so a future deal never leaks.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, json, request, url_for
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from dailydeal import __version__
from dailydeal.daily import fairness, store
from dailydeal.games import GAMES, Game, default_variant, new_game
from dailydeal.memo import Memo
from dailydeal.rating import TIERS
from dailydeal.shuffle import MAX_SEED, seed_text
from dailydeal.verify import MAX_MOVES, replay, split_moves
from dailydeal.web import clock
from dailydeal.web.conditional import conditional
from dailydeal.web.db import get_db
from dailydeal.web.gameinfo import RULES
from dailydeal.web.problems import Problem

bp = Blueprint("api", __name__)

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=60"
NO_STORE = "no-store"
VERIFY_ENDPOINTS = ("api.verify_daily", "api.verify_numbered")
# a player's page asks for the state after every click: its own, larger budget (see __init__)
STATE_ENDPOINTS = ("api.state", "api.state_numbered")

# fullmatch with [0-9]: "\d" matches any Unicode digit ("١٢٣") and "$" a trailing newline
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SEED = re.compile(r"[0-9]{1,20}")


# --- helpers -----------------------------------------------------------------------------
def now() -> dt.datetime:
    """The current UTC time (``NOW`` in the config replaces the clock in tests)."""
    fn: Callable[[], dt.datetime] = current_app.config.get("NOW") or clock.utcnow
    return fn()


def json_response(data: Any, cache: str, status: int = 200) -> Response:
    """JSON with a strong ETag, ``Cache-Control`` and 304 on a matching If-None-Match."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    resp = Response(body, status=status, mimetype="application/json")
    resp.headers["Cache-Control"] = cache
    if status == 200 and cache != NO_STORE:
        resp.add_etag()
        return conditional(resp)
    return resp


def immutable_response(key: tuple[Any, ...], build: Callable[[], Any]) -> Response:
    """``json_response(build(), IMMUTABLE)``, remembered under ``key``: a published deal
    never changes, so it is read, formatted and hashed once per app and process, not on
    every request. Only successes are kept (a 404 may become a 200 when its date begins)."""
    memo: Memo[tuple[Any, ...], tuple[bytes, str]] = current_app.extensions.setdefault(
        "dailydeal_memo", Memo(4096)
    )

    def render() -> tuple[bytes, str]:
        body = json.dumps(build(), ensure_ascii=False, separators=(",", ":")).encode()
        return body, hashlib.sha1(body).hexdigest()

    body, etag = memo.get((request.script_root, *key), render)
    resp = Response(body, mimetype="application/json")
    resp.headers["Cache-Control"] = IMMUTABLE
    resp.set_etag(etag)
    return conditional(resp)


def parse_date(text: str) -> dt.date:
    if not _DATE.fullmatch(text):
        raise Problem(400, f"{text[:40]!r} is not a date: use YYYY-MM-DD or 'today'")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Problem(400, f"{text!r} is not a date of the calendar") from None


def published_date(text: str) -> dt.date:
    """A date that may be served, else 404 (an unpublished date looks like an empty one)."""
    day = parse_date(text)
    if not clock.is_published(day, now()):
        raise Problem(404, f"no deals are published for {day.isoformat()}")
    return day


def check_game(name: str) -> str:
    if name not in GAMES:
        raise Problem(404, f"unknown game {name[:40]!r}; games: {', '.join(GAMES)}")
    return name


def check_tier(name: str) -> str:
    if name not in TIERS:
        raise Problem(404, f"unknown tier {name[:40]!r}; tiers: {', '.join(TIERS)}")
    return name


def parse_seed(text: str) -> int:
    """A seed written in ASCII decimal digits, 0..MAX_SEED, else 400."""
    if not _SEED.fullmatch(text) or int(text) > MAX_SEED:
        raise Problem(400, f"a seed is an integer 0..{MAX_SEED}, not {text[:40]!r}")
    return int(text)


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


def published_row(id_: str) -> dict[str, Any]:
    row = store.get_deal(get_db(), id_) if len(id_) <= 100 else None
    if row is None or not clock.is_published(dt.date.fromisoformat(row["date"]), now()):
        raise Problem(404, f"no published deal with id {id_[:100]!r}")
    return row


def daily_games() -> tuple[tuple[str, str], ...]:
    """The (game, variant) pairs dealt every day: ``DAILYDEAL_GAMES``, as the pipeline
    reads it (``Settings.games``, in the app config as ``DAILY_GAMES``)."""
    return tuple(current_app.config["DAILY_GAMES"])


def complete(rows: Sequence[dict[str, Any]], games: Sequence[tuple[str, str]]) -> bool:
    """Every tier of every given (game, variant) is stored: the answer can no longer grow."""
    have = {(r["game"], r["variant"], r["tier"]) for r in rows}
    return all((g, v, t) in have for g, v in games for t in TIERS)


# --- request bodies ----------------------------------------------------------------------
def _raw_body() -> bytes:
    """The body, at most MAX_CONTENT_LENGTH bytes, else 413. Werkzeug checks a declared
    Content-Length itself but silently truncates a chunked body at the limit, which would
    then read as malformed JSON: read one byte more to tell the two apart."""
    limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    try:
        if request.content_length is None and chunked:
            # kept for a second reader (a route that reads its own fields of the body too)
            raw: bytes | None = request.environ.get("dailydeal.body")
            if raw is None:
                raw = request.environ["wsgi.input"].read(limit + 1)
                request.environ["dailydeal.body"] = raw
            if len(raw) > limit:
                raise RequestEntityTooLarge()
            return raw
        return request.get_data(cache=True)  # raises 413 over MAX_CONTENT_LENGTH
    except (ClientDisconnected, TimeoutError):
        # the body stopped short of its Content-Length, or stalled past the worker's I/O
        # timeout (web/worker.py), which Werkzeug reports as a disconnection
        detail = "the body did not arrive in full (short of its Content-Length)"
        raise Problem(408, detail) from None
    except HTTPException:
        raise  # 413
    except Exception as exc:  # noqa: BLE001 - the server's parser: a malformed chunk size...
        detail = f"the body could not be read ({type(exc).__name__}): malformed chunked body?"
        raise Problem(400, detail) from None


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or mimetype.endswith("+json")


def read_body(allow_text: bool = True) -> dict[str, Any]:
    """The JSON object of a POST body, or ``{"moves": text}`` for a text/plain body."""
    mimetype = request.mimetype
    data = _raw_body()
    if _is_json(mimetype):
        if not data.strip():
            raise Problem(400, 'the body is empty: send a JSON object such as {"moves": [...]}')
        try:
            payload = json.loads(data)
        except RecursionError:
            raise Problem(400, "the body is not valid JSON: nested too deeply") from None
        except ValueError as exc:
            raise Problem(400, f"the body is not valid JSON: {str(exc)[:200]}") from None
        if not isinstance(payload, dict):
            raise Problem(400, f"the body must be a JSON object, not {_kind(payload)}")
        return check_text(payload)
    if allow_text and mimetype == "text/plain":
        charset = request.mimetype_params.get("charset", "utf-8")
        try:
            text = data.decode(charset)
        except (UnicodeError, LookupError):  # UnicodeError: the "undefined" codec
            raise Problem(400, f"the text body is not valid {charset[:20]!r} text") from None
        return check_text({"moves": text})
    accepted = "application/json or text/plain" if allow_text else "application/json"
    raise Problem(
        415, f"send the body as {accepted}, not {mimetype or 'no content type'}", accept=accepted
    )


def check_text(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` unless a string in it holds a lone surrogate (JSON's "\\ud800"), which
    is no Unicode text: echoed in an answer, it cannot be encoded as UTF-8."""
    try:
        json.dumps(payload, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise Problem(
            400, "the body holds a lone surrogate (\\ud800-\\udfff): not Unicode text"
        ) from None
    return payload


def _kind(value: Any) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
        int: "a number",
        float: "a number",
    }.get(type(value), "a value")


def move_list(payload: dict[str, Any], required: bool = True) -> list[str]:
    if "moves" not in payload:
        if not required:
            return []
        raise Problem(400, "the body has no 'moves': a list of moves or a text in the notation")
    try:
        return split_moves(payload["moves"])
    except ValueError as exc:
        raise Problem(400, f"bad 'moves': {exc}", max_moves=MAX_MOVES) from None



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
def games() -> Response:
    return json_response({"games": [game_summary(g) for g in GAMES]}, "public, max-age=3600")


@bp.get("/games/<game>")
def game(game: str) -> Response:
    check_game(game)
    return json_response(
        {**game_summary(game), "rules": RULES.get(game, {})}, "public, max-age=3600"
    )


@bp.get("/games/<game>/deals/<seed>")
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


def numbered_position(game: str, required: bool = True) -> tuple[Game[Any], list[str]]:
    """The deal and moves of a numbered-deal body: ``{"seed" | "cards", "variant", "moves"}``."""
    check_game(game)
    payload = read_body(allow_text=False)
    seed, cards, variant = payload.get("seed"), payload.get("cards"), payload.get("variant")
    if isinstance(seed, str):
        seed = parse_seed(seed)  # as answers send it: JavaScript cannot hold 64 bits
    if (seed is None) == (cards is None):
        raise Problem(400, "give exactly one of 'seed' (an integer) and 'cards' (the 52 cards)")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise Problem(400, f"'seed' is an integer 0..{MAX_SEED}, not {_kind(seed)}")
    if cards is not None and not isinstance(cards, (str, list)):
        raise Problem(400, f"'cards' is a text or a list of 52 cards, not {_kind(cards)}")
    if variant is not None and not isinstance(variant, str):
        raise Problem(400, f"'variant' is a text, not {_kind(variant)}")
    moves = move_list(payload, required)
    try:
        position = new_game(game, seed, variant, cards)
    except (ValueError, TypeError) as exc:
        raise Problem(400, f"bad deal: {exc}") from None
    return position, moves


@bp.post("/games/<game>/verify")
def verify_numbered(game: str) -> Response:
    """Body ``{"seed": N | "cards": ..., "variant": ..., "moves": ...}`` -> verdict."""
    position, moves = numbered_position(game)
    out = {"game": position.name, "variant": position.variant, "seed": seed_text(position.seed)}
    out.update(replay(position, moves).to_json())
    return json_response(out, NO_STORE)


@bp.post("/games/<game>/state")
def state_numbered(game: str) -> Response:
    """The position after the moves of a numbered-deal body (thin clients)."""
    position, moves = numbered_position(game, required=False)
    return json_response(state_json(position, moves), NO_STORE)


# --- daily -------------------------------------------------------------------------------
def _today_redirect(rest: str) -> Response:
    try:
        day = clock.today_in(request.args.get("tz"), now())
    except ValueError as exc:
        raise Problem(400, str(exc)) from None
    target = url_for("api.daily", date=day.isoformat()) + rest
    if "variant" in request.args:  # the only query the dated URL reads
        target += "?" + urlencode({"variant": request.args["variant"]})
    resp = json_response({"date": day.isoformat(), "location": target}, SHORT, status=302)
    resp.headers["Location"] = target
    return resp


@bp.get("/daily/<date>")
def daily(date: str) -> Response:
    if date == "today":
        return _today_redirect("")
    day = published_date(date)
    rows = store.deals_on(get_db(), day)
    if not rows:
        raise Problem(404, f"no deals are stored for {day.isoformat()}")
    cache = IMMUTABLE if complete(rows, daily_games()) else SHORT
    return json_response({"date": day.isoformat(), "deals": [deal_object(r) for r in rows]}, cache)


@bp.get("/daily/<date>/<game>")
def daily_game(date: str, game: str) -> Response:
    if date == "today":
        check_game(game)
        return _today_redirect(f"/{game}")
    day = published_date(date)
    check_game(game)
    rows = store.deals_on(get_db(), day, game)
    if not rows:
        raise Problem(404, f"no {game} deals are stored for {day.isoformat()}")
    variants = sorted({(r["game"], r["variant"]) for r in rows})
    cache = IMMUTABLE if complete(rows, variants) else SHORT
    return json_response(
        {"date": day.isoformat(), "game": game, "deals": [deal_object(r) for r in rows]}, cache
    )


@bp.get("/daily/<date>/<game>/<tier>")
def daily_deal(date: str, game: str, tier: str) -> Response:
    if date == "today":
        check_game(game)
        check_tier(tier)
        return _today_redirect(f"/{game}/{tier}")
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
            raise Problem(404, f"no {tier} {game} deal is stored for {day.isoformat()}")
        return deal_object(rows[0])

    return immutable_response(("daily", day, game, tier, variant), build)


# --- one deal ----------------------------------------------------------------------------
@bp.get("/deals/<id_>")
def deal(id_: str) -> Response:
    # a stored row stays published once it is: published_row runs on the first request only
    return immutable_response(("deal", id_), lambda: deal_object(published_row(id_)))


@bp.post("/deals/<id_>/verify")
def verify_daily(id_: str) -> Response:
    """Body ``{"moves": [...]}`` or the moves as text/plain -> verdict (200 even if illegal)."""
    row = published_row(id_)
    moves = move_list(read_body())
    position = new_game(row["game"], row["seed"], row["variant"])
    return json_response({"deal": id_, **replay(position, moves).to_json()}, NO_STORE)


@bp.get("/deals/<id_>/solution")
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


def deal_position(id_: str) -> tuple[Game[Any], list[str]]:
    """The published deal ``id_`` dealt afresh, and the moves of the request: ``?moves=``
    on a GET (a shareable, cacheable URL), a body like verify's on a POST."""
    row = published_row(id_)
    if request.method == "POST":
        moves = move_list(read_body(), required=False)
    else:
        moves = move_list({"moves": request.args.get("moves", "")})
    return new_game(row["game"], row["seed"], row["variant"]), moves


@bp.route("/deals/<id_>/state", methods=["GET", "POST"])
def state(id_: str) -> Response:
    """The position after a move list (``?moves=`` or a body like verify's): for clients
    that do not implement the rules. An illegal move stops the replay and is reported."""
    position, moves = deal_position(id_)
    out = {"deal": id_, **state_json(position, moves)}
    return json_response(out, "public, max-age=86400" if request.method == "GET" else NO_STORE)


def state_json(position: Game[Any], moves: list[str]) -> dict[str, Any]:
    """The position after ``moves`` as a player sees it (no end-of-game completion); an
    illegal move stops the replay and is reported."""
    verdict = replay(position, moves, finish=False)
    return {
        "valid": verdict.valid,
        "error": None if verdict.error is None else verdict.error.to_json(),
        **position.to_json(),
        "seed": seed_text(position.seed),
    }


# --- service -----------------------------------------------------------------------------
@bp.get("/")
def index() -> Response:
    """Where to start: links to the games, today's deals, the feeds and the description."""
    return json_response(
        {
            "name": "dailydeal",
            "version": __version__,
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
def openapi_json() -> Response:
    from dailydeal.web.openapi import document

    return json_response(
        document(int(current_app.config["MAX_CONTENT_LENGTH"])), "public, max-age=3600"
    )
