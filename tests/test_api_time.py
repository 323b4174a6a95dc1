"""Publication and solution times at their exact boundaries, with a frozen clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dailydeal.daily import clock
from dailydeal.web import create_app

instants = st.datetimes(
    min_value=dt.datetime(2000, 1, 2), max_value=dt.datetime(2100, 1, 1), timezones=st.just(dt.UTC)
)


@settings(deadline=None)
@given(instants)
def test_every_local_today_is_published_and_nothing_later(now: dt.datetime) -> None:
    local_todays = {(now + dt.timedelta(minutes=15 * q)).date() for q in range(-48, 57)}
    assert max(local_todays) == clock.latest_published(now)
    assert min(local_todays) == clock.earliest_today(now)
    assert all(clock.is_published(d, now) for d in local_todays)
    assert not clock.is_published(clock.latest_published(now) + dt.timedelta(days=1), now)


@settings(deadline=None)
@given(instants)
def test_solution_opens_only_when_no_zone_still_has_the_date(now: dt.datetime) -> None:
    for day in (clock.earliest_today(now), now.date(), clock.latest_published(now)):
        assert not clock.solution_open(day, now)  # someone is still playing it
    yesterday_everywhere = clock.earliest_today(now) - dt.timedelta(days=1)
    assert clock.solution_open(yesterday_everywhere, now)


def test_boundaries_through_the_api(
    tmp_path: Path, fill_db: Any, days: dict[str, dt.date], problem: Any
) -> None:
    db = fill_db(tmp_path / "t.db")
    future = days["future"]

    def get(instant: dt.datetime, url: str) -> Any:
        app = create_app({"db_path": db, "NOW": lambda: instant})
        return app.test_client().get(url)

    begins = clock.begins_at(future)
    assert begins == dt.datetime.combine(future, dt.time(), dt.UTC) - dt.timedelta(hours=14)
    url = f"/api/v1/daily/{future}/gaps/easy"
    problem(get(begins - dt.timedelta(seconds=1), url), 404)
    assert get(begins, url).status_code == 200
    opens = clock.solution_opens_at(future)
    assert opens == dt.datetime.combine(future, dt.time(12), dt.UTC) + dt.timedelta(days=1)
    sol = f"/api/v1/deals/{future}-gaps-easy/solution"
    locked = problem(get(opens - dt.timedelta(seconds=1), sol), 403)
    assert locked["opens_at"] == clock.iso(opens)
    assert get(opens, sol).status_code == 200


def test_today_in_rejects_nonsense() -> None:
    now = dt.datetime(2026, 6, 1, 23, 30, tzinfo=dt.UTC)
    assert clock.today_in("+01:00", now) == dt.date(2026, 6, 2)
    assert clock.today_in("-0530", now) == dt.date(2026, 6, 1)
    assert clock.today_in("Asia/Tokyo", now) == dt.date(2026, 6, 2)
    assert clock.today_in(None, now) == dt.date(2026, 6, 1)
    for bad in ("+15:00", "-13", "+01:75", "../../etc/passwd", "Nowhere/Town", "x" * 100):
        try:
            clock.today_in(bad, now)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")
