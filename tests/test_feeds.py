"""JSON Feed 1.1 and Atom: the last 30 days, one item per date, never a future item."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from flask.testing import FlaskClient

from dailydeal.daily import clock
from dailydeal.web import create_app

ATOM = "{http://www.w3.org/2005/Atom}"


def test_json_feed(client: FlaskClient, days: dict[str, dt.date], now: dt.datetime) -> None:
    resp = client.get("/api/v1/feed.json")
    assert resp.status_code == 200
    assert resp.mimetype == "application/feed+json"
    assert resp.headers["Cache-Control"] == "public, max-age=300"
    feed = resp.get_json()
    assert feed["version"] == "https://jsonfeed.org/version/1.1"
    assert feed["title"] and feed["feed_url"].endswith("/api/v1/feed.json")
    dates = [item["_dailydeal"]["date"] for item in feed["items"]]
    # the fixture stores old (40 days ago: out), past, today and future (not yet begun)
    assert dates == [days["today"].isoformat(), days["past"].isoformat()]
    assert len(set(item["id"] for item in feed["items"])) == len(dates)
    for item in feed["items"]:
        published = dt.datetime.fromisoformat(item["date_published"].replace("Z", "+00:00"))
        assert published <= now
        assert item["id"].startswith("/api/v1/daily/")  # relative: no PUBLIC_URL set
        # a person opens the daily page, and each deal's play page from the content
        assert item["url"] == "/#" + item["_dailydeal"]["date"]
        assert [a["url"] for a in item["attachments"]] == [item["id"]]
        assert item["attachments"][0]["mime_type"] == "application/json"
        deals = item["_dailydeal"]["deals"]
        assert len(deals) == 12
        for deal in deals:
            assert deal["play_url"] == f"/play/{deal['id']}"
            assert f'href="{deal["play_url"]}"' in item["content_html"]
            assert deal["play_url"] in item["content_text"]
        assert client.get(deals[0]["play_url"]).status_code == 200
    again = client.get("/api/v1/feed.json", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304


def test_atom_feed(client: FlaskClient, days: dict[str, dt.date]) -> None:
    resp = client.get("/api/v1/feed.atom")
    assert resp.status_code == 200
    assert resp.mimetype == "application/atom+xml"
    root = ET.fromstring(resp.get_data())
    assert root.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{required}") is not None
    entries = root.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles == [f"Daily deals of {days['today']}", f"Daily deals of {days['past']}"]
    for entry in entries:
        assert entry.findtext(f"{ATOM}id", "").startswith("urn:dailydeal:api/v1/daily/")
        links = {link.get("rel"): link for link in entry.findall(f"{ATOM}link")}
        assert links["alternate"].get("type") == "text/html"
        assert links["alternate"].get("href", "").startswith("/#")
        assert links["related"].get("href", "").startswith("/api/v1/daily/")
        content = entry.find(f"{ATOM}content")
        assert content is not None and content.get("type") == "html"
        assert content.text and content.text.count('href="/play/') == 12
        assert {c.get("term") for c in entry.findall(f"{ATOM}category")} == {
            "accordion",
            "gaps",
            "pyramid",
        }


def test_feed_window_moves_with_the_clock(
    tmp_path: Path, fill_db: Any, days: dict[str, dt.date]
) -> None:
    """Seen from the moment 'future' begins at UTC+14, it is the newest item; seen from
    29 days after 'past', 'past' is the oldest item still listed, and a day later it is gone."""
    db = fill_db(tmp_path / "f.db")

    def dates_at(instant: dt.datetime) -> list[str]:
        app = create_app({"db_path": db, "NOW": lambda: instant, "public_url": "https://x.org"})
        feed = app.test_client().get("/api/v1/feed.json").get_json()
        assert all(i["id"].startswith("https://x.org/api/v1/") for i in feed["items"])
        assert all(i["url"].startswith("https://x.org/#") for i in feed["items"])
        return [i["_dailydeal"]["date"] for i in feed["items"]]

    begins = clock.begins_at(days["future"])
    assert days["future"].isoformat() not in dates_at(begins - dt.timedelta(seconds=1))
    assert dates_at(begins)[0] == days["future"].isoformat()
    last_day = clock.begins_at(days["past"] + dt.timedelta(days=29))
    assert dates_at(last_day)[-1] == days["past"].isoformat()
    assert days["past"].isoformat() not in dates_at(last_day + dt.timedelta(days=1))


def test_calendar_is_valid_icalendar_with_play_links(
    tmp_path: Path, fill_db: Any, days: dict[str, dt.date], now: dt.datetime
) -> None:
    """RFC 5545 as the icalendar package reads it: one all-day event per published date,
    each with the play pages of its twelve deals; never a future date."""
    import icalendar

    app = create_app(
        {"db_path": fill_db(tmp_path / "c.db"), "NOW": lambda: now,
         "public_url": "https://cards.example"}
    )
    client = app.test_client()
    resp = client.get("/api/v1/calendar.ics")
    assert resp.status_code == 200 and resp.mimetype == "text/calendar"
    raw = resp.get_data()
    assert all(len(line) <= 75 for line in raw.split(b"\r\n")), "lines are folded at 75 octets"
    assert raw.endswith(b"END:VCALENDAR\r\n")
    cal = icalendar.Calendar.from_ical(raw)
    assert str(cal["VERSION"]) == "2.0" and cal["PRODID"]
    events = cal.walk("VEVENT")
    starts = [ev.decoded("DTSTART") for ev in events]
    assert starts == [days["today"], days["past"]]  # not the future date, not the old one
    for ev, start in zip(events, starts, strict=True):
        assert ev.decoded("DTEND") == start + dt.timedelta(days=1)  # all day
        assert str(ev["UID"]) == f"{start.isoformat()}@cards.example"
        description = str(ev["DESCRIPTION"])
        for game in ("Accordion", "Pyramid", "Gaps"):
            for tier in ("easy", "medium", "hard", "expert"):
                url = f"https://cards.example/play/{start.isoformat()}-{game.lower()}-{tier}"
                assert f"{game} {tier}: {url}" in description
        assert str(ev["URL"]) == f"https://cards.example/#{start.isoformat()}"
    again = client.get("/api/v1/calendar.ics", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304
    page = client.get("/").get_data(as_text=True)
    assert ('<link rel="alternate" type="text/calendar" '
            'href="https://cards.example/api/v1/calendar.ics"') in page
