"""Pyramid's precedence closure and pass count (dailydeal/solvers/pyramid_closure.py, and
pyramid_closure.c, its C build). The Python source is the reference; the C build must give
the same answers, function by function, on the positions of real searches and on random
masks, talons and windows."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from helpers import python_source

from dailydeal import native
from dailydeal.cards import Card
from dailydeal.games.rules.pyramid import COVERS, SIZE
from dailydeal.solvers import new_game
from dailydeal.solvers import pyramid as pyramid_solver
from dailydeal.solvers import pyramid_closure as built
from dailydeal.solvers.base import Budget
from dailydeal.solvers.pyramid_bounds import Bounds
from dailydeal.solvers.pyramid_plan import ROOM_FOLD, room_of, unpack

PY = python_source("pyramid_closure")


def need_c() -> None:
    if not built.NATIVE:
        pytest.skip(f"pyramid_closure is not compiled here: {native.BUILD}")


def cases(count: int) -> list[tuple[bytes, int, int, int, int]]:
    """(values, mask, vals, inside, ivals): the deals of seeds 0..9 with random masks that
    keep every card under another one's place (real pyramids), random talon values (the
    fewer, the more cards with no talon partner, where the closure has work) and random windows."""
    rng = random.Random(41)
    out = []
    for seed in range(10):
        game: Any = new_game("pyramid", seed)
        values = Bounds(list(game.cards[:SIZE]), [], None).values
        for _ in range(count):
            mask = 0
            for i in reversed(range(SIZE)):  # a card stays only if its covers can
                if rng.random() < 0.75 and all(mask >> c & 1 or rng.random() < 0.3
                                               for c in COVERS[i]):
                    mask |= 1 << i
            share = rng.choice((0.3, 0.7, 0.95))
            vals = sum(1 << w for w in range(1, 14) if rng.random() < share)
            inside = mask & rng.getrandbits(SIZE)
            ivals = vals & rng.getrandbits(14)
            out.append((values, mask, vals, inside, ivals))
    return out


CASES = cases(300)


def test_the_reference_blockers_are_the_covers_closed() -> None:
    blockers = PY.blockers()
    assert blockers[SIZE - 1] == 0 and blockers[0] == (1 << SIZE) - 2
    for i in range(SIZE):
        for c in COVERS[i]:
            assert blockers[i] >> c & 1 and blockers[i] & blockers[c] == blockers[c]


def test_the_cases_reach_both_answers() -> None:
    """The random cases hold lost positions and open ones, chains empty and not."""
    got = [PY.forced_chain(values, mask, vals) for values, mask, vals, _, _ in CASES]
    assert None in got
    assert any(g is not None and g[0] for g in got) and any(g is not None and not g[0]
                                                           for g in got)
    usable = {PY.usable_values(values, mask, vals) for values, mask, vals, _, _ in CASES}
    assert len(usable) > 100
    takes = {PY.window_takes(*case) for case in CASES}
    assert -1 in takes and 0 in takes and len(takes) > 5


def test_the_c_build_answers_as_the_reference() -> None:
    need_c()
    assert built.blockers() == PY.blockers()
    for case in CASES:
        values, mask, vals, inside, ivals = case
        assert built.precedence(*case) == PY.precedence(*case), case
        assert built.window_takes(*case) == PY.window_takes(*case), case
        assert built.forced_chain(values, mask, vals) == PY.forced_chain(values, mask, vals), case
        assert built.usable_values(values, mask, vals) == PY.usable_values(values, mask, vals)
        pre = PY.precedence(values, mask, vals, 0, 0)
        if pre is not None:
            for c in range(SIZE):
                cand = mask & ~(1 << c)
                assert built.has_partner(pre, cand, c) == PY.has_partner(pre, cand, c)


def test_the_c_build_refuses_what_is_not_a_pyramid() -> None:
    need_c()
    values = bytes(range(1, 14)) * 3
    with pytest.raises(TypeError):
        built.precedence(list(values), 1, 0, 0, 0)
    with pytest.raises(ValueError):
        built.precedence(bytes(SIZE), 1, 0, 0, 0)
    with pytest.raises(OverflowError):
        built.window_takes(values, 1 << SIZE, 0, 0, 0)
    with pytest.raises(OverflowError):
        built.forced_chain(values, -1, 0)
    with pytest.raises(TypeError):
        built.forced_chain(values, 1)
    with pytest.raises(OverflowError):
        built.usable_values(values, 1, -1)


# (values, tvalues, mask, tal, p): a position as ``passes_needed`` reads it
Position = tuple[bytes, bytes, int, int, int]


def random_mask(rng: random.Random) -> int:
    """A real pyramid: a card stays only if its covers can."""
    mask = 0
    for i in reversed(range(SIZE)):
        if rng.random() < 0.75 and all(mask >> c & 1 or rng.random() < 0.3 for c in COVERS[i]):
            mask |= 1 << i
    return mask


def unfold(room: int) -> int:
    """The pyramid and talon bits of a room's key (``room_of``'s folds undone)."""
    for k in (34, 17, ROOM_FOLD):
        x = room
        shifted = room >> k
        while shifted:
            x ^= shifted
            shifted >>= k
        room = x
    return room


def searched_positions(seed: int, nodes: int) -> list[Position]:
    """The positions A* reached in the first ``nodes`` nodes of seed ``seed``'s search
    (its rooms, each with the waste sizes it was reached with), as the bounds see them."""
    search = pyramid_solver._Search(new_game("pyramid", seed), Budget(max_nodes=nodes))
    try:
        search.astar()
    except pyramid_solver._OutOfBudget:
        pass
    bounds = search.bounds
    out = set()
    for room, group in search.rooms.items():
        bits = unfold(room)
        assert room_of(bits) == room
        for k in range(0, len(group), 3):
            mask, tal, _, _ = unpack(bits)
            out.add((bounds.values, bounds.tvalues, mask, tal, group[k] & 63))
    return sorted(out)


def random_positions(count: int) -> list[Position]:
    """Deals of seeds 0..9 (their pyramid and talon), random pyramids, random talon
    cards gone (from none to nearly all) and a random waste size: the cards that have no
    talon partner left, and the gaps of the waste, are where the pass count works."""
    rng = random.Random(28)
    out = []
    for seed in range(10):
        game: Any = new_game("pyramid", seed)
        cards: list[Card] = list(game.cards)
        bounds = Bounds(cards[:SIZE], cards[SIZE:], None)
        n = len(bounds.tvalues)
        for _ in range(count):
            share = rng.choice((0.2, 0.5, 0.8, 1.0))
            tal = sum(1 << j for j in range(n) if rng.random() < share)
            out.append((bounds.values, bounds.tvalues, random_mask(rng), tal, rng.randint(0, n)))
    return out


def edge_positions() -> list[Position]:
    """The extremes: the whole pyramid and talon, an empty talon, a lone card, no waste
    and all waste, a talon of one value, a pyramid of kings."""
    game: Any = new_game("pyramid", 3)
    cards: list[Card] = list(game.cards)
    bounds = Bounds(cards[:SIZE], cards[SIZE:], None)
    values, tvalues, full = bounds.values, bounds.tvalues, bounds.full
    n = len(tvalues)
    out: list[Position] = []
    for mask in ((1 << SIZE) - 1, 1 << 27, 1 << 0, 0b111, 0):
        for tal in (full, 0, 1, full >> 1, 1 << (n - 1)):
            for p in (0, 1, n // 2, n):
                out.append((values, tvalues, mask, tal, p))
    for tv in (bytes([4] * n), bytes([13] * n), bytes([9] * 4 + [13] * (n - 4))):
        for p in (0, n):
            out.append((values, tv, (1 << SIZE) - 1, (1 << n) - 1, p))
    out.append((bytes([13] * SIZE), tvalues, (1 << SIZE) - 1, full, 0))
    out.append((bytes([4] * SIZE), bytes([9] * n), (1 << SIZE) - 1, full, 0))
    return out


# (seeds whose pool search does not decide them, so that A* runs; seed 11's whole search
# holds positions where a chain card's time is the next draw's itself, ``end``)
@functools.cache
def corpus() -> tuple[list[Position], list[Position], list[Position]]:
    """The positions searched, random and at the edges: made once, when a test first needs
    them (made at import, they cost every xdist worker half a second to collect the file)."""
    searched = [
        pos for seed, nodes in ((1, 3000), (5, 1000), (10, 1000), (11, 20000))
        for pos in searched_positions(seed, nodes)
    ]
    return searched, random_positions(200), edge_positions()


MOSTS = (PY.BIG, 0, 1, 2)


def by_deal(positions: list[Position]) -> dict[tuple[bytes, bytes], list[Position]]:
    out: dict[tuple[bytes, bytes], list[Position]] = {}
    for pos in positions:
        out.setdefault(pos[:2], []).append(pos)
    return out


def test_the_positions_reach_every_branch_of_the_pass_count(monkeypatch: Any) -> None:
    """The positions compared below hold lost ones, ones needing no recycle, one and more,
    with and without a last position to reach, and ones where the gaps of the waste are
    tested (``usable_values``) and windows counted (``window_blocked``), both answers."""
    searched, randoms, edges = corpus()
    calls = {"usable": 0, "blocked": 0, "open": 0}
    usable, blocked = PY.usable_values, PY.PassCounter.window_blocked

    def count_usable(*args: Any) -> int:
        calls["usable"] += 1
        return usable(*args)

    def count_blocked(*args: Any) -> bool:
        got = blocked(*args)
        calls["blocked" if got else "open"] += 1
        return got

    monkeypatch.setattr(PY, "usable_values", count_usable)
    monkeypatch.setattr(PY.PassCounter, "window_blocked", count_blocked)
    assert len(searched) > 8000 and len(randoms) == 2000
    needs = [PY.PassCounter(v, tv).passes_needed(mask, tal, p, PY.BIG)
             for v, tv, mask, tal, p in searched + randoms + edges]
    assert {s for s, _ in needs} >= {PY.BIG, 0, 1, 2, 3}
    assert any(c >= 0 for _, c in needs) and any(c < 0 and s < PY.BIG for s, c in needs)
    assert calls["usable"] > 1000 and calls["blocked"] > 100 and calls["open"] > 1000, calls


def test_the_reference_tables_change_no_answer() -> None:
    """A counter kept for a whole deal (its tables filled by the positions before) answers
    as a new one."""
    searched, randoms, _ = corpus()
    chains = windows = 0
    for (values, tvalues), positions in by_deal(searched[::2] + randoms[::4]).items():
        kept = PY.PassCounter(values, tvalues)
        for _, _, mask, tal, p in positions:
            new = PY.PassCounter(values, tvalues).passes_needed(mask, tal, p, PY.BIG)
            assert kept.passes_needed(mask, tal, p, PY.BIG) == new
        chains += len(kept.chains)
        windows += len(kept.windows)
    # the searches' positions share chains (the tables answered some calls)
    assert chains < len(searched[::2]) * 2 // 3 + len(randoms[::4]) and windows > 100


def test_the_c_build_counts_the_passes_as_the_reference() -> None:
    """A counter a deal, as the search keeps one (its tables in use), and ``most`` cutting
    the walk short on a fifth of the positions; the answers the reference's."""
    searched, randoms, edges = corpus()
    need_c()
    assert built.BIG == PY.BIG and built.behind() == PY.behind()
    k = 0
    for (values, tvalues), positions in by_deal(searched + randoms + edges).items():
        c, py = built.PassCounter(values, tvalues), PY.PassCounter(values, tvalues)
        for _, _, mask, tal, p in positions:
            assert c.key(mask, tal) == py.key(mask, tal)
            for most in MOSTS if k % 5 == 0 else MOSTS[:1]:
                got = c.passes_needed(mask, tal, p, most)
                assert got == py.passes_needed(mask, tal, p, most), (values, tvalues, mask, tal, p)
            k += 1
        c.clear()  # and again with empty tables
        for _, _, mask, tal, p in positions[::7]:
            assert c.passes_needed(mask, tal, p, PY.BIG) == py.passes_needed(mask, tal, p, PY.BIG)


