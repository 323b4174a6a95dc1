"""Conformance vectors for dailydeal/web/static/rules.js, made by the Python engine.

    .venv/bin/python tests/js/make_vectors.py      # rewrites tests/js/vectors.json

The vectors are what the engine answers, never hand-written: random walks of every variant
(the position JSON, an attempted move in an odd spelling with its outcome, and what was
played next, at every step), the decks of seeds (docs/deals.md's included), Gaps redeal
boards, variant names, card spellings, explicit deals, verdicts and state answers.
tests/test_js_rules.py rebuilds them (stale vectors fail), runs tests/js/harness.mjs on
them, and runs the differential walk: the same walks, 10,000 positions per variant, played
by the two implementations with the same portable generator (XorShift32 below), compared
position by position.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dailydeal import cards as C  # noqa: E402
from dailydeal.errors import IllegalMoveError, InvalidMoveError  # noqa: E402
from dailydeal.games import GAMES, Game, get_game, new_game  # noqa: E402
from dailydeal.games.rules import gaps as gaps_rules  # noqa: E402
from dailydeal.shuffle import redeal_shuffle, shuffled_deck  # noqa: E402
from dailydeal.verify import replay  # noqa: E402
from dailydeal.web.api import state_json  # noqa: E402

VECTORS = Path(__file__).with_name("vectors.json")
M32 = 0xFFFFFFFF

# Every variant the registry lists, plus names it makes on demand or reads as aliases.
WALK_VARIANTS = [(g, v) for g in GAMES for v in GAMES[g]] + [
    ("pyramid", "passes=7"),
    ("gaps", "redeals=9"),
    ("gaps", "addiction"),
]
MAX_GAME_STEPS = 150  # a walk deals a new game after this many steps (relaxed Pyramid cycles)


class XorShift32:
    """Marsaglia's xorshift32: the walk's portable generator (harness.mjs has the twin)."""

    def __init__(self, seed: int) -> None:
        self.x = (seed & M32) or 0x9E3779B9

    def next(self) -> int:
        x = self.x
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        self.x = x
        return x

    def below(self, n: int) -> int:
        return self.next() % n

    def pick(self, items: list[str]) -> str:
        return items[self.below(len(items))]


# Texts no engine should take for a move, or only in an odd spelling.
JUNK = [
    "", " ", "\t\n", "x", "d d", "dd", "D", "R", "r", "d,", "[d]", ">", "+", "@", "@1",
    "10♦>4S", "4D > 4S", "4D>>4S", "4D>4S>3S", "KS+", "+KS", "5H+8C+2S", "Q♡+A♧", "k♤",
    "K♠", "KS♠", "ＫＳ", "K\u00a0S", "\u00a0KS\u3000", "\x85d\x1c", "KS\u200b", "ſS",
    "１０D", "10D", "100D", "1OD", "TD ", "2S@5", "2S@0", "2S@", "2S@1@2", "2s@1", "3S@1",
    "AS", "AS@1", "AS>2S", "AS+QS", "JOKER", "a'b", "'\"", "\\", "😀", "4D>4S\x00",
    "12345678901234567", "x" * 40, " " * 20 + "d", "2♠@4", "10♥", "kd", "qs+ah", "Kc",
]


def spell(card: str, rng: XorShift32) -> str:
    """One of the spellings docs/rules.md accepts for a card."""
    r, s = card[0], card[1]
    k = rng.below(8)
    if k == 3:
        return card.lower()
    if k == 4:
        return ("10" if r == "T" else r) + s
    if k == 5:
        return r + "♠♥♦♣"["SHDC".index(s)]
    if k == 6:
        return r.lower() + "♤♡♢♧"["SHDC".index(s)]
    if k == 7:
        return r.lower() + s
    return card


def respell(text: str, rng: XorShift32) -> str:
    out = re.sub(r"[A2-9TJQK][SHDC]", lambda m: spell(m.group(0), rng), text)
    if out in ("d", "r", "R") and rng.below(4) == 0:
        out = out.swapcase()
    if rng.below(8) == 0:
        out = " " + out + "\t"
    return out


def random_shape(game: str, rng: XorShift32) -> str:
    card = C.CARD_NAMES[rng.below(52)]
    if game == "accordion":
        return "d" if rng.below(6) == 0 else card + ">" + C.CARD_NAMES[rng.below(52)]
    if game == "pyramid":
        k = rng.below(8)
        if k < 2:
            return "dr"[k]
        if k == 2:
            return "K" + "SHDC"[rng.below(4)]
        if k == 3:
            return card
        v = C.value(C.parse(card))
        other = C.RANKS[12 - v] if v < 13 and rng.below(2) else C.RANKS[rng.below(13)]
        return card + "+" + other + "SHDC"[rng.below(4)]
    k = rng.below(8)
    if k == 0:
        return "R"
    if k < 3:
        return "2" + "SHDC"[rng.below(4)] + "@" + str(rng.below(5) + 1)
    if k == 3:
        return "2" + "SHDC"[rng.below(4)]
    return card


def attempt_text(game: str, legal: list[str], rng: XorShift32) -> str:
    k = rng.below(20)
    if k == 0:
        return rng.pick(JUNK)
    text = rng.pick(legal) if k <= 5 and legal else random_shape(game, rng)
    return respell(text, rng)


def outcome(game: Game[Any], text: str) -> list[str]:
    """What the engine says of a move now: legal (its canonical text), or why not."""
    try:
        move = game.parse_move(text)
    except InvalidMoveError as exc:
        return ["invalid", str(exc)]
    except IllegalMoveError as exc:
        return ["illegal", str(exc)]
    reason = game.illegal_reason(move)
    return ["legal", str(move)] if reason is None else ["illegal", reason]


def new_deal(game: str, variant: str, rng: XorShift32) -> tuple[Game[Any], list[Any]]:
    """A new deal for a walk: a 64-bit seed, a small seed, or explicit cards (no seed)."""
    hi, lo, kind = rng.next(), rng.next(), rng.below(4)
    if kind == 0:
        seed = hi << 32 | lo
        return new_game(game, seed, variant), ["seed", str(seed)]
    if kind == 1:
        cards = C.names(shuffled_deck(lo))
        return new_game(game, None, variant, cards), ["cards", " ".join(cards)]
    return new_game(game, lo % 1_000_000, variant), ["seed", str(lo % 1_000_000)]


def position(game: Game[Any]) -> dict[str, Any]:
    out = game.to_json()
    out["seed"] = None if game.seed is None else str(game.seed)  # JSON numbers lose 64 bits
    return out


def walk(game_name: str, variant: str, steps: int, prng_seed: int) -> Iterator[list[Any]]:
    """The records of a random walk: [position, attempt, its outcome, what was done]."""
    rng = XorShift32(prng_seed)
    game, deal = new_deal(game_name, variant, rng)
    yield [None, "", [], ["new", *deal]]
    since = 0
    for _ in range(steps):
        state = position(game)
        legal = state["legal_moves"]
        text = attempt_text(game_name, legal, rng)
        said = outcome(game, text)
        action = rng.below(64)
        done: list[Any]
        lazy = getattr(game, "dealt", 52) < 52 and getattr(game, "piles", None)
        if action < 4 and game.move_stack:
            done = ["pop", str(game.pop())]
        elif action < 8 and lazy:
            a = game.dealt  # type: ignore[attr-defined]
            src = C.name(game.cards[a + rng.below(min(3, 52 - a))])
            t = src + ">" + rng.pick(state["position"]["piles"])["top"]
            try:
                done = ["play", t, [str(m) for m in game.play(game.parse_move(t))]]
            except ValueError as exc:
                done = ["play", t, str(exc)]
        elif action == 8 and game_name == "accordion":
            done = ["finish", [str(m) for m in game.finish()]]
        elif not legal or since >= MAX_GAME_STEPS:
            game, deal = new_deal(game_name, variant, rng)
            since = -1
            done = ["new", *deal]
        else:
            move = rng.pick(legal)
            game.push(game.parse_move(move))
            done = ["push", move]
        since += 1
        yield [state, text, said, done]


def digest(record: list[Any]) -> str:
    """The fingerprint of a walk record (harness.mjs: the same JSON, the same SHA-1)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def walk_digests(game: str, variant: str, steps: int, prng_seed: int) -> list[str]:
    return [digest(r) for r in walk(game, variant, steps, prng_seed)]


