"""Re-solve stored deals whose "proved shortest" no longer stands (``dailydeal recheck``).

A stored solution is the par a player is measured against. When a solver version turns
out to have claimed shortest solutions that were not (Pyramid ``VERSION`` 3 to 7, issue
28), its rows are re-solved by the current solver (the spec's ``shortest_since``, store
``stale_rows``): a win proved shortest and accepted by the verifier replaces the stored
solution through ``store.revise_deal``, which keeps the old one in ``deal_revisions``
(never a silent change). A re-solve that cannot prove its win shortest within the node
budget changes nothing: the row stays unchecked, and the API does not claim its par
(``store.proved_shortest``). The deal, its tier and rating stay as they were published.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlite_utils

from dailydeal.daily import store
from dailydeal.solvers import VERSION, WON, proved_shortest, solve
from dailydeal.verify import verify


@dataclass(frozen=True)
class Recheck:
    """What re-solving one stored row found."""

    id: str
    old_length: int
    new_length: int | None  # None: no proved shortest win within the budget
    outcome: str  # "changed", "same" (the par stands, now checked), "not proved", "error"
    detail: str = ""

    def line(self) -> str:
        if self.outcome == "changed":
            return f"{self.id}: par {self.old_length} -> {self.new_length} ({self.detail})"
        if self.outcome == "same":
            return f"{self.id}: par {self.old_length} stands"
        return f"{self.id}: {self.outcome}, par {self.old_length} not claimed ({self.detail})"


def recheck_row(
    db: sqlite_utils.Database, row: dict[str, Any], max_nodes: int | None,
    time_limit: float | None, dry_run: bool = False,
) -> Recheck:
    """Re-solve one stored row and, unless ``dry_run``, record the new answer (with the
    old one kept as a revision) when it is a verified win proved shortest."""
    game, seed, variant = row["game"], row["seed"], row["variant"]
    old = row["solution_length"]
    was = store.solver_version(row)
    solved = solve(game, seed, variant, max_nodes=max_nodes, time_limit=time_limit)
    if solved.status != WON:
        return Recheck(row["id"], old, None, "error", f"the solver now says {solved.status}")
    if not proved_shortest(solved):
        return Recheck(row["id"], old, None, "not proved", f"{solved.nodes} nodes")
    if not verify(game, seed, solved.moves, variant).won:
        return Recheck(row["id"], old, None, "error", "the new solution does not verify")
    new = len(solved.moves)
    outcome = "same" if new == old else "changed"
    reason = (
        f"recheck by solver {VERSION} (was {was}): "
        + (f"par {old} stands" if new == old else f"shortest {old} -> {new}")
    )
    if not dry_run:
        stats: dict[str, Any] = {
            "status": solved.status,
            "nodes": solved.nodes,
            "seconds": round(solved.seconds, 6),
            "max_nodes": max_nodes,
            "time_limit": time_limit,
            "stats": solved.stats,
        }
        store.revise_deal(db, row["id"], solved.moves, stats, VERSION, reason)
    return Recheck(row["id"], old, new, outcome, f"solver {was} -> {VERSION}")


def recheck(
    db: sqlite_utils.Database, game: str = "pyramid", max_nodes: int | None = None,
    time_limit: float | None = None, dry_run: bool = False,
) -> list[Recheck]:
    """Re-solve every stored row of ``game`` made by a solver older than its
    spec's ``shortest_since`` (``stale_rows``)."""
    return [
        recheck_row(db, row, max_nodes, time_limit, dry_run)
        for row in store.stale_rows(db, game)
    ]
