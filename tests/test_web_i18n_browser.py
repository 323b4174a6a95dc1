"""Languages in the browser: every visible text and label of every page and of the element's
states comes from a catalog, and a longer language keeps the layout at 390 px.

The pages are shown in the pseudo-locale ``en-XA`` (English accented, a third longer, in
``⟦ ⟧``: dailydeal/web/i18n.py, static/i18n.js), so a text that did not come from a catalog
is the one without the brackets. Allowed without them: text with no letter (numbers, card
pips, ⏱ 1:05), the ranks and notation of the cards (``7H``, ``K``, ``d``), and what is
marked as not to be translated (``translate="no"``: the brand, the languages' own names),
or written by the locale itself (``<time>``: dates through Babel / Intl), code and notation
(``<code>``, ``<kbd>``, ``<pre>``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from helpers.browser import SKIP, WATCHES, open_player, today_id

from dailydeal.web.i18n import CATALOG_DIR as CATALOGS

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# Every visible text node and label (aria-label, title, placeholder, alt) of the document
# and of every open shadow root in it without a catalog's mark: [where, text] pairs.
UNMARKED = r"""() => {
  const SKIP = "script, style, time, code, kbd, pre, textarea, [translate=no]";
  const NOTATION = /\b(?:[2-9TJQKA][SHDC](?:[+>@][\w]+)?|[2-9TJQKA]|[dRr]|\d+|dailydeal)\b/g;
  const plain = (text) => /⟦|⟧/.test(text) || !/\p{L}/u.test(text.replace(NOTATION, ""));
  const out = [];
  const visible = (el) => el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.closest(SKIP) || !visible(el)) continue;
      for (const node of el.childNodes) {
        if (node.nodeType === 3 && node.textContent.trim() && !plain(node.textContent)) {
          out.push([el.tagName + "." + el.className, node.textContent.trim()]);
        }
      }
      for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
        const v = el.getAttribute(attr);
        if (v && !plain(v)) out.push([`${el.tagName}[${attr}]`, v]);
      }
    }
  };
  walk(document);
  if (!/⟦/.test(document.title)) out.push(["title", document.title]);
  return out;
}"""

# What sticks out of a 390 px wide page: the page itself, and any box of the element's
OVERFLOW = r"""() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(["page", doc.scrollWidth]);
  const check = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) check(el.shadowRoot);
      if (!el.checkVisibility()) continue;
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > doc.clientWidth + 1 || r.left < -1)) {
        out.push([el.tagName + "." + el.className, Math.round(r.left), Math.round(r.right)]);
      }
    }
  };
  check(document);
  return out.slice(0, 10);
}"""


def unmarked(page: Any, where: str) -> list[str]:
    return [f"{where}: {tag}: {text!r}" for tag, text in page.evaluate(UNMARKED)]


def test_every_visible_text_comes_from_a_catalog(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    found: list[str] = []
    page.goto(f"{site}/?lang=en-XA")
    page.wait_for_selector("a.tier-link")
    page.evaluate("for (const d of document.querySelectorAll('[data-archive] details'))"
                  " d.open = true")
    found += unmarked(page, "/")
    for game in ("accordion", "pyramid", "gaps"):
        id_ = today_id(days, game)
        player = open_player(page, f"{site}/play/{id_}?lang=en-XA", game)
        found += unmarked(page, f"{game}: new")
        player.play_all(solutions[game][:4], finish=False)
        player.click(player.clicks(solutions[game][4])[0])  # a card picked up
        found += unmarked(page, f"{game}: under way")
        if game == "pyramid":
            player.host.locator('[data-action="hint"]').click()
            expect(player.host.locator("[data-msg]")).to_have_attribute("data-kind", "good",
                                                                        timeout=20_000)
            found += unmarked(page, f"{game}: hint")
            box = player.host.locator("input[name=moves]")  # a refused move: its reason
            for typed in ("QS+QH", "QS+QH+2C", "zz"):  # illegal, then unreadable: no English
                box.fill(typed)
                box.press("Enter")
                expect(player.host.locator("[data-msg]")).to_have_attribute("data-kind", "error")
                expect(player.host.locator("[data-msg]")).to_contain_text(typed)  # this one's
                expect(player.host.locator("[data-msg]")).to_contain_text("⟦")
                expect(player.host.locator("[data-msg]")).not_to_contain_text("cannot read")
                found += unmarked(page, f"{game}: refused {typed}")
        page.goto(f"{site}/embed/{id_}?lang=en-XA")
        page.wait_for_selector("daily-deal[data-state]", state="attached")
        found += unmarked(page, f"/embed {game}")
    id_ = today_id(days, "gaps", "easy")
    player = open_player(page, f"{site}/play/{id_}?lang=en-XA", "gaps")
    player.win(solutions["gaps"])
    expect(player.host.locator("[data-verdict]")).to_contain_text("⟦")
    found += unmarked(page, "won")
    solve = player.host.locator("a[data-solve-link]").get_attribute("href")  # the win's page
    page.goto(f"{solve}?lang=en-XA")
    page.locator("[data-solve] details").evaluate("(d) => (d.open = true)")
    expect(page.locator("[data-check][data-verified]")).to_be_attached()
    found += unmarked(page, "solve")
    WATCHES[id(page)].allow("status of 404")  # /play/nope
    for url in ("/offline?lang=en-XA", "/play/nope?lang=en-XA", "/play/gaps/1?lang=en-XA"):
        page.goto(site + url)
        page.wait_for_load_state()
        found += unmarked(page, url)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("locale", ["en-XA", "de", "ar"])
def test_a_longer_language_keeps_the_layout_at_390_px(
    page: Any, site: str, days: dict[str, dt.date], locale: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    found = []
    page.goto(f"{site}/?lang={locale}")
    page.wait_for_selector("a.tier-link")
    found += [("/", *o) for o in page.evaluate(OVERFLOW)]
    for game in ("accordion", "pyramid", "gaps"):
        open_player(page, f"{site}/play/{today_id(days, game)}?lang={locale}", game)
        found += [(game, *o) for o in page.evaluate(OVERFLOW)]
    assert found == []


def test_the_element_follows_its_lang_and_takes_an_embedders_words(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    from playwright.sync_api import expect

    arabic = json.loads((CATALOGS / "ar.json").read_text(encoding="utf-8"))
    player = open_player(page, f"{site}/play/{today_id(days, 'pyramid')}", "pyramid")
    hint = player.host.locator('[data-action="hint"]')
    expect(hint).to_have_text("💡 Hint")
    page.evaluate("document.querySelector('daily-deal').setAttribute('lang', 'ar')")
    expect(player.host.locator("[part=root]")).to_have_attribute("dir", "rtl")
    expect(hint).to_have_text(arabic["el.hint"])
    expect(player.host.locator(".table")).to_have_attribute("dir", "ltr")  # the cards
    # the board's structure is named in it too (board.js draws a section again whose
    # attributes changed: it patched its items and kept the English names)
    named = player.host.locator(".pyr-top")
    expect(named).to_have_attribute("aria-label", arabic["board.stock_waste"])
    row = arabic["board.row"].replace("{row}", "1")
    expect(player.host.locator(".pyr-row").first).to_have_attribute("aria-label", row)
    page.evaluate("""document.querySelector('daily-deal').strings = {"el.hint": "Clue"}""")
    expect(hint).to_have_text("Clue")
    # the attribute, as JSON (the property, once set, wins: it is dropped here)
    page.evaluate("""(() => { const dd = document.querySelector('daily-deal');
        dd.strings = null; dd.setAttribute('strings', '{"el.restart": "Again"}'); })()""")
    expect(player.host.locator("[data-restart]")).to_have_text("Again")
    expect(hint).to_have_text(arabic["el.hint"])


def test_a_game_over_is_said_again_in_the_language_the_element_changes_to(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """The result card and the share text of a finished game follow a later change of the
    element's lang: the title, the verdict, the statistics line and the share text."""
    from playwright.sync_api import expect

    german = json.loads((CATALOGS / "de.json").read_text(encoding="utf-8"))
    player = open_player(page, f"{site}/play/{today_id(days, 'gaps', 'easy')}", "gaps")
    player.win(solutions["gaps"])
    share = player.host.locator("[data-share]")
    expect(share).to_have_value(re.compile(r"Won in \d+ moves"))
    expect(player.host.locator("[data-verdict]")).to_contain_text("Verified by the server")
    stats = player.host.locator("[data-stats]")
    expect(stats).to_be_visible(timeout=20_000)
    said = stats.text_content() or ""
    assert said.strip()
    page.evaluate("document.querySelector('daily-deal').setAttribute('lang', 'de')")
    expect(share).to_have_value(re.compile(r"Gewonnen in \d+ Zügen"))
    text = share.input_value()
    assert f"{german['game.gaps']} · {german['tier.easy']}" in text and "Won in" not in text
    expect(player.host.locator("[data-verdict]")).to_contain_text("Vom Server geprüft")
    expect(player.host.locator("[data-result-title]")).to_contain_text("Gelöst in")
    expect(stats).not_to_have_text(said)  # the statistics line (or its note) in German too
    expect(player.host.locator("[data-fair]")).to_contain_text("Faires Spiel")  # and the note
    page.evaluate("document.querySelector('daily-deal').setAttribute('lang', 'en')")
    expect(share).to_have_value(re.compile(r"Won in \d+ moves"))


def test_an_english_page_fetches_the_element_and_no_other_languages_catalog(
    page: Any, site: str, days: dict[str, dt.date]
) -> None:
    """What tests/test_web_size.py counts is what the browser fetches: the element's
    modules and stylesheet, and the English catalog alone (others come on demand)."""
    from helpers.modules import graph

    for lang, catalog in (("", "en"), ("?lang=de", "de")):
        fetched: list[str] = []

        def record(req: Any, out: list[str] = fetched) -> None:
            out.append(req.url)

        page.on("request", record)
        player = open_player(page, f"{site}/embed/{today_id(days, 'pyramid')}{lang}", "pyramid")
        player.host.locator("[data-card]").first.wait_for()
        page.remove_listener("request", record)
        static = {u.split("/static/", 1)[1].split("?")[0] for u in fetched if "/static/" in u}
        assert {n for n in static if n.startswith("locales/")} == {f"locales/{catalog}.json"}
        if catalog == "en":  # (then from the browser's cache)
            assert set(graph()) <= static, set(graph()) - static
