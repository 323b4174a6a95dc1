"""The OpenAPI 3.1 document of ``/api/v1`` (served at ``/api/v1/openapi.json``).

The schemas are generated from the models of web/schema.py (pydantic: JSON Schema 2020-12,
which OpenAPI 3.1 uses as it is); this module says which operation takes and answers which
model, with what parameters and problems. tests/test_api_openapi.py checks that every route
and method of the app appears here, tests/test_api_schema.py that live answers of every
operation match the document. Built once per process (``document`` is cached).
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema

from dailydeal import __version__
from dailydeal.games import GAMES
from dailydeal.rating import TIERS
from dailydeal.verify import MAX_MOVES
from dailydeal.web.schema import ANSWERS, BODIES

REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


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
TZ = _param(
    "tz",
    "With `today`: an IANA time zone or a UTC offset (+05:30); default UTC",
    {"type": "string"},
    "query",
)
VARIANT = _param(
    "variant", "A variant of the game (default: its default)", {"type": "string"}, "query"
)

TODAY = {
    **_json("`today`: to the dated URL (Location)", _ref("TodayRedirect")),
    "headers": {"Location": {"schema": {"type": "string"}, "description": "The dated URL"}},
}
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

STATE_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": _ref("StateBody")},
        "text/plain": {
            "schema": {"type": "string", "description": "Moves in the notation, space separated"}
        },
    },
}


class _Generator(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (the name says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def schemas() -> dict[str, Any]:
    """The components: the request bodies as they are validated, the answers as sent."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m, "validation") for m in BODIES]
    models += [(m, "serialization") for m in ANSWERS]
    _, top = models_json_schema(
        models, ref_template=REF + "{model}", schema_generator=_Generator
    )
    return dict(top["$defs"])


