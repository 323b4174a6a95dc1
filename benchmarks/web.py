"""Web player benchmark: page weight, layout shift, time to an interactive board, moves.

    .venv/bin/python benchmarks/web.py [--loads 10] [--latency 0 300] [--no-hints] [--json]
    .venv/bin/python benchmarks/web.py --screenshots docs   # only the screenshots

Fills a temporary database with today's deals of the three games (a real solver solution
each, benchmarks/api.py's ``fill``), starts the real gunicorn from deploy/gunicorn.conf.py on
a free loopback port with the default state budget, and drives Debian's Chromium with
Playwright (the browser tests' helpers, tests/helpers/browser.py):

- weight: every HTML, JS and CSS byte a play page loads (before and after compression),
  and any request to another host (there must be none);
- layout shift: the sum of Chromium's ``layout-shift`` entries (PerformanceObserver) while a
  play page of each game loads on a 390x844 phone, up to a second after the board is drawn,
  with a phone's handicaps (150 ms added to each request, the CPU slowed 4x, as Lighthouse's
  mobile run): on a fast machine the board is drawn before the first paint and nothing shifts;
- load: from navigation start to the board's first drawing (``data-state`` set on the
  ``<daily-deal>``), by Chromium's own clock (``performance.now()``), in fresh contexts
  (cold cache) and again in a warm one;
- move: the round trip of each click that plays a move, from the click to the redrawn
  board (the next animation frame after the element sets ``data-moves``), over every move
  of the three stored solutions, once per ``--latency`` (milliseconds added to every request
  by Chromium's network emulation: 0 and 300 by default, a phone on a poor network). The
  same figure from the press (pointerdown) is shown too. Also counted: the requests to the
  API per game (loading, verifying the win, posting the result and the statistics);
- finish: from the click of each game's last move to its result card open, and to the card's
  statistics line shown (the frame that first paints each), and that line's text: it must
  already count this play (issue 38);
- hint: from a click on the hint button to the hinted move lit on the board (``data-hint``
  set, then the next frame), at positions 0, 1/4, 1/2 and 3/4 along each game's stored
  solution of an easy deal (12 hints: within the default hint budget of 20 a minute). The
  server's side alone, per game and cold/warm: benchmarks/hints.py.

Targets (issues 10 and 24): play page < 150 KB before compression and < 45 KB gzipped, load
< 1 s, move p95 < 50 ms even with 300 ms of latency, layout shift < 0.05 on a phone.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests")]

from api import QUIET, fill, running  # noqa: E402  (benchmarks/api.py, servers.py)
from helpers.browser import CHROMIUM_ARGS, Player, chromium_path, why_no_browser  # noqa: E402

from dailydeal.daily.store import deal_id  # noqa: E402
from dailydeal.games import GAMES  # noqa: E402

TEXT_TYPES = ("text/html", "text/javascript", "application/javascript", "text/css")

# Chromium's clock: when the board is first drawn, and each click -> redrawn board.
PROBE = """
window.__ready = null; window.__rt = []; window.__dom = []; window.__press = []; window.__hint = [];
let clickAt = null, pressAt = null, hintAt = null;
document.addEventListener("pointerdown", () => { pressAt = performance.now(); }, true);
document.addEventListener("click", (e) => {
  const el = e.composedPath()[0];
  if (el && el.closest && el.closest('[data-action="hint"]')) hintAt = performance.now();
  else clickAt = performance.now();
}, true);
const watch = () => {
  const host = document.querySelector("daily-deal");
  if (!host) return requestAnimationFrame(watch);
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.attributeName === "data-state" && window.__ready === null) {
        window.__ready = performance.now();
      }
      if (r.attributeName === "data-moves" && clickAt !== null) {
        const start = clickAt; clickAt = null;
        window.__lastClick = start;
        window.__dom.push(performance.now() - start);
        window.__press.push(performance.now() - pressAt);
        requestAnimationFrame(() => window.__rt.push(performance.now() - start));
      }
      if (r.attributeName === "data-hint" && hintAt !== null && host.dataset.hint) {
        const start = hintAt; hintAt = null;
        requestAnimationFrame(() => window.__hint.push(performance.now() - start));
      }
    }
  }).observe(host, { attributes: true,
    attributeFilter: ["data-state", "data-moves", "data-hint"] });
};
document.addEventListener("DOMContentLoaded", watch);
// The end of a game: when the result card is open and when its statistics line shows
// (the frame that first paints each), from the click of the last move.
window.__card = null; window.__stats = null; window.__statsText = null;
const finish = () => {
  const root = document.querySelector("daily-deal")?.shadowRoot;
  const card = root?.querySelector("[data-result-card]");
  if (card && window.__card === null && window.__lastClick !== undefined
      && (card.matches(":popover-open") || card.hasAttribute("data-fallback"))) {
    window.__card = performance.now() - window.__lastClick;
  }
  const stats = root?.querySelector("[data-stats]");
  if (stats && !stats.hidden && stats.textContent && window.__stats === null
      && window.__lastClick !== undefined) {
    window.__stats = performance.now() - window.__lastClick;
    window.__statsText = stats.textContent;
  }
  if (window.__card === null || window.__stats === null) requestAnimationFrame(finish);
};
requestAnimationFrame(finish);
"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def weight(browser: Any, url: str) -> dict[str, Any]:
    """Bytes of every HTML/JS/CSS response of one cold load, and any foreign request."""
    context = browser.new_context(extra_http_headers={"Accept-Encoding": "gzip"})
    page = context.new_page()
    host = urllib.parse.urlsplit(url).netloc
    seen: list[Any] = []
    foreign: list[str] = []
    page.on("response", lambda r: seen.append(r))
    page.on(
        "request",
        lambda r: (
            urllib.parse.urlsplit(r.url).netloc != host
            and r.url.startswith("http")
            and foreign.append(r.url)
        ),
    )
    page.goto(url)
    page.locator("daily-deal[data-state]").wait_for()
    page.wait_for_load_state("networkidle")
    files = []
    for resp in seen:
        kind = (resp.headers.get("content-type") or "").split(";")[0]
        if kind in TEXT_TYPES:
            body = resp.body()  # decoded by the browser
            wire = int(resp.headers.get("content-length") or len(body))
            files.append(
                {
                    "url": resp.url.split("?")[0],
                    "type": kind,
                    "bytes": len(body),
                    "wire": wire,
                    "gzip": len(gzip.compress(body, 6)),
                }
            )
    context.close()
    return {
        "files": files,
        "total_bytes": sum(f["bytes"] for f in files),
        "total_wire_bytes": sum(f["wire"] for f in files),
        "total_gzip_bytes": sum(f["gzip"] for f in files),
        "requests": len(seen),
        "foreign_requests": foreign,
    }


