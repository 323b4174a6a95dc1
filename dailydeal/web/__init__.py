"""The web API: ``create_app(test_config=None)`` builds the Flask app.

Configuration: the app's settings are those of ``dailydeal.config.Settings`` (every
``DAILYDEAL_*`` variable, checked there: a bad value is one ``SettingsError`` line before
anything is served), under the keys of ``Settings.app_config()``: ``DATABASE``,
``VERIFY_RATE_LIMIT``, ``STATE_RATE_LIMIT``, ``RATELIMIT_STORAGE_URI``, ``REDIS_URL``,
``PROXY_COUNT``, ``HINT_RATE_LIMIT``, ``HINT_MAX_NODES``, ``HINT_TIME_LIMIT``,
``HINT_PROCESSES``, ``HINT_QUEUE``, ``RESULTS_RATE_LIMIT``, ``COUNTED_RATE_LIMIT``,
``PLAYS_RATE_LIMIT``, ``STATS_RATE_LIMIT``, ``RESULTS_RETENTION_DAYS``,
``MIN_SECONDS_PER_MOVE``, ``PUBLIC_URL`` and ``DAILY_GAMES`` (the README's table says what
each does). ``test_config`` replaces the environment entirely (only ``DATABASE`` falls back
to ``DAILYDEAL_DB``); its settings are checked as the environment's are.

Not settings of an instance, for tests: ``MAX_CONTENT_LENGTH`` (request bodies, default
64 KiB; a 5000-move list fits), ``RATELIMIT_ENABLED``, ``FEED_DAYS`` and ``NOW`` (a clock:
callable -> aware UTC datetime). X-Forwarded-Host is never read: a client could set it, and
links are cached for everyone (``PUBLIC_URL`` makes them absolute).
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, json, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import RequestRedirect

from dailydeal.config import Settings

log = logging.getLogger(__name__)

#: The app's config when nothing is set: the settings' defaults, and the test-only knobs.
_SETTINGS_DEFAULTS = Settings().app_config()
DEFAULTS: dict[str, Any] = {
    **_SETTINGS_DEFAULTS,
    "RATELIMIT_ENABLED": True,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "FEED_DAYS": 30,
    "NOW": None,
}
_SETTING_KEYS = frozenset(_SETTINGS_DEFAULTS)

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
    return Path(Settings.from_env().db_path)


def config_from_env() -> dict[str, Any]:
    """The app's configuration from the environment (``Settings.from_env().app_config()``);
    a bad value is a ``SettingsError`` (one line, naming the variable)."""
    return Settings.from_env().app_config()


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
        review,
        share,
    )

    if test_config is None:
        settings, extra = Settings.from_env(), {}
    else:
        if "DATABASE" not in test_config:
            test_config = {**test_config, "DATABASE": default_database()}
        settings = Settings.from_config(test_config)
        extra = {k: v for k, v in test_config.items() if k not in _SETTING_KEYS}
    settings.check_rate_limits()
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(DEFAULTS)
    app.config.update(settings.app_config())
    app.config.update(extra)
    app.extensions["dailydeal_settings"] = settings
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
    review.register(app, limiter, exempt)  # counted against the hint limit
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
