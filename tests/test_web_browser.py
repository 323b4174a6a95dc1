"""The pages in a real browser: the system Chromium driven by Playwright against a real
server on a free port (a temporary SQLite database filled by conftest's real deals).

A stored solution won by clicking, in each game, is in tests/test_web_browser_wins.py
(apart, so two test workers share them: each module starts its own server and browser).

Skipped, with the reason in pytest's summary, when Playwright or Chromium is missing;
.ci/run installs Chromium so CI always runs them. Screenshots go to artifacts/screenshots.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from helpers.browser import (
    DESKTOP,
    PHONE,
    SKIP,
    Player,
    api_state,
    centre,
    open_player,
    shot,
    today_id,
)

from dailydeal.daily.store import deal_id
from dailydeal.games import GAMES, new_game

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


# --- play (a stored solution won by clicking: tests/test_web_browser_wins.py) ------------
@pytest.mark.motion
def test_a_tap_on_a_card_still_sliding_is_that_cards(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]],
    seeds: dict[str, int],
) -> None:
    """A press puts the cards still sliding in their places (the press acts on where they
    are), so a card pressed mid-slide leaves the pointer and the release falls beside it:
    the tap is still that card's. (On a loaded machine Playwright pressed a card that had
    not begun its slide, and the click-to-win test's Ten of spades was never picked: "no
    move after 90 moves: Three of spades has nowhere to go now".) The slide is held still
    through the DevTools protocol so that the press falls on its first frame."""
    from playwright.sync_api import expect

    moves = solutions["accordion"]
    game = new_game("accordion", seeds["accordion"])
    for move in moves:  # the first pile move with piles right of its source
        tops = [p["top"] for p in game.to_json()["position"]["piles"]]
        if ">" in move and move.split(">")[0] != tops[-1]:
            break
        game.play(game.parse_move(move))
    at = len(game.move_stack)
    source = move.split(">")[0]
    right = tops[tops.index(source) + 1]  # its pile takes the place left: it slides
    player = open_player(page, f"{site}/play/{today_id(days, 'accordion')}", "accordion")
    player.type_moves(moves[:at])
    still = "e => e.shadowRoot.getAnimations().length === 0"
    for _ in range(100):
        if player.host.evaluate(still):
            break
        page.wait_for_timeout(20)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    player.play(move)
    card = player.host.locator(f'[data-card="{right}"]')
    assert card.evaluate("e => e.getAnimations().length") > 0, "the card is not sliding"
    page.mouse.click(*centre(card.bounding_box()))
    expect(card).to_have_attribute("aria-pressed", "true")
    assert player.moves() == at + 1


@pytest.mark.motion
def test_an_illegal_click_shows_the_server_reason_and_changes_nothing(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    state = api_state(site, id_, [])
    # every card has an accessible name: "seven of hearts"
    names = player.host.locator("[data-card]").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])"
    )
    assert len(names) == 28 and all(spoken(c) in label for c, label in names)
    free = [c for c in state["position"]["accessible"] if c[0] != "K"]
    values = {c: "A23456789TJQK".index(c[0]) + 1 for c in free}
    a, b = next((x, y) for x in free for y in free if x != y and values[x] + values[y] != 13)
    reason = api_state(site, id_, [f"{a}+{b}"])["error"]["reason"]
    board = player.host.locator("[data-board]")
    before = board.inner_html()
    player.click(f'[data-card="{a}"]')
    player.click(f'[data-card="{b}"]')
    expect(player.host.locator("[data-msg]")).to_contain_text(reason)
    assert player.moves() == 0 and player.state() == "in progress"
    assert _cards(board) == _cards_html(before)
    # Gaps: a card whose predecessor has no gap after it
    gid = today_id(days, "gaps")
    player = open_player(page, f"{site}/play/{gid}", "gaps")
    gstate = api_state(site, gid, [])
    stuck = next(
        c
        for row in gstate["position"]["rows"]
        for c in row
        if c
        and c not in gstate["legal_moves"]
        and not any(m.startswith(c + "@") for m in gstate["legal_moves"])
    )
    greason = api_state(site, gid, [stuck])["error"]["reason"]
    player.click(f'[data-card="{stuck}"]')
    expect(player.host.locator("[data-msg]")).to_contain_text(greason)
    assert player.moves() == 0


RANKS = "ace two three four five six seven eight nine ten jack queen king".split()
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def spoken(card: str) -> str:
    return f"{RANKS['A23456789TJQK'.index(card[0])]} of {SUITS[card[1]]}"


def _cards(board: Any) -> list[str]:
    return board.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")  # type: ignore[no-any-return]


def _cards_html(html: str) -> list[str]:

    return re.findall(r'data-card="(\w\w)"', html)


def _focused(page: Any) -> dict[str, str]:
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const a = document.activeElement;
        const inner = a && a.shadowRoot ? a.shadowRoot.activeElement : null;
        return inner ? {...inner.dataset} : {}; }"""
    )


