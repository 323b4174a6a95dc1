"""JSON Feed 1.1, Atom and iCalendar: one item per published date of the last 30 days.

An item is dated when its date begins at UTC+14 (the moment the API starts serving it), so
no item is ever in the future, and the items never change once published. An item links to
the pages a person opens (the daily page, each deal's play page); the API's JSON of the
date stays in it as an attachment (JSON Feed), a ``related`` link (Atom) or an
``ATTACH`` (iCalendar), and its id is that API URL, as it always was, so a reader that
already has an item does not see it again as new.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

from flask import Blueprint, Response, current_app, json, url_for
from markupsafe import escape

from dailydeal import __version__
from dailydeal.daily import clock, store
from dailydeal.web.conditional import conditional
from dailydeal.web.db import get_db
from dailydeal.web.extensions import settings
from dailydeal.web.http import now
from dailydeal.web.operations import NOT_MODIFIED, operation

bp = Blueprint("feeds", __name__)

FEED_CACHE = "public, max-age=300"
ATOM_NS = "http://www.w3.org/2005/Atom"
TITLE = "dailydeal: daily solitaire challenges"


def _base() -> str:
    """The prefix of links: ``public_url`` if set, else none (links relative to the feed).
    Never the request's Host or X-Forwarded-Host: a client sets those, and a feed is
    cached and served to everyone."""
    return (settings().public_url or "").rstrip("/")


def _atom_id(url: str) -> str:
    """An atom:id, which must be an absolute IRI (RFC 4287): the link itself when
    ``public_url`` makes it absolute, else a URN of its path."""
    return url if "://" in url else "urn:dailydeal:" + url.lstrip("/")


def feed_items() -> list[dict[str, Any]]:
    """Newest first: one dict per published date that has deals, over FEED_DAYS days."""
    days = int(current_app.config.get("FEED_DAYS", 30))
    last = clock.latest_published(now())
    first = last - dt.timedelta(days=days - 1)
    db = get_db()
    base = _base()
    items = []
    for day in store.dates_between(db, first, last):
        rows = store.deals_on(db, day)
        by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            by_game[r["game"]].append(r)
        deals = [
            {
                "id": r["id"],
                "game": r["game"],
                "variant": r["variant"],
                "tier": r["tier"],
                "rating": r["rating"],
                "url": base + url_for("api.deal", id_=r["id"]),
                "play_url": base + url_for("pages.play_deal", id_=r["id"]),
            }
            for r in rows
        ]
        summary = "; ".join(
            f"{game}: " + ", ".join(r["tier"] for r in group) for game, group in by_game.items()
        )
        items.append(
            {
                "date": day,
                "games": list(by_game),
                "url": base + url_for("api.daily", date=day.isoformat()),
                # the daily page lists the last 30 dates; the fragment names the item's date
                "page": base + url_for("pages.daily_page") + "#" + day.isoformat(),
                "title": f"Daily deals of {day.isoformat()}",
                "summary": summary,
                "published": clock.begins_at(day),
                "deals": deals,
            }
        )
    return items


def _links(it: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(Game, [(tier, play URL), ...]) per game of an item, in the stored order."""
    return [
        (game.capitalize(), [(d["tier"], d["play_url"]) for d in it["deals"] if d["game"] == game])
        for game in it["games"]
    ]


def _text(it: dict[str, Any]) -> str:
    """The item for a person, as plain text: one line per deal with its play page."""
    lines = [f"{it['title']}. Play them in the browser:"]
    for game, deals in _links(it):
        lines += [f"{game} {tier}: {url}" for tier, url in deals]
    return "\n".join(lines)


def _html(it: dict[str, Any]) -> str:
    """The same as HTML: a list of games, each with its tiers linked to their play pages."""
    parts = ["<ul>"]
    for game, deals in _links(it):
        tiers = ", ".join(f'<a href="{escape(url)}">{escape(tier)}</a>' for tier, url in deals)
        parts.append(f"<li>{escape(game)}: {tiers}</li>")
    parts.append("</ul>")
    return "".join(parts)


def _etagged(body: str, mimetype: str) -> Response:
    resp = Response(body, mimetype=mimetype)
    resp.headers["Cache-Control"] = FEED_CACHE
    resp.add_etag()
    return conditional(resp)


@bp.get("/feed.json")
@operation("GET", "JSON Feed 1.1 of the last 30 days", answer_text="Feed",
           media={"application/feed+json": {"type": "object"}}, responses=NOT_MODIFIED)
