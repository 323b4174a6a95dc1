"""The embed's first paint and transfer size: what ``<daily-deal>`` costs an embedder's page.

    .venv/bin/python benchmarks/embed_paint.py [--runs 5] [--conditions none rtt40 slow4g]
        [--game pyramid] [--via gunicorn|nginx] [--tree PATH] [--json FILE]
        [--against BEFORE.json]
    .venv/bin/python benchmarks/embed_paint.py --show AFTER.json --against BEFORE.json

Made to be run before and after a change to the element's files (one script, or an entry
module importing sibling modules and a stylesheet): it hard-codes no file name but
``daily-deal.js``, the URL embedders write. It finds what the element loaded from what the
browser fetched.

Fills a temporary database with today's four deals of one game (a real solver solution,
benchmarks/api.py's ``fill``), starts the real gunicorn from deploy/gunicorn.conf.py on a free
loopback port (benchmarks/servers.py, as benchmarks/web.py does) and drives Debian's Chromium
with Playwright (tests/helpers/browser.py's launch arguments).

``--via`` says what the browser talks to:

- ``gunicorn`` (the default): gunicorn itself, plain HTTP/1.1 (at most 6 connections to the
  origin: with an element of many module files, more round trips than production);
- ``nginx``: production's front, deploy/nginx.conf.example adapted as tests/helpers/nginx.py
  adapts it for the tests (local ports and paths, a self-signed certificate made with
  openssl; TLS and HTTP/2 as deployed, the cache of the static files too; the test's low
  verification rate limit put back to the example's), started in front of the same
  gunicorn (run with ``DAILYDEAL_TRUSTED_PROXIES=127.0.0.1``, as the systemd unit behind
  nginx). Chromium trusts the certificate by its public key
  (``--ignore-certificate-errors-spki-list``): a certificate error (Playwright's
  ``ignore_https_errors``) would keep the responses out of the HTTP cache and the service
  worker from registering, and change the warm loads.
  Every file's protocol (Resource Timing's ``nextHopProtocol``, else DevTools') is
  recorded and printed: ``h2`` through nginx.

``--tree PATH`` serves (and fills the database with) the ``dailydeal`` package of another
checkout, e.g. a ``git worktree`` of an older commit: the script re-runs itself with PATH
first on ``PYTHONPATH`` (gunicorn inherits it); the code's commit is PATH's. The benchmark,
its helpers, deploy/gunicorn.conf.py and deploy/nginx.conf.example stay this checkout's, so
that one script measures two versions of the element alike.

Two pages are loaded:

- ``embed``: somebody else's page (another origin: a small server on another loopback port)
  with the two lines of docs/embedding.md, ``<script type="module"
  src="SITE/static/daily-deal.js">`` (the unversioned URL, as an embedder copies it) and
  ``<daily-deal deal="ID">``;
- ``play``: the site's own ``/play/{id}`` (versioned static URLs, site.css, its service worker).

Each under each network condition (Chromium's ``Network.emulateNetworkConditions`` on the
page's DevTools session: ``none``; ``rtt40``, 40 ms added to each request; ``slow4g``, 150 ms
and 1.6 Mbit/s down, 750 kbit/s up, as Lighthouse's mobile run), ``--runs`` times: a new
browser context each run (a cold cache), then a second load in the same context (``warm``).
Figures, by Chromium's clock (``performance.now()``, from navigation start), each the median
over the runs:

- ``defined``: ``customElements.whenDefined("daily-deal")`` resolved (the scripts ran);
- ``board``: ``[data-board]`` first exists in the element's shadow root (the skeleton; a
  MutationObserver on the shadow root, installed when the element attaches it);
- ``card``: the first ``[data-card]`` in the shadow root (the deal arrived and was drawn);
- ``styled``: the first animation frame in which the board has its cloth (its computed
  ``background-image`` is not ``none``): the skeleton painted with the element's styles,
  however the stylesheet arrives;
- ``ready``: ``data-state`` set on the element (benchmarks/web.py's "board drawn");
- ``fcp``: the page's ``first-contentful-paint`` (on the embed page, the host's own heading
  usually paints first: compare ``styled`` and ``card`` for the element);
- ``static_end``: when the last JS or CSS file under ``/static/`` finished arriving
  (Resource Timing ``responseEnd``);
- the element's static files (every JS and CSS response under ``/static/`` of the site,
  whatever loaded it: ``<script>``, ``import``, ``import()``, a stylesheet link or a fetch):
  requests, those that went to the network (not a cache or the service worker), bytes on
  the wire (DevTools' ``encodedDataLength``: headers and the gzip body), decoded bytes;
  and every request of the page, with its bytes on the wire.

One unmeasured load of each page comes first (the server's workers and the browser warm
up). On a shared machine the conditions without a bandwidth limit vary most from run to
run (the CPU decides them): compare runs of the same machine, with ``--runs 9`` or more
for small differences; every run is in the JSON.

Per file: how many times it was requested, its gzip body, decoded size, and where the warm
load found it (network, 304, disk or memory cache, service worker).

``--json FILE`` writes every run and the medians (and the mode: ``via``, the protocols seen);
``--against FILE`` then prints, for each median, the ratio this run / that of an earlier
``--json`` file (below 1: faster, smaller; either mode against either), and the files that
came, went or changed size; ``--show FILE`` prints a saved run instead
of measuring (``--show AFTER --against BEFORE`` compares two saved runs). No figure is
asserted: timings on a shared machine vary, compare medians of runs taken on the same
machine. The JSON files are a run's, not the repository's: keep them outside it.
Not counted: the play page's service worker's own downloads (its precache, in another
DevTools target); the page's requests served by it are listed as ``service worker``.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests")]

from api import QUIET, fill, running  # noqa: E402  (benchmarks/api.py, servers.py)
from helpers import free_port, stop, wait_for  # noqa: E402  (tests/helpers)
from helpers.browser import CHROMIUM_ARGS, chromium_path, why_no_browser  # noqa: E402
from helpers.nginx import EXAMPLE, NGINX, OPENSSL, SERVER_NAME, adapted  # noqa: E402

from dailydeal.daily.store import deal_id  # noqa: E402
from dailydeal.games import GAMES  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, CDPSession, Page

ENTRY = "daily-deal.js"  # what an embedder writes (docs/embedding.md); all else is found
SCHEMA = 2  # 2: setup's "via", "tree" and "protocols"; a file's "protocol"
VIAS = ("gunicorn", "nginx")

# name -> Network.emulateNetworkConditions (None: no emulation). Throughputs in bytes/s.
CONDITIONS: dict[str, dict[str, Any] | None] = {
    "none": None,
    "rtt40": {"offline": False, "latency": 40, "downloadThroughput": -1, "uploadThroughput": -1},
    "slow4g": {
        "offline": False,
        "latency": 150,
        "downloadThroughput": 1_600_000 / 8,
        "uploadThroughput": 750_000 / 8,
    },
}
PAGES = ("embed", "play")
CACHES = ("cold", "warm")
TIMES = ("defined", "board", "card", "styled", "ready", "fcp", "static_end")
COUNTS = ("static_requests", "static_network", "static_wire", "static_decoded",
          "requests", "wire")
TIMEOUT_MS = 60_000

HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>An embedder's page</title><link rel="icon" href="data:,">
<script type="module" src="SCRIPT"></script></head>
<body><h1>My blog</h1><p>Today's deal, played here:</p>
<daily-deal deal="DEAL"></daily-deal>
</body></html>"""

