"""The API's request bodies and answers as pydantic models: described once, here.

The request bodies validate what clients send (``http.read_model``: a readable problem for
each refusal, see ``reason``); every model is also a schema of ``/api/v1/openapi.json``
(``openapi.document``). The routes build their answers as plain dicts (a deal's answer is
rendered once and remembered, a verdict on every request: no model on that path);
tests/test_api_schema.py validates live answers of every operation against the document,
so a route that answers a member no model declares fails there. To add a member to an
answer, add a field to its model here and the member to the route's dict.

A docstring is the schema's description; a field's ``description`` is a noun phrase that
also words the problem of a bad value ("'seed' is <description>, not a boolean").
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from dailydeal.games import GAMES
from dailydeal.rating import TIERS
from dailydeal.results import CLIENT_ID, MAX_SECONDS
from dailydeal.shuffle import MAX_SEED
from dailydeal.verify import MAX_MOVES, MAX_MOVES_TEXT, split_moves
from dailydeal.web.problems import CODES

#: A seed in an answer: a decimal string, since a 64-bit integer does not fit a JavaScript
#: number (12135775398892334671 would read as 12135775398892335000).
SeedText = Annotated[
    str,
    Field(
        pattern="^[0-9]{1,20}$",
        description="the deal number 0..2**64-1 as a decimal string (64 bits: not a JSON number)",
    ),
]
GameName = Annotated[str, Field(json_schema_extra={"enum": list(GAMES)})]
TierName = Annotated[str, Field(json_schema_extra={"enum": list(TIERS)})]
Links = dict[str, str]
GameState = Literal["won", "lost", "in progress"]

MAX_FROM = 999_999  # a move count of a hint's ``from``
_MOVES_SCHEMA = {
    "oneOf": [
        {"type": "array", "items": {"type": "string"}, "maxItems": MAX_MOVES},
        # a text that begins with "[" is read as a JSON list (verify.split_moves)
        {"type": "string", "maxLength": MAX_MOVES_TEXT, "pattern": r"^(?!\s*\[)",
         "description": "Moves in the notation, space or comma separated"},
    ]
}
#: A move list as sent: a JSON list of moves or a text in the notation, validated (and
#: split into moves) by ``verify.split_moves``, whose words a bad list's problem quotes.
Moves = Annotated[
    list[str],
    PlainValidator(split_moves),
    WithJsonSchema(_MOVES_SCHEMA, mode="validation"),
    Field(description="a list of moves or a text in the notation"),
]


class Answer(BaseModel):
    """An answer: every member declared (a new one is added here first)."""

    # built when openapi.json is first asked for, not at start-up (see Body)
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Body(BaseModel):
    """A request body: strict JSON types; members no field names are ignored."""

    # Built at the first body it reads: building every model at import cost some 0.3 s of
    # CPU on each start (measured: docs/architecture.md, The API's schema layer).
    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        """A JSON number with no fraction (``3.0``) is the integer JSON Schema says it is
        (strict mode alone would refuse it; ``true`` and ``"3"`` stay refused)."""
        if not isinstance(data, dict):
            return data
        return {k: int(v) if isinstance(v, float) and v.is_integer() else v
                for k, v in data.items()}


# --- problems ----------------------------------------------------------------------------
class Problem(BaseModel):
    """RFC 9457 problem details: every 4xx and 5xx answer (application/problem+json).
    ``type`` is about:blank (the status says it all); extension members where useful."""

    model_config = ConfigDict(
        extra="allow",
        defer_build=True,
        json_schema_extra={
            "examples": [
                {
                    "type": "about:blank",
                    "title": "Bad Request",
                    "status": 400,
                    "detail": "'2026-13-01' is not a date of the calendar",
                    "code": "bad_date",
                    "instance": "/api/v1/daily/2026-13-01",
                },
                {
                    "type": "about:blank",
                    "title": "Forbidden",
                    "status": 403,
                    "detail": "the solution of 2026-12-01-gaps-hard opens at "
                    "2026-12-02T12:00:00Z, when 2026-12-01 is over everywhere on Earth",
                    "code": "solution_locked",
                    "instance": "/api/v1/deals/2026-12-01-gaps-hard/solution",
                    "opens_at": "2026-12-02T12:00:00Z",
                },
            ]
        },
    )

    type: str = "about:blank"
    title: str
    status: int
    detail: str = Field(description="A sentence a person can act on (English)")
    code: str = Field(
        description="The problem's stable name, for programs and translations "
        "(docs/api.md, Problem codes): " + ", ".join(CODES),
        json_schema_extra={"enum": list(CODES)},
    )
    instance: str | None = Field(None, description="The path the problem is about")
    opens_at: dt.datetime | None = Field(None, description="403 of a solution: when it opens")
    allow: list[str] | None = Field(None, description="405: the methods allowed")
    limit: str | None = Field(None, description="429: the limit breached")
    max_moves: int | None = Field(None, description="A bad move list: the most accepted")
    retry_after: int | None = Field(None, description="Seconds to wait (also Retry-After)")
    closed_at: dt.datetime | None = Field(None, description="403 of results: when they closed")
    reason: str | None = Field(None, description="A refused result: why, as a word")
    counted: bool | None = Field(None, description="A refused result: false")


# --- request bodies ----------------------------------------------------------------------
class MovesBody(Body):
    """A move list (or the same moves as a text/plain body)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"moves": ["8>7", "7>6"]}, {"moves": "8>7 7>6"}]}
    )

    moves: Moves