# --- the vectors ------------------------------------------------------------------------
DOC_SEEDS = [0, 1, 42, 2**64 - 1, 3558559446808474027, 15351936018568675335,
             17407939646493015735, 9726570330581495227, 212, 16201630135398685864]
SNAKE = " ".join(  # every card shares a suit or a rank with the one before: Accordion wins
    r + s for i, r in enumerate(C.RANKS) for s in ("SHDC" if i % 2 == 0 else "CDHS")
)
NEAR_WON_GAPS = " ".join(  # rows 2..Q, ace, K of each suit: four moves win
    " ".join([*(r + s for r in C.RANKS[1:12]), "A" + s, "K" + s]) for s in "SHDC"
)
WON_GAPS = " ".join(" ".join([*(r + s for r in C.RANKS[1:]), "A" + s]) for s in "SHDC")
PYRAMID_32 = ("d d 3S+TH 2H+JC 4S+9H TD+3C 7S+6H d d d d 2S+JH d d d 4C+9C d d d d 7H+6D KC "
              "AS+QH JD+2C KD QS+AH 8H+5C JS+2D d d 6C+7C 3D+TC 9S+4H 5S+8S 6S+7D")


def _error(fn: Any) -> Any:
    try:
        return fn()
    except (ValueError, TypeError) as exc:
        return {"error": str(exc)}


