"""The OpenAPI 3.1 document of ``/api/v1`` (served at ``/api/v1/openapi.json``).

Written by hand next to the routes; tests/test_api_openapi.py checks that every route and
method of the app appears here, so the two cannot drift apart silently.
"""

from __future__ import annotations

from typing import Any

from dailydeal import __version__
from dailydeal.games import GAMES
from dailydeal.rating import TIERS
from dailydeal.verify import MAX_MOVES


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _problem(desc: str) -> dict[str, Any]:
    return {
        "description": desc,
        "content": {"application/problem+json": {"schema": _ref("Problem")}},
    }


def _json(desc: str, schema: dict[str, Any], mime: str = "application/json") -> dict[str, Any]:
    return {"description": desc, "content": {mime: {"schema": schema}}}


def _param(name: str, desc: str, schema: dict[str, Any], where: str = "path") -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "description": desc,
        "schema": schema,
    }


DATE = _param(
    "date",
    "YYYY-MM-DD, or `today` (a 302 to the dated URL; see `tz`)",
    {"type": "string", "pattern": r"^(\d{4}-\d{2}-\d{2}|today)$"},
)
GAME = _param("game", "A game", {"type": "string", "enum": list(GAMES)})
TIER = _param("tier", "A difficulty tier", {"type": "string", "enum": list(TIERS)})
ID = _param("id", "A deal id such as 2026-12-01-pyramid-hard", {"type": "string"})
SEED = _param("seed", "Deal number 0..2**64-1", {"type": "string", "pattern": "^[0-9]{1,20}$"})
#: A seed in an answer: a decimal string, since a 64-bit integer does not fit a JavaScript
#: number (12135775398892334671 would read as 12135775398892335000).
SEED_TEXT = {
    "type": "string",
    "pattern": "^[0-9]{1,20}$",
    "description": "Deal number 0..2**64-1 as a decimal string (64 bits: not a JSON number)",
}
TZ = _param(
    "tz",
    "With `today`: an IANA time zone or a UTC offset (+05:30); default UTC",
    {"type": "string"},
    "query",
)
VARIANT = _param(
    "variant", "A variant of the game (default: its default)", {"type": "string"}, "query"
)

E400 = _problem("Malformed request (bad date, seed, body or move list)")
E404 = _problem("Unknown game, tier or id, or a date not yet begun anywhere on Earth")
E408 = _problem("The body did not arrive in full in time (short of its Content-Length)")
E413 = _problem("Body over the limit (see info.description)")
E415 = _problem("Body neither application/json nor text/plain")
E429 = _problem("Too many verify (or state) requests from this client: Retry-After says when")
CACHED = {
    "ETag": {"schema": {"type": "string"}, "description": "Strong validator"},
    "Cache-Control": {"schema": {"type": "string"}},
}

MOVES_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": _ref("MovesBody")},
        "text/plain": {
            "schema": {"type": "string", "description": "Moves in the notation, space separated"}
        },
    },
}


