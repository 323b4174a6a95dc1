"""Player models: heuristic players that see only what a person at the table sees.

Each game has two models, kept deliberately different:

- ``careful`` (model A) builds the rating: it scores every candidate move with a short
  look-ahead over the *visible* position, adds Gumbel noise (a softmax choice, the way a
  decent player sometimes picks a worse move) and plays the best.
- ``casual`` (model B) validates the rating (``benchmarks/difficulty.py``): simple rules of
  thumb, no look-ahead, more randomness. It is never used by ``rate()``.

Hidden information is kept out by construction: the simulation below holds the undealt
cards (Accordion stock, unseen Pyramid stock, Gaps redeal shuffles) and the policies only
receive the visible state (the Accordion row, the Pyramid, the waste and the foundation, the
Gaps board). A policy never draws, deals or redeals to look ahead. Each playout returns the
moves in RULES.md notation when asked, so tests can replay them through the rule engines.

The internal representations are plain lists of ints, much faster than the engines, which is
what lets ``rate()`` afford dozens of playouts per deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from dailydeal import cards as C
from dailydeal.games.pyramid import COVERS, SIZE
from dailydeal.shuffle import redeal_shuffle

KING = 13
GAP = -1
MODELS = ("careful", "casual")


@dataclass
class Playout:
    """One game played by a model: won or not, the game's score, and optionally the moves."""

    won: bool
    score: int
    moves: list[str] = field(default_factory=list)
    passes: int = 1  # Pyramid: passes through the stock (recycles + 1)


def _gumbel(rng: random.Random) -> float:
    """A Gumbel(0, 1) draw: argmax(score + T * gumbel) is a softmax choice at temperature T."""
    return -math.log(-math.log(rng.random() or 1e-300))


def _name(card: int) -> str:
    return C.CARD_NAMES[card]


# ---------------------------------------------------------------------------------------
# Accordion
# ---------------------------------------------------------------------------------------

def _acc_match(a: int, b: int) -> bool:
    return a // 13 == b // 13 or a % 13 == b % 13


def accordion_moves(tops: Sequence[int], jumps: Sequence[int] = (1, 3)) -> list[tuple[int, int]]:
    """Visible pile moves as (source index, destination index)."""
    out = []
    for i in range(len(tops)):
        t = tops[i]
        for jump in jumps:
            j = i - jump
            if j >= 0:
                u = tops[j]
                if t // 13 == u // 13 or t % 13 == u % 13:
                    out.append((i, j))
    return out


def _acc_apply(tops: list[int], move: tuple[int, int]) -> list[int]:
    i, j = move
    new = tops[:]
    new[j] = new[i]
    del new[i]
    return new


def _acc_best(tops: list[int], depth: int, jumps: Sequence[int]) -> float:
    """Most piles removable by at most ``depth`` visible moves, plus a little for options."""
    moves = accordion_moves(tops, jumps)
    if depth == 0 or not moves:
        return 0.1 * len(moves)
    return 1 + max(_acc_best(_acc_apply(tops, m), depth - 1, jumps) for m in moves)


def accordion_careful_choice(
    tops: list[int], moves: list[tuple[int, int]], rng: random.Random,
    jumps: Sequence[int] = (1, 3), depth: int = 2, temperature: float = 0.35,
) -> tuple[int, int]:
    """Model A's pick among visible pile moves: look-ahead value plus Gumbel noise."""
    best, best_v = moves[0], -1e9
    for m in moves:
        v = _acc_best(_acc_apply(tops, m), depth, jumps) + temperature * _gumbel(rng)
        if v > best_v:
            best, best_v = m, v
    return best


def accordion_casual_choice(
    tops: list[int], moves: list[tuple[int, int]], rng: random.Random,
    jumps: Sequence[int] = (1, 3),
) -> tuple[int, int]:
    """Model B's pick: the rightmost move, a three-place jump first; sometimes any move."""
    if rng.random() < 0.25:
        return moves[rng.randrange(len(moves))]
    return max(moves, key=lambda m: (m[0], m[0] - m[1]))