class StateBody(Body):
    """A move list, possibly empty: the position after it."""

    moves: Moves = Field(default_factory=list)


_SeedIn = Annotated[int, Field(ge=0, le=MAX_SEED)] | SeedText


def _one_of(schema: dict[str, Any], *names: str, **extra: Any) -> None:
    """Exactly one of the properties ``names``, none of them null (absent is no value);
    ``extra``: more members of the schema."""
    schema.update(extra)
    for name in names:
        prop = schema["properties"][name]
        prop["anyOf"] = [s for s in prop["anyOf"] if s.get("type") != "null"]
        prop.pop("default", None)
    schema["oneOf"] = [{"required": [name]} for name in names]


class NumberedStateBody(Body):
    """A deal by number or by its cards (exactly one of ``seed`` and ``cards``)."""

    # exactly one of the two, neither null: the schema says what _one_deal checks
    model_config = ConfigDict(json_schema_extra=lambda schema: _one_of(schema, "seed", "cards"))

    seed: _SeedIn | None = Field(
        None,
        description=f"an integer 0..{MAX_SEED}, or that integer as a decimal string "
        "(as answers send it)",
    )
    cards: str | list[str] | None = Field(None, description="a text or a list of the 52 cards")
    variant: str | None = Field(None, description="a text, a variant of the game")
    moves: Moves = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_deal(self) -> NumberedStateBody:
        given = {"seed", "cards"} & self.model_fields_set
        if (self.seed is None) == (self.cards is None) or len(given) != 1:
            raise PydanticCustomError(
                "one_deal", "give exactly one of 'seed' (an integer) and 'cards' (the 52 cards)"
            )
        return self


class NumberedVerifyBody(NumberedStateBody):
    """A deal by number or by its cards (exactly one of ``seed`` and ``cards``), and moves."""

    model_config = ConfigDict(json_schema_extra=lambda schema: _one_of(
        schema, "seed", "cards", examples=[
            {"seed": "42", "moves": "8>7 7>6"},
            {"cards": "AS 2S 3S ...", "variant": "standard", "moves": []},
        ]))

    moves: Moves


#: A play token (POST /deals/{id}/plays). Any JSON value is taken here: the route reads the
#: token and answers 422 ``bad-play`` for one that is not (web/results.py).
PlayToken = Annotated[
    Any,
    WithJsonSchema({"type": "string", "description": "The token of POST /deals/{id}/plays"}),
]


class ResultBody(Body):
    """A finished play of a daily deal, counted with its play token (without one: 422)."""

    client: str = Field(
        pattern=CLIENT_ID.pattern,
        description="the random id this client keeps: 16 to 128 characters of "
        "A-Z a-z 0-9 _ - (a UUID will do); it is stored only as a salted hash",
    )
    moves: Moves
    play: PlayToken = None
    seconds: int | None = Field(
        None, ge=0, le=MAX_SECONDS,
        description=f"an integer 0..{MAX_SECONDS}: the play time the client measured, "
        "stored as reported",
    )
    hints: Any = Field(None, description="Ignored: the server counts hints")


class _HintFields(Body):
    """What a hint request adds to a state body."""

    from_: int | None = Field(
        None, alias="from", ge=0, le=MAX_FROM,
        description="a move count (an integer >= 0): where the player began following "
        "hints, for the rest of that hint's line",
    )
    play: PlayToken = None


class HintBody(StateBody, _HintFields):
    """A move list, possibly empty, and the options of a hint (``from``, ``play``)."""


class NumberedHintBody(NumberedStateBody, _HintFields):
    """A deal by number or by its cards, a move list, and ``from``."""