def test_the_c_build_reads_the_waste_as_the_reference() -> None:
    """``reachable_waste`` (the waste below the cursor, the stock's values as the pool),
    ``staying`` (up to the cursor, and up to the talon's end), ``usable_values`` and
    ``usable_positions``, with
    a counter a deal (its tables in use): the reference's answers, and both kinds of
    answer reached (a waste cut short and whole, cards that stay and none)."""
    searched, randoms, edges = corpus()
    need_c()
    cut = whole = stay = some = 0
    for (values, tvalues), positions in by_deal(searched + randoms + edges).items():
        c, py = built.PassCounter(values, tvalues), PY.PassCounter(values, tvalues)
        for _, _, mask, tal, p in positions:
            low = tal & ((1 << p) - 1)
            stock = sum(1 << w for w in range(1, 14) if (tal >> p << p) & py.vb[w])
            free = py.reachable_waste(mask, low, stock)
            assert c.reachable_waste(mask, low, stock) == free, (values, tvalues, mask, tal, p)
            cut += free != low
            whole += free == low and low != 0
            for last in (p - 1, tal.bit_length() - 1):
                staying = py.staying(mask, tal, last)
                assert c.staying(mask, tal, last) == staying, (values, tvalues, mask, tal, last)
                stay += staying > 0
            assert c.usable_values(mask, stock) == py.usable_values(mask, stock)
            positions_ok = py.usable_positions(mask, stock)
            assert c.usable_positions(mask, stock) == positions_ok, (values, tvalues, mask)
            some += 0 < positions_ok
    assert some > 100, some
    assert cut > 100 and whole > 100 and stay > 100, (cut, whole, stay)


