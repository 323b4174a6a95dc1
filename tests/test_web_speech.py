"""A game a screen reader can play (issue 40, item 4): each game won with the keyboard
alone (Tab and Shift+Tab to a place, Enter to pick it or play it, the element's keys),
reading only what a screen reader reads: the accessibility tree (Playwright's
``aria_snapshot`` of the element; the focused node from Chromium's own accessibility tree)
and the live regions. After every move the live region says it in words with what it left,
the board's structure shows it, and focus is still in the element; ``W`` says what can be
done now, an undo says what it undid, and the end moves focus to the result. Once in
English, and once in Spanish (``lang="es"`` on the element: every word of it, what is said
and the board's names, is the Spanish catalog's).

The shares text's plain option (item 5): no emoji, every meaning in words.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import SKIP, WAIT_JS, Player, today_id

LOCALES = Path(__file__).resolve().parents[1] / "dailydeal" / "web" / "static" / "locales"
CATALOG = {lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
           for lang in ("en", "es")}

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

PIPS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
         "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
         "K": "king"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANGOS = {"A": "as", "2": "dos", "3": "tres", "4": "cuatro", "5": "cinco", "6": "seis",
          "7": "siete", "8": "ocho", "9": "nueve", "T": "diez", "J": "jota", "Q": "reina",
          "K": "rey"}
PALOS = {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}
# what each language says first for a move (the test's own copy of a few words of speech.js)
SAID = {
    "en": {
        "pair": "{A} and {b} removed.", "king": "{A} removed.", "pile": "{A} put on the {b}.",
        "gap": "{A} moved to row ", "two": "{A} moved to row {row}, column 1.",
        "draw": "Drew the ", "deal": "Dealt the ", "recycle": "The waste is turned over",
        "redeal": "Redeal: ", "undone": "Undone: ", "won": "Won in {n} moves!",
        "now": r"^(\d+ moves?|No move on the table)",
    },
    "es": {
        "pair": "Fuera: {a} y {b}.", "king": "Fuera: {a}.", "pile": "{A} pasa sobre {b}.",
        "gap": "{A} pasa a la fila ", "two": "{A} pasa a la fila {row}, columna 1.",
        "draw": "Carta robada: ", "deal": "Carta repartida: ", "recycle": "El descarte vuelve",
        "redeal": "Nuevo reparto: ", "undone": "Deshecho: ", "won": "¡Ganada en {n} jugadas!",
        "now": r"^(\d+ jugadas?|Ninguna jugada en la mesa)",
    },
}
GRID = re.compile(r"row (\d), column (\d+)")
# The element focused in the DOM, through the shadow root of the focused <daily-deal>
DEEP_FOCUS = """(() => {
  let at = document.activeElement;
  if (!at || at.localName !== "daily-deal") return null;
  while (at.shadowRoot && at.shadowRoot.activeElement) at = at.shadowRoot.activeElement;
  return at;
})()"""
NODE = re.compile(r'^(\w+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)$')


def words(card: str, lang: str) -> str:
    if lang == "es":
        return f"{RANGOS[card[0]]} de {PALOS[card[1]]}"
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def shown(card: str, lang: str = "en") -> str:
    """The start of a card's accessible name: what it shows ("10♥ ten of hearts")."""
    return f"{'10' if card[0] == 'T' else card[0]}{PIPS[card[1]]} {words(card, lang)}"


def name_start(lang: str, key: str) -> str:
    """The words of a catalog message before its first placeholder ("Stock, " of "Stock, {n}
    cards: deal one"): how a place's accessible name starts."""
    message = CATALOG[lang][key]
    text = message["other"] if isinstance(message, dict) else message
    return text.split("{")[0]


def board_name(lang: str) -> re.Pattern[str]:
    """The board's accessible name in ``lang`` (el.board_label): its state and move count."""
    text = CATALOG[lang]["el.board_label"]["other"]
    text = text[: text.index("{n}") + 3]  # the same in the singular ("1 move") and the plural
    hole = {"game": r"[^,]+?", "state": r"(?P<state>[^,]+?)", "n": r"(?P<n>\d+)"}
    return re.compile(re.sub(r"\\\{(\w+)\\\}", lambda m: hole[m.group(1)], re.escape(text)))


def unquote(text: str) -> str:
    """A YAML scalar of an aria snapshot: plain, 'single' or "double" quoted."""
    text = text.strip()
    if text.startswith('"'):
        return str(json.loads(text))
    if text.startswith("'"):
        return text[1:-1].replace("''", "'")
    return text


