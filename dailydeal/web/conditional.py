"""Conditional GET and HEAD (RFC 9110 section 13) on ETagged answers.

Werkzeug's ``make_conditional`` answers ``If-Match: *`` on a GET with 412 (RFC 9110: ``*``
matches any current representation), keeps the full JSON as the body of that 412, and
serves byte ranges of JSON nobody asked to be ranged. The API needs only two validators:

- ``If-Match`` (strong comparison; ``*`` matches): on a mismatch, a 412 problem;
- ``If-None-Match`` (weak comparison; ``*`` matches): on a match, 304 without a body.

``If-Match`` is evaluated first, as RFC 9110 section 13.2.2 orders them. Other methods and
answers other than 200 are returned unchanged.
"""

from __future__ import annotations

from flask import Response, request
from werkzeug.http import parse_etags

from dailydeal.web.problems import problem_response

# What a 304 keeps of the 200 it stands for (RFC 9110 section 15.4.5), besides CORS.
_KEEP_ON_304 = ("ETag", "Cache-Control", "Vary", "Expires", "Content-Location", "Date")


def conditional(resp: Response) -> Response:
    """``resp`` (a 200 with an ETag) as the answer to this request's validators."""
    if request.method not in ("GET", "HEAD") or resp.status_code != 200:
        return resp
    etag, _weak = resp.get_etag()
    if etag is None:
        return resp
    if_match = request.headers.get("If-Match")
    if if_match is not None and not parse_etags(if_match).contains(etag):
        return problem_response(
            412,
            f'If-Match does not match the current representation (ETag "{etag}")',
            {"ETag": f'"{etag}"', "Cache-Control": "no-store"},
        )
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None and parse_etags(if_none_match).contains_weak(etag):
        not_modified = Response(status=304)
        for name in _KEEP_ON_304:
            if name in resp.headers:
                not_modified.headers[name] = resp.headers[name]
        return not_modified
    return resp
