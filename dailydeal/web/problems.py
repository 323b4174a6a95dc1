"""RFC 9457 problem details: every 4xx and 5xx of the API is ``application/problem+json``.

A problem body has ``type`` (``about:blank``: the HTTP status says it all), ``title`` (the
status phrase), ``status``, ``detail`` (a sentence a person can act on, in English: problems
are for machines) and ``code`` (a stable name of the problem, ``CODES``: the ``<daily-deal>``
element shows its own words for it in the player's language), plus extension members where
useful (``opens_at`` for a locked solution, ``allow`` for a 405). A Python
traceback never reaches a client: unexpected errors are logged and answered with a bare 500.
Every 503 says when to retry (``Retry-After``: its own, else ``RETRY_AFTER_503``). A
database that cannot be used (read-only, locked past its timeout, damaged) is a 503, and
the connection that failed is closed, so the next request opens a fresh one and the
service recovers without a restart.
"""

from __future__ import annotations

import logging
import sqlite3
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

PROBLEM_JSON = "application/problem+json"
SAFE = ("GET", "HEAD")  # methods whose 4xx a cache may keep (see problem_response)
# seconds, the Retry-After of a 503 that sets none of its own (a database made writable
# again is used at once; nginx's own 502/503/504 say 5 too)
RETRY_AFTER_503 = 5
log = logging.getLogger(__name__)

# The stable codes of problems (docs/api.md lists them): a problem raised without one takes
# its status's. A client keys its own words on them; ``detail`` may change, they do not.
CODES = {
    "bad_request": "the request cannot be read (a 400 without a code of its own)",
    "bad_date": "a date that is not YYYY-MM-DD, 'today' or a date of the calendar",
    "bad_seed": "a deal number that is not an integer 0..2**64-1",
    "bad_variant": "a variant the game does not have",
    "illegal_moves": "a move list with a move that cannot be played (a 422, or a 400 body)",
    "not_found": "no such resource (a 404 without a code of its own)",
    "deal_not_found": "no published deal with this id",
    "date_not_published": "no deals are published (or stored) for this date",
    "not_stored": "no deal of this game or tier is stored for this date",
    "unknown_game": "no such game",
    "unknown_tier": "no such tier",
    "solution_locked": "the solution opens when the date is over everywhere on Earth",
    "results_closed": "the deal's results closed when its solution was published",
    "result_refused": "a result that did not count (its ``reason`` says why)",
    "too_fast": "a result posted faster than a person plays (425): post it again later",
    "conflict": "another result of this client counts (409)",
    "method_not_allowed": "405",
    "too_large": "413",
    "unsupported_media_type": "415",
    "timeout": "408",
    "rate_limited": "429: too many requests; Retry-After says when to try again",
    "solver_busy": "503: the solver cannot answer now; Retry-After says when",
    "unavailable": "503: the database or the results store cannot be used now",
    "not_implemented": "501",
    "server_error": "500",
}
STATUS_CODES = {
    400: "bad_request", 403: "result_refused", 404: "not_found", 405: "method_not_allowed",
    408: "timeout", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
    422: "illegal_moves", 425: "too_fast", 429: "rate_limited", 501: "not_implemented",
    503: "unavailable",
}


def status_code(status: int) -> str:
    """The code of a problem raised without one: its status's."""
    return STATUS_CODES.get(status, "server_error" if status >= 500 else "bad_request")


class Problem(Exception):
    """Raise to answer a problem: ``Problem(404, "no deal 'x'", code="deal_not_found")``;
    ``extra`` adds members."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code or status_code(status)
        assert self.code in CODES, self.code
        self.headers = headers or {}
        self.extra = extra


def problem_response(
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
    code: str | None = None,
    **extra: Any,
) -> Response:
    """A ready ``application/problem+json`` response."""
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code or status_code(status),
    }
    body.update(extra)
    if request:  # the path the problem is about (RFC 9457 "instance")
        body.setdefault("instance", request.path)
    resp = Response(json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_JSON)
    # Shared caches may keep a GET's 4xx a minute (a 404 date becomes a 200 when it
    # begins); never an answer to a POST: it is about the body sent (409: this client's
    # result, 422: its moves), which no cache key holds.
    stored = status < 500 and status != 429 and (not request or request.method in SAFE)
    resp.headers["Cache-Control"] = "public, max-age=60" if stored else "no-store"
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    if status == 503:
        resp.headers.setdefault("Retry-After", str(RETRY_AFTER_503))
    return resp

# Readable details for the errors Werkzeug raises itself (its defaults mention browsers).
_DETAILS = {
    404: "There is no such resource; see /api/v1/openapi.json for the endpoints.",
    405: "This method is not allowed here; the Allow header lists the methods that are.",
    413: "The request body is too large.",
    415: "Unsupported content type.",
    429: "Too many requests.",
}


def _from_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    headers: dict[str, str] = {}
    extra: dict[str, Any] = {}
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            headers[name] = value
    detail = _DETAILS.get(status, exc.description or "")
    if status == 405 and "Allow" in headers:
        extra["allow"] = [m.strip() for m in headers["Allow"].split(",")]
    if status == 413:
        max_bytes = request.max_content_length if request else None
        detail = f"The request body is too large: at most {max_bytes} bytes are accepted."
    if status == 429:
        # the limit check (web/extensions.py) puts the breached limit in the description,
        # e.g. "30 per 1 minute"
        limit = exc.description or ""
        detail = (
            f"Too many requests of this kind from your address (limit: {limit}); "
            "the Retry-After header says when to try again."
        )
        extra["limit"] = limit
    if status == 400 and exc.description and "browser" not in exc.description:
        detail = exc.description
    if status >= 500:
        detail = "The server failed to answer this request."
    return problem_response(status, detail, headers, **extra)


def register(app: Flask) -> None:
    """Install the problem handlers on ``app``: Problem, every HTTPException, anything else."""

    @app.errorhandler(Problem)
    def _problem(exc: Problem) -> Response:
        return problem_response(exc.status, exc.detail, exc.headers, exc.code, **exc.extra)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        return _from_http_exception(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response(500, "The server failed to answer this request.")

    @app.errorhandler(sqlite3.DatabaseError)
    def _database(exc: sqlite3.DatabaseError) -> Response:
        # OperationalError: read-only, locked, disk full, I/O error; DatabaseError itself:
        # not a database, damaged. Other subclasses (IntegrityError...) are bugs: a 500.
        if not isinstance(exc, sqlite3.OperationalError) and type(exc) is not sqlite3.DatabaseError:
            return _unexpected(exc)
        log.error("database error on %s %s: %s", request.method, request.path, exc)
        from dailydeal.web import db

        db.discard()  # a connection opened read-only stays so: the next request reopens
        return problem_response(
            503, "The database cannot be used right now; try again in a few seconds.",
            code="unavailable",
        )
