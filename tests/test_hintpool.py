"""Hints off the request path (dailydeal.solverpool) and answers that depend on nothing but
the request: a full pool refuses at once with a 503 and a Retry-After; a daily deal's
position on its stored line is answered from it, as a search would; two app instances (one
with solver processes, one without, one asked before, one cold) give the same bodies and
ETags; a player following hints with ``from`` wins."""

from __future__ import annotations

import datetime as dt
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dailydeal import hints as H
from dailydeal import solverpool
from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.games import new_game
from dailydeal.solvers import solve, solve_position
from dailydeal.verify import verify
from dailydeal.web.extensions import SETTINGS

API = "/api/v1"


def make_app(db: Path, now: dt.datetime, **config: Any) -> Flask:
    from dailydeal.web import create_app

    return create_app({"TESTING": True, "db_path": db, "NOW": lambda: now,
                       "hint_rate_limit": "100000 per minute", **config})


@pytest.fixture(scope="module")
def pyramid_deal(tmp_path_factory: pytest.TempPathFactory, now: dt.datetime,
                 days: dict[str, dt.date]) -> tuple[Path, str, int, list[str]]:
    """A database with one daily Pyramid deal stored as the generator stores it: a
    shortest solution (``stats.optimal``) from the solver."""
    day = days["today"]
    for seed in range(40, 80):
        result = solve("pyramid", seed, max_nodes=300_000)
        if result.status == "won" and result.stats.get("optimal") and len(result.moves) > 20:
            break
    db = tmp_path_factory.mktemp("pool") / "dailydeal.db"
    store = open_db(db)
    row = deal_row(day, "pyramid", "relaxed", "easy", seed, rating=10.0,
                   solution=result.moves, version="test",
                   solver={"status": "won", "stats": result.stats})
    insert_deal(store, row)
    store.close()
    return db, row["id"], seed, result.moves


