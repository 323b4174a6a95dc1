"""The scheduler: job configuration, the job function, a real start/shutdown, the command."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, JobExecutionEvent
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger

from dailydeal.config import Settings
from dailydeal.daily import store
from dailydeal.daily.generate import utc_today
from dailydeal.daily.scheduler import JOB_ID, create_scheduler, fill_stock
from dailydeal.daily.today import todays_range
from dailydeal.web import create_app

UTC = dt.UTC
SECRET = "sched-secret-9d3b7f1e5a2c8e4b6f0a1d3c5e7b9f2d"


def small(path: Path, **kw: Any) -> Settings:
    values: dict[str, Any] = {
        "db_path": path, "secret": SECRET, "games": (("gaps", "standard"),),
        "solve_max_nodes": 3000, "solve_time_limit": 300.0, "max_attempts": 4, "days_ahead": 1,
    }
    values.update(kw)
    return Settings(**values)


def test_job_configuration(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db")
    for blocking, cls in ((True, BlockingScheduler), (False, BackgroundScheduler)):
        sched = create_scheduler(settings, blocking=blocking)
        assert isinstance(sched, cls)
        assert not sched.running
        [job] = sched.get_jobs()
        assert job.id == JOB_ID
        assert job.func is fill_stock and tuple(job.args) == (settings,)
        assert job.coalesce is True
        assert job.misfire_grace_time >= 3600
        assert job.max_instances == 1
        trigger = job.trigger
        assert isinstance(trigger, CronTrigger)
        assert trigger.timezone.utcoffset(dt.datetime(2026, 6, 1)) == dt.timedelta(0)
        fields = {f.name: str(f) for f in trigger.fields}
        assert fields["minute"] == "5" and fields["hour"] == "*"
        nxt = trigger.get_next_fire_time(None, dt.datetime(2026, 12, 1, 0, 0, tzinfo=UTC))
        assert nxt == dt.datetime(2026, 12, 1, 0, 5, tzinfo=UTC)
        nxt = trigger.get_next_fire_time(None, dt.datetime(2026, 12, 31, 23, 6, tzinfo=UTC))
        assert nxt == dt.datetime(2027, 1, 1, 0, 5, tzinfo=UTC)


def test_job_function_fills_the_stock(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", days_ahead=2)
    day = dt.date(2030, 5, 1)
    noon = dt.datetime(2030, 5, 1, 12, tzinfo=UTC)  # today everywhere: day and day+1
    report = fill_stock(settings, noon)
    assert (report.start, report.days) == (day, 3)
    db = store.open_db(settings.db_path)
    end = day + dt.timedelta(days=2)
    stored = store.stored_keys(db, day - dt.timedelta(days=30), end + dt.timedelta(days=30))
    assert stored, "nothing stored"
    assert {k[0] for k in stored} <= {(day + dt.timedelta(days=i)).isoformat() for i in range(3)}
    missing = store.missing_keys(db, [day + dt.timedelta(days=i) for i in range(3)],
                                 settings.games, ("easy", "medium", "hard", "expert"))
    assert sorted(missing) == report.unfilled
    # the next run has nothing to do
    assert fill_stock(settings, noon).filled == 0


def test_the_job_fills_the_americas_on_day_one(tmp_path: Path) -> None:
    """At 03:00 UTC it is still yesterday in New York: that date must be stored too."""
    settings = small(tmp_path / "d.db", days_ahead=0, solve_max_nodes=20000, max_attempts=6)
    now = dt.datetime(2030, 5, 2, 3, tzinfo=UTC)
    new_york = now.astimezone(ZoneInfo("America/New_York")).date()
    assert new_york == dt.date(2030, 5, 1)
    report = fill_stock(settings, now)
    assert (report.start, report.days) == todays_range(now) == (dt.date(2030, 5, 1), 2)
    db = store.open_db(settings.db_path)
    stored = store.stored_keys(db, new_york, new_york)
    assert stored, "nothing stored for New York's date"
    assert len(stored) + len(store.unfilled_between(db, new_york, new_york)) == 4
    # what the API serves to New York at that instant is there
    app = create_app({"db_path": settings.db_path, "NOW": lambda: now, "TESTING": True})
    answer = app.test_client().get("/api/v1/daily/today?tz=America/New_York")
    assert answer.status_code in (200, 302, 303, 307), answer.status_code
    if answer.status_code != 200:
        assert new_york.isoformat() in answer.headers["Location"]


def test_background_scheduler_runs_the_job(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", days_ahead=0)
    sched = create_scheduler(settings, blocking=False)
    done = threading.Event()
    events: list[JobExecutionEvent] = []

    def listener(event: JobExecutionEvent) -> None:
        events.append(event)
        done.set()

    sched.add_listener(listener, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    sched.start()
    try:
        assert sched.running
        sched.get_job(JOB_ID).modify(next_run_time=dt.datetime.now(UTC))
        assert done.wait(120), "the job did not run"
    finally:
        sched.shutdown(wait=True)
    assert not sched.running
    assert events[0].exception is None
    report = events[0].retval
    assert report.start == utc_today() or report.start == utc_today() - dt.timedelta(days=1)
    db = store.open_db(settings.db_path)
    stored = store.stored_keys(db, report.start, report.start)
    assert len(stored) + len([u for u in report.unfilled if u[0] == report.start]) == 4


def test_schedule_command_backfills_then_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    env = {**os.environ, "DAILYDEAL_SECRET": SECRET, "DAILYDEAL_GAMES": "gaps",
           "DAILYDEAL_MAX_NODES": "3000", "DAILYDEAL_MAX_ATTEMPTS": "4"}
    before = utc_today()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from dailydeal.cli import main; main()", "schedule",
         "--db", str(db), "--days-ahead", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 120
        started = False
        assert proc.stdout is not None
        for line in proc.stdout:
            if "scheduler started" in line:
                started = True
                break
            if time.monotonic() > deadline:
                break
        assert started, "no 'scheduler started' line"
        with sqlite3.connect(db) as conn:
            dates = {r[0] for r in conn.execute("SELECT date FROM deals")}
            notes = {r[0] for r in conn.execute("SELECT date FROM unfilled")}
        windows = [  # today..today+1, with today read before and after (midnight)
            {d.isoformat(), (d + dt.timedelta(days=1)).isoformat()}
            for d in (before, utc_today())
        ]
        assert any(dates | notes >= w for w in windows), (dates, notes)
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, rest
        assert "scheduler stopped" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
