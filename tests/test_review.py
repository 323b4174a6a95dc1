"""Reviews of lost games (dailydeal.review, web/review.py): on real deals, a line that
leaves the solver's solution for a position the solver proves lost is reviewed as lost at
exactly that move; a line still winnable loses nothing; a won line is won; an exhausted
budget says ``unknown`` and names the undecided positions. The routes hide the winning
line while the date is open (``opens_at``), give it after, or for a numbered deal, and the
line given wins from its position by the rules; bad input is a problem, never a 500."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from flask import Flask

from dailydeal import hints as H
from dailydeal import review as R
from dailydeal import solverpool
from dailydeal.daily import clock
from dailydeal.games import new_game
from dailydeal.web import review as web_review
from dailydeal.web.extensions import SETTINGS

API = "/api/v1"
GAMES = ("accordion", "pyramid", "gaps")


def blunder(game: str, seed: int, solution: list[str]) -> tuple[list[str], int]:
    """A line that follows ``solution`` for ``k`` moves, then plays a move after which the
    solver proves the deal lost, then random legal moves to the end: (line, k)."""
    rng = random.Random(f"blunder-{game}-{seed}")
    for k in range(len(solution) - 1, -1, -1):
        position = new_game(game, seed)
        for text in solution[:k]:
            position.play(position.parse_move(text))
        for move in position.legal_moves():
            text = str(move)
            if text == solution[k]:
                continue
            after = position.copy()
            after.play(after.parse_move(text))
            if H.solve_hint(after, time_limit=None).verdict != H.HOPELESS:
                continue
            line = [*solution[:k], text]
            while not after.is_over() and len(line) < k + 40:
                step = rng.choice(after.legal_moves())
                after.play(step)
                line.append(str(step))
            return line, k
    raise AssertionError(f"no losing deviation from the {game} solution of seed {seed}")


@pytest.fixture(scope="module")
def blunders(solved: dict[str, tuple[int, list[str]]]) -> dict[str, tuple[list[str], int]]:
    return {game: blunder(game, seed, moves) for game, (seed, moves) in solved.items()}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("stored", [True, False], ids=["stored-line", "searched"])
def test_a_blunder_is_found_at_its_move(
    game: str, stored: bool, solved: dict[str, tuple[int, list[str]]],
    blunders: dict[str, tuple[list[str], int]],
) -> None:
    seed, solution = solved[game]
    line, k = blunders[game]
    start = new_game(game, seed)
    got = R.review(start, line, line=solution if stored else None, cache=H.HintCache())
    assert (got.verdict, got.index, got.move, got.lost_from) == (R.LOST, k, line[k], k + 1)
    assert got.undecided == () and got.searches <= got.max_searches
    assert start.move_stack == []  # not changed
    position = new_game(game, seed)
    for text in line[:k]:
        position.play(position.parse_move(text))
    assert H.line_wins(position, got.line)
    if stored:
        assert got.line == tuple(solution[k:])  # the stored line, no search for it
    assert f"Move {k + 1} ({line[k]}) lost the game" in got.words()
    # the bisection: about log2 of the moves after the last position of the stored line
    assert got.searches <= 2 + (len(line) - (k if stored else 0)).bit_length() + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_line_still_winnable_lost_nothing_and_a_won_line_is_won(
    game: str, solved: dict[str, tuple[int, list[str]]]
) -> None:
    seed, solution = solved[game]
    start = new_game(game, seed)
    cut = len(solution) // 2
    got = R.review(start, solution[:cut], line=solution)
    assert (got.verdict, got.index, got.move, got.searches) == (R.WINNABLE, cut, None, 0)
    assert got.line == tuple(solution[cut:])
    got = R.review(start, solution[:cut], cache=H.HintCache())  # no stored line: searched
    assert (got.verdict, got.index, got.move) == (R.WINNABLE, cut, None)
    position = new_game(game, seed)
    for text in solution[:cut]:
        position.play(position.parse_move(text))
    assert H.line_wins(position, got.line)
    won = R.review(start, solution)
    assert (won.verdict, won.index, won.move, won.line, won.searches) == (
        R.WON, len(solution), None, (), 0)


def test_a_budget_too_small_says_unknown_and_which_positions(
    solved: dict[str, tuple[int, list[str]]], blunders: dict[str, tuple[list[str], int]]
) -> None:
    seed, solution = solved["gaps"]
    line, k = blunders["gaps"]
    got = R.review(new_game("gaps", seed), line, line=solution, max_nodes=1,
                   cache=H.HintCache())
    assert got.verdict == R.UNKNOWN and got.move is None
    assert got.index is not None and got.index <= k  # only what is proved
    assert got.undecided and all(got.index < i for i in got.undecided)
    assert got.searches == got.max_searches or got.lost_from == got.index + 1 + len(
        got.undecided)
    assert dict(got.checked)[got.undecided[0]] == H.UNKNOWN
    assert "could not tell" in got.words()


def test_the_safety_net_is_no_answer() -> None:
    # numbered Accordion 11: its search reads the clock (6472 nodes, > Budget.CHECK_EVERY)
    with pytest.raises(H.HintTimeout):  # the clock stopped a search: nothing to say
        R.review(new_game("accordion", 11), [], time_limit=0.0, cache=H.HintCache())


def test_an_unwinnable_deal_was_lost_by_no_move() -> None:
    # a numbered Pyramid deal the solver proves lost from its start
    for seed in range(200):
        start = new_game("pyramid", seed)
        if H.solve_hint(start, time_limit=None).verdict == H.HOPELESS:
            break
    else:
        pytest.skip("no Pyramid deal proved lost among the first 200")
    moves: list[str] = []
    while not start.is_over() and len(moves) < 10:
        move = start.legal_moves()[0]
        start.play(move)
        moves.append(str(move))
    got = R.review(new_game("pyramid", seed), moves, cache=H.HintCache())
    assert (got.verdict, got.index, got.move, got.lost_from) == (R.UNWINNABLE, None, None, 0)


# --- the routes ----------------------------------------------------------------------------
@pytest.fixture
def review_app(app: Flask) -> Flask:
    app.extensions[SETTINGS].hint_rate_limit = "1000 per minute"
    return app


def test_an_open_date_hides_the_line_and_says_when_it_opens(
    review_app: Flask, days: dict[str, dt.date], blunders: dict[str, tuple[list[str], int]]
) -> None:
    client = review_app.test_client()
    for game in GAMES:
        line, k = blunders[game]
        resp = client.post(f"{API}/deals/{days['today']}-{game}-hard/review",
                           json={"moves": line})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        body = resp.get_json()
        assert (body["verdict"], body["index"], body["move"]) == ("lost", k, line[k])
        assert body["line"] is None and body["moves_left"] > 0
        assert body["opens_at"] == clock.iso(clock.solution_opens_at(days["today"]))
        assert body["moves_played"] == len(line) and resp.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("where", ["past", "numbered"])
def test_a_closed_date_or_a_numbered_deal_gives_a_line_that_wins(
    review_app: Flask, where: str, days: dict[str, dt.date], seeds: dict[str, int],
    blunders: dict[str, tuple[list[str], int]],
) -> None:
    client = review_app.test_client()
    for game in GAMES:
        line, k = blunders[game]
        if where == "past":
            resp = client.post(f"{API}/deals/{days['past']}-{game}-easy/review",
                               data=" ".join(line), content_type="text/plain")
        else:
            resp = client.post(f"{API}/games/{game}/review",
                               json={"seed": str(seeds[game]), "moves": line})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        body = resp.get_json()
        assert (body["verdict"], body["index"], body["move"]) == ("lost", k, line[k])
        assert body["opens_at"] is None
        position = new_game(game, seeds[game])
        for text in line[:k]:
            position.play(position.parse_move(text))
        assert H.line_wins(position, body["line"]) and len(body["line"]) == body["moves_left"]
        if where == "numbered":
            assert body["seed"] == str(seeds[game]) and body["game"] == game


def test_the_same_review_is_remembered(
    review_app: Flask, days: dict[str, dt.date], blunders: dict[str, tuple[list[str], int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[solverpool.Job] = []
    real = solverpool.run_job

    def counted(job: solverpool.Job, **kw: Any) -> dict[str, Any]:
        calls.append(job)
        return real(job, **kw)

    monkeypatch.setattr(solverpool, "run_job", counted)
    line, _ = blunders["accordion"]
    url = f"{API}/deals/{days['today']}-accordion-medium/review"
    first = review_app.test_client().post(url, json={"moves": line})
    hits = web_review._memo.hits
    again = review_app.test_client().post(url, json={"moves": line})
    assert first.get_data() == again.get_data()
    assert web_review._memo.hits == hits + 1 and len(calls) <= 1


def test_bad_input_is_a_problem(
    review_app: Flask, days: dict[str, dt.date], problem: Any,
    solutions: dict[str, list[str]],
) -> None:
    client = review_app.test_client()
    url = f"{API}/deals/{days['today']}-pyramid-easy/review"
    moves = solutions["pyramid"]
    body = problem(client.post(url, json={"moves": [*moves[:3], "KS+KS", *moves[3:]]}), 422)
    assert body["error"]["index"] == 3 and "review needs a legal move list" in body["detail"]
    problem(client.post(url, json={"moves": ["d"] * 5001}), 400)
    problem(client.post(url, json={"moves": 3}), 400)
    problem(client.post(url, json={}), 400)
    problem(client.post(url, data="{", content_type="application/json"), 400)
    problem(client.post(url, data="x", content_type="image/png"), 415)
    problem(client.post(f"{API}/deals/nope/review", json={"moves": []}), 404)
    problem(client.post(f"{API}/deals/{days['future']}-pyramid-easy/review",
                        json={"moves": []}), 404)
    problem(client.get(url), 405)
    problem(client.post(f"{API}/games/chess/review", json={"seed": 1, "moves": []}), 404)
    problem(client.post(f"{API}/games/gaps/review", json={"moves": []}), 400)
    problem(client.post(f"{API}/games/gaps/review", json={"seed": -1, "moves": []}), 400)
    problem(client.post(f"{API}/games/gaps/review", json={"seed": 1, "moves": ["QQ"]}), 422)
    problem(client.post(f"{API}/games/gaps/review", data="2S", content_type="text/plain"), 415)


def test_a_busy_solver_is_a_503_with_retry_after(
    review_app: Flask, days: dict[str, dt.date], problem: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def full(self: solverpool.SolverPool, job: solverpool.Job) -> dict[str, Any]:
        raise solverpool.PoolBusy("9 hints are being computed or waiting here", 7)

    monkeypatch.setattr(solverpool.SolverPool, "run", full)
    review_app.extensions[SETTINGS].hint_max_nodes = 2000  # the search at the end: quick
    url = f"{API}/games/gaps/review"
    resp = review_app.test_client().post(url, json={"seed": 77, "moves": []})
    body = problem(resp, 503)
    assert resp.headers["Retry-After"] == "7" and body["retry_after"] == 7

    def late(self: solverpool.SolverPool, job: solverpool.Job) -> dict[str, Any]:
        return {"timeout": "no answer within 10 s"}

    monkeypatch.setattr(solverpool.SolverPool, "run", late)
    resp = review_app.test_client().post(url, json={"seed": 78, "moves": []})
    assert "in time" in problem(resp, 503)["detail"] and int(resp.headers["Retry-After"]) >= 1
    # nothing was remembered: a later request is computed
    monkeypatch.undo()
    assert review_app.test_client().post(url, json={"seed": 78, "moves": []}).status_code == 200


def test_reviews_count_against_the_hint_limit(
    app: Flask, days: dict[str, dt.date], problem: Any, solutions: dict[str, list[str]]
) -> None:
    app.extensions[SETTINGS].hint_rate_limit = "2 per minute"
    client = app.test_client()
    deal = f"{API}/deals/{days['today']}-gaps-easy"
    assert client.post(f"{deal}/hint", json={"moves": []}).status_code == 200
    assert client.post(f"{deal}/review", json={"moves": solutions["gaps"]}).status_code == 200
    problem(client.post(f"{deal}/review", json={"moves": []}), 429)
    problem(client.post(f"{deal}/hint", json={"moves": []}), 429)


def test_a_review_travels_to_a_solver_process_and_back(
    solved: dict[str, tuple[int, list[str]]], blunders: dict[str, tuple[list[str], int]],
) -> None:
    seed, solution = solved["pyramid"]
    line, _ = blunders["pyramid"]
    job = solverpool.ReviewJob("pyramid", "relaxed", seed, None, tuple(line), None, 30.0,
                               tuple(solution))
    assert solverpool.job_from_json(job.to_json()) == job
    pool = solverpool.SolverPool(processes=1, queue=1)
    try:
        assert pool.run(job) == solverpool.run_job(job)
    finally:
        pool.close()