@functools.cache
def document(max_body: int) -> dict[str, Any]:
    """The OpenAPI document; ``max_body`` is the app's MAX_CONTENT_LENGTH."""
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
                    "responses": {"200": _json("Links", _ref("Index"))},
                }
            },
            "/games": {
                "get": {
                    "summary": "Games, variants, tiers and links to the rules",
                    "responses": {"200": _json("Games", _ref("GameList"))},
                }
            },
            "/games/{game}": {
                "get": {
                    "summary": "One game and a summary of its rules and notation",
                    "parameters": [GAME],
                    "responses": {"200": _json("Game", _ref("GameRules")), "404": E404},
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
                        "content": {"application/json": {"schema": _ref("NumberedStateBody")}},
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
                        "302": TODAY,
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
                        "302": TODAY,
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
                        "302": TODAY,
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
                    "requestBody": STATE_BODY,
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
                        "200": _json("Feed", {"type": "object"}, "application/feed+json"),
                        "304": {"description": "Not modified"},
                    },
                }
            },
            "/feed.atom": {
                "get": {
                    "summary": "Atom feed of the last 30 days",
                    "responses": {
                        "200": _json("Feed", {"type": "string"}, "application/atom+xml"),
                        "304": {"description": "Not modified"},
                    },
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
                        "200": _json("Health", _ref("Health")),
                        "503": _problem("Database unavailable"),
                    },
                }
            },
        },
        "components": {"schemas": schemas()},
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
                    _param("play", "A play token: the hint counts for that play (results)",
                           {"type": "string"}, "query"),
                ],
                "responses": {**hint_answers, "304": {"description": "Not modified"}},
            },
            "post": {
                "summary": "Verdict and next move of a winning line after the moves",
                "parameters": [ID],
                "requestBody": STATE_BODY,
                "responses": hint_answers,
            },
        },
        "/games/{game}/hint": {
            "post": {
                "summary": "A hint on a numbered or explicit deal (a state body)",
                "parameters": [GAME],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("NumberedStateBody")}},
                },
                "responses": hint_answers,
            }
        },
        "/deals/{id}/plays": {
            "post": {
                "summary": "Begin a play of a daily deal: a signed, single-use play token",
                "description": "Its result counts only with this token (see ResultBody); "
                "hints asked with it (`?play=` or `\"play\"` in a hint body) are counted "
                "by the server for the play. Nothing is stored until a hint or a result.",
                "parameters": [ID],
                "responses": {
                    "201": _json("A play begun", _ref("Play")),
                    "403": _problem("Results closed: the solution is published"),
                    "404": E404,
                    "429": _problem("More than DAILYDEAL_PLAYS_LIMIT plays from this address"),
                    "503": _problem("The results store does not answer (Retry-After)"),
                },
            }
        },
        "/deals/{id}/results": {
            "post": {
                "summary": "Count a verified play of a daily deal, once per client and play",
                "description": "Counted only with a valid, unused play token of this deal "
                "issued at least min_seconds_per_move x moves ago. Every refusal is a "
                "problem with `reason` and `counted: false`.",
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
                    "409": _problem("reason `client-counted` (this client has another result "
                                    "for this deal: `result`) or `play-used`"),
                    "413": E413,
                    "415": E415,
                    "422": _problem("reason `no-play`, `bad-play` (not a token of this deal), "
                                    "`empty` (no move) or `illegal` (`error` says which)"),
                    "425": _problem("reason `too-fast`: sooner than a person plays; the play "
                                    "is kept, post again after `retry_after` seconds"),
                    "429": _problem("reason `counted-limit` (DAILYDEAL_COUNTED_LIMIT per address: "
                                    "the play is kept) or DAILYDEAL_RESULTS_LIMIT posts"),
                    "503": _problem("The results store does not answer or cannot be written"),
                },
            }
        },
        "/deals/{id}/stats": {
            "get": {
                "summary": "Plays, wins, win rate and winning move counts of a daily deal",
                "description": "Aggregates kept as results are counted: one read.",
                "parameters": [ID],
                "responses": {
                    "200": _json("Statistics", _ref("Stats")),
                    "304": {"description": "Not modified"},
                    "404": E404,
                    "429": _problem("More than DAILYDEAL_STATS_LIMIT requests from this address"),
                    "503": _problem("The results store does not answer (Retry-After)"),
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


# --- sharing: oEmbed, preview pictures (web/share.py), the calendar (web/feeds.py) -----
def share_paths() -> dict[str, Any]:
    size = {"type": "integer", "minimum": 1}
    return {
        "/oembed": {
            "get": {
                "summary": "oEmbed of a play page: an iframe of the embed page and a thumbnail",
                "parameters": [
                    {**_param("url", "A play or embed page of this service: a path, or an "
                              "absolute URL under DAILYDEAL_PUBLIC_URL (at most 2048 "
                              "characters)", {"type": "string"}, "query"), "required": True},
                    _param("maxwidth", "Largest width of the iframe (pixels)", size, "query"),
                    _param("maxheight", "Largest height of the iframe (pixels)", size, "query"),
                    _param("format", "Only `json`", {"type": "string", "enum": ["json"]},
                           "query"),
                ],
                "responses": {
                    "200": _json("The oEmbed answer", _ref("OEmbed")),
                    "304": {"description": "Not modified"},
                    "400": E400,
                    "404": _problem("Not a page of this service, or a deal not published"),
                    "501": _problem("A format other than json"),
                },
            }
        },
        "/deals/{id}/preview.png": {
            "get": {
                "summary": "A 1200x630 PNG of a published deal's layout (link previews)",
                "parameters": [
                    ID,
                    _param("v", "The drawing's version: with the current one the answer is "
                           "immutable", {"type": "string"}, "query"),
                ],
                "responses": {
                    "200": {"description": "The picture",
                            "content": {"image/png": {"schema": {"type": "string",
                                                                 "format": "binary"}}}},
                    "304": {"description": "Not modified"},
                    "404": E404,
                },
            }
        },
        "/calendar.ics": {
            "get": {
                "summary": "iCalendar (RFC 5545): an all-day event per date, last 30 days",
                "responses": {
                    "200": {"description": "The calendar",
                            "content": {"text/calendar": {"schema": {"type": "string"}}}},
                    "304": {"description": "Not modified"},
                },
            }
        },
    }
