"""oEmbed, preview pictures and the pages' share tags (dailydeal/web/share.py)."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from dailydeal.config import Settings
from dailydeal.daily import generate, store
from dailydeal.daily import picture as preview
from dailydeal.web import create_app, i18n
from dailydeal.web.db import forget

BASE = "https://cards.example/dd"  # a public URL with a path prefix


@pytest.fixture
def public(tmp_path: Path, fill_db: Any, now: dt.datetime) -> FlaskClient:
    app = create_app({"db_path": fill_db(tmp_path / "p.db"), "NOW": lambda: now,
                      "public_url": BASE + "/"})
    return app.test_client()


def _id(days: dict[str, dt.date], which: str = "today", game: str = "pyramid") -> str:
    return f"{days[which].isoformat()}-{game}-hard"


def test_oembed_rich_answer(public: FlaskClient, days: dict[str, dt.date]) -> None:
    id_ = _id(days)
    for url in (f"{BASE}/play/{id_}", f"{BASE}/embed/{id_}", f"/play/{id_}"):
        resp = public.get("/api/v1/oembed", query_string={"url": url})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        body = resp.get_json()
        assert body["version"] == "1.0" and body["type"] == "rich"
        assert (body["width"], body["height"]) == (900, 720)
        assert body["html"] == (
            f'<iframe src="{BASE}/embed/{id_}" width="900" height="720" '
            f'title="{body["title"]}" style="border:0;max-width:100%" loading="lazy"></iframe>'
        )
        assert body["thumbnail_url"] == f"{BASE}/api/v1/deals/{id_}/preview.png?v={preview.VERSION}"
        assert (body["thumbnail_width"], body["thumbnail_height"]) == (1200, 630)
        assert body["provider_name"] == "dailydeal" and body["provider_url"] == BASE + "/"
        assert resp.headers["Access-Control-Allow-Origin"] == "*"


def test_oembed_honours_maxwidth_and_maxheight(public: FlaskClient, days: dict[str, dt.date]
                                               ) -> None:
    url = f"{BASE}/play/{_id(days)}"
    body = public.get("/api/v1/oembed", query_string={
        "url": url, "maxwidth": "390", "maxheight": "500"}).get_json()
    assert (body["width"], body["height"]) == (390, 500)
    assert 'width="390" height="500"' in body["html"]
    assert "thumbnail_url" not in body  # a 1200x630 thumbnail does not fit: left out
    big = public.get("/api/v1/oembed", query_string={"url": url, "maxwidth": "99999999"})
    assert big.get_json()["width"] == 900  # never wider than the default


def test_oembed_link_types(public: FlaskClient) -> None:
    daily = public.get("/api/v1/oembed", query_string={"url": BASE + "/"}).get_json()
    assert daily["type"] == "link" and "html" not in daily
    numbered = public.get("/api/v1/oembed", query_string={"url": f"{BASE}/play/gaps/42"})
    assert numbered.get_json()["type"] == "link" and "#42" in numbered.get_json()["title"]


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/dd/play/{id}",  # another host
        "http://cards.example/dd/play/{id}",  # another scheme
        "https://cards.example/other/play/{id}",  # outside the public path
        "https://cards.example/ddx/play/{id}",  # a prefix that only looks the same
        "https://cards.example.evil.example/dd/play/{id}",
        "play/{id}",  # neither a path nor an absolute URL
        "{base}/play/1999-01-01-pyramid-hard",  # not a stored deal
        "{base}/play/{future}",  # stored, not yet begun anywhere
        "{base}/api/v1/deals/{id}",  # the API is not a page
        "{base}/static/site.css",
        "{base}/nowhere",
    ],
)
def test_oembed_404_for_urls_that_are_not_ours(
    public: FlaskClient, days: dict[str, dt.date], problem: Callable[[Any, int], Any], url: str
) -> None:
    url = url.format(base=BASE, id=_id(days), future=_id(days, "future"))
    problem(public.get("/api/v1/oembed", query_string={"url": url}), 404)


def test_oembed_without_a_public_url_takes_paths_only(
    client: FlaskClient, days: dict[str, dt.date], problem: Callable[[Any, int], Any]
) -> None:
    id_ = _id(days)
    body = client.get("/api/v1/oembed", query_string={"url": f"/play/{id_}"}).get_json()
    assert f'src="/embed/{id_}"' in body["html"]  # relative, never from the Host header
    resp = client.get(
        "/api/v1/oembed", query_string={"url": f"http://localhost/play/{id_}"},
        headers={"Host": "localhost", "X-Forwarded-Host": "localhost"},
    )
    assert "DAILYDEAL_PUBLIC_URL" in problem(resp, 404)["detail"]


@pytest.mark.parametrize(
    "path",
    [
        "/play/Free%20prizes%20at%20evil.example/x",  # issue 39: no such game
        "/play/Free%20prizes/42",
        "/play/gaps/x",  # no deal number
        "/play/gaps/-1",
        "/play/gaps/18446744073709551616",  # past the largest seed
        "/play/gaps/%D9%A1%D9%A2",  # Arabic-Indic digits: no seed to the API
        "/play/gaps/12?variant=Free%20prizes",  # no such variant
    ],
)
def test_oembed_never_vouches_for_a_page_that_does_not_exist(
    public: FlaskClient, problem: Callable[[Any, int], Any], path: str
) -> None:
    """A URL of ours whose page is an error gets no title (the attacker's words, cached
    for an hour, vouched for by the site), and its page's tags none either."""
    body = problem(public.get("/api/v1/oembed", query_string={"url": BASE + path}), 404)
    assert "title" not in body or "prizes" not in body["title"]
    page = public.get(path)
    assert page.status_code in (400, 404)
    html = page.get_data(as_text=True)
    assert "json+oembed" not in html and "prizes" not in _tags(html)["og:title"]