def deck_seeds() -> list[int]:
    rng = XorShift32(9)
    return [*DOC_SEEDS, *(rng.next() << 32 | rng.next() for _ in range(12))]


def variant_vectors() -> list[list[Any]]:
    names: list[Any] = [None, "", "STANDARD", "Forced", "OPEN", "relaxed", "passes=1",
                        "passes=07", "PASSES=99", "passes=0", "passes=100", "passes=",
                        "passes=x", "passes=1.5", "passes=٣", "redeals=2", "redeals=02",
                        "Addiction", "redeals=0", "redeals=9", "redeals=10", "redeals=-1",
                        "clear-all", "montana", "spaces", "forced ", 3, True, "ſtandard"]
    out = []
    for game in [*GAMES, "Pyramid", "chess", 7, None]:
        for v in names:
            got = _error(lambda g=game, v=v: [get_game(g, v).variant, get_game(g, v).description])
            out.append([game, v, got])
    return out


def card_vectors() -> list[list[Any]]:
    texts: list[Any] = [*(t for t in JUNK if len(t) < 12), "TD", "td", "10d", "10♦", "10♢",
                        " qs ", "\u3000qs\u2029", "1♠", "A", "S", "AAS", "T", "10", "0D",
                        "aS", "Aſ", "A\u212a", 5, None, ["AS"],
                        # repr() of what is not a card: Python's quotes and escapes
                        "\u00ad", "😀x", "\u2028", "\ue000", "\U000e0001", "é'", "\"'", "\x7f",
                        "\u0378", "\u3000A\u3000", "\\S", "ß"]
    return [[t, _error(lambda t=t: C.name(C.parse(t)))] for t in texts]


def deck_vectors() -> list[list[Any]]:
    full = C.names(shuffled_deck(7))
    cases: list[Any] = [
        " ".join(full), ",".join(full), full, list(range(52)), list(reversed(range(52))),
        full[:51], [*full[:51], full[0]], [*full, "AS"], " ".join(full[:50]) + " XX YY",
        [*full[:51], 5], [*range(51), 52], [*range(51), True], [], "", 42, None, {"a": 1},
    ]
    out = []
    for cards in cases:
        got = _error(lambda c=cards: C.names(new_game("accordion", None, None, c).cards))
        out.append([cards, got])
    return out


def redeal_vectors() -> list[list[Any]]:
    """Gaps boards before and after each redeal: blocked positions of the doc's seeds."""
    out = []
    for seed in [212, 16201630135398685864, 2**64 - 1, 5, None]:
        cards = None if seed is not None else C.names(shuffled_deck(3))
        game = new_game("gaps", seed, "redeals=9", cards)
        rng = XorShift32(seed or 1)
        while game.redeals_used < 4 and not game.is_over():
            legal = [str(m) for m in game.legal_moves()]
            if legal == ["R"]:
                before = [None if c == gaps_rules.EMPTY else C.name(c) for c in game.cells]
                game.push(game.parse_move("R"))
                after = [None if c == gaps_rules.EMPTY else C.name(c) for c in game.cells]
                out.append([None if seed is None else str(seed), C.names(game.cards),
                            game.redeals_used, before, after])
            else:
                game.push(game.parse_move(rng.pick(legal)))
    nonaces = [c for c in range(52) if c % 13]
    out.append(["shuffle", str(16201630135398685864), 1, C.names(nonaces),
                C.names(redeal_shuffle(nonaces, 16201630135398685864, 1))])
    return out


