"""Whether a text shows a move: what a page, an answer or a signed text of a date still open
must never hold."""

from __future__ import annotations

import re

MOVE = re.compile(r"[2-9TJQKA][SHDC][+>@]")  # a pair, a landing, a Gaps row: a move's text
# base64 and hex (signatures, keys, hashes): random letters that spell a move by chance
# (a signature held "6H+" once); a move list has spaces, quotes or commas between moves
OPAQUE = re.compile(r"[A-Za-z0-9+/=_-]{24,}")


def shows_a_move(text: str) -> re.Match[str] | None:
    return MOVE.search(OPAQUE.sub(" ", text))
