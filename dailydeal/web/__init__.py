"""The web API: ``create_app(test_config=None)`` builds the Flask app.

Configuration: the app's settings are one ``dailydeal.config.Settings`` (every
``DAILYDEAL_*`` variable, checked there: a bad value is one ``SettingsError`` line before
anything is served), bound to the app by ``extensions.init_app`` and read by the routes as
``extensions.settings().<field>`` (the README's table says what each does). ``test_config``
replaces the environment entirely: its keys that name a field of ``Settings``
(``db_path``, ``verify_rate_limit``...) are the settings, checked as the environment's are
(only ``db_path`` falls back to ``DAILYDEAL_DB``); the others go to the Flask config.

Not settings of an instance, for tests (Flask config): ``MAX_CONTENT_LENGTH`` (request
bodies, default 64 KiB; a 5000-move list fits), ``RATELIMIT_ENABLED``, ``FEED_DAYS`` and
``NOW`` (a clock: callable -> aware UTC datetime). X-Forwarded-Host is never read: a client
could set it, and links are cached for everyone (``public_url`` makes them absolute).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, json, request
from werkzeug.routing import RequestRedirect

from dailydeal.config import Settings, variables

#: The Flask config when nothing is set: the test-only knobs (the settings are not here).
DEFAULTS: dict[str, Any] = {
    "RATELIMIT_ENABLED": True,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "FEED_DAYS": 30,
    "NOW": None,
}
SETTING_NAMES = frozenset(name for name, _ in variables())

CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
    "Access-Control-Expose-Headers": (
        "ETag, Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"
    ),
    "Access-Control-Max-Age": "86400",
}
#: What every answer carries unless its route set it (each header once: see _headers).
EVERY_ANSWER = (*CORS_HEADERS.items(), ("X-Content-Type-Options", "nosniff"))


class App(Flask):
    """Flask, with each view's and hook's synchronous form found once: Flask asks
    ``inspect`` whether a function is a coroutine function on every call of every hook and
    view (six a verify, about a microsecond each); the answer never changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        found = self._sync.get(func)
        if found is None:
            found = self._sync[func] = super().ensure_sync(func)
        return found


def default_database() -> Path:
    """The database of ``Settings.from_env()`` (the pipeline's configuration)."""
    return Path(Settings.from_env().db_path)


def split_config(test_config: Mapping[str, Any]) -> tuple[Settings, dict[str, Any]]:
    """A test's mapping -> (its settings, checked; the rest: Flask config)."""
    given = {k: v for k, v in test_config.items() if k in SETTING_NAMES}
    if "db_path" not in given:
        given["db_path"] = default_database()
    extra = {k: v for k, v in test_config.items() if k not in SETTING_NAMES}
    return Settings(**given), extra


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The API app. No scheduler here: a worker only serves (see deploy/)."""
    from dailydeal.web import (
        api,
        commitments,
        compress,
        db,
        extensions,
        feeds,
        hints,
        pages,
        plays,
        problems,
        proxies,
        results,
        review,
        share,
        solves,
    )
    from dailydeal.web.http import add_missing

    settings, extra = (Settings.from_env(), {}) if test_config is None else split_config(
        test_config)
    settings.check_rate_limits()
    app = App(__name__, static_folder=None)
    app.config.from_mapping(DEFAULTS)
    app.config.update(extra)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    db.prepare(settings.db_path)

    if settings.trusted_proxies:
        # the client's address from X-Forwarded-For, only when a listed proxy sent it; no
        # host: links never come from a header a client can set (see public_url)
        app.wsgi_app = proxies.TrustedProxies(  # type: ignore[method-assign]
            app.wsgi_app, settings.trusted_proxies)

    problems.register(app)
    for blueprint in (api.bp, feeds.bp, hints.bp, review.bp, results.bp, plays.bp,
                      commitments.bp, solves.bp):
        app.register_blueprint(blueprint, url_prefix="/api/v1")
    pages.register(app)
    share.register(app)  # oEmbed, preview pictures, the pages' share tags
    extensions.init_app(app, settings)  # the settings, and the rate limits of the routes
    app.before_request(relative_redirect)

    def finish(resp: Response) -> Response:
        """Every answer's own headers, in one hook and one pass over its headers: the client's
        budget (extensions), gzip (compress: the one place it is done), then each header of
        ``EVERY_ANSWER``, the security headers (pages) and ``Vary`` of a text-like answer that
        its route did not set. (Four hooks before, each scanning the headers again: a fifth of
        a verify's CPU was Flask's hooks and Werkzeug's headers, benchmarks/load.py --profile.)
        The order of the headers is no contract; their names and values are."""
        extensions.rate_limit_headers(resp)
        text = resp.mimetype in compress.TYPES
        if text:
            compress.compress(resp)
        present = add_missing(resp.headers, (*EVERY_ANSWER, *pages.security_headers(resp),
                                             *((compress.VARY,) if text else ())))
        if text and "vary" in present:  # the route's own Vary, and Accept-Encoding
            resp.vary.add(compress.VARY[1])
        return resp

    app.after_request(finish)  # the app's one after-request hook (blueprints have their own)

    return app


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