def test_the_c_build_blocks_the_windows_as_the_reference() -> None:
    """``window_blocked`` on the random positions' chains: each chain card's cards that
    must leave first as the window, random talon cards left as what they may take."""
    _, randoms, _ = corpus()
    need_c()
    rng = random.Random(5)
    answers = []
    for (values, tvalues), positions in by_deal(randoms).items():
        c, py = built.PassCounter(values, tvalues), PY.PassCounter(values, tvalues)
        for _, _, mask, tal, _ in positions:
            vals = sum(1 << w for w in range(1, 14) if tal & py.vb[w])
            got = PY.forced_chain(values, mask, vals)
            if got is None:
                continue
            for _, _, _, _, inside in got[0]:
                args = (mask, vals, inside, tal & rng.getrandbits(len(tvalues)))
                answer = py.window_blocked(*args)
                assert c.window_blocked(*args) == answer, (values, tvalues, args)
                answers.append(answer)
    assert len(answers) > 500 and True in answers and False in answers


def test_the_c_build_refuses_what_is_not_a_position() -> None:
    """The counter's arguments are checked: one line saying what is wrong."""
    _, randoms, _ = corpus()
    need_c()
    values, tvalues, mask, tal, p = randoms[0]
    n = len(tvalues)
    c = built.PassCounter(values, tvalues)
    with pytest.raises(TypeError, match="tvalues"):
        built.PassCounter(values, list(tvalues))
    with pytest.raises(TypeError, match="tvalues"):
        built.PassCounter(values, bytes([5] * 25))
    with pytest.raises(ValueError, match="tvalues"):
        built.PassCounter(values, bytes([0]) + tvalues[1:])
    with pytest.raises(ValueError, match="values"):
        built.PassCounter(bytes([14]) + values[1:], tvalues)
    with pytest.raises(TypeError, match="values"):
        built.PassCounter(values + b"\x01", tvalues)
    with pytest.raises(TypeError):
        built.PassCounter(values)
    with pytest.raises(OverflowError, match="28 bits"):
        c.passes_needed(1 << SIZE, tal, p, 1)
    with pytest.raises(OverflowError, match=f"{n} bits"):
        c.passes_needed(mask, 1 << n, p, 1)
    with pytest.raises(OverflowError):
        c.passes_needed(mask, -1, p, 1)
    with pytest.raises(ValueError, match="p: a talon position"):
        c.passes_needed(mask, tal, n + 1, 1)
    with pytest.raises(ValueError, match="p: a talon position"):
        c.passes_needed(mask, tal, -1, 1)
    with pytest.raises(TypeError, match="expected"):
        c.passes_needed(mask, tal, p)
    with pytest.raises(TypeError):
        c.passes_needed(mask, tal, p, "1")
    with pytest.raises(OverflowError, match=f"{n} bits"):
        c.window_blocked(mask, 0, 0, 1 << n)
    with pytest.raises(OverflowError, match=f"{n} bits"):
        c.reachable_waste(mask, 1 << n, 0)
    with pytest.raises(ValueError, match="last"):
        c.staying(mask, tal, -2)
    with pytest.raises(TypeError, match="expected"):
        c.staying(mask, tal)
    with pytest.raises(OverflowError):
        c.usable_values(mask, -1)
    with pytest.raises(OverflowError):
        c.usable_positions(mask, -1)
    with pytest.raises(TypeError, match="expected"):
        c.usable_positions(mask)
    assert c.passes_needed(mask, tal, p, 1) == PY.PassCounter(values, tvalues).passes_needed(
        mask, tal, p, 1)
