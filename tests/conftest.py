"""Shared fixtures: flaskr-style ``app`` and ``client`` on a temporary database
filled with real deals (real seeds, real solver solutions) on dates around "now".

The app's clock is frozen at the session's start (config ``NOW``), so the rows' dates keep
their meaning (past, today, future) however long the session runs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.games import GAMES, default_variant
from dailydeal.rating import TIERS
from dailydeal.solvers import solve

CANDIDATE_SEEDS = (2, 1, 4, 5, 3, 6, 8, 9, 10, 11)  # tried in turn until the solver wins one
START = dt.datetime.now(dt.UTC).replace(microsecond=0)


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
    the first candidate seed the solver wins within a short budget."""
    out = {}
    for game in GAMES:
        for seed in CANDIDATE_SEEDS:
            result = solve(game, seed, time_limit=2)
            if result.status == "won":
                out[game] = (seed, result.moves)
                break
        else:
            pytest.fail(f"the {game} solver won none of the seeds {CANDIDATE_SEEDS}")
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
            "DATABASE": db_path,
            "NOW": lambda: now,
            "VERIFY_RATE_LIMIT": "10000 per minute",
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
