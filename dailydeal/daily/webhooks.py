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
error, a 5xx, a 408 or a 429, and follows no redirect; another 4xx is final. An attempt
has one deadline (``TIMEOUT``) for the whole request, from the name's lookup to the last
byte of the answer's head: a receiver that sends a byte a second cannot hold it longer.
The hooks of one run are posted independently, up to ``PARALLEL`` at a time, so a slow or
dead one delays no other.

A hook's name is resolved once per attempt and every address it gives is checked
(``refused``): loopback, private, link-local, unspecified, multicast, reserved and the
clouds' metadata addresses are refused (a final failure), in whatever spelling the URL
wrote them (``2130706433``, ``0x7f.1``, ``[::ffff:127.0.0.1]``, a name that resolves
there), unless ``DAILYDEAL_WEBHOOK_PRIVATE`` allows them (local testing). The connection
then goes to the checked address itself, with the name in ``Host`` and in TLS's SNI and
certificate check: no second lookup that DNS rebinding could answer differently.

The table ``webhook_posts`` keeps (date, hook) with ``sent`` or ``failed`` (a
final 4xx), so a date is posted once even with two schedulers on one database (the row is
claimed before the post); a post that could not be delivered is dropped from the table
and tried again by the next hourly run while its date is still the newest. The hook is
stored as a hash of its URL: a webhook URL is a credential.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import ipaddress
import json
import logging
import queue
import socket
import ssl
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from dailydeal import __version__
from dailydeal.config import Settings
from dailydeal.daily import clock, store
from dailydeal.rating import TIERS

log = logging.getLogger(__name__)

ATTEMPTS = 3
BACKOFF = (2.0, 8.0)  # seconds before the 2nd and the 3rd attempt
TIMEOUT = 5.0  # seconds for a whole attempt: lookup, connect, TLS, request, answer's head
PARALLEL = 8  # hooks posted at a time
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


# The clouds' metadata services, refused even where a network calls them public (Oracle's
# 192.0.0.192 is "global" to Python 3.11); the others are link-local or private anyway.
METADATA = tuple(ipaddress.ip_network(n) for n in (
    "169.254.169.254/32", "169.254.170.2/32", "100.100.100.200/32", "192.0.0.0/24",
    "fd00:ec2::254/128",
))
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # an IPv4 address in its last 32 bits
MAX_HEAD = 65_536  # bytes of an answer's head read at most (only its status is used)
_TLS = ssl.create_default_context()


def _kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """What kind of address a webhook may not reach ``ip`` is, or "" when it may."""
    if any(ip in net for net in METADATA if net.version == ip.version):
        return "cloud metadata"
    for kind in ("loopback", "link_local", "unspecified", "multicast", "reserved", "private"):
        if getattr(ip, "is_" + kind):
            return kind.replace("_", "-")
    return "" if ip.is_global else "non-public"