def replay_vectors() -> list[dict[str, Any]]:
    rng = XorShift32(2026)
    cases: list[tuple[str, str | None, Any, Any, Any, bool]] = [
        ("pyramid", None, 32, None, PYRAMID_32, True),
        ("pyramid", "passes=3", 32, None, PYRAMID_32.split(), True),
        ("pyramid", "passes=1", 32, None, PYRAMID_32, True),
        ("accordion", None, None, SNAKE, " ".join(
            f"{b}>{a}" for a, b in zip(SNAKE.split(), SNAKE.split()[1:], strict=False)), True),
        ("accordion", "forced", None, SNAKE, "AH>AS d d", True),
        ("accordion", "open", None, SNAKE, "AH>AS, AD>AH", True),
        ("gaps", None, None, NEAR_WON_GAPS, "KS KH KD KC", True),
        ("gaps", None, None, WON_GAPS, "", True),
        ("gaps", None, None, WON_GAPS, "R", False),
        ("gaps", None, 212, None, "2S@2 R R", True),
        ("gaps", "redeals=0", 212, None, "2S@2 R", True),
        ("gaps", None, 212, None, "2S", True),
        ("gaps", None, 42, None, "2s 2H", True),
        ("accordion", None, 42, None, '["d", "d", "3D>7S"]', True),
        ("accordion", None, 42, None, ' [ "d" , 7 ] ', True),
        ("accordion", None, 42, None, "[1.5]", True),
        ("accordion", None, 42, None, "[null, true]", True),
        ("accordion", None, 42, None, '[{"a": 1}]', True),
        ("accordion", None, 42, None, '[["d"]]', True),
        ("accordion", None, 42, None, "[NaN, -Infinity]", True),
        ("accordion", None, 42, None, '["d",]', True),
        ("accordion", None, 42, None, '["d" "d"]', True),
        ("accordion", None, 42, None, '["d"] x', True),
        ("accordion", None, 42, None, '["d', True),
        ("accordion", None, 42, None, '["d\\x"]', True),
        ("accordion", None, 42, None, '["\\u00"]', True),
        ("accordion", None, 42, None, '["a\tb"]', True),
        ("accordion", None, 42, None, '[{"a" 1}]', True),
        ("accordion", None, 42, None, "[{1: 2}]", True),
        ("accordion", None, 42, None, '[{"a": 1,}]', True),
        ("accordion", None, 42, None, "[-]", True),
        ("accordion", None, 42, None, "[01]", True),
        ("accordion", None, 42, None, "[1e5, 2E-3, -0]", True),
        ("accordion", None, 42, None, "[nul]", True),
        ("accordion", None, 42, None, '["\\ud83d\\ude00", "d"]', True),
        ("accordion", None, 42, None, "[" * 5 + "]" * 5, True),
        ("accordion", None, 42, None, "d " * 5001, True),
        ("accordion", None, 42, None, ["d", 3], True),
        ("accordion", None, 42, None, ["d", None], True),
        ("accordion", None, 42, None, 17, True),
        ("accordion", None, 42, None, "d\u00a0d\u3000d,d\x1cd", True),
        ("accordion", None, 42, None, "", True),
    ]
    for game in GAMES:  # random move lists; Accordion's also with its deals left out
        for variant in GAMES[game]:
            for n in range(3):
                g = new_game(game, n + 100, variant)
                moves = []
                for _ in range(rng.below(120)):
                    legal = [str(m) for m in g.legal_moves()]
                    if not legal:
                        break
                    moves.append(rng.pick(legal))
                    g.push(g.parse_move(moves[-1]))
                if n == 2:
                    moves.insert(rng.below(len(moves) + 1), rng.pick(JUNK[3:]))
                cases.append((game, variant, n + 100, None, moves, True))
                cases.append((game, variant, n + 100, None, moves, False))
                if game == "accordion":
                    lazy = [m for m in moves if m != "d"]
                    cases.append((game, variant, n + 100, None, " ".join(lazy), True))
    out = []
    for game, variant, seed, cards, moves, finish in cases:
        position = new_game(game, seed, variant, cards)
        got = _error(lambda p=position, m=moves, f=finish: replay(p, m, finish=f).to_json())
        state = None if isinstance(got, dict) and "error" in got and len(got) == 1 else (
            {"moves": [str(m) for m in position.move_stack], "json": _json(position)})
        out.append({"game": game, "variant": variant, "seed": seed, "cards": cards,
                    "moves": moves, "finish": finish, "verdict": got, "after": state})
    return out