def node(line: str) -> tuple[str, str, str, str] | None:
    """(role, name, [attributes], text) of an aria snapshot's line ``- role "name" [x]: text``
    (YAML: the key or the text quoted where they hold a colon)."""
    item = line.strip()
    if not item.startswith("- "):
        return None
    item = item[2:]
    if item[:1] in ("'", '"'):  # a quoted key: its end is the quote followed by ":" or the end
        quote = item[0]
        end = 1
        while end < len(item):
            if item[end] == quote and (quote == '"' and item[end - 1] != "\\" or quote == "'"):
                if quote == "'" and item[end + 1 : end + 2] == "'":
                    end += 2
                    continue
                break
            end += 1
        key, rest = unquote(item[: end + 1]), item[end + 1 :]
    else:
        key, _, rest = item.partition(": ")
        rest = f": {rest}" if _ else ""
        key = key.rstrip(":")
    found = NODE.match(key)
    if not found:
        return None
    role, name, attrs = found.group(1), found.group(2) or "", found.group(3)
    name = str(json.loads(f'"{name}"'))
    text = unquote(rest[1:]) if rest.startswith(":") else ""
    return role, name, attrs, text.replace("\u00a0", " ").strip()


class Listener:
    """A screen reader's view of a ``<daily-deal>``: the accessibility tree and keys only."""

    def __init__(self, page: Any, game: str, lang: str = "en") -> None:
        self.page = page
        self.game = game
        self.lang = lang
        self.host = page.locator("daily-deal")
        self.cdp = page.context.new_cdp_session(page)
        self.role, self.at = "", ""  # the focused node, as the accessibility tree said last
        self.root: int | None = None
        self.seen: str | None = None  # the element's aria snapshot, until a key or a wait

    # --- reading: the accessibility tree -----------------------------------------------
    def tree(self) -> str:
        """The element's aria snapshot, read once for each state of the page: again after a
        key or a wait (``forget``). (Read afresh by every question, six a move, it was half of
        the time of these tests.)"""
        if self.seen is None:
            self.seen = self.host.aria_snapshot()
        return self.seen

    def forget(self) -> None:
        self.seen = None

    def board_tree(self) -> str:
        """The board's part of the element's snapshot: what the board's own snapshot reads
        (the board's node, then the lines indented under it)."""
        lines = self.tree().splitlines()
        for i, line in enumerate(lines):
            found = node(line)
            if found and found[0] == "group" and board_name(self.lang).search(found[1]):
                depth = len(line) - len(line.lstrip())
                part = [line[depth:]]
                for more in lines[i + 1 :]:
                    if len(more) - len(more.lstrip()) <= depth:
                        break
                    part.append(more[depth:])
                return "\n".join(part)
        raise AssertionError(f"no board in the element's tree: {self.tree()[:300]}")

    def board(self) -> Any:
        # the pattern without its group names (Playwright hands it to the browser's RegExp)
        name = re.sub(r"\?P<\w+>", "", board_name(self.lang).pattern)
        return self.host.get_by_role("group", name=re.compile(name))

    def board_name(self) -> tuple[str, int]:
        """The board's state ("in progress", "won", "lost") and move count, from its
        accessible name."""
        snap = self.board_tree()
        found = board_name(self.lang).search(snap.splitlines()[0])
        assert found, snap[:200]
        states = {CATALOG[self.lang][f"el.state.{k}"]: k for k in ("in progress", "won", "lost")}
        return states[found.group("state")], int(found.group("n"))

    def places(self) -> list[str]:
        """The names of the board's places, in order (Tab's order), the disabled left out."""
        nodes = [node(line) for line in self.board_tree().splitlines()]
        return [n[1] for n in nodes if n and n[0] == "button" and "[disabled]" not in n[2]]

    def statuses(self) -> dict[str, str]:
        """The live regions (role status) by name: their text."""
        out = {}
        for line in self.tree().splitlines():
            found = node(line)
            if found and found[0] == "status":
                out[found[1]] = found[3]
        return out

    def said(self) -> str:
        """The element's announcement of the last action."""
        return self.statuses().get(CATALOG[self.lang]["el.speech"], "")

    def message(self) -> str:
        """The message line (what can be done now, a reason, news)."""
        return self.statuses().get("", "")

    def focused(self) -> tuple[str, str]:
        """(role, name) of the focused node of Chromium's accessibility tree, in the
        element's part of it (("", "") when focus is elsewhere). First the node of the element
        focused in the DOM (through the shadow root), asked for alone; the whole subtree only
        if Chromium does not say that one is focused (asked for every time, the subtree took
        40 ms a move)."""
        active = self.cdp.send("Runtime.evaluate", {"expression": DEEP_FOCUS})["result"]
        if "objectId" not in active:
            return "", ""
        partial = self.cdp.send("Accessibility.getPartialAXTree",
                                {"objectId": active["objectId"], "fetchRelatives": False})
        for node in partial["nodes"]:
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if props.get("focused") and node["role"]["value"] != "RootWebArea":
                return node["role"]["value"], node.get("name", {}).get("value", "")
        if self.root is None:  # the element's node: where its accessibility subtree starts
            doc = self.cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            found = self.cdp.send("DOM.querySelector", {"nodeId": doc, "selector": "daily-deal"})
            self.root = found["nodeId"]
        for node in self.cdp.send("Accessibility.queryAXTree", {"nodeId": self.root})["nodes"]:
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if props.get("focused") and node["role"]["value"] != "RootWebArea":
                return node["role"]["value"], node.get("name", {}).get("value", "")
        return "", ""

    # --- acting: keys -------------------------------------------------------------------
    def focus(self, start: str) -> None:
        """Move focus to the board's place whose name starts with ``start``: in Gaps's grid
        by the arrow keys (a row, then a column), elsewhere by Tab or Shift+Tab. Where focus
        is (``self.at``) is what the accessibility tree said last."""
        places = self.places()
        target = next((i for i, n in enumerate(places) if n.startswith(start)), None)
        assert target is not None, f"no {start!r} on the board: {self.board_tree()}"
        for _ in range(80):  # into the board first (from the page, or from the result)
            if self.at in places:
                break
            self.page.keyboard.press("Tab")
            self.at = self.focused()[1]
        here, there = GRID.search(self.at), GRID.search(places[target])
        if here and there:  # a grid: arrows, as a screen reader's table keys would
            (r0, c0), (r1, c1) = ((int(x) for x in m.groups()) for m in (here, there))
            keys = ["ArrowDown" if r1 > r0 else "ArrowUp"] * abs(r1 - r0)
            keys += ["ArrowRight" if c1 > c0 else "ArrowLeft"] * abs(c1 - c0)
        else:
            steps = target - places.index(self.at)
            keys = ["Tab" if steps > 0 else "Shift+Tab"] * abs(steps)
        for key in keys:
            self.page.keyboard.press(key)
        self.forget()
        self.at = places[target]

    def key(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.forget()

    def press_on(self, start: str) -> None:
        self.focus(start)
        self.key("Enter")

    def wait_moves(self, more_than: int) -> tuple[str, int]:
        """Wait until the board has more than ``more_than`` moves (or is won) and is still
        (no forced ending under way: the element may play one by itself); then read the
        board and where focus is (``self.role``, ``self.at``). The wait is on the element's
        data-* hooks, inside the page (helpers' WAIT_JS, one round trip: a poll of the tree
        every 10 ms and a second reading 20 ms later to see it still were a third of these
        tests' time); what is checked is read from the accessibility tree, which must agree."""
        hooks = self.host.evaluate(WAIT_JS, [more_than, None, 10_000])
        if hooks.get("timeout"):
            raise AssertionError(f"no move after {more_than}; message: {self.message()!r}")
        self.forget()
        state, n = self.board_name()
        assert (state, n) == (hooks["state"], hooks["moves"]), (state, n, hooks)
        self.role, self.at = self.focused()
        return state, n


def places_of(move: str, game: str, lang: str = "en") -> tuple[str, list[str]]:
    """A move of the notation: its kind and the places to press, by accessible name."""
    if move == "d":
        return ("deal" if game == "accordion" else "draw"), [name_start(lang, "board.stock_deal")]
    if move == "r":
        return "recycle", [CATALOG[lang]["board.recycle_label"]]
    if move == "R":
        return "redeal", [name_start(lang, "board.redeal_label")]
    if ">" in move:
        a, b = move.split(">")
        return "pile", [shown(a, lang), shown(b, lang)]
    if "+" in move:
        a, b = move.split("+")
        return "pair", [shown(a, lang), shown(b, lang)]
    if "@" in move:
        two, row = move.split("@")
        return "two", [f"Gap, row {row}, column 1,", shown(two, lang)]
    return ("king" if game == "pyramid" else "gap"), [shown(move, lang)]


def expected(kind: str, move: str, lang: str) -> str:
    cards = re.findall(r"[2-9TJQKA][SHDC]", move)
    a = words(cards[0], lang) if cards else ""
    b = words(cards[1], lang) if len(cards) > 1 else ""
    row = move.split("@")[1] if "@" in move else ""
    return SAID[lang][kind].format(A=a[:1].upper() + a[1:], a=a, b=b, row=row)


def play_by_keys(page: Any, site: str, days: dict[str, dt.date], game: str,
                 solution: list[str], lang: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{site}/play/{today_id(days, game)}")
    listener = Listener(page, game)
    expect(listener.board()).to_be_visible()  # the deal is in: the board says its state
    if lang != "en":  # the embedder's language (the page's, or the element's own)
        listener.host.evaluate(f"e => e.setAttribute('lang', '{lang}')")
        listener.lang = lang
        expect(listener.board()).to_be_visible()  # every word of the element in it
    names = listener.places()
    assert names, "no place on the board"
    # what can be done now, in words: the message line (a live region) says it
    listener.focus(names[0])
    listener.key("w")
    assert re.match(SAID[lang]["now"], listener.message()), listener.message()
    played = 0
    undone = False
    for move in solution:
        state, played = listener.board_name()
        if state == "won":
            break
        if game == "accordion" and ">" in move:  # deals the line leaves out
            while not any(n.startswith(shown(move.split(">")[0], lang)) for n in listener.places()):
                listener.press_on(name_start(lang, "board.stock_deal"))
                _, played = listener.wait_moves(played)
        kind, presses = places_of(move, game, lang)
        for start in presses:
            listener.press_on(start)
        state, now = listener.wait_moves(played)
        said = listener.said()
        if now == played + 1:
            assert said.startswith(expected(kind, move, lang)), (move, said)
        board = listener.board_tree()
        if kind in ("pair", "king"):  # gone from the board
            for start in presses:
                assert start not in board, (move, start)
        if kind in ("gap", "two"):  # the card says where it is now
            assert re.search(re.escape(presses[-1]) + r", row \d, column \d+", board)
        # focus never lost: on a place of the board, or on the result at the end
        assert listener.role in ("button", "heading"), (move, listener.role, listener.at)
        if not undone and now == played + 1 and state == "in progress":
            listener.key("u")  # undo says what it undid, then the move again
            listener.wait_moves(-1)
            assert listener.said().startswith(SAID[lang]["undone"]), listener.said()
            assert listener.role == "button", (listener.role, listener.at)
            for start in presses:
                listener.press_on(start)
            state, now = listener.wait_moves(played)
            undone = True
        if state == "won":
            break
    while listener.board_name()[0] == "in progress" and game == "accordion":
        # the deals a line leaves out at the end
        listener.press_on(name_start(lang, "board.stock_deal"))
        listener.wait_moves(listener.board_name()[1])
    listener.forget()  # the end as it is now (the result may come after the last move)
    state, n = listener.board_name()
    assert state == "won"
    assert SAID[lang]["won"].format(n=n) in listener.said()
    # the end: focus on the result's title, which says it
    assert listener.role == "heading" and listener.at, (listener.role, listener.at)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["accordion", "pyramid", "gaps"])
def test_each_game_is_won_by_keys_alone_reading_the_accessibility_tree(
    browser: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]],
    game: str,
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    try:
        play_by_keys(context.new_page(), site, days, game, solutions[game], "en")
    finally:
        context.close()


