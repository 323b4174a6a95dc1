"""gzip for text answers (pages, scripts, styles, JSON), the one place responses are compressed.

Standard library only. A response is compressed when the client accepts gzip, its type is
text-like, it has a body of at least ``MIN_SIZE`` bytes held in memory, and nothing encoded it
already (static files arrive pre-compressed from pages.py). A compressed body gets a weak
ETag, as nginx does: the bytes differ from the identity encoding, the meaning does not, and
If-None-Match compares weakly, so a 304 still answers a revalidation.

A shared answer (``Cache-Control: public``: a published deal, the day's list, a page) is
the same bytes for everyone, again and again: its compressed form is remembered per process,
keyed by the body itself, so it is compressed once, not on every request (a third of a GET
deal's CPU was compressing the same bytes again: benchmarks/load.py).
"""

from __future__ import annotations

import gzip

from flask import Response, request

from dailydeal.memo import Memo

MIN_SIZE = 512
LEVEL = 6
#: Shared answers whose compressed form is remembered (each at most ``REMEMBERED_SIZE``).
REMEMBERED = Memo[bytes, bytes](256)
REMEMBERED_SIZE = 32 * 1024
TYPES = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "text/plain",
        "application/javascript",
        "application/json",
        "application/problem+json",
        "application/feed+json",
        "application/atom+xml",
        "image/svg+xml",
    }
)


def accepts_gzip() -> bool:
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and _zero(q[2:]))
    return False


def _zero(text: str) -> bool:
    try:
        return float(text or 0) == 0
    except ValueError:
        return True  # a malformed q value: do not risk an encoding the client refused


def is_public(resp: Response) -> bool:
    """Whether ``Cache-Control`` says ``public``, read without building Werkzeug's
    ``cache_control`` object, which parses and wraps the header at every access (a sixth of
    a verify's rate-limit headers, benchmarks/load.py --profile)."""
    value = resp.headers.get("Cache-Control", "").lower()
    return "public" in value and "public" in (part.strip() for part in value.split(","))


def weaken_etag(resp: Response) -> None:
    etag = resp.headers.get("ETag")
    if etag and not etag.startswith("W/"):
        resp.headers["ETag"] = "W/" + etag


#: What a text-like answer varies by, written with the headers of every answer in the app's
#: one after-request hook (web/__init__.py), or merged into a route's own ``Vary``.
VARY = ("Vary", "Accept-Encoding")


def compress(resp: Response) -> Response:
    """gzip ``resp``'s body if it is text-like (``TYPES``; its ``Vary`` is the caller's),
    at least ``MIN_SIZE`` bytes in memory, not encoded yet, and the client accepts it."""
    if (
        resp.direct_passthrough
        or resp.is_streamed
        or resp.status_code < 200
        or resp.status_code in (204, 206, 304)
    ):
        return resp
    body = resp.get_data()
    # the cheapest refusals first: most JSON answers (a verdict, a 4xx) are shorter
    if len(body) < MIN_SIZE or request.method == "HEAD" or "Content-Encoding" in resp.headers \
            or not accepts_gzip():
        return resp
    if len(body) <= REMEMBERED_SIZE and is_public(resp):
        resp.set_data(REMEMBERED.get(body, lambda: gzip.compress(body, LEVEL, mtime=0)))
    else:
        resp.set_data(gzip.compress(body, LEVEL, mtime=0))
    resp.headers["Content-Encoding"] = "gzip"
    weaken_etag(resp)
    return resp
