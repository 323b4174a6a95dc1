"""The player on a phone (issue 38, item 8): a touch drag then a quick tap, the words of a
touch screen, a phone on its side showing the whole board, Gaps's cards big enough for a
finger, and the secondary controls in a "More" menu.

The system Chromium through Playwright against a real server (tests/helpers/browser.py);
skipped, with the reason, when Playwright or Chromium is missing.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.browser import (
    ARTIFACTS,
    PHONE,
    SKIP,
    api_state,
    centre,
    open_player,
    settled,
    shot,
    today_id,
)

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

CARD = '[data-card="{}"]'.format
LANDSCAPE = {"width": 844, "height": 390}


def touch_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page on a phone of ``viewport``: a touch screen, a coarse pointer."""
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone held upright."""
    yield from touch_page(browser, PHONE)


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger pressed at ``start``, moved to ``end`` and lifted (the DevTools protocol's
    touch events: what a touch screen sends)."""
    cdp = page.context.new_cdp_session(page)
    point = lambda x, y: [{"x": x, "y": y, "id": 1}]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(*start)})
    for i in range(1, 9):
        x = start[0] + (end[0] - start[0]) * i / 8
        y = start[1] + (end[1] - start[1]) * i / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(x, y)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_tap_right_after_a_touch_drag_is_not_lost(
    phone: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    page = phone
    id_ = today_id(days, "pyramid")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    before, first = player.up_to_first_pair(solutions["pyramid"])
    a, b = first.split("+")
    touch_drag(page, centre(settled(page, player.host.locator(CARD(a)))),
               centre(settled(page, player.host.locator(CARD(b)))))
    player.wait_moves(len(before) + 1)
    # at once (well within 0.4 s): a tap on another card picks it up. The drag's touch
    # moves were the browser's fling, which swallowed this tap as the one that stops it
    accessible = api_state(site, id_, [*before, first])["position"]["accessible"]
    other = player.host.locator(CARD(accessible[0]))
    page.touchscreen.tap(*centre(other.bounding_box()))
    expect(other).to_have_class(re.compile(r"\bselected\b"))


def test_a_touch_screen_reads_tap_where_a_mouse_reads_click(
    phone: Any, browser: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "medium")
    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        for page, word in ((phone, "Tap"), (desktop.new_page(), "Click")):
            player = open_player(page, f"{site}/play/{id_}", "accordion")
            expect(player.host.locator("[data-board]")).to_contain_text(
                f"{word} the stock to deal the first card.")
            player.play("d")
            player.play("d")
            player.click(".acc [data-card]")
            expect(player.host.locator("[data-msg]")).to_contain_text(
                re.compile(f"(selected: {word.lower()} where it goes|has nowhere to go)"))
            for other in ("Click", "Tap"):
                if other != word:
                    assert other.lower() not in player.host.locator("[data-msg]").inner_text()
    finally:
        desktop.close()


@pytest.fixture
def on_its_side(browser: Any) -> Iterator[Any]:
    """A phone on its side: 844x390."""
    yield from touch_page(browser, LANDSCAPE)


def screen(page: Any, name: str) -> None:
    """What the screen shows (shot() takes the whole page at another size, where a phone's
    media queries no longer match: what it shows is not what the phone shows)."""
    size = page.viewport_size
    out = ARTIFACTS / "screenshots" / f"{name}-{size['width']}x{size['height']}-screen.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))


def inside(box: Any, view: dict[str, int]) -> bool:
    return (box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= view["width"] + 0.5
            and box["y"] + box["height"] <= view["height"] + 0.5)


def overlap(a: Any, b: Any) -> bool:
    return not (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


@pytest.mark.parametrize("game", ["accordion", "pyramid", "gaps"])
def test_a_phone_on_its_side_shows_the_whole_board_at_load(
    on_its_side: Any, site: str, days: dict[str, dt.date], game: str
) -> None:
    page = on_its_side
    player = open_player(page, f"{site}/play/{today_id(days, game)}", game)
    page.wait_for_timeout(300)  # the fairness note and the fonts settle
    screen(page, f"landscape-{game}")
    view = page.viewport_size
    assert page.evaluate("window.scrollY") == 0
    board = player.host.locator("[data-board]").bounding_box()
    assert inside(board, view), (board, view)
    for card in player.host.locator("[data-board] :is([data-card], [data-gap])").all():
        box = card.bounding_box()
        assert inside(box, view), (card.get_attribute("data-card"), box)
    controls = player.host.locator("[part=controls]").bounding_box()
    assert inside(controls, view), controls
    assert not overlap(board, controls), (board, controls)


def test_gaps_cards_on_a_phone_are_big_enough_for_a_finger(
    phone: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """Upright, the four rows stand as four columns of thirteen: every card and gap at least
    44 px tall, and still played by its data-card and data-gap."""
    page = phone
    player = open_player(page, f"{site}/play/{today_id(days, 'gaps')}", "gaps")
    shot(page, "gaps-phone")
    places = player.host.locator("[data-board] :is([data-card], [data-gap])")
    assert places.count() == 52
    boxes = [places.nth(i).bounding_box() for i in range(52)]
    assert min(b["height"] for b in boxes) >= 44, min(b["height"] for b in boxes)
    assert min(b["width"] for b in boxes) >= 44, min(b["width"] for b in boxes)
    board = player.host.locator("[data-board]").bounding_box()
    assert all(b["x"] >= board["x"] and b["x"] + b["width"] <= board["x"] + board["width"]
               for b in boxes)  # nothing to scroll sideways
    # a row of the deal reads downwards: its first card above its second, in one column
    first, second = boxes[0], boxes[1]  # the board's order: row 1, column 1, then column 2
    assert abs(first["x"] - second["x"]) < 1 and second["y"] > first["y"]
    player.play_all(solutions["gaps"][:4], finish=False)
    player.wait_moves(4)


def test_on_a_phone_the_notation_options_and_fairness_fold_into_more(
    phone: Any, browser: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid")
    page = phone
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    host = player.host
    folded = [host.locator("input[name=moves]"), host.locator("[data-option=dark]"),
              host.locator("[data-fair]")]
    more = host.locator("[data-menu] > summary")
    expect(more).to_be_visible()
    for el in folded:
        expect(el).to_be_hidden()
    expect(host.locator("[data-undo]")).to_be_visible()
    expect(host.locator('[data-action="hint"]')).to_be_visible()
    screen(page, "more-folded")
    more.tap()
    expect(folded[0]).to_be_visible()
    expect(folded[1]).to_be_visible()
    expect(folded[2]).to_contain_text("committed")
    folded[2].scroll_into_view_if_needed()
    screen(page, "more-open")
    # a desktop, and a narrow window with a mouse: as before, all shown, no "More"
    for viewport in ({"width": 1280, "height": 800}, PHONE):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            host = open_player(page, f"{site}/play/{id_}", "pyramid").host
            expect(host.locator("[data-menu] > summary")).to_be_hidden()
            expect(host.locator("input[name=moves]")).to_be_visible()
            expect(host.locator("[data-option=dark]")).to_be_visible()
            expect(host.locator("[data-fair]")).to_contain_text("committed")
        finally:
            context.close()


def test_on_its_side_a_replay_s_bar_stands_beside_the_board(
    on_its_side: Any, site: str, seeds: dict[str, int], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    page = on_its_side
    player = open_player(page, f"{site}/play/pyramid/{seeds['pyramid']}", "pyramid")
    player.host.locator("[data-menu] > summary").tap()
    box = player.host.locator("input[name=moves]")
    box.fill(" ".join(solutions["pyramid"]))
    box.press("Enter")
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    player.host.locator('[data-action="replay"]').tap()
    expect(player.host.locator("[data-replay]")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    player.host.locator('[data-action="replay-forward"]').tap()
    expect(player.host).to_have_attribute("data-moves", "1")
    screen(page, "landscape-replay")
    view = page.viewport_size
    board = player.host.locator("[data-board]").bounding_box()
    bar = player.host.locator("[data-replay]").bounding_box()
    assert inside(board, view) and inside(bar, view), (board, bar)
    assert not overlap(board, bar)


def test_on_its_side_accordion_s_four_rows_of_piles_stay_in_view(
    on_its_side: Any, site: str, seeds: dict[str, int]
) -> None:
    page = on_its_side
    player = open_player(page, f"{site}/play/accordion/{seeds['accordion']}", "accordion")
    player.host.locator("[data-menu] > summary").tap()
    box = player.host.locator("input[name=moves]")
    box.fill(" ".join(["d"] * 52))  # every card dealt, none moved: 52 piles
    box.press("Enter")
    player.wait_moves(52)
    page.evaluate("window.scrollTo(0, 0)")
    screen(page, "landscape-accordion-52")
    board = player.host.locator("[data-board]").bounding_box()
    assert inside(board, page.viewport_size), board
