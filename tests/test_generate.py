"""Generation: the first-candidate-per-tier rule, idempotence, parallel = serial, reports.

Budgets are tiny (a few thousand solver positions, a handful of candidates) so that the
tests are fast; the solver and the rating are the real ones, nothing is faked, so some
tiers stay empty and the report must say so.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dailydeal.cli import main
from dailydeal.cli.common import progress_bar
from dailydeal.config import Settings
from dailydeal.daily import picture, store
from dailydeal.daily.generate import (
    VERSION,
    Unit,
    fill_days,
    fill_unit,
    make_candidate,
    row_version,
)
from dailydeal.daily.seeds import candidate_seed
from dailydeal.games import default_variant, new_game
from dailydeal.rating import TIERS, tier_of
from dailydeal.verify import verify

DAY = dt.date(2030, 1, 1)
GAMES = (("accordion", "standard"), ("gaps", "standard"))
VOLATILE = ("created_at", "committed_at", "solver")  # wall-clock fields; the rest is identical


def small(path: Path, **kw: Any) -> Settings:
    values: dict[str, Any] = {
        "db_path": path, "secret": "test-secret-7c1f0a9e3b5d2c8f4a6e1b0d9c7f3e5a", "games": GAMES,
        "solve_max_nodes": 5000, "solve_time_limit": 300.0, "max_attempts": 5,
    }
    values.update(kw)
    return Settings(**values)


def rows(path: Path) -> dict[str, dict[str, Any]]:
    db = store.open_db(path)
    try:
        out = {}
        for r in db.query("SELECT id FROM deals ORDER BY id"):
            deal = store.get_deal(db, r["id"])
            assert deal is not None
            out[r["id"]] = {k: v for k, v in deal.items() if k not in VOLATILE}
            out[r["id"]]["nodes"] = deal["solver"]["nodes"]
        return out
    finally:
        db.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Any]:
    """Two days generated serially: the reference the other tests compare with."""
    settings = small(tmp_path_factory.mktemp("ref") / "d.db")
    return settings, fill_days(settings, DAY, 2)


def test_rows_are_checked_deals(reference: tuple[Settings, Any]) -> None:
    settings, report = reference
    got = rows(settings.db_path)
    assert got, "no deal at all: the tiny budget found nothing (solver much slower?)"
    secret = settings.secret_key()
    for id_, r in got.items():
        assert id_ == store.deal_id(r["date"], r["game"], r["tier"], r["variant"],
                                    default_variant(r["game"]))
        day = dt.date.fromisoformat(r["date"])
        assert r["seed"] == candidate_seed(secret, day, r["game"], r["variant"], r["attempt"])
        assert 0 <= r["attempt"] < settings.max_attempts
        assert r["deal"] == new_game(r["game"], r["seed"], r["variant"]).deal_json()
        assert verify(r["game"], r["seed"], r["solution"], r["variant"]).won
        assert r["solution_length"] == len(r["solution"])
        assert tier_of(r["game"], r["rating"]) == r["tier"]
        assert r["version"] == row_version(r["game"]) and r["version"].startswith(VERSION)
        assert 0 < r["nodes"] <= settings.solve_max_nodes
    # every wanted key is either stored or reported as not filled
    wanted = {(DAY + dt.timedelta(days=d), g, v, t) for d in range(2) for g, v in GAMES
              for t in TIERS}
    stored = {(dt.date.fromisoformat(r["date"]), r["game"], r["variant"], r["tier"])
              for r in got.values()}
    assert stored | set(report.unfilled) == wanted
    assert not stored & set(report.unfilled)
    assert report.filled == len(got)
    summary = report.summary()
    assert f"{report.filled} stored now" in summary
    for day, game, variant, tier in report.unfilled:
        line = next(x for x in summary.splitlines() if f"{day} {game}/{variant}:" in x)
        assert "NOT FILLED" in line and tier in line


def test_each_tier_is_the_first_candidate_in_it(reference: tuple[Settings, Any]) -> None:
    """The rule that makes a day independent of order and processes, checked on day one."""
    settings, _ = reference
    got = rows(settings.db_path)
    secret = settings.secret_key()
    for game, variant in GAMES:
        unit = Unit(DAY, game, variant)
        first: dict[str, int] = {}
        for attempt in range(settings.max_attempts):
            seed = candidate_seed(secret, DAY, game, variant, attempt)
            cand = make_candidate(settings, unit, attempt, seed)
            if cand is not None:
                first.setdefault(cand["tier"], attempt)
        stored = {r["tier"]: r["attempt"] for r in got.values()
                  if r["date"] == DAY.isoformat() and r["game"] == game}
        assert stored == first


def test_second_run_changes_nothing(reference: tuple[Settings, Any], tmp_path: Path) -> None:
    settings, first = reference
    db = store.open_db(settings.db_path)
    before = [dict(r) for r in db.query("SELECT * FROM deals ORDER BY id")]
    db.close()
    again = fill_days(settings, DAY, 2)
    assert again.filled == 0
    assert again.already == len(before)
    assert again.unfilled == first.unfilled
    # the failed searches are remembered: nothing is searched again with the same budget
    assert sum(u.attempts for u in again.units) == 0
    assert all(u.known_unfilled for u in again.units)
    db = store.open_db(settings.db_path)
    assert [dict(r) for r in db.query("SELECT * FROM deals ORDER BY id")] == before
    db.close()


def test_parallel_equals_serial(reference: tuple[Settings, Any], tmp_path: Path) -> None:
    settings, report = reference
    par = small(tmp_path / "par.db")
    preport = fill_days(par, DAY, 2, jobs=2)
    assert rows(par.db_path) == rows(settings.db_path)
    assert preport.unfilled == report.unfilled


def test_order_and_overlap_do_not_matter(reference: tuple[Settings, Any], tmp_path: Path) -> None:
    settings, _ = reference
    other = small(tmp_path / "o.db")
    fill_days(other, DAY + dt.timedelta(days=1), 1)  # the second day first
    # then a run covering both; a fresh max_attempts would not change anything either
    fill_days(other, DAY, 2)
    assert rows(other.db_path) == rows(settings.db_path)


def test_two_generators_at_once(reference: tuple[Settings, Any], tmp_path: Path) -> None:
    settings, _ = reference
    shared = small(tmp_path / "s.db")
    store.open_db(shared.db_path).close()
    threads = [threading.Thread(target=fill_days, args=(shared, DAY, 2)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert rows(shared.db_path) == rows(settings.db_path)
    db = store.open_db(shared.db_path)
    assert store.integrity_check(db) == "ok"


def test_stored_day_is_never_regenerated(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", games=(("gaps", "standard"),))
    db = store.open_db(settings.db_path)
    old: dict[str, Any] = {
        "id": store.deal_id(DAY, "gaps", "medium"), "date": DAY.isoformat(), "game": "gaps",
        "variant": "standard", "tier": "medium", "seed": 42, "rating": 40.0,
        "deal": new_game("gaps", 42).deal_json(), "solution": [], "solution_length": 0,
        "solver": {}, "features": {}, "version": "an older generator",
    }
    assert store.insert_deal(db, old)
    report = fill_days(settings, DAY, 1)
    assert report.already == 1
    assert report.other_version == 1
    assert "1 stored deals were made by another version" in report.summary()
    kept = store.get_deal(db, old["id"])
    assert kept is not None and kept["seed"] == 42 and kept["version"] == "an older generator"


def test_more_attempts_retry_an_unfilled_tier(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", games=(("gaps", "standard"),), max_attempts=2)
    first = fill_unit(settings, settings.secret_key(), Unit(DAY, "gaps", "standard"))
    assert first.unfilled  # two candidates cannot fill four tiers
    same = fill_unit(settings, settings.secret_key(), Unit(DAY, "gaps", "standard"))
    assert same.attempts == 0 and same.known_unfilled == first.unfilled
    more = fill_unit(settings.with_(max_attempts=4), settings.secret_key(),
                     Unit(DAY, "gaps", "standard"))
    assert more.attempts > 2 and not more.known_unfilled


def test_cli_generate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAILYDEAL_SECRET", "cli-secret-4b8e2d6f0a1c3e5b7d9f2a4c6e8b0d1f")
    monkeypatch.setenv("DAILYDEAL_MAX_NODES", "3000")
    monkeypatch.setenv("DAILYDEAL_MAX_ATTEMPTS", "3")
    monkeypatch.setenv("DAILYDEAL_GAMES", "gaps")
    db = tmp_path / "cli.db"
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "--db", str(db), "--from", "2030-02-01",
                                  "--to", "2030-02-02"])
    assert result.exit_code == 0, result.output
    assert "2030-02-01..2030-02-02: 8 deals wanted" in result.output
    conn = store.open_db(db)
    assert {r["date"] for r in conn.query("SELECT date FROM deals")} <= {
        "2030-02-01", "2030-02-02"
    }
    strict = runner.invoke(main, ["generate", "--db", str(db), "--from", "2030-02-01",
                                  "--days", "1", "--strict"])
    unfilled = int(re.search(r", (\d+) not filled", strict.output).group(1))  # type: ignore
    assert strict.exit_code == (1 if unfilled else 0)
    bad = runner.invoke(main, ["generate", "--db", str(db), "--to", "2030-02-02", "--days", "2"])
    assert bad.exit_code == 2


def test_progress_bar_and_isolated_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = small(tmp_path / "a.db", games=(("gaps", "standard"),), max_attempts=3)
    fill_days(ref, DAY, 1)
    iso = small(tmp_path / "b.db", games=(("gaps", "standard"),), max_attempts=3)
    calls: list[tuple[int, int, str]] = []
    report = fill_days(iso, DAY, 1, progress=lambda *a: calls.append(a), isolated=True)
    # one call per (date, game), from the parent (the work ran in a child process)
    assert calls == [(1, 1, f"{DAY.isoformat()} gaps/standard")]
    with progress_bar("generating") as step:  # the CLI draws the bar from those calls
        assert step is not None
        step(1, 2, "a unit")
    assert "generating" in capsys.readouterr().err
    assert rows(iso.db_path) == rows(ref.db_path)
    assert report.filled == len(rows(iso.db_path))
    # each deal's preview picture is stored with it, drawn once (issue 39), in a child too
    assert report.pictures == report.filled > 0
    for settings in (ref, iso):
        db = store.open_db(settings.db_path)
        try:
            for id_ in rows(settings.db_path):
                assert (store.get_picture(db, id_, picture.VERSION) or b"")[:4] == b"\x89PNG"
        finally:
            db.close()
    assert fill_days(iso, DAY, 1, isolated=True).pictures == 0


def test_time_limit_hits_are_reported(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", solve_time_limit=0.0, max_attempts=4)
    report = fill_days(settings, DAY, 1)
    assert sum(u.timeouts for u in report.units) >= 1
    assert "hit the time limit" in report.summary()


PYRAMID = (("pyramid", "relaxed"),)


def test_the_time_limit_never_changes_what_is_stored(tmp_path: Path) -> None:
    """Stored rows are a pure function of (secret, date, game, variant, versions, budget): a
    time limit that cuts solves short leaves rows missing, reported, never different ones."""
    games = GAMES + PYRAMID
    free = small(tmp_path / "free.db", games=games, solve_time_limit=None, max_attempts=4)
    fill_days(free, DAY, 1)
    # 0 s: every solve stops at the budget's first clock reading (1024 nodes)
    cut = free.with_(db_path=tmp_path / "cut.db", solve_time_limit=0.0)
    report = fill_days(cut, DAY, 1)
    expected, got = rows(free.db_path), rows(cut.db_path)
    assert {k: v for k, v in got.items() if v != expected.get(k)} == {}
    missing = sorted(expected.keys() - got.keys())
    assert missing, "the time limit cut nothing: make it tighter"
    assert not report.ok and sum(u.timeouts for u in report.units) >= 1
    summary = report.summary()
    for id_ in missing:
        game = expected[id_]["game"]
        assert re.search(rf"NOT FILLED {DAY} {game}/\w+: .*\(the time limit stopped", summary)
    # the cut searches are not remembered as failed: a run without the limit completes them
    again = fill_days(cut.with_(solve_time_limit=None), DAY, 1)
    assert again.filled == len(missing)
    assert rows(cut.db_path) == expected


def test_wins_not_proved_shortest_are_counted_not_stored(tmp_path: Path) -> None:
    settings = small(tmp_path / "d.db", games=PYRAMID, solve_max_nodes=400,
                     solve_time_limit=None, max_attempts=6)
    report = fill_days(settings, DAY, 1)
    assert sum(u.not_shortest for u in report.units) >= 1
    assert "not proved shortest" in report.summary()
    db = store.open_db(settings.db_path)
    for r in db.query("SELECT id FROM deals"):
        deal = store.get_deal(db, r["id"])
        assert deal is not None and deal["solver"]["stats"]["optimal"] is True


def _sleep_as_a_worker(parent: int) -> None:
    from dailydeal.daily.generate import _init_worker

    _init_worker(parent)
    time.sleep(60)


def test_a_worker_whose_generator_is_gone_ends() -> None:
    """A pool worker watches its parent: an orphan (its generator killed, or gone without
    stopping the pool) ends at once, even in the middle of a task, instead of holding the
    output pipes of its parent's parent (a terminal, a test) open."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    proc = ctx.Process(target=_sleep_as_a_worker, args=(-1,))  # -1: never its parent
    proc.start()
    proc.join(20)  # a hang guard: the watch looks twice a second
    alive = proc.is_alive()
    if alive:
        proc.kill()
    assert not alive and proc.exitcode == 1


def test_stopping_a_running_fill_leaves_no_solver_process(tmp_path: Path) -> None:
    """What a server does on Ctrl-C while its scheduler fills: each pool is stopped as a
    whole. Killing its workers one by one would not do: the pool starts new ones."""
    import multiprocessing

    from dailydeal.daily.generate import stop_running_fills

    settings = small(
        tmp_path / "d.db", games=(("pyramid", "relaxed"),), solve_max_nodes=10**7,
        max_attempts=1000,
    )
    before = set(multiprocessing.active_children())
    filler = threading.Thread(
        target=fill_days, args=(settings, DAY, 4), kwargs={"jobs": 2}, daemon=True
    )
    filler.start()
    deadline = time.monotonic() + 120  # a hang guard, not a speed target
    while len(set(multiprocessing.active_children()) - before) < 2:
        assert time.monotonic() < deadline, "the fill's workers never started"
        time.sleep(0.05)
    assert stop_running_fills() == 1
    for _ in range(20):  # a pool left running would have replaced its workers by now
        assert set(multiprocessing.active_children()) - before == set()
        time.sleep(0.1)
    assert filler.is_alive()  # blocked for good: its caller is about to exit