def feed_json() -> Response:
    base = _base()
    items = feed_items()
    feed = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": TITLE,
        "home_page_url": base + url_for("pages.daily_page"),
        "feed_url": base + url_for("feeds.feed_json"),
        "description": "The daily Accordion, Pyramid and Gaps deals, four tiers each.",
        "language": "en",
        "items": [
            {
                "id": it["url"],
                "url": it["page"],
                "title": it["title"],
                "content_text": _text(it),
                "content_html": _html(it),
                "summary": it["summary"],
                "attachments": [{"url": it["url"], "mime_type": "application/json",
                                 "title": "The deals of the date (API)"}],
                "date_published": clock.iso(it["published"]),
                "tags": sorted({d["game"] for d in it["deals"]}),
                "_dailydeal": {"date": it["date"].isoformat(), "deals": it["deals"]},
            }
            for it in items
        ],
    }
    return _etagged(json.dumps(feed, ensure_ascii=False), "application/feed+json")


@bp.get("/feed.atom")
@operation("GET", "Atom feed of the last 30 days", answer_text="Feed",
           media={"application/atom+xml": {"type": "string"}}, responses=NOT_MODIFIED)
def feed_atom() -> Response:
    base = _base()
    items = feed_items()
    ET.register_namespace("", ATOM_NS)

    def sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
        el = ET.SubElement(parent, f"{{{ATOM_NS}}}{tag}", attrs)
        if text is not None:
            el.text = text
        return el

    root = ET.Element(f"{{{ATOM_NS}}}feed")
    sub(root, "id", _atom_id(base + url_for("feeds.feed_atom")))
    sub(root, "title", TITLE)
    updated = items[0]["published"] if items else clock.begins_at(clock.latest_published(now()))
    sub(root, "updated", clock.iso(updated))
    sub(
        root,
        "link",
        rel="self",
        href=base + url_for("feeds.feed_atom"),
        type="application/atom+xml",
    )
    sub(root, "link", rel="alternate", href=base + url_for("pages.daily_page"), type="text/html")
    author = sub(root, "author")
    sub(author, "name", "dailydeal")
    for it in items:
        entry = sub(root, "entry")
        sub(entry, "id", _atom_id(it["url"]))
        sub(entry, "title", it["title"])
        sub(entry, "updated", clock.iso(it["published"]))
        sub(entry, "published", clock.iso(it["published"]))
        sub(entry, "link", rel="alternate", href=it["page"], type="text/html")
        sub(entry, "link", rel="related", href=it["url"], type="application/json")
        sub(entry, "summary", it["summary"])
        sub(entry, "content", _html(it), type="html")
        for game in sorted({d["game"] for d in it["deals"]}):
            sub(entry, "category", term=game)
    body = ET.tostring(root, encoding="unicode", xml_declaration=False)
    return _etagged('<?xml version="1.0" encoding="utf-8"?>\n' + body, "application/atom+xml")


# --- iCalendar (RFC 5545) ----------------------------------------------------------------
@bp.get("/calendar.ics")
@operation("GET", "iCalendar (RFC 5545): an all-day event per date, last 30 days",
           answer_text="The calendar", media={"text/calendar": {"type": "string"}},
           responses=NOT_MODIFIED)
def calendar() -> Response:
    """One all-day event per published date of the window, with the play page of each deal.
    Only dates that have begun somewhere are listed: a calendar must not announce a deal
    before its day (the same rule as the API's)."""
    import icalendar  # here: only this answer pays for its import (about 60 ms)

    base = _base()
    host = (urlsplit(base).hostname or "dailydeal") if base else "dailydeal"
    cal = icalendar.Calendar()
    for name, value in (
        ("VERSION", "2.0"), ("PRODID", f"-//dailydeal//daily deals {__version__}//EN"),
        ("CALSCALE", "GREGORIAN"), ("METHOD", "PUBLISH"), ("X-WR-CALNAME", TITLE),
        ("X-PUBLISHED-TTL", "PT1H"),
    ):
        cal.add(name, value)
    refresh = icalendar.vDuration(dt.timedelta(hours=1))
    refresh.params["VALUE"] = "DURATION"  # RFC 7986 asks for it
    cal.add("REFRESH-INTERVAL", refresh)
    for it in feed_items():
        day: dt.date = it["date"]
        event = icalendar.Event()
        values: dict[str, Any] = {
            "UID": f"{day.isoformat()}@{host}", "DTSTAMP": it["published"].astimezone(dt.UTC),
            "DTSTART": day, "DTEND": day + dt.timedelta(days=1),
            "SUMMARY": "Daily deals: " + ", ".join(map(str.capitalize, it["games"])),
            "DESCRIPTION": _text(it), "URL": it["page"], "TRANSP": "TRANSPARENT",
        }
        for name, value in values.items():
            event.add(name, value)
        event.add("ATTACH", it["url"], parameters={"FMTTYPE": "application/json"})
        cal.add_component(event)
    return _etagged(cal.to_ical().decode(), "text/calendar")
