"""benchmarks/observed_difficulty.py on results produced by the player models: every
simulated play is verified and stored like a posted result, and the report adds up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dailydeal.daily import store
from dailydeal.results import sqlite_store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import observed_difficulty as od  # noqa: E402


def test_report_on_simulated_players(tmp_path: Path) -> None:
    db = store.open_db(tmp_path / "sim.db")
    assert od.make_deals(db, 2) == 6
    assert od.simulate(db, 12, "casual") == 6 * 12
    assert od.simulate(db, 12, "casual") == 0  # the same players again: never counted twice
    report = od.observed(db, min_results=10)
    assert set(report) == {"accordion", "pyramid", "gaps"}
    for game, info in report.items():
        assert info["deals"] == 2 and info["plays"] == 24
        assert sum(t["plays"] for t in info["tiers"].values()) == 24
        wins = 0
        for row in db.query("SELECT * FROM deals WHERE game = ?", [game]):
            deal = store.get_deal(db, row["id"])
            assert deal is not None
            rebuilt = sqlite_store.reverify(db, deal)
            assert rebuilt.pop("differ") == 0  # every stored play verifies again
            assert rebuilt == sqlite_store.deal_stats(db, deal["id"])
            wins += rebuilt["wins"]
        assert sum(t["wins"] for t in info["tiers"].values()) == wins
        for tier in info["tiers"].values():
            assert 0 <= tier["win_rate"] <= 1
        for rho in (info["spearman"], info["spearman_score"]):
            assert rho is None or -1 <= rho <= 1
    assert od.observed(db, min_results=13) == {}  # not enough results: left out
    db.close()


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert od.main(["--db", str(tmp_path / "empty.db")]) == 0
    out = capsys.readouterr().out
    assert "no deal has enough results" in out
