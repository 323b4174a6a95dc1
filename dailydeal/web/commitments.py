"""``GET /commitments?from=&to=``: the commitments of stored deals, future dates included.

Only what is in ``dailydeal.daily.store.stored_commitments`` is answered (id, date, game,
variant, tier, the SHA-256 and when it was made): nothing about the cards. The nonce that
opens a commitment comes with the deal itself (``GET /deals/{id}``), once its date begins.
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, Response, request, url_for

from dailydeal.daily import clock, fairness, store
from dailydeal.web import schema
from dailydeal.web.db import get_db
from dailydeal.web.http import json_response, now, parse_date
from dailydeal.web.operations import CALENDAR_DATE, NOT_MODIFIED, operation, param
from dailydeal.web.problems import Problem

bp = Blueprint("commitments", __name__)

MAX_DAYS = 62  # dates per request
DEFAULT_DAYS = 14
OPTIONAL_DATE = {"anyOf": [CALENDAR_DATE, {"const": ""}]}  # "": the default
CACHE = "public, max-age=300"  # new deals are committed to as they are generated


@bp.get("/commitments")
@operation(
    "GET", "SHA-256 commitments of stored deals, future dates included",
    params=(param("from", "First date (default, or empty: today, earliest zone)",
                  OPTIONAL_DATE, "query"),
            param("to", f"Last date (default, or empty: from + {DEFAULT_DAYS - 1} days; at "
                  f"most {MAX_DAYS} dates)", OPTIONAL_DATE, "query")),
    answer=schema.Commitments, answer_text="Commitments", problems=(400,),
    responses=NOT_MODIFIED,
)
def commitments() -> Response:
    start = _date_arg("from") or clock.earliest_today(now())
    # the calendar ends at 9999-12-31: a default range near it stops there
    end = _date_arg("to") or start + min(dt.timedelta(DEFAULT_DAYS - 1), dt.date.max - start)
    if end < start:
        raise Problem(400, f"'to' ({end}) is before 'from' ({start})")
    if (end - start).days + 1 > MAX_DAYS:
        raise Problem(
            400, f"at most {MAX_DAYS} dates per request, not {(end - start).days + 1}",
            max_days=MAX_DAYS,
        )
    rows = store.stored_commitments(get_db(), start, end)
    for row in rows:
        row["in_advance"] = fairness.in_advance(row["date"], row["committed_at"])
        row["links"] = {"deal": url_for("api.deal", id_=row["id"])}
    body = {
        "from": start.isoformat(),
        "to": end.isoformat(),
        "scheme": fairness.COMMITMENT_PREFIX,
        "commitments": rows,
    }
    return json_response(body, CACHE)


def _date_arg(name: str) -> dt.date | None:
    text = request.args.get(name)
    if text is None or text == "":
        return None
    try:
        return parse_date(text)
    except Problem:
        # not parse_date's words: they offer 'today', which this list does not take
        detail = f"'{name}' is a date of the calendar, YYYY-MM-DD, not {text[:40]!r}"
        raise Problem(400, detail) from None
