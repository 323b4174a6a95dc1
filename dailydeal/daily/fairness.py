"""Provably fair deals: a commitment to each deal, published as soon as it is stored.

The committed text is ASCII, fields separated by ``|`` (docs/fairness.md)::

    dailydeal-commitment-v1|<deal id>|<seed in decimal>|<the 52 cards>|<nonce>

the cards in dealing order, canonical two-character names separated by single spaces (the
order ``--cards`` and ``POST /games/{game}/verify`` take), the nonce as 64 lower-case hex
digits. The commitment is the SHA-256 of that text, in lower-case hex.

The nonce is HMAC-SHA256(secret, ``dailydeal-nonce-v1|<deal id>``) for a deal stored by the
generator, or 32 random bytes for a row stored without the secret (rows stored before
commitments existed, test fixtures). Either way it is 256 bits nobody can guess before it
is revealed with the deal, so the commitment says nothing about the cards (a seed alone
has only 64 bits: without the nonce a search over seeds could find the deal).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

from dailydeal import cards as C
from dailydeal.games import new_game

COMMITMENT_PREFIX = "dailydeal-commitment-v1"
NONCE_PREFIX = "dailydeal-nonce-v1"


def deal_nonce(secret: bytes, deal_id: str) -> str:
    """The nonce of a deal derived from the server secret (64 hex digits)."""
    if not secret:
        raise ValueError("the secret is empty")
    message = f"{NONCE_PREFIX}|{deal_id}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def random_nonce() -> str:
    """A nonce for a row stored without the secret: as unguessable, not recomputable."""
    return secrets.token_hex(32)


def commitment_text(deal_id: str, seed: int, cards: Sequence[int], nonce: str) -> str:
    """The committed text (see the module docstring)."""
    if len(cards) != 52:
        raise ValueError(f"a deal has 52 cards, not {len(cards)}")
    return "|".join(
        (COMMITMENT_PREFIX, deal_id, str(int(seed)), " ".join(C.names(cards)), nonce)
    )


def commitment(deal_id: str, seed: int, cards: Sequence[int], nonce: str) -> str:
    """SHA-256 of ``commitment_text``, lower-case hex."""
    text = commitment_text(deal_id, seed, cards, nonce)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def stored_commitments(db: Any, start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """The published part of every deal stored from ``start`` to ``end`` inclusive (future
    dates too): its id, date, game, variant, tier, commitment and when it was made."""
    rows = db.query(
        "SELECT id, date, game, variant, tier, commitment, committed_at FROM deals"
        " WHERE date BETWEEN ? AND ? AND commitment IS NOT NULL ORDER BY date, id",
        [start.isoformat(), end.isoformat()],
    )
    return [dict(r) for r in rows]


def published(row: dict[str, Any]) -> dict[str, Any]:
    """What a deal's JSON carries from its date on: the commitment, the nonce and the
    committed text itself, so that anyone can hash it and compare it with the deal. Not
    when it was committed: that is a time of the generating machine, and the deal's JSON
    (immutable, ETag'd, served alike by every node) is a function of the deal alone; the
    time is in the commitments list, where it was published before the day."""
    nonce = row.get("nonce")
    text = None
    if nonce is not None:
        text = _text(row["id"], int(row["seed"]), row["game"], row["variant"], nonce)
    return {
        "sha256": row.get("commitment"),
        "nonce": nonce,
        "text": text,
    }


@functools.lru_cache(maxsize=4096)
def _text(deal_id: str, seed: int, game: str, variant: str, nonce: str) -> str:
    """The committed text of a stored deal (deals never change: dealt once per process)."""
    return commitment_text(deal_id, seed, new_game(game, seed, variant).cards, nonce)