def document(max_body: int) -> dict[str, Any]:
    """The OpenAPI document; ``max_body`` is the app's MAX_CONTENT_LENGTH."""
    from dailydeal.web.share_openapi import share_paths  # oEmbed, previews, calendar

    verify_responses = {
        "200": _json("The verdict, also for illegal moves", _ref("Verdict")),
        "400": E400,
        "404": E404,
        "408": E408,
        "413": E413,
        "415": E415,
        "429": E429,
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "dailydeal API",
            "version": __version__,
            "description": (
                "Daily solitaire challenges (Accordion, Pyramid, Gaps). A date is served "
                "once it has begun somewhere on Earth (UTC+14); solutions once it is over "
                f"everywhere (24:00 at UTC-12). Request bodies: at most {max_body} bytes and "
                f"{MAX_MOVES} moves. Errors are RFC 9457 application/problem+json."
            ),
        },
        "servers": [{"url": "/api/v1"}],
        "paths": {
            "/": {
                "get": {
                    "summary": "Where to start: links to games, today, feeds, this document",
                    "responses": {"200": _json("Links", {"type": "object"})},
                }
            },
            "/games": {
                "get": {
                    "summary": "Games, variants, tiers and links to the rules",
                    "responses": {"200": _json("Games", {"type": "object"})},
                }
            },
            "/games/{game}": {
                "get": {
                    "summary": "One game and a summary of its rules and notation",
                    "parameters": [GAME],
                    "responses": {"200": _json("Game", {"type": "object"}), "404": E404},
                }
            },
            "/games/{game}/deals/{seed}": {
                "get": {
                    "summary": "A numbered deal, dealt on the fly (never stored)",
                    "parameters": [GAME, SEED, VARIANT],
                    "responses": {
                        "200": {**_json("Deal", _ref("NumberedDeal")), "headers": CACHED},
                        "304": {"description": "Not modified"},
                        "400": E400,
                        "404": E404,
                    },
                }
            },
            "/games/{game}/verify": {
                "post": {
                    "summary": "Verify moves on a numbered or explicit deal",
                    "parameters": [GAME],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NumberedVerifyBody")}},
                    },
                    "responses": verify_responses,
                }
            },
            "/games/{game}/state": {
                "post": {
                    "summary": "The position after moves on a numbered or explicit deal",
                    "parameters": [GAME],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NumberedVerifyBody")}},
                    },
                    "responses": {
                        "200": _json("Position", _ref("State")),
                        "400": E400,
                        "404": E404,
                        "413": E413,
                        "415": E415,
                        "429": E429,
                    },
                }
            },
            "/daily/{date}": {
                "get": {
                    "summary": "Every deal of a date",
                    "parameters": [DATE, TZ],
                    "responses": {
                        "200": _json("Deals", _ref("DealList")),
                        "302": {"description": "`today`: to the dated URL"},
                        "304": {"description": "Not modified"},
                        "400": E400,
                        "404": E404,
                    },
                }
            },
            "/daily/{date}/{game}": {
                "get": {
                    "summary": "The four tiers of one game on a date",
                    "parameters": [DATE, GAME, TZ],
                    "responses": {
                        "200": _json("Deals", _ref("DealList")),
                        "302": {"description": "`today`: to the dated URL"},
                        "304": {"description": "Not modified"},
                        "400": E400,
                        "404": E404,
                    },
                }
            },
            "/daily/{date}/{game}/{tier}": {
                "get": {
                    "summary": "One daily deal",
                    "parameters": [DATE, GAME, TIER, TZ, VARIANT],
                    "responses": {
                        "200": {**_json("Deal", _ref("Deal")), "headers": CACHED},
                        "302": {"description": "`today`: to the dated URL"},
                        "304": {"description": "Not modified"},
                        "400": E400,
                        "404": E404,
                    },
                }
            },
            "/deals/{id}": {
                "get": {
                    "summary": "One daily deal by id",
                    "parameters": [ID],
                    "responses": {
                        "200": {**_json("Deal", _ref("Deal")), "headers": CACHED},
                        "304": {"description": "Not modified"},
                        "404": E404,
                    },
                }
            },
            "/deals/{id}/verify": {
                "post": {
                    "summary": "Verify a solution of a daily deal (rate limited per client)",
                    "parameters": [ID],
                    "requestBody": MOVES_BODY,
                    "responses": verify_responses,
                }
            },
            "/deals/{id}/solution": {
                "get": {
                    "summary": "The stored solution, once the date is over everywhere",
                    "parameters": [ID],
                    "responses": {
                        "200": _json("Solution", _ref("Solution")),
                        "304": {"description": "Not modified"},
                        "403": _problem("Not yet: `opens_at` says when"),
                        "404": E404,
                    },
                }
            },
            "/deals/{id}/state": {
                "get": {
                    "summary": "The position after a move list (thin clients)",
                    "parameters": [
                        ID,
                        _param("moves", "Moves in the notation", {"type": "string"}, "query"),
                    ],
                    "responses": {
                        "200": _json("Position", _ref("State")),
                        "304": {"description": "Not modified"},
                        "400": E400,
                        "404": E404,
                        "429": E429,
                    },
                },
                "post": {
                    "summary": "The position after a move list (thin clients)",
                    "parameters": [ID],
                    "requestBody": MOVES_BODY,
                    "responses": {
                        "200": _json("Position", _ref("State")),
                        "400": E400,
                        "404": E404,
                        "413": E413,
                        "415": E415,
                        "429": E429,
                    },
                },
            },
            **play_paths(),
            **share_paths(),
            "/feed.json": {
                "get": {
                    "summary": "JSON Feed 1.1 of the last 30 days",
                    "responses": {
                        "200": _json("Feed", {"type": "object"}, "application/feed+json")
                    },
                }
            },
            "/feed.atom": {
                "get": {
                    "summary": "Atom feed of the last 30 days",
                    "responses": {"200": _json("Feed", {"type": "string"}, "application/atom+xml")},
                }
            },
            "/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": _json("OpenAPI 3.1", {"type": "object"})},
                }
            },
            "/healthz": {
                "get": {
                    "summary": "Health: the database answers; dates of today missing, if any",
                    "responses": {
                        "200": _json("Health", {"type": "object"}),
                        "503": _problem("Database unavailable"),
                    },
                }
            },
        },
        "components": {"schemas": {**SCHEMAS, **PLAY_SCHEMAS}},
    }


