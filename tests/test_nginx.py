"""deploy/nginx.conf.example for real: Debian's nginx in front of the real gunicorn.

The example is adapted by substitution only (ports, a temporary cache directory, a
self-signed certificate), wrapped in a minimal nginx.conf under a temporary prefix, checked
with ``nginx -t`` and started. Skipped where nginx or openssl is absent (Debian packages
nginx or nginx-light, and openssl).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, free_port, wait_for
from helpers.nginx import EXAMPLE, GUNICORN, NGINX, OPENSSL, SERVER_NAME, adapted, https_request

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None,
    reason="nginx or openssl is not installed (Debian packages nginx, openssl)",
)


@dataclass
class Front:
    port: int
    gunicorn: subprocess.Popen[bytes]
    tmp: Path

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return https_request(self.port, method, path, body, headers)


@pytest.fixture
def front(tmp_path: Path, fill_db: Any) -> Iterator[Front]:
    assert NGINX is not None and OPENSSL is not None
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={SERVER_NAME}", "-keyout", str(tmp_path / "key.pem"),
         "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )
    upstream, port = free_port(), free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
        "DAILYDEAL_DB": str(fill_db(tmp_path / "nginx.db")),
        "DAILYDEAL_BIND": f"127.0.0.1:{upstream}",
        "DAILYDEAL_WORKERS": "1",
        "DAILYDEAL_CONNECTIONS": "100",
        "DAILYDEAL_PUBLIC_URL": f"https://{SERVER_NAME}",  # as the systemd unit
        "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",  # as the systemd unit behind nginx
        "DAILYDEAL_VERIFY_LIMIT": "1000 per minute",
        "DAILYDEAL_PLAYS_LIMIT": "3 per minute",  # reached by the client address test
    }
    glog = tmp_path / "gunicorn.log"
    with open(glog, "wb") as out:
        gunicorn = subprocess.Popen(
            [str(GUNICORN), "-c", str(ROOT / "deploy" / "gunicorn.conf.py")],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    conf = tmp_path / "nginx.conf"
    conf.write_text(adapted(EXAMPLE.read_text(), tmp_path, port, upstream))
    nginx: subprocess.Popen[bytes] | None = None
    try:
        checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)],
                                 capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        wait_for(lambda: socket.create_connection(("127.0.0.1", upstream), 1).close() or True,
                 "gunicorn", glog)
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True,
                 "nginx", tmp_path / "error.log")
        yield Front(port, gunicorn, tmp_path)
    finally:
        for proc in (nginx, gunicorn):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM if proc is gunicorn else signal.SIGQUIT)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def nginx_problem(status: int, headers: dict[str, str], body: bytes, expected: int) -> Any:
    """nginx's own error, shaped as the API's: RFC 9457 problem with CORS."""
    assert status == expected, body[:300]
    assert headers["content-type"] == "application/problem+json", headers
    assert headers["access-control-allow-origin"] == "*"
    assert headers["cache-control"] == "no-store"
    problem = json.loads(body)
    assert problem["status"] == expected and problem["title"] and problem["detail"]
    assert problem["type"] == "about:blank"
    return problem


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


def test_nginx_answers_its_own_429_as_a_problem(front: Front) -> None:
    url = "/api/v1/games/gaps/verify"
    body = json.dumps({"seed": 1, "moves": []}).encode()
    codes = []
    for _ in range(4):  # rate=1r/m, burst=1 in the test: the third request is nginx's
        status, headers, answer = front.request(
            "POST", url, body, {"Content-Type": "application/json"})
        codes.append(status)
        if status == 429:
            problem = nginx_problem(status, headers, answer, 429)
            assert "retry-after" in headers
            assert "this address" in problem["detail"]
            break
    assert codes[0] == 200 and codes[-1] == 429, codes


def test_nginx_answers_a_too_large_body_as_a_problem(front: Front) -> None:
    big = json.dumps({"seed": 1, "moves": ["d"] * 30000}).encode()  # > 64 KiB
    status, headers, answer = front.request(
        "POST", "/api/v1/games/pyramid/verify", big, {"Content-Type": "application/json"})
    nginx_problem(status, headers, answer, 413)


def test_nginx_answers_502_as_a_problem_when_the_api_is_down(front: Front) -> None:
    front.gunicorn.send_signal(signal.SIGTERM)
    front.gunicorn.wait(timeout=30)
    status, headers, answer = front.request("GET", "/api/v1/games/gaps/deals/12345")
    problem = nginx_problem(status, headers, answer, 502)
    assert "retry-after" in headers and "unavailable" in problem["detail"]


def _state_url(days: dict[str, Any]) -> str:
    """The state URL of a deal the fixture's database holds and the server serves."""
    return f"/api/v1/deals/{days['today']}-pyramid-easy/state"


def test_a_get_state_is_cached_by_nginx_and_carries_no_client_s_budget(
    front: Front, days: dict[str, Any]
) -> None:
    # issue 25 item 12: the regex location of verify/state had no proxy_cache
    url = _state_url(days) + "?moves=d%20d"
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


def test_nginx_answers_over_long_urls_as_a_problem_and_posts_are_not_cached(
    front: Front, days: dict[str, Any]
) -> None:
    # issue 25 item 8: a GET state of 1,000 moves was gunicorn's HTML 414, without CORS
    url = _state_url(days) + "?moves="
    status, headers, answer = front.request("GET", url + "%20".join(["7S%2B6H"] * 1000))
    problem = nginx_problem(status, headers, answer, 414)
    assert "POST" in problem["detail"]
    status, headers, answer = front.request("GET", url + "%20".join(["d"] * 1800))  # 7.2 KB
    assert status == 200, answer[:300]
    body = json.dumps({"moves": ["d"] * 3000}).encode()
    status, headers, answer = front.request(
        "POST", _state_url(days), body, {"Content-Type": "application/json"})
    assert status == 200, answer[:300]
    assert headers.get("x-cache-status") in (None, "BYPASS"), headers


def _from(front: Front, source: str, method: str, path: str,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A request to nginx from the loopback address ``source`` (all of 127/8 is local)."""
    conn = http.client.HTTPSConnection("127.0.0.1", front.port, timeout=15,
                                       context=ssl._create_unverified_context(),
                                       source_address=(source, 0))
    try:
        conn.request(method, path, body=b"{}" if method == "POST" else None,
                     headers={"Host": SERVER_NAME, "Content-Type": "application/json",
                              **(headers or {})})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


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
