"""The end of a game in a real browser (issue 38): the result card in view on a phone, a
phone on its side and a desktop, its tiles and statistics, sharing through the system's
share sheet, replaying the line with the keys, one result event, and a lost game's card."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

import pytest
from helpers.browser import DESKTOP, PHONE, SKIP, open_player, serve_deals, shot, today_id

from dailydeal.games import new_game

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

LANDSCAPE = {"width": 844, "height": 390}
EVENTS_JS = """() => { window.results = [];
document.addEventListener("dailydeal-result", (e) => window.results.push(e.detail)); }"""
SHARE_JS = """() => { window.shared = [];
navigator.share = async (data) => { window.shared.push(data); }; }"""


def in_view(page: Any, locator: Any) -> None:
    """The box is wholly inside the viewport, with nothing to scroll."""
    box = locator.bounding_box()
    view = page.viewport_size
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= view["width"] + 0.5, (box, view)
    assert box["y"] + box["height"] <= view["height"] + 0.5, (box, view)


def lost_line(seed: int, game_name: str = "gaps", variant: str | None = "redeals=0") -> list[str]:
    """Moves of numbered deal ``seed`` that end lost: random, pinned by the seed of the
    generator."""
    rng = random.Random(seed)
    game = new_game(game_name, seed, variant)
    moves = []
    while game.status() == "in progress":
        move = rng.choice(game.legal_moves())
        game.push(move)
        moves.append(str(move))
    assert game.status() == "lost"
    return moves


# each screen plays its own deal (a tier each): the statistics are of this module's plays
SCREENS = [(PHONE, "easy"), (LANDSCAPE, "hard"), (DESKTOP, "expert")]


@pytest.mark.parametrize(("viewport", "tier"), SCREENS, ids=["phone", "landscape", "desktop"])
def test_the_result_card_is_in_view_with_the_game_s_figures(
    browser: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]],
    viewport: dict[str, int], tier: str,
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(f"({EVENTS_JS})()")
    id_ = today_id(days, "gaps", tier)
    player = open_player(page, f"{site}/play/{id_}", "gaps")
    page.mouse.wheel(0, 2000)  # scrolled away from the board: the card still comes into view
    moves = solutions["gaps"]
    player.type_moves(moves)
    card = player.host.locator("[data-result-card]")
    expect(card).to_be_visible()
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified by the server")
    expect(player.host.locator("[data-stats]")).to_contain_text("won")
    in_view(page, card)
    expect(card.locator('[data-tile="moves"]')).to_contain_text(str(len(moves)))
    expect(card.locator('[data-tile="hints"]')).to_have_text("0")
    expect(card.locator('[data-tile="streak"]')).to_have_text("1")
    shot(page, f"result-card-{'x'.join(map(str, viewport.values()))}")
    # one dailydeal-result for the play, after the server's verdict, with the result
    page.wait_for_function("() => window.results.length > 0")
    page.wait_for_timeout(300)
    results = page.evaluate("window.results")
    assert len(results) == 1 and results[0]["result"]["won"] is True
    # dismissible, and offered again from the controls
    card.locator('[data-action="close-result"]').click()
    expect(card).to_be_hidden()
    player.host.locator('[data-action="show-result"]').click()
    expect(card).to_be_visible()
    context.close()


def test_share_uses_the_system_sheet_with_the_text_and_the_link(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    page.add_init_script(f"({SHARE_JS})()")
    id_ = today_id(days, "pyramid", "medium")
    player = open_player(page, f"{site}/play/{id_}", "pyramid")
    player.type_moves(solutions["pyramid"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    player.host.locator('[data-action="share"]').click()
    page.wait_for_function("() => window.shared.length === 1")
    data = page.evaluate("window.shared[0]")
    # the link is the signed win's page (its solve), as the card's a[data-solve-link]
    solve = player.host.locator("a[data-solve-link]").get_attribute("href")
    assert re.fullmatch(rf"{re.escape(site)}/s/[A-Za-z0-9_-]{{16}}", data["url"]), data["url"]
    assert data["url"] == solve
    assert f"{len(solutions['pyramid'])} moves" in data["text"] and site not in data["text"]


def test_replay_steps_through_the_line_with_the_keys(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "accordion", "hard")
    player = open_player(page, f"{site}/play/{id_}", "accordion")
    player.type_moves(solutions["accordion"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    n = player.moves()
    # today's date is open: the solver's line is kept back (no spoiler)
    expect(player.host.locator('[data-action="replay-par"]')).to_be_hidden()
    player.host.locator('[data-action="replay"]').click()
    bar = player.host.locator("[data-replay]")
    expect(bar).to_be_visible()
    expect(player.host).to_have_attribute("data-moves", "0")
    page.keyboard.press("ArrowRight")
    expect(player.host).to_have_attribute("data-moves", "1")
    expect(player.host.locator("[data-card]")).to_have_count(1)  # one card dealt
    page.keyboard.press("End")
    expect(player.host).to_have_attribute("data-moves", str(n))
    expect(player.host.locator("[data-card]")).to_have_count(1)  # won: one pile
    page.keyboard.press("Home")
    expect(player.host).to_have_attribute("data-moves", "0")
    bar.locator("[data-replay-scrub]").fill("5")
    expect(player.host).to_have_attribute("data-moves", "5")
    bar.locator('[data-action="replay-exit"]').click()
    expect(bar).to_be_hidden()
    expect(player.host).to_have_attribute("data-moves", str(n))
    assert player.state() == "won"


def test_a_lost_game_gets_its_card_and_undo_plays_on(page: Any, site: str) -> None:
    from playwright.sync_api import expect

    seed = 7
    moves = lost_line(seed)
    player = open_player(page, f"{site}/play/gaps/{seed}?variant=redeals%3D0", "gaps")
    player.type_moves(moves)
    card = player.host.locator("[data-result-card]")
    expect(card).to_be_visible()
    expect(player.host.locator("[data-result-title]")).to_have_text("No moves left")
    expect(card.locator('[data-action="review"]')).to_be_visible()
    in_view(page, card)
    card.locator('[data-action="close-result"]').click()
    player.host.locator("[data-undo]").click()
    player.wait_moves(len(moves) - 1)
    expect(card).to_be_hidden()
    expect(player.host.locator('[data-action="show-result"]')).to_be_hidden()


def test_once_the_date_is_over_the_card_replays_the_solver_s_line(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """After a date is over everywhere its stored solution is public: the card offers it,
    and the replay bar steps through it from the deal."""
    from playwright.sync_api import expect

    from dailydeal.daily.store import deal_id

    line = solutions["pyramid"]
    player = open_player(page, f"{site}/play/{deal_id(days['past'], 'pyramid', 'medium')}",
                         "pyramid")
    player.type_moves(line)
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified")
    button = player.host.locator('[data-action="replay-par"]')
    expect(button).to_be_visible()
    button.click()
    bar = player.host.locator("[data-replay]")
    expect(bar).to_be_visible()
    expect(player.host).to_have_attribute("data-moves", "0")
    page.keyboard.press("End")
    expect(player.host).to_have_attribute("data-moves", str(len(line)))
    expect(bar.locator("[data-replay-at]")).to_contain_text(f"{len(line)} / {len(line)}")
    assert player.host.locator(".pyr-row [data-card]").count() == 0  # the pyramid cleared


def test_the_review_names_the_move_that_lost_and_replays_the_winning_line(
    page: Any, site: str
) -> None:
    from playwright.sync_api import expect

    seed = 5  # Pyramid #5: this random line loses it at move 18, 5D+8D (the solver proves it)
    moves = lost_line(seed, "pyramid", None)
    player = open_player(page, f"{site}/play/pyramid/{seed}", "pyramid")
    player.type_moves(moves)
    card = player.host.locator("[data-result-card]")
    card.locator('[data-action="review"]').click()
    review = player.host.locator("[data-review]")
    expect(review).to_have_attribute("data-outcome", "lost", timeout=30_000)
    # one verdict hook: the review's verdict is not another [data-verdict]
    expect(player.host.locator("[data-verdict]")).to_have_count(1)
    index = int(review.get_attribute("data-index") or "-1")
    assert 0 <= index < len(moves)
    expect(review).to_contain_text(f"Move {index + 1}, {moves[index]}: no win was left after it.")
    line = (review.get_attribute("data-line") or "").split()
    game = new_game("pyramid", seed)  # the line wins from the position kept
    for move in [*moves[:index], *line]:
        game.push(game.parse_move(move))
    assert game.status() == "won"
    review.locator('[data-action="review-line"]').click()
    expect(player.host.locator("[data-replay]")).to_be_visible()
    expect(player.host).to_have_attribute("data-moves", str(index))
    page.keyboard.press("End")
    expect(player.host).to_have_attribute("data-moves", str(index + len(line)))


def test_a_win_whose_turn_is_later_is_posted_once_and_counted_by_the_server(
    browser: Any, tmp_path: Any, deal_rows: list[dict[str, Any]], days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    """Issue 38: a win refused for now was "counts in 24 seconds", the page posting again
    until then (a player who left was never counted). Now it is posted once, the server
    takes it and counts it at its turn, and the statistics line holds the play at once,
    with when it counts for everybody (here: this address's turn is taken, an hour a turn)."""
    import json
    import urllib.request

    from playwright.sync_api import expect

    current = dt.datetime.now(dt.UTC).replace(microsecond=0)
    with serve_deals(tmp_path / "turns.db", deal_rows, current,
                     counted_rate_limit="1 per hour") as site:
        id_ = today_id(days, "pyramid", "easy")

        def call(path: str, body: dict[str, Any] | None = None) -> Any:
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(f"{site}/api/v1/deals/{id_}/{path}", data=data,
                                         method="POST",
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())

        _, begun = call("plays")
        status, _ = call("results", {"client": "colleague-0000000000", "moves": ["d"],
                                     "play": begun["play"]})
        assert status == 201  # this address's turn, taken by a colleague
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        page.set_default_timeout(10_000)
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url)
                if r.method == "POST" and r.url.endswith("/results") else None)
        player = open_player(page, f"{site}/play/{id_}", "pyramid")
        player.type_moves(solutions["pyramid"])
        stats = player.host.locator("[data-stats]")
        expect(stats).to_contain_text("counts for everybody at")
        expect(stats).to_contain_text("2 players, 50% won")
        assert "counts in" not in stats.inner_text()
        page.wait_for_timeout(1500)
        assert len(posts) == 1, posts  # posted once: the server counts it, no retries
        context.close()
        # everybody's statistics: without it until its turn
        with urllib.request.urlopen(f"{site}/api/v1/deals/{id_}/stats", timeout=10) as resp:
            shown = json.loads(resp.read())
        assert (shown["plays"], shown["pending"]) == (1, 1)
