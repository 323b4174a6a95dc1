"""What every solver returns and the budget it must honour."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dailydeal.games import Game

WON, LOST, UNKNOWN = "won", "lost", "unknown"
STATUSES = (WON, LOST, UNKNOWN)


@dataclass
class SolveResult:
    status: str  # won (moves is a solution), lost (proved: exhaustive), unknown (budget)
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)  # solver-specific extras

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "moves": self.moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class Budget:
    """A node and time limit. Solvers call ``spent(nodes)`` often; it is cheap.

    The time limit is read on ``clock``: wall-clock by default (what a caller waits);
    ``time.process_time`` makes it CPU seconds, which benchmarks on a shared machine use so
    that other processes do not turn decided deals into unknown ones.
    """

    CHECK_EVERY: ClassVar[int] = 1024  # nodes between clock readings

    def __init__(
        self,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if max_nodes is not None and max_nodes < 0:
            raise ValueError("max_nodes must be >= 0")
        if time_limit is not None and time_limit < 0:
            raise ValueError("time_limit must be >= 0")
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.clock = clock
        self.start = clock()
        self.deadline = None if time_limit is None else self.start + time_limit
        self._next_check = self.CHECK_EVERY
        self.timed_out = False  # whether the clock (rather than the node count) stopped it

    def spent(self, nodes: int) -> bool:
        """True once the node or time budget is used up."""
        if self.max_nodes is not None and nodes >= self.max_nodes:
            return True
        if self.deadline is not None and nodes >= self._next_check:
            self._next_check = nodes + self.CHECK_EVERY
            if self.clock() >= self.deadline:
                self.timed_out = True
                return True
        return False

    def elapsed(self) -> float:
        return self.clock() - self.start


def luby(k: int) -> int:
    """The k-th term (k >= 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...

    Restarting with node limits in this sequence is within a logarithmic factor of the
    best fixed limit for any distribution of search lengths (Luby, Sinclair and
    Zuckerman, 1993), without knowing that distribution.
    """
    while True:
        size = 1  # the smallest 2**m - 1 >= k
        while size < k:
            size = 2 * size + 1
        if k == size:
            return (size + 1) // 2
        k -= size // 2  # the sequence of length 2**m - 1 is two copies of the one
        # of length 2**(m-1) - 1, then 2**(m-1)


SolverFn = Callable[[Game[Any], Budget], SolveResult]


# Bit counts and bit lengths of the 16-bit numbers, the tables the compiled searches read
# in place of ``int.bit_count()`` and ``bit_length()`` (docs/solvers.md, "Compiled or
# Python"). Built by whole-bytes operations, not one number at a time: a loop of 65,536
# ``bin(i).count("1")`` cost each solver module 5 to 9 ms of its import.
def bit_count_table() -> bytes:
    """``table[i] == i.bit_count()`` for 0 <= i < 2**16: the table of 2**k numbers, then
    the same with one more bit (the numbers 2**k .. 2**(k+1) - 1), 16 times."""
    table = b"\x00"
    plus_one = bytes(range(1, 256)) + b"\x00"  # bytes.translate: b -> b + 1
    while len(table) < 1 << 16:
        table += table.translate(plus_one)
    return table


def bit_length_table() -> bytes:
    """``table[i] == i.bit_length()`` for 0 <= i < 2**16: k for the 2**(k-1) numbers
    2**(k-1) .. 2**k - 1."""
    table = b"\x00"
    for k in range(1, 17):
        table += bytes([k]) * (1 << (k - 1))
    return table