# Installed before any script of the page: times by Chromium's clock in window.__paint.
PROBE = """
(() => {
  const t = { defined: null, board: null, card: null, styled: null, ready: null };
  window.__paint = t;
  const now = () => performance.now();
  const look = (root) => {
    if (t.board === null && root.querySelector("[data-board]")) t.board = now();
    if (t.card === null && root.querySelector("[data-card]")) t.card = now();
  };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (this.localName === "daily-deal") {
      new MutationObserver(() => look(root)).observe(root, { childList: true, subtree: true });
      new MutationObserver(() => {
        if (t.ready === null && this.hasAttribute("data-state")) t.ready = now();
      }).observe(this, { attributes: true, attributeFilter: ["data-state"] });
    }
    return root;
  };
  const frame = () => {
    const host = document.querySelector("daily-deal");
    const root = host && host.shadowRoot;
    if (root) {
      look(root);
      const board = root.querySelector("[data-board]");
      if (t.styled === null && board && getComputedStyle(board).backgroundImage !== "none") {
        t.styled = now();
      }
      if (t.ready === null && host.hasAttribute("data-state")) t.ready = now();
    }
    if (t.card === null || t.styled === null || t.ready === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  customElements.whenDefined("daily-deal").then(() => { t.defined = now(); });
})();
"""

