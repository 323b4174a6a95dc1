"""Shared fixtures: flaskr-style ``app`` and ``client`` on a temporary database
filled with real deals (real seeds, real solver solutions) on dates around "now".

The app's clock is frozen at the session's start (config ``NOW``), so the rows' dates keep
their meaning (past, today, future) however long the session runs.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import socket
import subprocess
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, Response
from flask.testing import FlaskClient
from helpers import ROOT, free_port, running, wait_for
from helpers.browser import (
    DESKTOP,
    EVENTS_JS,
    HOST_PAGE,
    SKIP,
    WATCHES,
    Watch,
    chromium,
    chromium_for_tests,
    hosts,
    script_url,
    serve,
    serve_deals,
)
from helpers.nginx import (
    EXAMPLE,
    GUNICORN,
    NGINX,
    OPENSSL,
    SERVER_NAME,
    Front,
    adapted,
)
from helpers.raw_http import SMALL
from hypothesis import HealthCheck, settings

from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.games import GAMES, default_variant
from dailydeal.rating import TIERS
from dailydeal.solvers import solve

# test files longest first (make test's workers end together); --store-durations
pytest_plugins = ["helpers.longest_first"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Which Chromium the browser tests drove (helpers/browser.py: chromium_for_tests), said
    at the end of the run, -q or not."""
    terminalreporter.write_line(SKIP or f"browser tests: {chromium_for_tests()}")

CANDIDATE_SEEDS = (2, 1, 4, 5, 3, 6, 8, 9, 10, 11)  # tried in turn until the solver wins one
# A node budget, never a clock: the same seeds and solutions on a slow or loaded machine
# (seed 2 wins every game today: 460, 5120 and 624 nodes).
SOLVE_NODES = 50_000
START = dt.datetime.now(dt.UTC).replace(microsecond=0)

# No clock in Hypothesis's verdicts either: its 200 ms deadline per example and its
# too-slow health check are timed assertions, and on a loaded machine they failed tests
# whose checks passed (test_cards's deck round trip: one example took 505 ms, then 0.15 ms).
settings.register_profile(
    "dailydeal", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("dailydeal")


@pytest.fixture(scope="session")
def now() -> dt.datetime:
    """The frozen clock of the test apps."""
    return START


@pytest.fixture(scope="session")
def days(now: dt.datetime) -> dict[str, dt.date]:
    """Named dates relative to the frozen clock: old (outside the feed), past (solutions
    open), today (UTC, published, solutions locked), future (3 days ahead: never served)."""
    today = now.date()
    return {
        "old": today - dt.timedelta(days=40),
        "past": today - dt.timedelta(days=3),
        "today": today,
        "future": today + dt.timedelta(days=3),
    }


@pytest.fixture(scope="session")
def solved() -> dict[str, tuple[int, list[str]]]:
    """game -> (seed, a real solver solution) for every game's default variant (cached):
    the first candidate seed the solver wins within ``SOLVE_NODES`` nodes."""
    out = {}
    for game in GAMES:
        for seed in CANDIDATE_SEEDS:
            result = solve(game, seed, max_nodes=SOLVE_NODES)
            if result.status == "won":
                out[game] = (seed, result.moves)
                break
        else:
            pytest.fail(f"the {game} solver won none of the seeds {CANDIDATE_SEEDS} within "
                        f"{SOLVE_NODES} nodes")
    return out


@pytest.fixture(scope="session")
def solutions(solved: dict[str, tuple[int, list[str]]]) -> dict[str, list[str]]:
    return {game: moves for game, (_, moves) in solved.items()}


@pytest.fixture(scope="session")
def seeds(solved: dict[str, tuple[int, list[str]]]) -> dict[str, int]:
    return {game: seed for game, (seed, _) in solved.items()}


@pytest.fixture(scope="session")
def deal_rows(
    days: dict[str, dt.date], solved: dict[str, tuple[int, list[str]]]
) -> list[dict[str, Any]]:
    """Rows in the store's shape: every game x tier on every named date."""
    rows = []
    for day in days.values():
        for game in GAMES:
            variant = default_variant(game)
            seed, solution = solved[game]
            for i, tier in enumerate(TIERS):
                rows.append(
                    deal_row(
                        day,
                        game,
                        variant,
                        tier,
                        seed,
                        rating=10.0 + 25 * i,
                        solution=solution,
                        solver={"status": "won"},
                        version="test",
                    )
                )
    return rows


@pytest.fixture
def fill_db(deal_rows: list[dict[str, Any]]) -> Callable[[Path], Path]:
    """fill_db(path): create a database at ``path`` holding every row of ``deal_rows``."""

    def fill(path: Path) -> Path:
        db = open_db(path)
        for row in deal_rows:
            insert_deal(db, row)
        db.close()
        return path

    return fill


@pytest.fixture
def db_path(tmp_path: Path, fill_db: Callable[[Path], Path]) -> Path:
    return fill_db(tmp_path / "dailydeal.db")


@pytest.fixture
def app(db_path: Path, now: dt.datetime) -> Iterator[Flask]:
    from dailydeal.web import create_app
    from dailydeal.web.db import forget

    app = create_app(
        {
            "TESTING": True,
            "db_path": db_path,
            "NOW": lambda: now,
            "verify_rate_limit": "10000 per minute",
        }
    )
    yield app
    forget(db_path)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def check_problem(resp: Any, status: int) -> dict[str, Any]:
    """Assert ``resp`` is an RFC 9457 problem with ``status`` (CORS too); return its body."""
    text = resp.get_data(as_text=True)
    assert resp.status_code == status, text
    assert resp.mimetype == "application/problem+json"
    body: dict[str, Any] = resp.get_json(force=True)
    assert body["status"] == status
    assert body["title"] and body["detail"]
    assert "Traceback" not in text
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    return body


@pytest.fixture
def problem() -> Callable[[Any, int], dict[str, Any]]:
    """``problem(resp, status)``: check an RFC 9457 answer and return its body."""
    return check_problem


@pytest.fixture
def server(tmp_path: Path, fill_db: Any) -> Any:
    """gunicorn -c deploy/gunicorn.conf.py with two workers on a filled database (the
    deployment tests: test_deploy.py, test_play_deploy.py)."""
    fill_db(tmp_path / "dailydeal.db")
    with running("gunicorn", tmp_path, env={"DAILYDEAL_WORKERS": "2"},
                 startup=30) as (base, pid):
        yield f"{base}/api/v1", pid


# --- the browser tests' site, another origin, Chromium and a watched page (module scope:
# each browser test module has its own server and database) ---------------------------
@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory, deal_rows: list[dict[str, Any]], now: dt.datetime
) -> Iterator[str]:
    with serve_deals(
        tmp_path_factory.mktemp("web") / "dailydeal.db",
        deal_rows,
        now,
        state_rate_limit="100000 per minute",
        verify_rate_limit="10000 per minute",
        hint_rate_limit="10000 per minute",
        results_rate_limit="10000 per hour",
    ) as url:
        yield url


