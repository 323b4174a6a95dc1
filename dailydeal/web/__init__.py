"""The web API: ``create_app(test_config=None)`` builds the Flask app.

Configuration (``test_config`` replaces the environment entirely):

- ``DATABASE``: the SQLite file (env ``DAILYDEAL_DB`` via ``Settings.from_env()``).
- ``VERIFY_RATE_LIMIT``: per-client limit of verify requests (env
  ``DAILYDEAL_VERIFY_LIMIT``, default ``60 per minute``), counted in ``RATELIMIT_STORAGE_URI``
  (env ``DAILYDEAL_RATELIMIT_STORAGE``, default ``memory://``: per worker process).
- ``REDIS_URL``: the Redis shared by several API nodes (env ``DAILYDEAL_REDIS_URL``, default
  none): results and statistics of verified plays are stored there instead of the SQLite
  file, and from the environment it is also the rate-limit storage unless
  ``DAILYDEAL_RATELIMIT_STORAGE`` is set. One setting makes a node a cluster member.
- ``STATE_RATE_LIMIT``: per-client limit of state requests, a budget of its own because a
  player's page asks for the state after every click (env ``DAILYDEAL_STATE_LIMIT``,
  default ``600 per minute``).
- ``MAX_CONTENT_LENGTH``: request bodies (default 64 KiB; a 5000-move list fits).
- ``PROXY_COUNT``: trusted reverse proxies in front (env ``DAILYDEAL_PROXIES``), so rate
  limits count the client's address from X-Forwarded-For and not nginx's. X-Forwarded-Host
  is never read: a client could set it, and links are cached for everyone.
- ``HINT_RATE_LIMIT`` (env ``DAILYDEAL_HINT_LIMIT``, default ``20 per minute``),
  ``HINT_MAX_NODES`` (env ``DAILYDEAL_HINT_MAX_NODES``: the solver's node budget per hint)
  and ``HINT_TIME_LIMIT`` (env ``DAILYDEAL_HINT_TIME_LIMIT``: seconds, a safety net that
  answers 503); ``HINT_PROCESSES`` (env ``DAILYDEAL_HINT_PROCESSES``, default 1: solver
  processes per worker, 0 searches in the worker) and ``HINT_QUEUE`` (env
  ``DAILYDEAL_HINT_QUEUE``, default 8: hints waiting per worker before a 503, see
  ``dailydeal.solverpool``);
  ``RESULTS_RATE_LIMIT`` (env ``DAILYDEAL_RESULTS_LIMIT``, default
  ``60 per minute``): results posted per client address; ``COUNTED_RATE_LIMIT`` (env
  ``DAILYDEAL_COUNTED_LIMIT``, ``5 per minute``): results counted per address;
  ``PLAYS_RATE_LIMIT`` (env ``DAILYDEAL_PLAYS_LIMIT``, ``3000 per day``): plays begun per
  address; ``STATS_RATE_LIMIT`` (env ``DAILYDEAL_STATS_LIMIT``, ``60 per minute``);
  ``RESULTS_RETENTION_DAYS`` (env ``DAILYDEAL_RESULTS_RETENTION_DAYS``, 30): days after a
  deal's solution opens that its move lists are kept; ``MIN_SECONDS_PER_MOVE`` (env
  ``DAILYDEAL_MIN_SECONDS_PER_MOVE``, 0.5): the least play time per move of a counted
  result (web/results.py, dailydeal/results/plays.py).
- ``PUBLIC_URL``: absolute base of feed links (env ``DAILYDEAL_PUBLIC_URL``; default: none,
  links are relative; never the request's Host). ``NOW``: a clock (callable -> aware UTC
  datetime) for tests.
- ``DAILY_GAMES``: the (game, variant) pairs dealt every day (env ``DAILYDEAL_GAMES``, read
  by ``Settings.from_env()`` as the pipeline reads it).
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, json, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import RequestRedirect

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "VERIFY_RATE_LIMIT": "60 per minute",
    "STATE_RATE_LIMIT": "600 per minute",
    "RATELIMIT_STORAGE_URI": "memory://",
    "REDIS_URL": None,
    "RATELIMIT_ENABLED": True,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "PROXY_COUNT": 0,
    "PUBLIC_URL": None,
    "HINT_RATE_LIMIT": "20 per minute",
    "HINT_MAX_NODES": None,  # the game's default (dailydeal.hints.MAX_NODES)
    "HINT_TIME_LIMIT": 10.0,
    "HINT_PROCESSES": 1,  # solver processes per worker (dailydeal.solverpool); 0: in-process
    "HINT_QUEUE": 8,  # hints waiting per worker before a 503
    "RESULTS_RATE_LIMIT": "60 per minute",
    "COUNTED_RATE_LIMIT": "5 per minute",
    "PLAYS_RATE_LIMIT": "3000 per day",
    "STATS_RATE_LIMIT": "60 per minute",
    "RESULTS_RETENTION_DAYS": 30.0,
    "MIN_SECONDS_PER_MOVE": 0.5,  # dailydeal.results.plays.MIN_SECONDS_PER_MOVE
    "FEED_DAYS": 30,
    "NOW": None,
}

CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
    "Access-Control-Expose-Headers": (
        "ETag, Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"
    ),
    "Access-Control-Max-Age": "86400",
}
RATE_LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def default_database() -> Path:
    """The database of ``Settings.from_env()`` (the pipeline's configuration)."""
    from dailydeal.config import Settings

    return Path(Settings.from_env().db_path)


#: environment variable -> (config key, parser); the limits are checked in create_app.
_ENV: dict[str, tuple[str, Callable[[str], Any]]] = {
    "DAILYDEAL_VERIFY_LIMIT": ("VERIFY_RATE_LIMIT", str),
    "DAILYDEAL_STATE_LIMIT": ("STATE_RATE_LIMIT", str),
    "DAILYDEAL_RATELIMIT_STORAGE": ("RATELIMIT_STORAGE_URI", str),
    "DAILYDEAL_REDIS_URL": ("REDIS_URL", str),
    "DAILYDEAL_PROXIES": ("PROXY_COUNT", int),
    "DAILYDEAL_PUBLIC_URL": ("PUBLIC_URL", str),
    "DAILYDEAL_HINT_LIMIT": ("HINT_RATE_LIMIT", str),
    "DAILYDEAL_HINT_MAX_NODES": ("HINT_MAX_NODES", int),
    "DAILYDEAL_HINT_TIME_LIMIT": ("HINT_TIME_LIMIT", float),
    "DAILYDEAL_HINT_PROCESSES": ("HINT_PROCESSES", int),
    "DAILYDEAL_HINT_QUEUE": ("HINT_QUEUE", int),
    "DAILYDEAL_RESULTS_LIMIT": ("RESULTS_RATE_LIMIT", str),
    "DAILYDEAL_COUNTED_LIMIT": ("COUNTED_RATE_LIMIT", str),
    "DAILYDEAL_PLAYS_LIMIT": ("PLAYS_RATE_LIMIT", str),
    "DAILYDEAL_STATS_LIMIT": ("STATS_RATE_LIMIT", str),
    "DAILYDEAL_RESULTS_RETENTION_DAYS": ("RESULTS_RETENTION_DAYS", float),
    "DAILYDEAL_MIN_SECONDS_PER_MOVE": ("MIN_SECONDS_PER_MOVE", float),
}
_NUMBERS = ("PROXY_COUNT", "HINT_MAX_NODES", "HINT_TIME_LIMIT", "HINT_PROCESSES", "HINT_QUEUE",
            "RESULTS_RETENTION_DAYS", "MIN_SECONDS_PER_MOVE")
_LIMITS = ("VERIFY_RATE_LIMIT", "STATE_RATE_LIMIT", "HINT_RATE_LIMIT", "RESULTS_RATE_LIMIT",
           "COUNTED_RATE_LIMIT", "PLAYS_RATE_LIMIT", "STATS_RATE_LIMIT")


def config_from_env() -> dict[str, Any]:
    """The app's configuration from the environment; a bad value is a ``SettingsError``
    (one line, naming the variable), never a traceback at the first request."""
    from dailydeal.config import Settings, SettingsError

    settings = Settings.from_env()
    out: dict[str, Any] = {"DATABASE": Path(settings.db_path), "DAILY_GAMES": settings.games}
    for var, (key, parse) in _ENV.items():
        if var in os.environ:
            text = os.environ[var]
            try:
                out[key] = parse(text)
            except ValueError:
                raise SettingsError(f"bad {var}={text[:80]!r}: not a {parse.__name__}") from None
    if out.get("REDIS_URL") and "DAILYDEAL_RATELIMIT_STORAGE" not in os.environ:
        out["RATELIMIT_STORAGE_URI"] = out["REDIS_URL"]  # one setting for a cluster
    return out


def check_config(config: Mapping[str, Any]) -> None:
    """Refuse numbers below zero and rate limits flask-limiter cannot read (it would
    otherwise fail, or silently not limit, at the first request)."""
    from limits import parse_many

    from dailydeal.config import SettingsError

    for key in _NUMBERS:
        value = config.get(key)
        if value is not None and (not isinstance(value, (int, float)) or value < 0):
            raise SettingsError(f"{key} must be a number >= 0, not {value!r}")
    url = config.get("REDIS_URL")
    if url is not None:
        if not str(url).startswith(("redis://", "rediss://", "unix://")):
            raise SettingsError(
                f"REDIS_URL must be a redis://, rediss:// or unix:// URL, not {str(url)[:80]!r}"
            )
        try:
            import redis  # noqa: F401
        except ImportError:
            raise SettingsError(
                "REDIS_URL needs the redis client: pip install 'dailydeal[redis]'"
            ) from None
    for key in _LIMITS:
        text = str(config.get(key))
        try:
            if not parse_many(text):
                raise ValueError(text)
        except ValueError:
            raise SettingsError(
                f"{key} must be a rate limit such as '60 per minute', not {text[:80]!r}"
            ) from None


def _verify_limit() -> str:
    return str(current_app.config["VERIFY_RATE_LIMIT"])


def _state_limit() -> str:
    return str(current_app.config["STATE_RATE_LIMIT"])


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The API app. No scheduler here: a worker only serves (see deploy/)."""
    from dailydeal.web import (
        api,
        commitments,
        compress,
        db,
        feeds,
        hints,
        pages,
        problems,
        results,
        share,
    )

    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(DEFAULTS)
    app.config.update(config_from_env() if test_config is None else test_config)
    check_config(app.config)
    if "DATABASE" not in app.config:
        app.config["DATABASE"] = default_database()
    if "DAILY_GAMES" not in app.config:
        from dailydeal.config import DAILY_GAMES

        app.config["DAILY_GAMES"] = DAILY_GAMES
    app.json.sort_keys = False  # type: ignore[attr-defined]
    db.prepare(app.config["DATABASE"])

    if app.config["PROXY_COUNT"]:
        n = int(app.config["PROXY_COUNT"])
        # no x_host: links never come from a header a client can set (see PUBLIC_URL)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n)  # type: ignore

    problems.register(app)
    app.register_blueprint(api.bp, url_prefix="/api/v1")
    app.register_blueprint(feeds.bp, url_prefix="/api/v1")
    pages.register(app)
    share.register(app)  # oEmbed, preview pictures, the pages' share tags

    storage_uri = str(app.config["RATELIMIT_STORAGE_URI"])
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=storage_uri,
        # a hung Redis costs a request half a second, then the in-memory fallback counts
        storage_options=_storage_options(storage_uri),
        headers_enabled=False,  # rate_limit_headers below: true, and never on public answers
        enabled=bool(app.config["RATELIMIT_ENABLED"]),
        swallow_errors=True,  # a storage outage (redis down) must not fail verification
        in_memory_fallback_enabled=True,
    )
    # HEAD replays the moves (or solves) as GET does: only preflights are free
    exempt = lambda: _method_is("OPTIONS")  # noqa: E731
    shared = limiter.shared_limit(_verify_limit, scope="verify", exempt_when=exempt)
    for endpoint in api.VERIFY_ENDPOINTS:
        app.view_functions[endpoint] = shared(app.view_functions[endpoint])  # type: ignore
    state = limiter.shared_limit(_state_limit, scope="state", exempt_when=exempt)
    for endpoint in api.STATE_ENDPOINTS:
        app.view_functions[endpoint] = state(app.view_functions[endpoint])  # type: ignore
    hints.register(app, limiter, exempt)
    results.register(app, limiter, exempt)
    commitments.register(app)
    app.extensions["dailydeal_limiter"] = limiter
    app.after_request(lambda resp: rate_limit_headers(limiter, resp))
    app.before_request(relative_redirect)

    @app.after_request
    def _headers(resp: Response) -> Response:
        for name, value in CORS_HEADERS.items():
            resp.headers.setdefault(name, value)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        return resp

    compress.register(app)  # gzip for pages, scripts and JSON: the one place it is done

    return app


def _storage_options(uri: str) -> dict[str, Any]:
    """Connect and read timeouts under a second, no retries, for a Redis storage."""
    if not uri.startswith(("redis://", "rediss://", "redis+unix://")):
        return {}
    from dailydeal.results.redis_store import options

    return options()


def _method_is(*methods: str) -> bool:
    return request.method in methods


def rate_limit_headers(limiter: Limiter, resp: Response) -> Response:
    """The client's budget (``X-RateLimit-*``) on an answer only that client gets, and a
    true ``Retry-After`` on a 429; the one place these headers are written.

    flask-limiter's own headers are off: its Retry-After truncated (``0`` while the next
    request was still refused: a polite client then spins), replaced the app's own (a 503's
    "5" became the limit's window, 3600), and a public answer (a GET state or hint, cached
    by nginx and browsers for everyone) carried the first client's budget.
    """
    limit = limiter.current_limit
    if limit is None:
        return resp
    public = bool(resp.cache_control.public)
    needs_wait = resp.status_code == 429 and "Retry-After" not in resp.headers
    if public and not needs_wait:
        return resp
    try:
        reset_at, remaining = limit.reset_at, limit.remaining  # a storage round trip
    except Exception:  # noqa: BLE001 - a storage outage must not fail the answer
        log.warning("rate limit storage unreachable: no rate-limit headers", exc_info=True)
        return resp
    if needs_wait:
        # reset_at is a whole second at or after the window's end: rounded up, waiting
        # this long is always enough, and never 0
        resp.headers["Retry-After"] = str(max(1, math.ceil(reset_at - time.time())))
    if not public:
        values = (limit.limit.amount, remaining, reset_at)
        for name, value in zip(RATE_LIMIT_HEADERS, values, strict=True):
            resp.headers[name] = str(value)
    return resp


def relative_redirect() -> Response | None:
    """Werkzeug's redirects to the canonical URL (``/api/v1`` -> ``/api/v1/``) with a
    relative Location: it builds an absolute one from the request's Host (and, behind
    a proxy, X-Forwarded-Proto), which a client sets: ``Host: evil.example`` gave
    ``Location: http://evil.example/api/v1/``. The app's own redirects are paths already
    (``url_for`` without ``_external``; Werkzeug >= 2.1 leaves a relative Location so)."""
    exc = request.routing_exception
    if not isinstance(exc, RequestRedirect):
        return None
    parts = urlsplit(exc.new_url)
    target = "/" + parts.path.lstrip("/") + (f"?{parts.query}" if parts.query else "")
    resp = Response(json.dumps({"location": target}), status=exc.code, mimetype="application/json")
    resp.headers["Location"] = target
    resp.headers["Cache-Control"] = "public, max-age=3600"
    return resp