@pytest.mark.motion
def test_keyboard_only_play(
    page: Any, site: str, days: dict[str, dt.date], seeds: dict[str, int]
) -> None:
    """Tab to the stock, Enter deals, arrows walk the piles, Enter picks and lands, U undoes."""
    id_ = today_id(days, "accordion")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    game = new_game("accordion", seeds["accordion"])
    dealt = 0
    while not [m for m in game.to_json()["legal_moves"] if m != "d"]:
        game.play(game.parse_move("d"))
        dealt += 1
    move = next(m for m in game.to_json()["legal_moves"] if m != "d")
    source, target = move.split(">")
    tops = [p["top"] for p in game.to_json()["position"]["piles"]]
    for _ in range(40):
        page.keyboard.press("Tab")
        if _focused(page).get("action") == "draw":
            break
    assert _focused(page).get("action") == "draw", "Tab never reached the stock"
    for n in range(dealt):
        page.keyboard.press("Enter")
        player.wait_moves(n + 1)
    page.keyboard.press("ArrowDown")
    assert _focused(page).get("card") == tops[0]
    for _ in range(tops.index(source)):
        page.keyboard.press("ArrowRight")
    assert _focused(page).get("card") == source
    page.keyboard.press("Enter")
    for _ in range(tops.index(source) - tops.index(target)):
        page.keyboard.press("ArrowLeft")
    assert _focused(page).get("card") == target
    page.keyboard.press("Enter")
    player.wait_moves(dealt + 1)
    assert target not in _cards(player.host.locator("[data-board]"))
    page.keyboard.press("u")
    player.wait_moves(dealt)
    assert target in _cards(player.host.locator("[data-board]"))


def test_notation_box_undo_and_restart(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "gaps")
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    first, second, third = solutions["gaps"][:3]
    player.play(first)
    player.play(second)
    after_one = api_state(site, id_, [first])["position"]["rows"]
    player.click("[data-undo]")
    player.wait_moves(1)
    # each place of the grid in order (its rows and cells are a screen reader's structure)
    rows = player.host.locator("[data-board] .gaps :is([data-card], [data-gap])").evaluate_all(
        "els => els.map(e => e.dataset.card || null)"
    )
    assert rows == [c for row in after_one for c in row]
    box = player.host.locator("input[name=moves]")
    box.fill(f"{second} {third}")
    box.press("Enter")
    player.wait_moves(3)
    expect(box).to_have_value("")
    box.fill("KS KH")  # typed moves are checked by the server too
    box.press("Enter")
    expect(player.host.locator("[data-msg]")).to_contain_text("Move 1 (KS)")
    assert player.moves() == 3
    player.click("[data-restart]")
    player.wait_moves(0)


def test_numbered_deal_with_a_64_bit_seed(page: Any, site: str) -> None:
    seed = "18446744073709551615"  # beyond a JavaScript number: sent as a decimal string
    player = open_player(page, f"{site}/play/pyramid/{seed}", "pyramid")
    legal = new_game("pyramid", int(seed)).to_json()["legal_moves"]
    player.play(legal[0])
    assert player.moves() == 1


