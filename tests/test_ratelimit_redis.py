"""The verify budget shared through a real redis-server (``pip install 'dailydeal[redis]'``).

With ``memory://`` each worker process counts alone; with ``redis://`` every worker and
every machine share one budget per client. Two app instances stand for two workers here,
against a redis-server started by the test on a free port (skipped where it is absent).
"""

from __future__ import annotations

import datetime as dt
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dailydeal.web import create_app

REDIS = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if REDIS is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_two_instances_share_one_verify_budget(
    redis_url: str, tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any
) -> None:
    db = fill_db(tmp_path / "r.db")
    config = {"DATABASE": db, "NOW": lambda: now, "VERIFY_RATE_LIMIT": "3 per minute",
              "RATELIMIT_STORAGE_URI": redis_url}
    workers = [create_app(dict(config)).test_client() for _ in range(2)]
    url = "/api/v1/games/gaps/verify"
    answers = [workers[i % 2].post(url, json={"seed": 1, "moves": []}) for i in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    for client in workers:  # the budget is spent for both, whichever counted
        body = problem(client.post(url, json={"seed": 1, "moves": []}), 429)
        assert "3 per 1 minute" in body["detail"]
    # another client still has its own budget
    other = workers[1].post(url, json={"seed": 1, "moves": []},
                            environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200


def test_memory_storage_counts_per_instance(
    tmp_path: Path, fill_db: Any, now: dt.datetime
) -> None:
    """What the redis storage is for: in memory, each instance has a budget of its own."""
    config = {"DATABASE": fill_db(tmp_path / "m.db"), "NOW": lambda: now,
              "VERIFY_RATE_LIMIT": "1 per minute", "RATELIMIT_STORAGE_URI": "memory://"}
    workers = [create_app(dict(config)).test_client() for _ in range(2)]
    codes = [w.post("/api/v1/games/gaps/verify", json={"seed": 1, "moves": []}).status_code
             for w in workers]
    assert codes == [200, 200]
