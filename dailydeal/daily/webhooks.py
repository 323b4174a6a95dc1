"""Announce each new daily date to webhooks (``DAILYDEAL_WEBHOOKS``), once per date and hook.

The scheduler calls ``start(settings)`` after every fill (``scheduler.fill_stock``): a
daemon thread, so a slow or dead receiver never delays generation. A date is announced
when it has begun somewhere on Earth (UTC+14, the moment the API serves it: D-1 10:00 UTC,
posted by the run at 10:05) and all its deals are stored; never earlier, since a webhook
must not leak a deal before its day, whatever the database holds.

Formats (``FORMAT=URL`` in the setting):

- ``slack``: Slack's incoming-webhook JSON, ``{"text": ...}`` with ``<url|tier>`` links;
- ``discord``: Discord's, ``{"content": ..., "allowed_mentions": {"parse": []}}``;
- ``json``: ``{"type": "dailydeal.day", "date", "url", "api_url", "deals": [...]}``, signed:
  ``X-Dailydeal-Signature: sha256=HEX`` is HMAC-SHA256, keyed with
  ``DAILYDEAL_WEBHOOK_SECRET``, of ``TIMESTAMP + "." + BODY`` where ``TIMESTAMP`` is the
  ``X-Dailydeal-Timestamp`` header (Unix seconds): a receiver checks both, and refuses
  an old timestamp, so a copied request cannot be replayed later.

Each post is tried ``ATTEMPTS`` times with growing pauses (``BACKOFF``) on a network
error, a 5xx, a 408 or a 429, with a short timeout and no redirects; another 4xx is
final. The table ``webhook_posts`` keeps (date, hook) with ``sent`` or ``failed`` (a
final 4xx), so a date is posted once even with two schedulers on one database (the row is
claimed before the post); a post that could not be delivered is dropped from the table
and tried again by the next hourly run while its date is still the newest. The hook is
stored as a hash of its URL: a webhook URL is a credential.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dailydeal import __version__
from dailydeal.config import Settings
from dailydeal.daily import clock, store
from dailydeal.rating import TIERS

log = logging.getLogger(__name__)

ATTEMPTS = 3
BACKOFF = (2.0, 8.0)  # seconds before the 2nd and the 3rd attempt
TIMEOUT = 5.0  # seconds per attempt
STALE_CLAIM = dt.timedelta(hours=1)  # a claim left by a process that died while posting
SIGNATURE = "X-Dailydeal-Signature"
TIMESTAMP = "X-Dailydeal-Timestamp"


@dataclass(frozen=True)
class Delivery:
    """What one announcement did: ``status`` is sent, failed (final) or retry (next run)."""

    date: dt.date
    kind: str
    hook: str  # the hash of the URL
    status: str
    attempts: int
    reason: str = ""


def hook_id(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()[:16]


def links(settings: Settings, day: dt.date, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON announcement of ``day``: the paths are the app's (tests/test_webhooks.py
    checks that each one answers)."""
    base = (settings.public_url or "").rstrip("/")
    return {
        "type": "dailydeal.day",
        "date": day.isoformat(),
        "url": f"{base}/#{day.isoformat()}",
        "api_url": f"{base}/api/v1/daily/{day.isoformat()}",
        "deals": [
            {
                "id": r["id"],
                "game": r["game"],
                "variant": r["variant"],
                "tier": r["tier"],
                "rating": r["rating"],
                "par": r["solution_length"],
                "play_url": f"{base}/play/{r['id']}",
                "api_url": f"{base}/api/v1/deals/{r['id']}",
                "preview_url": f"{base}/api/v1/deals/{r['id']}/preview.png",
            }
            for r in rows
        ],
    }


def _lines(day: dict[str, Any], link: str) -> list[str]:
    """One line per game: ``Pyramid: easy · medium · hard · expert`` with ``link`` made of
    (url, tier) by the chat's own syntax."""
    games: dict[str, list[str]] = {}
    for d in day["deals"]:
        games.setdefault(d["game"], []).append(link.format(url=d["play_url"], text=d["tier"]))
    return [f"{game.capitalize()}: " + " · ".join(tiers) for game, tiers in games.items()]


