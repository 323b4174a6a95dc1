"""Live answers of every operation match the generated OpenAPI document: the status is one
the operation documents, and a JSON body validates against the schema documented for that
status and content type (JSON Schema 2020-12, as OpenAPI 3.1 says)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.clock import Clock
from jsonschema import Draft202012Validator

from dailydeal.results import plays
from dailydeal.web import create_app
from dailydeal.web.db import forget

API = "/api/v1"
HTML = ("text/html",)


@pytest.fixture
def clock(now: dt.datetime) -> Clock:
    return Clock(now)


@pytest.fixture
def app(db_path: Path, clock: Clock) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "db_path": db_path,
            "NOW": clock,
            "stats_rate_limit": "2 per day",
            "hint_rate_limit": "100 per minute",  # hints and reviews share it
            "public_url": "https://cards.example/",
        }
    )
    yield app
    forget(db_path)


class Checker:
    """Validates answers against the document and records the operations seen."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.doc: dict[str, Any] = client.get(f"{API}/openapi.json").get_json()
        self.seen: set[tuple[str, str, int]] = set()
        self.templates = [
            (re.compile("^" + re.sub(r"\{\w+\}", "[^/]+", re.escape(p).replace(r"\{", "{")
                                     .replace(r"\}", "}")) + "$"), p)
            for p in self.doc["paths"]
        ]

    def operation(self, path: str) -> str:
        bare = path.split("?")[0][len(API):] or "/"
        found = [tpl for rx, tpl in self.templates if rx.match(bare)]
        assert found, f"{path} matches no path of the document"
        return min(found, key=lambda t: t.count("{"))  # /deals/x/verify before /deals/{id}

    def __call__(self, method: str, path: str, status: int, **kwargs: Any) -> Any:
        resp = self.client.open(path, method=method, **kwargs)
        assert resp.status_code == status, (path, resp.get_data(as_text=True)[:300])
        template = self.operation(path)
        op = self.doc["paths"][template][method.lower()]
        answer = op["responses"].get(str(status))
        assert answer is not None, f"{method} {template}: {status} is not documented"
        self.seen.add((template, method.lower(), status))
        if status == 304 or resp.mimetype in HTML:
            return resp
        content = answer.get("content")
        assert content is not None, f"{method} {template} {status}: no content documented"
        assert resp.mimetype in content, (template, status, resp.mimetype, list(content))
        schema = content[resp.mimetype]["schema"]
        if "json" in resp.mimetype:
            root = {**schema, "components": self.doc["components"]}
            errors = sorted(
                Draft202012Validator(root).iter_errors(resp.get_json()), key=lambda e: e.path
            )
            assert not errors, (
                f"{method} {template} {status}: "
                + "; ".join(f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])
            )
        return resp