def reason(model: type[BaseModel], error: Any) -> str:
    """A readable sentence for one pydantic ``error`` of a body of ``model``."""
    loc = error["loc"]
    if not loc:  # the whole body (exactly one of seed and cards)
        return str(error["msg"])
    name = str(loc[0])
    field = next((f for key, f in model.model_fields.items() if name in (key, f.alias)), None)
    wanted = field.description if field is not None and field.description else "valid"
    if error["type"] == "missing":
        return f"the body has no {name!r}: {wanted}"
    if error["type"] == "value_error":  # split_moves' own words
        return f"bad {name!r}: {error['ctx']['error']}"
    value = error["input"]
    shown = kind(value) if not isinstance(value, (int, str)) or isinstance(value, bool) else None
    return f"{name!r} is {wanted}, not {shown or repr(value)[:40]}"


def kind(value: Any) -> str:
    """What a JSON value is, in words."""
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
        int: "a number",
        float: "a number",
    }.get(type(value), "a value")


# --- answers -----------------------------------------------------------------------------
class Index(Answer):
    """Where to start."""

    name: str
    version: str
    locales: list[str] = Field(
        description="The languages of the pages and of the element (BCP 47 tags)")
    links: Links


class Variant(Answer):
    name: str
    description: str


class GameSummary(Answer):
    """A game, its variants and tiers."""

    name: GameName
    default_variant: str
    daily_variant: str | None = Field(description="The variant dealt every day, if any")
    variants: list[Variant]
    tiers: list[TierName]
    links: Links


class GameList(Answer):
    games: list[GameSummary]


class GameRules(GameSummary):
    """A game and a summary of its rules and notation."""

    rules: dict[str, Any]


class NumberedDeal(Answer):
    """A numbered deal, dealt on the fly: the same cards forever."""

    game: GameName
    variant: str
    seed: SeedText
    deal: dict[str, Any] = Field(description="The cards as dealt (docs/rules.md shapes)")
    links: Links


class DealCommitment(Answer):
    """docs/fairness.md: sha256 of the committed text, and its nonce."""

    sha256: str | None
    nonce: str | None
    text: str | None = Field(description="The committed text")
    committed_at: dt.datetime | None = Field(description="When the commitment was made")
    in_advance: bool = Field(description="Made before the date began anywhere")


class Deal(Answer):
    """A daily deal (never its solution, which has its own URL)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "2026-12-01-accordion-easy",
                    "date": "2026-12-01",
                    "game": "accordion",
                    "variant": "standard",
                    "tier": "easy",
                    "rating": 12.5,
                    "seed": "12135775398892334671",
                    "deal": {"cards": ["AS", "2S", "..."]},
                    "solution_length": 40,
                    "proved_shortest": False,
                    "solution_opens_at": "2026-12-02T12:00:00Z",
                    "commitment": {
                        "sha256": "9f2b...",
                        "nonce": "4c1d...",
                        "text": "dailydeal-commitment ...",
                        "committed_at": "2026-11-17T06:00:00Z",
                        "in_advance": True,
                    },
                    "links": {"self": "/api/v1/deals/2026-12-01-accordion-easy"},
                }
            ]
        }
    )

    id: str
    date: dt.date
    game: GameName
    variant: str
    tier: TierName
    rating: float
    seed: SeedText
    deal: dict[str, Any] = Field(description="The cards as dealt (docs/rules.md shapes)")
    solution_length: int
    proved_shortest: bool = Field(description="No solution is shorter than solution_length")
    solution_opens_at: dt.datetime
    commitment: DealCommitment
    links: Links


class DealList(Answer):
    """The deals of a date (of one game, with ``game``)."""

    date: dt.date
    game: GameName | None = None
    deals: list[Deal]


class TodayRedirect(Answer):
    """``today``: the date it is in ``tz`` and the dated URL (also in Location)."""

    date: dt.date
    location: str


class Solution(Answer):
    """The stored solution: a verify body as it stands (extra members are ignored)."""

    id: str
    moves: list[str]
    solution_length: int
    links: Links


class MoveError(Answer):
    """The first move that could not be played, and why."""

    index: int
    move: str
    reason: str = Field(description="Why, in English (for machines and logs)")
    code: str | None = Field(description="The reason's stable code (docs/api.md, \"Why a move "
                             "was refused\"); null for a reason without one")
    params: dict[str, str] = Field(description="The reason's values by placeholder name "
                                   "(cards, the text sent as Python's repr())")


class SolveLink(Answer):
    """A verified win kept as a solve: its page and the service's signature of it."""

    id: str = Field(pattern="^[A-Za-z0-9_-]{16}$")
    url: str = Field(description="The solve's page, /s/{id}: a link to share")
    signed: str = Field(description="The exact text signed (names the deal, the hash of "
                        "the moves, never the moves)")
    signature: str = Field(description="Base64 Ed25519 signature of `signed` (UTF-8)")
    key: str = Field(description="The id of the signing key, in GET /keys")