def play_accordion(
    cards: Sequence[int], rng: random.Random, model: str = "careful", *,
    jumps: Sequence[int] = (1, 3), open_deal: bool = False, record: bool = False,
) -> Playout:
    """Play one Accordion game: move while a visible move exists, deal when none does.

    Moving whenever possible is legal in every variant (and is what ``forced`` demands).
    The policy sees the row of top cards only; the stock is read here, at deal time.
    """
    tops: list[int] = []
    dealt = 0
    moves_out: list[str] = []
    if open_deal:
        tops = list(cards)
        dealt = 52
    careful = model == "careful"
    while True:
        moves = accordion_moves(tops, jumps)
        if moves:
            if careful:
                m = accordion_careful_choice(tops, moves, rng, jumps)
            else:
                m = accordion_casual_choice(tops, moves, rng, jumps)
            if record:
                moves_out.append(f"{_name(tops[m[0]])}>{_name(tops[m[1]])}")
            tops = _acc_apply(tops, m)
        elif dealt < 52:
            tops.append(cards[dealt])
            dealt += 1
            if record:
                moves_out.append("d")
        else:
            break
    return Playout(len(tops) == 1, len(tops), moves_out)


# ---------------------------------------------------------------------------------------
# Pyramid
# ---------------------------------------------------------------------------------------

# Places each place covers (its parents), used to find what a removal uncovers.
_PARENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(SIZE) if i in COVERS[p]) for i in range(SIZE)
)


def _value(card: int) -> int:
    return card % 13 + 1


def _accessible(pyr: list[int]) -> list[int]:
    """Accessible places of the pyramid."""
    return [i for i in range(SIZE) if pyr[i] >= 0 and all(pyr[c] < 0 for c in COVERS[i])]


def _uncovered(pyr: list[int], removed: Sequence[int]) -> int:
    """How many places become accessible when the places ``removed`` are emptied."""
    gone = set(removed)
    n = 0
    for r in removed:
        for p in _PARENTS[r]:
            if pyr[p] >= 0 and p not in gone and all(pyr[c] < 0 or c in gone for c in COVERS[p]):
                n += 1
    return n


def _stranded(pyr: list[int], removed_places: Sequence[int], foundation: list[int]) -> int:
    """Pyramid cards left with no partner anywhere once a pair goes to the foundation.

    ``foundation`` counts removed cards by value (visible information); the pair about to be
    removed is already counted in it by the caller.
    """
    gone = set(removed_places)
    n = 0
    for i in range(SIZE):
        c = pyr[i]
        if c < 0 or i in gone:
            continue
        v = _value(c)
        if v == KING:
            continue
        if foundation[13 - v] >= 4:
            n += 1
    return n


def pyramid_careful_choice(
    pyr: list[int], pairs: list[tuple[int, int]], foundation: list[int], waste_top: int,
    rng: random.Random, temperature: float = 0.6,
) -> tuple[int, int]:
    """Model A's pick among pairs (place, place) or (place, -1 for the waste top).

    Score: pyramid cards removed, places uncovered, pairs available next (one-move
    look-ahead on visible cards) and a heavy penalty for stranding a card whose partners
    would all be gone; Gumbel noise for the occasional human slip.
    """
    best, best_v = pairs[0], -1e9
    for a, b in pairs:
        places = (a,) if b < 0 else (a, b)
        ca = pyr[a]
        cb = waste_top if b < 0 else pyr[b]
        foundation[_value(ca)] += 1
        foundation[_value(cb)] += 1
        stranded = _stranded(pyr, places, foundation)
        foundation[_value(ca)] -= 1
        foundation[_value(cb)] -= 1
        saved = [pyr[p] for p in places]
        for p in places:
            pyr[p] = GAP
        acc = _accessible(pyr)
        vals = [_value(pyr[p]) for p in acc]
        follow = sum(1 for x in range(len(vals)) for y in range(x + 1, len(vals))
                     if vals[x] + vals[y] == 13) + vals.count(KING)
        for p, c in zip(places, saved, strict=True):
            pyr[p] = c
        v = (len(places) + 0.7 * _uncovered(pyr, places) + 0.3 * min(follow, 3)
             - 4.0 * stranded + temperature * _gumbel(rng))
        if v > best_v:
            best, best_v = (a, b), v
    return best