def test_every_operation_answers_as_documented(
    app: Flask,
    client: FlaskClient,
    clock: Clock,
    days: dict[str, dt.date],
    solutions: dict[str, list[str]],
    seeds: dict[str, int],
) -> None:
    check = Checker(client)
    today, past, future = (days[k].isoformat() for k in ("today", "past", "future"))
    moves = solutions["gaps"]
    open_id, locked_id = f"{past}-gaps-hard", f"{today}-gaps-hard"
    numbered = {"seed": seeds["gaps"], "moves": moves}

    check("GET", f"{API}/", 200)
    check("GET", f"{API}/games", 200)
    check("GET", f"{API}/games/gaps", 200)
    check("GET", f"{API}/games/chess", 404)
    check("GET", f"{API}/games/gaps/deals/42", 200)
    etag = check("GET", f"{API}/games/gaps/deals/42", 200).headers["ETag"]
    check("GET", f"{API}/games/gaps/deals/42", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/games/gaps/deals/x", 400)
    check("GET", f"{API}/games/chess/deals/1", 404)
    for op in ("verify", "state", "hint", "review"):
        check("POST", f"{API}/games/gaps/{op}", 200, json=numbered)
        check("POST", f"{API}/games/gaps/{op}", 400, json={"moves": []})
        check("POST", f"{API}/games/chess/{op}", 404, json=numbered)
        check("POST", f"{API}/games/gaps/{op}", 415, data="2S", content_type="text/plain")
        check("POST", f"{API}/games/gaps/{op}", 413, json={"moves": ["x" * 70000]})
    check("POST", f"{API}/games/gaps/verify", 200, json={**numbered, "seed": "1"})

    for path in (f"daily/{today}", f"daily/{today}/gaps", f"daily/{today}/gaps/hard"):
        check("GET", f"{API}/{path}", 200)
        check("GET", f"{API}/{path.replace(today, 'today')}", 302)
        check("GET", f"{API}/{path.replace(today, '2026-13-01')}", 400)
        check("GET", f"{API}/{path.replace(today, future)}", 404)
    etag = check("GET", f"{API}/daily/{today}/gaps/hard", 200).headers["ETag"]
    check("GET", f"{API}/daily/{today}/gaps/hard", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/daily/{today}", 304,
          headers={"If-None-Match": check("GET", f"{API}/daily/{today}", 200).headers["ETag"]})
    check("GET", f"{API}/daily/{today}/gaps", 304, headers={
        "If-None-Match": check("GET", f"{API}/daily/{today}/gaps", 200).headers["ETag"]})

    etag = check("GET", f"{API}/deals/{open_id}", 200).headers["ETag"]
    check("GET", f"{API}/deals/{open_id}", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/deals/{future}-gaps-hard", 404)
    check("POST", f"{API}/deals/{open_id}/verify", 200, json={"moves": moves})
    check("POST", f"{API}/deals/{open_id}/verify", 200, data=" ".join(moves),
          content_type="text/plain")
    check("POST", f"{API}/deals/{open_id}/verify", 400, json={"move": moves})
    check("POST", f"{API}/deals/nope/verify", 404, json={"moves": moves})
    check("POST", f"{API}/deals/{open_id}/verify", 413, json={"moves": ["x" * 70000]})
    check("POST", f"{API}/deals/{open_id}/verify", 415, data="x")
    etag = check("GET", f"{API}/deals/{open_id}/solution", 200).headers["ETag"]
    check("GET", f"{API}/deals/{open_id}/solution", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/deals/{locked_id}/solution", 403)
    check("GET", f"{API}/deals/nope/solution", 404)
    state = f"{API}/deals/{open_id}/state"
    etag = check("GET", f"{state}?moves={moves[0]}", 200).headers["ETag"]
    check("GET", f"{state}?moves={moves[0]}", 304, headers={"If-None-Match": etag})
    check("GET", f"{state}?moves=" + "%5B" * 1300, 400)
    check("GET", f"{API}/deals/nope/state", 404)
    check("POST", state, 200, json={"moves": moves[:3]})
    check("POST", state, 400, json={"moves": 3})
    check("POST", f"{API}/deals/nope/state", 404, json={"moves": []})
    check("POST", state, 413, json={"moves": ["x" * 70000]})
    check("POST", state, 415, data="x")

    hint = f"{API}/deals/{locked_id}/hint"
    etag = check("GET", f"{hint}?moves=", 200).headers["ETag"]
    check("GET", f"{hint}?moves=", 304, headers={"If-None-Match": etag})
    check("GET", f"{hint}?moves=ZZ>QQ", 422)
    check("GET", f"{hint}?from=x", 400)
    check("GET", f"{API}/deals/nope/hint", 404)
    check("POST", hint, 200, json={"moves": []})
    check("POST", hint, 400, json={"moves": 3})
    check("POST", hint, 413, json={"moves": ["x" * 70000]})
    check("POST", hint, 415, data="x")
    review = f"{API}/deals/{locked_id}/review"
    assert check("POST", review, 200, json={"moves": moves[:4]}).get_json()["line"] is None
    assert check("POST", f"{API}/deals/{open_id}/review", 200,
                 data=" ".join(moves[:4]), content_type="text/plain").get_json()["line"]
    check("POST", review, 422, json={"moves": ["ZZ>QQ"]})
    check("POST", review, 400, json={"moves": 3})
    check("POST", f"{API}/deals/nope/review", 404, json={"moves": []})

    play = check("POST", f"{API}/deals/{locked_id}/plays", 201).get_json()["play"]
    check("POST", f"{API}/deals/{open_id}/plays", 403)
    check("POST", f"{API}/deals/nope/plays", 404)
    results = f"{API}/deals/{locked_id}/results"
    body = {"client": "c" * 20, "moves": moves, "play": play, "seconds": 300}
    check("POST", results, 202, json=body)  # sooner than a person plays: counted later
    check("POST", results, 200, json=body)
    clock.t += dt.timedelta(seconds=plays.min_seconds(len(moves)) + 1)
    check("POST", results, 200, json=body)
    early = check("POST", f"{API}/deals/{locked_id}/plays", 201).get_json()["play"]
    clock.t += dt.timedelta(seconds=3600)
    check("POST", results, 201, json={**body, "client": "d" * 20, "play": early})
    check("POST", results, 409, json={**body, "moves": moves[:-1], "play": check(
        "POST", f"{API}/deals/{locked_id}/plays", 201).get_json()["play"]})
    check("POST", results, 422, json={**body, "play": "forged"})
    check("POST", results, 400, json={"client": 3})
    check("POST", results, 415, data="x", content_type="text/plain")
    check("POST", results, 413, json={"moves": ["x" * 70000]})
    check("POST", f"{API}/deals/{open_id}/results", 403, json=body)
    check("POST", f"{API}/deals/nope/results", 404, json=body)
    check("GET", f"{API}/deals/{locked_id}/stats", 200)
    check("GET", f"{API}/deals/nope/stats", 404)
    check("GET", f"{API}/deals/{locked_id}/stats", 429)

    etag = check("GET", f"{API}/commitments", 200).headers["ETag"]
    check("GET", f"{API}/commitments", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/commitments?from=someday", 400)
    won = check("POST", f"{API}/deals/{locked_id}/verify", 200, json={"moves": moves})
    solve = f"{API}/solves/{won.get_json()['solve']['id']}"
    etag = check("GET", solve, 200).headers["ETag"]
    check("GET", solve, 304, headers={"If-None-Match": etag})
    check("GET", f"{solve}?play=forged", 422)
    check("GET", f"{API}/solves/nope", 404)
    etag = check("GET", f"{API}/keys", 200).headers["ETag"]
    check("GET", f"{API}/keys", 304, headers={"If-None-Match": etag})
    page = f"https://cards.example/play/{locked_id}"
    etag = check("GET", f"{API}/oembed?url={page}", 200).headers["ETag"]
    check("GET", f"{API}/oembed?url={page}", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/oembed", 400)
    check("GET", f"{API}/oembed?url=/nothing", 404)
    check("GET", f"{API}/oembed?url={page}&format=xml", 501)
    png = f"{API}/deals/{locked_id}/preview.png"
    etag = check("GET", png, 200).headers["ETag"]
    check("GET", png, 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/deals/nope/preview.png", 404)
    for feed in ("feed.json", "feed.atom", "calendar.ics"):
        etag = check("GET", f"{API}/{feed}", 200).headers.get("ETag")
        if etag:
            check("GET", f"{API}/{feed}", 304, headers={"If-None-Match": etag})
    check("GET", f"{API}/openapi.json", 200)
    check("GET", f"{API}/healthz", 200)

    documented = {
        (path, method) for path, ops in check.doc["paths"].items() for method in ops
    }
    exercised = {(path, method) for path, method, _ in check.seen}
    assert documented - exercised == set(), "operations without a live answer checked"


def test_the_examples_of_the_document_are_valid(client: FlaskClient) -> None:
    doc = client.get(f"{API}/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    examples = [(name, ex) for name, s in schemas.items() for ex in s.get("examples", [])]
    assert {"Problem", "Deal", "Verdict", "MovesBody", "NumberedVerifyBody"} <= {
        name for name, _ in examples
    }
    for name, example in examples:
        root = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
        Draft202012Validator(root).validate(example)
