"""What each operation of ``/api/v1`` takes and answers, declared on its route.

``@operation("POST", "Count a played deal", body=ResultBody, answer=ResultAnswer,
problems=(400, 404, 429))`` records the declaration on the view and, for a body model,
reads the request's body (``http.read_body``) and validates it with that model before the
view runs: the view is called with ``body=`` the model. ``openapi.py`` writes the paths of
``openapi.json`` from these declarations alone, so a route and its description are one
place, and the limits a route enforces on a body are its model's (web/schema.py).
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import request
from pydantic import BaseModel

from dailydeal.games import GAMES
from dailydeal.rating import TIERS
from dailydeal.web.http import read_body, read_model

F = TypeVar("F", bound=Callable[..., Any])
ATTRIBUTE = "operations"  # the view's attribute: method -> Operation
REF = "#/components/schemas/"

#: Each problem's description when an operation says nothing more of it.
PROBLEMS: dict[int, str] = {
    400: "Malformed request (bad date, seed, body or move list)",
    403: "Not allowed yet, or no more",
    404: "Unknown game, tier or id, or a date not yet begun anywhere on Earth",
    408: "The body did not arrive in full in time (short of its Content-Length)",
    409: "In conflict with what is stored",
    413: "Body over the limit (see info.description)",
    415: "Body neither application/json nor text/plain",
    422: "A move of the list is illegal (`error` says which and why)",
    425: "Too early",
    429: "Too many requests of this kind from this client: Retry-After says when",
    501: "Not implemented",
    503: "Unavailable for a moment: Retry-After says when to try again",
}
#: The problems of every operation that reads a body.
BODY_PROBLEMS = (400, 408, 413, 415)


def param(name: str, desc: str, schema: dict[str, Any], where: str = "path",
          required: bool | None = None) -> dict[str, Any]:
    """An OpenAPI parameter (a path parameter is always required)."""
    return {
        "name": name,
        "in": where,
        "required": where == "path" if required is None else required,
        "description": desc,
        "schema": schema,
    }


#: A date of the calendar (years 1 to 9999, as the server reads them).
CALENDAR_DATE = {"type": "string", "format": "date",
                 "pattern": "^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
DATE = param(
    "date",
    "YYYY-MM-DD, or `today` (a 302 to the dated URL; see `tz`)",
    {"anyOf": [CALENDAR_DATE, {"const": "today"}]},
)
GAME = param("game", "A game", {"type": "string", "enum": list(GAMES)})
TIER = param("tier", "A difficulty tier", {"type": "string", "enum": list(TIERS)})
ID = param("id", "A deal id such as 2026-12-01-pyramid-hard", {"type": "string"})
SEED = param("seed", "Deal number 0..2**64-1", {"type": "string", "pattern": "^[0-9]{1,20}$"})
#: What ``clock.today_in`` reads: a zone of the server's time zone database, or an offset
#: on Earth (-12:00..+14:00).
TZ = param(
    "tz",
    "With `today`: an IANA time zone or a UTC offset (+05:30); default UTC",
    {"anyOf": [
        {"enum": sorted(zoneinfo.available_timezones())},
        {"type": "string", "pattern": (  # (UTC)+HH(:MM), -HH(:MM) on Earth; UTC, Z; none
            r"^\s*(([Uu][Tt][Cc])?(\+((0?[0-9]|1[0-3])(:?[0-5][0-9])?|14(:?00)?)"
            r"|-((0?[0-9]|1[01])(:?[0-5][0-9])?|12(:?00)?))|[Uu][Tt][Cc]|[Zz])?\s*$")},
    ]},
    "query",
)
VARIANT = param(
    "variant", "A variant of the game (default: its default)", {"type": "string"}, "query"
)
MOVES = param("moves", "Moves in the notation", {"type": "string"}, "query")

def json_answer(description: str, model: str) -> dict[str, Any]:
    """A JSON answer of the schema ``model`` (a response object of the document)."""
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": REF + model}}}}


NOT_MODIFIED = {"304": {"description": "Not modified"}}
#: The headers of an ETagged answer.
CACHED = {
    "ETag": {"schema": {"type": "string"}, "description": "Strong validator"},
    "Cache-Control": {"schema": {"type": "string"}},
}
TODAY = {
    "302": {
        **json_answer("`today`: to the dated URL (Location)", "TodayRedirect"),
        "headers": {"Location": {"schema": {"type": "string"}, "description": "The dated URL"}},
    }
}


@dataclass(frozen=True)
class Operation:
    """One method of one route, as ``openapi.json`` describes it."""

    method: str
    summary: str
    #: The model of the answer (``status``), or its media types -> JSON Schema.
    answer: type[BaseModel] | None = None
    media: Mapping[str, dict[str, Any]] | None = None
    answer_text: str = ""
    status: int = 200
    #: The model that validates the body (the view gets it as ``body=``); ``text``: the
    #: body may also be moves as text/plain.
    body: type[BaseModel] | None = None
    text: bool = False
    params: tuple[dict[str, Any], ...] = ()
    #: Status -> description; a status alone takes its description from ``PROBLEMS``.
    problems: Mapping[int, str] = field(default_factory=dict)
    #: Other answers, as written in the document (a redirect, a 304, a second 2xx).
    responses: Mapping[str, Any] = field(default_factory=dict)
    description: str | None = None


def operation(
    method: str,
    summary: str,
    *,
    problems: tuple[int, ...] | Mapping[int, str] = (),
    params: tuple[dict[str, Any], ...] = (),
    **details: Any,
) -> Callable[[F], F]:
    """Declare ``method`` of the decorated route (see the module's docstring); put it
    under ``@bp.route`` (and any rate limit), once per method."""
    codes = dict(problems) if isinstance(problems, Mapping) else dict.fromkeys(problems, "")
    if details.get("body") is not None:  # what reading any body may meet
        codes = {**dict.fromkeys(BODY_PROBLEMS, ""), **codes}
    op = Operation(method, summary, params=params, problems=codes, **details)

    def decorate(view: F) -> F:
        model = op.body
        if model is None:
            wrapper: Any = view
        else:

            @functools.wraps(view)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                if request.method == op.method:
                    kwargs["body"] = read_model(model, read_body(allow_text=op.text))
                return view(*args, **kwargs)

        wrapper.operations = {**getattr(view, ATTRIBUTE, {}), method: op}
        return wrapper  # type: ignore[no-any-return]

    return decorate


def operations_of(view: Callable[..., Any]) -> dict[str, Operation]:
    """method -> the ``Operation`` declared on ``view`` (empty: none declared)."""
    found: dict[str, Operation] = getattr(view, ATTRIBUTE, {})
    return found
