"""One statement of each rule: the engines, the player models and the solvers agree with the
rules core (``dailydeal/games/rules``) because they call it.

On random positions of every game and variant in the registry, the legal moves of the
engine, of the core, of the player models and of the solvers' move generators are the
same; what a move does and what a redeal deals are the core's. A module that wrote its own
copy of a rule and got it wrong fails here; one that writes rule arithmetic at all
(outside the core) fails ``test_no_rule_arithmetic_outside_the_core``.
"""

from __future__ import annotations

import random
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from dailydeal.games import GAMES, Game, get_game
from dailydeal.games.accordion import Accordion, PileMove
from dailydeal.games.gaps import Gaps
from dailydeal.games.pyramid import Pair, Pyramid
from dailydeal.games.rules import EMPTY
from dailydeal.games.rules import accordion as acc_rules
from dailydeal.games.rules import gaps as gaps_rules
from dailydeal.games.rules import pyramid as pyr_rules
from dailydeal.rating import players
from dailydeal.solvers import accordion as acc_solver
from dailydeal.solvers import gaps as gaps_solver
from dailydeal.solvers.base import Budget
from dailydeal.solvers.pyramid import _Search

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = [(game, variant) for game, table in GAMES.items() for variant in table]


def random_positions(game: str, variant: str, count: int = 25) -> list[Game[Any]]:
    """Positions reached by random legal moves from seeded deals (the engine's moves)."""
    rng = random.Random(f"{game}/{variant}")
    out = []
    for _ in range(count):
        position = get_game(game, variant).from_seed(rng.randrange(2**64))
        for _ in range(rng.randrange(120)):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        out.append(position)
    return out


def accordion_check(game: Accordion) -> None:
    tops = game.tops()
    core = acc_rules.pile_moves(tops, game.ALLOWED_JUMPS)
    engine = [(m.src, m.dst) for m in game.pile_moves()]
    assert engine == [(tops[i], tops[j]) for i, j in acc_rules.by_source(core)]
    assert players.accordion_moves(tops, game.ALLOWED_JUMPS) == acc_rules.by_source(core)
    # The solver searches with the core's own generator and match table.
    assert acc_solver.pile_moves is acc_rules.pile_moves and acc_solver.MATCHES is acc_rules.MATCHES
    deal = acc_rules.can_deal(game.dealt, bool(core), game.FORCED)
    assert ("d" in [str(m) for m in game.legal_moves()]) == deal
    for i, j in core:  # what a move does: the engine's row is the core's
        game.push(PileMove(tops[i], tops[j]))
        assert game.tops() == acc_rules.move_pile(tops, i, j)
        game.pop()


def pyramid_check(game: Pyramid) -> None:
    cards = game.cards
    places = pyr_rules.free_places(game.mask)
    assert game.accessible() == [cards[i] for i in places]
    assert places == tuple(i for i in range(pyr_rules.SIZE) if game.is_accessible_place(i))
    top = game.waste_top()
    core_pairs = pyr_rules.pairs(cards, places, top)
    engine_pairs = [m for m in game.legal_moves() if isinstance(m, Pair)]
    assert engine_pairs == [Pair(cards[a], top if b < 0 else cards[b]) for a, b in core_pairs]
    # The solver's moves of a mask are the core's pairs among places and its kings.
    search = _Search(game, Budget())
    info = search.bounds.info(game.mask)
    assert info.pairs == pyr_rules.pairs(cards, places)
    kings = [i for i in places if pyr_rules.is_king(cards[i])]
    assert info.king == (kings[0] if kings else -1)


