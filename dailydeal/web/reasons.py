"""Why a move was refused, by code: the engine's English reason (``verify.MoveError``)
matched against rules.js's ``REASONS``, its words by code. The API's verdicts and its
illegal-moves problems carry the same stable ``code`` and ``params`` that the element gets
from rules.js for its own refusals, so the element translates the server's verdict as it
translates its own (``reason.<code>`` in the catalogs); ``reason`` stays English, for
machines (docs/api.md, "Why a move was refused")."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from dailydeal.verify import MoveError, Verdict
from dailydeal.web.i18n import js_table

# what a placeholder stands for: Python's repr() of the text sent (the notation's reasons),
# a type's name, a list of rows ("1, 3"); any other is one word (a card, a number, a row)
_HOLES = {"text": r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "type": r"\w+", "rows": r".+?"}


@cache
def patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for code, text in js_table("REASONS").items():
        seen: set[str] = set()

        def hole(m: re.Match[str], seen: set[str] = seen) -> str:
            name = m.group(1)
            if name in seen:  # "{card} needs a row 1..4 ({card}@R)": the same card twice
                return f"(?P={name})"
            seen.add(name)
            return f"(?P<{name}>{_HOLES.get(name, r'[^ ]+')})"

        out.append((code, re.compile(re.sub(r"\\\{(\w+)\\\}", hole, re.escape(text)))))
    return out


def reason_code(reason: str) -> tuple[str | None, dict[str, str]]:
    """The code of ``reason`` in rules.js's REASONS and its params, or (None, {}) for a
    reason that has none."""
    for code, pattern in patterns():
        if (found := pattern.fullmatch(reason)) is not None:
            return code, found.groupdict()
    return None, {}


def move_error_json(error: MoveError | None) -> dict[str, Any] | None:
    """A verdict's ``error`` as the API gives it: the move, its English ``reason``, and the
    reason's ``code`` and ``params`` (the element's words for it: ``reason.<code>``)."""
    if error is None:
        return None
    code, params = reason_code(error.reason)
    return {**error.to_json(), "code": code, "params": params}


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """``verdict.to_json()`` with its error's code and params."""
    return {**verdict.to_json(), "error": move_error_json(verdict.error)}
