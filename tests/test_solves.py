"""Solves: a verified win kept and signed (Ed25519), its JSON and page, the keys.

The signature is checked here as anybody would (docs/api.md): the public key from
``GET /keys`` and the ``cryptography`` package, never the service's own helpers. The spoiler
rules run on a frozen clock at the exact instant a date's solutions open.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask
from flask.testing import FlaskClient
from helpers.clock import Clock
from helpers.spoilers import shows_a_move

from dailydeal.cards import names
from dailydeal.cli import main
from dailydeal.daily import clock as deal_clock
from dailydeal.games import new_game
from dailydeal.results import plays
from dailydeal.web import create_app
from dailydeal.web.db import forget

API = "/api/v1"


@pytest.fixture
def clock(now: dt.datetime) -> Clock:
    return Clock(now)


@pytest.fixture
def app(db_path: Path, clock: Clock) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "db_path": db_path, "NOW": clock,
                      "verify_rate_limit": "10000 per minute",
                      "counted_rate_limit": "1000 per minute"})
    yield app
    forget(db_path)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def check_signature(client: FlaskClient, solve: dict[str, Any]) -> None:
    """What docs/api.md shows: the key from GET /keys, the signature over ``signed``."""
    keys = {k["id"]: k["ed25519"] for k in client.get(f"{API}/keys").get_json()["keys"]}
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(keys[solve["key"]]))
    key.verify(base64.b64decode(solve["signature"]), solve["signed"].encode())
    with pytest.raises(InvalidSignature):
        forged = solve["signed"].replace("|won|", "|lost|").encode()
        key.verify(base64.b64decode(solve["signature"]), forged)


def win(client: FlaskClient, id_: str, moves: list[str]) -> dict[str, Any]:
    resp = client.post(f"{API}/deals/{id_}/verify", json={"moves": moves})
    assert resp.status_code == 200
    verdict: dict[str, Any] = resp.get_json()
    assert verdict["won"] and verdict["solve"], verdict
    return verdict


def test_a_numbered_win_is_signed_and_public_at_once(
    client: FlaskClient, seeds: dict[str, int], solutions: dict[str, list[str]]
) -> None:
    moves = solutions["gaps"]
    verdict = client.post(f"{API}/games/gaps/verify",
                          json={"seed": seeds["gaps"], "moves": moves}).get_json()
    link = verdict["solve"]
    assert set(link) == {"id", "url", "signed", "signature", "key"}
    assert link["url"] == f"/s/{link['id']}"
    check_signature(client, link)
    resp = client.get(f"{API}/solves/{link['id']}")
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    solve = resp.get_json()
    assert solve["moves"] == moves and solve["deal"] is None and solve["moves_open_at"] is None
    assert solve["seed"] == str(seeds["gaps"]) and solve["verdict"]["par"] is None
    assert solve["moves_sha256"] == hashlib.sha256(" ".join(moves).encode()).hexdigest()
    assert {k: solve[k] for k in ("signed", "signature", "key")} == {
        k: link[k] for k in ("signed", "signature", "key")}
    fields = solve["signed"].split("|")
    assert fields[:8] == ["dailydeal-solve-v1", link["id"], f"gaps/{seeds['gaps']}", "gaps",
                          "standard", str(seeds["gaps"]), "won", str(len(moves))]
    assert fields[9] == solve["moves_sha256"] and fields[10] == solve["verified_at"]
    page = client.get(link["url"])
    assert page.status_code == 200 and link["signature"] in page.get_data(as_text=True)


def test_an_open_date_never_shows_the_moves(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]],
) -> None:
    id_ = f"{days['today']}-pyramid-easy"
    moves = solutions["pyramid"]
    link = win(client, id_, moves)["solve"]
    check_signature(client, link)
    assert not shows_a_move(link["signed"]) and " ".join(moves) not in link["signed"]
    resp = client.get(f"{API}/solves/{link['id']}")
    solve = resp.get_json()
    assert solve["moves"] is None and solve["deal"] == id_
    assert solve["moves_sha256"] == hashlib.sha256(" ".join(moves).encode()).hexdigest()
    assert solve["moves_open_at"] == deal_clock.iso(deal_clock.solution_opens_at(days["today"]))
    assert solve["verdict"] == {"won": True, "moves": len(moves), "par": len(moves)}
    cache = resp.headers["Cache-Control"]
    assert cache.startswith("public, max-age=") and int(cache.split("=")[1]) <= 300
    assert not shows_a_move(resp.get_data(as_text=True))
    page = client.get(link["url"]).get_data(as_text=True)
    assert not shows_a_move(page), shows_a_move(page)
    assert 'property="og:title"' in page and "won in" in page


def test_a_line_verified_again_is_answered_without_a_read(
    app: Flask, client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]]
) -> None:
    """A kept solve never changes: the same winning line verified again (a reload of a won
    game) gets the same solve without reading the deal's row or the solves table."""
    from dailydeal.web.db import get_db

    id_ = f"{days['today']}-gaps-hard"
    first = win(client, id_, solutions["gaps"])
    statements: list[str] = []
    with app.app_context():
        get_db().conn.set_trace_callback(statements.append)  # this thread's connection
    try:
        again = win(client, id_, solutions["gaps"])
    finally:
        with app.app_context():
            get_db().conn.set_trace_callback(None)
    assert again == first
    assert not [q for q in statements if "solves" in q or "deals" in q], statements
    check_signature(client, again["solve"])


