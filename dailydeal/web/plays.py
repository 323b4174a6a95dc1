"""Plays: ``POST /deals/{id}/plays`` begins a play of a daily deal, and hints count on it.

The answer is a signed, single-use token (dailydeal.results.plays) that the result of this
play must carry to count in the deal's statistics; it names the network that began the
play (a tag), in whose turns its result counts. Issuing one stores nothing (the token
carries its deal and start, signed), so a flood of plays costs hashes, not rows; the
per-address budget ``plays_rate_limit`` (default 3000 per day) lets a thousand players
behind one address (an office, a school, a carrier's NAT) each play a deal or three.

``hint_play(deal_id)`` before the search and ``note_hint(deal_id, play)`` after it: the
two calls the hint route makes. A hint request may carry the
token (``"play"`` in a JSON body, or ``?play=`` on any request); the server then counts the
hint for that play, and the play's result reports the server's count, never the client's.
A token of another deal or a forged one is a 422; a play whose result already counted, or
whose deal's results are closed, is not counted (the hint is still given). A store that
cannot count it is a 503: a hint is never given to a play without being counted.

A hint of an open deal asked without a token is counted too: its position is noted for the
network that asked (``marks``), and a result of that network (or of the network that
began its play) whose moves pass through that position counts it. Budgets: with a token,
``hint_rate_limit`` per play (``hint_key``) and ``hint_network_rate_limit`` for all the
plays of a network; without one, ``hint_rate_limit`` per network.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, Response, request, url_for

from dailydeal import results
from dailydeal.daily import clock
from dailydeal.results import plays
from dailydeal.web import schema
from dailydeal.web.extensions import limit, network, settings
from dailydeal.web.http import NO_STORE, json_response, now, published_row
from dailydeal.web.operations import ID, operation
from dailydeal.web.results import (
    CLOSED,
    is_open,
    no_store_refusals,
    open_row,
    play_key,
    refused,
    results_close,
    use_store,
)

bp = Blueprint("plays", __name__)
bp.after_request(no_store_refusals)


@bp.post("/deals/<id_>/plays")
@limit("plays")
@operation(
    "POST", "Begin a play of a daily deal: a signed, single-use play token",
    description="Its result counts only with this token (see ResultBody); hints asked with "
    "it (`?play=` or `\"play\"` in a hint body) are counted by the server for the play. "
    "Nothing is stored until a hint or a result.",
    answer=schema.Play, answer_text="A play begun", status=201, params=(ID,),
    problems={403: CLOSED, 404: "", 429: "More than DAILYDEAL_PLAYS_LIMIT plays from this "
              "address", 503: "The results store does not answer (Retry-After)"},
)
def new_play(id_: str) -> Response:
    """201 ``{"deal", "play", "issued", "expires", "min_seconds_per_move", "links"}``."""
    row, current = open_row(id_)
    play, token = plays.issue(play_key(), id_, current, network())
    body = {
        "deal": id_,
        "play": token,
        "issued": clock.iso(dt.datetime.fromtimestamp(play.issued, dt.UTC)),
        "expires": clock.iso(results_close(row)),
        "min_seconds_per_move": float(settings().min_seconds_per_move),
        "links": {"results": url_for("results.post_result", id_=id_)},
    }
    return json_response(body, NO_STORE, status=201)


def hint_play(deal_id: str, token: Any) -> plays.Play | None:
    """The play whose token the hint request carries (None without one), checked before
    any search: a forged token, or one of another deal, is a 422 that costs a hash."""
    if token is None:
        return None
    try:
        return plays.read(play_key(), deal_id, token)
    except plays.BadPlay as exc:
        raise refused(422, "bad-play", f"{exc}: leave 'play' out, or send this deal's") from None


def note_hint(deal_id: str, play: plays.Play | None, moves: list[str]) -> bool:
    """Count the hint just given for ``play`` (from ``hint_play``); without one, note its
    position for this network (``marks``): a result of this network whose line passes
    through it counts the hint too, token or not. Whether it was counted (the deal's
    results are open)."""
    row = published_row(deal_id)
    if not is_open(row, now()):
        return False  # results are closed: nothing counts any more
    if play is None:
        tag = plays.network_tag(play_key(), deal_id, network())
        position = results.position_hash(moves)
        use_store(lambda s: s.mark(deal_id, tag, position, results_close(row)))
        return True
    use_store(lambda s: s.note_hint(play.id, deal_id, results_close(row)))
    return True


def hint_key() -> str:
    """Whom a hint's budget is for: the play whose valid token the request carries (each
    play its own ``hint_rate_limit``), else the client's network."""
    token = token_of_request()
    id_ = (request.view_args or {}).get("id_")
    if token is not None and isinstance(id_, str):
        try:
            return "play:" + plays.read(play_key(), id_, token).id
        except plays.BadPlay:
            pass  # refused by the route (422)
    return network()


def without_token() -> bool:
    """A hint request that carries no play token (the per-network budget of tokened
    hints, ``hint_network_rate_limit``, is not for it)."""
    return token_of_request() is None


def token_of_request() -> Any:
    token = request.args.get("play")
    if token is None and request.is_json:
        body = request.get_json(silent=True)
        token = body.get("play") if isinstance(body, dict) else None
    return token


__all__ = ["bp", "hint_key", "hint_play", "new_play", "note_hint", "without_token"]