_MOVES = {
    "oneOf": [
        {"type": "array", "items": {"type": "string", "maxLength": 16}, "maxItems": MAX_MOVES},
        {"type": "string", "description": "Moves in the notation, space or comma separated"},
    ]
}

SCHEMAS: dict[str, Any] = {
    "Problem": {
        "type": "object",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "instance": {"type": "string"},
            "opens_at": {"type": "string", "format": "date-time"},
        },
    },
    "Deal": {
        "type": "object",
        "required": [
            "id",
            "date",
            "game",
            "variant",
            "tier",
            "rating",
            "seed",
            "deal",
            "solution_length",
            "links",
        ],
        "properties": {
            "id": {"type": "string"},
            "date": {"type": "string", "format": "date"},
            "game": {"type": "string", "enum": list(GAMES)},
            "variant": {"type": "string"},
            "tier": {"type": "string", "enum": list(TIERS)},
            "rating": {"type": "number"},
            "seed": SEED_TEXT,
            "deal": {"type": "object", "description": "The cards as dealt (docs/rules.md shapes)"},
            "solution_length": {"type": "integer"},
            "solution_opens_at": {"type": "string", "format": "date-time"},
            "commitment": _ref("DealCommitment"),
            "links": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
    "DealList": {
        "type": "object",
        "properties": {
            "date": {"type": "string"},
            "game": {"type": "string"},
            "deals": {"type": "array", "items": _ref("Deal")},
        },
    },
    "NumberedDeal": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "variant": {"type": "string"},
            "seed": SEED_TEXT,
            "deal": {"type": "object"},
        },
    },
    "Solution": {
        "type": "object",
        "required": ["id", "moves", "solution_length"],
        "description": "A verify body as it stands (extra members are ignored)",
        "properties": {
            "id": {"type": "string"},
            "moves": {"type": "array", "items": {"type": "string"}},
            "solution_length": {"type": "integer"},
            "links": {"type": "object"},
        },
    },
    "MovesBody": {"type": "object", "required": ["moves"], "properties": {"moves": _MOVES}},
    "NumberedVerifyBody": {
        "type": "object",
        "required": ["moves"],
        "description": "Exactly one of seed and cards",
        "properties": {
            "seed": {
                "description": "A decimal string as answers send it (or a JSON integer)",
                "oneOf": [
                    {"type": "string", "pattern": "^[0-9]{1,20}$"},
                    {"type": "integer", "minimum": 0},
                ],
            },
            "cards": {
                "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
            },
            "variant": {"type": ["string", "null"]},
            "moves": _MOVES,
        },
    },
    "Verdict": {
        "type": "object",
        "required": ["valid", "won", "state", "score", "moves", "error"],
        "properties": {
            "valid": {"type": "boolean"},
            "won": {"type": "boolean"},
            "state": {"type": "string", "enum": ["won", "lost", "in progress"]},
            "score": {"type": "integer"},
            "moves": {"type": "integer"},
            "error": {"oneOf": [{"type": "null"}, _ref("MoveError")]},
        },
    },
    "MoveError": {
        "type": "object",
        "properties": {
            "index": {"type": "integer"},
            "move": {"type": "string"},
            "reason": {"type": "string"},
        },
    },
    "State": {
        "type": "object",
        "properties": {
            "valid": {"type": "boolean"},
            "error": {"oneOf": [{"type": "null"}, _ref("MoveError")]},
            "game": {"type": "string"},
            "variant": {"type": "string"},
            "seed": {"oneOf": [SEED_TEXT, {"type": "null"}]},
            "position": {"type": "object"},
            "state": {"type": "string"},
            "score": {"type": "integer"},
            "moves": {"type": "array", "items": {"type": "string"}},
            "legal_moves": {"type": "array", "items": {"type": "string"}},
        },
    },
}


