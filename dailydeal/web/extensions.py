"""What the app binds to itself in ``init_app`` (as flaskr does): the instance's
``Settings`` and its per-client rate limits (``RateLimits``).

The routes read a setting as ``settings().verify_rate_limit``: the ``Settings`` object the
app was made with (``dailydeal.config``, one name per setting), never a copy in the Flask
config. They take a rate limit with ``@limit("verify")``..., applied where the route is
defined and checked by it on limits' fixed window over the app's storage (``_check``: the
keys, order, in-memory fallback and 429 flask-limiter had, without a hook on every
request); the limit's text is read from the settings at each request, so every app has
its own. Each app has its storage, as each worker process has. The ``X-RateLimit-*`` and
``Retry-After`` headers are written here (``rate_limit_headers``).

``memory://`` counts in ``LocalStorage`` (below), not in limits' ``MemoryStorage``: that one
starts a thread (a ``threading.Timer``) to expire keys whenever its previous one has ended,
which under load was on most requests (254 of 300 verifies measured, about a quarter of a
verify's CPU: benchmarks/load.py). ``LocalStorage`` expires a key when it is read after its
window and sweeps the dead ones inline at most once a minute: no thread, same counts.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse
from limits.storage import MovingWindowSupport, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from dailydeal.config import Settings
from dailydeal.web.compress import is_public
from dailydeal.web.proxies import parse_address

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])
SETTINGS = "dailydeal_settings"  # app.extensions key
RATE_LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
MEMORY = "memory://"
LOCAL = "dailydeal+memory://"  # LocalStorage's scheme (limits finds a storage by scheme)


class LocalStorage(Storage, MovingWindowSupport):
    """In-process counters for the fixed windows of the routes' limits and the moving
    window of counted results (``web/results.py``), as limits' ``MemoryStorage`` keeps
    them, without its expiry thread: a key past its window is dropped when it is read, and
    every dead key at most once a ``SWEEP`` seconds, inline, by whichever call comes then."""

    STORAGE_SCHEME = ["dailydeal+memory"]
    SWEEP = 60.0

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 **options: Any) -> None:
        self._counts: dict[str, int] = {}
        self._expires: dict[str, float] = {}  # key -> end of its fixed window
        self._events: dict[str, list[float]] = {}  # key -> times of its entries, newest first
        self._event_expiry: dict[str, float] = {}  # key -> its moving window's length
        self._lock = threading.Lock()
        self._next_sweep = time.time() + self.SWEEP
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def _sweep(self, now: float) -> None:
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.SWEEP
        for key in [k for k, t in self._expires.items() if t <= now]:
            self._drop_counter(key)
        for key in [k for k, e in self._events.items()
                    if not e or e[0] <= now - self._event_expiry.get(k, 0)]:
            self._events.pop(key, None)
            self._event_expiry.pop(key, None)

    def _drop_counter(self, key: str) -> None:
        self._counts.pop(key, None)
        self._expires.pop(key, None)

    def _current(self, key: str, now: float) -> int:
        if self._expires.get(key, 0) <= now:
            self._drop_counter(key)
            return 0
        return self._counts.get(key, 0)

    # the fixed window (flask-limiter's default strategy)
    def incr(self, key: str, expiry: int, amount: int = 1, elastic_expiry: bool = False) -> int:
        with self._lock:
            now = time.time()
            self._sweep(now)
            count = self._current(key, now) + amount
            self._counts[key] = count
            if count == amount or elastic_expiry:
                self._expires[key] = now + expiry
            return count

    def decr(self, key: str, amount: int = 1) -> int:
        with self._lock:
            count = max(self._current(key, time.time()) - amount, 0)
            if key in self._expires:
                self._counts[key] = count
            return count

    def get(self, key: str) -> int:
        with self._lock:
            return self._current(key, time.time())

    def get_expiry(self, key: str) -> float:
        return self._expires.get(key, time.time())

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            count = max(len(self._counts), len(self._events))
            self._counts.clear()
            self._expires.clear()
            self._events.clear()
            self._event_expiry.clear()
            return count

    def clear(self, key: str) -> None:
        with self._lock:
            self._drop_counter(key)
            self._events.pop(key, None)
            self._event_expiry.pop(key, None)

    # the moving window (counted results)
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        with self._lock:
            now = time.time()
            self._sweep(now)
            events = self._events.setdefault(key, [])
            self._event_expiry[key] = expiry
            if len(events) > limit - amount and events[limit - amount] >= now - expiry:
                return False
            events[:0] = [now] * amount
            del events[limit:]  # older ones are out of the window: the check above says so
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        with self._lock:
            now = time.time()
            inside = [t for t in self._events.get(key, ()) if t > now - expiry]
            return (inside[-1], len(inside)) if inside else (now, 0)


@functools.lru_cache(maxsize=4096)
def network_of(address: str, v4_prefix: int = 32, v6_prefix: int = 64) -> str:
    """The network an address belongs to, for budgets: ``198.51.100.7/32``,
    ``2001:db8:1:2::/64``. An IPv4 address mapped into IPv6 (``::ffff:a.b.c.d``) is its
    IPv4 address; a text that is no address (a test client's) is itself."""
    ip = parse_address(address)
    if ip is None:
        return address
    prefix = v4_prefix if ip.version == 4 else v6_prefix
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def network() -> str:
    """The client's network (``network_of`` the address Flask gives: proxies are
    ``web/proxies.py``'s business), the key of every per-client budget."""
    config = current_app.extensions.get(SETTINGS)
    address = request.remote_addr or "127.0.0.1"  # (a WSGI server always gives one)
    if config is None:
        return network_of(address)
    return network_of(address, config.network_v4_prefix, config.network_v6_prefix)


class RateLimits:
    """The rate limits of one app: its storage (``ratelimit_storage``, else ``redis_url``,
    else memory: ``LocalStorage``) and the in-memory ``LocalStorage`` that counts while
    that storage fails, each under limits' fixed window (flask-limiter's default strategy).

    A storage that fails is marked dead and the request counted on the fallback; the dead
    storage is probed (``check()``) by the next request, then at most once per back-off,
    2**n seconds after the previous probe (n = 0, 1, .. ``MAX_PROBES``, then from 0 again,
    as flask-limiter's ``in_memory_fallback`` does), until it answers; then it counts
    again."""

    MAX_PROBES = 5

    def __init__(self, uri: str, options: dict[str, Any], enabled: bool) -> None:
        storage = storage_from_string(uri, **options)
        assert isinstance(storage, Storage)  # a scheme of limits' synchronous storages
        self.storage = storage
        self.fallback = LocalStorage()
        self._alive = FixedWindowRateLimiter(self.storage)
        self._counting_aside = FixedWindowRateLimiter(self.fallback)
        self.enabled = enabled
        self.dead = False
        self._probes = 0
        # never probed: the first request after a failure asks at once (flask-limiter's
        # clock started with the process, long before), a storage that failed once for
        # another reason (a key read from a body too large) is taken back at once
        self._last_probe = 0.0

    @property
    def strategy(self) -> FixedWindowRateLimiter:
        """The storage's fixed window, or the fallback's while the storage is dead."""
        return self._counting_aside if self.dead else self._alive

    def storage_failed(self) -> None:
        log.warning("Rate limit storage unreachable - falling back to in-memory storage")
        self.dead = True

    def probe(self) -> None:
        """While dead, ask the storage whether it answers again, once per back-off."""
        if self._probes > self.MAX_PROBES:
            self._probes = 0
        now = time.time()
        if now - self._last_probe <= 2 ** self._probes:
            return
        self._last_probe = now
        self._probes += 1
        try:
            alive = self.storage.check()
        except Exception:  # noqa: BLE001 - still down
            alive = False
        if alive:
            log.info("Rate limit storage recovered")
            self.dead = False
            self._probes = 0


#: app.extensions key of the app's ``RateLimits``
RATE_LIMITS = "dailydeal_rate_limits"


def init_app(app: Flask, settings: Settings) -> None:
    """Bind the settings and the rate limits to ``app`` (``RateLimits``; off when the
    Flask config's ``RATELIMIT_ENABLED`` is false)."""
    app.extensions[SETTINGS] = settings
    uri = settings.ratelimit_storage_uri()
    if uri.startswith(MEMORY):  # the same counts, without a thread (LocalStorage)
        uri = LOCAL + uri[len(MEMORY):]
    # a hung Redis costs a request half a second, then the in-memory fallback counts
    app.extensions[RATE_LIMITS] = RateLimits(
        uri, _storage_options(uri), bool(app.config.get("RATELIMIT_ENABLED", True)))


def rate_limits() -> RateLimits:
    """The rate limits of the current app."""
    found: RateLimits = current_app.extensions[RATE_LIMITS]
    return found


def settings() -> Settings:
    """The settings of the current app: the one place the routes read them."""
    found: Settings = current_app.extensions[SETTINGS]
    return found


class _RouteLimit:
    """One ``limit(...)`` of a route: its scope, whom it counts and when it does not apply;
    the limit's text is its own (``text``) or read from the settings at each request
    (``<scope>_rate_limit``), parsed once per text."""

    __slots__ = ("scope", "attribute", "text", "key", "exempt")

    def __init__(self, scope: str, text: str | None, key: Callable[[], str] | None,
                 exempt: Callable[[], bool] | None) -> None:
        self.scope = scope
        self.attribute = f"{scope}_rate_limit"
        self.text = text
        self.key = key or network
        self.exempt = exempt

    def item(self) -> RateLimitItem:
        if self.text is not None:
            return _parsed(self.text)
        return _parsed(str(getattr(settings(), self.attribute)))


@functools.lru_cache(maxsize=256)
def _parsed(text: str) -> RateLimitItem:
    return parse(text)


#: flask.g's name for this request's limit of the headers: (its item, its key's parts)
CURRENT = "dailydeal_rate_limit"


def limit(
    scope: str, key: Callable[[], str] | None = None,
    exempt: Callable[[], bool] | None = None, *, text: str | None = None,
) -> Callable[[F], F]:
    """The per-client rate limit ``<scope>_rate_limit`` of the settings on a route, shared
    by every route decorated with the same scope (verify and state have two routes each);
    ``text``: a limit of its own instead (``limit("busy", text="20 per hour")``), counted
    under ``scope`` too. HEAD replays the moves (or solves) as GET does: only preflights are
    free. ``key``: whom the budget is for (default: the client's network); ``exempt``:
    when it does not apply.

    Checked on limits' fixed window over the app's storage, with the keys, order, fallback
    and 429 of flask-limiter's ``shared_limit`` (``_check``), without its per-request
    resolution of the route's limits: the limits stacked on one route are checked
    together, by the outermost decorator."""
    route_limit = _RouteLimit(scope, text, key, exempt)

    def decorator(view: F) -> F:
        stacked: list[_RouteLimit] | None = getattr(view, "_dailydeal_limits", None)
        if stacked is not None:  # a limit over another of ours: one check for both
            stacked.append(route_limit)
            return view
        limits = [route_limit]

        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            found = rate_limits()
            if found.enabled and not _preflight():
                _check(found, limits)
            return view(*args, **kwargs)  # the app's views are plain functions: no async

        checked._dailydeal_limits = limits  # type: ignore[attr-defined]
        return cast(F, checked)

    return decorator


def _check(found: RateLimits, limits: list[_RouteLimit]) -> None:
    """Count this request against a route's limits (a 429 past one): on the fallback while
    the storage is dead (probed on ``RateLimits``' back-off); a storage that fails is
    marked dead and the request counted again on the fallback; a failure of the fallback
    too is logged, never the request's."""
    if found.dead:
        found.probe()
    try:
        _evaluate(found.strategy, limits)
    except TooManyRequests:
        raise
    except Exception:
        if not found.dead:
            found.storage_failed()
            _check(found, limits)
        else:
            log.exception("Failed to rate limit. Swallowing error")


def _evaluate(strategy: FixedWindowRateLimiter, limits: list[_RouteLimit]) -> None:
    items = sorted(((lim.item(), lim) for lim in limits), key=lambda pair: pair[0])
    first: tuple[RateLimitItem, list[str]] | None = None
    for item, lim in items:
        if lim.exempt is not None and lim.exempt():
            continue
        parts = [lim.key(), lim.scope]
        if not all(parts):
            log.error("Skipping limit: %s. Empty value found in parameters.", item)
            continue
        if not strategy.hit(item, *parts):
            log.info("ratelimit %s (%s) exceeded at endpoint: %s", item, parts[0], lim.scope)
            setattr(g, CURRENT, (item, parts))
            raise TooManyRequests(description=str(item))
        if first is None:
            first = (item, parts)
    setattr(g, CURRENT, first)


def _preflight() -> bool:
    return request.method == "OPTIONS"


def _storage_options(uri: str) -> dict[str, Any]:
    """Connect and read timeouts under a second, no retries, for a Redis storage."""
    if not uri.startswith(("redis://", "rediss://", "redis+unix://")):
        return {}
    from dailydeal.results.redis_store import options

    return options()


def rate_limit_headers(resp: Response) -> Response:
    """The client's budget (``X-RateLimit-*``) on an answer only that client gets, and a
    true ``Retry-After`` on a 429; the one place these headers are written.

    Not flask-limiter's (which the app used before): its Retry-After truncated (``0`` while the next
    request was still refused: a polite client then spins), replaced the app's own (a 503's
    "5" became the limit's window, 3600), and a public answer (a GET state or hint, cached
    by nginx and browsers for everyone) carried the first client's budget.
    """
    ours: tuple[RateLimitItem, list[str]] | None = g.get(CURRENT)
    if ours is None:
        return resp
    public = is_public(resp)
    needs_wait = resp.status_code == 429 and "Retry-After" not in resp.headers
    if public and not needs_wait:
        return resp
    item = ours[0]
    try:  # a storage round trip
        reset, remaining = rate_limits().strategy.get_window_stats(item, *ours[1])
    except Exception:  # noqa: BLE001 - a storage outage must not fail the answer
        log.warning("rate limit storage unreachable: no rate-limit headers", exc_info=True)
        return resp
    reset_at = int(reset + 1)  # flask-limiter's RequestLimit.reset_at
    if needs_wait:
        # reset_at is a whole second at or after the window's end: rounded up, waiting
        # this long is always enough, and never 0
        resp.headers["Retry-After"] = str(max(1, math.ceil(reset_at - time.time())))
    if not public:  # added, not set: no route writes them (no scan of the headers for each)
        values = (str(item.amount), str(remaining), str(reset_at))
        headers = resp.headers  # a slice: Headers.extend costs 1 us a header (web/__init__.py)
        headers[len(headers):] = list(zip(RATE_LIMIT_HEADERS, values, strict=True))
    return resp
