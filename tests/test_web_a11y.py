"""Accessibility: axe-core (the engine behind Lighthouse's and most browsers' audits) finds
no serious or critical violation on the daily page, a play page with a game under way, a
won game, and the embed page, in the light and the dark theme; and in every other shipped
language (one page set each: the daily page, a play page with a refused move said, the embed
page, the offline page), light and dark: those are in tests/test_web_a11y_languages.py
(apart, so two test workers share them). axe-core comes with the Python package
axe-playwright-python (dev extras); it looks inside the element's open shadow root."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from helpers.a11y import audit_light_and_dark, serious_violations
from helpers.browser import SKIP, open_player, today_id

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def test_the_pages_have_no_serious_accessibility_violation(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """Each page audited light, then dark, one load for both (helpers/a11y.py)."""
    problems: dict[str, list[str]] = {}
    page.emulate_media(color_scheme="light")
    page.goto(f"{site}/")
    page.wait_for_selector("a.tier-link")
    audit_light_and_dark(page, "/", problems)
    for game in ("accordion", "pyramid", "gaps"):
        id_ = today_id(days, game)
        player = open_player(page, f"{site}/play/{id_}", game)
        player.play_all(solutions[game][:4], finish=False)  # a game under way, a card selected
        first = player.clicks(solutions[game][4])[0]
        player.click(first)
        audit_light_and_dark(page, f"/play/{id_}", problems)
        page.goto(f"{site}/embed/{id_}")
        page.wait_for_selector("daily-deal[data-state]", state="attached")
        audit_light_and_dark(page, f"/embed/{id_}", problems)
    assert not any(problems.values()), problems


def test_a_won_game_has_no_serious_accessibility_violation(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps", "easy")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    player.win(solutions["gaps"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    assert serious_violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_solve_page_has_no_serious_accessibility_violation(
    browser: Any, page: Any, site: str, days: dict[str, dt.date],
    solutions: dict[str, list[str]], scheme: str,
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "hard" if scheme == "light" else "expert")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    player.type_moves(solutions["accordion"])
    link = player.host.locator("a[data-solve-link]")
    expect(link).to_be_visible()
    # the result taken (the statistics shown): the play token then proves the deal finished
    expect(player.host.locator("[data-stats]")).to_be_visible()
    url = link.get_attribute("href")
    page.emulate_media(color_scheme=scheme)
    page.goto(url)  # finished here: the line replayed under the result
    page.locator("[data-solve] details").evaluate("(d) => (d.open = true)")
    expect(page.locator("[data-solve-board] [data-replay]")).to_be_visible()
    expect(page.locator("[data-check][data-verified]")).to_be_attached()
    problems = {"finished": serious_violations(page)}
    other = browser.new_context(color_scheme=scheme)  # a friend: the date is open
    try:
        friend = other.new_page()
        friend.goto(url)
        friend.locator("[data-solve] details").evaluate("(d) => (d.open = true)")
        expect(friend.locator("[data-check][data-verified]")).to_be_attached()
        problems["open"] = serious_violations(friend)
    finally:
        other.close()
    assert not any(problems.values()), problems
