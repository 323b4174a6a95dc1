"""nginx's own errors through deploy/nginx.conf.example for real (Debian's nginx in front of
the real gunicorn, the ``front`` fixture of tests/conftest.py, as tests/test_nginx.py):
each is a problem (RFC 9457) with CORS, as the API's are. Apart from tests/test_nginx.py so
two test workers share them. Skipped where nginx or openssl is absent.
"""

from __future__ import annotations

import json
import signal
from typing import Any

import pytest
from helpers.nginx import NGINX, OPENSSL, Front, state_url

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None,
    reason="nginx or openssl is not installed (Debian packages nginx, openssl)",
)


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


def test_nginx_answers_over_long_urls_as_a_problem_and_posts_are_not_cached(
    front: Front, days: dict[str, Any]
) -> None:
    # issue 25 item 8: a GET state of 1,000 moves was gunicorn's HTML 414, without CORS
    url = state_url(days) + "?moves="
    status, headers, answer = front.request("GET", url + "%20".join(["7S%2B6H"] * 1000))
    problem = nginx_problem(status, headers, answer, 414)
    assert "POST" in problem["detail"]
    status, headers, answer = front.request("GET", url + "%20".join(["d"] * 1800))  # 7.2 KB
    assert status == 200, answer[:300]
    body = json.dumps({"moves": ["d"] * 3000}).encode()
    status, headers, answer = front.request(
        "POST", state_url(days), body, {"Content-Type": "application/json"})
    assert status == 200, answer[:300]
    assert headers.get("x-cache-status") in (None, "BYPASS"), headers
