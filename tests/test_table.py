"""The Gaps solver's table of positions (dailydeal/solvers/table.py, and table.c, its C
build): a dict with aging. The Python source is the reference; the C build must answer
the same, operation for operation, and drop the same proofs when aged."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from helpers import python_source

from dailydeal import native
from dailydeal.solvers import table as built

PY = python_source("table")
BUILDS = [pytest.param(PY, id="python")]
if built.NATIVE:
    BUILDS.append(pytest.param(built, id="c"))


def need_c() -> None:
    if not built.NATIVE:
        pytest.skip(f"the table is not compiled here: {native.BUILD}")


class Rand:
    """SplitMix64: the same sequence of operations in every run."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & (2**64 - 1)
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & (2**64 - 1)
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def a_key(rand: Rand, pool: int) -> int:
    """One of ``pool`` keys spread over 0..2**288 - 1 (gaps keys are below 2**283), the
    edges included."""
    i = rand.below(pool)
    if i == 0:
        return 0
    if i == 1:
        return 2**288 - 1
    return (i * 0x9E3779B97F4A7C15_2545F4914F6CDD1D_D1B54A32D192ED03) % 2**288


def operations(
    seed: int, count: int, pool: int, aging: bool, among: list[int] | None = None,
    ages: int = 10, bursts: int = 0,
) -> list[tuple[Any, ...]]:
    """``count`` operations on keys of a pool of ``pool`` (``a_key``), or among ``among``:
    with ``aging``, ``ages`` in 1,000 are ``age``; ``bursts`` in 1,000 prove 1,000 keys at
    once (stamps enough to move the epoch on several times in a short run)."""
    rand = Rand(seed)
    ops: list[tuple[Any, ...]] = []
    for _ in range(count):
        op = rand.below(1000)
        key = a_key(rand, pool) if among is None else among[rand.below(len(among))]
        if op < 300:
            ops.append(("setdefault", key, rand.below(1000)))
        elif op < 550:
            ops.append(("set", key, -1 if rand.below(3) else rand.below(1000)))
        elif op < 700:
            ops.append(("get", key))
        elif op < 820:
            ops.append(("in", key))
        elif op < 900:
            ops.append(("del", key))
        elif op < 960:
            ops.append(("pop", key))
        elif aging and op < 960 + ages:
            ops.append(("age", rand.below(pool // 2 + 1)))
        elif op < 980 - bursts:
            keys = [a_key(rand, pool) for _ in range(rand.below(6))]
            ops.append(("prove", keys, rand.below(len(keys) + 2)))
        elif op < 980:
            ops.append(("prove", [a_key(rand, pool) for _ in range(1000)], 0))
        else:
            ops.append(("len",))
    return ops


def apply(table: Any, op: tuple[Any, ...]) -> object:
    """What ``op`` answers on ``table`` (an exception as its type)."""
    name = op[0]
    try:
        if name == "setdefault":
            return table.setdefault(op[1], op[2])
        if name == "set":
            table[op[1]] = op[2]
            return None
        if name == "get":
            return table[op[1]]
        if name == "in":
            return op[1] in table
        if name == "del":
            del table[op[1]]
            return None
        if name == "pop":
            return table.pop(op[1])
        if name == "age":
            return table.age(op[1])
        if name == "prove":
            keys = list(op[1])
            table.prove_lost(keys, op[2])
            return keys
        return len(table)
    except (KeyError, ValueError, TypeError, OverflowError) as exc:
        return type(exc)


@pytest.mark.parametrize("build", BUILDS)
def test_the_table_answers_as_a_dict(build: ModuleType) -> None:
    """Without aging, a table is a dict whose proofs read as DEAD."""
    table = build.PositionTable()
    model: dict[int, int] = {}
    for op in operations(1, 60_000, 5_000, aging=False):
        name = op[0]
        if name == "setdefault":
            want: object = model.setdefault(op[1], op[2])
        elif name == "set":
            model[op[1]] = op[2]
            want = None
        elif name in ("get", "pop", "del"):
            if op[1] not in model:
                want = KeyError
            else:
                want = model.pop(op[1]) if name != "get" else model[op[1]]
                want = None if name == "del" else want
        elif name == "in":
            want = op[1] in model
        elif name == "prove":
            model.update(dict.fromkeys(op[1][op[2]:], -1))
            want = op[1][: op[2]]
        else:
            want = len(model)
        assert apply(table, op) == want, op
    assert len(table) == len(model)
    assert sorted(table.items()) == sorted(model.items())


@pytest.mark.parametrize("build", BUILDS)
def test_aging_drops_the_proofs_least_recently_used(build: ModuleType) -> None:
    """age(keep) drops the proofs of the oldest epochs, whole, until ``keep`` positions are
    left; a proof met again (read) is stamped anew, open positions stay."""
    epoch = build.EPOCH
    table = build.PositionTable()
    table[10**80] = 7  # open: never dropped
    for key in range(3 * epoch):  # epochs 0, 1, 2
        table[key] = build.DEAD
    assert table.epoch == 3
    met = list(range(0, epoch, 1000))  # of epoch 0, read in epoch 3
    assert all(table[key] == build.DEAD for key in met)
    assert table.age(len(table)) == 0  # nothing to drop
    # dropping epoch 0 (all but the ones met) is enough
    assert table.age(len(table) - 100) == epoch - len(met)
    assert len(table) == 1 + 2 * epoch + len(met)
    assert table[10**80] == 7 and all(key in table for key in met)
    assert 5 not in table and epoch in table
    # a table of open positions only keeps them all
    assert table.age(0) == 2 * epoch + len(met)
    assert table.items() == [(10**80, 7)]
    with pytest.raises(ValueError):
        table.age(-1)
    with pytest.raises(ValueError):
        table.prove_lost([1], -1)


@pytest.mark.parametrize("build", BUILDS)
def test_bad_keys_and_values_are_refused(build: ModuleType) -> None:
    table = build.PositionTable()
    cases: list[tuple[object, type[Exception]]] = [
        (-1, OverflowError), (2**288, OverflowError), ("1", TypeError), (1.0, TypeError)
    ]
    for key, error in cases:
        for op in (("set", key, 1), ("get", key), ("in", key), ("setdefault", key, 1),
                   ("pop", key), ("del", key)):
            assert apply(table, op) is error, op
    values: list[tuple[object, type[Exception]]] = [
        (-2, ValueError), (2**31 - 1, ValueError), ("1", TypeError)
    ]
    for value, error in values:
        assert apply(table, ("set", 1, value)) is error
        assert apply(table, ("setdefault", 1, value)) is error
    assert len(table) == 0
    table[2**288 - 1] = 2**31 - 2
    assert table[2**288 - 1] == 2**31 - 2


def test_the_c_table_is_the_python_table() -> None:
    """The same operations, aging included, give the same answers in both builds, the same
    epochs, and the same positions at the end: a small table aged often across several
    epochs, and larger ones (their parts doubled) aged now and then. (An age sweeps the
    whole Python table: aged at 1 op in 100 the larger ones took 17 s of the reference's
    time for nothing the rarer ages miss.)"""
    need_c()
    epochs = []
    for seed, pool, ages, bursts in ((2, 300, 10, 2), (3, 40_000, 1, 1), (4, 200_000, 1, 0)):
        c, py = built.PositionTable(), PY.PositionTable()
        for op in operations(seed, 250_000, pool, aging=True, ages=ages, bursts=bursts):
            assert apply(c, op) == apply(py, op), op[:1] + op[1:][-1:]
            if op[0] == "age":
                assert (len(c), c.epoch) == (len(py), py.epoch), op
        assert sorted(c.items()) == sorted(py.items())
        epochs.append(py.epoch)
    assert min(epochs[:2]) >= 3, epochs  # the epochs moved on, and the ages met them


def test_the_c_table_fills_its_slots_to_31_32_and_leaves_no_tombstones() -> None:
    """Each of its 256 parts doubles when more than 31/32 full: 100,000 positions (0.76
    of each part's 512 slots on average, the fullest near 31/32) take 2**17 slots, 41
    bytes each (5.4 MB); deleting and adding as many again leaves the slots as they are
    (deletion moves records back, it leaves no marks that fill the table)."""
    need_c()
    table = built.PositionTable()
    assert table.slots == 256 * 64
    for key in range(100_000):
        table[key * 7919] = built.DEAD
    assert table.slots == 2**17
    for round_ in range(1, 4):
        for key in range(100_000):
            del table[key * 7919 + (round_ - 1) * 13]
            table[key * 7919 + round_ * 13] = key
        assert table.slots == 2**17 and len(table) == 100_000
    assert table.setdefault(7919 + 3 * 13, 5) == 1


def test_runs_longer_than_an_offset_byte_counts() -> None:
    """Keys chosen by the C build's hash to fall in one part, on a quarter of its homes,
    make runs of thousands of records: records 254 slots or more from home (offset byte
    FAR) are placed as the part doubles, found, moved back and dropped as the Python
    table says."""
    need_c()
    keys = []
    candidate = 0
    while len(keys) < 3_900:  # a part of 4,096 slots (31/32 is 3,968), 1,024 homes
        candidate += 1
        key = candidate * 0x9E3779B97F4A7C15_2545F4914F6CDD1D % 2**288
        h = built._hash(key)
        if h >> 56 == 0 and h & 4095 < 1024:
            keys.append(key)
    c, py = built.PositionTable(), PY.PositionTable()
    for key in keys:  # every key in: the longest runs
        c[key] = py[key] = built.DEAD
    assert c.slots == 255 * 64 + 4096
    for op in operations(5, 60_000, len(keys), aging=True, among=keys):
        assert apply(c, op) == apply(py, op), op
    assert sorted(c.items()) == sorted(py.items())


@pytest.mark.parametrize("build", BUILDS)
def test_the_builds_are_named(build: ModuleType) -> None:
    make: Callable[[], Any] = build.PositionTable
    assert build.NATIVE == (build is not PY) and len(make()) == 0