def body(kind: str, day: dict[str, Any]) -> dict[str, Any]:
    """The JSON body a ``kind`` webhook receives for the announcement ``day``."""
    d = dt.date.fromisoformat(day["date"])
    title = f"Daily deals of {d:%A} {d.day} {d:%B %Y}"
    if kind == "slack":
        lines = _lines(day, "<{url}|{text}>")
        return {"text": "\n".join([f"*<{day['url']}|{title}>*", *lines]), "unfurl_links": False}
    if kind == "discord":
        lines = _lines(day, "[{text}](<{url}>)")
        return {
            "content": "\n".join([f"**{title}**", *lines]),
            "allowed_mentions": {"parse": []},
        }
    return day


def sign(secret: str, timestamp: str, data: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + data, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx is an answer (not delivered), never a post elsewhere


_OPENER = urllib.request.build_opener(_NoRedirect)


def post(
    url: str, data: bytes, headers: dict[str, str], timeout: float
) -> tuple[bool, bool, str]:
    """One POST: (delivered, worth retrying, reason)."""
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with _OPENER.open(request, timeout=timeout) as resp:
            status = int(resp.status)
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (OSError, ValueError) as exc:  # refused, timed out, DNS, TLS, bad URL
        return False, True, type(exc).__name__ + ": " + str(exc)[:120]
    if 200 <= status < 300:
        return True, False, f"HTTP {status}"
    return False, status >= 500 or status in (408, 429), f"HTTP {status}"


def deliver(
    settings: Settings, kind: str, url: str, day: dict[str, Any], *,
    backoff: Sequence[float] = BACKOFF, timeout: float = TIMEOUT,
) -> tuple[str, int, str]:
    """Post ``day`` to one hook with retries: (sent | failed | retry, attempts, reason)."""
    data = json.dumps(body(kind, day), ensure_ascii=False, separators=(",", ":")).encode()
    reason = ""
    for attempt in range(1, ATTEMPTS + 1):
        headers = {
            "Content-Type": "application/json",
            "User-Agent": f"dailydeal/{__version__} (webhook)",
        }
        if kind == "json":
            stamp = str(int(time.time()))
            headers[TIMESTAMP] = stamp
            headers[SIGNATURE] = sign(settings.webhook_secret or "", stamp, data)
        ok, again, reason = post(url, data, headers, timeout)
        if ok:
            return "sent", attempt, reason
        if not again:
            return "failed", attempt, reason
        if attempt < ATTEMPTS:
            time.sleep(backoff[min(attempt - 1, len(backoff) - 1)])
    return "retry", ATTEMPTS, reason


def announce(
    settings: Settings, now: dt.datetime | None = None, *,
    backoff: Sequence[float] = BACKOFF, timeout: float = TIMEOUT,
) -> list[Delivery]:
    """Post the newest begun date to every hook that has not had it; never raises for a
    receiver's failure (it is logged and retried by the next run)."""
    if not settings.webhooks:
        return []
    current = now or dt.datetime.now(dt.UTC)
    day = clock.latest_published(current)
    db = store.open_db(settings.db_path)
    out = []
    try:
        if store.missing_keys(db, [day], settings.games, TIERS):
            log.info("webhooks: %s is not complete yet; announced by a later run", day)
            return []
        daily = {(g, v) for g, v in settings.games}
        rows = [r for r in store.deals_on(db, day) if (r["game"], r["variant"]) in daily]
        announcement = links(settings, day, rows)
        for kind, url in settings.webhooks:
            hook = hook_id(url)
            if not store.claim_webhook_post(db, day, hook, current, current - STALE_CLAIM):
                continue  # sent already, or another scheduler is sending it
            status, attempts, reason = deliver(
                settings, kind, url, announcement, backoff=backoff, timeout=timeout
            )
            store.finish_webhook_post(db, day, hook, status)
            level = logging.INFO if status == "sent" else logging.WARNING
            log.log(level, "webhook %s %s (%s): %s after %d attempt(s), %s",
                    kind, hook, day, status, attempts, reason)
            out.append(Delivery(day, kind, hook, status, attempts, reason))
    finally:
        db.close()
    return out


def start(settings: Settings, now: dt.datetime | None = None) -> threading.Thread | None:
    """``announce`` in a daemon thread (the scheduler's job returns at once); None when no
    webhook is configured."""
    if not settings.webhooks:
        return None

    def run() -> None:
        try:
            announce(settings, now)
        except Exception:  # a database hiccup must not kill the scheduler's thread
            log.exception("webhooks: announcing failed; the next run tries again")

    thread = threading.Thread(target=run, name="dailydeal-webhooks", daemon=True)
    thread.start()
    return thread