# What the page knows once the element is drawn: the probe's times, FCP, Resource Timing.
COLLECT = """() => {
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    times: window.__paint,
    fcp: fcp ? fcp.startTime : null,
    resources: performance.getEntriesByType("resource").map((e) => ({
      url: e.name, end: e.responseEnd, transfer: e.transferSize,
      encoded: e.encodedBodySize, decoded: e.decodedBodySize, protocol: e.nextHopProtocol })),
  };
}"""

# After a cold load of a page that registers a service worker: wait until it is active
# (its precache done), so that the warm load is the one a returning visitor gets.
SW_READY = """async () => {
  if (!("serviceWorker" in navigator)) return "none";
  const regs = await navigator.serviceWorker.getRegistrations();
  if (!regs.length) return "none";
  const ok = await Promise.race([navigator.serviceWorker.ready.then(() => "ready"),
    new Promise((r) => setTimeout(() => r("timeout"), 15000))]);
  return ok;
}"""


# --- the embedder's site ------------------------------------------------------------------
@contextmanager
def host_site(site: str) -> Iterator[str]:
    """Somebody else's site on another loopback port: ``/?deal=ID`` embeds the element."""
    script = f"{site}/static/{ENTRY}"

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            deal = query.get("deal", [""])[0]
            body = HOST_PAGE.replace("SCRIPT", script).replace("DEAL", deal).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- production's front: nginx with TLS and HTTP/2 -----------------------------------------
def certificate(tmp: Path) -> str:
    """A self-signed certificate for nginx (tmp/cert.pem, tmp/key.pem, as the tests make
    it, with 127.0.0.1 among its names): the base64 SHA-256 of its public key, for
    Chromium's ``--ignore-certificate-errors-spki-list``."""
    assert OPENSSL is not None
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={SERVER_NAME}",
         "-addext", f"subjectAltName=DNS:{SERVER_NAME},IP:127.0.0.1",
         "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )
    der = subprocess.run(
        [OPENSSL, "x509", "-in", str(tmp / "cert.pem"), "-noout", "-pubkey"],
        check=True, capture_output=True, timeout=30,
    ).stdout
    spki = subprocess.run([OPENSSL, "pkey", "-pubin", "-outform", "DER"], input=der,
                          check=True, capture_output=True, timeout=30).stdout
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def listening(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), 1):
        return True


@contextmanager
def nginx_front(tmp: Path, upstream: str) -> Iterator[str]:
    """deploy/nginx.conf.example adapted (tests/helpers/nginx.py) in front of ``upstream``
    (gunicorn's http://127.0.0.1:PORT), on a free port: yield its https origin."""
    assert NGINX is not None
    port = free_port()
    text = adapted(EXAMPLE.read_text(), tmp, port, urllib.parse.urlsplit(upstream).port or 80)
    # the test's rate limit (reachable by a test) back to the example's: nothing else differs
    for test, example in (("rate=1r/m", "rate=5r/s"), ("burst=1 nodelay", "burst=20 nodelay")):
        assert test in text, f"tests/helpers/nginx.py no longer writes {test!r}"
        text = text.replace(test, example)
    conf = tmp / "nginx.conf"
    conf.write_text(text)
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp), "-c", str(conf)],
                             capture_output=True, text=True, timeout=30)
    if checked.returncode != 0:
        raise SystemExit(f"nginx -t refused the adapted example:\n{checked.stderr}")
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: listening(port), "nginx", tmp / "error.log")
        yield f"https://127.0.0.1:{port}"
    finally:
        stop(proc, signal.SIGQUIT)  # a graceful stop, then SIGKILL after 20 s