def _json(game: Game[Any]) -> dict[str, Any]:
    out = game.to_json()
    if game.seed is not None and game.seed >= 2**53:
        out["seed"] = str(game.seed)  # rules.js: a safe integer as a number, else its text
    return out


def deal_vectors() -> list[dict[str, Any]]:
    """Games rebuilt from the API's deal JSON (rules.js cardsFromDeal), then played."""
    cases = [("accordion", 42, ["d"] * 5 + ["2C>AC", "d"]), ("pyramid", 32, PYRAMID_32.split()),
             ("gaps", 212, ["2S@2", "R", "3S"]), ("gaps", 2**64 - 1, [])]
    out = []
    for game, seed, moves in cases:
        position = new_game(game, seed)
        deal = position.deal_json()
        for m in moves:
            position.push(position.parse_move(m))
        out.append({"game": game, "seed": str(seed), "deal": deal, "moves": moves,
                    "json": _json(position)})
    return out


# --- probes: the rules a short walk seldom reaches, each at the end of a real line --------
# Every line is a real deal played by the Python engine, found by searching it (`find_line`
# below, or the solver's solution of the deal); its `reaches` check asserts the case is
# still reached, so a rule change that moves it fails here instead of leaving a vector that
# tests nothing. The harness checks each
# position of the line (by digest), every legal move and the extra attempts at its end (the
# outcome, the position after the move, and the position again after taking it back), and
# the verdict of the line.
ACCORDION_1_WIN = (  # the Accordion solver's win of seed 1
    "d d d d d d d d d d d d d d d d d d d d d d d d d d d TH>TD 4D>JD 5D>4D d d d d d d d d d "
    "d d d d d d d d d d d d d 3D>2D 7D>5D 8H>8D QH>QD JH>4H 2H>5H 8H>JH KH>2H 9H>QH TC>TH "
    "KH>6H 3H>9H 3C>3H TS>4S d d 9D>3D 3S>JS 7S>QS KS>2S KD>KS KD>7D KD>KH TS>AS 4C>JC 5S>7S "
    "6S>5S 3C>QC 9D>6D 8S>TS 4C>TC d 7C>2C 8C>4C AC>6C AC>AH 6S>3S KC>AC 9D>AD KC>KD KC>5C "
    "9C>KC 8C>8H 8S>6S 8S>9S 8C>8S 3C>8C 9C>3C 7C>7H 9C>7C 9D>9C")
ACCORDION_1_LOST = (  # random legal moves of seed 1 until no move is left: 4 piles
    "d d d d d 8H>8D 8H>7H d d d d 6H>4H d d d 5H>JH d 5H>5C 9C>9S d 5H>6H d d d 5D>JD 7D>5D "
    "d d 4D>7D d d AH>2H d 2S>3S d KD>KS d d d d JC>TC d JC>6C d d TD>4D d d 7S>QS TH>TD "
    "TH>KH d d d d d KC>AC 6D>AD 6D>6S d d QD>QC QD>6D d d 9H>QH d 3H>9H d 3C>KC d d d d "
    "4S>5S 4S>4C 4S>7S d TS>AS 3H>3C 2D>QD TS>4S 2D>KD 2D>2S 8C>JC 3H>AH 8S>TS 8S>8C d d "
    "3D>2D 3H>3D 8S>JS d 3H>5H 8S>8H TH>3H d 9D>9C 7C>2C")
# docs/rules.md's Accordion example: the row 4S 7H QC 4D KD (the rest of the deck after it)
RULE_BOOK_ROW = "4S 7H QC 4D KD".split()
RULE_BOOK_DECK = " ".join(RULE_BOOK_ROW + [c for c in C.CARD_NAMES if c not in RULE_BOOK_ROW])
# find_line("pyramid", None, 29, lambda g: not g.stock and not g.waste): every card cleared
PYRAMID_29_TALON_GONE = (
    "QD+AC KD d 5C+8C d d 9D+4C d d d KS d d KC d d 2H+JC TD+3C d d d TH+3D d 6H+7H d d d d "
    "d d KH d 3S+TS d 6S+7C d JS+2D d JD+2C r d 9S+4H d d 7S+6C 3H+TC d d d QS+AH d AD+QC d "
    "5H+8D d d d d 4D+9C r d d 4S+9H 2S+JH d 5S+8S d AS+QH d d 6D+7D 8H+5D")
