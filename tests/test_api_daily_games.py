"""The daily games come from the one setting DAILYDEAL_GAMES, in the API as in the pipeline."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from dailydeal.config import Settings
from dailydeal.daily import clock
from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.rating import TIERS
from dailydeal.web import create_app
from dailydeal.web.db import forget

API = "/api/v1"


def gaps_only_db(path: Path, now: dt.datetime, seed: int, solution: list[str]) -> Path:
    """Every tier of standard Gaps on every date that is today somewhere, nothing else."""
    db = open_db(path)
    day, last = clock.earliest_today(now), clock.latest_published(now)
    while day <= last:
        for i, tier in enumerate(TIERS):
            row = deal_row(day, "gaps", "standard", tier, seed, rating=10.0 + 25 * i,
                           solution=solution, version="test")
            insert_deal(db, row)
        day += dt.timedelta(days=1)
    db.close()
    return path


def test_healthz_and_caching_follow_dailydeal_games(
    tmp_path: Path,
    now: dt.datetime,
    solved: dict[str, tuple[int, list[str]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = gaps_only_db(tmp_path / "gaps.db", now, *solved["gaps"])
    monkeypatch.setenv("DAILYDEAL_DB", str(db))
    monkeypatch.setenv("DAILYDEAL_GAMES", "gaps")
    config: dict[str, Any] = {**asdict(Settings.from_env()), "NOW": lambda: now}
    assert config["games"] == (("gaps", "standard"),)
    app = create_app(config)
    try:
        c = app.test_client()
        health = c.get(f"{API}/healthz").get_json()
        assert health["status"] == "ok" and health["missing"] == []
        day = c.get(f"{API}/daily/{now.date().isoformat()}")
        assert "immutable" in day.headers["Cache-Control"]  # complete: it can no longer grow
        games = {g["name"]: g["daily_variant"] for g in c.get(f"{API}/games").get_json()["games"]}
        assert games == {"accordion": None, "pyramid": None, "gaps": "standard"}
    finally:
        forget(db)
    # without the setting, the same database misses the other games
    monkeypatch.delenv("DAILYDEAL_GAMES")
    app = create_app({**asdict(Settings.from_env()), "NOW": lambda: now})
    try:
        health = app.test_client().get(f"{API}/healthz").get_json()
        assert health["status"] == "degraded"
        assert {m.split("-")[3] for m in health["missing"]} == {"accordion", "pyramid"}
    finally:
        forget(db)
