"""What the tests share, in one place: no test module imports another.

``free_port`` is benchmarks/servers.py's (the one way the tests and the benchmarks start
the shipped servers); ``browser`` drives Chromium, ``nginx`` and ``cluster`` start the
deployment's nginx, gunicorn nodes and redis-server, ``naive`` holds the second-opinion
move generators. Fixtures shared by several test modules live in tests/conftest.py.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from servers import free_port, running  # noqa: E402  (benchmarks/servers.py)


def wait_for(check: Any, what: str, log: Path) -> None:
    """Until ``check()`` is true (OSError counts as not yet), at most 30 s; else fail with
    the end of ``log``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{what} did not start:\n" + log.read_text()[-3000:])


def python_source(name: str) -> ModuleType:
    """dailydeal/solvers/``name``.py itself, whatever build ``dailydeal.solvers.<name>``
    imported (the reference a C build is held equal to)."""
    path = ROOT / "dailydeal" / "solvers" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fill_workers(pid: int) -> int:
    """How many children of process ``pid`` are a fill's solver processes that ignore
    Ctrl-C: processes started by multiprocessing's spawn whose initializer has run
    (``generate._init_worker``; a Ctrl-C before it kills one with a traceback)."""
    count = 0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            status = (proc / "status").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        ignored = int(fields.get("SigIgn", "0"), 16) >> (signal.SIGINT - 1) & 1
        if fields.get("PPid") == str(pid) and b"spawn_main" in cmdline and ignored:
            count += 1
    return count


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process started by a test: ``sig``, then SIGKILL after 20 s."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def fetch(url: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
    """GET ``url``, or POST ``body`` as JSON: (status, headers, JSON body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), json.loads(exc.read())


def exchange(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on ``conn``, which is closed after: (status, headers with lower-case
    names, body)."""
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


__all__ = ["ROOT", "exchange", "fetch", "free_port", "running", "stop", "wait_for"]
