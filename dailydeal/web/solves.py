"""Solves: ``GET /solves/{id}`` (a verified win, signed), ``GET /keys`` (the public keys),
and the solve a verify of a winning line makes (``record_win``).

A verify that wins (``POST /deals/{id}/verify``, ``POST /games/{game}/verify`` with a
seed) keeps the line as a solve (``dailydeal.results.solves``: its id is a hash of the deal
and the moves, so verifying it again keeps nothing new) in the results store (the SQLite
file, or Redis for several nodes), signed with the active Ed25519 key
(``dailydeal.results.signing``), and the verdict carries ``solve``: ``{id, url, signed,
signature, key}``. A store or a key file that fails costs the verdict nothing: ``solve`` is
then null (logged).

No spoiler: while a daily deal's date is open somewhere, ``GET /solves/{id}`` gives the
SHA-256 of the moves and never the moves (``moves`` null, ``moves_open_at``), and the
signed text holds only that hash. The one exception is a proof that the asker finished
the deal: ``?play=`` a play token of that deal whose result the server took, counted or
pending (won or given up: ``POST /deals/{id}/results``). Such an answer is ``private, no-store``.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import sqlite3
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for

from dailydeal.config import SettingsError
from dailydeal.daily import clock
from dailydeal.games import Game
from dailydeal.results import plays, signing, solves
from dailydeal.results.solves import Solve
from dailydeal.verify import Verdict
from dailydeal.web import schema
from dailydeal.web.extensions import settings
from dailydeal.web.http import IMMUTABLE, app_memo, json_response, now, published_row
from dailydeal.web.operations import NOT_MODIFIED, operation, param
from dailydeal.web.problems import Problem
from dailydeal.web.results import play_key, use_store

bp = Blueprint("solves", __name__)
log = logging.getLogger(__name__)

SOLVE_ID = param("id", "A solve's id: 16 characters of A-Z a-z 0-9 _ -",
                 {"type": "string", "pattern": "^[A-Za-z0-9_-]{16}$"})
PLAY = param("play", "A play token of the solve's deal whose result the server took: the moves "
             "of a daily deal still open, for a player who finished it", {"type": "string"},
             "query")
OPEN_CACHE = 300  # seconds an answer without the moves is kept, at most (then they may open)
KEYS_CACHE = "public, max-age=300"  # a rotation shows within minutes


# --- the keys --------------------------------------------------------------------------------
def key_ring() -> signing.KeyRing:
    """The app's signing keys, read again when the file changes (a rotation needs no
    restart); created once if missing."""
    path = settings().signing_keys_file
    assert path is not None
    cached: tuple[Any, signing.KeyRing] | None = current_app.extensions.get("dailydeal_keys")
    stamp = signing.stamp(path)
    if cached is not None and stamp is not None and cached[0] == stamp:
        return cached[1]
    ring = signing.load(path)
    current_app.extensions["dailydeal_keys"] = (signing.stamp(path), ring)
    return ring


@bp.get("/keys")
@operation("GET", "The public keys that sign solves (Ed25519), the active one first",
           description="Base64 of each raw 32-byte public key, with the id a solve's `key` "
           "names. Older keys stay listed after a rotation: what they signed still checks.",
           answer=schema.Keys, answer_text="Keys", responses=NOT_MODIFIED,
           problems={503: "The keys file cannot be read (the log says why)"})
def keys() -> Response:
    try:
        ring = key_ring()
    except SettingsError as exc:  # a keys file broken or unreadable: the operator's to fix
        log.error("%s", exc)
        raise Problem(503, "the signing keys cannot be read; retry later",
                      headers={"Retry-After": "60", "Cache-Control": "no-store"}) from None
    return json_response({"keys": ring.public()}, KEYS_CACHE)


# --- made by a winning verify ------------------------------------------------------------
def record_win(verdict: Verdict, game: Game[Any], deal: str | None) -> dict[str, Any] | None:
    """Keep a verified win as a solve: the ``solve`` member of the verdict (None when the
    line does not win, or the deal is no seed's, or keeping it failed). ``deal``: the id of
    the published daily deal played (None: a numbered deal).

    A solve is never changed once stored (the first stands), so the answer for a line is
    remembered per app and process once kept: a line verified again (a reload of a won game
    verifies it anew) reads nothing. The deal's row (its date, and its par, which a recheck
    may change) is read only when a line is kept for the first time."""
    if not verdict.won or game.seed is None:
        return None
    move_list = game.line()
    id_ = solves.solve_id(solves.deal_name(deal, game.name, str(game.seed)), game.variant,
                          move_list)

    def keep() -> dict[str, Any]:
        stored = use_store(lambda s: s.solve(id_))
        if stored is None:
            row = published_row(deal) if deal else None
            made = solves.make(
                key_ring(), deal=deal, date=row["date"] if row else None, game=game.name,
                variant=game.variant, seed=str(game.seed), move_list=move_list,
                par=row["solution_length"] if row else None, now=now())
            stored = use_store(lambda s: s.save_solve(made.row()))
        solve = Solve.from_row(stored)
        return solve.link(url_for("pages.solve_page", id_=solve.id))

    try:
        kept: dict[str, Any] = app_memo().get(("solve", request.script_root, id_), keep)
    except (SettingsError, Problem, sqlite3.Error, OSError) as exc:
        log.warning("a verified win was not kept as a solve: %s", exc)
        return None
    return kept


# --- a solve ---------------------------------------------------------------------------------
def find(id_: str) -> Solve:
    """The solve of ``id_``, else a 404 (a malformed id too: it names nothing)."""
    if not solves.is_id(id_):
        raise Problem(404, f"no solve {id_[:40]!r}: an id is 16 characters of A-Z a-z 0-9 _ -")
    found = use_store(lambda s: s.solve(id_))
    if found is None:
        raise Problem(404, f"no solve {id_}")
    return Solve.from_row(found)


def finished(solve: Solve, token: str) -> bool:
    """Whether ``token`` proves its holder finished the solve's deal: a play of that deal
    whose result the server took (counted or still pending). A token that is not one of
    this deal's is a 422."""
    assert solve.deal is not None
    try:
        play = plays.read(play_key(), solve.deal, token)
    except plays.BadPlay as exc:
        raise Problem(422, f"{exc}: the moves of an open date are shown only to a player "
                      "who finished it", reason="bad-play",
                      headers={"Cache-Control": "no-store"}) from None
    _, counted = use_store(lambda s: s.play_state(solve.deal or "", play.id))
    return counted