@contextmanager
def front(via: str, tmp: Path, env: dict[str, str]) -> Iterator[str]:
    """The site's origin as the browser reaches it: gunicorn's, or nginx's in front of it."""
    if via == "gunicorn":
        with running("gunicorn", tmp, env=env, args=QUIET) as (site, _):
            yield site
        return
    env = {**env, "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1"}  # as the systemd unit behind nginx
    with running("gunicorn", tmp, env=env, args=QUIET) as (upstream, _), \
            nginx_front(tmp, upstream) as site:
        yield site


# --- what the browser fetched (the page's DevTools Network domain) --------------------------
class Requests:
    """Every request of one page load, from DevTools events: URL, type, where it was served
    from, bytes on the wire (headers + body as sent) and decoded bytes."""

    def __init__(self, cdp: CDPSession) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        cdp.on("Network.requestWillBeSent", self.sent)
        cdp.on("Network.requestServedFromCache", self.memory)
        cdp.on("Network.responseReceived", self.response)
        cdp.on("Network.dataReceived", self.data)
        cdp.on("Network.loadingFinished", self.finished)
        cdp.on("Network.loadingFailed", self.failed)

    def reset(self) -> None:
        self.items = {}

    def item(self, rid: str) -> dict[str, Any]:
        return self.items.setdefault(
            rid,
            {"url": "", "type": "", "mime": "", "status": 0, "from": "network", "wire": 0,
             "decoded": 0, "body": None, "done": False, "protocol": ""},
        )

    def sent(self, event: dict[str, Any]) -> None:
        item = self.item(event["requestId"])
        item["url"] = event["request"]["url"]
        item["type"] = event.get("type", "")

    def memory(self, event: dict[str, Any]) -> None:
        self.item(event["requestId"])["from"] = "memory cache"

    def response(self, event: dict[str, Any]) -> None:
        item = self.item(event["requestId"])
        resp = event["response"]
        item["url"] = item["url"] or resp["url"]
        item["type"] = event.get("type", item["type"])
        item["mime"] = resp.get("mimeType", "")
        item["status"] = resp.get("status", 0)
        item["protocol"] = resp.get("protocol", "")
        if resp.get("fromServiceWorker"):
            item["from"] = "service worker"
        elif resp.get("fromDiskCache"):
            item["from"] = "disk cache"
        elif item["from"] == "network" and item["status"] == 304:
            item["from"] = "304"
        headers = {k.lower(): v for k, v in (resp.get("headers") or {}).items()}
        if item["from"] in ("network", "304") and "content-length" in headers:
            item["body"] = int(headers["content-length"])

    def data(self, event: dict[str, Any]) -> None:
        self.item(event["requestId"])["decoded"] += int(event.get("dataLength", 0))

    def finished(self, event: dict[str, Any]) -> None:
        item = self.item(event["requestId"])
        item["done"] = True
        if item["from"] in ("network", "304"):
            item["wire"] = int(event.get("encodedDataLength", 0))

    def failed(self, event: dict[str, Any]) -> None:
        item = self.item(event["requestId"])
        item["done"] = True
        item["from"] = "failed: " + str(event.get("errorText", ""))


def is_static(url: str, site: str, mime: str = "") -> bool:
    """A JS or CSS file under the site's /static/ (the element's, or the play page's own)."""
    parts = urllib.parse.urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != site or not parts.path.startswith("/static/"):
        return False
    return parts.path.endswith((".js", ".mjs", ".css")) or mime in (
        "text/javascript", "application/javascript", "text/css")


def static_path(url: str) -> str:
    return urllib.parse.urlsplit(url).path  # without ?v=: the same file either way


