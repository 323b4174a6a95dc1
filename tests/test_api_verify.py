"""Verification, state and the protections of the write-like endpoints: bodies, content
types, size limits and the per-client rate limit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from dailydeal.cards import name, parse_deck
from dailydeal.games import GAMES, new_game
from dailydeal.verify import MAX_MOVES, verify
from dailydeal.web.i18n import js_table
from dailydeal.web.reasons import verdict_json

REASONS = js_table("REASONS")  # why a move is refused, by code (rules.js)

API = "/api/v1"


def deal_url(days: dict[str, dt.date], game: str, tier: str = "easy", when: str = "today") -> str:
    return f"{API}/deals/{days[when]}-{game}-{tier}"


@pytest.mark.parametrize("game", list(GAMES))
def test_stored_solution_wins_through_the_api(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]], game: str
) -> None:
    resp = client.post(deal_url(days, game) + "/verify", json={"moves": solutions[game]})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["valid"] and body["won"] and body["state"] == "won"
    assert body["moves"] == len(solutions[game])
    assert body["error"] is None
    assert resp.headers["Cache-Control"] == "no-store"
    # the same moves as text in the notation
    text = client.post(
        deal_url(days, game) + "/verify", data=" ".join(solutions[game]), content_type="text/plain"
    )
    assert text.get_json() == body


@pytest.mark.parametrize("game", list(GAMES))
def test_partial_and_illegal_moves_are_verdicts_not_errors(
    client: FlaskClient,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    seeds: dict[str, int],
    game: str,
) -> None:
    moves = solutions[game]
    half = moves[: len(moves) // 2]
    resp = client.post(deal_url(days, game) + "/verify", json={"moves": half})
    assert resp.status_code == 200
    expected = verify(game, seeds[game], half).to_json()
    assert resp.get_json() == {"deal": f"{days['today']}-{game}-easy", **expected}
    bad = [*half, "ZZ>QQ"]
    resp = client.post(deal_url(days, game) + "/verify", json={"moves": bad})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["valid"] is False and body["won"] is False
    assert body["error"]["index"] == len(half)
    assert body["error"]["move"] == "ZZ>QQ"
    # the reason in English, and by its stable code (rules.js's REASONS) with its params
    error = body["error"]
    code = {"pyramid": "pyramid_syntax"}.get(game, "unknown_card")
    sent = "ZZ" if game == "accordion" else "ZZ>QQ"  # Accordion reads the card first
    assert error["code"] == code and error["params"] == {"text": repr(sent)}
    assert REASONS[code].format(**error["params"]) == error["reason"]


@pytest.mark.parametrize(
    ("kwargs", "status", "words"),
    [
        ({"data": "{not json", "content_type": "application/json"}, 400, "not valid JSON"),
        ({"data": "", "content_type": "application/json"}, 400, "empty"),
        ({"json": ["d", "d"]}, 400, "JSON object"),
        ({"json": {"move": ["d"]}}, 400, "'moves'"),
        ({"json": {"moves": 12}}, 400, "moves"),
        ({"json": {"moves": ["d", 3]}}, 400, "not a string"),
        ({"json": {"moves": ["d"] * (MAX_MOVES + 1)}}, 400, "too many moves"),
        ({"data": b"\xff\xfe\xfa", "content_type": "text/plain"}, 400, "UTF-8"),
        ({"data": "d", "content_type": "text/plain; charset=klingon"}, 400, "klingon"),
        ({"data": "moves=d", "content_type": "application/x-www-form-urlencoded"}, 415, "json"),
        ({"data": "d d"}, 415, "no content type"),
        ({"data": "[" * 50000 + "]" * 50000, "content_type": "application/json"}, 413, "bytes"),
        ({"data": "[" * 30000 + "]" * 30000, "content_type": "application/json"}, 400, "JSON"),
    ],
)
def test_malformed_verify_bodies_are_readable_4xx(
    problem: Any,
    client: FlaskClient,
    days: dict[str, dt.date],
    kwargs: dict[str, Any],
    status: int,
    words: str,
) -> None:
    body = problem(client.post(deal_url(days, "gaps") + "/verify", **kwargs), status)
    assert words.lower() in body["detail"].lower()


def test_numbered_verify_by_seed_string_seed_and_cards(
    client: FlaskClient, solutions: dict[str, list[str]], seeds: dict[str, int]
) -> None:
    for game, moves in solutions.items():
        url = f"{API}/games/{game}/verify"
        seed = seeds[game]
        by_seed = client.post(url, json={"seed": seed, "moves": moves}).get_json()
        assert by_seed["won"] and by_seed["seed"] == str(seed)
        by_text = client.post(url, json={"seed": str(seed), "moves": " ".join(moves)})
        assert by_text.get_json() == by_seed
        cards = [name(c) for c in new_game(game, seed).cards]
        by_cards = client.post(url, json={"cards": cards, "moves": moves}).get_json()
        # explicit cards have no seed (Gaps redeals are seeded by it): compare with verify()
        expected = verdict_json(verify(game, None, moves, cards=cards))  # error: its code
        assert by_cards == {"game": game, "variant": by_seed["variant"], "seed": None, **expected}
        assert parse_deck(" ".join(cards)) == list(new_game(game, seed).cards)
        other = client.post(url, json={"seed": seed + 1000, "moves": moves}).get_json()
        assert other["won"] is False  # a different deal: the same moves do not solve it


@pytest.mark.parametrize(
    ("kwargs", "status", "words"),
    [
        ({"json": {"moves": []}}, 400, "exactly one"),
        ({"json": {"seed": 1, "cards": "AS", "moves": []}}, 400, "exactly one"),
        ({"json": {"seed": True, "moves": []}}, 400, "integer"),
        ({"json": {"seed": 1.5, "moves": []}}, 400, "integer"),
        ({"json": {"seed": -1, "moves": []}}, 400, "seed"),
        ({"json": {"seed": 2**64, "moves": []}}, 400, "seed"),
        ({"json": {"cards": "AS 2S", "moves": []}}, 400, "bad deal"),
        ({"json": {"cards": {"a": 1}, "moves": []}}, 400, "cards"),
        ({"json": {"seed": 1, "variant": "redeals=99", "moves": []}}, 400, "variant"),
        ({"json": {"seed": 1, "variant": 3, "moves": []}}, 400, "variant"),
        ({"json": {"seed": 1}}, 400, "moves"),
        ({"data": "2S", "content_type": "text/plain"}, 415, "application/json"),
    ],
)
def test_numbered_verify_rejects_bad_deals(
    problem: Any, client: FlaskClient, kwargs: dict[str, Any], status: int, words: str
) -> None:
    body = problem(client.post(f"{API}/games/gaps/verify", **kwargs), status)
    assert words in body["detail"]


@pytest.mark.parametrize("game", list(GAMES))
def test_state_follows_the_moves(
    client: FlaskClient,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    seeds: dict[str, int],
    game: str,
) -> None:
    moves = solutions[game]
    start = client.get(deal_url(days, game) + "/state")
    assert start.status_code == 200
    body = start.get_json()
    assert body["moves"] == [] and body["valid"]
    assert body["position"] == new_game(game, seeds[game]).position_json()
    some = moves[: len(moves) // 3]
    resp = client.get(deal_url(days, game) + "/state", query_string={"moves": " ".join(some)})
    body = resp.get_json()
    position = new_game(game, seeds[game])
    for m in some:
        position.play(position.parse_move(m))
    assert body["position"] == position.position_json()
    assert body["legal_moves"] == [str(m) for m in position.legal_moves()]
    posted = client.post(deal_url(days, game) + "/state", json={"moves": some}).get_json()
    assert posted == body
    end = client.post(deal_url(days, game) + "/state", json={"moves": moves}).get_json()
    assert end["state"] == "won"  # the solver writes every deal, so no completion is needed
    bad = client.post(deal_url(days, game) + "/state", json={"moves": [*some, "??"]}).get_json()
    assert bad["valid"] is False and bad["error"]["index"] == len(some)
    assert bad["position"] == body["position"]


def test_state_of_gaps_goes_through_redeals(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    moves = solutions["gaps"]
    if "R" not in moves:
        pytest.skip("this solution needs no redeal")
    upto = moves.index("R") + 1
    body = client.post(deal_url(days, "gaps") + "/state", json={"moves": moves[:upto]}).get_json()
    assert body["valid"] and body["moves"][-1] == "R"


def limited_client(path: Path, fill_db: Any, now: dt.datetime, **config: Any) -> FlaskClient:
    """A client of an app of its own (its own database, its own rate-limit counts)."""
    from dailydeal.web import create_app

    return create_app({"db_path": fill_db(path), "NOW": lambda: now, **config}).test_client()


def test_verify_is_rate_limited_per_client(
    problem: Any, tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date]
) -> None:
    client = limited_client(tmp_path / "rl.db", fill_db, now, verify_rate_limit="3 per minute")
    url = deal_url(days, "gaps") + "/verify"
    for _ in range(3):
        assert client.post(url, json={"moves": []}).status_code == 200
    # state and numbered verify share the budget
    limited = client.post(f"{API}/games/gaps/verify", json={"seed": 1, "moves": []})
    body = problem(limited, 429)
    assert "3 per 1 minute" in body["detail"]
    assert int(limited.headers["Retry-After"]) > 0
    # another client is not affected; reads are never limited
    other = client.post(url, json={"moves": []}, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200
    assert client.get(deal_url(days, "gaps")).status_code == 200


def test_rate_limit_counts_the_forwarded_client_behind_a_proxy(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date], problem: Any
) -> None:
    client = limited_client(
        tmp_path / "px.db", fill_db, now, verify_rate_limit="1 per minute",
        trusted_proxies="127.0.0.1",
    )
    url = deal_url(days, "pyramid") + "/verify"
    for addr in ("203.0.113.1", "203.0.113.2"):  # two clients through the same proxy
        resp = client.post(url, json={"moves": []}, headers={"X-Forwarded-For": addr})
        assert resp.status_code == 200
    again = client.post(url, json={"moves": []}, headers={"X-Forwarded-For": "203.0.113.1"})
    problem(again, 429)


@pytest.mark.parametrize("game", list(GAMES))
def test_numbered_state_matches_the_daily_state(
    client: FlaskClient,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    seeds: dict[str, int],
    game: str,
) -> None:
    some = solutions[game][: len(solutions[game]) // 2]
    daily = client.post(deal_url(days, game) + "/state", json={"moves": some}).get_json()
    numbered = client.post(
        f"{API}/games/{game}/state", json={"seed": seeds[game], "moves": some}
    ).get_json()
    del daily["deal"]
    assert numbered == daily
    fresh = client.post(f"{API}/games/{game}/state", json={"seed": seeds[game]}).get_json()
    assert fresh["moves"] == [] and fresh["position"] == new_game(game, seeds[game]).position_json()


# The copy-paste example of docs/api.md (and of the README): a real solution of pyramid 32.
DOC_EXAMPLE = (
    "d d 3S+TH 2H+JC 4S+9H TD+3C 7S+6H d d d d 2S+JH d d d 4C+9C d d d d 7H+6D KC AS+QH "
    "JD+2C KD QS+AH 8H+5C JS+2D d d 6C+7C 3D+TC 9S+4H 5S+8S 6S+7D"
)


def test_the_documented_curl_example_wins(client: FlaskClient) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    assert DOC_EXAMPLE in docs
    resp = client.post(f"{API}/games/pyramid/verify", json={"seed": 32, "moves": DOC_EXAMPLE})
    body = resp.get_json()
    assert body["valid"] and body["won"] and body["moves"] == 35
