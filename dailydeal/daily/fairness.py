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
from dailydeal.daily import clock
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


def in_advance(date: str, committed_at: str | None) -> bool:
    """Whether a commitment was made before its date began anywhere on Earth (at UTC+14):
    only then does it prove that the deal was fixed before anyone could play it."""
    if not committed_at:
        return False
    made = dt.datetime.fromisoformat(committed_at)
    if made.tzinfo is None:  # stored by hand without an offset: the store's times are UTC
        made = made.replace(tzinfo=dt.UTC)
    return made < clock.begins_at(dt.date.fromisoformat(date))


def published(row: dict[str, Any]) -> dict[str, Any]:
    """What a deal's JSON carries from its date on: the commitment, the nonce and the
    committed text itself, so that anyone can hash it and compare it with the deal, and
    when it was committed (``committed_at``, as the commitments list published it, and
    ``in_advance``), so that a player's page can say truthfully whether it was fixed before
    its day. Both are final once stored (a trigger refuses any change), so the deal's JSON
    stays immutable; they are the times of the generating machine, or, where generators share
    a Redis, of the first one (``dailydeal.daily.shared``): the same on every node."""
    nonce = row.get("nonce")
    text = None
    if nonce is not None:
        text = _text(row["id"], int(row["seed"]), row["game"], row["variant"], nonce)
    committed_at = row.get("committed_at") if row.get("commitment") else None
    return {
        "sha256": row.get("commitment"),
        "nonce": nonce,
        "text": text,
        "committed_at": committed_at,
        "in_advance": in_advance(row["date"], committed_at),
    }


@functools.lru_cache(maxsize=4096)
def _text(deal_id: str, seed: int, game: str, variant: str, nonce: str) -> str:
    """The committed text of a stored deal (deals never change: dealt once per process)."""
    return commitment_text(deal_id, seed, new_game(game, seed, variant).cards, nonce)