def test_a_full_pool_refuses_at_once_with_a_true_retry_after(
    db_path: Path, now: dt.datetime, monkeypatch: pytest.MonkeyPatch, problem: Any
) -> None:
    # no rate limiter: its own headers would be in the way (flask-limiter wrote its window
    # as Retry-After over every answer of a limited route: issue 25, defect 2)
    app = make_app(db_path, now, hint_processes=0, hint_queue=1, RATELIMIT_ENABLED=False)
    release = threading.Event()
    started = threading.Semaphore(0)
    real = solverpool.run_job

    def slow(job: solverpool.HintJob, **kw: Any) -> dict[str, Any]:
        started.release()
        release.wait(30)
        return real(job, **kw)

    monkeypatch.setattr(solverpool, "run_job", slow)
    url = f"{API}/games/pyramid/hint"
    answers: list[int] = []

    def ask(seed: int) -> None:
        answers.append(app.test_client().post(url, json={"seed": seed}).status_code)

    # one running, one waiting: the bound (1 + HINT_QUEUE) is reached
    threads = [threading.Thread(target=ask, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    assert started.acquire(timeout=30)
    pool = app.extensions["dailydeal_solverpool"]
    for _ in range(200):
        if pool.in_flight == 2:
            break
        threading.Event().wait(0.01)
    assert pool.in_flight == 2
    resp = app.test_client().post(url, json={"seed": 3})
    body = problem(resp, 503)
    retry = int(resp.headers["Retry-After"])
    # the queue's own figure: two searches of the pool's recent duration, at least 1 s
    assert retry == pool.retry_after(2) >= 1 and body["retry_after"] == retry
    assert f"try again in {retry} s" in body["detail"]
    pool.seconds = 7.2  # a slower recent pace says a longer wait
    resp = app.test_client().post(url, json={"seed": 3})
    assert int(resp.headers["Retry-After"]) == 15 == pool.retry_after(2)
    release.set()
    for t in threads:
        t.join(30)
    assert answers == [200, 200]
    # drained: served again
    assert app.test_client().post(url, json={"seed": 3}).status_code == 200


def test_the_pool_runs_searches_in_a_niced_process_of_its_own() -> None:
    pool = solverpool.SolverPool(processes=1, queue=0)
    try:
        job = solverpool.HintJob("gaps", "redeals=2", 5, None, (), 5000, 10.0)
        answer = pool.run(job)
        assert answer == solverpool.run_job(job)  # the same answer as in this process
        proc = pool.idle[0].proc
        import os

        assert proc.pid != os.getpid()
        nice = int(Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
        assert nice >= solverpool.NICE
        # a process that died is replaced: the next hint is served by a new one
        proc.kill()
        proc.wait()
        with pytest.raises(solverpool.PoolBusy):
            pool.run(job)
        assert pool.run(job) == answer
    finally:
        pool.close()


def test_the_stored_line_answers_as_a_search_would(
    pyramid_deal: tuple[Path, str, int, list[str]], now: dt.datetime
) -> None:
    """On the stored line, the answer is the one a search with the generator's budget
    gives (the line is shortest: so is the rest of it); the hint budget's own search (a
    numbered deal's) may find a longer win, never a shorter one."""
    db, id_, seed, line = pyramid_deal
    client = make_app(db, now, hint_processes=0).test_client()
    for k in range(0, len(line), 3):
        stored = client.get(f"{API}/deals/{id_}/hint", query_string={"moves": " ".join(line[:k])})
        assert stored.status_code == 200
        got = stored.get_json()
        position = new_game("pyramid", seed)
        for text in line[:k]:
            position.play(position.parse_move(text))
        full = solve_position(position, max_nodes=300_000)  # as the generator searches
        # no search behind the stored answer: the rest of the stored (shortest) line
        assert got["move"] == line[k] and got["moves_left"] == len(line) - k
        assert got["verdict"] == "winnable" and full.status == "won"
        assert (got["moves_left"], got["shortest"]) == (len(full.moves), full.stats["optimal"])
        searched = client.post(f"{API}/games/pyramid/hint",
                               json={"seed": seed, "moves": line[:k]}).get_json()
        assert searched["verdict"] == "winnable" and searched["moves_left"] >= got["moves_left"]
        # another shortest line may start with another move: each one given wins
        for move in {got["move"], searched["move"], full.moves[0]}:
            after = new_game("pyramid", seed)
            for text in [*line[:k], move]:
                after.play(after.parse_move(text))
            assert solve_position(after, max_nodes=300_000).status == "won"


def test_bodies_are_the_same_on_every_worker(
    pyramid_deal: tuple[Path, str, int, list[str]], now: dt.datetime
) -> None:
    """One instance in-process and asked along a line before, one with a solver process
    and cold: the same bodies and ETags for on-line, off-line and followed positions."""
    db, id_, seed, line = pyramid_deal
    rng = random.Random(3)
    urls = []
    for k in (0, 5, 12):
        position = new_game("pyramid", seed)
        moves = list(line[:k])
        for text in moves:
            position.play(position.parse_move(text))
        for _ in range(6):  # off the line
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            position.play(move)
            moves.append(str(move))
        urls.append({"moves": " ".join(moves)})
        urls.append({"moves": " ".join(moves[:-2]), "from": str(len(moves) - 2)})
    warm = make_app(db, now, hint_processes=0).test_client()
    for query in list(urls):  # the warm one is asked the next position along each line too
        first = warm.get(f"{API}/deals/{id_}/hint", query_string=query).get_json()
        if first["move"]:
            moves = [*query["moves"].split(), first["move"]]
            urls.append({"moves": " ".join(moves)})
            warm.get(f"{API}/deals/{id_}/hint", query_string=urls[-1])
    cold = make_app(db, now, hint_processes=1).test_client()
    try:
        for query in urls[::-1]:  # the next positions first: the cold one never saw a line
            a = warm.get(f"{API}/deals/{id_}/hint", query_string=query)
            b = cold.get(f"{API}/deals/{id_}/hint", query_string=query)
            assert a.status_code == b.status_code == 200
            assert a.get_data() == b.get_data() and a.headers["ETag"] == b.headers["ETag"]
            assert "nodes" not in a.get_json()
        # Where a search from the next position of a line finds another line, a worker that
        # answered from the line it found before would differ from one that did not: find
        # such positions, ask the warm one the position before, and compare.
        rng = random.Random(5)
        url = f"{API}/games/pyramid/hint"
        diverging = 0
        for seed in range(20, 60):
            position = new_game("pyramid", seed)
            for _ in range(rng.randrange(20)):
                legal = position.legal_moves()
                if not legal:
                    break
                position.play(rng.choice(legal))
            before = H.solve_hint(position)
            if len(before.line) < 2:
                continue
            position.play(position.parse_move(before.line[0]))
            if H.solve_hint(position).line == before.line[1:]:
                continue
            diverging += 1
            moves = [str(m) for m in position.move_stack]
            warm.post(url, json={"seed": seed, "moves": moves[:-1]})
            body = {"seed": seed, "moves": moves}
            assert warm.post(url, json=body).get_data() == cold.post(url, json=body).get_data()
            if diverging == 3:
                break
        assert diverging, "no position where the next search finds another line"
    finally:
        cold.application.extensions["dailydeal_solverpool"].close()


@pytest.mark.parametrize("game", ["gaps", "pyramid"])
def test_following_hints_with_from_wins(app: Flask, game: str) -> None:
    """Through the route and the solver process: from a random position, ask with ``from``
    (where following began) and play each move given: the deal is won, and each answer is
    the rest of the first one's line."""
    app.extensions[SETTINGS].hint_rate_limit = "100000 per minute"
    app.extensions[SETTINGS].hint_processes = 1
    client = app.test_client()
    rng = random.Random(f"from-{game}")
    won = 0
    try:
        for seed in (11, 12, 13):
            position = new_game(game, seed)
            for _ in range(rng.randrange(5, 20)):
                legal = position.legal_moves()
                if not legal or position.is_over():
                    break
                position.play(rng.choice(legal))
            moves = [str(m) for m in position.move_stack]
            began = len(moves)
            body = {"seed": seed, "moves": moves}
            answer = client.post(f"{API}/games/{game}/hint", json=body).get_json()
            if answer["verdict"] != "winnable":
                continue
            left = answer["moves_left"]
            while answer["move"] is not None:
                assert answer["verdict"] == "winnable" and answer["moves_left"] == left
                moves.append(answer["move"])
                left -= 1
                body = {"seed": seed, "moves": moves, "from": began, "play": "ignored"}
                answer = client.post(f"{API}/games/{game}/hint", json=body).get_json()
            assert answer["moves_left"] == 0 and verify(game, seed, moves).won
            won += 1
    finally:
        app.extensions["dailydeal_solverpool"].close()
    assert won >= 1


def test_from_must_be_a_move_count(client: Any, problem: Any) -> None:
    body = problem(client.post(f"{API}/games/gaps/hint", json={"seed": 1, "from": "x"}), 400)
    assert "'from'" in body["detail"]
    problem(client.post(f"{API}/games/gaps/hint", json={"seed": 1, "from": -1}), 400)
