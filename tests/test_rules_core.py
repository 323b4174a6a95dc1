"""One statement of each rule: the engines, the player models and the solvers agree with the
rules core (``dailydeal/games/rules``) because they call it.

On random positions of every game and variant in the registry, the legal moves of the
engine, of the core, of the player models and of the solvers' move generators are the
same; what a move does and what a redeal deals are the core's; and the end of a game (won,
lost), the redeal of a blocked Gaps position and the Pyramid talon are the same for the
engine, the core, the solvers and the player models. A module that wrote its own copy of a
rule and got it wrong fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dailydeal.games import GAMES, IN_PROGRESS, LOST, WON, Game, get_game
from dailydeal.games.accordion import Accordion, PileMove
from dailydeal.games.gaps import Gaps
from dailydeal.games.pyramid import Pair, Pyramid
from dailydeal.games.rules import EMPTY
from dailydeal.games.rules import accordion as acc_rules
from dailydeal.games.rules import gaps as gaps_rules
from dailydeal.games.rules import pyramid as pyr_rules
from dailydeal.rating import players
from dailydeal.rating.features import play, playout_rng
from dailydeal.solvers import accordion as acc_solver
from dailydeal.solvers import gaps as gaps_solver
from dailydeal.solvers import solve_position
from dailydeal.solvers.base import Budget
from dailydeal.solvers.pyramid import _Search

VARIANTS = [(game, variant) for game, table in GAMES.items() for variant in table]


def random_positions(
    game: str, variant: str, count: int = 25, *, salt: str = "", moves: int | None = None
) -> list[Game[Any]]:
    """Positions reached by random legal moves from seeded deals (the engine's moves): up to
    a random number under 120, or until none is left (at most ``moves``)."""
    rng = random.Random(f"{salt}{game}/{variant}")
    out = []
    for _ in range(count):
        position = get_game(game, variant).from_seed(rng.randrange(2**64))
        for _ in range(rng.randrange(120) if moves is None else moves):
            moves_now = position.legal_moves()
            if not moves_now:
                break
            position.push(rng.choice(moves_now))
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


# End of game and redeals: the engine's status, the core's is_won/is_lost, what the solvers
# answer at once and where the player models stop, on random positions of every variant
# (positions part way and positions played to their end). A solver or a player model that
# wrote its own end-of-game or redeal condition, and got it wrong, disagrees here.


def played_out(game: str, variant: str, count: int = 12) -> list[Game[Any]]:
    """Positions played by random legal moves until none is left (or 3000 moves)."""
    return random_positions(game, variant, count, salt="end/", moves=3000)


def core_status(position: Game[Any]) -> str:
    """won / lost / in progress as the rules core says it (not the engine)."""
    if isinstance(position, Accordion):
        has_moves = bool(acc_rules.pile_moves(position.tops(), position.ALLOWED_JUMPS))
        won = acc_rules.is_won(position.dealt, len(position.piles))
        lost = acc_rules.is_lost(position.dealt, len(position.piles), has_moves)
    elif isinstance(position, Pyramid):
        won = pyr_rules.is_won(position.mask)
        lost = pyr_rules.is_lost(position.cards, position.mask, position.stock, position.waste,
                                 position.may_recycle())
    else:
        assert isinstance(position, Gaps)
        won = gaps_rules.is_won(position.cells)
        lost = gaps_rules.is_lost(position.cells, position.redeals_left())
    assert not (won and lost)
    return WON if won else LOST if lost else IN_PROGRESS


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_end_of_game_agrees_with_the_core(game: str, variant: str) -> None:
    ends = played_out(game, variant)
    near_end = []  # a few moves before the end: the solvers' own end tests decide these
    for n, position in enumerate(ends):
        near = position.copy()
        for _ in range(min(len(near.move_stack), 1 + n % 8)):
            near.pop()
        near_end.append(near)
    positions = random_positions(game, variant, 15) + ends + near_end
    ended = 0
    for position in positions:
        status = position.status()
        assert status == core_status(position)
        assert (status == IN_PROGRESS) == bool(position.legal_moves()) or game == "pyramid"
        result = solve_position(position, max_nodes=2_000)
        if status == WON:
            assert (result.status, result.moves) == ("won", [])
        elif status == LOST:
            assert result.status == "lost"
        if status != IN_PROGRESS:
            ended += 1
        if result.status == "won":  # the solver's own won test: the line wins
            replay = position.copy()
            for text in result.moves:
                replay.play(replay.parse_move(text))
            replay.finish()
            assert replay.status() == WON
    assert ended >= 5  # the walks do reach the end of games


def core_wins(cards: list[int], jumps: tuple[int, ...], forced: bool) -> bool:
    """Whether an Accordion of ``cards`` can be won, by a naive search over the core."""
    total = len(cards)
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def win(dealt: int, row: list[int]) -> bool:
        if acc_rules.is_won(dealt, len(row), total):
            return True
        if (dealt, tuple(row)) in seen:
            return False
        seen.add((dealt, tuple(row)))
        moves = acc_rules.pile_moves(row, jumps)
        if any(win(dealt, acc_rules.move_pile(row, i, j)) for i, j in moves):
            return True
        return acc_rules.can_deal(dealt, bool(moves), forced, total) and win(
            dealt + 1, [*row, cards[dealt]])

    return win(0, [])


@pytest.mark.parametrize("variant", list(GAMES["accordion"]))
def test_accordion_solver_wins_as_the_core_on_small_decks(variant: str) -> None:
    """On short decks the whole game is searched: the solver's won/lost (its own end tests
    in both searches, forced or not) is the core's."""
    cls = get_game("accordion", variant)
    rng = random.Random(variant)
    wins = 0
    for _ in range(150):
        cards = rng.sample(range(52), rng.randrange(1, 10))
        expected = core_wins(cards, cls.ALLOWED_JUMPS, cls.FORCED)
        dealt = len(cards) if cls.OPEN else 0
        got = acc_solver.search(cards, Budget(), dealt=dealt, jumps=cls.ALLOWED_JUMPS,
                                forced=cls.FORCED)
        assert got.status == ("won" if expected else "lost"), cards
        wins += expected
    assert 10 < wins < 140


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_player_models_end_as_the_core(game: str, variant: str) -> None:
    """A recorded playout replays through the engine to the player's own result, and the
    player stops only where the rules leave it nothing more (or, Pyramid, a whole pass
    without a removal; Gaps, only moves of 2s that change nothing, or its move cap)."""
    for seed in range(6):
        position = get_game(game, variant).from_seed(seed)
        for model in players.MODELS:
            playout = play(position, model, playout_rng(position, model, seed), record=True)
            replay = position.copy()
            for text in playout.moves:
                replay.push(replay.parse_move(text))
            assert playout.won == (replay.status() == WON) == (core_status(replay) == WON)
            assert playout.score == replay.score()
            legal = [str(m) for m in replay.legal_moves()]
            if isinstance(replay, Accordion):
                assert replay.is_over()
            elif isinstance(replay, Pyramid):
                assert playout.passes == replay.recycles + 1
            elif isinstance(replay, Gaps) and sum(m != "R" for m in playout.moves) < 600:
                assert "R" not in legal
                assert all(gaps_rules.is_two(m.card) and m.card in gaps_rules.TWOS
                           and replay.pos[m.card] % gaps_rules.COLS == 0
                           for m in replay.place_moves())


