"""The message catalogs (static/locales/*.json, the element's, and static/locales/pages/*.json,
the pages' own; dailydeal/web/i18n.py): every locale has English's keys with the same
placeholders and its CLDR plural categories; the element's catalog holds no page's words;
the pages follow ?lang= and Accept-Language; problems carry a stable code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dailydeal.games import SPECS
from dailydeal.web import i18n
from dailydeal.web.problems import CODES
from dailydeal.web.reasons import patterns, reason_code

PLACEHOLDER = re.compile(r"\{(\w+)\}")
ELEMENT = {p.stem: json.loads(p.read_text(encoding="utf-8"))
           for p in sorted(i18n.CATALOG_DIR.glob("*.json"))}
PAGES = {p.stem: json.loads(p.read_text(encoding="utf-8"))
         for p in sorted(i18n.PAGES_DIR.glob("*.json"))}
# the reasons for an illegal move by code: English's words are the rules' own (rules.js's
# REASONS), not repeated in en.json
REASONS = i18n.js_table("REASONS")
CATALOGS = {locale: {**cat, **PAGES[locale]} for locale, cat in ELEMENT.items()}
CATALOGS["en"].update(i18n.reasons())
EN = CATALOGS["en"]


def holes(message: Any) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_every_catalog_has_englishs_keys_placeholders_and_its_plural_forms(locale: str) -> None:
    cat = CATALOGS[locale]
    assert set(cat) == set(EN), set(cat) ^ set(EN)
    categories = i18n.plural_categories(locale)
    for key, message in EN.items():
        if key.startswith("@"):
            continue
        assert holes(cat[key]) == holes(message), (locale, key)
        if isinstance(message, dict):
            assert isinstance(cat[key], dict) and categories <= set(cat[key]), (locale, key)
        else:
            assert isinstance(cat[key], str), (locale, key)
    assert cat["@locale"]["dir"] == ("rtl" if locale == "ar" else "ltr")


def test_the_element_catalog_holds_no_pages_words() -> None:
    """Each locale has both files; a key is in one of them; the site's frame, the daily and
    play pages and the rules' long texts stay out of what the element fetches."""
    assert set(PAGES) == set(ELEMENT)
    for locale in ELEMENT:
        assert not set(PAGES[locale]) & set(ELEMENT[locale]), locale
        assert set(PAGES[locale]) == set(PAGES["en"]), locale
    prefixes = ("site.", "daily.", "play.", "manifest.", "error.", "offline.", "embed.")
    assert not [k for k in ELEMENT["en"] if k.startswith(prefixes)]
    assert not [k for k in ELEMENT["en"] if k.startswith("rules.") and k.endswith(".goal")]


def test_seven_locales_are_shipped_and_the_js_side_knows_them() -> None:
    assert i18n.locales() == ["en", "ar", "de", "es", "fr", "ja", "pt-BR"]
    js = (i18n.CATALOG_DIR.parent / "i18n.js").read_text(encoding="utf-8")
    assert f"export const LOCALES = {json.dumps(i18n.locales())};" in js


def test_the_english_catalog_says_what_the_game_specs_say() -> None:
    for game, spec in SPECS.items():
        for field in ("goal", "play", "notation", "score", "clicks", "score_name",
                      "score_title"):
            assert EN[f"rules.{game}.{field}"] == getattr(spec, field), (game, field)
        assert EN[f"rules.{game}.stuck"].startswith("{card} " + spec.stuck)
        assert EN[f"game.{game}"] == spec.title


def test_negotiation_plurals_and_the_pseudo_locale() -> None:
    assert i18n.negotiate("pt-br", None) == "pt-BR"
    assert i18n.negotiate(None, "fr-CA,fr;q=0.9,en;q=0.8") == "fr"
    assert i18n.negotiate(None, "xx, de;q=0.5, ja;q=0.7") == "ja"
    assert i18n.negotiate("nope", "en-XA") == "en"  # the pseudo-locale only by ?lang=
    assert i18n.negotiate("en-XA", None) == "en-XA"
    w = i18n.words("fr")
    assert w.t("share.moves", n=1) == "Gagné en 1 coup"
    assert w.t("share.moves", n=2) == "Gagné en 2 coups"
    assert i18n.words("ar").t("el.state.won") == "فوز" and i18n.words("ar").dir == "rtl"
    assert i18n.words("en-XA").t("el.undo").startswith("⟦")
    assert i18n.words("de").t("daily.par", n=1234) == "Par 1.234"


def test_pages_follow_the_language_and_the_api_lists_the_locales(client: Any) -> None:
    page = client.get("/offline", headers={"Accept-Language": "ar,en;q=0.5"})
    html = page.get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in html and "دون اتصال" in html
    assert page.headers["Content-Language"] == "ar" and "Accept-Language" in page.headers["Vary"]
    html = client.get("/offline?lang=ja").get_data(as_text=True)
    assert 'lang="ja"' in html and 'href="/?lang=ja"' in html  # the choice stays on the links
    manifest = client.get("/manifest.webmanifest?lang=de").get_json()
    assert manifest["lang"] == "de" and manifest["name"].startswith("dailydeal — die")
    assert client.get("/api/v1/").get_json()["locales"] == i18n.locales()