def test_the_moves_open_at_the_instant_the_solution_does(
    db_path: Path, days: dict[str, dt.date], solutions: dict[str, list[str]], now: dt.datetime,
) -> None:
    id_ = f"{days['today']}-gaps-hard"
    opens = deal_clock.solution_opens_at(days["today"])
    at = Clock(now)
    app = create_app({"TESTING": True, "db_path": db_path, "NOW": at})
    http = app.test_client()
    link = win(http, id_, solutions["gaps"])["solve"]
    at.t = opens - dt.timedelta(seconds=1)
    before = http.get(f"{API}/solves/{link['id']}")
    assert before.get_json()["moves"] is None
    assert before.headers["Cache-Control"] == "public, max-age=1"  # not cached past the opening
    assert not shows_a_move(http.get(link["url"]).get_data(as_text=True))
    at.t = opens
    after = http.get(f"{API}/solves/{link['id']}")
    assert after.get_json()["moves"] == solutions["gaps"]
    assert after.headers["Cache-Control"].endswith("immutable")
    assert after.get_json()["signed"] == before.get_json()["signed"]  # one text, for good
    forget(db_path)


def test_one_line_is_one_solve_and_the_first_stands(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date],
    solutions: dict[str, list[str]], db_path: Path,
) -> None:
    id_ = f"{days['past']}-accordion-easy"
    first = win(client, id_, solutions["accordion"])["solve"]
    clock.advance(3600)
    again = win(client, id_, solutions["accordion"])["solve"]
    assert again == first
    other = win(client, f"{days['past']}-accordion-hard", solutions["accordion"])["solve"]
    assert other["id"] != first["id"]  # the same line on another deal is another solve
    solve = client.get(f"{API}/solves/{first['id']}").get_json()
    assert solve["moves"] == solutions["accordion"]  # past: the solution is open


def test_no_solve_without_a_win_of_a_named_deal(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]],
    seeds: dict[str, int], db_path: Path,
) -> None:
    id_ = f"{days['today']}-pyramid-easy"
    for moves in (solutions["pyramid"][:-1], ["KS", "KS"], []):
        verdict = client.post(f"{API}/deals/{id_}/verify", json={"moves": moves}).get_json()
        assert not verdict["won"] and "solve" not in verdict
    cards = " ".join(names(new_game("pyramid", seeds["pyramid"]).cards))
    explicit = client.post(f"{API}/games/pyramid/verify",
                           json={"cards": cards, "moves": solutions["pyramid"]}).get_json()
    assert explicit["won"] and "solve" not in explicit  # explicit cards: no name to sign
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT count(*) FROM solves").fetchone()[0] == 0


@pytest.mark.parametrize("bad", [
    "x", "A" * 15, "A" * 17, "AAAAAAAAAAAAAAA!", "..%2F..%2Fetc%2Fpasswd", "%00" * 16,
    "AAAAAAAAAAAAAAA%0A", "ＡＡＡＡＡＡＡＡＡＡＡＡＡＡＡＡ", "AAAAAAAAAAAAAAAA",
    "' OR 1=1 --xxxxxx", "x" * 5000,
])
def test_bad_and_unknown_ids_are_404_problems(client: FlaskClient, problem: Any, bad: str) -> None:
    body = problem(client.get(f"{API}/solves/{bad}"), 404)
    assert len(body["detail"]) < 200  # never the whole of a long id echoed
    page = client.get(f"/s/{bad}")
    assert page.status_code == 404
    if "%2F" not in bad:  # a path of more segments is no page at all (a problem)
        assert page.mimetype == "text/html"