def test_oembed_titles_are_the_sites_own_words(public: FlaskClient) -> None:
    for path, title in [("/play/gaps/0042", "Gaps deal #42"),
                        ("/play/pyramid/7?variant=relaxed", "Pyramid deal #7"),
                        ("/play/gaps/18446744073709551615", "Gaps deal #18446744073709551615")]:
        resp = public.get("/api/v1/oembed", query_string={"url": BASE + path})
        assert resp.status_code == 200, (path, resp.get_data(as_text=True))
        assert resp.get_json()["title"] == title
        html = public.get(path).get_data(as_text=True)
        assert _tags(html)["og:title"] == title + " — dailydeal"


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({}, 400),
        ({"url": ""}, 400),
        ({"url": "/play/" + "x" * 5000}, 400),
        ({"url": "/play/a b"}, 400),
        ({"url": "/play/\x00"}, 400),
        ({"url": "http://[::1/play/x"}, 400),
        ({"url": "/", "maxwidth": "-5"}, 400),
        ({"url": "/", "maxwidth": "0"}, 400),
        ({"url": "/", "maxwidth": "1e9"}, 400),
        ({"url": "/", "maxheight": "9" * 400}, 400),
        ({"url": "/", "maxheight": "١٢"}, 400),  # Arabic-Indic digits
        ({"url": "/", "maxwidth": "12.5"}, 400),
        ({"url": "/", "format": "xml"}, 501),
        ({"url": "/", "format": "x" * 5000}, 501),
    ],
)
def test_oembed_hostile_inputs(
    public: FlaskClient, problem: Callable[[Any, int], Any], query: dict[str, str], status: int
) -> None:
    body = problem(public.get("/api/v1/oembed", query_string=query), status)
    assert len(body["detail"]) < 300


def test_preview_picture(public: FlaskClient, days: dict[str, dt.date]) -> None:
    for game in ("pyramid", "gaps", "accordion"):
        id_ = _id(days, game=game)
        resp = public.get(f"/api/v1/deals/{id_}/preview.png?v={preview.VERSION}")
        assert resp.status_code == 200 and resp.mimetype == "image/png"
        assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Content-Encoding" not in resp.headers
        image = Image.open(io.BytesIO(resp.get_data()))
        assert image.size == (1200, 630)
        # cards are drawn: plenty of card-face pixels and red and black ink on the felt
        colours = image.convert("RGB").getcolors(1 << 20) or []
        count = {c: n for n, c in colours}
        assert count.get(preview.FACE, 0) > 20_000
        assert count.get(preview.RED, 0) > 500 and count.get(preview.INK, 0) > 500
        again = public.get(f"/api/v1/deals/{id_}/preview.png?v={preview.VERSION}",
                           headers={"If-None-Match": resp.headers["ETag"]})
        assert again.status_code == 304 and not again.get_data()
    unversioned = public.get(f"/api/v1/deals/{_id(days)}/preview.png")
    assert unversioned.headers["Cache-Control"] == "public, max-age=86400"
    assert f"preview-{preview.VERSION}-" in unversioned.headers["ETag"]


def test_the_tier_mark_has_a_shape_not_only_a_colour() -> None:
    """Issue 40, item 5: circle, square, triangle, diamond: four shapes, four areas."""
    areas = {}
    for tier, colour in preview.TIER_COLOURS.items():
        c = preview.Canvas()
        preview.tier_mark(c, tier, 60, 60)
        image = Image.open(io.BytesIO(c.png())).convert("RGB").crop((40, 40, 80, 80))
        areas[tier] = sum(n for n, rgb in image.getcolors(4096) or [] if rgb == colour)
    assert all(areas.values()) and len(set(areas.values())) == 4, areas


