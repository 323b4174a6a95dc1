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
moves in docs/rules.md notation when asked, so tests can replay them through the rule engines.

The positions are the flat ones of the rules core (``dailydeal.games.rules``: the Accordion
row of tops, the Pyramid mask, the Gaps cells) and every legal move, every effect of a move
and every redeal comes from it; no engine object is built, which is what lets ``rate()``
afford dozens of playouts per deal. What is left here is only what a player *prefers*.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from dailydeal.cards import Card
from dailydeal.games.accordion import Accordion
from dailydeal.games.gaps import Gaps
from dailydeal.games.notation import AccordionNotation, GapsNotation, PyramidNotation
from dailydeal.games.pyramid import Pyramid
from dailydeal.games.rules import EMPTY
from dailydeal.games.rules import accordion as acc_rules
from dailydeal.games.rules import gaps as gaps_rules
from dailydeal.games.rules import pyramid as pyr_rules

KING = 13
WASTE = -1  # in a Pyramid pair (place, WASTE): the other card is the waste top
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


# ---------------------------------------------------------------------------------------
# Accordion
# ---------------------------------------------------------------------------------------

def accordion_moves(
    tops: Sequence[Card], jumps: Sequence[int] = acc_rules.JUMPS
) -> list[tuple[int, int]]:
    """Visible pile moves as (source index, destination index), by source (engine order)."""
    return acc_rules.by_source(acc_rules.pile_moves(tops, jumps))


_acc_apply = acc_rules.move_pile


def _acc_best(tops: list[Card], depth: int, jumps: Sequence[int]) -> float:
    """Most piles removable by at most ``depth`` visible moves, plus a little for options.
    (The order of the moves does not matter here: only their number and the best value.)"""
    moves = acc_rules.pile_moves(tops, jumps)
    if depth == 0 or not moves:
        return 0.1 * len(moves)
    return 1 + max(_acc_best(_acc_apply(tops, i, j), depth - 1, jumps) for i, j in moves)


def accordion_careful_choice(
    tops: list[Card], moves: list[tuple[int, int]], rng: random.Random,
    jumps: Sequence[int] = (1, 3), depth: int = 2, temperature: float = 0.35,
) -> tuple[int, int]:
    """Model A's pick among visible pile moves: look-ahead value plus Gumbel noise."""
    best, best_v = moves[0], -1e9
    for m in moves:
        v = _acc_best(_acc_apply(tops, *m), depth, jumps) + temperature * _gumbel(rng)
        if v > best_v:
            best, best_v = m, v
    return best


def accordion_casual_choice(
    tops: list[Card], moves: list[tuple[int, int]], rng: random.Random,
    jumps: Sequence[int] = (1, 3),
) -> tuple[int, int]:
    """Model B's pick: the rightmost move, a three-place jump first; sometimes any move."""
    if rng.random() < 0.25:
        return moves[rng.randrange(len(moves))]
    return max(moves, key=lambda m: (m[0], m[0] - m[1]))


def play_accordion(
    cards: Sequence[Card], rng: random.Random, model: str = "careful", *,
    jumps: Sequence[int] = (1, 3), open_deal: bool = False, record: bool = False,
) -> Playout:
    """Play one Accordion game: move while a visible move exists, deal when none does.

    Moving whenever possible is legal in every variant (and is what ``forced`` demands).
    The policy sees the row of top cards only; the stock is read here, at deal time.
    """
    tops: list[Card] = []
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
                moves_out.append(AccordionNotation.pile(tops[m[0]], tops[m[1]]))
            tops = _acc_apply(tops, *m)
        elif acc_rules.can_deal(dealt, False, False):
            tops.append(cards[dealt])
            dealt += 1
            if record:
                moves_out.append(AccordionNotation.DEAL)
        else:
            break
    return Playout(acc_rules.is_won(dealt, len(tops)), len(tops), moves_out)


# ---------------------------------------------------------------------------------------
# Pyramid
# ---------------------------------------------------------------------------------------

_value = pyr_rules.value
_free = pyr_rules.free_places
_is_free = pyr_rules.is_free
_PARENTS = pyr_rules.PARENTS


def _uncovered(mask: int, removed: Sequence[int]) -> int:
    """How many places become accessible when the places ``removed`` leave ``mask``
    (a place uncovered by two of them counts twice)."""
    after = mask
    for r in removed:
        after &= ~(1 << r)
    n = 0
    for r in removed:
        for p in _PARENTS[r]:
            if _is_free(after, p):
                n += 1
    return n