# --- one load ------------------------------------------------------------------------------
def wait_drawn(page: Page) -> dict[str, Any]:
    """Poll until the element is drawn and styled and FCP is known (a poll: no
    wait_for_function, which needs unsafe-eval under the play page's CSP)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        got: dict[str, Any] = page.evaluate(COLLECT)
        times = got["times"] or {}
        if all(times.get(k) is not None for k in ("card", "styled", "ready", "defined")) and (
            got["fcp"] is not None
        ):
            return got
        if time.monotonic() > deadline:
            raise SystemExit(f"{page.url}: the element was not drawn in time: {got['times']}")
        page.wait_for_timeout(20)


def load(page: Page, url: str, requests: Requests, site: str) -> dict[str, Any]:
    """One navigation to ``url``: its times, its static files and its request totals."""
    requests.reset()
    page.goto(url, wait_until="commit")
    drawn = wait_drawn(page)
    # late requests (rules.js beside the deal, the play token) belong to the load too
    page.wait_for_load_state("networkidle")
    drawn = page.evaluate(COLLECT)
    times = {k: drawn["times"][k] for k in ("defined", "board", "card", "styled", "ready")}
    times["fcp"] = drawn["fcp"]
    ends = [r["end"] for r in drawn["resources"] if is_static(r["url"], site)]
    times["static_end"] = max(ends) if ends else None
    files: dict[str, dict[str, Any]] = {}
    for item in requests.items.values():
        if not item["url"].startswith("http") or not is_static(item["url"], site, item["mime"]):
            continue
        f = files.setdefault(
            static_path(item["url"]),
            {"requests": 0, "network": 0, "wire": 0, "body": None, "decoded": 0, "from": [],
             "protocol": ""},
        )
        f["requests"] += 1
        f["network"] += item["from"] in ("network", "304")
        f["wire"] += item["wire"]
        f["decoded"] = max(f["decoded"], item["decoded"])
        if item["body"] is not None:
            f["body"] = item["body"]
        if item["from"] not in f["from"]:
            f["from"].append(item["from"])
        if item["from"] in ("network", "304") and item["protocol"]:
            f["devtools_protocol"] = item["protocol"]
    # the same origin's Resource Timing knows the body sizes where the headers did not say
    # and the protocol it went by (nextHopProtocol: "" from a cache, or where the origin
    # does not allow timing details); DevTools' response.protocol where it says nothing
    for r in drawn["resources"]:
        known = files.get(static_path(r["url"])) if is_static(r["url"], site) else None
        if known is not None and known["body"] is None and r["encoded"]:
            known["body"] = r["encoded"]
        if known is not None and r.get("protocol"):
            known["protocol"] = r["protocol"]
    for f in files.values():
        fallback = f.pop("devtools_protocol", "")
        if not f["protocol"] and fallback:
            f["protocol"] = f"{fallback} (devtools)"
    web = [i for i in requests.items.values() if i["url"].startswith("http")]
    return {
        **times,
        "static_requests": sum(f["requests"] for f in files.values()),
        "static_network": sum(f["network"] for f in files.values()),
        "static_wire": sum(f["wire"] for f in files.values()),
        "static_decoded": sum(f["decoded"] for f in files.values()),
        "requests": len(web),
        "wire": sum(i["wire"] for i in web),
        "files": dict(sorted(files.items())),
    }


def run_once(
    browser: Browser, url: str, site: str, condition: dict[str, Any] | None
) -> dict[str, dict[str, Any]]:
    """A new context (cold cache): one load, then another in the same context (warm)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.add_init_script(PROBE)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        if condition is not None:
            cdp.send("Network.emulateNetworkConditions", condition)
        requests = Requests(cdp)
        cold = load(page, url, requests, site)
        sw = page.evaluate(SW_READY)
        warm = load(page, url, requests, site)
        warm["service_worker"] = cold["service_worker"] = sw
        return {"cold": cold, "warm": warm}
    finally:
        context.close()


def median(values: list[Any]) -> float | None:
    got = [v for v in values if v is not None]
    return float(statistics.median(got)) if got else None