# --- hints, results, commitments (web/hints.py, web/results.py, web/commitments.py) --------
E422 = _problem("A move of the list is illegal (`error` says which and why)")
E429_OWN = _problem("Too many requests of this kind from this client (a limit of its own)")


def play_paths() -> dict[str, Any]:
    hint_answers = {
        "200": _json("The hint", _ref("Hint")),
        "400": E400,
        "404": E404,
        "413": E413,
        "415": E415,
        "422": E422,
        "429": E429_OWN,
        "503": _problem("The solver is busy (its queue is full) or its safety net stopped it:"
                        " try again after `Retry-After` seconds"),
    }
    return {
        "/deals/{id}/hint": {
            "get": {
                "summary": "Verdict and next move of a winning line after `moves` (cacheable)",
                "parameters": [
                    ID,
                    _param("moves", "Moves in the notation", {"type": "string"}, "query"),
                    _param("from", "Moves after which the player began following hints: "
                           "the rest of that hint's line", {"type": "integer", "minimum": 0},
                           "query"),
                ],
                "responses": {**hint_answers, "304": {"description": "Not modified"}},
            },
            "post": {
                "summary": "Verdict and next move of a winning line after the moves",
                "parameters": [ID],
                "requestBody": MOVES_BODY,
                "responses": hint_answers,
            },
        },
        "/games/{game}/hint": {
            "post": {
                "summary": "A hint on a numbered or explicit deal (a state body)",
                "parameters": [GAME],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("NumberedVerifyBody")}},
                },
                "responses": hint_answers,
            }
        },
        "/deals/{id}/results": {
            "post": {
                "summary": "Count a verified play of a daily deal, once per client",
                "parameters": [ID],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("ResultBody")}},
                },
                "responses": {
                    "201": _json("Counted", _ref("ResultAnswer")),
                    "200": _json("The same post again: not counted twice", _ref("ResultAnswer")),
                    "400": E400,
                    "403": _problem("Results closed: the solution is published"),
                    "404": E404,
                    "409": _problem("This client has another result for this deal"),
                    "413": E413,
                    "415": E415,
                    "422": E422,
                    "429": E429_OWN,
                },
            }
        },
        "/deals/{id}/stats": {
            "get": {
                "summary": "Plays, wins, win rate and winning move counts of a daily deal",
                "parameters": [ID],
                "responses": {
                    "200": _json("Statistics", _ref("Stats")),
                    "304": {"description": "Not modified"},
                    "404": E404,
                },
            }
        },
        "/commitments": {
            "get": {
                "summary": "SHA-256 commitments of stored deals, future dates included",
                "parameters": [
                    _param("from", "First date (default: today, earliest zone)",
                           {"type": "string", "format": "date"}, "query"),
                    _param("to", "Last date (default: from + 13 days; at most 62 dates)",
                           {"type": "string", "format": "date"}, "query"),
                ],
                "responses": {
                    "200": _json("Commitments", _ref("Commitments")),
                    "304": {"description": "Not modified"},
                    "400": E400,
                },
            }
        },
    }


