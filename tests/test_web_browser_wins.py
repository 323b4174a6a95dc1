"""A stored solution won by clicking, in each game, in a real browser: the system Chromium
driven by Playwright against a real server on a free port (conftest's ``site``: a temporary
SQLite database filled by conftest's real deals). The other browser tests of the pages are
in tests/test_web_browser.py; these are apart so two test workers share them.

Skipped, with the reason in pytest's summary, when Playwright or Chromium is missing;
.ci/run installs Chromium so CI always runs them. Screenshots go to artifacts/screenshots.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from helpers.browser import SKIP, open_player, shot, today_id

from dailydeal.games import GAMES

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# Given the Copy button: window.ddCopied, the first text it shows from now on
COPIED_JS = """(button) => {
  window.ddCopied = new Promise((done) => new MutationObserver(() => done(button.textContent))
    .observe(button, {childList: true, characterData: true, subtree: true}));
}"""



# --- play --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_a_stored_solution_wins_by_clicking(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]], game: str
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, game)
    player = open_player(page, f"{site}/play/{id_}", game)
    moves = solutions[game]
    player.play_all(moves[: len(moves) // 3], finish=False)
    shot(page, f"play-{game}")
    # a game in progress survives a reload, and the daily page says it is under way
    played = player.moves()
    page.reload()
    player.wait_moves(played)
    page.goto(f"{site}/")
    expect(page.locator(f'[data-deal="{id_}"] [data-result]')).to_have_text("…")
    page.go_back()
    player.wait_moves(played)
    player.play_all(moves[len(moves) // 3 :])
    assert player.state() == "won"
    expect(player.host.locator("[data-board]")).to_have_attribute("data-state", "won")
    verdict = player.host.locator("[data-verdict]")
    expect(verdict).to_contain_text("Verified by the server: won in")
    share = player.host.locator("[data-share]").input_value()
    today = days["today"]  # the share text speaks the page's language (English here)
    assert f"{today:%b} {today.day}, {today.year}" in share
    assert game.capitalize() in share and "Medium" in share
    assert re.search(r"/s/[A-Za-z0-9_-]{16}$", share)  # the signed win's page (its solve)
    # Accordion's par would be 103 on every deal (52 deals, 51 moves): none is shown
    assert (f"par {len(moves)}" in share) == (game != "accordion")
    assert "(player's clock)" in share  # the time is the player's own report
    assert not any(m in share.split() for m in moves if len(m) > 1), "the share text spoils"
    # The button says "Copied ✓" for 2 s, then "Copy" again: on a loaded machine a poll's
    # first look (expect) came after those 2 s and waited for it in vain. So the page keeps
    # the first text the button shows after the click, and the test reads that.
    copy = player.host.locator("[data-copy]")
    copy.evaluate(COPIED_JS)
    copy.click()
    assert page.evaluate("window.ddCopied") == "Copied ✓"
    assert page.evaluate("navigator.clipboard.readText()") == share
    shot(page, f"won-{game}")
    # the result is kept in this browser: the daily page marks it and counts the streak
    page.goto(f"{site}/")
    expect(page.locator(f'[data-deal="{id_}"] [data-result]')).to_have_text("✓")
    expect(page.locator("[data-streak]")).to_have_text("🔥 1-day streak")
