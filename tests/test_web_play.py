"""The player's feel in a real browser (issue 24): moves played locally by rules.js with no
request per move, a win made offline and verified once the network is back, a drag, the
timer, dark mode, give up's confirmation, an offline reload, the hint budget's words, the
arrow keys over a Pyramid and the cards' accessible names.

The system Chromium through Playwright against a real server (tests/helpers/browser.py); skipped,
with the reason, when Playwright or Chromium is missing.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from helpers.browser import (
    SKIP,
    WATCHES,
    Player,
    api_state,
    centre,
    open_player,
    settled,
    today_id,
)

from dailydeal.games import new_game

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

CARD = '[data-card="{}"]'.format


def api_requests(page: Any) -> list[str]:
    """The URLs of every API request the page makes from now on."""
    seen: list[str] = []
    page.on("request", lambda r: "/api/v1/" in r.url and seen.append(r.url))
    return seen


def test_a_whole_solution_played_offline_is_verified_once_online(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    page.wait_for_load_state("networkidle")
    moves = solutions["pyramid"]
    # online: no request per move (rules.js plays them)
    seen = api_requests(page)
    player.play_all(moves[:10], finish=False)
    assert seen == [], f"requests made by moves: {seen}"
    # offline: the rest of the game plays on, and the win waits for the server
    WATCHES[id(page)].allow("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    player.play_all(moves[10:])
    assert player.state() == "won"
    verdict = player.host.locator("[data-verdict]")
    expect(verdict).to_have_attribute("data-pending", "true")
    expect(verdict).to_contain_text("offline")
    expect(player.host.locator("[data-undo]")).to_be_disabled()  # no undo after a win
    queued = page.evaluate("JSON.parse(localStorage.getItem('dailydeal.v1.queue'))")
    assert [q["kind"] for q in queued] == ["won"] and queued[0]["moves"] == moves
    # back online: verified by the server (the verdict shown is its answer), queue emptied
    page.context.set_offline(False)
    expect(verdict).to_contain_text(f"Verified by the server: won in {len(moves)} moves")
    expect(verdict).not_to_have_attribute("data-pending", "true")
    assert page.evaluate("localStorage.getItem('dailydeal.v1.queue')") is None
    # the one verify tried offline, then the one that answered
    assert [u for u in seen if "/verify" in u] == [f"{site}/api/v1/deals/{id_}/verify"] * 2
    assert not [u for u in seen if "/state" in u]


def test_an_offline_reload_keeps_the_progress(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    id_ = today_id(days, "gaps")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    # the service worker of the service's pages (when there is one) keeps a page it served:
    # once it is ready, a second load online is the one it keeps for offline
    worker = "navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false"
    if page.evaluate(worker):
        page.reload()
        player.wait_moves(0)
    page.wait_for_load_state("networkidle")
    WATCHES[id(page)].allow("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    player.play_all(solutions["gaps"][:6], finish=False)
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('dailydeal.v1.progress.{id_}'))")
    assert stored == solutions["gaps"][:6]
    # with a service worker the page itself loads offline; without one the page needs the
    # network, but the element's own data (deal, rules) is kept: nothing was lost
    if not page.evaluate("Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"):
        page.context.set_offline(False)
    page.reload()
    player.wait_moves(6)
    assert player.host.locator("[data-log]").text_content() == " ".join(solutions["gaps"][:6])
    page.context.set_offline(False)


@pytest.mark.motion
def test_a_card_dragged_onto_its_partner_plays_the_pair(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    # play up to the solution's first pair, then drag it
    before, first = player.up_to_first_pair(solutions["pyramid"])
    a, b = first.split("+")
    state = api_state(site, id_, before)
    def value(card: str) -> int:
        return "A23456789TJQK".index(card[0]) + 1

    accessible = state["position"]["accessible"]
    wrong = next(c for c in accessible if c not in (a, b) and value(c) + value(a) != 13)
    reason = api_state(site, id_, [*before, f"{a}+{wrong}"])["error"]["reason"]

    def drag(source: str, target: str) -> None:
        # aimed at each card once it stays put (the moves just played may still be sliding)
        start, end = (centre(settled(page, player.host.locator(CARD(c)))) for c in (source, target))
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(*end, steps=8)
        page.mouse.up()

    # a wrong drop: nothing played, the same reason as the server's
    drag(a, wrong)
    expect(player.host.locator("[data-msg]")).to_contain_text(reason)
    assert player.moves() == len(before)
    drag(a, b)
    player.wait_moves(len(before) + 1)
    assert player.host.locator("[data-log]").text_content() == " ".join([*before, first])
    expect(player.host.locator(CARD(a))).to_have_count(0)
    expect(player.host.locator(CARD(b))).to_have_count(0)


def test_the_timer_starts_at_the_first_move_pauses_and_hides(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    timer = player.host.locator("[data-timer]")
    expect(timer).to_be_visible()
    page.wait_for_timeout(1300)
    expect(timer).to_have_attribute("data-seconds", "0")  # not before the first move
    expect(timer).to_have_attribute("data-running", "false")
    player.play(solutions["gaps"][0])
    expect(timer).to_have_attribute("data-running", "true")
    expect(timer).to_have_attribute("data-seconds", "1", timeout=3000)
    # the tab hidden: the clock stops
    page.evaluate(
        """() => { Object.defineProperty(document, "visibilityState",
        {value: "hidden", configurable: true});
        document.dispatchEvent(new Event("visibilitychange")); }"""
    )
    expect(timer).to_have_attribute("data-running", "false")
    stopped = timer.get_attribute("data-seconds")
    page.wait_for_timeout(1500)
    assert timer.get_attribute("data-seconds") == stopped
    page.evaluate(
        """() => { delete document.visibilityState;
        document.dispatchEvent(new Event("visibilitychange")); }"""
    )
    expect(timer).to_have_attribute("data-running", "true")
    # the player hides it (remembered); it still counts for the result
    player.host.locator('[data-option="timer"]').click()
    expect(timer).to_be_hidden()
    options = json.loads(page.evaluate("localStorage.getItem('dailydeal.v1.options')"))
    assert options["timer"] is False
    page.reload()
    player.wait_moves(1)
    expect(player.host.locator("[data-timer]")).to_be_hidden()
    assert int(player.host.locator("[data-timer]").get_attribute("data-seconds") or 0) >= 1


def test_dark_mode_follows_the_system_and_the_toggle(
    browser: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    id_ = today_id(days, "accordion")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    background = "getComputedStyle(document.body).backgroundColor"
    controls = player.host.locator(".controls")

    def dark(colour: str) -> bool:
        r, g, b = (int(x) for x in colour[colour.index("(") + 1 : -1].split(",")[:3])
        return r + g + b < 200

    assert dark(page.evaluate(background))
    assert dark(controls.evaluate("e => getComputedStyle(e).backgroundColor"))
    toggle = player.host.locator('[data-option="dark"]')
    assert toggle.get_attribute("aria-pressed") == "true"
    # the system turning light and dark again while the page is open: followed, and said
    page.emulate_media(color_scheme="light")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert not dark(controls.evaluate("e => getComputedStyle(e).backgroundColor"))
    page.emulate_media(color_scheme="dark")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert dark(controls.evaluate("e => getComputedStyle(e).backgroundColor"))
    toggle.click()
    assert player.host.get_attribute("data-theme") == "light"
    assert not dark(page.evaluate(background))
    assert not dark(controls.evaluate("e => getComputedStyle(e).backgroundColor"))
    page.reload()  # remembered
    player.wait_moves(0)
    assert player.host.get_attribute("data-theme") == "light"
    toggle.click()
    assert player.host.get_attribute("data-theme") == "dark"
    assert dark(page.evaluate(background))
    # the four-colour deck: diamonds blue, clubs green
    player.host.locator('[data-option="four"]').click()
    player.play("d")
    top = player.host.locator("[data-card]").first
    colour = top.evaluate("e => getComputedStyle(e).color")
    suit = top.get_attribute("data-card")[1]
    expected = {"D": "rgb(26, 95, 196)", "C": "rgb(31, 122, 53)"}.get(suit)
    if expected:
        assert colour == expected
    context.close()


def test_give_up_asks_before_it_counts(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "hard")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    player.play("d")
    seen = api_requests(page)
    give_up = player.host.locator('[data-action="give-up"]')
    give_up.click()
    expect(give_up).to_have_attribute("data-confirm", "1")
    expect(player.host.locator("[data-msg]")).to_contain_text("Tap")
    page.wait_for_timeout(300)
    assert player.host.locator("[data-result]").is_hidden()
    assert not [u for u in seen if "/results" in u], "one tap posted a loss"
    give_up.click()
    expect(player.host.locator("[data-result-title]")).to_have_text("Counted as not won")
    expect(player.host.locator("[data-stats]")).to_be_visible()
    assert [u for u in seen if "/results" in u]


def test_a_spent_hint_budget_says_when_the_next_hint_comes(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    WATCHES[id(page)].allow("status of 429")
    problem = {"title": "Too Many Requests", "status": 429, "detail": "hint limit reached"}
    page.route(
        "**/hint?*",
        lambda route: route.fulfill(
            status=429,
            headers={"Retry-After": "42", "Content-Type": "application/problem+json"},
            body=json.dumps(problem),
        ),
    )
    player.host.locator('[data-action="hint"]').click()
    msg = player.host.locator("[data-msg]")
    expect(msg).to_contain_text("the next one in 42 seconds")
    assert "busy" not in msg.inner_text()


def test_arrow_keys_skip_covered_pyramid_cards_and_names_say_what_cards_show(
    page: Any, site: str, days: dict[str, dt.date], seeds: dict[str, int]
) -> None:
    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    bottom = new_game("pyramid", seeds["pyramid"]).to_json()["position"]["pyramid"][6]
    player.host.locator(CARD(bottom[3])).focus()
    for key in ["ArrowUp", "ArrowLeft", "ArrowRight", "ArrowLeft"]:
        page.keyboard.press(key)
        focused = page.evaluate(
            "() => document.querySelector('daily-deal').shadowRoot.activeElement.className"
        )
        assert "blocked" not in focused, f"{key} landed on a covered card"
    # axe's label-content-name-mismatch: the name contains the visible text of the card
    pairs = player.host.locator("[data-card]").evaluate_all(
        "els => els.map(e => [e.innerText.replace(/\\s+/g, ''), e.getAttribute('aria-label')])"
    )
    assert pairs and all(label.startswith(shown) and len(shown) >= 2 for shown, label in pairs)


# Every element of the board marked (a property, not an attribute: the DOM is not touched);
# after a move, [the rows not marked (new), the places not marked, the places in all].
MARK_JS = """host => {
  for (const el of host.shadowRoot.querySelectorAll('[data-board] *')) el.ddOld = true;
}"""
FRESH_JS = """(host, rows) => {
  const fresh = (sel) => [...host.shadowRoot.querySelectorAll(sel)].filter((el) => !el.ddOld);
  const places = '[data-card], [data-gap], .card.empty';
  const name = (el) => el.dataset.card || el.dataset.gap || el.dataset.place;
  const all = host.shadowRoot.querySelectorAll(places).length;
  return [fresh(rows).length, fresh(places).map(name), all];
}"""


@pytest.mark.parametrize(("game", "rows"), [("pyramid", ".pyr-row"), ("gaps", ".cells")])
def test_a_move_redraws_the_places_it_changed_not_their_rows(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]], game: str,
    rows: str,
) -> None:
    """board.js patches a move in: the rows keep their elements, and only the places whose
    card, marks or name changed are new (a card moved or gone, the place it left, a card
    uncovered, a gap that now takes another card). Each row drawn again, a Gaps move laid
    out 38 cards again and rastered their rows (docs/architecture.md "Tests")."""
    player = open_player(page, f"{site}/play/{today_id(days, game)}", game)
    for move in solutions[game][:8]:
        if move in ("d", "r", "R"):  # a draw changes no row; a redeal deals every place
            player.type_moves([move])
            continue
        player.host.evaluate(MARK_JS)
        player.type_moves([move])
        new_rows, fresh, places = player.host.evaluate(FRESH_JS, rows)
        assert new_rows == 0, (move, new_rows)
        assert 1 <= len(fresh) <= 6 < places, (move, fresh)


def test_accordion_shows_no_par_and_each_game_says_what_its_score_counts(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    names = {"accordion": "Piles", "pyramid": "Cards left", "gaps": "In place"}
    for game, name in names.items():
        player = Player(page, game)
        open_player(page, f"{site}/play/{today_id(days, game)}", game)
        assert player.host.locator("[data-score-name]").inner_text() == name
        assert player.host.locator("[data-par]").is_hidden() == (game == "accordion")


def test_a_win_made_offline_survives_an_offline_reload_and_is_verified_once_online(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """Issue 38, item 7: won offline, reloaded offline (the game and the pending win are
    still there), back online: the win is verified, its result posted, and the verdict
    replaces the offline note."""
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "easy")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    worker = "navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false"
    if page.evaluate(worker):  # a second load online: the one the worker keeps for offline
        page.reload()
        player.wait_moves(0)
    page.wait_for_load_state("networkidle")
    moves = solutions["accordion"]
    WATCHES[id(page)].allow("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    player.play_all(moves)
    assert player.state() == "won"
    verdict = player.host.locator("[data-verdict]")
    expect(verdict).to_have_attribute("data-pending", "true")
    played = player.moves()
    queue = "JSON.parse(localStorage.getItem('dailydeal.v1.queue'))"
    if not page.evaluate("Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"):
        page.context.set_offline(False)  # no worker: the page itself needs the network
        page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.reload()
    player.wait_moves(played)
    assert player.state() == "won"
    expect(verdict).to_have_attribute("data-pending", "true")
    expect(verdict).to_contain_text("offline")
    page.wait_for_timeout(500)  # the load's flush, still offline, keeps the win queued
    assert [q["kind"] for q in page.evaluate(queue)] == ["won"]
    posted = api_requests(page)
    page.unroute("**/api/v1/**")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")  # after an unroute
    expect(verdict).to_contain_text(f"Verified by the server: won in {len(moves)} moves")
    expect(verdict).not_to_have_attribute("data-pending", "true")
    expect(player.host.locator("[data-stats]")).to_be_visible()
    assert page.evaluate("localStorage.getItem('dailydeal.v1.queue')") is None
    assert [u for u in posted if u.endswith(f"/deals/{id_}/results")] == [
        f"{site}/api/v1/deals/{id_}/results"]