def test_a_player_who_finished_the_deal_sees_the_line_at_once(
    client: FlaskClient, clock: Clock, days: dict[str, dt.date],
    solutions: dict[str, list[str]], problem: Any,
) -> None:
    id_ = f"{days['today']}-pyramid-medium"
    moves = solutions["pyramid"]
    link = win(client, id_, moves)["solve"]
    url = f"{API}/solves/{link['id']}"
    forged = problem(client.get(f"{url}?play=p1.forged.token"), 422)
    assert forged["reason"] == "bad-play"
    other = client.post(f"{API}/deals/{days['today']}-pyramid-easy/plays").get_json()["play"]
    problem(client.get(f"{url}?play={other}"), 422)  # another deal's play proves nothing
    token = client.post(f"{API}/deals/{id_}/plays").get_json()["play"]
    unfinished = client.get(f"{url}?play={token}")
    assert unfinished.status_code == 200 and unfinished.get_json()["moves"] is None
    clock.advance(plays.min_seconds(3) + 1)
    given_up = client.post(f"{API}/deals/{id_}/results",
                           json={"client": "giver-upper-00000000", "moves": moves[:3],
                                 "play": token})
    assert given_up.status_code == 201, given_up.get_json()
    finished = client.get(f"{url}?play={token}")
    assert finished.get_json()["moves"] == moves
    assert finished.headers["Cache-Control"] == "private, no-store"
    assert client.get(url).get_json()["moves"] is None  # nobody else


def test_keys_are_made_once_private_and_rotate(
    app: Flask, client: FlaskClient, days: dict[str, dt.date],
    solutions: dict[str, list[str]], db_path: Path,
) -> None:
    old = win(client, f"{days['past']}-pyramid-easy", solutions["pyramid"])["solve"]
    path = db_path.parent / "signing.keys"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first = client.get(f"{API}/keys")
    assert first.headers["Cache-Control"] == "public, max-age=300"
    [key] = first.get_json()["keys"]
    assert key["id"] == old["key"] and len(base64.b64decode(key["ed25519"])) == 32
    env = {"DAILYDEAL_DB": str(db_path)}
    out = CliRunner().invoke(main, ["keys", "--rotate"], env=env)
    assert out.exit_code == 0, out.output
    os.utime(path, ns=(0, path.stat().st_mtime_ns + 10**9))  # a coarse clock: it changed
    keys = client.get(f"{API}/keys").get_json()["keys"]
    assert [k["id"] for k in keys][1:] == [key["id"]] and keys[0]["id"] in out.output
    new = win(client, f"{days['past']}-pyramid-hard", solutions["pyramid"])["solve"]
    assert new["key"] == keys[0]["id"] != old["key"]
    check_signature(client, new)
    check_signature(client, old)  # what the old key signed still checks
    listed = CliRunner().invoke(main, ["keys", "--json"], env=env)
    assert [k["id"] for k in json.loads(listed.output)["keys"]] == [
        k["id"] for k in keys]


def test_a_broken_keys_file_costs_the_verdict_nothing(
    client: FlaskClient, days: dict[str, dt.date], solutions: dict[str, list[str]],
    db_path: Path, problem: Any,
) -> None:
    (db_path.parent / "signing.keys").write_text("ed25519 nope notbase64!\n")
    id_ = f"{days['today']}-gaps-easy"
    resp = client.post(f"{API}/deals/{id_}/verify", json={"moves": solutions["gaps"]})
    assert resp.status_code == 200
    verdict = resp.get_json()
    assert verdict["won"] and verdict.get("solve") is None
    problem(client.get(f"{API}/keys"), 503)  # never a 500, never a traceback


def test_the_document_declares_the_new_operations(client: FlaskClient) -> None:
    paths = client.get(f"{API}/openapi.json").get_json()["paths"]
    assert set(paths["/solves/{id}"]["get"]["responses"]) >= {"200", "304", "404", "422"}
    assert "200" in paths["/keys"]["get"]["responses"]
    problem = paths["/solves/{id}"]["get"]["responses"]["404"]["content"]
    assert "application/problem+json" in problem


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is absent")
def test_two_nodes_sharing_redis_and_the_keys_file_answer_one_solve(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date],
    solutions: dict[str, list[str]],
) -> None:
    from helpers import stop
    from helpers.cluster import start_redis

    redis, url = start_redis(tmp_path)
    keys = tmp_path / "shared.keys"
    try:
        nodes = []
        for name in ("a", "b"):
            db = fill_db(tmp_path / f"{name}.db")
            nodes.append(create_app({"TESTING": True, "db_path": db, "NOW": lambda: now,
                                     "redis_url": url, "signing_keys_file": keys}))
        first, second = (n.test_client() for n in nodes)
        link = win(first, f"{days['past']}-gaps-easy", solutions["gaps"])["solve"]
        again = win(second, f"{days['past']}-gaps-easy", solutions["gaps"])["solve"]
        assert again == link  # the first one stands, whichever node is asked
        solve = second.get(f"{API}/solves/{link['id']}").get_json()
        assert solve["moves"] == solutions["gaps"]
        check_signature(second, link)
        assert first.get(f"{API}/keys").get_json() == second.get(f"{API}/keys").get_json()
    finally:
        for name in ("a", "b"):
            forget(tmp_path / f"{name}.db")
        stop(redis)