# find_line("pyramid", "passes=1", 9, _king_on_waste): KD on the waste, AS under it pairs QD
PYRAMID_9_KING_ON_WASTE = (
    "QH+AC KC TD+3C d 4S+9D d d 2H+JH d d d d d d d d d d d d d d d KS d KH d d d d 2C+JC d "
    "5S+8D 3H+TC")
# find_line("pyramid", "passes=2", 20, _king_on_waste): KS on the waste, 7D under it pairs 6S
PYRAMID_20_KING_ON_WASTE = (
    "4H+9H 8S+5H d d d 6H+7H d d d AH+QC d d d TH+3D d d 4D+9D d 5D+8D d d AS+QH d 3S+TC "
    "JH+2C d KC d d TS+3C d d d d d d r d d d d d 5C+8C d d d d d d d d d")
# find_line("pyramid", None, 0, lambda g: g.status() == "lost"): relaxed, and lost
PYRAMID_0_LOST = (
    "5H+8D TH+3D d AH+QD d d d 2S+JH 9D+4C 8H+5D 6S+7S QS+AD KD d TS+3C d d JS+2D d d d KH d "
    "d 6C+7C d d d 2C+JC")
# find_line("pyramid", None, 0, _king_only): an accessible KD is the only progress left
PYRAMID_0_KING_ONLY = (
    "5H+8D TH+3D d AH+QD d d d 2S+JH 9D+4C 8H+5D 6S+7S QS+AD d TS+3C")
GAPS_1_WIN = (  # the Gaps solver's win of seed 1: two redeals, the second with row 2 complete
    "4C KS 7C 8S 3D JS TC JD 3H TD TH 2C@3 QS 9C 7H 6S 3S 2S@1 5D 4H TS 4D 8D JS 5D 9D KS TC "
    "JC QD KC 8H QS 6D 7S QC 8S KC 9S 3S TD TS 4S 5C KS 7D 5H 8D 6H QH 2D@4 6C JD 9H 3D 7C QD "
    "R 4D 3C 7H 5S JD QD 8H 4C 6C 7D 6D 8C JH QH KS 9H TH 8S JC 7D 9C KD 5C 6C KC 6S JH 7C 7S "
    "QH 8C TC QS KH 9D 8D QC 9D KC TD JD KS JS 9C R 5D TC 8S 9D 9S 7D TS JC 6D KS QC KC KD 7D "
    "8D QD 9D KD TD JD QS QD KS KD").split()
GAPS_2_LOST = (  # redeals=0: random legal moves of seed 2 until blocked
    "JH TC 5D QS 4S 6H QC TH 7H 2C@2 4C 2D@4 5C 5H JD 6H QD 7D 2C@1 2C@2 2D@1 6C 2S@3 2D@4 "
    "2C@1 2D@2 2C@4 2C@1 4H 2S@4 2C@3 2H@1 7C 7S 9S 3S 8S JC JH")


def find_line(game_name: str, variant: str | None, seed: int, goal: Any,
              limit: int = 20_000) -> list[str] | None:
    """A line of the deal that reaches ``goal(game)``: depth-first, pairs and kings before
    draws before recycles, each position once, at most ``limit`` positions."""
    game = new_game(game_name, seed, variant)
    seen: set[Any] = set()

    def search(budget: list[int]) -> bool:
        if goal(game):
            return True
        if budget[0] <= 0 or game.key() in seen:
            return False
        budget[0] -= 1
        seen.add(game.key())
        for move in sorted(game.legal_moves(), key=lambda m: "dr".find(str(m))):
            game.push(move)
            if search(budget):
                return True
            game.pop()
        return False

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * limit))
    return [str(m) for m in game.move_stack] if search([limit]) else None


def _pyramid_values(g: Any) -> set[int]:
    from dailydeal.games.rules import pyramid as P  # noqa: PLC0415
    return {P.value(g.cards[i]) for i in P.free_places(g.mask)}


def _king_on_waste(g: Any) -> bool:
    """No recycle left, stock empty, a king on the waste and under it the only card that
    pairs an accessible one: in progress (lost if the card under the king were ignored)."""
    values = _pyramid_values(g)
    return (not g.stock and not g.may_recycle() and len(g.waste) > 1
            and g.waste[-1] % 13 == 12 and 13 - (g.waste[-2] % 13 + 1) in values
            and not any(13 - v in values for v in values) and 13 not in values
            and g.status() == "in progress")


