"""Accessibility in every shipped language but the default: axe-core (helpers/a11y.py) finds
no serious or critical violation on one page set each (the daily page, a play page with a
refused move said, the embed page, the offline page), light and dark. The default
language's pages are in tests/test_web_a11y.py; these are apart so two test workers share
them (each module starts its own server and Chromium)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from helpers.a11y import audit_light_and_dark
from helpers.browser import SKIP, open_player, today_id

from dailydeal.web import i18n

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


@pytest.mark.parametrize("locale", [loc for loc in i18n.locales() if loc != i18n.DEFAULT])
def test_every_language_has_no_serious_accessibility_violation(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]], locale: str
) -> None:
    """Each language's words (longer, right to left in Arabic, another script in Japanese)
    keep the pages free of serious violations: lang and dir, names, contrast. Each page is
    audited light, then dark, one load for both."""
    from playwright.sync_api import expect

    problems: dict[str, list[str]] = {}

    page.emulate_media(color_scheme="light")
    page.goto(f"{site}/?lang={locale}")
    page.wait_for_selector("a.tier-link")
    assert page.locator("html").get_attribute("lang") == locale
    audit_light_and_dark(page, "/", problems)
    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}?lang={locale}", "pyramid")
    expect(player.host.locator("[part~=root], .dd").first).to_have_attribute("lang", locale)
    player.play_all(solutions["pyramid"][:3], finish=False)
    player.click(player.clicks(solutions["pyramid"][3])[0])  # a card selected
    box = player.host.locator("input[name=moves]")  # a refused move: its reason said
    box.fill("QS+QH")
    box.press("Enter")
    expect(player.host.locator("[data-msg]")).to_have_attribute("data-kind", "error")
    audit_light_and_dark(page, f"/play/{id_}", problems)
    page.goto(f"{site}/embed/{today_id(days, 'gaps')}?lang={locale}")
    page.wait_for_selector("daily-deal[data-state]", state="attached")
    audit_light_and_dark(page, "/embed", problems)
    page.goto(f"{site}/offline?lang={locale}")
    audit_light_and_dark(page, "/offline", problems)
    assert not any(problems.values()), problems
