"""`dailydeal serve`: fills every date that is today somewhere, starts one scheduler, serves."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dailydeal.cli import main
from dailydeal.cli.web import todays_range


@settings(deadline=None)
@given(
    st.datetimes(
        min_value=dt.datetime(2001, 1, 1),
        max_value=dt.datetime(2099, 1, 1),
        timezones=st.just(dt.UTC),
    )
)
def test_todays_range_covers_every_zone(now: dt.datetime) -> None:
    start, days = todays_range(now)
    dates = {start + dt.timedelta(days=i) for i in range(days)}
    zones = {(now + dt.timedelta(minutes=15 * q)).date() for q in range(-48, 57)}
    assert dates == zones
    assert days in (2, 3)


def test_serve_fills_schedules_and_serves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: dict[str, Any] = {}

    class Report:
        def summary(self) -> str:
            return "filled"

    def fake_fill(settings: Any, start: dt.date, days: int, **kw: Any) -> Report:
        calls["fill"] = (settings.db_path, start, days)
        return Report()

    class FakeScheduler:
        running = False

        def start(self) -> None:
            calls["started"] = calls.get("started", 0) + 1
            self.running = True

        def shutdown(self, wait: bool = True) -> None:
            calls["shutdown"] = True
            self.running = False

    def fake_create(settings: Any, *, blocking: bool) -> FakeScheduler:
        calls["blocking"] = blocking
        return FakeScheduler()

    def fake_serve(make_app: Any, host: str, port: int, **kw: Any) -> None:
        calls["serve"] = (make_app().config["DATABASE"], host, port, kw)
        calls["running_while_serving"] = calls.get("started", 0)

    monkeypatch.setattr("dailydeal.daily.generate.fill_days", fake_fill)
    monkeypatch.setattr(
        "dailydeal.cli.web.start_background_fill",
        lambda settings, jobs: calls.setdefault("background", (settings.db_path, jobs)) and None,
    )
    monkeypatch.setattr("dailydeal.daily.scheduler.create_scheduler", fake_create)
    monkeypatch.setattr("dailydeal.web.server.serve", fake_serve)
    db = tmp_path / "serve.db"
    before = dt.datetime.now(dt.UTC)
    result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", "8123"])
    assert result.exit_code == 0, result.output
    path, start, days = calls["fill"]
    assert Path(path) == db
    assert (start, days) == todays_range(before) or (start, days) == todays_range(
        dt.datetime.now(dt.UTC)
    )
    assert calls["blocking"] is False and calls["shutdown"] is True
    assert calls["running_while_serving"] == 1  # one scheduler, started before serving
    assert calls["serve"][:3] == (db, "127.0.0.1", 8123)

    calls.clear()
    result = CliRunner().invoke(main, ["serve", "--db", str(db), "--fill", "no", "--no-scheduler"])
    assert result.exit_code == 0, result.output
    assert "fill" not in calls and "started" not in calls
    assert calls["serve"][1:3] == ("127.0.0.1", 8000)

    calls.clear()
    result = CliRunner().invoke(
        main, ["serve", "--db", str(db), "--fill", "background", "--jobs", "3", "--no-scheduler"]
    )
    assert result.exit_code == 0, result.output
    assert "fill" not in calls and calls["background"] == (db, 3) and "serve" in calls
