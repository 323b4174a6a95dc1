"""JSON Feed 1.1 and Atom: the last 30 days, one item per date, never a future item."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from flask.testing import FlaskClient

from dailydeal.web import clock, create_app

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
        assert item["url"].startswith("/api/v1/daily/")  # relative: no PUBLIC_URL set
        assert len(item["_dailydeal"]["deals"]) == 12
        assert item["content_text"]
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
        assert entry.find(f"{ATOM}link").get("href", "").startswith("/api/v1/")  # type: ignore
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
        app = create_app({"DATABASE": db, "NOW": lambda: instant, "PUBLIC_URL": "https://x.org"})
        feed = app.test_client().get("/api/v1/feed.json").get_json()
        assert all(i["url"].startswith("https://x.org/api/v1/") for i in feed["items"])
        return [i["_dailydeal"]["date"] for i in feed["items"]]

    begins = clock.begins_at(days["future"])
    assert days["future"].isoformat() not in dates_at(begins - dt.timedelta(seconds=1))
    assert dates_at(begins)[0] == days["future"].isoformat()
    last_day = clock.begins_at(days["past"] + dt.timedelta(days=29))
    assert dates_at(last_day)[-1] == days["past"].isoformat()
    assert days["past"].isoformat() not in dates_at(last_day + dt.timedelta(days=1))
