"""The Gaps solver's dead-card test: a position lost because a card can never move again.

``stuck(board, most_live, relocate)`` is the reference. ``dead_cards.c`` beside it is the same test
in C (setup.py builds it with the compiled solvers, and it imports under this name): the
same answer for every board (tests/test_solver_gaps.py compares both), at a small part of
a search node's cost, where this module, compiled by mypyc, cost about two nodes a call
(docs/solvers.md, "Dead cards").
"""

from __future__ import annotations

from typing import Final

GAP: Final = 52  # dailydeal.games.rules.EMPTY
COLS: Final = 13
NATIVE: Final = 0  # 1 in the C build


def _successor(card: int) -> int:
    """The card that may go right of ``card``, GAP for a king or a gap (rules.gaps.SUCCESSOR)."""
    return GAP if card == GAP or card % 13 == 12 else card + 1


def stuck(board: list[int], most_live: int, relocate: bool) -> bool:
    """Whether ``board`` (the 52 cells, GAP for a gap) is lost because some card can never
    move again and stands where no win leaves it; ``relocate``: a 2 standing in column 1
    may move to a column-1 gap (a relocation; False where none is left). Only tested where
    at most ``most_live`` gaps can take a card (else False at once).

    The cards that may ever move again (an over-approximation, ``marked``): a card moves
    only into the gap right of its predecessor (a 2: into a column-1 gap). So card Y can
    move at some later time only if, before it, Y - 1 has moved, or the cell right of Y - 1
    has become a gap: it is one now, or the card standing there has moved. Start from the
    cards that can move now and add, until nothing changes, each card whose predecessor,
    or the card right of its predecessor, was added; a 2 moves into a column-1 gap, so the
    2s (not in column 1; with ``relocate`` those in column 1 too) are added when column 1
    has a gap or a card of column 1 was added. By induction on time, no card left out
    ever moves: the first to move would have had one of its reasons added. (Without
    ``relocate``, or where column 1 holds the four 2s, no 2 in column 1 is ever added: the
    frozen positions of the solver, where no 2 in column 1 can move again.)

    A won position has card Y in column rank(Y) - 1, in the row of Y's 2 (the row's
    suit). So the position is lost when a card that never moves again stands in another
    column, or in a row whose column 1 holds a 2 of another suit that never moves either.
    """
    pos = [-1] * (GAP + 1)
    gaps: list[int] = []
    for i in range(len(board)):
        if board[i] == GAP:
            gaps.append(i)
        else:
            pos[board[i]] = i
    live = 0
    for g in gaps:
        if g % COLS == 0 or _successor(board[g - 1]) != GAP:
            live += 1
    if live > most_live:
        return False
    marked = [False] * (GAP + 1)
    todo: list[int] = []

    def add(card: int) -> None:
        if card != GAP and not marked[card]:
            marked[card] = True
            todo.append(card)

    def add_twos() -> None:  # a column-1 cell may empty: a 2 may move in
        for two in (1, 14, 27, 40):
            if relocate or pos[two] % COLS != 0:
                add(two)

    for g in gaps:
        if g % COLS == 0:
            add_twos()
        else:
            add(_successor(board[g - 1]))
    while todo:
        x = todo.pop()
        add(_successor(x))  # its successor may follow it (none for a king)
        s = pos[x]
        if s % COLS == 0:
            add_twos()
        else:  # the cell x leaves may take the successor of its left neighbour
            add(_successor(board[s - 1]))
    for card in range(1, 52):
        s = pos[card]
        if marked[card] or s < 0:  # may move, or an ace (not on the board)
            continue
        first = board[s - s % COLS]
        if s % COLS != card % 13 - 1 or (
            first % 13 == 1 and first // 13 != card // 13 and not marked[first]
        ):
            return True
    return False
