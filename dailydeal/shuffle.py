"""The portable shuffle: SplitMix64 driving Fisher-Yates (specified in docs/deals.md).

Nothing here depends on Python's ``random``; every step is 64-bit integer arithmetic that
a client in any language can reproduce exactly.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
# Substream k of a seed starts from seed XOR (k * STREAM_STEP): k = 0 deals the cards,
# k >= 1 drives the k-th Gaps redeal.
STREAM_STEP = 0xD1B54A32D192ED03
MAX_SEED = MASK64


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed is an integer 0..{MAX_SEED}, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer 0..{MAX_SEED}, not {seed}")
    return seed


def seed_text(seed: int | None) -> str | None:
    """A seed as every JSON answer writes it: a decimal string. A JSON number above 2**53
    does not survive a JavaScript client (12135775398892334671 reads as
    12135775398892335000, another deal); inputs accept both forms."""
    return None if seed is None else str(check_seed(seed))


class SplitMix64:
    """Sebastiano Vigna's SplitMix64: 64 bits of state, one output per step."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 by rejection (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def substream(seed: int, k: int = 0) -> SplitMix64:
    return SplitMix64(check_seed(seed) ^ ((k * STREAM_STEP) & MASK64))


def fisher_yates(items: Iterable[T], rng: SplitMix64) -> list[T]:
    """Shuffle a copy: for i = n-1 down to 1, swap item i with item rng.below(i + 1)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(seed: int) -> list[int]:
    """The deal of a seed: the 52 cards in canonical order shuffled by substream 0."""
    return fisher_yates(range(52), substream(seed, 0))


def redeal_shuffle(cards: Sequence[int], seed: int, k: int) -> list[int]:
    """The k-th Gaps redeal (k >= 1): the collected cards sorted, shuffled by substream k."""
    ordered = sorted(cards)
    return [ordered[i] for i in _order(check_seed(seed), k, len(ordered))]


@functools.lru_cache(maxsize=4096)
def _order(seed: int, k: int, n: int) -> tuple[int, ...]:
    """Where Fisher-Yates by substream k puts each of n items: its swaps depend only on the
    stream and n, so every replay of a deal's k-th redeal of n cards (each verify of a
    line through it) reuses one draw of the stream instead of drawing it again."""
    return tuple(fisher_yates(range(n), substream(seed, k)))
