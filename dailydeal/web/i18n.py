"""The player's language: message catalogs, plural rules, dates and numbers.

One format for both sides, two catalogs per locale: ``static/locales/{locale}.json``, the
element's words (the file the ``<daily-deal>`` element fetches, ``static/i18n.js``, and the
pages use too), and ``static/locales/pages/{locale}.json``, the words only the service's own
pages say (the site's frame, the daily and play pages, the rules' long texts, the manifest):
read here only, never served, so an embedder's page downloads none of them. A message is a
string with ``{name}`` placeholders, or an object keyed by CLDR plural category (``one``,
``other``, ... as the locale has them) chosen by the parameter ``n``. The catalog's
``@locale`` member says its name, its direction (``ltr``/``rtl``) and whether a native
speaker reviewed it.

The pages' language follows ``?lang=`` (kept on the links of that page), else the
``Accept-Language`` header, else English. ``en-XA`` is a pseudo-locale made from English at
load (accented, about a third longer, in ``⟦ ⟧``): the browser tests show every page in it
and fail on any text that did not come from a catalog. Plural categories, dates and numbers
come from Babel (CLDR), as ``Intl`` gives them in the browser.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal
from markupsafe import Markup, escape

CATALOG_DIR = Path(__file__).parent / "static" / "locales"
PAGES_DIR = CATALOG_DIR / "pages"  # the pages' own words (not served: pages.load_assets)
DEFAULT = "en"
PSEUDO = "en-XA"  # made from English at load, never negotiated from a header
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# the pseudo-locale: accented letters, ⟦brackets⟧, a third longer (as German or French can be)
_ACCENTS = str.maketrans(
    "abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ",
    "áƀçđéĝĥíķĺñöŕšţüýžÅƁÇĐÉĜĤÍĶĹÑÖŘŠŢÜÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: its letters accented (placeholders kept), lengthened
    by about 35 %, in ``⟦ ⟧`` (the browser tests look for these)."""
    parts = PLACEHOLDER.split(text)
    # split() alternates text and placeholder names
    out = "".join(p.translate(_ACCENTS) if i % 2 == 0 else "{" + p + "}"
                  for i, p in enumerate(parts))
    return "⟦" + out + "·" * max(1, round(len(text) * 0.35)) + "⟧"


Message = str | dict[str, str]
PSEUDO_META = {"name": "Pseudo (English)", "dir": "ltr", "reviewed": True}


def js_table(name: str) -> dict[str, str]:
    """A table of English words of rules.js (``export const NAME = {key: "text", ...};``)."""
    script = (CATALOG_DIR.parent / "rules.js").read_text(encoding="utf-8")
    block = re.search(rf"export const {name} = \{{\n(.*?)\n\}};", script, re.S)
    if block is None:
        raise RuntimeError(f"rules.js has no {name} table")
    found = re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', block.group(1))
    return {key: json.loads(f'"{text}"') for key, text in found}


@cache
def reasons() -> dict[str, str]:
    """English's words that are the rules' own, which en.json does not repeat: the reasons
    for an illegal move (``reason.<code>``: rules.js's ``REASONS``, the server's words)."""
    return {f"reason.{k}": v for k, v in js_table("REASONS").items()}


def pseudo_catalog(english: dict[str, Any]) -> dict[str, Any]:
    """The pseudo-locale's catalog made from English's."""
    out: dict[str, Any] = {
        key: pseudo(value) if isinstance(value, str) else {k: pseudo(v) for k, v in value.items()}
        for key, value in english.items() if not key.startswith("@")
    }
    return {"@locale": PSEUDO_META, **out}


