"""The one bounded, thread-safe cache (dailydeal.memo): the deal answers, the preview
pictures and the hints all keep their last answers in it."""

from __future__ import annotations

import functools
import threading

from dailydeal.memo import Memo


def test_keeps_the_most_recently_used() -> None:
    memo: Memo[str, str] = Memo(2)
    built: list[str] = []

    def build(key: str) -> str:
        built.append(key)
        return key.upper()

    assert memo.get("a", lambda: build("a")) == "A"
    assert memo.get("b", lambda: build("b")) == "B"
    assert memo.get("a", lambda: build("a")) == "A"  # a hit: "a" is now the most recent
    memo.get("c", lambda: build("c"))  # the bound: "b", the least recent, goes
    assert len(memo.cache) == 2
    assert memo.get("a", lambda: build("a")) == "A"
    assert memo.get("b", lambda: build("b")) == "B"
    assert built == ["a", "b", "c", "b"]
    assert (memo.hits, memo.misses) == (2, 4)


def test_none_is_an_answer() -> None:
    memo: Memo[int, None] = Memo(4)
    calls: list[int] = []
    memo.get(1, lambda: calls.append(1))
    memo.get(1, lambda: calls.append(1))
    assert calls == [1] and memo.hits == 1


def test_a_slow_build_does_not_hold_up_other_keys() -> None:
    """A build runs outside the lock: a hit on another key is answered meanwhile."""
    memo: Memo[str, str] = Memo(8)
    memo.get("ready", lambda: "R")
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        assert release.wait(10)
        return "S"

    worker = threading.Thread(target=lambda: memo.get("slow", slow))
    worker.start()
    assert started.wait(10)
    try:
        answered: list[str] = []
        reader = threading.Thread(target=lambda: answered.append(memo.get("ready", str)))
        reader.start()
        reader.join(5)
        assert answered == ["R"]
    finally:
        release.set()
        worker.join(10)
    assert memo.get("slow", lambda: "again") == "S"


def test_many_threads_stay_within_the_bound() -> None:
    memo: Memo[int, int] = Memo(16)

    def square(key: int) -> int:
        return key * key

    def work(base: int) -> None:
        for i in range(500):
            key = (base * 7 + i) % 40
            assert memo.get(key, functools.partial(square, key)) == key * key

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memo.cache) == 16
    assert memo.hits + memo.misses == 8 * 500
