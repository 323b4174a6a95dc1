"""Naive move generators of the three games, written from docs/rules.md alone: the
reference the perft and property tests hold the engines to (no code shared with
dailydeal.games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CANONICAL = [r + s for s in SUITS for r in RANKS]
INDEX = {name: i for i, name in enumerate(CANONICAL)}


def value(card: str) -> int:
    return RANKS.index(card[0]) + 1


def successor(card: str) -> str:
    return RANKS[RANKS.index(card[0]) + 1] + card[1]


# --- Accordion -----------------------------------------------------------------------


@dataclass
class NaiveAccordion:
    stock: list[str]
    piles: list[list[str]] = field(default_factory=list)
    forced: bool = False

    def pile_moves(self) -> list[str]:
        out = []
        for i in range(len(self.piles)):
            for back in (1, 3):  # immediately left, or two piles between
                j = i - back
                if j < 0:
                    continue
                x, y = self.piles[i][-1], self.piles[j][-1]
                if x[0] == y[0] or x[1] == y[1]:  # same rank or same suit
                    out.append(f"{x}>{y}")
        return out

    def moves(self) -> list[str]:
        out = self.pile_moves()
        if self.stock and not (self.forced and out):
            out.append("d")
        return out

    def apply(self, move: str) -> None:
        if move == "d":
            self.piles.append([self.stock.pop(0)])
            return
        x, y = move.split(">")
        i = [p[-1] for p in self.piles].index(x)
        j = [p[-1] for p in self.piles].index(y)
        self.piles[j] = self.piles[j] + self.piles[i]
        del self.piles[i]

    def copy(self) -> NaiveAccordion:
        return NaiveAccordion(list(self.stock), [list(p) for p in self.piles], self.forced)

    def state(self) -> str:
        if self.stock:
            return "in progress"
        if len(self.piles) == 1:
            return "won"
        return "in progress" if self.pile_moves() else "lost"

    def score(self) -> int:
        return len(self.piles) + len(self.stock)


def naive_accordion(deck: list[str], variant: str | None) -> NaiveAccordion:
    game = NaiveAccordion(list(deck), forced=variant == "forced")
    if variant == "open":
        while game.stock:
            game.apply("d")
    return game


# --- Pyramid -------------------------------------------------------------------------


def covering(row: int, place: int) -> list[tuple[int, int]]:
    return [] if row == 7 else [(row + 1, place), (row + 1, place + 1)]


@dataclass
class NaivePyramid:
    pyramid: dict[tuple[int, int], str | None]
    stock: list[str]  # next drawn first
    waste: list[str]  # top last
    passes: int | None
    recycles: int = 0

    def accessible(self) -> list[str]:
        out = []
        for (r, p), card in self.pyramid.items():
            if card is not None and all(self.pyramid[c] is None for c in covering(r, p)):
                out.append(card)
        return out

    def moves(self) -> list[str]:
        free = self.accessible()
        if self.waste:
            free.append(self.waste[-1])
        out = []
        for a in free:
            for b in free:
                if INDEX[a] < INDEX[b] and value(a) + value(b) == 13:
                    out.append(f"{a}+{b}")
        out += [k for k in free if k[0] == "K"]
        if self.stock:
            out.append("d")
        elif self.waste and (self.passes is None or self.recycles < self.passes - 1):
            out.append("r")
        return out

    def apply(self, move: str) -> None:
        if move == "d":
            self.waste.append(self.stock.pop(0))
        elif move == "r":
            self.stock, self.waste = list(self.waste), []
            self.recycles += 1
        else:
            for card in move.split("+"):
                where = [k for k, c in self.pyramid.items() if c == card]
                if where:
                    self.pyramid[where[0]] = None
                else:
                    assert self.waste[-1] == card
                    self.waste.pop()

    def copy(self) -> NaivePyramid:
        return NaivePyramid(
            dict(self.pyramid), list(self.stock), list(self.waste), self.passes, self.recycles
        )

    def removes_pyramid_card(self, move: str) -> bool:
        return move not in ("d", "r") and any(
            c in self.pyramid.values() for c in move.split("+")
        )

    def state(self) -> str:
        if all(c is None for c in self.pyramid.values()):
            return "won"
        # Blocked: explore every position reachable by draws, recycles and removing a waste
        # king (which touches no pyramid card); none may offer a pyramid removal.
        todo, seen = [self.copy()], set()
        while todo:
            pos = todo.pop()
            sig = (tuple(pos.stock), tuple(pos.waste), pos.recycles)
            if sig in seen:
                continue
            seen.add(sig)
            for move in pos.moves():
                if pos.removes_pyramid_card(move):
                    return "in progress"
                nxt = pos.copy()
                nxt.apply(move)
                if self.passes is None:
                    nxt.recycles = 0
                todo.append(nxt)
        return "lost"

    def score(self) -> int:
        return sum(c is not None for c in self.pyramid.values())


def naive_pyramid(deck: list[str], variant: str | None) -> NaivePyramid:
    cells = iter(deck[:28])
    pyramid: dict[tuple[int, int], str | None] = {
        (r, p): next(cells) for r in range(1, 8) for p in range(1, r + 1)
    }
    passes = int(variant.split("=")[1]) if variant else None
    return NaivePyramid(pyramid, list(deck[28:]), [], passes)


# --- Gaps ----------------------------------------------------------------------------

M64 = 2**64 - 1


def naive_shuffle(cards: list[str], seed: int, k: int) -> list[str]:
    """SplitMix64 + top-down Fisher-Yates, as docs/deals.md tells it."""
    state = seed ^ ((k * 0xD1B54A32D192ED03) & M64)

    def nxt() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    out = sorted(cards, key=INDEX.__getitem__)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while (x := nxt()) >= 2**64 - 2**64 % n:
            pass
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@dataclass
class NaiveGaps:
    rows: list[list[str | None]]
    seed: int
    redeals: int
    used: int = 0

    def kept(self, row: list[str | None]) -> int:
        n = 0
        first = row[0]
        if first is None or first[0] != "2":
            return 0
        while n < 12 and row[n] == RANKS[n + 1] + first[1]:
            n += 1
        return n

    def won(self) -> bool:
        return all(self.kept(row) == 12 for row in self.rows)

    def place_moves(self) -> list[str]:
        out = []
        for r, row in enumerate(self.rows):
            for c, card in enumerate(row):
                if card is not None:
                    continue
                if c == 0:
                    out += [f"2{s}@{r + 1}" for s in SUITS]
                elif row[c - 1] is not None and row[c - 1][0] != "K":  # type: ignore[index]
                    out.append(successor(row[c - 1]))  # type: ignore[arg-type]
        return out

    def moves(self) -> list[str]:
        out = self.place_moves()
        if not out and self.used < self.redeals and not self.won():
            out.append("R")
        return out

    def find(self, card: str) -> tuple[int, int]:
        for r, row in enumerate(self.rows):
            if card in row:
                return r, row.index(card)
        raise AssertionError(card)

    def apply(self, move: str) -> None:
        if move == "R":
            self.used += 1
            kept = [self.kept(row) for row in self.rows]
            collected = [
                c for r, row in enumerate(self.rows) for c in row[kept[r] :] if c is not None
            ]
            deck = iter(naive_shuffle(collected, self.seed, self.used))
            self.rows = [
                row[: kept[r]] + [None] + [next(deck) for _ in range(12 - kept[r])]
                for r, row in enumerate(self.rows)
            ]
            return
        card, _, row = move.partition("@")
        r0, c0 = self.find(card)
        if row:
            r1, c1 = int(row) - 1, 0
        else:
            r1, c1 = self.find(RANKS[RANKS.index(card[0]) - 1] + card[1])
            c1 += 1
        assert self.rows[r1][c1] is None
        self.rows[r0][c0] = None
        self.rows[r1][c1] = card

    def copy(self) -> NaiveGaps:
        return NaiveGaps([list(r) for r in self.rows], self.seed, self.redeals, self.used)

    def state(self) -> str:
        if self.won():
            return "won"
        return "in progress" if self.moves() else "lost"

    def score(self) -> int:
        return sum(self.kept(row) for row in self.rows)


def naive_gaps(deck: list[str], variant: str | None, seed: int) -> NaiveGaps:
    cells: list[str | None] = [None if c[0] == "A" else c for c in deck]
    redeals = int(variant.split("=")[1]) if variant else 2
    return NaiveGaps([cells[13 * r : 13 * r + 13] for r in range(4)], seed, redeals)


# --- the comparison ------------------------------------------------------------------

NAIVE: dict[str, Callable[[list[str], str | None, int], Any]] = {
    "accordion": lambda deck, variant, seed: naive_accordion(deck, variant),
    "pyramid": lambda deck, variant, seed: naive_pyramid(deck, variant),
    "gaps": naive_gaps,
}
