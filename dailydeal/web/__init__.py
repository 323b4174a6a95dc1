"""The web API: ``create_app(test_config=None)`` builds the Flask app.

Configuration (``test_config`` replaces the environment entirely):

- ``DATABASE``: the SQLite file (env ``DAILYDEAL_DB`` via ``Settings.from_env()``).
- ``VERIFY_RATE_LIMIT``: per-client limit of verify requests (env
  ``DAILYDEAL_VERIFY_LIMIT``, default ``60 per minute``), counted in ``RATELIMIT_STORAGE_URI``
  (env ``DAILYDEAL_RATELIMIT_STORAGE``, default ``memory://``: per worker process).
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
  answers 503); ``RESULTS_RATE_LIMIT`` (env ``DAILYDEAL_RESULTS_LIMIT``, default
  ``20 per hour``): results posted per client address.
- ``PUBLIC_URL``: absolute base of feed links (env ``DAILYDEAL_PUBLIC_URL``; default: none,
  links are relative; never the request's Host). ``NOW``: a clock (callable -> aware UTC
  datetime) for tests.
- ``DAILY_GAMES``: the (game, variant) pairs dealt every day (env ``DAILYDEAL_GAMES``, read
  by ``Settings.from_env()`` as the pipeline reads it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

DEFAULTS: dict[str, Any] = {
    "VERIFY_RATE_LIMIT": "60 per minute",
    "STATE_RATE_LIMIT": "600 per minute",
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_ENABLED": True,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "PROXY_COUNT": 0,
    "PUBLIC_URL": None,
    "HINT_RATE_LIMIT": "20 per minute",
    "HINT_MAX_NODES": None,  # the game's default (dailydeal.hints.MAX_NODES)
    "HINT_TIME_LIMIT": 10.0,
    "RESULTS_RATE_LIMIT": "20 per hour",
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


def default_database() -> Path:
    """The database of ``Settings.from_env()`` (the pipeline's configuration)."""
    from dailydeal.config import Settings

    return Path(Settings.from_env().db_path)


def config_from_env() -> dict[str, Any]:
    from dailydeal.config import Settings

    env = os.environ
    settings = Settings.from_env()
    out: dict[str, Any] = {"DATABASE": Path(settings.db_path), "DAILY_GAMES": settings.games}
    if "DAILYDEAL_VERIFY_LIMIT" in env:
        out["VERIFY_RATE_LIMIT"] = env["DAILYDEAL_VERIFY_LIMIT"]
    if "DAILYDEAL_STATE_LIMIT" in env:
        out["STATE_RATE_LIMIT"] = env["DAILYDEAL_STATE_LIMIT"]
    if "DAILYDEAL_RATELIMIT_STORAGE" in env:
        out["RATELIMIT_STORAGE_URI"] = env["DAILYDEAL_RATELIMIT_STORAGE"]
    if "DAILYDEAL_PROXIES" in env:
        out["PROXY_COUNT"] = int(env["DAILYDEAL_PROXIES"])
    if "DAILYDEAL_PUBLIC_URL" in env:
        out["PUBLIC_URL"] = env["DAILYDEAL_PUBLIC_URL"]
    if "DAILYDEAL_HINT_LIMIT" in env:
        out["HINT_RATE_LIMIT"] = env["DAILYDEAL_HINT_LIMIT"]
    if "DAILYDEAL_HINT_MAX_NODES" in env:
        out["HINT_MAX_NODES"] = int(env["DAILYDEAL_HINT_MAX_NODES"])
    if "DAILYDEAL_HINT_TIME_LIMIT" in env:
        out["HINT_TIME_LIMIT"] = float(env["DAILYDEAL_HINT_TIME_LIMIT"])
    if "DAILYDEAL_RESULTS_LIMIT" in env:
        out["RESULTS_RATE_LIMIT"] = env["DAILYDEAL_RESULTS_LIMIT"]
    return out


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
    )

    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(DEFAULTS)
    app.config.update(config_from_env() if test_config is None else test_config)
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

    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=app.config["RATELIMIT_STORAGE_URI"],
        headers_enabled=True,
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

    @app.after_request
    def _headers(resp: Response) -> Response:
        for name, value in CORS_HEADERS.items():
            resp.headers.setdefault(name, value)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        return resp

    compress.register(app)  # gzip for pages, scripts and JSON: the one place it is done

    return app


def _method_is(*methods: str) -> bool:
    return request.method in methods