def test_no_picture_of_a_future_deal(
    app: Flask, client: FlaskClient, days: dict[str, dt.date],
    problem: Callable[[Any, int], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    monkeypatch.setattr(preview, "draw_deal", lambda row: drawn.append(row["id"]) or b"")
    problem(client.get(f"/api/v1/deals/{_id(days, 'future')}/preview.png"), 404)
    problem(client.get("/api/v1/deals/" + "x" * 500 + "/preview.png"), 404)
    assert drawn == []


def _tags(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', html))


def test_play_page_tags(public: FlaskClient, days: dict[str, dt.date]) -> None:
    id_ = _id(days)
    html = public.get(f"/play/{id_}").get_data(as_text=True)
    tags = _tags(html)
    assert tags["og:url"] == f"{BASE}/play/{id_}"
    assert tags["og:image"] == f"{BASE}/api/v1/deals/{id_}/preview.png?v={preview.VERSION}"
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image:width"] == "1200" and "Pyramid" in tags["og:title"]
    discovery = re.search(
        r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html)
    assert discovery is not None
    href = discovery.group(1).replace("&amp;", "&")
    assert href.startswith(BASE + "/api/v1/oembed?")
    assert public.get(href[len(BASE):]).get_json()["type"] == "rich"  # discovery works
    embed = _tags(public.get(f"/embed/{id_}").get_data(as_text=True))
    assert embed["og:image"] == tags["og:image"]


def test_tags_without_a_public_url_have_no_picture(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    html = client.get(f"/play/{_id(days)}", headers={"Host": "evil.example"}).get_data(
        as_text=True)
    tags = _tags(html)
    assert "og:image" not in tags and tags["twitter:card"] == "summary"
    assert tags["og:url"] == f"/play/{_id(days)}"
    assert "evil.example" not in html


def test_daily_page_tags(public: FlaskClient) -> None:
    html = public.get("/").get_data(as_text=True)
    assert _tags(html)["og:url"] == BASE + "/"
    for kind in ("application/json+oembed", "text/calendar", "application/feed+json",
                 "application/atom+xml"):
        assert f'<link rel="alternate" type="{kind}"' in html


def test_unpublished_play_page_says_nothing_of_the_deal(
    public: FlaskClient, days: dict[str, dt.date]
) -> None:
    resp = public.get(f"/play/{_id(days, 'future')}")
    assert resp.status_code == 404
    html = resp.get_data(as_text=True)
    assert "preview.png" not in html and "json+oembed" not in html


def test_an_app_mounted_under_a_prefix(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date]
) -> None:
    """Mounted at /dd behind https://cards.example: links carry the mount point once, and
    oEmbed resolves them."""
    app = create_app({"db_path": fill_db(tmp_path / "m.db"), "NOW": lambda: now,
                      "public_url": "https://cards.example"})
    client = app.test_client()
    mount = {"SCRIPT_NAME": "/dd"}
    id_ = _id(days)
    html = client.get(f"/play/{id_}", environ_overrides=mount).get_data(as_text=True)
    assert _tags(html)["og:url"] == f"https://cards.example/dd/play/{id_}"
    body = client.get("/api/v1/oembed", environ_overrides=mount, query_string={
        "url": f"https://cards.example/dd/play/{id_}"}).get_json()
    assert f'src="https://cards.example/dd/embed/{id_}"' in body["html"]


# --- issue 39 item 1: pictures drawn once per deal, canonical URLs, a per-address limit ------
def _png(id_: str, query: str = "") -> str:
    return f"/api/v1/deals/{id_}/preview.png" + (f"?{query}" if query else "")


def _count_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []
    real = preview.draw_deal

    def draw(row: dict[str, Any]) -> bytes:
        drawn.append(row["id"])
        return real(row)

    monkeypatch.setattr(preview, "draw_deal", draw)
    return drawn


def test_pictures_are_stored_with_the_deals_and_served_without_drawing(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each `preview.png` was drawn per request (47-63 ms of CPU) and a worker kept the
    last 64: a fill now stores every deal's picture, and the API serves those bytes."""
    path = fill_db(tmp_path / "stored.db")
    settings = Settings(db_path=path)
    stored = generate.fill_pictures(settings)
    db = store.open_db(path)
    try:
        deals = db.execute("SELECT count(*) FROM deals").fetchone()[0]
        assert stored == deals > 0
        assert generate.fill_pictures(settings) == 0  # once per deal
        id_ = _id(days)
        png = store.get_picture(db, id_, preview.VERSION)
    finally:
        db.close()
    assert png is not None and png.startswith(b"\x89PNG")
    drawn = _count_draws(monkeypatch)
    client = create_app({"db_path": path, "NOW": lambda: now}).test_client()
    try:
        for query in (f"v={preview.VERSION}", ""):
            resp = client.get(_png(id_, query))
            assert resp.status_code == 200 and resp.get_data() == png
            assert resp.headers["ETag"] == f'"preview-{preview.VERSION}-{id_}"'
        assert drawn == []
    finally:
        forget(path)


def test_fill_pictures_in_a_child_process_stores_the_missing_ones(
    tmp_path: Path, fill_db: Any
) -> None:
    """The scheduler thread of `dailydeal serve` draws in a child process (the GIL)."""
    path = fill_db(tmp_path / "child.db")
    settings = Settings(db_path=path)
    assert generate.fill_pictures(settings, isolated=True) > 0
    assert generate.fill_pictures(settings, isolated=True) == 0  # nothing missing: no child


@pytest.mark.parametrize("query", [
    "r=12345", "v=0", "v=999", f"v={preview.VERSION}&r=1", f"r=1&v={preview.VERSION}",
    f"V={preview.VERSION}", "v=", f"v={preview.VERSION}&v={preview.VERSION}", "x",
])
def test_any_other_query_of_a_picture_is_a_redirect_to_its_canonical_url(
    public: FlaskClient, days: dict[str, dt.date], monkeypatch: pytest.MonkeyPatch,
    query: str,
) -> None:
    """A random query passed nginx's cache every time, and each miss was drawn: any query
    but the current `v=` is now a 301 to the canonical URL (cacheable), nothing drawn."""
    drawn = _count_draws(monkeypatch)
    id_ = _id(days)
    resp = public.get(_png(id_, query))
    assert resp.status_code == 301, resp.get_data(as_text=True)[:200]
    assert resp.headers["Location"] == _png(id_, f"v={preview.VERSION}")
    assert resp.headers["Cache-Control"] == "public, max-age=3600"
    assert resp.get_json() == {"location": resp.headers["Location"]}
    assert drawn == []
    assert public.get(resp.headers["Location"]).status_code == 200


def test_pictures_drawn_on_request_are_keyed_by_the_canonical_url_only(
    app: Flask, client: FlaskClient, days: dict[str, dt.date], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file without stored pictures (before the scheduler's next run): each deal is drawn
    once, whatever its URL's query, into a bounded memo."""
    drawn = _count_draws(monkeypatch)
    id_ = _id(days)
    for query in (f"v={preview.VERSION}", "", "r=1", "r=2", f"v={preview.VERSION}"):
        assert client.get(_png(id_, query)).status_code in (200, 301)
    assert drawn == [id_]
    memo = app.extensions["dailydeal_pictures"]
    assert memo.size == 64 and len(memo.cache) == 1


def test_pictures_have_a_per_address_limit(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date],
    problem: Callable[[Any, int], Any],
) -> None:
    path = fill_db(tmp_path / "limited.db")
    client = create_app({"db_path": path, "NOW": lambda: now,
                         "picture_rate_limit": "2 per minute"}).test_client()
    try:
        url = _png(_id(days), f"v={preview.VERSION}")
        for _ in range(2):
            assert client.get(url).status_code == 200
        refused = problem(client.get(url), 429)
        assert refused["detail"]
        limited = client.get(url)
        assert int(limited.headers["Retry-After"]) > 0
        assert limited.headers["Cache-Control"] == "no-store"
        other = client.get(url, environ_base={"REMOTE_ADDR": "10.9.8.7"})
        assert other.status_code == 200
    finally:
        forget(path)


def test_link_previews_speak_the_pages_language(
    public: FlaskClient, days: dict[str, dt.date]
) -> None:
    """The OpenGraph / Twitter words come from the catalogs in the page's language (an
    oEmbed answer, for machines, stays English)."""
    id_ = _id(days)
    english = _tags(public.get(f"/play/{id_}").get_data(as_text=True))
    french = _tags(public.get(f"/play/{id_}?lang=fr").get_data(as_text=True))
    assert english["og:locale"] == "en" and french["og:locale"] == "fr"
    assert english["og:title"].startswith("Pyramid · Hard · ")
    assert "Play it in the browser." in english["og:description"]
    assert french["og:title"].startswith("Pyramide · Difficile · ")
    assert "Jouez-la dans le navigateur." in french["og:description"]
    assert french["og:image:alt"].startswith("La disposition de la donne : Pyramide")
    assert french["twitter:description"] == french["og:description"]
    numbered = _tags(public.get("/play/gaps/42?lang=de").get_data(as_text=True))
    assert numbered["og:title"] == "Lücken, Spiel Nr. 42 — dailydeal"
    daily = public.get("/?lang=ja").get_data(as_text=True)
    assert _tags(daily)["og:description"] == i18n.words("ja").t("site.description")
    assert 'title="毎日のディールのカレンダー"' in daily
    oembed = public.get("/api/v1/oembed", query_string={"url": f"{BASE}/play/{id_}?lang=fr"})
    assert oembed.get_json()["title"].startswith("Pyramid · Hard · ")
