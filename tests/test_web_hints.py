"""Hints, the "still winnable?" light, shared results and the fairness note in a real
browser: the system Chromium against a real server with its own temporary database (the
browser fixtures of conftest.py, a fresh instance for this module), so the statistics seen
here count only this module's plays.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.browser import (
    DESKTOP,
    PHONE,
    SKIP,
    api_state,
    open_player,
    serve_deals,
    shot,
    today_id,
)

from dailydeal.games import GAMES

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

HINT_LOG_JS = """() => { window.hints = [];
document.addEventListener("dailydeal-hint", (e) => window.hints.push(e.detail)); }"""


def api_stats(site: str, id_: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{site}/api/v1/deals/{id_}/stats") as resp:  # noqa: S310
        return json.loads(resp.read())  # type: ignore[no-any-return]


def test_hints_highlight_legal_moves_that_clicked_in_turn_win_the_deal(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid", "easy")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    page.evaluate(HINT_LOG_JS)
    # the deal's commitment, published before its day began, is shown with a link to check
    expect(player.host.locator("[data-fair]")).to_contain_text("Fair deal: committed")
    moves = solutions["pyramid"]
    player.type_moves(moves[:-20])  # most of the way by typing, the rest by hints only
    used = 0
    while player.state() == "in progress":
        assert used < 60, "hints did not lead to a win"
        player.host.locator('[data-action="hint"]').click()
        expect(player.host).to_have_attribute("data-hint", re.compile(r"."))
        move = str(player.host.get_attribute("data-hint"))
        used += 1
        played = player.host.get_attribute("data-moves")
        state = api_state(site, id_, current_moves(page))
        assert str(len(state["moves"])) == played
        assert move in state["legal_moves"], (move, state["legal_moves"])
        lit = player.host.locator("[data-board] .hint").evaluate_all(
            "els => els.map(e => e.dataset.card || e.dataset.action || e.dataset.gap)"
        )
        expected = re.findall(r"[2-9TJQKA][SHDC]", move) or [{"d": "draw", "r": "recycle"}[move]]
        assert sorted(lit) == sorted(expected), (move, lit)
        if used == 1:
            shot(page, "hint-pyramid")
        player.play(move)
    assert player.state() == "won"
    expect(player.host.locator("[data-verdict]")).to_contain_text(f"with {used} hints")
    assert f"with {used} hints" in player.host.locator("[data-share]").input_value()
    events = page.evaluate("window.hints")
    assert len(events) == used and all(e["verdict"] == "winnable" for e in events)
    expect(player.host.locator("[data-stats]")).to_contain_text("1 player, 100% won")
    result = api_stats(site, id_)
    assert result["plays"] == 1 and result["wins"] == 1 and result["wins_without_hints"] == 0


def current_moves(page: Any) -> list[str]:
    """The element's move list, as its log shows it."""
    text = page.locator("daily-deal").locator("[data-log]").text_content() or ""
    return [] if text.strip() == "none yet" else text.split()


