"""Play tokens: a result counts only for a play the server saw begin.

``POST /deals/{id}/plays`` gives the player a token: a random id, the deal it is for and
when it was issued, signed with HMAC-SHA256 under the play key (32 random bytes made once
and kept where results are kept: the SQLite table ``salts`` or Redis, so that every worker
and every node signs and checks alike, and an API node needs no deal secret). Nothing is
stored when a token is issued; the store keeps, per token id, only the hints the play
asked for and whether its result was counted (``dailydeal.results``).

A token is checked without the store: its signature covers the deal id, so a token of
another deal, a changed issue time or a made-up id fails here. Single use is the store's
job (the token id is marked used in the same transaction that counts the result).

A token names the network that began the play (``p2`` tokens): ``network_tag``, an
HMAC-SHA256 of the deal id and the network under the play key, 96 bits, signed with the
rest. It reveals no address and links no two deals, and whatever network the result comes
from, it is counted in the turn of the network that took the token (docs/api.md,
Results): a token fetched ahead, or from another address, buys no faster counting. Tokens
issued before (``p1``) are still read; their network is the one that posts the result.

``MIN_SECONDS_PER_MOVE``: a result of N moves counts no sooner than N x 0.5 s after its
play was issued. The browser player needs two aimed clicks per move (card, then target; a
Pyramid draw is one) and a state round trip after each; a person sustains well under two
moves a second over a whole game, while a script posting a solver's win does not wait at
all. A post that comes sooner is not refused: it is taken and counted at that time by the
server (``dailydeal.results.Counting``).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import math
import re
import secrets
from dataclasses import dataclass

VERSION = "p2"
MIN_SECONDS_PER_MOVE = 0.5
_TOKEN_V1 = re.compile(r"p1\.([A-Za-z0-9_-]{22})\.([0-9]{1,12})\.([A-Za-z0-9_-]{22})")
_TOKEN = re.compile(
    r"p2\.([A-Za-z0-9_-]{22})\.([0-9]{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})")


class BadPlay(ValueError):
    """A play token that is not one of this server's for this deal (a readable reason)."""


@dataclass(frozen=True)
class Play:
    id: str  # 128 random bits, base64url: the key of the play in the store
    deal_id: str
    issued: int  # Unix seconds, the server's clock when the play began
    network: str = ""  # network_tag of the network that began it ("": a p1 token)

    def elapsed(self, now: dt.datetime) -> int:
        """Whole seconds from the play's start to ``now`` (the time the server measures)."""
        return max(0, int(now.timestamp()) - self.issued)


def new_key() -> str:
    """A fresh play key (hex), made once per store."""
    return secrets.token_hex(32)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _signature(key: bytes, deal_id: str, id_: str, issued: int, tag: str | None = None) -> str:
    if tag is None:  # p1
        message = f"dailydeal-play-v1|{deal_id}|{id_}|{issued}".encode()
    else:
        message = f"dailydeal-play-v2|{deal_id}|{id_}|{issued}|{tag}".encode()
    return _b64(hmac.new(key, message, hashlib.sha256).digest()[:16])


def network_tag(key: bytes, deal_id: str, network: str) -> str:
    """A network's name for one deal's budgets: no address in it, another on each deal."""
    message = f"dailydeal-network-v1|{deal_id}|{network}".encode()
    return _b64(hmac.new(key, message, hashlib.sha256).digest()[:12])


def issue(key: bytes, deal_id: str, now: dt.datetime, network: str = "") -> tuple[Play, str]:
    """A new play of ``deal_id`` starting ``now``, begun from ``network``, and its token."""
    tag = network_tag(key, deal_id, network)
    play = Play(_b64(secrets.token_bytes(16)), deal_id, int(now.timestamp()), tag)
    sig = _signature(key, deal_id, play.id, play.issued, tag)
    return play, f"{VERSION}.{play.id}.{play.issued}.{tag}.{sig}"


def read(key: bytes, deal_id: str, token: object) -> Play:
    """The play of a token for ``deal_id``; ``BadPlay`` if it is not one (the signature is
    compared in constant time)."""
    if not isinstance(token, str):
        raise BadPlay("'play' is the token of POST /deals/{id}/plays, a string")
    tag: str | None = None
    if (m := _TOKEN.fullmatch(token)) is not None:
        id_, issued, tag, sig = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    elif (m := _TOKEN_V1.fullmatch(token)) is not None:
        id_, issued, sig = m.group(1), int(m.group(2)), m.group(3)
    else:
        raise BadPlay("'play' is not a play token of this server")
    if not hmac.compare_digest(sig, _signature(key, deal_id, id_, issued, tag)):
        raise BadPlay(f"'play' is not a token of a play of {deal_id[:100]}")
    return Play(id_, deal_id, issued, tag or "")


def min_seconds(moves: int, per_move: float = MIN_SECONDS_PER_MOVE) -> int:
    """The least time, in whole seconds, a person takes to play ``moves`` moves."""
    return math.ceil(moves * per_move)


__all__ = ["MIN_SECONDS_PER_MOVE", "BadPlay", "Play", "issue", "min_seconds", "network_tag",
           "new_key", "read"]