# --- embedding ---------------------------------------------------------------------------
# a whole game won with the cards sliding (and the celebration): most pages of these tests
# prefer reduced motion (conftest's page)
@pytest.mark.motion
def test_the_element_plays_on_another_origin(
    page: Any,
    site: str,
    other_origin: str,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid", "hard")
    page.goto(f"{other_origin}/?deal={id_}")
    player = Player(page, "pyramid")
    expect(player.host).to_have_attribute("data-moves", "0")
    # the host page's hostile CSS does not reach the cards in the shadow root
    colour = player.host.locator("[data-card]").first.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert colour != "rgb(255, 0, 255)"
    player.play_all(solutions["pyramid"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    events = page.evaluate("window.dd")
    assert len(events["moves"]) == len(solutions["pyramid"])
    assert events["moves"][-1]["state"] == "won"
    assert len(events["won"]) == 1 and events["won"][0]["verdict"]["won"] is True
    assert events["won"][0]["deal"] == id_
    # the iframe embed loads there too
    frame = page.frame_locator("#embed")
    expect(frame.locator("daily-deal")).to_have_attribute("data-moves", "0")
    # a second element, chosen by date ("today": the browser's time zone), game and tier
    page.evaluate(
        """api => document.body.insertAdjacentHTML("beforeend", `<daily-deal id="second"
        date="today" game="gaps" tier="easy" api="${api}"></daily-deal>`)""",
        f"{site}/api/v1",
    )
    second = page.locator("#second")
    expect(second).to_have_attribute("data-state", "in progress")
    assert second.locator("[data-card]").count() == 48
    assert second.locator("[data-gap]").count() == 4


def test_only_the_embed_route_may_be_framed(
    browser: Any, site: str, other_origin: str, days: dict[str, dt.date]
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    id_ = today_id(days, "gaps")
    page.goto(f"{other_origin}/?deal={id_}&frame=/play/{id_}")
    page.wait_for_timeout(500)
    assert any("frame" in e.lower() for e in errors), errors
    frame = next(f for f in page.frames if f != page.main_frame)
    assert frame.locator("daily-deal").count() == 0
    context.close()


# --- the daily page ----------------------------------------------------------------------
def test_archive_shows_a_solution_once_open_and_not_before(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    page.goto(f"{site}/")
    spotlight = page.locator("[data-spotlight] details.day")
    expect(spotlight).to_have_attribute("data-date", days["today"].isoformat())
    assert spotlight.locator("[data-solution]").count() == 0
    expect(spotlight.locator(".locked")).to_contain_text("Solutions open")
    assert spotlight.locator("a.tier-link").count() == 12
    assert page.locator(f'details.day[data-date="{days["future"]}"]').count() == 0
    past = page.locator(f'details.day[data-date="{days["past"]}"]')
    past.locator("summary").click()
    id_ = deal_id(days["past"], "gaps", "hard")
    past.locator(f'[data-solution="{id_}"]').click()
    text = past.locator(f'[data-solution-text="{id_}"]')
    expect(text).to_contain_text(" ".join(solutions["gaps"][:5]))
    expect(text).to_contain_text(f"({len(solutions['gaps'])} moves)")


PAGES = [
    "/",
    "/play/{pyramid}",
    "/play/{accordion}",
    "/play/{gaps}",
    "/play/gaps/42",
    "/embed/{pyramid}",
]


def test_no_console_errors_and_no_other_host_on_any_page(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    """The page fixture fails the test on any console error or foreign request."""
    ids = {g: today_id(days, g) for g in GAMES}
    for path in PAGES:
        page.goto(site + path.format(**ids))
        if path != "/":
            board = page.locator("daily-deal")
            from playwright.sync_api import expect

            expect(board).to_have_attribute("data-state", "in progress")
        page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_screenshots_and_nothing_overflows(
    page: Any,
    site: str,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    viewport: dict[str, int],
) -> None:
    page.set_viewport_size(viewport)
    page.goto(f"{site}/")
    page.wait_for_load_state("networkidle")
    shot(page, "daily")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for game in GAMES:
        player = open_player(page, f"{site}/play/{today_id(days, game)}", game)
        moves = solutions[game]
        player.play_all(moves[: {"accordion": 40, "pyramid": 12, "gaps": 30}[game]], finish=False)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], game
        assert shot(page, f"play-{game}").stat().st_size > 0
