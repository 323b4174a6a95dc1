"""Which dates to keep stored: every date that is "today" somewhere on Earth, and ahead.

A date is served from the moment it begins at UTC+14 until it ends at UTC-12 (the rule
lives in ``dailydeal.daily.clock``), so at any instant two or three calendar dates are
"today" for somebody. ``serve``'s first fill and the scheduler's job both take their dates
from here, so the API never lacks a date that a player's clock shows.
"""

from __future__ import annotations

import datetime as dt

from dailydeal.daily import clock


def todays_range(now: dt.datetime) -> tuple[dt.date, int]:
    """(first date, number of dates) that are "today" somewhere on Earth at ``now``."""
    first, last = clock.earliest_today(now), clock.latest_published(now)
    return first, (last - first).days + 1


def stock_range(now: dt.datetime, days_ahead: int) -> tuple[dt.date, int]:
    """(first date, number of dates) the scheduler keeps stored: every date that is today
    somewhere, through the UTC date ``days_ahead`` days after today's."""
    first, days = todays_range(now)
    last = max(first + dt.timedelta(days=days - 1),
               now.astimezone(dt.UTC).date() + dt.timedelta(days=days_ahead))
    return first, (last - first).days + 1