class SolveVerdict(Answer):
    won: Literal[True]
    moves: int = Field(description="Moves of the line, deals the verifier made included")
    par: int | None = Field(description="The daily deal's solver length (numbered: null)")


class SolveAnswer(Answer):
    """A verified win, signed: the moves only once they spoil nothing."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "Qm2x9vJc0aZ1kP4t", "deal": "2026-12-01-pyramid-easy",
                    "date": "2026-12-01", "game": "pyramid", "variant": "standard",
                    "seed": "42", "verdict": {"won": True, "moves": 31, "par": 31},
                    "moves": None,
                    "moves_sha256": "9f86d081884c7d659a2feaa0c55ad015"
                                    "a3bf4f1b2b0b822cd15d6c15b0f00a08",
                    "moves_open_at": "2026-12-02T12:00:00Z",
                    "verified_at": "2026-12-01T08:14:03Z",
                    "signed": "dailydeal-solve-v1|Qm2x9vJc0aZ1kP4t|2026-12-01-pyramid-easy|"
                              "pyramid|standard|42|won|31|31|9f86...0a08|2026-12-01T08:14:03Z",
                    "signature": "mW1...==", "key": "3q2-7wXfB4Y",
                    "links": {"self": "/api/v1/solves/Qm2x9vJc0aZ1kP4t"},
                }
            ]
        }
    )

    id: str
    deal: str | None = Field(description="The daily deal's id; null for a numbered deal")
    date: str | None
    game: GameName
    variant: str
    seed: SeedText
    verdict: SolveVerdict
    moves: list[str] | None = Field(description="The line; null while the date is open")
    moves_sha256: str = Field(pattern="^[0-9a-f]{64}$",
                              description="SHA-256 of the moves joined by one space")
    moves_open_at: dt.datetime | None = Field(
        description="When the moves become public (null: a numbered deal, public at once)")
    verified_at: dt.datetime
    signed: str
    signature: str
    key: str
    links: Links


class PublicKey(Answer):
    id: str
    ed25519: str = Field(description="Base64 of the raw 32-byte public key")


class Keys(Answer):
    """The public keys that check solves' signatures, the active one first."""

    keys: list[PublicKey]