def _stranded(cards: Sequence[Card], mask: int, foundation: list[int]) -> int:
    """Pyramid cards of ``mask`` left with no partner anywhere once a pair goes to the
    foundation.

    ``foundation`` counts removed cards by value (visible information); the pair about to be
    removed is already counted in it by the caller, and already out of ``mask``.
    """
    n = 0
    for i in range(pyr_rules.SIZE):
        if mask >> i & 1:
            v = _value(cards[i])
            if v != KING and foundation[pyr_rules.PAIR_SUM - v] >= 4:
                n += 1
    return n


def pyramid_careful_choice(
    cards: Sequence[Card], mask: int, pairs: list[tuple[int, int]], foundation: list[int],
    waste_top: Card, rng: random.Random, temperature: float = 0.6,
) -> tuple[int, int]:
    """Model A's pick among pairs (place, place) or (place, WASTE for the waste top).

    Score: pyramid cards removed, places uncovered, pairs available next (one-move
    look-ahead on visible cards) and a heavy penalty for stranding a card whose partners
    would all be gone; Gumbel noise for the occasional human slip.
    """
    best, best_v = pairs[0], -1e9
    for a, b in pairs:
        places = (a,) if b < 0 else (a, b)
        ca = cards[a]
        cb = waste_top if b < 0 else cards[b]
        after = mask & ~(1 << a)
        if b >= 0:
            after &= ~(1 << b)
        foundation[_value(ca)] += 1
        foundation[_value(cb)] += 1
        stranded = _stranded(cards, after, foundation)
        foundation[_value(ca)] -= 1
        foundation[_value(cb)] -= 1
        free = _free(after)
        follow = len(pyr_rules.pairs(cards, free)) + sum(
            1 for p in free if pyr_rules.is_king(cards[p])
        )
        v = (len(places) + 0.7 * _uncovered(mask, places) + 0.3 * min(follow, 3)
             - 4.0 * stranded + temperature * _gumbel(rng))
        if v > best_v:
            best, best_v = (a, b), v
    return best


def play_pyramid(
    cards: Sequence[Card], rng: random.Random, model: str = "careful", *,
    passes: int | None = None, record: bool = False,
) -> Playout:
    """Play one Pyramid game: remove kings and pairs, else draw, else recycle.

    The policy sees the pyramid, the waste top and the foundation; the stock order is read
    only here, when a card is drawn. The player stops after a whole pass through stock and
    waste without an available removal (nothing can change any more), or when the passes of
    the variant run out.
    """
    size = pyr_rules.SIZE
    pyr = list(cards[:size])  # the card dealt to each place
    mask = pyr_rules.FULL
    stock = list(reversed(cards[size:]))
    waste: list[Card] = []
    foundation = [0] * 14  # removed cards by value
    recycles = 0
    idle = 0
    out: list[str] = []
    careful = model == "careful"
    while not pyr_rules.is_won(mask):
        acc = _free(mask)
        top = waste[-1] if waste else EMPTY
        king = next((p for p in acc if pyr_rules.is_king(pyr[p])), None)
        if king is not None:
            if record:
                out.append(PyramidNotation.king(pyr[king]))
            foundation[KING] += 1
            mask &= ~(1 << king)
            idle = 0
            continue
        if top != EMPTY and pyr_rules.is_king(top):
            if record:
                out.append(PyramidNotation.king(top))
            foundation[KING] += 1
            waste.pop()
            continue
        pairs = pyr_rules.pairs(pyr, acc, top)
        if pairs:
            if careful:
                a, b = pyramid_careful_choice(pyr, mask, pairs, foundation, top, rng)
            else:
                a, b = pairs[rng.randrange(len(pairs))]
            ca = pyr[a]
            cb = waste.pop() if b < 0 else pyr[b]
            if record:
                out.append(PyramidNotation.pair(ca, cb))
            foundation[_value(ca)] += 1
            foundation[_value(cb)] += 1
            mask &= ~(1 << a)
            if b >= 0:
                mask &= ~(1 << b)
            idle = 0
            continue
        if idle > len(stock) + len(waste):
            break  # a whole cycle without any possible removal: blocked
        if stock:
            pyr_rules.draw(stock, waste)
            idle += 1
            if record:
                out.append(PyramidNotation.DRAW)
        elif waste and pyr_rules.may_recycle(passes, recycles):
            pyr_rules.recycle(stock, waste)
            recycles += 1
            if record:
                out.append(PyramidNotation.RECYCLE)
        else:
            break
        if recycles > 60:  # cannot happen with the stop rule above; a safety net
            break
    return Playout(pyr_rules.is_won(mask), mask.bit_count(), out, recycles + 1)