def test_a_gaps_hint_lights_the_card_and_its_gap(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps", "easy")
    page.set_viewport_size(PHONE)
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    player.host.locator('[data-action="hint"]').click()
    expect(player.host).to_have_attribute("data-hint", re.compile(r"."))
    move = str(player.host.get_attribute("data-hint"))
    state = api_state(site, id_, [])
    assert move in state["legal_moves"]
    lit = player.host.locator("[data-board] .hint")
    assert lit.locator("xpath=self::*[@data-card]").count() >= 1 or move == "R"
    if re.fullmatch(r"[2-9TJQKA][SHDC]", move):
        gap = next(g for g in state["position"]["gaps"] if g["accepts"] == move)
        expect(player.host.locator(f'[data-gap="{gap["row"]},{gap["column"]}"]')).to_have_class(
            re.compile(r"\bhint\b")
        )
    expect(player.host.locator("[data-msg]")).to_contain_text(f"({move}), the first of")
    if re.fullmatch(r"[2-9TJQKA][SHDC]", move):
        msg = player.host.locator("[data-msg]")
        expect(msg).to_contain_text(re.compile(r"to row \d, column \d+"))
    shot(page, "hint-gaps")
    # a move played clears the highlight
    legal = next(m for m in state["legal_moves"] if m != move and "@" not in m and m != "R")
    player.play(legal)
    expect(player.host.locator("[data-board] .hint")).to_have_count(0)
    assert player.host.get_attribute("data-hint") is None


def test_the_winnable_light_is_off_by_default_toggles_and_is_remembered(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "easy")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    toggle = player.host.locator('[data-action="winnable"]')
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert player.host.get_attribute("data-light") is None
    hints: list[str] = []
    page.on("request", lambda r: "/hint" in r.url and hints.append(r.url))
    player.play("d")
    page.wait_for_timeout(300)
    assert hints == [], "the light asked the solver while off"
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(player.host).to_have_attribute("data-light", "winnable")
    expect(toggle).to_contain_text("yes")
    player.play("d")  # asked again after every move
    expect(player.host).to_have_attribute("data-light", "winnable")
    assert len(hints) >= 2
    page.reload()
    player.wait_moves(2)
    expect(player.host).to_have_attribute("data-light", "winnable")
    player.host.locator('[data-action="winnable"]').click()
    expect(player.host.locator('[data-action="winnable"]')).to_have_attribute(
        "aria-pressed", "false"
    )
    assert player.host.get_attribute("data-light") is None
    # the notation box's example is the game's own
    placeholders = {}
    for game in GAMES:
        open_player(page, f"{site}/play/{today_id(days, game, 'expert')}", game)
        placeholders[game] = page.locator("daily-deal input[name=moves]").get_attribute(
            "placeholder"
        )
    assert placeholders == {
        "accordion": "Type moves, e.g. 4D>4S",
        "pyramid": "Type moves, e.g. d 7S+6H KC r",
        "gaps": "Type moves, e.g. 8C 2S@3 R",
    }


def test_a_won_daily_deal_posts_its_result_once_and_shows_the_statistics(
    page: Any, browser: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps", "medium")
    page.set_viewport_size(PHONE)
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and "/results" in r.url and posts.append(r.url))
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    player.type_moves(solutions["gaps"])
    assert player.state() == "won"
    stats = player.host.locator("[data-stats]")
    expect(stats).to_have_text("1 player, 100% won, you are the first to win it.")
    expect(stats).to_have_attribute("data-plays", "1")
    assert "hint" not in player.host.locator("[data-share]").input_value()
    shot(page, "won-stats")
    assert len(posts) == 1
    client = page.evaluate("localStorage.getItem('dailydeal.v1.client')")
    assert client and len(json.loads(client)) >= 16
    # a reload shows the statistics again without posting again
    page.reload()
    expect(stats).to_contain_text("1 player")
    assert len(posts) == 1
    # the same browser wins again with its record of the post lost (another tab, cleared
    # entry): it posts again, and the server still counts this client once
    page.evaluate("localStorage.removeItem('dailydeal.v1.posted')")
    player.host.locator('[data-action="close-result"]').click()  # the card is over the board
    player.host.locator("[data-restart]").click()
    player.wait_moves(0)
    # the statistics still show the first post's count: wait for the second post itself
    with page.expect_response(
        lambda r: r.request.method == "POST" and "/results" in r.url
    ) as second_post:
        player.type_moves(solutions["gaps"])
    assert second_post.value.ok
    expect(stats).to_have_attribute("data-plays", "1")
    assert len(posts) == 2
    assert api_stats(site, id_)["plays"] == 1
    # another browser (another client id) with the same count ties the other (said as a
    # tie, not "you beat 0%")
    other = browser.new_context(viewport=PHONE)
    second = open_player(other.new_page(), f"{site}/play/{id_}", "gaps")
    second.type_moves(solutions["gaps"])
    # (the same address: its turn is a minute after the first's, and its own statistics
    # hold it at once, issue 38)
    expect(second.host.locator("[data-stats]")).to_contain_text(
        "2 players, 100% won, you tied the other winner on moves."
    )
    other.close()


def test_giving_up_counts_a_play_not_won_and_numbered_deals_post_nothing(
    page: Any,
    site: str,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    seeds: dict[str, int],
) -> None:
    from playwright.sync_api import expect

    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and "/results" in r.url and posts.append(r.url))
    id_ = today_id(days, "accordion", "hard")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    give_up = player.host.locator('[data-action="give-up"]')
    expect(give_up).to_be_disabled()
    player.type_moves(solutions["accordion"][:10])
    give_up.click()  # the first tap asks (tests/test_web_play.py), the second gives up
    expect(give_up).to_have_text("Sure? Tap again")
    give_up.click()
    expect(player.host.locator("[data-result-title]")).to_have_text("Counted as not won")
    expect(player.host.locator("[data-stats]")).to_have_text("1 player, 0% won.")
    expect(give_up).to_be_hidden()
    assert api_stats(site, id_)["plays"] == 1 and api_stats(site, id_)["wins"] == 0
    assert len(posts) == 1
    # a numbered deal has no shared statistics: a win there posts nothing
    player = open_player(page, f"{site}/play/accordion/{seeds['accordion']}", "accordion")
    expect(player.host.locator('[data-action="give-up"]')).to_be_hidden()
    player.type_moves(solutions["accordion"])
    player.play_all([])  # deals the solution leaves out at the end (docs/rules.md)
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    assert len(posts) == 1
    expect(player.host.locator("[data-stats]")).to_be_hidden()