@pytest.mark.parametrize("variant", list(GAMES["gaps"]))
def test_gaps_redeal_when_blocked_agrees_with_the_core(variant: str) -> None:
    """Blocked positions: the core's when_blocked, the engine's R, and the solver, which
    redeals from a blocked position (its line starts with R) or, with none left, proves it
    lost; the solver's redeal signature is the core's kept_signature."""
    blocked = 0
    for position in random_positions("gaps", variant, 40) + played_out("gaps", variant):
        assert isinstance(position, Gaps)
        cells = position.cells
        assert gaps_solver._kept(bytearray(cells)) == gaps_rules.kept_signature(cells)
        assert [n for _, n in gaps_rules.kept_signature(cells)] == position.kept_lengths()
        if gaps_rules.place_moves(cells):
            continue
        blocked += 1
        end = gaps_rules.when_blocked(cells, position.redeals_left())
        legal = [str(m) for m in position.legal_moves()]
        assert (legal == ["R"]) == (end == gaps_rules.BLOCKED_REDEAL)
        assert (position.status() == WON) == (end == gaps_rules.BLOCKED_WON)
        result = solve_position(position, max_nodes=3_000)
        if end == gaps_rules.BLOCKED_LOST:
            assert result.status == "lost"
        elif end == gaps_rules.BLOCKED_REDEAL and result.status == "won":
            assert result.moves[0] == "R"
    assert blocked >= 5


def test_pyramid_draw_and_recycle_are_the_cores() -> None:
    """The engine's talon after d and r (and their undo) is the core's draw and recycle."""
    for position in random_positions("pyramid", "relaxed", 20):
        assert isinstance(position, Pyramid)
        for move in position.legal_moves():
            if str(move) not in ("d", "r"):
                continue
            stock, waste = list(position.stock), list(position.waste)
            (pyr_rules.draw if str(move) == "d" else pyr_rules.recycle)(stock, waste)
            position.push(move)
            assert (position.stock, position.waste) == (stock, waste)
            (pyr_rules.undraw if str(move) == "d" else pyr_rules.unrecycle)(stock, waste)
            position.pop()
            assert (position.stock, position.waste) == (stock, waste)


def test_move_reprs_show_cards() -> None:
    from dailydeal.games.accordion import DEAL
    from dailydeal.games.gaps import REDEAL, Place
    from dailydeal.games.pyramid import DRAW, RECYCLE, King

    assert repr(Place(card=1, row=1)) == "Place(2S@1)" and repr(Place(22)) == "Place(TH)"
    assert repr(PileMove(3, 0)) == "PileMove(4S>AS)" and repr(DEAL) == "Deal(d)"
    assert repr(Pair(11, 0)) == "Pair(AS+QS)" and repr(King(25)) == "King(KH)"
    assert (repr(DRAW), repr(RECYCLE), repr(REDEAL)) == ("Draw(d)", "Recycle(r)", "Redeal(R)")