def ready_at(page: Any) -> float:
    """When the board was first drawn (a poll: wait_for_function would need unsafe-eval)."""
    for _ in range(2000):
        value = page.evaluate("window.__ready")
        if value is not None:
            return float(value)
        page.wait_for_timeout(5)
    raise SystemExit("the board never appeared")


def load_times(browser: Any, url: str, loads: int) -> dict[str, Any]:
    cold = []
    for _ in range(loads):
        context = browser.new_context()
        page = context.new_page()
        page.add_init_script(PROBE)
        page.goto(url)
        cold.append(ready_at(page))
        context.close()
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    warm = []
    for _ in range(loads):
        page.goto(url)
        warm.append(ready_at(page))
    context.close()
    return {
        "cold_median_ms": statistics.median(cold),
        "cold_max_ms": max(cold),
        "warm_median_ms": statistics.median(warm),
        "warm_max_ms": max(warm),
        "loads": loads,
    }


def add_latency(context: Any, page: Any, latency_ms: int) -> None:
    """Chromium's network emulation: ``latency_ms`` added to every request of ``page``."""
    if not latency_ms:
        return
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def round_trips(
    browser: Any, base: str, today: dt.date, solutions: dict[str, list[str]], latency_ms: int = 0
) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    page.set_default_timeout(30_000)
    add_latency(context, page, latency_ms)
    api: list[str] = []
    page.on("request", lambda r: "/api/v1/" in r.url and api.append(r.url))
    times: list[float] = []
    dom: list[float] = []
    press: list[float] = []
    per_game: dict[str, int] = {}
    card_ms: list[float] = []
    stats_ms: list[float] = []
    stats_text: dict[str, str] = {}
    for game in GAMES:
        before = len(api)
        page.goto(f"{base}/play/{deal_id(today, game, 'medium')}")
        player = Player(page, game)
        player.wait_moves(0)
        player.play_all(solutions[game])
        if player.state() != "won":
            raise SystemExit(f"{game}: the solution did not win in the browser")
        # the win is verified, the result posted and the statistics shown: all requests made
        player.host.locator("[data-stats]:not([hidden])").wait_for()
        page.wait_for_timeout(100)
        card_ms.append(page.evaluate("window.__card"))
        stats_ms.append(page.evaluate("window.__stats"))
        stats_text[game] = page.evaluate("window.__statsText")
        times += page.evaluate("window.__rt")
        dom += page.evaluate("window.__dom")
        press += page.evaluate("window.__press")
        per_game[game] = len(api) - before
    context.close()
    return {
        "latency_ms": latency_ms,
        "moves": len(times),
        "p50_ms": pct(times, 50),
        "p95_ms": pct(times, 95),
        "max_ms": max(times),
        "dom_p50_ms": pct(dom, 50),  # click -> new board in the DOM, before the frame
        "dom_p95_ms": pct(dom, 95),
        "press_dom_p50_ms": pct(press, 50),  # from the press (pointerdown) instead
        "press_dom_p95_ms": pct(press, 95),
        "api_requests_per_game": per_game,
        "last_move_to_card_ms": card_ms,  # one per game
        "last_move_to_stats_ms": stats_ms,
        "stats_after_the_win": stats_text,
        "solution_moves": {g: len(m) for g, m in solutions.items()},
    }


