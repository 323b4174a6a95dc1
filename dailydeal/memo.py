"""``Memo``: the last answers of an expensive build, by key, bounded and shared by threads.

One helper for every such cache (rendered deal answers, preview pictures, hints): a
``cachetools.LRUCache`` behind a lock. A miss is built outside the lock, so a slow build
(a hint's search, a picture's drawing) never holds up hits on other keys; two threads that
miss the same key at once both build it, and the later answer is kept (builds are pure).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from cachetools import LRUCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """At most ``size`` answers, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cache: LRUCache[K, V] = LRUCache(maxsize=size)
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: K, build: Callable[[], V]) -> V:
        """The answer remembered under ``key``, else ``build()``'s, then remembered."""
        with self.lock:
            try:
                found = self.cache[key]  # a hit makes the key the most recently used
            except KeyError:
                self.misses += 1
            else:
                self.hits += 1
                return found
        value = build()
        with self.lock:
            self.cache[key] = value
        return value
