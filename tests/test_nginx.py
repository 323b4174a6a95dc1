"""deploy/nginx.conf.example for real: Debian's nginx in front of the real gunicorn.

The example is adapted by substitution only (ports, a temporary cache directory, a
self-signed certificate), wrapped in a minimal nginx.conf under a temporary prefix, checked
with ``nginx -t`` and started (the ``front`` fixture, tests/conftest.py). nginx's own
errors are in tests/test_nginx_problems.py: apart, so two test workers share them. Skipped
where nginx or openssl is absent (Debian packages nginx or nginx-light, and openssl).
"""

from __future__ import annotations

import http.client
import json
import re
import ssl
from typing import Any

import pytest
from helpers import exchange, wait_for
from helpers.nginx import NGINX, OPENSSL, SERVER_NAME, Front, state_url

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None,
    reason="nginx or openssl is not installed (Debian packages nginx, openssl)",
)


def test_the_example_passes_nginx_t_and_proxies_the_api(front: Front) -> None:
    status, headers, body = front.request("GET", "/api/v1/healthz")
    assert status == 200, body
    assert json.loads(body)["status"] in ("ok", "degraded")
    status, headers, body = front.request("GET", "/api/v1/games")
    assert status == 200 and headers["x-cache-status"] in ("MISS", "BYPASS", "EXPIRED", "HIT")


def test_the_pages_and_their_static_files_are_served_through_nginx(front: Front) -> None:
    status, headers, body = front.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html"), body[:300]
    scripts = re.findall(rb'src="(/static/[^"]+)"', body)
    assert scripts, body[:500]
    status, headers, _ = front.request("GET", scripts[0].decode())
    assert status == 200 and "immutable" in headers["cache-control"]


def test_forwarded_headers_are_nginx_s_not_the_client_s(front: Front) -> None:
    spoof = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "gopher",
             "X-Forwarded-Prefix": "/evil", "Forwarded": "host=evil.example"}
    for path in ("/api/v1/feed.json", "/api/v1/feed.atom"):
        status, _, body = front.request("GET", path, headers=spoof)
        assert status == 200, body[:300]
        text = body.decode()
        assert "evil" not in text and "gopher" not in text
        assert f"https://{SERVER_NAME}/" in text  # links from the configured public URL


def test_a_get_state_is_cached_by_nginx_and_carries_no_client_s_budget(
    front: Front, days: dict[str, Any]
) -> None:
    # issue 25 item 12: the regex location of verify/state had no proxy_cache
    url = state_url(days) + "?moves=d%20d"
    statuses = []
    for _ in range(2):  # two requests: the test's limit_req lets two through
        status, headers, body = front.request("GET", url)
        assert status == 200, body[:300]
        statuses.append(headers.get("x-cache-status"))
        # a public answer: nothing of the first client's budget is cached for the next
        assert not {h for h in headers if h.startswith("x-ratelimit") or h == "retry-after"}
    assert statuses == ["MISS", "HIT"], statuses


def test_a_hint_with_a_play_token_is_never_cached_by_nginx(
    front: Front, days: dict[str, Any]
) -> None:
    """Issue 39: each GET hint with ``&play=`` reaches the API (which counts it for the
    play), never the cache, and says so to any cache further on."""
    id_ = f"{days['today']}-pyramid-easy"
    status, _, body = front.request("POST", f"/api/v1/deals/{id_}/plays", b"{}",
                                    {"Content-Type": "application/json"})
    assert status == 201, body[:300]
    token = json.loads(body)["play"]
    url = f"/api/v1/deals/{id_}/hint?moves=&play={token}"
    seen = []
    for _ in range(2):  # two requests: the test's limit_req lets two through
        status, headers, body = front.request("GET", url)
        assert status == 200, body[:300]
        assert headers["cache-control"] == "private, no-store"
        seen.append(headers.get("x-cache-status"))
    assert seen == ["BYPASS", "BYPASS"], seen
    assert not list((front.tmp / "cache").rglob("*")) or all(
        token.encode() not in p.read_bytes() for p in (front.tmp / "cache").rglob("*")
        if p.is_file())


def _from(front: Front, source: str, method: str, path: str,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A request to nginx from the loopback address ``source`` (all of 127/8 is local)."""
    conn = http.client.HTTPSConnection("127.0.0.1", front.port, timeout=15,
                                       context=ssl._create_unverified_context(),
                                       source_address=(source, 0))
    return exchange(conn, method, path, b"{}" if method == "POST" else None,
                    {"Host": SERVER_NAME, "Content-Type": "application/json", **(headers or {})})


def test_nginx_gives_the_api_the_real_client_address(
    front: Front, days: dict[str, Any]
) -> None:
    """Issue 39 item 6: the API trusts nginx by its address (DAILYDEAL_TRUSTED_PROXIES=
    127.0.0.1), and takes the client's address from it: two clients of nginx have a budget
    each, and what a client writes in X-Forwarded-For changes nothing."""
    url = f"/api/v1/deals/{days['today']}-accordion-easy/plays"
    spoofs = [{}, {"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"}]
    codes = [_from(front, "127.0.0.2", "POST", url, h)[0] for h in spoofs]
    assert codes == [201, 201, 201], codes
    status, headers, body = _from(front, "127.0.0.2", "POST", url,
                                  {"X-Forwarded-For": "203.0.113.3"})
    assert status == 429 and int(headers["retry-after"]) > 0, body[:300]
    assert json.loads(body)["status"] == 429
    status, _, body = _from(front, "127.0.0.3", "POST", url)  # another client of nginx
    assert status == 201, body[:300]


def _pictures_served(front: Front) -> int:
    return (front.tmp / "gunicorn.log").read_text().count("/preview.png")


def test_a_picture_s_query_never_makes_a_cache_miss(
    front: Front, days: dict[str, Any]
) -> None:
    """Issue 39 item 1: ``preview.png?r=<random>`` passed nginx's cache every time (and the
    API drew each); now nginx keys a picture by its canonical query only, and every other
    query of it shares one entry: the API's 301 to the canonical URL."""
    from dailydeal.daily.picture import VERSION

    base = f"/api/v1/deals/{days['today']}-gaps-hard/preview.png"
    canonical = f"{base}?v={VERSION}"
    seen = []
    for path in (canonical, canonical, f"{base}?r=1", f"{base}?r=2",
                 f"{canonical}&r=3", f"{base}?v={VERSION}&v={VERSION}"):
        status, headers, body = front.request("GET", path)
        seen.append((status, headers.get("x-cache-status")))
        if status == 301:
            assert headers["location"] == canonical, headers
        else:
            assert status == 200 and body.startswith(b"\x89PNG"), body[:200]
    assert seen == [(200, "MISS"), (200, "HIT"), (301, "MISS"), (301, "HIT"), (301, "HIT"),
                    (301, "HIT")], seen
    wait_for(lambda: _pictures_served(front) == 2, "two picture requests", front.tmp
             / "gunicorn.log")