@pytest.mark.slow
def test_a_game_is_said_in_spanish_when_the_element_is(
    browser: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    try:
        play_by_keys(context.new_page(), site, days, "pyramid", solutions["pyramid"], "es")
    finally:
        context.close()


def test_the_share_text_has_a_plain_option_without_emoji(
    page: Any, site: str, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    from playwright.sync_api import expect

    id_ = today_id(days, "pyramid")
    page.goto(f"{site}/play/{id_}")
    player = Player(page, "pyramid")
    player.wait_moves(0)
    player.type_moves(solutions["pyramid"])
    share = player.host.locator("[data-share]")
    expect(share).to_have_value(re.compile("✅ Won in"))
    assert "Medium" in share.input_value()  # the tier in a word (the catalog's) beside its colour
    plain = player.host.locator('[data-option="plain"]')
    expect(plain).to_have_attribute("aria-pressed", "false")
    plain.click()
    expect(plain).to_have_attribute("aria-pressed", "true")
    expect(share).to_have_value(re.compile(r"^Won in \d+ moves", re.M))
    text = share.input_value()
    assert not re.search(r"[\u2600-\u27bf\U0001f000-\U0001faff]", text), text
    assert "Medium" in text and text.splitlines()[-1].startswith("http")  # the link
    # remembered: the next win's share text is plain too
    assert json.loads(page.evaluate("localStorage.getItem('dailydeal.v1.options')"))["plain"]