class Verdict(Answer):
    """The verdict on a move list, also for illegal moves (``valid`` false)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "deal": "2026-12-01-gaps-hard",
                    "valid": True,
                    "won": True,
                    "state": "won",
                    "score": 52,
                    "moves": 61,
                    "error": None,
                }
            ]
        }
    )

    deal: str | None = Field(None, description="A daily deal's id")
    game: GameName | None = Field(None, description="A numbered deal's game")
    variant: str | None = None
    seed: SeedText | None = None
    valid: bool
    won: bool
    state: GameState
    score: int
    moves: int = Field(description="Moves of the list that were played")
    error: MoveError | None
    solve: SolveLink | None = Field(
        None, description="A win of a seeded deal, kept and signed: its page and signature")


class State(Answer):
    """The position after a move list as a player sees it; an illegal move stops it."""

    model_config = ConfigDict(extra="allow")  # the game's own members (docs/rules.md)

    deal: str | None = Field(None, description="A daily deal's id")
    valid: bool
    error: MoveError | None
    game: GameName
    variant: str
    seed: SeedText | None
    state: GameState
    score: int
    moves: list[str]
    legal_moves: list[str]


class Health(Answer):
    """Liveness and readiness."""

    status: Literal["ok", "degraded"]
    version: str
    time: dt.datetime
    today: list[dt.date] = Field(description="The first and last date begun on Earth")
    missing: list[str] = Field(description="date-game-variant-tier of today's deals not stored")


class Hint(Answer):
    """The verdict of a position and the next move of a winning line."""

    deal: str | None = None
    game: GameName | None = None
    variant: str | None = None
    seed: SeedText | None = None
    moves_played: int
    verdict: Literal["winnable", "lost", "unknown"]
    move: str | None = Field(description="Next move of a winning line")
    moves_left: int | None
    shortest: bool = Field(description="No winning line is shorter")
    state: GameState
    max_nodes: int | None = None


class CheckedPosition(Answer):
    moves: int = Field(description="The position after this many moves of the line")
    verdict: Literal["winnable", "lost", "won", "unknown"]


class Review(Answer):
    """Where a line lost the deal: the last position still winnable and the move after it."""

    deal: str | None = None
    game: GameName | None = None
    variant: str | None = None
    seed: SeedText | None = None
    moves_played: int = Field(description="Moves in the line as sent")
    verdict: Literal["lost", "winnable", "won", "unwinnable", "unknown"]
    index: int | None = Field(description="Moves kept: the last position proved winnable")
    move: str | None = Field(description="The move that lost the game (number index + 1)")
    line: list[str] | None = Field(
        description="A winning line from the position after `index` moves; null while the "
        "deal's date is open (see opens_at)"
    )
    moves_left: int | None = Field(description="The length of that line")
    opens_at: dt.datetime | None = Field(description="When the hidden line is given")
    lost_from: int | None = Field(description="The first position proved lost")
    undecided: list[int] = Field(description="Positions whose search ran out of budget")
    moves_checked: list[CheckedPosition]
    searches: int
    max_searches: int
    max_nodes: int = Field(description="The node budget of each search")
    words: str


class Play(Answer):
    """A play begun: its token."""

    deal: str
    play: str = Field(description="The play token (single use)")
    issued: dt.datetime
    expires: dt.datetime = Field(description="When the deal's results close")
    min_seconds_per_move: float
    links: Links | None = None


class CountedResult(Answer):
    won: bool
    state: GameState
    moves: int
    score: int
    hints: int = Field(description="Counted by the server: hints asked with the play's "
                       "token, and those its network asked on its line without one")
    seconds: int | None = Field(description="Measured by the server from the play's start")
    reported_seconds: int | None = Field(description="The client's own figure")


class ResultAnswer(Answer):
    """A result counted (201), accepted and counted by the server when due (202), or the
    same post again (200)."""

    deal: str
    counted: bool = Field(description="Counted by this request (201)")
    pending: bool = Field(False, description="Accepted, not counted yet: the server counts "
                          "it at `counts_at`, nothing more to send")
    counts_at: dt.datetime | None = Field(None, description="When it counts (counted: when "
                                          "it did)")
    result: CountedResult
    stats: Stats | None = Field(None, description="The deal's statistics with this result "
                                "in them, counted or pending")
    links: Links | None = None


class MoveCount(Answer):
    moves: int
    count: int


class Stats(Answer):
    """Plays, wins and winning move counts of a daily deal."""

    deal: str
    plays: int
    wins: int
    win_rate: float | None
    wins_without_hints: int
    best: int | None
    winning_moves: list[MoveCount]
    pending: int = Field(0, description="Results accepted, counted later (not in the "
                         "numbers yet); a result's own answer counts it in")
    solution_length: int
    final: bool = Field(description="Results are closed")


class Commitment(Answer):
    id: str
    date: dt.date
    game: GameName
    variant: str
    tier: TierName
    commitment: str
    committed_at: dt.datetime
    in_advance: bool = Field(description="Made before the date began anywhere")
    links: Links | None = None


class Commitments(Answer):
    """SHA-256 commitments of stored deals (docs/fairness.md)."""

    model_config = ConfigDict(populate_by_name=True)

    from_: dt.date = Field(alias="from")
    to: dt.date
    scheme: str
    commitments: list[Commitment]


class OEmbed(Answer):
    """An oEmbed 1.0 answer (https://oembed.com, section 2.3.4)."""

    version: Literal["1.0"]
    type: Literal["rich", "link"]
    title: str | None = None
    provider_name: str
    provider_url: str
    cache_age: int | None = None
    html: str | None = Field(None, description="rich: an <iframe> of /embed/{id}")
    width: int | None = None
    height: int | None = None
    thumbnail_url: str | None = None
    thumbnail_width: int | None = None
    thumbnail_height: int | None = None


#: The request bodies (validation schemas) and answers of the document.
BODIES: tuple[type[BaseModel], ...] = (
    MovesBody, StateBody, NumberedStateBody, NumberedVerifyBody, ResultBody, HintBody,
    NumberedHintBody,
)
ANSWERS: tuple[type[BaseModel], ...] = (
    Problem, Index, GameList, GameRules, NumberedDeal, Deal, DealList, TodayRedirect, Solution,
    Verdict, State, Health, Hint, Review, Play, ResultAnswer, Stats, Commitments, OEmbed,
    SolveAnswer, Keys,
)
