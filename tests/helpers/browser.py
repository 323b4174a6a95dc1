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


# The tests' browser: Debian's chromium-headless-shell when installed, the same Chromium
# (156) without the desktop browser around it, and what Playwright itself runs headless. It
# costs a third of the CPU: a new context with a play page 0.45 to 0.7 core-seconds against
# 1.5 to 1.8 for the full browser, a move 42 to 56 ms against 54 to 63, the browser test
# files (``-n 2``) 281 core-seconds against 380; the suite is CPU-bound on 2 cores
# (docs/architecture.md, "Tests"). Else Debian's chromium. TEST_CHROMIUM names another:
# ``make test-lowest`` runs the suite in the full browser, so CI tries every page in both.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"


def chromium_path() -> str | None:
    """Debian's Chromium, the desktop browser (the benchmarks: what a player runs)."""
    if os.access(FULL_CHROMIUM, os.X_OK):
        return FULL_CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium_for_tests() -> str | None:
    """The browser the tests drive: TEST_CHROMIUM, else the headless shell, else Chromium."""
    named = os.environ.get("TEST_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    if os.access(HEADLESS_SHELL, os.X_OK):
        return HEADLESS_SHELL
    return chromium_path()


def why_no_browser() -> str | None:
    """None when the browser tests can run, else the reason they are skipped."""
    if importlib.util.find_spec("playwright") is None:
        return (
            "browser tests skipped: the Python package playwright is missing "
            "(pip install -e '.[dev]')"
        )
    if chromium_for_tests() is None:
        if named := os.environ.get("TEST_CHROMIUM"):
            return f"browser tests skipped: TEST_CHROMIUM={named} is not a program"
        return ("browser tests skipped: no Chromium (apt-get install chromium-headless-shell "
                "or chromium; .ci/run does)")
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """The tests' Chromium (``chromium_for_tests``), started by Playwright: the browser,
    closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_for_tests(), args=CHROMIUM_ARGS)
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


# The element's move count and state ({moves, state, finishing}) once ``want`` holds: more
# than ``more`` moves (or a won game) and no forced ending under way, or exactly ``exactly``
# moves; {..., timeout: true} after ``ms``. A MutationObserver on the element's data-*
# hooks answers inside the page, in one round trip (a poll from here took three round trips
# every 10 ms; wait_for_function cannot: it compiles its predicate with eval, which the CSP
# forbids). The observer's callback runs after the whole task that changed the hooks, so
# data-finishing, set with the move that makes the rest forced, is seen with that move.
WAIT_JS = """(host, [more, exactly, ms]) => new Promise((done) => {
  const now = () => ({moves: Number(host.dataset.moves || 0), state: host.dataset.state || null,
                      finishing: "finishing" in host.dataset});
  const ready = (s) => exactly === null
    ? (s.moves > more || s.state === "won") && !s.finishing
    : host.hasAttribute("data-moves") && s.moves === exactly;
  if (ready(now())) return done(now());
  const end = (extra) => { watch.disconnect(); clearTimeout(timer); done({...now(), ...extra}); };
  const watch = new MutationObserver(() => ready(now()) && end({}));
  watch.observe(host, {attributes: true,
                       attributeFilter: ["data-moves", "data-state", "data-finishing"]});
  const timer = setTimeout(() => end({timeout: true}), ms);
})"""

# Where a click on the element lands: the middle of its box once its own slide has ended,
# and whether the element is what is there (Playwright's hit check); when something covers
# it (a card dealt slides over the stock), once the other cards' slides have ended too;
# then, out of view or covered (a phone's sticky controls), scrolled to the middle of the
# view as Playwright's click does. Not waited for: the fading ghosts of cards gone, which
# let the pointer through, and the 2 px lift of a hovered card (a CSS transition). A press
# mid-slide is test_web_browser's tap on a sliding card. Playwright's own wait, a box that
# stays put for two frames, cost 140 ms a click and more round trips; with reduced motion
# nothing slides and this answers at once.
AIM_JS = """async (el) => {
  const root = el.getRootNode();
  const ended = (animations) => Promise.race([
    Promise.all(animations.filter((a) => !(a instanceof CSSTransition)
      && a.effect.getTiming().iterations !== Infinity
      && a.effect.target && a.effect.target.matches("[data-card]"))
      .map((a) => a.finished.catch(() => null))),
    new Promise((done) => setTimeout(done, 2000))]);
  const aim = () => {
    const r = el.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const inside = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
    const there = inside ? root.elementFromPoint(x, y) : null;
    return {x, y, hit: Boolean(there) && el.contains(there),
            there: there ? there.outerHTML.slice(0, 160) : "nothing: out of view"};
  };
  await ended(el.getAnimations());
  const first = aim();
  if (first.hit) return first;
  await ended(root.getAnimations());
  const second = aim();
  if (second.hit) return second;
  el.scrollIntoView({block: "center", inline: "center", behavior: "instant"});
  return aim();
}"""

STATUS_JS = """(host) => ({moves: Number(host.dataset.moves || 0),
  state: host.dataset.state || null, finishing: "finishing" in host.dataset})"""


class Player:
    """Plays moves on a ``<daily-deal>`` by clicking, waiting for each redraw."""

    def __init__(self, page: Any, game: str, element: str = "daily-deal") -> None:
        self.page = page  # a page, or a frame (an element in an iframe)
        self.game = game
        self.host = page.locator(element)

    def moves(self) -> int:
        return int(self.host.get_attribute("data-moves") or 0)

    def state(self) -> str:
        return str(self.host.get_attribute("data-state"))

    def status(self) -> dict[str, Any]:
        """{moves, state, finishing} of the element, read at once (one round trip)."""
        return self.host.evaluate(STATUS_JS)  # type: ignore[no-any-return]

    def click(self, selector: str) -> None:
        """A real mouse click (press and release) on the middle of the element's first
        ``selector``. Two round trips: where it is, then the click (Playwright's
        ``locator.click`` waits until a box has stayed put for two frames, a slide's 200 ms
        after each move, and took 140 ms a click)."""
        target = self.host.locator(selector).first
        if not hasattr(self.page, "mouse"):  # a frame: the page's mouse is not at hand
            target.click()
            return
        aim = target.evaluate(AIM_JS)
        assert aim["hit"], f"{selector} is covered at its middle by {aim['there']}"
        self.page.mouse.click(aim["x"], aim["y"])

    def wait(self, more: int | None = None, exactly: int | None = None,
             timeout_ms: int = 10_000) -> dict[str, Any]:
        got: dict[str, Any] = self.host.evaluate(WAIT_JS, [more, exactly, timeout_ms])
        if got.get("timeout"):
            said = self.host.locator("[data-msg]").inner_text()
            want = f"more than {more}" if exactly is None else f"exactly {exactly}"
            raise AssertionError(f"not {want} moves in {timeout_ms} ms but {got}; "
                                 f"the message line: {said!r}")
        return got

    def wait_moves(self, n: int) -> None:
        """Wait until the element has played exactly ``n`` moves."""
        self.wait(exactly=n)

    def wait_more(self, before: int, timeout_ms: int = 10_000) -> dict[str, Any]:
        """Wait until more than ``before`` moves are played (the element may play more by
        itself: auto-finish) or the game is won, and no forced ending is under way: the
        element's status then."""
        return self.wait(more=before, timeout_ms=timeout_ms)

    def play(self, move: str, before: int | None = None) -> dict[str, Any]:
        """One move of the notation as clicks; waits until the board shows it played (the
        element's status then). ``before``: the moves played before, when known."""
        if before is None:
            before = self.moves()
        for selector in self.clicks(move):
            self.click(selector)
        return self.wait_more(before)

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

    def win(self, solution: list[str]) -> None:
        """Win with ``solution``: typed in the notation box up to its last move, which is
        clicked (or played by the element itself, a forced ending) -- for tests of a won
        game's page rather than of the clicks (tests/test_web_browser_wins.py clicks whole
        games; a Gaps line clicked took 10 s here)."""
        box = self.host.locator("input[name=moves]")
        before = self.moves()
        box.fill(" ".join(solution[:-1]))
        box.press("Enter")
        now = self.wait_more(before + len(solution) - 2)
        if now["state"] != "won":
            self.play_all(solution[-1:])
        assert self.state() == "won", self.host.locator("[data-msg]").inner_text()

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
        now = self.status()
        for move in moves:
            if now["state"] == "won":  # the element finished a forced ending itself
                return
            if self.game == "accordion" and ">" in move:
                now = self.deal_until(move.split(">")[0], now)
            now = self.play(move, now["moves"])
        if finish and self.game == "accordion":  # deals left out at the end (docs/rules.md)
            while now["state"] == "in progress" and self.host.locator(".slot.back").count():
                now = self.play("d", now["moves"])

    def deal_until(self, card: str, now: dict[str, Any]) -> dict[str, Any]:
        """Accordion solutions may leave deals out: deal until ``card`` is in the row (the
        element's status then; ``now``: its status before)."""
        while not self.host.locator(f'[data-card="{card}"]').count():
            now = self.play("d", now["moves"])
        return now


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
