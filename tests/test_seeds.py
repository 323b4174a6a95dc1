"""Daily seeds: the documented HMAC message, determinism, and secrecy."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from dailydeal.config import Settings
from dailydeal.daily.seeds import candidate_seed, candidate_seeds, seed_message

DAY = dt.date(2026, 12, 1)


def test_message_and_seed_follow_the_docstring() -> None:
    # recomputed independently from the format documented in dailydeal.daily.seeds
    msg = b"dailydeal-seed-v1|2026-12-01|pyramid|relaxed|17"
    assert seed_message(DAY, "pyramid", "relaxed", 17) == msg
    expected = int.from_bytes(hmac.new(b"k", msg, hashlib.sha256).digest()[:8], "big")
    assert candidate_seed(b"k", DAY, "pyramid", "relaxed", 17) == expected


def test_variant_names_are_canonical() -> None:
    assert seed_message(DAY, "Gaps", "addiction", 0) == seed_message(DAY, "gaps", "redeals=3", 0)
    assert seed_message(DAY, "pyramid", None, 0) == seed_message(DAY, "pyramid", "relaxed", 0)
    assert candidate_seed(b"k", DAY, "gaps", "standard", 0) != candidate_seed(
        b"k", DAY, "gaps", "redeals=3", 0
    )


def test_stream_is_the_attempts_in_order() -> None:
    stream = list(itertools.islice(candidate_seeds(b"k", DAY, "gaps", None, start=5), 3))
    assert stream == [(a, candidate_seed(b"k", DAY, "gaps", None, a)) for a in (5, 6, 7)]


def test_no_collisions_across_dates_games_attempts() -> None:
    seeds = {
        candidate_seed(b"k", DAY + dt.timedelta(days=d), g, None, a)
        for d in range(10)
        for g in ("accordion", "pyramid", "gaps")
        for a in range(20)
    }
    assert len(seeds) == 10 * 3 * 20


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        candidate_seed(b"", DAY, "gaps", None, 0)
    with pytest.raises(ValueError):
        candidate_seed(b"k", DAY, "gaps", None, -1)
    with pytest.raises(ValueError):
        candidate_seed(b"k", DAY, "chess", None, 0)


@hsettings(deadline=None)
@given(
    st.binary(min_size=1, max_size=64),
    st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2200, 12, 31)),
    st.sampled_from(["accordion", "pyramid", "gaps"]),
    st.integers(min_value=0, max_value=10**6),
)
def test_seed_is_u64_and_deterministic(secret: bytes, day: dt.date, game: str, a: int) -> None:
    s = candidate_seed(secret, day, game, None, a)
    assert 0 <= s < 2**64
    assert s == candidate_seed(secret, day, game, None, a)


@hsettings(deadline=None)
@given(st.binary(min_size=1, max_size=32), st.binary(min_size=1, max_size=32))
def test_another_secret_gives_other_seeds(a: bytes, b: bytes) -> None:
    if a == b:
        return
    first = [candidate_seed(a, DAY, "pyramid", None, i) for i in range(4)]
    second = [candidate_seed(b, DAY, "pyramid", None, i) for i in range(4)]
    assert all(x != y for x, y in zip(first, second, strict=True))


def test_restart_keeps_seeds_and_future_needs_the_secret(tmp_path: Path) -> None:
    future = dt.date(2031, 6, 1)
    inst = Settings(db_path=tmp_path / "inst" / "d.db")
    before = [candidate_seed(inst.secret_key(), future, "gaps", None, i) for i in range(5)]
    restarted = Settings.from_env(tmp_path / "inst" / "d.db")  # a new process, same instance
    after = [candidate_seed(restarted.secret_key(), future, "gaps", None, i) for i in range(5)]
    assert before == after
    # without this instance's secret (another instance, or a guessed key), other seeds
    stranger = Settings(db_path=tmp_path / "other" / "d.db")
    guess = [candidate_seed(stranger.secret_key(), future, "gaps", None, i) for i in range(5)]
    assert not set(guess) & set(before)
