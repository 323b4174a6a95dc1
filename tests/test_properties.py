"""Property tests (hypothesis) over random deals, variants and lines of play."""

from __future__ import annotations

from typing import Any

from helpers.naive import CANONICAL, NAIVE  # the naive rules (perft and properties)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dailydeal.games import GAMES, Game, new_game
from dailydeal.shuffle import MAX_SEED
from dailydeal.verify import verify

VARIANTS = [(g, v) for g, variants in GAMES.items() for v in variants]
SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

seeds = st.integers(0, MAX_SEED)
games = st.sampled_from(VARIANTS)
choices = st.lists(st.integers(0, 2**16), min_size=1, max_size=200)


def playout(name: str, variant: str, seed: int, picks: list[int]) -> Game[Any]:
    """Play the picked legal moves (each pick modulo the number of legal moves)."""
    game = new_game(name, seed, variant)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
    return game


@SETTINGS
@given(games, seeds, choices)
def test_random_legal_playouts_always_verify(
    gv: tuple[str, str], seed: int, picks: list[int]
) -> None:
    name, variant = gv
    game = playout(name, variant, seed, picks)
    texts = [str(m) for m in game.move_stack]
    verdict = verify(name, seed, texts, variant)
    assert verdict.valid and verdict.error is None
    assert verdict.moves == len(texts)
    game.finish()  # Accordion deals what is left in the stock, like the verifier
    assert verdict.state == game.status()
    assert verdict.won == (game.status() == "won")
    assert verdict.score == game.score()
    # The same list as JSON text and comma separated.
    as_json = "[" + ",".join(f'"{t}"' for t in texts) + "]"
    assert verify(name, seed, as_json, variant).to_json() == verdict.to_json()
    assert verify(name, seed, ", ".join(texts), variant).to_json() == verdict.to_json()


def universe(name: str) -> list[str]:
    """Every move text the notation of a game can express (Gaps: with explicit rows)."""
    if name == "accordion":
        return ["d"] + [f"{x}>{y}" for x in CANONICAL for y in CANONICAL if x != y]
    if name == "pyramid":
        pairs = [f"{x}+{y}" for n, x in enumerate(CANONICAL) for y in CANONICAL[n + 1 :]]
        return ["d", "r", *[k for k in CANONICAL if k[0] == "K"], *pairs]
    twos = [f"2{s}@{r}" for s in "SHDC" for r in "1234"]
    return ["R", *twos, *[c for c in CANONICAL if c[0] not in "A2"]]


UNIVERSE = {name: universe(name) for name in GAMES}


def illegal_candidates(name: str, naive: Any) -> list[str]:
    legal = set(naive.moves())
    out = [m for m in UNIVERSE[name] if m not in legal]
    if name == "accordion":
        # The verifier deals lazily to bring an undealt X into the row, so only moves of a
        # card already dealt are illegal whatever happens next.
        dealt = {c for pile in naive.piles for c in pile}
        out = [m for m in out if m == "d" or m.split(">")[0] in dealt]
    return out


@SETTINGS
@given(games, seeds, choices, st.integers(0, 2**16), st.integers(0, 2**20))
def test_one_illegal_move_is_rejected_at_exactly_its_index(
    gv: tuple[str, str], seed: int, picks: list[int], where: int, which: int
) -> None:
    name, variant = gv
    game = playout(name, variant, seed, picks)
    texts = [str(m) for m in game.move_stack]
    index = where % (len(texts) + 1)  # may also replace "one past the end" (an append)
    default = variant in ("standard", "relaxed")
    naive = NAIVE[name]([CANONICAL[c] for c in game.cards], None if default else variant, seed)
    for text in texts[:index]:
        naive.apply(text)
    candidates = illegal_candidates(name, naive)
    assume(candidates)  # only the empty Accordion row has none (every X is still undealt)
    bad = candidates[which % len(candidates)]
    sent = [*texts[:index], bad, *texts[index + 1 :]]
    verdict = verify(name, seed, sent, variant)
    assert not verdict.valid and not verdict.won
    assert verdict.error is not None
    assert verdict.error.index == index and verdict.error.move == bad
    assert verdict.moves == index
    reason = verdict.error.reason
    assert isinstance(reason, str) and 10 <= len(reason) <= 200
    assert "Traceback" not in reason and "object at 0x" not in reason


@SETTINGS
@given(games, seeds, choices)
def test_notation_round_trips_for_every_legal_move(
    gv: tuple[str, str], seed: int, picks: list[int]
) -> None:
    name, variant = gv
    game = new_game(name, seed, variant)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        for move in moves:
            text = str(move)
            assert game.parse_move(text) == move
            assert game.parse_move(text.lower()) == move
            assert game.parse_move(f"  {text} ") == move
            assert game.is_legal(move)
        game.push(moves[pick % len(moves)])


@SETTINGS
@given(games, seeds, choices)
def test_push_pop_restores_key_and_json(
    gv: tuple[str, str], seed: int, picks: list[int]
) -> None:
    name, variant = gv
    game = new_game(name, seed, variant)
    history = [(game.key(), game.to_json())]
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
        history.append((game.key(), game.to_json()))
    hash(game.key())
    while game.move_stack:
        game.pop()
        history.pop()
        assert (game.key(), game.to_json()) == history[-1]
    # A copy replays the same moves to the same position.
    replay = playout(name, variant, seed, picks)
    assert replay.copy().key() == replay.key()


@SETTINGS
@given(games, seeds)
def test_every_deal_json_holds_the_52_cards_once(gv: tuple[str, str], seed: int) -> None:
    name, variant = gv
    deal = new_game(name, seed, variant).deal_json()
    if name == "accordion":
        cards = deal["stock"]
    elif name == "pyramid":
        assert [len(row) for row in deal["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
        cards = [c for row in deal["pyramid"] for c in row] + deal["stock"]
    else:
        assert [len(row) for row in deal["rows"]] == [13] * 4
        flat = [c for row in deal["rows"] for c in row]
        assert flat.count(None) == 4
        cards = [c for c in flat if c is not None] + ["AS", "AH", "AD", "AC"]
    assert sorted(cards, key=CANONICAL.index) == CANONICAL


@SETTINGS
@given(seeds, choices)
def test_accordion_deals_may_be_left_out(seed: int, picks: list[int]) -> None:
    # docs/rules.md: dealing never removes an option, so the verifier may deal lazily. A legal
    # list with its deals removed must verify to the very same final position.
    game = playout("accordion", "standard", seed, picks)
    texts = [str(m) for m in game.move_stack]
    full = verify("accordion", seed, texts)
    lazy = verify("accordion", seed, [t for t in texts if t != "d"])
    assert full.valid and lazy.valid
    assert lazy.moves == len(texts) - texts.count("d")
    assert (lazy.state, lazy.score) == (full.state, full.score)
    assert full.game is not None and lazy.game is not None
    assert lazy.game.position_json() == full.game.position_json()