def measure(
    browser: Browser, urls: dict[str, str], site: str, conditions: list[str], runs: int
) -> dict[str, Any]:
    """page -> condition -> cache -> {"runs": [...], "median": {...}, "files": {...}}."""
    out: dict[str, Any] = {p: {c: {k: {"runs": []} for k in CACHES} for c in conditions}
                           for p in urls}
    for url in urls.values():  # not counted: the server's and the browser's first loads
        run_once(browser, url, site, None)
    for cond in conditions:
        for i in range(runs):
            for name, url in urls.items():  # interleaved: drift hits both pages alike
                got = run_once(browser, url, site, CONDITIONS[cond])
                for cache in CACHES:
                    out[name][cond][cache]["runs"].append(got[cache])
            print(f"  {cond}: run {i + 1}/{runs}", file=sys.stderr, flush=True)
    for name in urls:
        for cond in conditions:
            for cache in CACHES:
                cell = out[name][cond][cache]
                cell["median"] = {k: median([r[k] for r in cell["runs"]]) for k in TIMES + COUNTS}
                cell["files"] = cell["runs"][0]["files"]
    return out


# --- printing ------------------------------------------------------------------------------
def fmt(value: float | None, kind: str) -> str:
    if value is None:
        return "-"
    if kind in ("static_wire", "static_decoded", "wire"):
        return f"{value / 1024:.1f}"
    if kind in COUNTS:
        return f"{value:g}"
    return f"{value:.0f}"


HEAD = {"defined": "defined", "board": "board", "card": "card", "styled": "styled",
        "ready": "ready", "fcp": "fcp", "static_end": "js/css done",
        "static_requests": "js/css req", "static_network": "of them net",
        "static_wire": "js/css KB", "static_decoded": "decoded KB",
        "requests": "all req", "wire": "all KB"}
COLUMNS = TIMES + COUNTS


def print_results(results: dict[str, Any]) -> None:
    setup = results["setup"]
    print(
        f"{setup['runs']} runs, medians; ms from navigation start; KB on the wire "
        f"(headers + gzip body). Chromium {setup['chromium']}, {mode(setup)}, "
        f"gunicorn {setup['workers']} workers, {setup['cpus']} CPUs, "
        f"code {setup['commit']}{' (dirty)' * setup['dirty']}, deal {setup['deal']}"
    )
    widths = [max(len(HEAD[c]), 6) for c in COLUMNS]
    head = f"{'page':<6} {'network':<8} {'cache':<5} " + " ".join(
        f"{HEAD[c]:>{w}}" for c, w in zip(COLUMNS, widths, strict=True))
    print(head)
    print("-" * len(head))
    for name, by_cond in results["pages"].items():
        for cond, by_cache in by_cond.items():
            for cache, cell in by_cache.items():
                print(f"{name:<6} {cond:<8} {cache:<5} " + " ".join(
                    f"{fmt(cell['median'][c], c):>{w}}"
                    for c, w in zip(COLUMNS, widths, strict=True)))
    for name, by_cond in results["pages"].items():
        cond = next(iter(by_cond))
        cold, warm = by_cond[cond]["cold"]["files"], by_cond[cond]["warm"]["files"]
        print(f"\n{name}: JS and CSS under /static/ ({results['urls'][name]}), cold load, "
              f"'{cond}'")
        print(f"  {'file':<28} {'req':>3} {'gzip B':>8} {'wire B':>8} {'decoded B':>9} "
              f"{'protocol':<8}  warm load")
        for path, f in cold.items():
            again = ", ".join(warm[path]["from"]) if path in warm else "not loaded"
            body = "-" if f["body"] is None else str(f["body"])
            print(f"  {path:<28} {f['requests']:>3} {body:>8} {f['wire']:>8} "
                  f"{f['decoded']:>9} {f.get('protocol') or '-':<8}  {again}")
        print(f"  {'total':<28} {sum(f['requests'] for f in cold.values()):>3} "
              f"{sum(f['body'] or 0 for f in cold.values()):>8} "
              f"{sum(f['wire'] for f in cold.values()):>8} "
              f"{sum(f['decoded'] for f in cold.values()):>9}")


