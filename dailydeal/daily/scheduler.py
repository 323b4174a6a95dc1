"""APScheduler 3.x job that keeps the stock of daily deals filled.

One cron job in UTC, every hour at minute 5: at 00:05 UTC it stores the new last day of the
window (today+N), and the other runs are a cheap safety net (a run with nothing missing is
a few queries; a tier that could not be filled is not searched again, see ``generate``).
``coalesce`` turns a backlog of missed runs into one, ``misfire_grace_time`` lets a run
that is late (machine asleep, long backfill) still happen, ``max_instances=1`` never runs two
at once in one scheduler (two schedulers on one database are harmless anyway).

The trigger only decides WHEN to look; WHAT to fill is every date that is "today"
somewhere on Earth (from the date at UTC-12 to the date at UTC+14, as ``serve`` fills)
through the UTC date ``days_ahead`` days ahead (``dailydeal.daily.today.stock_range``).
"""

from __future__ import annotations

import datetime as dt
import logging
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any

from apscheduler.events import EVENT_SCHEDULER_STARTED, SchedulerEvent
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger

from dailydeal.config import Settings
from dailydeal.daily import store, webhooks
from dailydeal.daily.generate import FillReport, fill_days
from dailydeal.daily.today import stock_range

log = logging.getLogger(__name__)

JOB_ID = "fill-stock"
CRON = {"hour": "*", "minute": 5}  # every hour at hh:05 UTC
MISFIRE_GRACE_TIME = 6 * 3600  # seconds a run may be late and still happen


def stock_line(report: FillReport) -> str:
    """One line on what a run added (not the whole window's summary again: ``serve`` has
    just printed today's), or that nothing was missing."""
    end = report.start + dt.timedelta(days=max(report.days - 1, 0))
    window = f"stock {report.start.isoformat()}..{end.isoformat()}"
    added = sorted({u.unit.date for u in report.units if u.filled})
    if not added and report.ok:
        return f"{window}: nothing missing ({report.already} deals stored)"
    dates = f" for {added[0].isoformat()}..{added[-1].isoformat()}" if added else ""
    return (
        f"{window}: {report.filled} deals added{dates}, {len(report.unfilled)} not filled "
        f"({report.already} were stored already); "
        f"{sum(u.attempts for u in report.units)} candidates tried in {report.seconds:.1f} s"
    )


def fill_stock(settings: Settings, now: dt.datetime | None = None) -> FillReport:
    """Store what is missing from every date that is today somewhere to today+days_ahead
    (UTC): the job function. ``now`` (aware) is the clock, the real one by default.
    Logs one line: what it added (at debug level when nothing was missing)."""
    start, days = stock_range(now or dt.datetime.now(dt.UTC), settings.days_ahead)
    # In a web process (BackgroundScheduler thread), solve in child processes.
    in_thread = threading.current_thread() is not threading.main_thread()
    report = fill_days(settings, start, days, jobs=settings.jobs, isolated=in_thread)
    quiet = report.ok and not report.filled
    log.log(logging.DEBUG if quiet else logging.INFO, "%s", stock_line(report))
    webhooks.start(settings, now)  # the newest begun date, once per hook; a thread
    return report


def create_scheduler(
    settings: Settings, *, blocking: bool,
    every_minute: Sequence[tuple[str, Callable[[Settings], Any]]] = (),
) -> BaseScheduler:
    """A scheduler (not started) with the cron job that keeps the stock filled, and each
    ``(id, job)`` of ``every_minute`` run once a minute with the settings (the layers above
    hand theirs in: counting pending results, ``dailydeal.results.due``)."""
    job_defaults = {
        "coalesce": True,
        "misfire_grace_time": MISFIRE_GRACE_TIME,
        "max_instances": 1,
    }
    kwargs: dict[str, Any] = {"timezone": dt.UTC, "job_defaults": job_defaults}
    scheduler: BaseScheduler = (
        BlockingScheduler(**kwargs) if blocking else BackgroundScheduler(daemon=True, **kwargs)
    )
    scheduler.add_job(
        fill_stock,
        CronTrigger(**CRON, timezone=dt.UTC),
        args=[settings],
        id=JOB_ID,
        name="keep the daily deals filled",
        replace_existing=True,
        **job_defaults,
    )
    for job_id, job in every_minute:
        scheduler.add_job(job, "interval", seconds=60, args=[settings], id=job_id,
                          name=job_id, replace_existing=True, **job_defaults)
    return scheduler


def run_scheduler(
    settings: Settings, every_minute: Sequence[tuple[str, Callable[[Settings], Any]]] = (),
) -> None:
    """Backfill today..today+N, then run the cron job until Ctrl-C or SIGTERM.

    The secret and the database are checked first: a bad one stops it at once.
    """
    settings.secret_key()
    store.open_db(settings.db_path).close()
    log.info("backfilling every date that is today somewhere, through today+%d (UTC), into %s",
             settings.days_ahead, settings.db_path)
    fill_stock(settings)
    scheduler = create_scheduler(settings, blocking=True, every_minute=every_minute)

    def stop(signum: int, frame: Any) -> None:
        log.info("signal %d: stopping the scheduler", signum)
        if scheduler.running:
            scheduler.shutdown(wait=False)
        else:  # not started yet (or starting): leave through start()'s except below
            raise SystemExit(0)

    def started(event: SchedulerEvent) -> None:
        log.info("scheduler started: job %s, cron %s UTC", JOB_ID, CRON)

    scheduler.add_listener(started, EVENT_SCHEDULER_STARTED)
    signal.signal(signal.SIGTERM, stop)
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    log.info("scheduler stopped")
