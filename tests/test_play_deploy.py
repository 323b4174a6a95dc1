"""Hints, results and commitments on the real deployment: gunicorn with two worker
processes writing results to one SQLite file at once, never counting a player twice."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from helpers import fetch


@pytest.fixture(autouse=True)
def _room_for_many_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """One test address plays for many players here (before the server fixture starts)."""
    monkeypatch.setenv("DAILYDEAL_RESULTS_LIMIT", "1000 per hour")
    monkeypatch.setenv("DAILYDEAL_COUNTED_LIMIT", "1000 per second")  # every turn now
    monkeypatch.setenv("DAILYDEAL_MIN_SECONDS_PER_MOVE", "0")  # no waiting for a person


def test_concurrent_results_count_each_player_once(
    server: Any, solutions: dict[str, list[str]], days: dict[str, dt.date]
) -> None:
    base, _ = server
    # The date the database holds as today; the server reads the real clock, which still
    # takes its results (today somewhere) if midnight UTC has passed since the session began.
    today = days["today"]
    id_ = f"{today}-pyramid-medium"
    win = solutions["pyramid"]
    # 12 players, each posting 3 times at once (with its play), over 2 worker processes
    tokens = [fetch(f"{base}/deals/{id_}/plays", {})[2]["play"] for _ in range(12)]
    posts = [(f"player-{i:010d}", win if i % 3 else win[:4], tokens[i])
             for i in range(12)] * 3
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(
            lambda p: fetch(f"{base}/deals/{id_}/results",
                            {"client": p[0], "moves": p[1], "play": p[2]}),
            posts,
        ))
    statuses = [a[0] for a in answers]
    assert statuses.count(201) == 12 and statuses.count(200) == 24, statuses
    status, headers, stats = fetch(f"{base}/deals/{id_}/stats")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=30"
    assert (stats["plays"], stats["wins"]) == (12, 8)
    assert stats["winning_moves"] == [{"moves": len(win), "count": 8}]


def test_hint_and_commitment_over_the_wire(
    server: Any, solutions: dict[str, list[str]], days: dict[str, dt.date]
) -> None:
    base, _ = server
    today = days["today"]  # as in the test above
    id_ = f"{today}-gaps-easy"
    status, _, hint = fetch(f"{base}/deals/{id_}/hint", {"moves": solutions["gaps"][:3]})
    assert status == 200 and hint["verdict"] == "winnable" and hint["move"]
    status, _, verdict = fetch(f"{base}/deals/{id_}/verify",
                               {"moves": [*solutions["gaps"][:3], hint["move"]]})
    assert status == 200 and verdict["valid"]
    status, _, listing = fetch(f"{base}/commitments?from={today}&to={today + dt.timedelta(3)}")
    assert status == 200
    committed = {c["id"]: c["commitment"] for c in listing["commitments"]}
    status, _, deal = fetch(f"{base}/deals/{id_}")
    assert committed[id_] == deal["commitment"]["sha256"]
    assert f"{today + dt.timedelta(3)}-gaps-easy" in committed  # a future deal, committed