def mode(setup: dict[str, Any]) -> str:
    """How the browser reached the site: "via gunicorn (http/1.1)", "via nginx (h2)"."""
    via = setup.get("via", "gunicorn")  # schema 1 files: gunicorn, the only way then
    seen = sorted({p for got in setup.get("protocols", {}).values() for p in got})
    return f"via {via} ({', '.join(seen) or 'protocol not recorded'})"


def ratio(after: float | None, before: float | None) -> str:
    if after is None or before is None:
        return "-"
    if before == 0:
        return "=" if after == 0 else "new"
    return f"{after / before:.2f}"


def print_against(after: dict[str, Any], before: dict[str, Any], label: str) -> None:
    """The ratio after / before of every median (this run's over ``before``'s), in the
    shape of the figures' table, then the files that changed, came or went."""
    b_setup, a_setup = before["setup"], after["setup"]
    print(f"\nratio this run / {label}: code {b_setup['commit']} ({b_setup['when']}, "
          f"{b_setup['runs']} runs, {mode(b_setup)}) -> {a_setup['commit']} "
          f"({a_setup['when']}, {a_setup['runs']} runs, {mode(a_setup)}); "
          "below 1: this run is faster or smaller")
    widths = [max(len(HEAD[c]), 6) for c in COLUMNS]
    head = f"{'page':<6} {'network':<8} {'cache':<5} " + " ".join(
        f"{HEAD[c]:>{w}}" for c, w in zip(COLUMNS, widths, strict=True))
    print(head)
    print("-" * len(head))
    for name, by_cond in after["pages"].items():
        for cond, by_cache in by_cond.items():
            for cache, cell in by_cache.items():
                old = before["pages"].get(name, {}).get(cond, {}).get(cache)
                if old is None:
                    print(f"{name:<6} {cond:<8} {cache:<5} (not in {label})")
                    continue
                print(f"{name:<6} {cond:<8} {cache:<5} " + " ".join(
                    f"{ratio(cell['median'].get(c), old['median'].get(c)):>{w}}"
                    for c, w in zip(COLUMNS, widths, strict=True)))
    for name, by_cond in after["pages"].items():
        cond = next(iter(by_cond))
        old_cond = before["pages"].get(name, {}).get(cond)
        if old_cond is None:
            continue
        new, old = by_cond[cond]["cold"]["files"], old_cond["cold"]["files"]
        print(f"\n{name}: files of a cold load, '{cond}': gzip body bytes, before -> after")
        for path in sorted(set(new) | set(old)):
            b = old.get(path, {}).get("body")
            a = new.get(path, {}).get("body")
            what = "added" if path not in old else "gone" if path not in new else ""
            print(f"  {path:<28} {b if b is not None else '-':>8} -> "
                  f"{a if a is not None else '-':>8}  {ratio(a, b):>6} {what}")
        total_b = sum(f["body"] or 0 for f in old.values())
        total_a = sum(f["body"] or 0 for f in new.values())
        print(f"  {'total (' + str(len(old)) + ' -> ' + str(len(new)) + ' files)':<28} "
              f"{total_b:>8} -> {total_a:>8}  {ratio(total_a, total_b):>6}")


# --- main ----------------------------------------------------------------------------------
def reexec(tree: Path, argv: list[str] | None) -> None:
    """Run this script again with ``tree`` first on PYTHONPATH (unless it is already), so
    that every ``dailydeal`` import, here and in gunicorn, is that checkout's."""
    import dailydeal

    if Path(dailydeal.__file__).resolve().parent == tree / "dailydeal":
        return
    paths = [str(tree), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    sys.stdout.flush()
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()),
                           *(sys.argv[1:] if argv is None else argv)], env=env, check=False)
    raise SystemExit(done.returncode)


