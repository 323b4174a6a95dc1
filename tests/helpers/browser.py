"""Helpers of the browser tests: a real server on a free port, the system Chromium through
Playwright, and a player that turns a move list in the notation into clicks on the board's
data-* hooks (docs/embedding.md), the way a person plays.

Chromium comes from Debian (``apt-get install chromium``), never from ``playwright
install``, which downloads a browser and cannot work on these machines.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import shutil
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from dailydeal.daily.store import deal_id

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"  # screenshots of the browser tests (git-ignored)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's Chromium (the brief's), else one on the PATH."""
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def why_no_browser() -> str | None:
    """None when the browser tests can run, else the reason they are skipped."""
    if importlib.util.find_spec("playwright") is None:
        return (
            "browser tests skipped: the Python package playwright is missing "
            "(pip install -e '.[dev]')"
        )
    if chromium_path() is None:
        return "browser tests skipped: no Chromium (apt-get install chromium; .ci/run does)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, started by Playwright (headless): the browser, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serve ``app`` with a threaded WSGI server on a free port of 127.0.0.1: its base URL."""
    server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


@contextmanager
def serve_deals(
    path: Path, rows: list[dict[str, Any]], now: Any, **config: Any
) -> Iterator[str]:
    """A real server on a fresh database at ``path`` holding ``rows``, the clock frozen at
    ``now`` and ``config`` (rate limits) on top: its base URL."""
    from dailydeal.daily.store import insert_deal, open_db
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    db = open_db(path)
    for row in rows:
        insert_deal(db, row)
    db.close()
    try:
        # The clock is frozen, so a play lasts 0 s: no minimum time per move for results
        # (tests/test_results.py checks that minimum)
        settings = {"db_path": path, "NOW": lambda: now, "min_seconds_per_move": 0, **config}
        with serve(create_app(settings)) as url:
            yield url
    finally:
        forget(path)