def _read(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


@cache
def element_catalog(locale: str) -> dict[str, Any]:
    """The catalog the element fetches, ``static/locales/{locale}.json``; the pseudo-locale's
    is made here from English's and its reasons (pages.load_assets serves it)."""
    if locale == PSEUDO:
        return pseudo_catalog({**element_catalog(DEFAULT), **reasons()})
    return _read(CATALOG_DIR / f"{locale}.json")


@cache
def catalogs() -> dict[str, dict[str, Any]]:
    """Every shipped catalog by locale (its file name): the element's and the pages' words
    in one (English's with the rules' reasons); the pseudo-locale's made here."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(CATALOG_DIR.glob("*.json")):
        out[path.stem] = {**_read(path)}
        pages = PAGES_DIR / path.name
        if pages.is_file():
            out[path.stem].update(_read(pages))
    out[DEFAULT].update(reasons())
    out[PSEUDO] = pseudo_catalog(out[DEFAULT])
    return out


def locales() -> list[str]:
    """The shipped locales (the pseudo-locale is not one), English first."""
    return [DEFAULT] + sorted(k for k in catalogs() if k not in (DEFAULT, PSEUDO))


def _canonical(tag: str) -> str | None:
    """The catalog a language tag names (``pt-br`` -> ``pt-BR``, ``fr-CA`` -> ``fr``), or None."""
    tag = tag.strip().replace("_", "-")
    if not tag or len(tag) > 35:
        return None
    known = {k.lower(): k for k in catalogs()}
    if tag.lower() in known:
        return known[tag.lower()]
    base = tag.split("-")[0].lower()
    if base in known and known[base] != PSEUDO:
        return known[base]
    # a regional catalog for the bare language: "pt" -> "pt-BR"
    for key, name in known.items():
        if key.split("-")[0] == base and name != PSEUDO:
            return name
    return None


def negotiate(arg: str | None, accept_language: str | None) -> str:
    """The page's locale: ``?lang=`` if a catalog has it, else the best of
    ``Accept-Language`` (by q), else English."""
    if arg:
        found = _canonical(arg)
        if found:
            return found
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "").split(",")[:30]):
        tag, _, params = item.partition(";")
        q = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        if q > 0:
            ranked.append((-q, i, tag.strip()))
    for _, _, tag in sorted(ranked):
        found = _canonical(tag)
        if found and found != PSEUDO:
            return found
    return DEFAULT


@cache
def _babel(locale: str) -> Locale:
    return Locale.parse((DEFAULT if locale == PSEUDO else locale).replace("-", "_"))


class Words:
    """The words of one locale: ``t(key, **params)``, numbers and dates."""

    def __init__(self, locale: str) -> None:
        self.locale = locale if locale in catalogs() else DEFAULT
        self.catalog = catalogs()[self.locale]
        meta = self.catalog.get("@locale", {})
        self.dir = meta.get("dir", "ltr")
        self.name = meta.get("name", self.locale)
        self.babel = _babel(self.locale)

    def number(self, n: int | float) -> str:
        return format_decimal(n, locale=self.babel)

    def plural(self, n: int | float) -> str:
        return str(self.babel.plural_form(abs(n)))

    def message(self, key: str, n: int | float | None = None) -> str:
        value = self.catalog.get(key)
        if value is None:
            value = catalogs()[DEFAULT].get(key, key)
        if isinstance(value, dict):
            form = self.plural(n) if n is not None else "other"
            return str(value.get(form, value.get("other", key)))
        return str(value)

    def messages(self, *keys: str) -> dict[str, Message]:
        """The messages ``keys`` as the catalog holds them (plural forms kept): the pages'
        words a page's script says (static/daily.js), given to it in the page."""
        return {key: self.catalog.get(key, catalogs()[DEFAULT].get(key, key)) for key in keys}

    def t(self, key: str, **params: Any) -> str:
        """The message ``key`` with its ``{placeholders}`` filled (numbers in the locale's
        digits); a plural message is chosen by ``n``."""
        text = self.message(key, params.get("n"))

        def fill(m: re.Match[str]) -> str:
            value = params.get(m.group(1))
            if value is None:
                return m.group(0)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return self.number(value)
            return str(value)

        return PLACEHOLDER.sub(fill, text)

    def markup(self, key: str, **params: Any) -> Markup:
        """``t`` for a template whose parameters are markup (a ``<time>``, a ``<kbd>``):
        the message is escaped, markup parameters are not (others are)."""

        def fill(m: re.Match[str]) -> str:
            if m.group(1) not in params:
                return m.group(0)
            value = params[m.group(1)]
            if isinstance(value, int | float) and not isinstance(value, bool):
                value = self.number(value)
            return str(escape(value))

        return Markup(PLACEHOLDER.sub(fill, str(escape(self.message(key, params.get("n"))))))

    def date(self, day: dt.date | str, form: str = "full") -> str:
        """A date as the locale writes it (``form``: full, long, medium, short)."""
        if isinstance(day, str):
            day = dt.date.fromisoformat(day)
        return format_date(day, form, locale=self.babel)

    def datetime(self, when: dt.datetime, form: str = "medium") -> str:
        return format_datetime(when, form, tzinfo=dt.UTC, locale=self.babel)


@cache
def words(locale: str) -> Words:
    return Words(locale)


def plural_categories(locale: str) -> set[str]:
    """The CLDR plural categories of ``locale`` (a catalog's plural messages must give each)."""
    return set(_babel(locale).plural_form.tags) | {"other"}