def _king_only(g: Any) -> bool:
    """In progress only thanks to an accessible pyramid king: no pair is in reach."""
    values = _pyramid_values(g)
    return (13 in values and not any(13 - v in values for v in values if v != 13)
            and not any(13 - (c % 13 + 1) in values for c in g.reachable())
            and g.status() == "in progress")


def _row_end_before_gap(g: Any) -> list[str]:
    """Cards whose predecessor ends a row (column 13) above a gap in column 1."""
    cells = g.cells
    return [C.name(cells[r * 13 + 12] + 1) for r in range(3)
            if cells[r * 13 + 13] == gaps_rules.EMPTY and cells[r * 13 + 12] % 13 < 12]


PROBES: list[tuple[str, str, str | None, int | None, str | None, list[str], list[str], Any]] = [
    # name, game, variant, seed, cards, line, attempts at its end, what the end must be
    ("accordion won (seed 1)", "accordion", None, 1, None, ACCORDION_1_WIN.split(),
     ["d", "D", "KC>KC", "9D>9D"], lambda g: g.status() == "won"),
    ("accordion lost (seed 1)", "accordion", None, 1, None, ACCORDION_1_LOST.split(),
     ["d", "7C>7C", "9D>3H"], lambda g: g.status() == "lost"),
    ("rule book: the row 4S 7H QC 4D KD", "accordion", None, None, RULE_BOOK_DECK,
     "d d d d d".split(), ["KD>4S", "KD>7H", "KD>QC", "4D>7H", "7H>4S", "4S>4D", "d"],
     lambda g: [p["top"] for p in g.position_json()["piles"]] == RULE_BOOK_ROW),
    ("rule book: 4D>4S then KD>4D", "accordion", None, None, RULE_BOOK_DECK,
     [*"d d d d d".split(), "4D>4S", "KD>4D"], ["7H>KD", "QC>7H", "d"],
     lambda g: [p["top"] for p in g.position_json()["piles"]] == ["KD", "7H", "QC"]),
    ("rule book: KD>4D first buries the four", "accordion", None, None, RULE_BOOK_DECK,
     [*"d d d d d".split(), "KD>4D"], ["4D>4S", "KD>4S", "KD>7H", "KD>KD", "4S>KD"],
     lambda g: [p["top"] for p in g.position_json()["piles"]] == ["4S", "7H", "QC", "KD"]),
    ("rule book: forced, a move before dealing", "accordion", "forced", None, RULE_BOOK_DECK,
     "d d d d".split(), ["d", "4D>4S", "KD>4D", "5S>4S"], lambda g: not g.can_deal()),
    ("pyramid won (seed 32)", "pyramid", None, 32, None, PYRAMID_32.split(),
     ["d", "r", "KS", "AS+QS"], lambda g: g.status() == "won"),
    ("pyramid stock and waste emptied (seed 29)", "pyramid", None, 29, None,
     PYRAMID_29_TALON_GONE.split(), ["r", "R", "d", "D", "KH", "8H+5D"],
     lambda g: not g.stock and not g.waste),
    ("pyramid lost, relaxed (seed 0)", "pyramid", None, 0, None, PYRAMID_0_LOST.split(),
     ["r", "d", "2C+JC", "KH", "5S+8S"], lambda g: g.status() == "lost"),
    ("pyramid: a king the only progress (seed 0)", "pyramid", None, 0, None,
     PYRAMID_0_KING_ONLY.split(), ["KD", "r", "8S+5S"], _king_only),
    ("pyramid king on the waste, passes=1 (seed 9)", "pyramid", "passes=1", 9, None,
     PYRAMID_9_KING_ON_WASTE.split(), ["r", "d", "AS+QD", "QD+AS", "KC"], _king_on_waste),
    ("pyramid king on the waste, passes=2 (seed 20)", "pyramid", "passes=2", 20, None,
     PYRAMID_20_KING_ON_WASTE.split(), ["r", "d", "7D+6S", "KC"], _king_on_waste),
    ("pyramid passes run out, passes=3 (seed 7)", "pyramid", "passes=3", 7, None,
     ["d"] * 24 + ["r"] + ["d"] * 24 + ["r"] + ["d"] * 24, ["r", "d"],
     lambda g: not g.stock and not g.may_recycle()),
    ("rule book: 8C goes right of 7C (seed 1)", "gaps", None, 1, None, GAPS_1_WIN[:69],
     ["8C", "8c", "9C", "8C@1", "7C"], lambda g: "8C" in (str(m) for m in g.legal_moves())),
    ("gaps: only a 2 goes to column 1 (seed 1)", "gaps", None, 1, None, GAPS_1_WIN[:11],
     ["QC", "QC@3", "2S@3", "2S", "R"], lambda g: _row_end_before_gap(g) == ["QC"]),
    ("gaps: redeal with a complete 2..K row (seed 1)", "gaps", None, 1, None, GAPS_1_WIN[:102],
     ["2S@1", "KH", "r"], lambda g: g.kept_lengths()[1] == 12 and not g.place_moves()),
    ("gaps won, a redeal left (seed 1)", "gaps", "redeals=3", 1, None, GAPS_1_WIN,
     ["R", "r", "KS", "2S@1"], lambda g: g.status() == "won" and g.redeals_left() > 0),
    ("gaps lost, redeals=0 (seed 2)", "gaps", "redeals=0", 2, None, GAPS_2_LOST.split(),
     ["R", "JH"], lambda g: g.status() == "lost"),
]