# ---------------------------------------------------------------------------------------
# Gaps
# ---------------------------------------------------------------------------------------

COLS = gaps_rules.COLS
_kept = gaps_rules.score  # cards in kept sequences (the Gaps score)
_SUCCESSOR = gaps_rules.SUCCESSOR


def gaps_moves(cells: Sequence[Card]) -> list[tuple[Card, int]]:
    """Visible moves as (card, destination cell)."""
    return gaps_rules.place_moves(cells)


_COLUMN = tuple(g % COLS for g in range(gaps_rules.CELLS))


def _gaps_eval(cells: list[Card]) -> float:
    """Heuristic value of a board: kept cards count most, then cards already following
    their predecessor, then live gaps (a gap that some card can fill)."""
    kept = _kept(cells)
    follow = 0
    live = 0
    left = EMPTY  # the cell before (in column 1: the end of the row above, never read)
    for g, c in enumerate(cells):
        if c == EMPTY:
            if _COLUMN[g] == 0 or _SUCCESSOR[left] != EMPTY:
                live += 1
        elif left == c - 1 and _COLUMN[g] and not gaps_rules.is_two(c):
            follow += 1
        left = c
    return 3.0 * kept + 0.5 * follow + 0.8 * live


_gaps_apply = gaps_rules.move
_gaps_undo = gaps_rules.unmove


def _gaps_useless(cells: list[Card], pos: list[int], card: Card, dst: int) -> bool:
    """A 2 already heading its row's column 1 moving to another column 1 changes nothing."""
    return gaps_rules.is_two(card) and pos[card] % COLS == 0


def gaps_careful_choice(
    cells: list[Card], pos: list[int], moves: list[tuple[Card, int]], rng: random.Random,
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
    cells: list[Card], pos: list[int], moves: list[tuple[Card, int]], rng: random.Random,
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
    cards: Sequence[Card], seed: int | None, rng: random.Random, model: str = "careful", *,
    redeals: int = 2, record: bool = False, max_moves: int = 600,
) -> Playout:
    """Play one Gaps game: fill gaps until blocked, then redeal while redeals are left.

    The policy sees the board only; a redeal's result is computed here, by the rule of the
    game, after the player has committed to everything before it. A playout that runs past
    ``max_moves`` (a heuristic going round in circles) ends there, not won.
    """
    cells = gaps_rules.start_cells(cards)
    pos = gaps_rules.positions(cells)
    used = 0
    out: list[str] = []
    careful = model == "careful"
    played = 0
    while played < max_moves:
        if gaps_rules.is_won(cells):
            break
        moves = [m for m in gaps_moves(cells) if not _gaps_useless(cells, pos, *m)]
        if moves:
            if careful:
                card, dst = gaps_careful_choice(cells, pos, moves, rng)
            else:
                card, dst = gaps_casual_choice(cells, pos, moves, rng)
            if record:
                out.append(GapsNotation.place(card, dst))
            _gaps_apply(cells, pos, card, dst)
            played += 1
            continue
        if not gaps_rules.can_redeal(cells, redeals - used):
            break  # only pointless moves of 2s left, or no redeal: the game is over
        used += 1
        cells = gaps_rules.redeal(cells, seed, used)
        pos = gaps_rules.positions(cells)
        if record:
            out.append(GapsNotation.REDEAL)
    return Playout(gaps_rules.is_won(cells), _kept(cells), out)


# ---------------------------------------------------------------------------------------
# The entries of the games' rating models (``rating/models.py``): a playout of a game's
# deal with its variant's settings.
# ---------------------------------------------------------------------------------------

def accordion_player(
    game: Accordion, rng: random.Random, model: str, *, record: bool = False
) -> Playout:
    return play_accordion(game.cards, rng, model, jumps=game.ALLOWED_JUMPS,
                          open_deal=game.OPEN, record=record)


def pyramid_player(
    game: Pyramid, rng: random.Random, model: str, *, record: bool = False
) -> Playout:
    return play_pyramid(game.cards, rng, model, passes=game.PASSES, record=record)


def gaps_player(game: Gaps, rng: random.Random, model: str, *, record: bool = False) -> Playout:
    return play_gaps(game.cards, game.seed, rng, model, redeals=game.REDEALS, record=record)