def protocols(pages: dict[str, Any]) -> dict[str, list[str]]:
    """page -> the protocols its static files came by from the network, over every run."""
    out: dict[str, set[str]] = {}
    for name, by_cond in pages.items():
        for by_cache in by_cond.values():
            for cell in by_cache.values():
                for run in cell["runs"]:
                    for f in run["files"].values():
                        if f["network"] and f.get("protocol"):
                            out.setdefault(name, set()).add(f["protocol"])
    return {name: sorted(got) for name, got in out.items()}


def code_version(tree: Path = ROOT) -> tuple[str, bool]:
    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True,
                              check=False)
        return done.stdout.strip()

    return git("rev-parse", "--short=12", "HEAD") or "unknown", bool(
        git("status", "--porcelain", "--", "dailydeal/web"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold (and warm) loads per figure")
    parser.add_argument("--conditions", nargs="+", choices=list(CONDITIONS),
                        default=list(CONDITIONS), help="network conditions to emulate")
    parser.add_argument("--game", choices=list(GAMES), default="pyramid")
    parser.add_argument("--tier", default="hard")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--via", choices=VIAS, default="gunicorn",
                        help="what the browser talks to: gunicorn (HTTP/1.1) or the deploy "
                             "nginx in front of it (TLS, HTTP/2)")
    parser.add_argument("--tree", type=Path, metavar="PATH",
                        help="serve the dailydeal package of this checkout (a git worktree)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures here")
    parser.add_argument("--against", type=Path, metavar="FILE",
                        help="an earlier --json file: print the ratio this / that per figure")
    parser.add_argument("--show", type=Path, metavar="FILE",
                        help="print a saved --json file instead of measuring")
    args = parser.parse_args(argv)
    before = json.loads(args.against.read_text()) if args.against else None
    if args.show:
        results: dict[str, Any] = json.loads(args.show.read_text())
        print_results(results)
        if before is not None:
            print_against(results, before, str(args.against))
        return 0
    reason = why_no_browser()
    if reason:
        raise SystemExit(reason)
    tree = ROOT
    if args.tree is not None:
        tree = args.tree.resolve()
        if not (tree / "dailydeal" / "__init__.py").is_file():
            raise SystemExit(f"--tree {args.tree}: no dailydeal package there")
        reexec(tree, argv)
    if args.via == "nginx" and (NGINX is None or OPENSSL is None):
        raise SystemExit("--via nginx needs nginx and openssl (Debian packages)")
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="dailydeal-embed-paint-"))
    today = dt.datetime.now(dt.UTC).date()
    deal = deal_id(today, args.game, args.tier)
    fill(tmp / "dailydeal.db", args.game, today)
    env = {"DAILYDEAL_WORKERS": str(args.workers), "DAILYDEAL_LOGLEVEL": "warning"}
    commit, dirty = code_version(tree)
    browser_args = list(CHROMIUM_ARGS)
    if args.via == "nginx":  # trusted, not ignored: see the module's docstring
        browser_args.append(f"--ignore-certificate-errors-spki-list={certificate(tmp)}")
    try:
        with front(args.via, tmp, env) as site, host_site(site) as host:
            urls = {"embed": f"{host}/?deal={deal}", "play": f"{site}/play/{deal}"}
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=browser_args)
                try:
                    pages = measure(browser, urls, site, args.conditions, args.runs)
                    version = browser.version
                finally:
                    browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results = {
        "schema": SCHEMA,
        "setup": {
            "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "commit": commit,
            "dirty": dirty,
            "runs": args.runs,
            "workers": args.workers,
            "cpus": os.cpu_count(),
            "chromium": version,
            "deal": deal,
            "entry": ENTRY,
            "via": args.via,
            "tree": str(tree),
            "protocols": protocols(pages),
        },
        "conditions": {c: CONDITIONS[c] for c in args.conditions},
        "urls": {"embed": f"{{host}}/?deal={deal} -> <script src=SITE/static/{ENTRY}>",
                 "play": f"SITE/play/{deal}"},
        "pages": pages,
    }
    print_results(results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1) + "\n")
        print(f"\nwritten: {args.json}")
    if before is not None:
        print_against(results, before, str(args.against))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