class Player:
    """Plays moves on a ``<daily-deal>`` by clicking, waiting for each redraw."""

    def __init__(self, page: Any, game: str, element: str = "daily-deal") -> None:
        self.page = page
        self.game = game
        self.host = page.locator(element)

    def moves(self) -> int:
        return int(self.host.get_attribute("data-moves") or 0)

    def state(self) -> str:
        return str(self.host.get_attribute("data-state"))

    def click(self, selector: str) -> None:
        self.host.locator(selector).first.click()

    def wait_moves(self, n: int) -> None:
        from playwright.sync_api import expect

        expect(self.host).to_have_attribute("data-moves", str(n))

    def wait_more(self, before: int, timeout_ms: int = 10_000) -> None:
        """Wait until more than ``before`` moves are played (the element may play more by
        itself: auto-finish) or the game is won. A poll: no unsafe-eval under the CSP."""
        for _ in range(timeout_ms // 10):
            # data-finishing is set with the move that makes the rest forced (one task), so
            # read after the count: read before, it could miss a finish begun in between
            if (self.moves() > before or self.state() == "won") and self.host.get_attribute(
                "data-finishing"
            ) is None:
                return
            self.page.wait_for_timeout(10)
        said = self.host.locator("[data-msg]").inner_text()
        raise AssertionError(f"no move after {before} moves; the message line: {said!r}")

    def play(self, move: str) -> None:
        """One move of the notation as clicks; waits until the board shows it played."""
        before = self.moves()
        for selector in self.clicks(move):
            self.click(selector)
        self.wait_more(before)

    def clicks(self, move: str) -> list[str]:
        card = '[data-card="{}"]'.format
        if move in ("d", "r", "R"):
            return [f'[data-action="{ {"d": "draw", "r": "recycle", "R": "redeal"}[move] }"]']
        if ">" in move or "+" in move:
            a, b = move.replace(">", "+").split("+")
            return [card(a), card(b)]
        if "@" in move:  # Gaps: a 2 to column 1 of a row: the gap, then the 2
            two, row = move.split("@")
            return [f'[data-gap="{row},1"]', card(two)]
        return [card(move)]

    def type_moves(self, moves: list[str]) -> None:
        """Play ``moves`` through the notation box, in one go; waits until all are played."""
        box = self.host.locator("input[name=moves]")
        before = self.moves()
        box.fill(" ".join(moves))
        box.press("Enter")
        self.wait_moves(before + len(moves))

    def up_to_first_pair(self, solution: list[str]) -> tuple[list[str], str]:
        """Play a Pyramid ``solution`` up to its first pair: (the moves played, the pair)."""
        start = next(i for i, mv in enumerate(solution) if "+" in mv)
        before = solution[:start]
        if before:
            self.play_all(before)
            self.wait_moves(len(before))
        return before, solution[start]

    def play_all(self, moves: list[str], finish: bool = True) -> None:
        """Play ``moves``; ``finish``: they are the whole solution (deal what is left)."""
        for move in moves:
            if self.state() == "won":  # the element finished a forced ending itself
                return
            if self.game == "accordion" and ">" in move:
                self.deal_until(move.split(">")[0])
            self.play(move)
        if finish and self.game == "accordion":  # deals left out at the end (docs/rules.md)
            while self.state() == "in progress" and self.host.locator(".slot.back").count():
                self.play("d")

    def deal_until(self, card: str) -> None:
        """Accordion solutions may leave deals out: deal until ``card`` is in the row."""
        while not self.host.locator(f'[data-card="{card}"]').count():
            self.play("d")


# --- the pages' tests: what several browser test modules share -----------------------
SKIP = why_no_browser()

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


HOST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Another site</title>
<link rel="icon" href="data:,">
<style>button, div, span { background: #f0f !important; color: #0f0 !important;
  font-size: 40px !important; }</style>
<script type="module" src="SCRIPT"></script></head>
<body><h1>My blog</h1>
<daily-deal deal="DEAL" api="API"></daily-deal>
<iframe id="embed" src="EMBED" width="800" height="700"></iframe>
<script type="module" src="/events.js"></script>
</body></html>"""

EVENTS_JS = """window.dd = {moves: [], won: []};
document.addEventListener("dailydeal-move", (e) => window.dd.moves.push(e.detail));
document.addEventListener("dailydeal-won", (e) => window.dd.won.push(e.detail));"""


def settled(page: Any, locator: Any) -> Any:
    """The box of ``locator`` once it stays put (cards slide for 200 ms after a move: a
    drop or a tap aimed mid-slide can miss)."""
    last = None
    for _ in range(40):
        box = locator.bounding_box()
        if box is not None and box == last:
            return box
        last = box
        page.wait_for_timeout(50)
    return last


def centre(box: Any) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def script_url(site: str) -> str:
    """The versioned URL of the element's script, as the daily page links it."""
    html = urllib.request.urlopen(f"{site}/").read().decode()  # noqa: S310
    start = html.index("/static/daily-deal.js")
    return html[start : html.index('"', start)]


class Watch:
    """What a page did that it must not: console errors, uncaught errors, other hosts."""

    def __init__(self, allowed: set[str]) -> None:
        self.allowed = allowed
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.allowed_errors: list[str] = []  # what a test causes on purpose (offline, a 429)

    def allow(self, text: str) -> None:
        """Console errors containing ``text`` are the test's doing, not the page's."""
        self.allowed_errors.append(text)

    def attach(self, page: Any) -> None:
        page.on("console", self.console)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("request", self.request)

    def console(self, message: Any) -> None:
        # a server without play tokens (POST .../plays answers 404) is fine: the element
        # plays on without one (docs/embedding.md)
        where = (message.location or {}).get("url", "")
        if message.type != "error" or where.endswith("/plays"):
            return
        if not any(text in message.text for text in self.allowed_errors):
            self.errors.append(message.text)

    def request(self, req: Any) -> None:
        netloc = urllib.parse.urlsplit(req.url).netloc
        if req.url.startswith("http") and netloc not in self.allowed:
            self.foreign.append(req.url)


WATCHES: dict[int, Watch] = {}  # the page fixture's watch of each page (by id)


def hosts(*urls: str) -> set[str]:
    return {urllib.parse.urlsplit(u).netloc for u in urls}


def today_id(days: dict[str, dt.date], game: str, tier: str = "medium") -> str:
    return deal_id(days["today"], game, tier)


def api_state(site: str, id_: str, moves: list[str]) -> dict[str, Any]:
    query = urllib.parse.urlencode({"moves": " ".join(moves)})
    with urllib.request.urlopen(f"{site}/api/v1/deals/{id_}/state?{query}") as resp:  # noqa: S310
        return json.loads(resp.read())  # type: ignore[no-any-return]


def open_player(page: Any, url: str, game: str) -> Player:
    page.goto(url)
    player = Player(page, game)
    from playwright.sync_api import expect

    expect(player.host).to_have_attribute("data-moves", "0")
    return player


def shot(page: Any, name: str) -> Path:
    out = (
        ARTIFACTS
        / "screenshots"
        / f"{name}-{page.viewport_size['width']}x{page.viewport_size['height']}.png"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out), full_page=True)
    return out
