"""The Accordion solver against a deliberately naive exhaustive search, and the verifier.

The naive search below knows nothing of the solver's tricks (open-row reduction, restarts,
dead set): it replays docs/rules.md literally, pile by pile, trying every deal and every move.
Small instances are the first 8..16 cards of seeded decks (dailydeal.shuffle).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dailydeal.games import new_game
from dailydeal.games.accordion import Accordion
from dailydeal.games.rules.accordion import MATCHES, pile_moves
from dailydeal.shuffle import shuffled_deck
from dailydeal.solvers import accordion, pyramid_plan, solve, solve_position
from dailydeal.solvers.accordion import DEAL, connected, search, viable, with_deals
from dailydeal.solvers.base import Budget, luby
from dailydeal.verify import replay, verify

Piles = tuple[tuple[int, ...], ...]


def same(a: int, b: int) -> bool:
    return a // 13 == b // 13 or a % 13 == b % 13


def naive_moves(piles: Piles, jumps: Sequence[int]) -> list[tuple[int, int]]:
    out = []
    for i in range(len(piles)):
        for k in jumps:
            if i - k >= 0 and same(piles[i][-1], piles[i - k][-1]):
                out.append((i, i - k))
    return out


def naive_apply(piles: Piles, i: int, j: int) -> Piles:
    new = list(piles)
    new[j] = piles[j] + piles[i]
    del new[i]
    return tuple(new)


def naive_winnable(
    cards: Sequence[int], jumps: Sequence[int] = (1, 3), forced: bool = False,
    piles: Piles = (), dealt: int = 0,
) -> bool:
    """Exhaustive search over whole piles: every move and every allowed deal, memoised."""
    deck = tuple(cards)

    @cache
    def win(piles: Piles, dealt: int) -> bool:
        if dealt == len(deck) and len(piles) == 1:
            return True
        moves = naive_moves(piles, jumps)
        if any(win(naive_apply(piles, i, j), dealt) for i, j in moves):
            return True
        if dealt < len(deck) and not (forced and moves):
            return win(piles + ((deck[dealt],),), dealt + 1)
        return False

    return win(piles, dealt)


def naive_replay(
    cards: Sequence[int], moves: Sequence[tuple[int, int]], jumps: Sequence[int], forced: bool
) -> bool:
    """Replay card-pair moves and explicit deals by the rules; True when the result is won."""
    piles: Piles = ()
    dealt = 0
    for move in moves:
        legal = naive_moves(piles, jumps)
        if move == DEAL:
            assert dealt < len(cards), "deal from an empty stock"
            assert not (forced and legal), "deal while a move exists (forced)"
            piles = piles + ((cards[dealt],),)
            dealt += 1
            continue
        tops = [p[-1] for p in piles]
        i, j = tops.index(move[0]), tops.index(move[1])
        assert (i, j) in legal, f"illegal move {move}"
        piles = naive_apply(piles, i, j)
    return dealt == len(cards) and len(piles) == 1


def graph_connected(cards: set[int]) -> bool:
    """Breadth-first search over the cards, linked when they share a suit or a rank."""
    if not cards:
        return True
    start = next(iter(cards))
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b in cards - seen:
            if same(a, b):
                seen.add(b)
                todo.append(b)
    return seen == cards


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=51), max_size=20))
def test_connected_equals_graph_search(cards: set[int]) -> None:
    mask = sum(1 << c for c in cards)
    assert connected(mask) == graph_connected(cards)
    for first in list(cards)[:3]:
        rest = cards - {first}
        expected = not rest or (graph_connected(rest) and any(same(first, c) for c in rest))
        assert viable(mask, first) == expected


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=51), max_size=52), st.data())
def test_fits_equals_viable(cards: set[int], data: st.DataObject) -> None:
    """The solver's fast test (native ints when compiled) is the plain ``viable``."""
    runner = accordion._Runner(Budget())
    mask = sum(1 << c for c in cards)
    firsts = data.draw(st.lists(st.sampled_from(sorted(cards)), max_size=3)) if cards else []
    for first in firsts * 2:
        assert runner.fits(mask, first) == viable(mask, first)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=51), max_size=52))
