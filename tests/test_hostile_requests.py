"""Hostile requests against the real gunicorn (issue 9 item 3: 500s from the server's side
of HTTP), over real sockets; items 1 and 14 are in tests/test_hostile_server.py.

gunicorn is started as it ships (benchmarks/servers.py, ``gunicorn_like_docker`` in
tests/conftest.py). benchmarks/hostile.py sends 20,000 hostile requests and measures; these
tests run a small version and assert behaviour only.
"""

from __future__ import annotations

import json

import hostile  # benchmarks/hostile.py (helpers puts benchmarks/ on the path)
import pytest
from helpers.raw_http import exchange


# --- item 3: 500s from the server's side of HTTP -----------------------------------------
def test_a_malformed_chunked_body_is_a_400(gunicorn_like_docker: str) -> None:
    data = (b"POST /api/v1/games/gaps/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"zz\r\nabc\r\n0\r\n\r\n")
    status, answer = exchange(gunicorn_like_docker, data)
    assert status == 400 and b"chunked" in answer


@pytest.mark.parametrize("coding", ["chunked, x", "gzip, chunked", "x"])
def test_an_unknown_transfer_coding_is_a_4xx_not_a_501(
    gunicorn_like_docker: str, coding: str
) -> None:
    data = (b"POST /api/v1/games/gaps/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Transfer-Encoding: " + coding.encode() + b"\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
    status = exchange(gunicorn_like_docker, data)[0]
    assert status is not None and 400 <= status < 500


@pytest.mark.parametrize("header", ["SCRIPT_NAME: /foo", "SCRIPT_NAME: /api", "PATH_INFO: /x"])
def test_a_script_name_header_is_ignored_even_from_a_trusted_address(
    gunicorn_like_docker: str, header: str
) -> None:
    data = (b"GET /api/v1/games/gaps/deals/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + header.encode() + b"\r\n\r\n")
    status, answer = exchange(gunicorn_like_docker, data)
    assert status == 200, answer[:300]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["links"]["verify"] == "/api/v1/games/gaps/verify"


def test_a_small_hostile_run_gets_no_5xx(gunicorn_like_docker: str) -> None:
    """benchmarks/hostile.py's classes, 20 requests each (the benchmark sends 20,000)."""
    result = hostile.attack(gunicorn_like_docker, 20 * len(hostile.CLASSES), seed=7)
    assert result["requests"] == 20 * len(hostile.CLASSES)
    assert result["5xx"] == 0, result["examples_5xx"]
    assert result["tracebacks_in_answers"] == 0 and result["no_answer"] == 0
