"""Solve links in a real browser (issue 38, item 5): a verified win's card links its page
(``a[data-solve-link]``), the share text ends with it, ``dailydeal-won`` carries the signed
result, Chromium checks the Ed25519 signature with WebCrypto, and the page replays the line
only where it spoils nothing (the viewer finished the deal here, or a numbered deal)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from helpers.browser import SKIP, open_player, shot, today_id
from helpers.spoilers import shows_a_move

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

WON_JS = """() => { window.won = [];
document.addEventListener("dailydeal-won", (e) => window.won.push(e.detail)); }"""

# What docs/api.md shows: the key from GET /keys, WebCrypto's Ed25519, the signed text
CHECK_JS = """async (solve) => {
  const { keys } = await (await fetch("/api/v1/keys")).json();
  const key = keys.find((k) => k.id === solve.key);
  const raw = Uint8Array.from(atob(key.ed25519), (c) => c.charCodeAt(0));
  const pub = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
  const sig = Uint8Array.from(atob(solve.signature), (c) => c.charCodeAt(0));
  const text = new TextEncoder().encode(solve.signed);
  const ok = await crypto.subtle.verify({ name: "Ed25519" }, pub, sig, text);
  const forged = await crypto.subtle.verify({ name: "Ed25519" }, pub, sig,
    new TextEncoder().encode(solve.signed.replace("|won|", "|lost|")));
  return [ok, forged];
}"""


def win_here(page: Any, site: str, id_: str, game: str, moves: list[str]) -> dict[str, Any]:
    """Win ``id_`` in ``page`` by the notation box: the dailydeal-won event's detail."""
    from playwright.sync_api import expect

    page.add_init_script(f"({WON_JS})()")
    player = open_player(page, f"{site}/play/{id_}", game)
    player.type_moves(moves)
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified by the server")
    page.wait_for_function("() => window.won.length > 0")
    detail: dict[str, Any] = page.evaluate("() => window.won[0]")
    return detail


def test_the_card_links_the_signed_win_and_chromium_checks_it(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]],
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid", "hard")
    detail = win_here(page, site, id_, "pyramid", solutions["pyramid"])
    solve = detail["solve"]
    assert set(solve) == {"id", "url", "signed", "signature", "key"}
    assert detail["verdict"]["solve"] == solve  # the event carries the server's answer
    assert solve["signed"].split("|")[2] == id_ and not shows_a_move(solve["signed"])
    url = f"{site}/s/{solve['id']}"
    host = page.locator("daily-deal")
    link = host.locator("a[data-solve-link]")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", url)
    share = host.locator("[data-share]").input_value()
    assert share.splitlines()[-1] == url
    assert page.evaluate(CHECK_JS, solve) == [True, False]

    # the same browser finished the deal: its page replays the line, the date still open
    # (once the result is taken, the statistics shown: the play token proves the finish)
    expect(page.locator("daily-deal [data-stats]")).to_be_visible()
    page.goto(url)
    page.locator("[data-solve] details").evaluate("(d) => (d.open = true)")
    expect(page.locator('[data-check][data-verified="true"]')).to_be_visible()
    board = page.locator("[data-solve-board] daily-deal")
    expect(board.locator("[data-replay]")).to_be_visible()
    expect(board).to_have_attribute("data-moves", "0")
    page.keyboard.press("End")
    expect(board).to_have_attribute("data-moves", str(len(solutions["pyramid"])))
    shot(page, "solve-page-finished")


def test_an_open_date_s_page_keeps_the_line_from_another_browser(
    browser: Any, page: Any, site: str, days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps", "hard")
    solve = win_here(page, site, id_, "gaps", solutions["gaps"])["solve"]
    other = browser.new_context()  # a friend who opens the link: nothing played here
    try:
        friend = other.new_page()
        friend.set_default_timeout(10_000)
        asked: list[str] = []
        friend.on("request", lambda r: asked.append(r.url))
        friend.goto(f"{site}/s/{solve['id']}")
        friend.locator("[data-solve] details").evaluate("(d) => (d.open = true)")
        expect(friend.locator('[data-check][data-verified="true"]')).to_be_visible()
        expect(friend.locator("[data-solve-status]")).to_contain_text("over everywhere")
        assert friend.locator("daily-deal").count() == 0
        assert not shows_a_move(friend.content())
        assert not any("/solves/" in u for u in asked)  # nothing to ask without a proof
        shot(friend, "solve-page-open")
    finally:
        other.close()


def test_a_numbered_deal_s_line_replays_for_anybody(
    browser: Any, page: Any, site: str, seeds: dict[str, int], solutions: dict[str, list[str]],
) -> None:
    from playwright.sync_api import expect

    seed = seeds["accordion"]
    moves = solutions["accordion"]
    page.add_init_script(f"({WON_JS})()")
    player = open_player(page, f"{site}/play/accordion/{seed}", "accordion")
    player.type_moves(moves)
    page.wait_for_function("() => window.won.length > 0")
    solve = page.evaluate("() => window.won[0].solve")
    assert solve["signed"].split("|")[2] == f"accordion/{seed}"
    other = browser.new_context()
    try:
        friend = other.new_page()
        friend.set_default_timeout(10_000)
        friend.goto(f"{site}/s/{solve['id']}")
        board = friend.locator("[data-solve-board] daily-deal")
        expect(board.locator("[data-replay]")).to_be_visible()
        friend.keyboard.press("End")
        expect(board).to_have_attribute("data-moves", re.compile(r"^[1-9][0-9]*$"))
    finally:
        other.close()