def refused(address: str) -> str:
    """Why a webhook may not go to ``address`` (an IP as a lookup gives it), or "": an
    IPv6 address that carries an IPv4 one (mapped, 6to4, NAT64) is judged by that one."""
    ip = ipaddress.ip_address(address.partition("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
        if inner is not None:  # the outer prefix is "reserved" to Python: judge the inner
            return _kind(inner)
    return _kind(ip)


def lookup(host: str, port: int) -> list[tuple[int, Any]]:
    """The (family, socket address) pairs ``host`` resolves to: the one lookup of an
    attempt (tests replace it)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [(family, address) for family, _, _, _, address in infos]


def _resolve(host: str, port: int, seconds: float) -> list[tuple[int, Any]]:
    """``lookup`` within ``seconds`` (getaddrinfo takes no timeout: a daemon thread runs
    it, and a lookup that hangs is left to end on its own)."""
    box: list[Any] = []
    done = threading.Event()

    def run() -> None:
        try:
            box.append(lookup(host, port))
        except (OSError, UnicodeError) as exc:
            box.append(exc)
        done.set()

    threading.Thread(target=run, name="dailydeal-webhook-lookup", daemon=True).start()
    if not done.wait(max(seconds, 0.0)):
        raise TimeoutError("the lookup of the host timed out")
    if isinstance(box[0], Exception):
        raise box[0]
    return list(box[0])


def _connect(addresses: list[tuple[int, Any]], end: float) -> socket.socket:
    """A connection to the first of ``addresses`` that answers before ``end``."""
    error: OSError = TimeoutError("no address to connect to")
    for family, address in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(max(end - time.monotonic(), 0.001))
            sock.connect(address)
            return sock
        except OSError as exc:
            sock.close()
            error = exc
    raise error


def _exchange(url: str, data: bytes, headers: dict[str, str], private: bool, end: float) -> int:
    """The status of one POST that must end by ``end`` (monotonic): every address the
    name gives is checked, then the connection goes to the checked address itself."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    addresses = _resolve(host, port, end - time.monotonic())
    for _, address in addresses:
        why = "" if private else refused(str(address[0]))
        if why:
            raise Refused(f"refused: the host resolves to {address[0]}, a {why} address "
                          "(DAILYDEAL_WEBHOOK_PRIVATE=1 allows it)")
    sock = _connect(addresses, end)
    # The deadline holds whatever the receiver does: at ``end`` the connection is shut
    # down (a duplicate of its descriptor, so it also stops a TLS handshake or a read).
    guard = sock.dup()
    timer = threading.Timer(max(end - time.monotonic(), 0.0), _shut, [guard])
    timer.daemon = True
    timer.start()
    try:
        if tls:
            sock.settimeout(max(end - time.monotonic(), 0.001))
            sock = _TLS.wrap_socket(sock, server_hostname=host)  # SNI and certificate: the name
        target = quote(parts.path or "/", safe="/%:@!$&'()*+,;=-._~") + (
            "?" + quote(parts.query, safe="/?%:@!$&'()*+,;=-._~") if parts.query else "")
        head = [f"POST {target} HTTP/1.1", f"Host: {parts.netloc.rpartition('@')[2]}",
                f"Content-Length: {len(data)}", "Connection: close",
                *(f"{k}: {v}" for k, v in headers.items())]
        sock.settimeout(max(end - time.monotonic(), 0.001))
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)
        got = b""
        while b"\r\n\r\n" not in got and len(got) < MAX_HEAD:
            sock.settimeout(max(end - time.monotonic(), 0.001))
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
        if time.monotonic() >= end:
            raise TimeoutError("the receiver did not answer in time")
    finally:
        timer.cancel()
        guard.close()
        sock.close()
    status = got.split(b"\r\n", 1)[0].split(b" ")
    if len(status) < 2 or not status[0].startswith(b"HTTP/") or not status[1].isdigit():
        raise ConnectionError("no HTTP answer" if got else "closed without an answer")
    return int(status[1])


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class Refused(Exception):
    """A hook whose host is an address webhooks may not reach (final)."""


def post(
    url: str, data: bytes, headers: dict[str, str], timeout: float, private: bool = False
) -> tuple[bool, bool, str]:
    """One POST within ``timeout`` seconds, lookup to the answer's head: (delivered,
    worth retrying, reason). No redirect is followed: a 3xx is an answer."""
    end = time.monotonic() + timeout
    try:
        status = _exchange(url, data, headers, private, end)
    except Refused as exc:
        return False, False, str(exc)
    except (OSError, ValueError) as exc:  # refused, timed out, DNS, TLS, bad answer
        if isinstance(exc, TimeoutError) or time.monotonic() >= end:
            return False, True, f"timed out: no answer within {timeout:g} s"
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
        ok, again, reason = post(url, data, headers, timeout, settings.webhook_private)
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
        claimed = [
            (kind, url, hook_id(url)) for kind, url in settings.webhooks
            # False: sent already, or another scheduler is sending it
            if store.claim_webhook_post(db, day, hook_id(url), current, current - STALE_CLAIM)
        ]
        done = _deliver_all(settings, claimed, announcement, backoff, timeout)
        by_hook: dict[int, Delivery] = {}
        for _ in claimed:  # noted as each ends: a slow hook holds no other
            index, (status, attempts, reason) = done.get()
            kind, _, hook = claimed[index]
            store.finish_webhook_post(db, day, hook, status)
            level = logging.INFO if status == "sent" else logging.WARNING
            log.log(level, "webhook %s %s (%s): %s after %d attempt(s), %s",
                    kind, hook, day, status, attempts, reason)
            by_hook[index] = Delivery(day, kind, hook, status, attempts, reason)
        out = [by_hook[index] for index in sorted(by_hook)]  # in the settings' order
    finally:
        db.close()
    return out


def _deliver_all(
    settings: Settings, hooks: list[tuple[str, str, str]], day: dict[str, Any],
    backoff: Sequence[float], timeout: float,
) -> queue.Queue[tuple[int, tuple[str, int, str]]]:
    """``deliver`` to each of ``hooks`` in up to ``PARALLEL`` daemon threads (a hung
    receiver never holds the process's exit); the queue gets (index, outcome) as each
    ends."""
    todo: queue.Queue[int] = queue.Queue()
    done: queue.Queue[tuple[int, tuple[str, int, str]]] = queue.Queue()
    for index in range(len(hooks)):
        todo.put(index)

    def work() -> None:
        while True:
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            kind, url, _ = hooks[index]
            try:
                outcome = deliver(settings, kind, url, day, backoff=backoff, timeout=timeout)
            except Exception as exc:  # a bug must not leave the claim or the caller hanging
                log.exception("webhooks: delivering failed")
                outcome = ("retry", 0, type(exc).__name__)
            done.put((index, outcome))

    for _ in range(min(PARALLEL, len(hooks))):
        threading.Thread(target=work, name="dailydeal-webhook", daemon=True).start()
    return done


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
