"""The real deployment: gunicorn with deploy/gunicorn.conf.py, over a real socket."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from typing import Any

import pytest
from helpers import ROOT, fetch


def test_gunicorn_serves_a_deal_and_verifies_its_solution(
    server: Any, solutions: dict[str, list[str]], days: dict[str, dt.date]
) -> None:
    base, pid = server
    # The date the database holds as today; the server reads the real clock, which still
    # serves it (today somewhere) if midnight UTC has passed since the session started.
    today = days["today"]
    status, headers, body = fetch(f"{base}/daily/{today}/gaps/medium")
    assert status == 200, body
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["ETag"]
    status, _, verdict = fetch(
        base + body["links"]["verify"].removeprefix("/api/v1"), {"moves": solutions["gaps"]}
    )
    assert status == 200
    assert verdict["valid"] and verdict["won"]
    # the win kept and signed under gunicorn's workers: its solve and the keys answer
    status, _, solve = fetch(f"{base}/solves/{verdict['solve']['id']}")
    assert status == 200 and solve["signature"] == verdict["solve"]["signature"]
    assert solve["moves"] is None  # today: the line stays hidden
    status, _, keys = fetch(f"{base}/keys")
    assert status == 200 and solve["key"] in {k["id"] for k in keys["keys"]}
    status, headers, prob = fetch(f"{base}/daily/{today + dt.timedelta(days=3)}/gaps/medium")
    assert status == 404 and headers["Content-Type"] == "application/problem+json"
    # the config starts several workers: the master has DAILYDEAL_WORKERS=2 children
    if shutil.which("pgrep"):
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
        assert len(children.stdout.split()) == 2


def post_chunked(base: str, path: str, body: bytes) -> tuple[int, Any]:
    """POST ``body`` with Transfer-Encoding: chunked (no Content-Length)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        chunks = (body[i : i + 4096] for i in range(0, len(body), 4096))
        conn.request(
            "POST",
            parts.path + path,
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_gunicorn_limits_chunked_bodies_too(server: Any) -> None:
    base, _ = server
    small = json.dumps({"seed": 7, "moves": ["d"] * 10}).encode()
    status, verdict = post_chunked(base, "/games/pyramid/verify", small)
    assert status == 200 and verdict["moves"] == 10
    big = json.dumps({"seed": 7, "moves": ["d"] * 20000}).encode()  # ~120 KB > 64 KiB
    status, prob = post_chunked(base, "/games/pyramid/verify", big)
    assert status == 413 and "65536" in prob["detail"]


def test_deploy_files_run_one_scheduler_and_several_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import configparser
    import runpy

    import click

    from dailydeal.cli import main

    for var in ("DAILYDEAL_WORKERS", "DAILYDEAL_BIND", "DAILYDEAL_CONNECTIONS"):
        monkeypatch.delenv(var, raising=False)
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert conf["workers"] >= 3 and conf["wsgi_app"] == "dailydeal.web:create_app()"
    assert conf["bind"] == "127.0.0.1:8000" and not conf["preload_app"]
    units = {}
    for name in ("dailydeal-api.service", "dailydeal-scheduler.service"):
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(ROOT / "deploy" / name)
        units[name] = parser["Service"]["ExecStart"]
    assert "gunicorn -c" in units["dailydeal-api.service"]
    assert units["dailydeal-api.service"].endswith("deploy/gunicorn.conf.py")
    assert units["dailydeal-scheduler.service"].endswith("dailydeal schedule")
    assert {"schedule", "serve"} <= set(main.list_commands(click.Context(main)))
    docker = (ROOT / "deploy" / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["/app/deploy/docker-entrypoint.sh"]' in docker
    entry = (ROOT / "deploy" / "docker-entrypoint.sh").read_text()
    assert 'gunicorn -c "$conf"' in entry and "dailydeal schedule &" in entry
    assert "both) check_secret; start_scheduler; start_api" in entry  # one scheduler


def test_the_master_preloads_nothing_gevent_must_patch_first() -> None:
    """deploy/gunicorn.conf.py imports, in the master, modules every worker imports (its
    PRELOADED): none of the app's modules but the package (which the master imports for the
    worker class anyway), its pydantic models and the problem codes they name, and no thread
    started; a forked worker is patched by gevent only after the fork, and makes its locks
    and connections then."""
    code = (
        "import runpy, sys, threading\n"
        f"conf = runpy.run_path({str(ROOT / 'deploy' / 'gunicorn.conf.py')!r})\n"
        "loaded = [m for m in conf['PRELOADED'] if m in sys.modules]\n"
        "web = sorted(m for m in sys.modules if m.startswith('dailydeal.web.'))\n"
        "print(len(loaded) == len(conf['PRELOADED']), web, threading.active_count())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    # the models and what they read: problems.CODES (a table; the module makes a logger
    # and nothing else at import)
    web = "['dailydeal.web.problems', 'dailydeal.web.schema']"
    assert out == ["True", *web.split(), "1"], out
