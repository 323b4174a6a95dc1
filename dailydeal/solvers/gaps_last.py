"""The last round of the Gaps search (no redeal left), in C when compiled.

``gaps._Search.last_round`` is the search (its docstring says what it does); it is the
reference, and the Python build runs it: this module's ``last_round`` calls it.
``gaps_last.c`` beside this file is the same search, step for step (the same nodes, the
same proofs, the table aged at the same points: tests/test_solver_gaps.py compares the
two), built with the compiled solvers (setup.py) and imported under this name; it works
on table.c's table through that module's capsule, and calls the reference when the table
is not table.c's. Its node costs about half of the compiled Python's (0.42 to 0.57 measured;
docs/solvers.md).
"""

from __future__ import annotations

from typing import Final, Protocol

NATIVE: Final = 0  # 1 in the C build
TABLE: Final = 0  # 1 in the C build when table.c's capsule was found

Step = tuple[int, int] | None  # gaps.Step: a placement (card, destination), None a redeal


class Search(Protocol):
    """What this module needs of ``gaps._Search`` (named here: gaps.py imports this module).
    The C build also reads and writes its ``known``, ``relocations``, ``tb``, ``budget``,
    ``nodes``, ``limit`` and ``table_limit``, and calls its ``_make_room``."""

    def last_round(self, cells: bytearray, cap: int) -> tuple[str, list[Step]]: ...


def last_round(search: Search, cells: bytearray, cap: int) -> tuple[str, list[Step]]:
    """``search.last_round(cells, cap)``: WON/LOST/CAPPED and the steps of a win."""
    return search.last_round(cells, cap)