@pytest.fixture(scope="module")
def other_origin(site: str) -> Iterator[str]:
    """Somebody else's site on another port: a page that embeds the player."""
    host = Flask("host")

    @host.get("/")
    def index() -> Response:
        from flask import request

        deal = request.args["deal"]
        script = json.loads(urllib.request.urlopen(f"{site}/api/v1/").read())  # noqa: S310
        assert script["links"]["play"] == "/"
        html = (
            HOST_PAGE.replace("SCRIPT", f"{site}{script_url(site)}")
            .replace("DEAL", deal)
            .replace("API", f"{site}/api/v1")
            .replace("EMBED", f"{site}{request.args.get('frame', '/embed/' + deal)}")
        )
        return Response(html, mimetype="text/html")

    @host.get("/events.js")
    def events() -> Response:
        return Response(EVENTS_JS, mimetype="text/javascript")

    with serve(host) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as chrome:
        yield chrome


@pytest.fixture
def page(
    browser: Any, site: str, other_origin: str, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A page of a fresh context (desktop size, the clipboard allowed) watched for console
    errors and requests to other hosts. It prefers reduced motion, as a player may: the
    cards then jump to their places instead of sliding for 200 ms after each move, which
    Playwright's clicks waited for (half of the browser tests' time). Tests about motion
    (a tap on a sliding card, a drag's slide back, a refused move's shake) are marked
    ``motion`` and get the slides."""
    motion = request.node.get_closest_marker("motion") is not None
    context = browser.new_context(
        viewport=DESKTOP,
        permissions=["clipboard-read", "clipboard-write"],
        reduced_motion="no-preference" if motion else "reduce",
    )
    page = context.new_page()
    watch = Watch(hosts(site, other_origin))
    watch.attach(page)
    WATCHES[id(page)] = watch
    page.set_default_timeout(10_000)
    yield page
    context.close()
    WATCHES.pop(id(page), None)
    assert watch.errors == [], f"console errors: {watch.errors}"
    assert watch.foreign == [], f"requests to other hosts: {watch.foreign}"


@pytest.fixture(scope="module")
def gunicorn_like_docker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """deploy/gunicorn.conf.py as the image runs it (DAILYDEAL_FORWARDED_ALLOW_IPS=*), one
    worker (tests/test_hostile_server.py, tests/test_hostile_requests.py). One server for a
    module's hostile requests, each test's after the others' (a start and a stop cost about
    5 s; and a server that took every kind must still answer the next); no traceback in its
    log at the end."""
    tmp_path = tmp_path_factory.mktemp("gunicorn")
    env = {**SMALL, "DAILYDEAL_FORWARDED_ALLOW_IPS": "*",
           "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",
           "DAILYDEAL_VERIFY_LIMIT": "100000 per minute"}
    with running("gunicorn", tmp_path, env=env) as (base, _):
        yield base
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def front(tmp_path: Path, fill_db: Any) -> Iterator[Front]:
    """Debian's nginx with deploy/nginx.conf.example adapted (helpers/nginx.py) in front of
    the real gunicorn on a filled database (tests/test_nginx.py, test_nginx_problems.py)."""
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