def test_popcount_counts_the_cards_of_a_mask(cards: set[int]) -> None:
    """The table bit count the move ordering uses (``int.bit_count`` is slow compiled)."""
    assert accordion.popcount(sum(1 << c for c in cards)) == len(cards)


def test_native_int_helpers_are_the_tables() -> None:
    """``_bit``, ``_neighbours`` and ``_live_matches`` (the compiled build's native-int
    hot path) against ``1 << card``, ``NEIGHBOURS`` and ``popcount``: mypyc compiles
    ``1 << card`` on an ``i64`` wrong from card 32 on, which this catches."""
    rng = random.Random(7)
    for card in range(52):
        assert accordion._bit(card) == 1 << card
        assert accordion._neighbours(card) == accordion.NEIGHBOURS[card]
        for _ in range(50):
            mask = rng.getrandbits(52) | 1 << card
            expected = accordion.popcount(accordion.NEIGHBOURS[card] & mask)
            assert accordion._live_matches(mask, card) == expected


def test_bit_tables_are_the_int_methods() -> None:
    """The bit-count and bit-length tables (built by whole-bytes operations, for a fast
    import) hold ``bit_count()`` and ``bit_length()`` of every 16-bit number, in both
    solvers that read them."""
    counts = bytes(i.bit_count() for i in range(1 << 16))
    assert accordion._POP16 == pyramid_plan._POP16 == counts
    assert pyramid_plan._LEN16 == bytes(i.bit_length() for i in range(1 << 16))


def test_the_import_time_tables_are_their_definitions() -> None:
    """``NEIGHBOURS`` and ``CONNECTED`` (built by bit operations, for a fast import) against
    their definitions: the cards ``MATCHES`` links to each card, and the suits reached
    from the first suit present through the linked pairs, as sets."""
    for a in range(52):
        expected = sum(1 << b for b in range(52) if b != a and MATCHES[a][b])
        assert accordion.NEIGHBOURS[a] == expected
    pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    for index in range(1024):
        present = [s for s in range(4) if index >> s & 1]
        links = [p for k, p in enumerate(pairs) if index >> (4 + k) & 1]
        reach = set(present[:1])
        for _ in range(4):
            for a, b in links:
                if a in reach or b in reach:
                    reach |= {a, b}
        assert accordion.CONNECTED[index] == (1 if set(present) <= reach else 0), index


def reference_order(
    row: bytes, mask: int, jumps: tuple[int, ...], rng: random.Random, jitter: float
) -> list[tuple[int, int]]:
    """The move ordering as first written: the rules' moves, a tuple each, sorted."""
    moves = pile_moves(row, jumps)
    if len(moves) < 2:
        return moves
    nb = accordion.NEIGHBOURS
    w = accordion.MOVER_WEIGHT
    keyed = [
        ((nb[row[j]] & mask).bit_count() + w * (nb[row[i]] & mask).bit_count()
         + jitter * rng.random(), i, j)
        for i, j in moves
    ]
    return [(i, j) for _, i, j in sorted(keyed)]


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(range(52)),
    st.integers(min_value=0, max_value=52),
    st.integers(min_value=0, max_value=2**52 - 1),
    st.sampled_from([(1, 3), (1,), (1, 2), (1, 2, 3, 5)]),
    st.sampled_from([0.0, 0.05, 0.3, 2.0]),
    st.integers(min_value=0, max_value=1000),
)
def test_ordered_is_the_sorted_moves(
    deck: list[int], n: int, extra: int, jumps: tuple[int, ...], jitter: float, seed: int
) -> None:
    """``_ordered`` puts the moves in the reference ordering's order and draws the same
    random numbers (the search's node counts depend on both)."""
    row = bytes(deck[:n])
    mask = accordion.card_mask(row) | extra  # the live cards: the row and some others
    mine, theirs = random.Random(seed), random.Random(seed)
    moves = pile_moves(row, jumps)
    got = [moves[t] for t in accordion._ordered(row, mask, moves, mine.random, jitter)]
    assert got == reference_order(row, mask, jumps, theirs, jitter)
    assert mine.random() == theirs.random()


