"""Raw HTTP to the shipped servers (benchmarks/hostile.py's sender), for the hostile-client
tests (tests/test_hostile_server.py, tests/test_hostile_requests.py) and their
``gunicorn_like_docker`` fixture (tests/conftest.py)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import hostile  # benchmarks/hostile.py (helpers puts benchmarks/ on the path)

SMALL = {"DAILYDEAL_WORKERS": "1"}


def host_port(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return parts.hostname or "127.0.0.1", parts.port or 80


def get(base: str, path: str, timeout: float = 10) -> tuple[int, Any]:
    with urllib.request.urlopen(base + path, timeout=timeout) as resp:
        return resp.status, json.loads(resp.read())


def exchange(base: str, data: bytes) -> tuple[int | None, bytes]:
    """Send raw bytes; the final status and the whole answer."""
    answer = hostile.send(*host_port(base), data)
    return hostile.status_of(answer), answer
