"""HTTP helpers shared by the blueprints of ``web/``: answers (JSON with ETag and
``Cache-Control``, immutable answers remembered once), path parameters (dates, games,
tiers, seeds, published deals) and request bodies (JSON or text, bounded, with a readable
problem for every malformed one). No routes here: the blueprints import these.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import Response, current_app, json, request
from pydantic import BaseModel, ValidationError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from dailydeal.daily import clock, store
from dailydeal.games import GAMES, Game, new_game
from dailydeal.memo import Memo
from dailydeal.rating import TIERS
from dailydeal.shuffle import MAX_SEED
from dailydeal.verify import MAX_MOVES
from dailydeal.web import schema
from dailydeal.web.conditional import conditional
from dailydeal.web.db import get_db
from dailydeal.web.extensions import settings
from dailydeal.web.problems import Problem

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=60"
NO_STORE = "no-store"
MEMO = "dailydeal_memo"  # app.extensions key
M = TypeVar("M", bound=BaseModel)

# fullmatch with [0-9]: "\d" matches any Unicode digit ("١٢٣") and "$" a trailing newline
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SEED = re.compile(r"[0-9]{1,20}")


# --- answers and path parameters ---------------------------------------------------------
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


def add_missing(headers: Headers, items: Iterable[tuple[str, str]]) -> set[str]:
    """``headers.setdefault(name, value)`` for each item, in one pass, and the lower-case
    names that were there before. Werkzeug's ``setdefault`` scans the header list (lowering
    every name) for each header, and raises and catches a ``BadRequestKeyError`` for each
    absent one; ``Headers.extend`` costs about 1 us a header: the missing ones are written
    with one slice assignment."""
    present = {name.lower() for name, _ in headers}
    headers[len(headers):] = [item for item in items if item[0].lower() not in present]
    return present


def app_memo() -> Memo[Any, Any]:
    """The app's memo of what a published deal never changes (answers, what it is dealt
    from), made at its first use: one per app and process. (``setdefault`` with a new
    ``Memo`` as its default made one, lock and cache, on every request only to drop it.)"""
    memo: Memo[Any, Any] | None = current_app.extensions.get(MEMO)
    if memo is None:
        memo = current_app.extensions.setdefault(MEMO, Memo(4096))
    return memo


def immutable_response(key: tuple[Any, ...], build: Callable[[], Any]) -> Response:
    """``json_response(build(), IMMUTABLE)``, remembered under ``key``: a published deal
    never changes, so it is read, formatted and hashed once per app and process, not on
    every request. Only successes are kept (a 404 may become a 200 when its date begins)."""
    memo: Memo[tuple[Any, ...], tuple[bytes, str]] = app_memo()

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
        raise Problem(400, f"{text[:40]!r} is not a date: use YYYY-MM-DD or 'today'",
                      code="bad_date")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Problem(400, f"{text!r} is not a date of the calendar", code="bad_date") from None


def published_date(text: str) -> dt.date:
    """A date that may be served, else 404 (an unpublished date looks like an empty one)."""
    day = parse_date(text)
    if not clock.is_published(day, now()):
        raise Problem(404, f"no deals are published for {day.isoformat()}",
                      code="date_not_published")
    return day


def check_game(name: str) -> str:
    if name not in GAMES:
        raise Problem(404, f"unknown game {name[:40]!r}; games: {', '.join(GAMES)}",
                      code="unknown_game")
    return name


def check_tier(name: str) -> str:
    if name not in TIERS:
        raise Problem(404, f"unknown tier {name[:40]!r}; tiers: {', '.join(TIERS)}",
                      code="unknown_tier")
    return name


def parse_seed(text: str) -> int:
    """A seed written in ASCII decimal digits, 0..MAX_SEED, else 400."""
    if not _SEED.fullmatch(text) or int(text) > MAX_SEED:
        raise Problem(400, f"a seed is an integer 0..{MAX_SEED}, not {text[:40]!r}",
                      code="bad_seed")
    return int(text)


def published_row(id_: str) -> dict[str, Any]:
    row = store.get_deal(get_db(), id_) if len(id_) <= 100 else None
    if row is None or not clock.is_published(dt.date.fromisoformat(row["date"]), now()):
        raise Problem(404, f"no published deal with id {id_[:100]!r}",
                      code="deal_not_found")
    return row


def published_start(id_: str) -> Game[Any]:
    """A new game at the deal of the published ``id_`` (else 404), for a replay (verify,
    state). What it is dealt from (game, seed, variant) never changes once an id is
    published (a recheck may change its solution, never its cards), so it is read from the
    database, and its cards shuffled from the seed, once per app and process, as
    ``immutable_response`` keeps published answers: each replay only lays the cards out."""
    memo: Memo[tuple[Any, ...], tuple[type[Game[Any]], tuple[int, ...], int]] = app_memo()

    def read() -> tuple[type[Game[Any]], tuple[int, ...], int]:
        row = published_row(id_)
        dealt = new_game(row["game"], row["seed"], row["variant"])
        return type(dealt), dealt.cards, row["seed"]

    cls, cards, seed = memo.get(("start", id_), read)
    return cls(cards, seed)  # what cls.from_seed(seed) makes, without the shuffle


def daily_games() -> tuple[tuple[str, str], ...]:
    """The (game, variant) pairs dealt every day: ``DAILYDEAL_GAMES``, as the pipeline
    reads it (``Settings.games``)."""
    return tuple(settings().games)


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
            raise Problem(400, f"the body must be a JSON object, not {schema.kind(payload)}")
        if data.isascii() and b"\\u" not in data:
            # no text in it can hold a surrogate: those come from a \u escape or from bytes
            # past ASCII (json.loads reads bytes with "surrogatepass"); saves encoding it all
            return payload
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


def read_model(model: type[M], payload: dict[str, Any], strict: bool | None = None) -> M:
    """``payload`` validated as ``model`` (web/schema.py), else a 400 that words the first
    refusal; a bad move list's problem also says how many moves are accepted. ``strict``
    False reads a query's texts as numbers where the model wants one."""
    try:
        return model.model_validate(payload, strict=strict)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        detail = schema.reason(model, error)
        if error["loc"][:1] == ("moves",):
            raise Problem(400, detail, max_moves=MAX_MOVES) from None
        raise Problem(400, detail) from None


def move_list(payload: dict[str, Any], required: bool = True) -> list[str]:
    """The moves of a body (or of a query's ``moves``): a list or a text in the notation."""
    if required:
        return read_model(schema.MovesBody, payload).moves
    return read_model(schema.StateBody, payload).moves


def numbered_position(
    game: str, body: schema.NumberedStateBody
) -> tuple[Game[Any], list[str]]:
    """The deal and moves of a numbered-deal body: ``{"seed" | "cards", "variant", "moves"}``."""
    check_game(game)
    # a string as answers send it (JavaScript cannot hold 64 bits)
    seed = parse_seed(body.seed) if isinstance(body.seed, str) else body.seed
    try:
        position = new_game(game, seed, body.variant, body.cards)
    except (ValueError, TypeError) as exc:
        raise Problem(400, f"bad deal: {exc}") from None
    return position, body.moves