def _snapshot(game: Game[Any]) -> dict[str, Any]:
    """A position as the harness compares it (its move list is the line, sent once)."""
    out = position(game)
    del out["moves"]
    return out


def probe_vectors() -> list[dict[str, Any]]:
    out = []
    for name, game_name, variant, seed, cards, line, extra, reaches in PROBES:
        game = new_game(game_name, seed, variant, cards)
        steps = [digest([_snapshot(game)])]
        for text in line:
            game.push(game.parse_move(text))
            steps.append(digest([_snapshot(game)]))
        assert reaches(game), f"probe {name!r}: its line no longer reaches its case"
        attempts = []
        for text in dict.fromkeys([*(str(m) for m in game.legal_moves()), *extra]):
            said = outcome(game, text)
            after = None
            if said[0] == "legal":
                game.push(game.parse_move(text))
                after = _snapshot(game)
                game.pop()
            attempts.append([text, said, after])
        verdict = replay(new_game(game_name, seed, variant, cards), line).to_json()
        out.append({"name": name, "game": game_name, "variant": variant,
                    "seed": None if seed is None else str(seed), "cards": cards, "line": line,
                    "steps": steps, "end": _snapshot(game), "attempts": attempts,
                    "verdict": verdict})
    return out


def state_vectors() -> list[dict[str, Any]]:
    cases: list[tuple[str, str | None, Any, Any, Any]] = [
        ("gaps", None, 212, None, ["2S@2", "R"]),
        ("gaps", "redeals=1", 2**64 - 1, None, []),
        ("gaps", "addiction", 16201630135398685864, None, ["x"]),
        ("pyramid", "passes=2", 32, None, PYRAMID_32.split()[:9]),
        ("pyramid", None, 2**63 + 5, None, ["d", "d", "r"]),
        ("accordion", None, 42, None, ["3D>7S"]),
        ("accordion", "open", None, SNAKE, ["AH>AS", "AD>AH", "KS>KH"]),
        ("gaps", None, None, NEAR_WON_GAPS, ["KS", "KH", "KD", "KC"]),
    ]
    return [{"game": g, "variant": v, "seed": None if s is None else str(s), "cards": c,
             "moves": m, "state": state_json(new_game(g, s, v, c), m)} for g, v, s, c, m in cases]


def vectors() -> dict[str, Any]:
    walks = []
    for n, (game, variant) in enumerate(WALK_VARIANTS):
        records = list(walk(game, variant, 45, 7 + n))
        walks.append({"game": game, "variant": variant, "records": records})
    return {
        "about": "made by tests/js/make_vectors.py from the Python engine; do not edit",
        "decks": [[str(s), " ".join(C.names(shuffled_deck(s)))] for s in deck_seeds()],
        "registry": {game: list(GAMES[game]) for game in GAMES},
        "variants": variant_vectors(),
        "cards": card_vectors(),
        "deals": deck_vectors(),
        "redeals": redeal_vectors(),
        "replays": replay_vectors(),
        "states": state_vectors(),
        "from_deals": deal_vectors(),
        "probes": probe_vectors(),
        "walks": walks,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    VECTORS.write_text(dumps(vectors()), encoding="utf-8")
    print(f"{VECTORS.relative_to(ROOT)}: {VECTORS.stat().st_size:,} bytes")
