"""When a daily date is public, and when its solutions are.

A date D begins first at UTC+14 (D 00:00 there is D-1 10:00 UTC) and ends last at UTC-12
(D+1 00:00 there is D+1 12:00 UTC). The API serves D from its first beginning, so every
player gets their local "today", and its solutions only after its last end, so nobody can
look up the answer to a puzzle that someone on Earth is still playing.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

EARLIEST_OFFSET = dt.timedelta(hours=14)  # UTC+14, Line Islands: a date begins there first
LATEST_OFFSET = dt.timedelta(hours=-12)  # UTC-12, Baker Island: a date ends there last
UTC = dt.UTC


def utcnow() -> dt.datetime:
    return dt.datetime.now(UTC)


def latest_published(now: dt.datetime) -> dt.date:
    """The newest date that has begun somewhere on Earth."""
    return (now + EARLIEST_OFFSET).date()


def earliest_today(now: dt.datetime) -> dt.date:
    """The oldest date that is still "today" somewhere on Earth."""
    return (now + LATEST_OFFSET).date()


def begins_at(day: dt.date) -> dt.datetime:
    """The UTC instant ``day`` begins at UTC+14 (it is served from then on)."""
    return dt.datetime.combine(day, dt.time(), UTC) - EARLIEST_OFFSET


def solution_opens_at(day: dt.date) -> dt.datetime:
    """The UTC instant ``day`` is over at UTC-12 (its solutions are served from then on)."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), UTC) - LATEST_OFFSET


def is_published(day: dt.date, now: dt.datetime) -> bool:
    return day <= latest_published(now)


def solution_open(day: dt.date, now: dt.datetime) -> bool:
    return now >= solution_opens_at(day)


def iso(instant: dt.datetime) -> str:
    """``2026-12-01T12:00:00Z``."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# fullmatch and [0-9]: "\d" would read "+٠٥:٣٠" (Arabic-Indic digits) as +05:30
_OFFSET = re.compile(r"(?:UTC)?([+-])([0-9]{1,2})(?::?([0-9]{2}))?", re.IGNORECASE)


def today_in(tz: str | None, now: dt.datetime) -> dt.date:
    """Today's date in ``tz``: an IANA name (``Europe/Paris``), ``UTC``, or an offset
    (``+05:30``, ``-0800``, ``UTC+14``). Raises ValueError with a readable reason."""
    if tz is None or tz.strip() == "" or tz.strip().upper() in ("UTC", "Z"):
        return now.astimezone(UTC).date()
    text = tz.strip()
    m = _OFFSET.fullmatch(text)
    if m:
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        delta = dt.timedelta(hours=hours, minutes=minutes)
        if minutes >= 60 or delta > EARLIEST_OFFSET or (sign == "-" and delta > -LATEST_OFFSET):
            raise ValueError(f"offset {text!r} is not a UTC offset on Earth (-12:00..+14:00)")
        return (now + (delta if sign == "+" else -delta)).date()
    if len(text) > 64 or ".." in text or text.startswith("/"):
        raise ValueError(f"unknown time zone {text[:64]!r}")
    try:
        zone = zoneinfo.ZoneInfo(text)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {text!r}; use an IANA name or +HH:MM") from None
    return now.astimezone(zone).date()