PLAY_SCHEMAS: dict[str, Any] = {
    "Hint": {
        "type": "object",
        "required": ["verdict", "move", "moves_left", "shortest", "state", "moves_played"],
        "properties": {
            "deal": {"type": "string"},
            "moves_played": {"type": "integer"},
            "verdict": {"type": "string", "enum": ["winnable", "lost", "unknown"]},
            "move": {"type": ["string", "null"], "description": "Next move of a winning line"},
            "moves_left": {"type": ["integer", "null"]},
            "shortest": {"type": "boolean", "description": "No winning line is shorter"},
            "state": {"type": "string", "enum": ["won", "lost", "in progress"]},
            "max_nodes": {"type": "integer"},
        },
    },
    "ResultBody": {
        "type": "object",
        "required": ["client", "moves"],
        "properties": {
            "client": {"type": "string", "pattern": "^[A-Za-z0-9_-]{16,128}$",
                       "description": "A random id the client keeps; stored only hashed"},
            "moves": _MOVES,
            "hints": {"type": "integer", "minimum": 0, "default": 0},
            "seconds": {"type": ["integer", "null"], "minimum": 0},
        },
    },
    "ResultAnswer": {
        "type": "object",
        "properties": {
            "deal": {"type": "string"},
            "counted": {"type": "boolean"},
            "result": {
                "type": "object",
                "properties": {
                    "won": {"type": "boolean"},
                    "state": {"type": "string"},
                    "moves": {"type": "integer"},
                    "score": {"type": "integer"},
                    "hints": {"type": "integer"},
                    "seconds": {"type": ["integer", "null"]},
                },
            },
            "links": {"type": "object"},
        },
    },
    "Stats": {
        "type": "object",
        "properties": {
            "deal": {"type": "string"},
            "plays": {"type": "integer"},
            "wins": {"type": "integer"},
            "win_rate": {"type": ["number", "null"]},
            "wins_without_hints": {"type": "integer"},
            "best": {"type": ["integer", "null"]},
            "winning_moves": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"moves": {"type": "integer"}, "count": {"type": "integer"}},
                },
            },
            "solution_length": {"type": "integer"},
            "final": {"type": "boolean", "description": "Results are closed"},
        },
    },
    "DealCommitment": {
        "type": "object",
        "description": "docs/fairness.md: sha256 of the committed text, and its nonce",
        "properties": {
            "sha256": {"type": ["string", "null"]},
            "nonce": {"type": ["string", "null"]},
            "text": {"type": ["string", "null"], "description": "The committed text"},
            "committed_at": {"type": ["string", "null"], "format": "date-time",
                             "description": "When the commitment was made (stored)"},
            "in_advance": {"type": "boolean",
                           "description": "Made before the date began anywhere"},
        },
    },
    "Commitments": {
        "type": "object",
        "properties": {
            "from": {"type": "string", "format": "date"},
            "to": {"type": "string", "format": "date"},
            "scheme": {"type": "string"},
            "commitments": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "date": {"type": "string", "format": "date"},
                        "game": {"type": "string"},
                        "variant": {"type": "string"},
                        "tier": {"type": "string"},
                        "commitment": {"type": "string"},
                        "committed_at": {"type": "string", "format": "date-time"},
                        "in_advance": {"type": "boolean",
                                       "description": "Made before the date began anywhere"},
                        "links": {"type": "object"},
                    },
                },
            },
        },
    },
}