def solve_json(solve: Solve, reveal: bool) -> dict[str, Any]:
    """The public answer; ``reveal``: with the moves."""
    opens = solve.opens_at()
    if solve.deal:
        deal_link = url_for("api.deal", id_=solve.deal)
        play_page = url_for("pages.play_deal", id_=solve.deal)
    else:
        deal_link = url_for("api.numbered_deal", game=solve.game, seed=solve.seed,
                            variant=solve.variant)
        play_page = url_for("pages.play_numbered", game=solve.game, seed=solve.seed,
                            variant=solve.variant)
    return {
        "id": solve.id,
        "deal": solve.deal,
        "date": solve.date,
        "game": solve.game,
        "variant": solve.variant,
        "seed": solve.seed,
        "verdict": {"won": True, "moves": solve.moves, "par": solve.par},
        "moves": list(solve.move_list) if reveal else None,
        "moves_sha256": solves.moves_sha256(list(solve.move_list)),
        "moves_open_at": None if opens is None else clock.iso(opens),
        "verified_at": solve.verified_at,
        "signed": solve.signed,
        "signature": solve.signature,
        "key": solve.key,
        "links": {
            "self": url_for("solves.solve", id_=solve.id),
            "page": url_for("pages.solve_page", id_=solve.id),
            "keys": url_for("solves.keys"),
            "deal": deal_link,
            "play": play_page,
        },
    }


@bp.get("/solves/<id_>")
@operation(
    "GET", "A verified win, signed by the service (Ed25519)",
    description="The deal, the verdict, the moves (their SHA-256 alone while a daily "
    "deal's date is open somewhere, unless `play` proves the asker finished it), when it "
    "was verified, and `signature`: the base64 Ed25519 signature of `signed` by the key "
    "`key` of GET /keys.",
    params=(SOLVE_ID, PLAY), answer=schema.SolveAnswer, answer_text="The solve",
    responses=NOT_MODIFIED,
    problems={404: "No solve of this id (or not an id)",
              422: "reason `bad-play`: `play` is not a play token of this deal",
              503: "The results store does not answer (Retry-After)"},
)
def solve(id_: str) -> Response:
    found = find(id_)
    current = now()
    if found.moves_public(current):
        return json_response(solve_json(found, True), IMMUTABLE)
    token = request.args.get("play")
    if token is not None:
        return json_response(solve_json(found, finished(found, token)), "private, no-store")
    opens = found.opens_at()
    assert opens is not None
    # never kept past the instant the moves open
    wait = max(1, min(OPEN_CACHE, math.ceil((opens - current).total_seconds())))
    return json_response(solve_json(found, False), f"public, max-age={wait}")


def page_view(id_: str) -> dict[str, Any] | None:
    """What ``/s/{id}`` shows (None: no such solve), never a move of an open date."""
    try:
        found = find(id_)
    except Problem as exc:
        if exc.status == 404:
            return None
        raise
    current = now()
    public = found.moves_public(current)
    opens = found.opens_at()
    return {
        "solve": found,
        "json": solve_json(found, False),
        "public": public,
        "opens_at": None if opens is None else clock.iso(opens),
        "opens_label": None if opens is None else f"{opens:%A} {opens.day} {opens:%B} "
                                                    f"{opens:%H:%M} UTC",
        "verified_label": _label(found.verified_at),
    }


def _label(iso: str) -> str:
    at = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return f"{at:%Y-%m-%d %H:%M} UTC"