def test_luby_sequence() -> None:
    assert [luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    assert luby(31) == 16 and luby(63) == 32 and luby(62) == 16


def small_deal(seed: int, k: int) -> list[int]:
    return shuffled_deck(seed)[:k]


def check_small(cards: list[int], jumps: tuple[int, ...], forced: bool) -> bool:
    """The search's verdict is the naive search's (its win replayed naively): that verdict."""
    out = search(cards, Budget(), jumps=jumps, forced=forced)
    expected = naive_winnable(cards, jumps, forced)
    assert out.status == ("won" if expected else "lost"), (cards, jumps, forced)
    if out.status == "won":
        moves = out.moves if forced else with_deals(out.moves, cards, 0)
        assert naive_replay(cards, moves, jumps, forced)
    return expected


@pytest.mark.parametrize("forced", [False, True])
@pytest.mark.parametrize("jumps", [(1, 3), (1,), (1, 2)])
def test_verdict_equals_naive_search_on_small_rows(
    jumps: tuple[int, ...], forced: bool
) -> None:
    verdicts = set()
    for seed in range(45):
        k = 8 + seed % 9  # rows of 8 to 16 cards
        cards = small_deal(seed, k)
        verdicts.add(check_small(cards, jumps, forced))  # (the naive search once, not twice)
    if jumps == (1, 3) and not forced:
        assert verdicts == {True, False}  # both answers were really exercised


@pytest.mark.parametrize("max_dead", [1_000_000, 50])
@pytest.mark.parametrize("forced", [False, True])
def test_verdicts_with_tiny_run_limits(
    forced: bool, max_dead: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of a few nodes: hundreds of restarts, each leaning on the dead set of the ones
    before (or on a dead set soon full). The verdicts (and lost proofs) must stay those
    of the naive search."""
    monkeypatch.setattr(accordion, "MAX_DEAD", max_dead)
    monkeypatch.setattr(accordion, "RESTART_UNIT", 1)
    monkeypatch.setattr(accordion, "FORCED_FIRST_LIMIT", 1)
    monkeypatch.setattr(accordion, "FORCED_GROWTH", 1.02)
    restarted = 0
    for seed in range(30):
        k = 10 + seed % 7 if max_dead > 1000 else 8 + seed % 4  # a full dead set is slow
        cards = small_deal(500 + seed, k)
        check_small(cards, (1, 3), forced)
        restarted += search(cards, Budget(), forced=forced).stats["restarts"] > 0
    assert restarted > 5


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    k=st.integers(min_value=2, max_value=14),
    forced=st.booleans(),
)
def test_property_verdict_and_solution(seed: int, k: int, forced: bool) -> None:
    check_small(small_deal(seed, k), (1, 3), forced)


def test_search_from_a_partly_played_row() -> None:
    """The small API accepts a row and a dealt count; verdict equals the naive one."""
    for seed in range(30):
        cards = small_deal(1000 + seed, 12)
        piles: Piles = tuple((c,) for c in cards[:5])
        moves = naive_moves(piles, (1, 3))
        if moves:
            piles = naive_apply(piles, *moves[0])
        row = [p[-1] for p in piles]
        for forced in (False, True):
            out = search(cards, Budget(), row=row, dealt=5, forced=forced)
            expected = naive_winnable(cards, (1, 3), forced, piles, 5)
            assert out.status == ("won" if expected else "lost")


@pytest.mark.parametrize(("variant", "deals"), [(None, 25), ("open", 10), ("forced", 40)])
def test_full_deals_solutions_verify(variant: str | None, deals: int) -> None:
    statuses = set()
    for seed in range(deals):
        result = solve("accordion", seed, variant, time_limit=30)
        assert result.status in ("won", "lost")  # ample budget: a real answer
        statuses.add(result.status)
        if result.status == "won":
            verdict = verify("accordion", seed, result.moves, variant)
            assert verdict.valid and verdict.won, (seed, verdict.error)
    if variant is None:
        assert statuses == {"won"}
    if variant == "forced":
        assert statuses == {"won", "lost"}  # forced wins are rare, but both occur


def test_forced_lost_verdicts_are_exhaustive() -> None:
    """Forced deals that the solver calls lost: confirmed by the generic exhaustive search."""
    from dailydeal.solvers.generic import solve_game as generic

    checked = 0
    for seed in range(40):
        if solve("accordion", seed, "forced").status != "lost":
            continue
        game = new_game("accordion", seed, "forced")
        assert generic(game, Budget(max_nodes=2_000_000)).status == "lost"
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("variant", [None, "open", "forced"])
def test_budget_is_honoured(variant: str | None) -> None:
    for seed in range(5):
        result = solve("accordion", seed, variant, max_nodes=10)
        assert result.status == "unknown" and result.moves == []
        assert result.nodes <= 10
        # The clock is read every Budget.CHECK_EVERY nodes: an easy deal may still be won
        # before the first reading, but never called lost.
        result = solve("accordion", seed, variant, time_limit=0.0)
        assert result.status in ("unknown", "won")
        if result.status == "won":
            assert verify("accordion", seed, result.moves, variant).won


@pytest.mark.parametrize("variant", [None, "forced"])
def test_solve_from_a_position_leaves_the_stack(variant: str | None) -> None:
    for seed in range(3):
        game = new_game("accordion", 40 + seed, variant)
        rng = random.Random(seed)  # picks moves to play, never a deal's cards
        for _ in range(15):
            game.push(rng.choice(game.legal_moves()))
        before = [str(m) for m in game.move_stack]
        key = game.key()
        result = solve_position(game, time_limit=30)
        assert [str(m) for m in game.move_stack] == before and game.key() == key
        assert result.status in ("won", "lost")
        if result.status == "won":
            verdict = verify("accordion", 40 + seed, before + result.moves, variant)
            assert verdict.valid and verdict.won


class SlideOnly(Accordion):
    """A variant the solver has never heard of: only moves one place left."""

    variant = "slide-only-test"
    ALLOWED_JUMPS = (1,)


def test_class_settings_are_read_not_hard_coded() -> None:
    deck = shuffled_deck(3)
    # A deal ending in a row where only a slide-only solver's answer is checked.
    game = SlideOnly(deck)
    for _ in range(44):  # deal, playing any slide found, so few cards are left to decide
        moves = game.legal_moves()
        game.push(moves[0])
    result = solve_position(game, time_limit=30)
    assert result.status in ("won", "lost")
    piles = tuple(tuple(p) for p in game.piles)
    expected = naive_winnable(game.cards, (1,), False, piles, game.dealt)
    assert result.status == ("won" if expected else "lost")
    if result.status == "won":
        copy = game.copy()
        verdict = replay(copy, result.moves)
        assert verdict.valid and verdict.won


@pytest.mark.parametrize("variant", [None, "forced"])
def test_end_positions_and_late_rows_match_naive_search(variant: str | None) -> None:
    """Late positions (stock empty, at most 14 piles) reached by random play (mostly lost)
    or by a prefix of a solution (won): the verdict equals the naive one, and a won end
    position is reported won with no moves."""
    seen = set()
    for seed in range(30):
        game = new_game("accordion", 300 + seed, variant)
        assert isinstance(game, Accordion)
        plan: list[str] = []
        if seed % 2 == 0:
            plan = solve("accordion", 300 + seed, variant).moves  # empty unless won
        rng = random.Random(seed)
        while game.dealt < 52 or len(game.piles) > 14:
            if plan:
                game.push(game.parse_move(plan.pop(0)))
            elif game.legal_moves():
                game.push(rng.choice(game.legal_moves()))
            else:
                break
        if len(game.piles) > 14:
            continue
        piles = tuple(tuple(p) for p in game.piles)
        expected = naive_winnable(game.cards, (1, 3), variant == "forced", piles, 52)
        result = solve_position(game)
        assert result.status == ("won" if expected else "lost")
        seen.add(result.status)
        if result.status == "won":
            for move in result.moves:
                game.push(game.parse_move(move))
            assert game.status() == "won"
            final = solve_position(game)
            assert final.status == "won" and final.moves == []
        elif not game.legal_moves():
            assert game.status() == "lost"
    assert seen == {"won", "lost"}
