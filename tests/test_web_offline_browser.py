"""Offline play in a real browser: the service worker of sw.js installed by the daily page,
then the network cut (Playwright's offline mode) and the pages opened from its cache.

The system Chromium through Playwright against a real server on a free port (see
tests/helpers/browser.py); skipped, with the reason, when either is missing.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import CHROMIUM_ARGS, chromium_for_tests, serve_deals, why_no_browser

from dailydeal.daily.store import deal_id
from dailydeal.web.i18n import words

SKIP = why_no_browser()
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

CONTROLLED = "navigator.serviceWorker.controller !== null"
KEPT = """async (urls) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const found = await Promise.all(urls.map((u) => cache.match(u, { ignoreVary: true })));
    if (found.every(Boolean)) return true;
  }
  return false;
}"""
KEYS = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    for (const r of await (await caches.open(name)).keys()) {
      const url = new URL(r.url);
      out.push(url.pathname + url.search);
    }
  }
  return out;
}"""


def wait_until(page: Any, script: str, arg: Any = None, seconds: float = 15) -> None:
    """Poll ``script`` in the page until it is true (page.wait_for_function evaluates its
    predicate with eval, which the pages' CSP refuses)."""
    import time

    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script[:60]}"
        page.wait_for_timeout(100)


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]], now: dt.datetime
) -> Iterator[str]:
    with serve_deals(tmp_path_factory.mktemp("offline") / "dailydeal.db", deal_rows, now,
                     state_rate_limit="100000 per minute") as url:
        yield url


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(service_workers="allow", timezone_id="UTC")
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def test_the_daily_page_and_todays_deals_open_offline(
    context: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(f"{site}/")
    wait_until(page, CONTROLLED)  # installed, activated, and claimed this page
    today = deal_id(days["today"], "pyramid", "hard")
    kept = [f"/play/{today}", f"/api/v1/deals/{today}"]
    wait_until(page, KEPT, kept)  # the daily page asked for today's deals
    opened = f"{site}/play/gaps/7"  # a numbered deal, opened once online
    page.goto(opened)
    expect(page.locator("h1.play-title")).to_contain_text("deal #7")
    wait_until(page, KEPT, ["/play/gaps/7", "/api/v1/games/gaps/deals/7?variant=standard"])

    context.set_offline(True)
    page.goto(f"{site}/")
    expect(page.locator("h1")).to_have_text("Today's deals")
    expect(page.locator(f'[data-deal="{today}"]')).to_be_visible()

    page.goto(f"{site}/play/{today}")  # never opened: kept by the daily page
    expect(page.locator("h1.play-title")).to_contain_text("Pyramid")
    assert page.evaluate("customElements.get('daily-deal') !== undefined")  # scripts kept too
    deal = page.evaluate(f"fetch('/api/v1/deals/{today}').then((r) => r.json())")
    assert deal["id"] == today and deal["game"] == "pyramid"
    assert deal["commitment"]["in_advance"] is False  # the fixtures: stored on the day

    page.goto(opened)
    page.reload()  # an opened deal reloads offline
    expect(page.locator("h1.play-title")).to_contain_text("deal #7")
    numbered = "fetch('/api/v1/games/gaps/deals/7?variant=standard').then((r) => r.json())"
    assert page.evaluate(numbered)["seed"] == "7"

    page.goto(f"{site}/play/accordion/123456")  # never opened, never kept
    expect(page.locator("h1")).to_have_text("Offline")
    # ... in the language it was asked in (kept in each at install), not the browser's
    for lang, locale in (("de", "de"), ("PT-br", "pt-BR"), ("fr-CA", "fr")):
        page.goto(f"{site}/play/accordion/123456?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", locale)
        expect(page.locator("h1")).to_have_text(words(locale).t("offline.title"))
    page.goto(f"{site}/play/accordion/123456?lang=xx")  # no such catalog: the browser's
    expect(page.locator("h1")).to_have_text("Offline")

    # nothing posted, nothing per move or per client was kept
    for url in page.evaluate(KEYS):
        assert not re.search(r"/(hint|state|results|stats|verify|solution)\b", url), url


def test_the_element_on_another_site_and_the_embed_register_no_worker(
    context: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(f"{site}/embed/{deal_id(days['today'], 'gaps', 'easy')}")
    expect(page.locator("daily-deal")).to_be_attached()
    page.wait_for_timeout(1000)  # time enough for a registration, were there one
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then((r) => r.length)") == 0
    assert page.evaluate("navigator.serviceWorker.controller") is None


def test_chromium_finds_the_site_installable(browser: Any, site: str, tmp_path: Path) -> None:
    """What Chromium itself says (the DevTools protocol's installability check), in a
    profile on disk: a Playwright context is incognito, where nothing installs."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_for_tests(), args=CHROMIUM_ARGS,
        service_workers="allow",
    )
    try:
        page = context.new_page()
        page.goto(f"{site}/")
        wait_until(page, CONTROLLED)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


@contextmanager
def own_site(path: Path, rows: list[dict[str, Any]], now: dt.datetime) -> Iterator[tuple[Any, str]]:
    """A server of its own (app, base URL), for a test that changes the app as it runs."""
    from helpers.browser import serve

    from dailydeal.daily.store import insert_deal, open_db
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    db = open_db(path)
    for row in rows:
        insert_deal(db, row)
    db.close()
    app = create_app({"db_path": path, "NOW": lambda: now})
    try:
        with serve(app) as url:
            yield app, url
    finally:
        forget(path)


def test_a_deploy_installs_a_new_worker_that_keeps_the_opened_deals(
    context: Any, tmp_path: Path, deal_rows: list[dict[str, Any]], now: dt.datetime,
    days: dict[str, dt.date],
) -> None:
    """A static file changes (a deploy): /sw.js changes with it, the browser installs the new
    worker, which deletes the old cache and keeps the deals the old one had kept."""
    from dailydeal.web import pages

    with own_site(tmp_path / "deploy.db", deal_rows, now) as (app, site):
        page = context.new_page()
        page.goto(f"{site}/")
        wait_until(page, CONTROLLED)
        today = deal_id(days["today"], "gaps", "expert")
        wait_until(page, KEPT, [f"/play/{today}", f"/api/v1/deals/{today}"])
        before = page.evaluate("caches.keys()")
        assert len(before) == 1
        with app.app_context():  # the deploy: one static file changes
            found = pages.assets()
            old = found["site.css"]
            body = old.body + b"\n/* deploy */\n"
            found["site.css"] = pages.Asset(body, gzip.compress(body), old.mimetype, "d" * 12)
        page.evaluate("navigator.serviceWorker.ready.then((r) => r.update())")
        replaced = f"caches.keys().then((k) => k.length === 1 && k[0] !== {json.dumps(before[0])})"
        wait_until(page, replaced, seconds=20)
        wait_until(page, KEPT, [f"/play/{today}", f"/api/v1/deals/{today}",
                                "/static/site.css?v=" + "d" * 12])


def test_a_slow_network_gets_the_kept_page_after_a_few_seconds(
    context: Any, tmp_path: Path, deal_rows: list[dict[str, Any]], now: dt.datetime,
) -> None:
    """A weak signal (the server answers the daily page in 20 s): the worker answers with the
    page it kept once PATIENCE (4 s) is over, and still keeps the network's answer."""
    import threading
    import time

    from flask import request

    slow = threading.Event()
    with own_site(tmp_path / "slow.db", deal_rows, now) as (app, site):
        @app.before_request
        def crawl() -> None:
            if slow.is_set() and request.path == "/":
                time.sleep(20)

        page = context.new_page()
        page.goto(f"{site}/")
        wait_until(page, CONTROLLED)
        wait_until(page, KEPT, ["/"])
        slow.set()
        start = time.monotonic()
        page.goto(f"{site}/", timeout=30_000)
        waited = time.monotonic() - start
        assert page.locator("h1").first.inner_text() == "Today's deals"
        assert 3.5 < waited < 15, waited  # the kept page at 4 s, not the network at 20
