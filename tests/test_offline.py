"""Installable and offline: the web app manifest, the service worker's script and the
offline page as the server sends them (the worker itself runs in
tests/test_web_offline_browser.py), and the icons drawn by dailydeal/web/icons.py."""

from __future__ import annotations

import datetime as dt
import json
import re
import struct
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.modules import element_sources

from dailydeal.daily.store import deal_id
from dailydeal.web import icons, pages

STATIC = Path(pages.__file__).parent / "static"


def worker_constants(script: str) -> dict[str, object]:
    """The JSON constants the server writes at the top of sw.js."""
    found = dict(re.findall(r"^const ([A-Z]+) = (.+?);(?: //.*)?$", script, re.M))
    return {k: json.loads(v) for k, v in found.items() if k in (
        "VERSION", "SHELL", "ALIASES", "OFFLINE", "ROOT", "API")}


def test_manifest_makes_the_site_installable(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    link = re.search(r'<link rel="manifest" href="([^"]+)">', html)
    assert link and link.group(1) == "/manifest.webmanifest"
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}" '
                     r'media="\(prefers-color-scheme: dark\)">', html)
    resp = client.get(link.group(1))
    assert resp.status_code == 200
    assert resp.mimetype == "application/manifest+json"
    assert resp.headers["Cache-Control"] == "no-cache"
    body = json.loads(resp.get_data(as_text=True))
    assert body["name"] and body["short_name"] == "dailydeal"
    assert body["start_url"] == body["scope"] == body["id"] == "/"
    assert body["display"] == "standalone"
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", body[key])
    sizes = {icon["sizes"]: icon for icon in body["icons"]}
    assert sizes.keys() == {"any", "192x192", "512x512"}
    assert sizes["any"]["type"] == "image/svg+xml"
    for size in (192, 512):  # what Chromium asks of an installable app: PNGs of these sizes
        icon = client.get(sizes[f"{size}x{size}"]["src"])
        assert icon.status_code == 200 and icon.mimetype == "image/png"
        assert icon.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert struct.unpack(">II", icon.data[16:24]) == (size, size)


def test_service_worker_script_is_served_at_the_root_and_never_stale(
    client: FlaskClient,
) -> None:
    resp = client.get("/sw.js")
    assert resp.status_code == 200
    assert resp.mimetype == "text/javascript"
    assert resp.headers["Cache-Control"] == "no-cache"
    # the worker's own policy: it may fetch from this origin, and nothing else
    assert resp.headers["Content-Security-Policy"] == "default-src 'none'; connect-src 'self'"
    script = resp.get_data(as_text=True)
    const = worker_constants(script)
    assert const["ROOT"] == "/" and const["OFFLINE"] == "/offline" and const["API"] == "/api/v1/"
    shell = const["SHELL"]
    assert isinstance(shell, list) and {"/", "/offline"} <= set(shell)
    for name, asset in pages.load_assets().items():  # every static file, by the URL pages use
        assert f"/static/{name}?v={asset.version}" in shell
    for url in shell:
        assert client.get(url).status_code == 200, url
    aliases = const["ALIASES"]
    assert isinstance(aliases, dict)
    assert all(aliases[v] == v.split("?")[0] for v in aliases)  # module imports: plain URLs
    # the API answers it keeps: the same for everyone; never one that depends on the
    # client or a move list (the pattern is plain enough to mean the same in Python)
    found = re.search(r"^const DEAL = /(.*)/;$", script, re.M)
    assert found
    deal = re.compile(found.group(1))
    for path in ("deals/2026-12-01-gaps-hard", "daily/2026-12-01", "daily/today",
                 "daily/2026-12-01/gaps/hard", "games/gaps/deals/42"):
        assert deal.match(path), path
    for path in ("deals/x/hint", "deals/x/state", "deals/x/results", "deals/x/stats",
                 "deals/x/solution", "deals/x/verify", "games/gaps/verify", "games/gaps/hint",
                 "games/gaps/state", "commitments", "feed.json", "healthz"):
        assert not deal.match(path), path


def test_worker_version_follows_the_package_and_every_static_file(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dailydeal

    with app.test_request_context():
        before = pages.shell_version()
        assert before.startswith(dailydeal.__version__ + "-")
        found = pages.assets()
        name, asset = next(iter(found.items()))
        monkeypatch.setitem(found, name, pages.Asset(b"x", b"x", asset.mimetype, "0" * 12))
        changed = pages.shell_version()
        monkeypatch.setattr(dailydeal, "__version__", "9.9.9")
        bumped = pages.shell_version()
    assert len({before, changed, bumped}) == 3
    with app.test_client() as client:
        script = client.get("/sw.js").get_data(as_text=True)
    assert worker_constants(script)["VERSION"] == bumped  # the bytes change: a new worker


def test_pages_register_the_worker_and_the_embed_does_not(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    id_ = deal_id(days["today"], "gaps", "easy")
    for url in ("/", f"/play/{id_}", "/play/gaps/1", "/offline"):
        html = client.get(url).get_data(as_text=True)
        assert re.search(r'<script type="module" src="/static/offline\.js\?v=[0-9a-f]{12}">',
                         html), url
    embed = client.get(f"/embed/{id_}").get_data(as_text=True)
    assert "offline.js" not in embed and "manifest" not in embed
    assert "serviceWorker" not in element_sources()  # the element on other sites: no worker
    register = (STATIC / "offline.js").read_text()
    assert 'register(new URL("../sw.js", import.meta.url))' in register


def test_daily_page_names_each_deal_json_for_the_worker_to_keep(
    client: FlaskClient, days: dict[str, dt.date]
) -> None:
    html = client.get("/").get_data(as_text=True)
    rows = re.findall(r'data-deal="([^"]+)" data-json="([^"]+)"', html)
    assert deal_id(days["today"], "pyramid", "hard") in dict(rows)
    for id_, url in rows:
        assert url == f"/api/v1/deals/{id_}"
    assert "postMessage({ prefetch: urls })" in (STATIC / "daily.js").read_text()


def test_offline_page_and_csp_without_inline_script(client: FlaskClient) -> None:
    for url in ("/offline", "/"):
        resp = client.get(url)
        assert resp.status_code == 200 and resp.mimetype == "text/html"
        csp = resp.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        html = resp.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html) and " style=" not in html
    assert "Offline" in client.get("/offline").get_data(as_text=True)


@pytest.mark.parametrize("size", icons.SIZES)
def test_committed_icons_are_what_icons_py_draws(size: int) -> None:
    assert (STATIC / f"icon-{size}.png").read_bytes() == icons.draw(size), (
        "run: python -m dailydeal.web.icons"
    )


def test_the_worker_template_ships_with_the_package() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[1]
    shipped = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["dailydeal"]
    assert "web/templates/*.js" in shipped and "web/static/*" in shipped
    assert (Path(pages.__file__).parent / "templates" / "sw.js").is_file()