# The layout shifts of a page load (buffered: the entries before the observer count too).
SHIFTS = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({ type: "layout-shift", buffered: true });
"""


def layout_shift(browser: Any, base: str, today: dt.date) -> dict[str, float]:
    """The cumulative layout shift of each game's play page loading on a 390x844 phone."""
    out = {}
    for game in GAMES:
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=3,
            is_mobile=True,
            has_touch=True,
        )
        page = context.new_page()
        page.add_init_script(SHIFTS)
        add_latency(context, page, 150)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.goto(f"{base}/play/{deal_id(today, game, 'medium')}")
        page.locator("daily-deal[data-state]").wait_for()
        page.wait_for_timeout(1000)
        out[game] = float(page.evaluate("window.__cls"))
        context.close()
    return out


def hint_trips(
    browser: Any, base: str, today: dt.date, solutions: dict[str, list[str]]
) -> dict[str, Any]:
    """Hint button -> hinted move lit, at four positions along each game's solution."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    page.set_default_timeout(30_000)
    per_game: dict[str, list[float]] = {}
    for game in GAMES:
        page.goto(f"{base}/play/{deal_id(today, game, 'easy')}")
        player = Player(page, game)
        player.wait_moves(0)
        moves = solutions[game]
        played = 0
        for k in range(4):
            upto = k * len(moves) // 4
            if upto > played:
                box = player.host.locator("input[name=moves]")
                box.fill(" ".join(moves[played:upto]))
                box.press("Enter")
                played = upto
                player.wait_moves(played)
            before = len(page.evaluate("window.__hint"))
            player.host.locator('[data-action="hint"]').click()
            for _ in range(3000):
                if len(page.evaluate("window.__hint")) > before:
                    break
                page.wait_for_timeout(5)
            else:
                raise SystemExit(f"{game}: no hint after {played} moves")
        per_game[game] = page.evaluate("window.__hint")
    context.close()
    every = [t for times in per_game.values() for t in times]
    return {
        "hints": len(every),
        "p50_ms": pct(every, 50),
        "p95_ms": pct(every, 95),
        "max_ms": max(every),
        "per_game_max_ms": {g: max(t) for g, t in per_game.items()},
    }


SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def small(path: Path) -> None:
    """The PNG in 256 colours (a third of the bytes, no visible change on flat cards)."""
    from PIL import Image

    with Image.open(path) as image:
        image.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)


def screenshots(
    browser: Any, base: str, today: dt.date, solutions: dict[str, list[str]], out: Path
) -> list[Path]:
    """Each game a third of the way through its solution, on a phone and a desktop, light and
    dark: the element alone (PNG), as docs/screenshot-<game>-<screen>-<scheme>.png."""
    made = []
    for scheme in ("light", "dark"):
        for screen, viewport in SCREENS.items():
            context = browser.new_context(
                viewport=viewport, color_scheme=scheme, reduced_motion="reduce"
            )
            page = context.new_page()
            for game in GAMES:
                page.goto(f"{base}/play/{deal_id(today, game, 'medium')}")
                player = Player(page, game)
                player.wait_moves(0)
                moves = solutions[game]
                player.play_all(moves[: len(moves) // 3], finish=False)
                player.host.locator("[data-msg]").evaluate("e => (e.textContent = '')")
                path = out / f"screenshot-{game}-{screen}-{scheme}.png"
                player.host.screenshot(path=str(path))
                small(path)
                made.append(path)
            context.close()
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads per measure")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--latency", type=int, nargs="+", default=[0, 300], help="ms added to each request"
    )
    parser.add_argument("--no-hints", action="store_true", help="skip the hint round trips")
    parser.add_argument("--screenshots", type=Path, help="only write screenshots to this folder")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    reason = why_no_browser()
    if reason:
        raise SystemExit(reason)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="dailydeal-web-bench-"))
    today = dt.datetime.now(dt.UTC).date()
    solutions = {game: fill(tmp / "dailydeal.db", game, today)[1] for game in GAMES}
    env = {"DAILYDEAL_WORKERS": str(args.workers), "DAILYDEAL_LOGLEVEL": "warning"}
    try:
        with running("gunicorn", tmp, env=env, args=QUIET) as (base, _):
            play_url = f"{base}/play/{deal_id(today, 'pyramid', 'hard')}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                if args.screenshots:
                    for path in screenshots(browser, base, today, solutions, args.screenshots):
                        print(f"{path} {path.stat().st_size} B")
                    browser.close()
                    return 0
                results = {
                    "setup": {
                        "workers": args.workers,
                        "cpus": os.cpu_count(),
                        "chromium": browser.version,
                    },
                    "weight": weight(browser, play_url),
                    "load": load_times(browser, play_url, args.loads),
                    "layout_shift_phone": layout_shift(browser, base, today),
                    "moves": [
                        round_trips(browser, base, today, solutions, ms) for ms in args.latency
                    ],
                }
                if not args.no_hints:
                    results["hint"] = hint_trips(browser, base, today, solutions)
                browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    w, load = results["weight"], results["load"]
    print(
        f"gunicorn {args.workers} workers, {results['setup']['cpus']} CPUs, "
        f"Chromium {results['setup']['chromium']}"
    )
    for f in w["files"]:
        print(
            f"  {f['type']:<16} {f['bytes']:>7} B ({f['wire']:>6} B on the wire, "
            f"{f['gzip']:>6} B gzip -6)  {f['url'].split('/', 3)[-1]}"
        )
    print(
        f"play page HTML+JS+CSS: {w['total_bytes'] / 1024:.1f} KB "
        f"({w['total_wire_bytes'] / 1024:.1f} KB on the wire, "
        f"{w['total_gzip_bytes'] / 1024:.1f} KB gzip -6) in {w['requests']} requests; "
        f"requests to other hosts: {len(w['foreign_requests'])}   [target < 150 KB, < 45 KB, 0]"
    )
    shifts = ", ".join(f"{g} {v:.3f}" for g, v in results["layout_shift_phone"].items())
    print(f"layout shift of a play page on a 390x844 phone: {shifts}   [target < 0.05]")
    print(
        f"navigation -> interactive board: cold median {load['cold_median_ms']:.0f} ms "
        f"(max {load['cold_max_ms']:.0f}), warm median {load['warm_median_ms']:.0f} ms "
        f"(max {load['warm_max_ms']:.0f}) over {load['loads']} loads   [target < 1000 ms]"
    )
    for move in results["moves"]:
        print(
            f"+{move['latency_ms']} ms latency: click -> redrawn board over {move['moves']} "
            f"moves: p50 {move['p50_ms']:.1f} ms, p95 {move['p95_ms']:.1f} ms, "
            f"max {move['max_ms']:.1f} ms   [target p95 < 50 ms]"
        )
        print(
            "  of which click -> board in the DOM (before the frame): "
            f"p50 {move['dom_p50_ms']:.1f} ms, p95 {move['dom_p95_ms']:.1f} ms; from the press: "
            f"p50 {move['press_dom_p50_ms']:.1f} ms, p95 {move['press_dom_p95_ms']:.1f} ms"
        )
        per = ", ".join(
            f"{g} {n} ({move['solution_moves'][g]} moves)"
            for g, n in move["api_requests_per_game"].items()
        )
        print(f"  API requests per won game: {per}")
        card = ", ".join(f"{t:.0f}" for t in move["last_move_to_card_ms"])
        stats = ", ".join(f"{t:.0f}" for t in move["last_move_to_stats_ms"])
        print(f"  last move's click -> result card open: {card} ms; -> its statistics: {stats} ms")
        for g, text in move["stats_after_the_win"].items():
            print(f"  {g}: the statistics the card first shows: {text!r}")
    if "hint" not in results:
        return 0
    hint = results["hint"]
    per_game = ", ".join(f"{g} {t:.0f}" for g, t in hint["per_game_max_ms"].items())
    print(
        f"hint (click -> hinted move lit) over {hint['hints']} hints: "
        f"p50 {hint['p50_ms']:.0f} ms, p95 {hint['p95_ms']:.0f} ms, max {hint['max_ms']:.0f} ms "
        f"(max per game: {per_game} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