@pytest.fixture(scope="module")
def stingy_site(
    tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]], now: dt.datetime
) -> Iterator[str]:
    """A server whose hint budget is one a minute: the second hint meets a 429."""
    with serve_deals(
        tmp_path_factory.mktemp("stingy") / "dailydeal.db",
        deal_rows,
        now,
        state_rate_limit="100000 per minute",
        hint_rate_limit="1 per minute",
    ) as url:
        yield url


def test_a_rate_limited_hint_says_try_again_later(
    browser: Any, stingy_site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    # no console watch here: Chromium logs the 429 response itself as a console error
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    player = open_player(page, f"{stingy_site}/play/{today_id(days, 'pyramid')}", "pyramid")
    player.host.locator('[data-action="hint"]').click()
    expect(player.host).to_have_attribute("data-hint", re.compile(r"."))
    player.play(str(player.host.get_attribute("data-hint")))
    player.host.locator('[data-action="hint"]').click()
    # the budget's wait, from Retry-After (one hint a minute)
    expect(player.host.locator("[data-msg]")).to_contain_text(
        re.compile(r"You have used the hints allowed for now: the next one in \d+ seconds")
    )
    assert player.host.get_attribute("data-hint") is None
    assert player.host.locator("[data-board] .hint").count() == 0
    # the light, turned on, says it cannot tell rather than guessing
    player.host.locator('[data-action="winnable"]').click()
    expect(player.host).to_have_attribute("data-light", "unknown")
    expect(player.host.locator('[data-action="winnable"]')).to_have_attribute(
        "title", re.compile("the next one in")
    )
    context.close()


def test_a_conflicting_second_result_shows_the_one_that_counts(
    browser: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    # no console watch here: Chromium logs the 409 response itself as a console error
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    id_ = today_id(days, "gaps", "hard")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    player.type_moves(solutions["gaps"][:3])
    player.host.locator('[data-action="give-up"]').dblclick()  # give up, and confirm
    expect(player.host.locator("[data-stats]")).to_have_text("1 player, 0% won.")
    # the browser forgets it posted (storage cleared by hand), then wins: the server
    # answers 409 with the result that counts, and the panel says so
    page.evaluate("localStorage.removeItem('dailydeal.v1.posted')")
    player.host.locator("[data-restart]").click()
    player.wait_moves(0)
    player.type_moves(solutions["gaps"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified by the server: won")
    expect(player.host.locator("[data-stats]")).to_have_text(
        "1 player, 0% won. Your first result counts: not won."
    )
    assert api_stats(site, id_)["wins"] == 0
    context.close()
