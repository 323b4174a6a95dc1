"""RFC 9457 problem details: every 4xx and 5xx of the API is ``application/problem+json``.

A problem body has ``type`` (``about:blank``: the HTTP status says it all), ``title`` (the
status phrase), ``status`` and ``detail`` (a sentence a person can act on), plus extension
members where useful (``opens_at`` for a locked solution, ``allow`` for a 405). A Python
traceback never reaches a client: unexpected errors are logged and answered with a bare 500.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)


class Problem(Exception):
    """Raise to answer a problem: ``Problem(404, "no deal 'x'")``; ``extra`` adds members."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


def problem_response(
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
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
    }
    body.update(extra)
    if request:  # the path the problem is about (RFC 9457 "instance")
        body.setdefault("instance", request.path)
    resp = Response(json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_JSON)
    resp.headers["Cache-Control"] = (
        "no-store" if status >= 500 or status == 429 else ("public, max-age=60")
    )
    for name, value in (headers or {}).items():
        resp.headers[name] = value
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
        # flask-limiter puts the breached limit in the description, e.g. "30 per 1 minute"
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
        return problem_response(exc.status, exc.detail, exc.headers, **exc.extra)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        return _from_http_exception(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response(500, "The server failed to answer this request.")
