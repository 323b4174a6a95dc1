"""Solves: verified wins that prove themselves, with an Ed25519 signature of the service.

A solve is made when the server verifies a winning line (``POST /deals/{id}/verify`` or a
numbered deal's ``POST /games/{game}/verify``): the deal, the verdict (moves, par), the
moves, when it was verified, and the service's signature over the text ``signed``:

    dailydeal-solve-v1|{id}|{deal}|{game}|{variant}|{seed}|won|{moves}|{par}|{sha256}|{verified_at}

where ``deal`` is a daily deal's id or ``{game}/{seed}`` for a numbered one, ``par`` the
daily deal's solver length (``-`` for a numbered deal), ``sha256`` the hex SHA-256 of the
moves joined by one space (``moves_sha256``) and ``verified_at`` an ISO 8601 UTC time. The
text names the deal and never the moves: it is the same before and after the date is over,
and anybody holding the moves (once they are public) checks them against the hash.

The id is derived from the deal and the moves (``solve_id``: 96 bits of a SHA-256), so
the same line verified twice is one solve (the first one's time and signature stand), a
solve needs no random state shared by the nodes, and nobody finds a solve's id without
its moves. Moves are stored as the engine wrote them after the verifier's replay
(``canonical``: Accordion's deals the verifier made included), so two spellings of one
line are one solve.

What is public while a daily deal's date is open (``moves_public``) is decided here, once,
for the API and the page: the moves of a daily deal wait for its solution to open
(``dailydeal.daily.clock``); a numbered deal has no date, so its moves are public at once.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from dailydeal.daily import clock
from dailydeal.results.signing import KeyRing

PREFIX = "dailydeal-solve-v1"
ID_PREFIX = "dailydeal-solve-id-v1"
ID_LENGTH = 16  # base64url characters: 96 bits
ID = re.compile(r"^[A-Za-z0-9_-]{16}$")


def moves_sha256(moves: list[str]) -> str:
    """The hex SHA-256 of the moves joined by one space (UTF-8): what is signed."""
    return hashlib.sha256(" ".join(moves).encode("utf-8")).hexdigest()


def deal_name(deal: str | None, game: str, seed: str) -> str:
    """What the signed text calls the deal: its daily id, else ``game/seed``."""
    return deal if deal else f"{game}/{seed}"


def solve_id(deal: str, variant: str, moves: list[str]) -> str:
    """The id of the solve of ``moves`` on ``deal`` (a ``deal_name``), 96 bits."""
    digest = hashlib.sha256(
        f"{ID_PREFIX}|{deal}|{variant}|{' '.join(moves)}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:ID_LENGTH]


def is_id(text: str) -> bool:
    return bool(ID.fullmatch(text))


@dataclass(frozen=True)
class Solve:
    id: str
    deal: str | None  # a daily deal's id; None for a numbered deal
    date: str | None  # the daily deal's date
    game: str
    variant: str
    seed: str  # decimal text
    moves: int
    par: int | None
    move_list: tuple[str, ...]
    verified_at: str  # ISO 8601 UTC, seconds
    key: str  # the id of the key that signed
    signature: str  # base64
    signed: str

    @property
    def name(self) -> str:
        return deal_name(self.deal, self.game, self.seed)

    def moves_public(self, now: dt.datetime) -> bool:
        """Whether everybody may see the moves: a numbered deal always, a daily deal
        once its solution is published (its date over everywhere)."""
        return self.date is None or clock.solution_open(dt.date.fromisoformat(self.date), now)

    def opens_at(self) -> dt.datetime | None:
        """When the moves become public (None: they are)."""
        return None if self.date is None else clock.solution_opens_at(
            dt.date.fromisoformat(self.date))

    def row(self) -> dict[str, Any]:
        """The stored shape (SQLite columns; Redis keeps the same as JSON)."""
        return {
            "id": self.id, "deal": self.deal, "date": self.date, "game": self.game,
            "variant": self.variant, "seed": self.seed, "moves": self.moves, "par": self.par,
            "move_list": json.dumps(list(self.move_list)), "verified_at": self.verified_at,
            "key": self.key, "signature": self.signature, "signed": self.signed,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Solve:
        return cls(
            id=row["id"], deal=row["deal"], date=row["date"], game=row["game"],
            variant=row["variant"], seed=str(row["seed"]), moves=int(row["moves"]),
            par=None if row["par"] is None else int(row["par"]),
            move_list=tuple(json.loads(row["move_list"])), verified_at=row["verified_at"],
            key=row["key"], signature=row["signature"], signed=row["signed"],
        )

    def link(self, url: str) -> dict[str, Any]:
        """What a verify answer and the ``dailydeal-won`` event carry: the signed result."""
        return {"id": self.id, "url": url, "signed": self.signed, "signature": self.signature,
                "key": self.key}


def signed_text(id_: str, deal: str, game: str, variant: str, seed: str, moves: int,
                par: int | None, sha256: str, verified_at: str) -> str:
    par_text = "-" if par is None else str(par)
    return (f"{PREFIX}|{id_}|{deal}|{game}|{variant}|{seed}|won|{moves}|{par_text}|{sha256}"
            f"|{verified_at}")


def make(ring: KeyRing, *, deal: str | None, date: str | None, game: str, variant: str,
         seed: str, move_list: list[str], par: int | None, now: dt.datetime) -> Solve:
    """A new solve of a verified winning ``move_list`` (canonical), signed by ``ring``'s
    active key."""
    name = deal_name(deal, game, seed)
    id_ = solve_id(name, variant, move_list)
    at = clock.iso(now.astimezone(dt.UTC).replace(microsecond=0))
    text = signed_text(id_, name, game, variant, seed, len(move_list), par,
                       moves_sha256(move_list), at)
    key = ring.active
    return Solve(id_, deal, date, game, variant, seed, len(move_list), par, tuple(move_list),
                 at, key.id, key.sign(text), text)
