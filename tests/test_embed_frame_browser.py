"""The responsive iframe in a real browser: a host page on another origin frames
/embed/{id} with static/embed-host.js, on a 390 px phone (docs/embedding.md).

Skipped, with the reason, when Playwright or Chromium is missing (tests/helpers/browser.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response
from helpers.browser import (
    ARTIFACTS,
    Player,
    serve,
    serve_deals,
    why_no_browser,
)

from dailydeal.daily.store import deal_id

pytestmark = pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser()))

PHONE = {"width": 390, "height": 844}

HOST = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>host</title><link rel="icon" href="data:,"></head>
<body style="margin:0">
<h1 style="font:16px sans-serif;margin:8px">A host page</h1>
<iframe id="dd" src="SITE/embed/DEAL" title="Daily deal" SRCATTRS
        style="border:0;width:100%;height:720px"></iframe>
<p id="after">after the frame</p>
<script src="/log.js"></script>
HOSTSCRIPT
</body></html>"""

THEMED = """<!doctype html>
<html><head><meta charset="utf-8"><title>themed</title><link rel="icon" href="data:,">
<script type="module" src="SITE/static/daily-deal.js"></script>
<style>
  body { margin: 0; padding: 16px; background: #eef1f6; font: 15px system-ui, sans-serif; }
  daily-deal { max-width: 860px; margin: auto;
    --felt: #23395d; --felt-2: #152238; --red: #d64545; --gold: #7fd1ff; --radius: 4px; }
  daily-deal::part(bar) { font-size: 13px; }
  daily-deal::part(board) { box-shadow: none; }
</style></head>
<body><daily-deal deal="DEAL" api="SITE/api/v1"></daily-deal></body></html>"""

LOG_JS = """
window.got = [];
window.raw = [];
for (const name of ["dailydeal-move", "dailydeal-won", "dailydeal-error"]) {
  document.getElementById("dd").addEventListener(name, (e) => window.got.push([name, e.detail]));
}
window.addEventListener("message", (e) => window.raw.push({origin: e.origin, data: e.data}));
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]],
         now: dt.datetime) -> Iterator[str]:
    path = tmp_path_factory.mktemp("frame") / "d.db"
    with serve_deals(path, deal_rows, now, verify_rate_limit="10000 per minute") as url:
        yield url


@pytest.fixture(scope="module")
def host(site: str) -> Iterator[str]:
    app = Flask("host")

    @app.get("/")
    def index() -> Response:
        from flask import request

        script = f'<script type="module" src="{site}/static/embed-host.js"></script>'
        html = (
            HOST.replace("SITE", site)
            .replace("DEAL", request.args["deal"])
            .replace("SRCATTRS", request.args.get("attrs", ""))
            .replace("HOSTSCRIPT", script if request.args.get("script", "1") == "1" else "")
        )
        return Response(html, mimetype="text/html")

    @app.get("/theme")
    def theme() -> Response:
        from flask import request

        html = THEMED.replace("SITE", site).replace("DEAL", request.args["deal"])
        return Response(html, mimetype="text/html")

    @app.get("/log.js")
    def log() -> Response:
        return Response(LOG_JS, mimetype="text/javascript")

    with serve(app) as url:
        yield url


def test_phone_frame_sizes_itself_and_passes_events(
    browser: Any, site: str, host: str, days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    id_ = deal_id(days["today"], "gaps", "medium")
    page.goto(f"{host}/?deal={id_}")
    frame = page.frame_locator("#dd")
    expect(frame.locator("daily-deal")).to_have_attribute("data-moves", "0")
    iframe = page.locator("#dd")
    # the host script set the height the frame measured: no scrollbar inside, no gap
    page.wait_for_function("document.getElementById('dd').style.height !== '720px'")
    inner = next(f for f in page.frames if f != page.main_frame)
    content = inner.evaluate("document.documentElement.scrollHeight")
    height = float(iframe.evaluate("el => parseFloat(el.style.height)"))
    assert abs(height - content) <= 2, (height, content)
    assert inner.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot = ARTIFACTS / "screenshots" / "embed-host-390.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    # a move in the frame arrives as an event on the <iframe> element of the host page
    first = solutions["gaps"][0]
    Player(inner, "gaps").play(first)
    page.wait_for_function("window.got.length >= 1")
    name, detail = page.evaluate("window.got[0]")
    assert name == "dailydeal-move" and detail["move"] == first and detail["moves"] == 1
    raw = page.evaluate("window.raw")
    assert {m["origin"] for m in raw} == {site}
    assert all(m["data"]["source"] == "dailydeal" and m["data"]["deal"] == id_ for m in raw)
    assert {m["data"]["type"] for m in raw} >= {"resize", "dailydeal-move"}
    context.close()
    assert errors == [], errors


def test_events_wait_for_a_known_parent_origin(
    browser: Any, host: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """Without the host script and without a referrer the frame still sends its height,
    and the events go only to the origin Chromium's ancestorOrigins names."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    id_ = deal_id(days["today"], "gaps", "medium")
    page.goto(f"{host}/?deal={id_}&script=0&attrs=referrerpolicy%3Dno-referrer")
    expect(page.frame_locator("#dd").locator("daily-deal")).to_have_attribute("data-moves", "0")
    page.wait_for_function("window.raw.some(m => m.data.type === 'resize')")
    inner = next(f for f in page.frames if f != page.main_frame)
    assert inner.evaluate("document.referrer") == ""
    Player(inner, "gaps").play(solutions["gaps"][0])
    page.wait_for_function("window.raw.some(m => m.data.type === 'dailydeal-move')")
    assert page.evaluate("document.getElementById('dd').style.height") == "720px"  # no script
    context.close()


def test_theming_screenshot(browser: Any, host: str, days: dict[str, dt.date]) -> None:
    """Custom properties and ::part() reach the element (docs/embedding.md, Theming)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 900, "height": 640})
    page = context.new_page()
    id_ = deal_id(days["today"], "pyramid", "medium")
    page.goto(f"{host}/theme?deal={id_}")
    element = page.locator("daily-deal")
    expect(element).to_have_attribute("data-moves", "0")
    board = element.locator("[data-board]")
    background = board.evaluate("el => getComputedStyle(el).backgroundImage")
    assert "35, 57, 93" in background  # #23395d
    assert element.locator("[part=bar]").evaluate("el => getComputedStyle(el).fontSize") \
        == "13px"
    shot = ARTIFACTS / "screenshots" / "theming-900x640.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    context.close()