def play_pyramid(
    cards: Sequence[int], rng: random.Random, model: str = "careful", *,
    passes: int | None = None, record: bool = False,
) -> Playout:
    """Play one Pyramid game: remove kings and pairs, else draw, else recycle.

    The policy sees the pyramid, the waste top and the foundation; the stock order is read
    only here, when a card is drawn. The player stops after a whole pass through stock and
    waste without an available removal (nothing can change any more), or when the passes of
    the variant run out.
    """
    pyr = list(cards[:SIZE])
    stock = list(reversed(cards[SIZE:]))
    waste: list[int] = []
    foundation = [0] * 14  # removed cards by value
    recycles = 0
    idle = 0
    out: list[str] = []
    careful = model == "careful"
    left = SIZE
    while left:
        acc = _accessible(pyr)
        top = waste[-1] if waste else -1
        king = next((p for p in acc if _value(pyr[p]) == KING), None)
        if king is not None:
            if record:
                out.append(_name(pyr[king]))
            foundation[KING] += 1
            pyr[king] = GAP
            left -= 1
            idle = 0
            continue
        if top >= 0 and _value(top) == KING:
            if record:
                out.append(_name(top))
            foundation[KING] += 1
            waste.pop()
            continue
        pairs: list[tuple[int, int]] = []
        for x in range(len(acc)):
            vx = _value(pyr[acc[x]])
            for y in range(x + 1, len(acc)):
                if vx + _value(pyr[acc[y]]) == 13:
                    pairs.append((acc[x], acc[y]))
            if top >= 0 and vx + _value(top) == 13:
                pairs.append((acc[x], -1))
        if pairs:
            if careful:
                a, b = pyramid_careful_choice(pyr, pairs, foundation, top, rng)
            else:
                a, b = pairs[rng.randrange(len(pairs))]
            ca = pyr[a]
            cb = waste.pop() if b < 0 else pyr[b]
            if record:
                x, y = sorted((ca, cb))
                out.append(f"{_name(x)}+{_name(y)}")
            foundation[_value(ca)] += 1
            foundation[_value(cb)] += 1
            pyr[a] = GAP
            left -= 1
            if b >= 0:
                pyr[b] = GAP
                left -= 1
            idle = 0
            continue
        if idle > len(stock) + len(waste):
            break  # a whole cycle without any possible removal: blocked
        if stock:
            waste.append(stock.pop())
            idle += 1
            if record:
                out.append("d")
        elif waste and (passes is None or recycles < passes - 1):
            stock = waste[::-1]
            waste = []
            recycles += 1
            if record:
                out.append("r")
        else:
            break
        if recycles > 60:  # cannot happen with the stop rule above; a safety net
            break
    return Playout(left == 0, left, out, recycles + 1)


# ---------------------------------------------------------------------------------------
# Gaps
# ---------------------------------------------------------------------------------------

ROWS, COLS = 4, 13


def _kept(cells: list[int]) -> int:
    """Cards in kept sequences (the Gaps score)."""
    n = 0
    for base in range(0, 52, COLS):
        first = cells[base]
        if first >= 0 and first % 13 == 1:
            k = 1
            while k < COLS - 1 and cells[base + k] == first + k:
                k += 1
            n += k
    return n


def gaps_moves(cells: list[int]) -> list[tuple[int, int]]:
    """Visible moves as (card, destination cell)."""
    out = []
    for g in range(52):
        if cells[g] >= 0:
            continue
        if g % COLS == 0:
            for s in range(4):
                out.append((s * 13 + 1, g))
            continue
        left = cells[g - 1]
        if left >= 0 and left % 13 != 12:
            out.append((left + 1, g))
    return out


def _gaps_eval(cells: list[int]) -> float:
    """Heuristic value of a board: kept cards count most, then cards already following
    their predecessor, then live gaps (a gap that some card can fill)."""
    kept = _kept(cells)
    follow = 0
    live = 0
    for g in range(52):
        c = cells[g]
        col = g % COLS
        if c < 0:
            if col == 0 or (cells[g - 1] >= 0 and cells[g - 1] % 13 != 12):
                live += 1
        elif col and c % 13 != 1 and cells[g - 1] == c - 1:
            follow += 1
    return 3.0 * kept + 0.5 * follow + 0.8 * live


def _gaps_apply(cells: list[int], pos: list[int], card: int, dst: int) -> int:
    src = pos[card]
    cells[src] = GAP
    cells[dst] = card
    pos[card] = dst
    return src


def _gaps_undo(cells: list[int], pos: list[int], card: int, src: int) -> None:
    dst = pos[card]
    cells[dst] = GAP
    cells[src] = card
    pos[card] = src


def _gaps_useless(cells: list[int], pos: list[int], card: int, dst: int) -> bool:
    """A 2 already heading its row's column 1 moving to another column 1 changes nothing."""
    return card % 13 == 1 and pos[card] % COLS == 0