def test_problems_carry_a_stable_code(client: Any) -> None:
    body = client.get("/api/v1/deals/nope").get_json()
    assert body["code"] == "deal_not_found" and body["code"] in CODES
    assert client.get("/api/v1/games/solitaire").get_json()["code"] == "unknown_game"
    assert client.get("/api/v1/nowhere").get_json()["code"] == "not_found"
    for code in CODES:  # the element has words for each
        assert code in ("method_not_allowed", "too_large", "unsupported_media_type", "timeout",
                        "conflict", "not_implemented") or f"problem.{code}" in EN, code


def test_every_key_the_element_says_is_in_its_own_catalog() -> None:
    """A key written in the element's modules (``w.t("el.undo")``, ``t(`tier.${...}`)``) is
    in dailydeal/web/static/locales/en.json, the file the element fetches (not the pages')."""
    from dailydeal.web.pages import load_assets, module_graph

    files = {n: a.body for n, a in load_assets().items()}
    text = b"".join(files[n] for n in module_graph(files)).decode()
    literal = set(re.findall(r"""\bt\(["']([a-z_]+\.[\w. ]+)["']""", text))
    dynamic = set(re.findall(r"\bt\(`([a-z_]+\.)\$\{[^}]*\}`", text))
    assert literal and dynamic
    assert not literal - set(ELEMENT["en"]), literal - set(ELEMENT["en"])
    english = {**ELEMENT["en"], **i18n.reasons()}
    for prefix in dynamic:
        assert any(k.startswith(prefix) for k in english), prefix
    assert not [n for n in load_assets() if n.startswith("locales/pages/")]  # server only


def test_every_reason_the_server_gives_has_a_code_the_catalogs_translate() -> None:
    """Each reason of the vectors for a move refused, illegal or unreadable (the Python
    engines' words, which rules.js says too), is one of rules.js's REASONS, found by
    exactly one code (reasons.py: the API's error.code), so the element shows it by its
    code in the player's language (reason.<code>); every catalog but English's has each
    code."""
    vectors = json.loads((Path(__file__).parent / "js" / "vectors.json").read_text())
    said: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, list):
            if len(x) == 2 and x[0] in ("illegal", "invalid") and isinstance(x[1], str):
                said.add(x[1])
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)

    walk(vectors)
    assert len(said) > 100 and len(REASONS) >= 40
    for text in said:  # one code each, whose words with its params are the reason again
        code, params = reason_code(text)
        assert code is not None, text
        assert REASONS[code].format(**params) == text
        assert [c for c, p in patterns() if p.fullmatch(text)] == [code], text
    for locale, cat in ELEMENT.items():
        assert locale == "en" or {f"reason.{c}" for c in REASONS} <= set(cat), locale
    assert not [k for k in ELEMENT["en"] if k.startswith("reason.")]  # rules.js's
    # a move in words (a hint's, the screen reader's) is the catalogs' say.do.<kind>, in each
    kinds = {"deal", "pile", "draw", "recycle", "pair", "king", "gap", "two", "redeal"}
    assert {k for k in ELEMENT["en"] if k.startswith("say.do.")} == {f"say.do.{k}" for k in kinds}


def test_the_daily_page_gives_its_script_the_pages_words_it_says(client: Any) -> None:
    """daily.js says a few of the pages' words (a streak, a solved deal): the page holds them,
    plural forms kept, since the browser never fetches static/locales/pages/."""
    import html as htmllib

    page = client.get("/?lang=fr").get_data(as_text=True)
    found = re.search(r"data-page-words='([^']*)'", page)
    assert found
    said = json.loads(htmllib.unescape(found.group(1)))
    assert said["site.streak"] == PAGES["fr"]["site.streak"] and "daily.solved_in" in said
    assert "site.streak" not in ELEMENT["fr"]


def test_pages_preload_only_the_element_catalog_and_the_pseudo_one_is_served(
    client: Any,
) -> None:
    page = client.get("/offline?lang=fr").get_data(as_text=True)
    preloads = re.findall(r'<link rel="preload" href="([^"]*locales[^"]*)"', page)
    assert preloads == ["/static/locales/fr.json"], preloads
    assert client.get("/static/locales/pages/fr.json").status_code == 404
    pseudo = client.get("/static/locales/en-XA.json").get_json()
    assert pseudo["el.undo"].startswith("⟦") and pseudo["reason.not_13"].startswith("⟦")
    assert "site.title" not in pseudo  # the element's words only
    served = client.get("/static/locales/en.json")
    assert served.get_json() == ELEMENT["en"] and b"\n" not in served.data


def test_the_docs_say_how_many_messages_each_language_has() -> None:
    text = " ".join((Path(__file__).parents[1] / "docs" / "embedding.md").read_text().split())
    element = len([k for k in ELEMENT["en"] if not k.startswith("@")])
    pages = len([k for k in PAGES["en"] if not k.startswith("@")])
    said = (f"{element + len(REASONS) + pages} messages in each, {element + len(REASONS)} of"
            f" them the element's ({element} in its catalog, {len(REASONS)} reasons why a move"
            f" is refused) and {pages} the service's own pages'")
    assert said in text