def gaps_check(game: Gaps) -> None:
    cells = game.cells
    core = gaps_rules.place_moves(cells)
    engine = [(m.card, gaps_rules.target(game.pos, m.card, m.row)) for m in game.place_moves()]
    assert engine == core
    assert players.gaps_moves(list(cells)) == core
    board = bytearray(cells)
    pos = [-1] * 53
    for i, c in enumerate(board):
        if c != EMPTY:
            pos[c] = i
    gaps = [i for i, c in enumerate(board) if c == EMPTY]
    moves: list[int] = []
    gaps_solver._moves(list(board), pos, gaps, [0] * 53, moves)
    solver = [(m & gaps_solver.CARD_MASK, gaps_solver._target(m, pos)) for m in moves]
    assert sorted(solver) == sorted(core)
    assert game.score() == gaps_rules.score(cells) == sum(game.kept_lengths())
    if [str(m) for m in game.legal_moves()] == ["R"]:
        k = game.redeals_used + 1
        expected = gaps_rules.redeal(cells, game.seed, k)
        game.push(game.legal_moves()[0])
        assert game.cells == expected
        game.pop()


CHECKS = {"accordion": accordion_check, "pyramid": pyramid_check, "gaps": gaps_check}


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_engine_players_and_solvers_agree_with_the_core(game: str, variant: str) -> None:
    for position in random_positions(game, variant):
        CHECKS[game](position)  # type: ignore[operator]


def test_gaps_players_redeal_as_the_engine() -> None:
    """A recorded player game replays through the engine to the player's own score."""
    for seed in range(6):
        game = get_game("gaps").from_seed(seed)
        playout = players.play_gaps(game.cards, seed, random.Random(seed), record=True)
        for text in playout.moves:
            game.push(game.parse_move(text))
        assert game.score() == playout.score


# Rule arithmetic: card values summing to 13, suits compared by division, the king as the
# 13th rank, the redeal shuffle. Outside the core these say a rule is being written again.
RULE_ARITHMETIC = [
    (re.compile(r"\b13\s*-\s*\w|[\w\]]\s*\+\s*[\w\[\]()]+\s*==\s*13\b"), "the pair sum"),
    (re.compile(r"//\s*13\s*==|==\s*\w+\s*//\s*13\b"), "the suit match"),
    (re.compile(r"%\s*13\s*[!=]=\s*12\b"), "the king"),
    (re.compile(r"\bredeal_shuffle\("), "the redeal"),
    (re.compile(r"\bCOVER_MASK\["), "accessibility"),
]
CORE = ("dailydeal/games/rules/", "dailydeal/shuffle.py", "dailydeal/cards.py")


def code_lines(path: Path) -> dict[int, str]:
    """The code of each line of a module, without its strings and comments."""
    lines: dict[int, list[str]] = {}
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type not in (tokenize.STRING, tokenize.COMMENT, tokenize.ENCODING):
                lines.setdefault(tok.start[0], []).append(tok.string)
    return {n: " ".join(parts) for n, parts in lines.items()}


def test_no_rule_arithmetic_outside_the_core() -> None:
    found = []
    for path in sorted((ROOT / "dailydeal").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(CORE):
            continue
        for n, code in code_lines(path).items():
            for pattern, rule in RULE_ARITHMETIC:
                if pattern.search(code):
                    found.append(f"{rel}:{n}: {rule}: {code}")
    assert not found, "rules written outside dailydeal/games/rules:\n" + "\n".join(found)


def test_move_reprs_show_cards() -> None:
    from dailydeal.games.accordion import DEAL
    from dailydeal.games.gaps import REDEAL, Place
    from dailydeal.games.pyramid import DRAW, RECYCLE, King

    assert repr(Place(card=1, row=1)) == "Place(2S@1)" and repr(Place(22)) == "Place(TH)"
    assert repr(PileMove(3, 0)) == "PileMove(4S>AS)" and repr(DEAL) == "Deal(d)"
    assert repr(Pair(11, 0)) == "Pair(AS+QS)" and repr(King(25)) == "King(KH)"
    assert (repr(DRAW), repr(RECYCLE), repr(REDEAL)) == ("Draw(d)", "Recycle(r)", "Redeal(R)")