def gaps_careful_choice(
    cells: list[int], pos: list[int], moves: list[tuple[int, int]], rng: random.Random,
    temperature: float = 0.8,
) -> tuple[int, int]:
    """Model A's pick: value after the move and the best visible reply, plus Gumbel noise."""
    best, best_v = moves[0], -1e9
    for card, dst in moves:
        if _gaps_useless(cells, pos, card, dst):
            continue
        src = _gaps_apply(cells, pos, card, dst)
        v = _gaps_eval(cells)
        reply = -1e9
        for c2, d2 in gaps_moves(cells):
            if c2 == card or _gaps_useless(cells, pos, c2, d2):
                continue
            s2 = _gaps_apply(cells, pos, c2, d2)
            reply = max(reply, _gaps_eval(cells))
            _gaps_undo(cells, pos, c2, s2)
        _gaps_undo(cells, pos, card, src)
        v = max(v, reply) + 0.1 * v + temperature * _gumbel(rng)
        if v > best_v:
            best, best_v = (card, dst), v
    return best


def gaps_casual_choice(
    cells: list[int], pos: list[int], moves: list[tuple[int, int]], rng: random.Random,
) -> tuple[int, int]:
    """Model B's pick: extend a kept sequence if it can, else any move that keeps them."""
    kept = _kept(cells)
    extend = []
    other = []
    for card, dst in moves:
        if _gaps_useless(cells, pos, card, dst):
            continue
        src = _gaps_apply(cells, pos, card, dst)
        k = _kept(cells)
        _gaps_undo(cells, pos, card, src)
        if k > kept:
            extend.append((card, dst))
        elif k == kept:
            other.append((card, dst))
    pool = extend or other or moves
    return pool[rng.randrange(len(pool))]


def play_gaps(
    cards: Sequence[int], seed: int | None, rng: random.Random, model: str = "careful", *,
    redeals: int = 2, record: bool = False, max_moves: int = 600,
) -> Playout:
    """Play one Gaps game: fill gaps until blocked, then redeal while redeals are left.

    The policy sees the board only; a redeal's result is computed here, by the rule of the
    game, after the player has committed to everything before it. A playout that runs past
    ``max_moves`` (a heuristic going round in circles) ends there, not won.
    """
    cells = [GAP if c % 13 == 0 else c for c in cards]
    pos = [-1] * 52
    for i, c in enumerate(cells):
        if c >= 0:
            pos[c] = i
    used = 0
    out: list[str] = []
    careful = model == "careful"
    played = 0
    while played < max_moves:
        if _kept(cells) == 48:
            break
        moves = [m for m in gaps_moves(cells) if not _gaps_useless(cells, pos, *m)]
        if moves:
            if careful:
                card, dst = gaps_careful_choice(cells, pos, moves, rng)
            else:
                card, dst = gaps_casual_choice(cells, pos, moves, rng)
            if record:
                out.append(_name(card) + (f"@{dst // COLS + 1}" if card % 13 == 1 else ""))
            _gaps_apply(cells, pos, card, dst)
            played += 1
            continue
        if gaps_moves(cells) or used >= redeals:
            break  # only pointless moves of 2s left, or no redeal: the game is over
        used += 1
        _redeal(cells, pos, seed, used)
        if record:
            out.append("R")
    score = _kept(cells)
    return Playout(score == 48, score, out)


def _redeal(cells: list[int], pos: list[int], seed: int | None, k: int) -> None:
    """The redeal of RULES.md (same shuffle as the engine: ``redeal_shuffle``)."""
    kept = []
    for base in range(0, 52, COLS):
        first = cells[base]
        n = 0
        if first >= 0 and first % 13 == 1:
            n = 1
            while n < COLS - 1 and cells[base + n] == first + n:
                n += 1
        kept.append(n)
    collected = [
        c for r in range(ROWS) for c in cells[r * COLS + kept[r]:(r + 1) * COLS] if c >= 0
    ]
    it = iter(redeal_shuffle(collected, 0 if seed is None else seed, k))
    for r in range(ROWS):
        base = r * COLS
        cells[base + kept[r]] = GAP
        for col in range(kept[r] + 1, COLS):
            cells[base + col] = next(it)
    for i, c in enumerate(cells):
        if c >= 0:
            pos[c] = i
