"""Tests of the difficulty rating: player models, features, tiers, rate() and the CLI."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import dailydeal.rating as rating_mod
from dailydeal import cards as C
from dailydeal.cli import main
from dailydeal.games import GAMES, new_game
from dailydeal.games.base import LOST, WON
from dailydeal.rating import TIERS, Rating, combine, rate, thresholds, tier_of
from dailydeal.rating.features import play, playout_rng, playout_stats
from dailydeal.rating.players import MODELS, play_accordion, play_gaps, play_pyramid
from dailydeal.shuffle import shuffled_deck
from dailydeal.solvers import SolveResult

GAME_NAMES = list(GAMES)
# A fake solver result: lets rate() skip solving where the test is about the playouts.
WON_RESULT = SolveResult("won", ["x"], 1)


# --- the player models play by the rules -------------------------------------------------

@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("model", MODELS)
def test_playouts_are_legal_and_scored_like_the_engine(name: str, model: str) -> None:
    """Every recorded move replays through the rule engine; the end state agrees."""
    for seed in range(3):
        game = new_game(name, seed)
        playout = play(game, model, random.Random(seed), record=True)
        for text in playout.moves:
            game.push(game.parse_move(text))  # raises IllegalMoveError on a bad move
        assert game.score() == playout.score
        assert (game.status() == WON) == playout.won
        if not playout.won:
            assert game.status() == LOST  # the model played on until nothing was left


@pytest.mark.parametrize(
    ("name", "seed", "variant", "rng"),
    [
        ("accordion", 5, "forced", 1),
        ("accordion", 5, "open", 1),
        ("pyramid", 7, "passes=1", 2),  # the engine refuses a pass past the limit
        ("pyramid", 7, "passes=3", 2),
        ("gaps", 9, "redeals=0", 3),
        ("gaps", 9, "redeals=3", 3),
    ],
)
def test_variants_are_played_within_their_limits(
    name: str, seed: int, variant: str, rng: int
) -> None:
    game = new_game(name, seed, variant)
    playout = play(game, "careful", random.Random(rng), record=True)
    for text in playout.moves:
        game.push(game.parse_move(text))
    assert playout.moves.count("R") <= getattr(game, "REDEALS", 0)  # no redeal but Gaps's
    assert game.score() == playout.score


# --- the player models do not read hidden information ------------------------------------

def _prefix_until(moves: list[str], marker: str, count: int) -> list[str]:
    """The moves before the ``count``-th occurrence of ``marker`` (all if fewer)."""
    seen = 0
    for i, m in enumerate(moves):
        if m == marker:
            seen += 1
            if seen == count:
                return moves[:i]
    return moves


# (how a game plays, the cards on the table at the start, the fewest and most cards dealt or
# drawn): the cards not dealt yet (Accordion) or the stock not drawn yet (Pyramid)
UNSEEN = [
    pytest.param(play_accordion, 0, 1, 51, id="accordion-undealt"),
    pytest.param(play_pyramid, 28, 0, 23, id="pyramid-stock"),
]


@pytest.mark.parametrize(("play", "table", "fewest", "most"), UNSEEN)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_choices_ignore_the_cards_not_seen_yet(
    play: Callable[..., Any], table: int, fewest: int, most: int, seed: int,
    data: st.DataObject,
) -> None:
    """Permuting the cards not seen yet changes nothing before the next one is dealt or
    drawn."""
    seen = data.draw(st.integers(fewest, most))
    cards = shuffled_deck(seed)
    cut = table + seen
    tail = data.draw(st.permutations(cards[cut:]))
    other = cards[:cut] + list(tail)
    for model in MODELS:
        a = play(cards, random.Random(seed), model, record=True).moves
        b = play(other, random.Random(seed), model, record=True).moves
        assert _prefix_until(a, "d", seen + 1) == _prefix_until(b, "d", seen + 1)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_gaps_choices_ignore_redeal_results(seed: int) -> None:
    """The redeals depend on the seed: another seed with the same cards redeals otherwise,
    and the moves before the first redeal must not change."""
    cards = shuffled_deck(seed)
    for model in MODELS:
        a = play_gaps(cards, seed, random.Random(seed), model, record=True).moves
        b = play_gaps(cards, seed + 1, random.Random(seed), model, record=True).moves
        assert "R" in a  # the test means something only if a redeal happened
        assert _prefix_until(a, "R", 1) == _prefix_until(b, "R", 1)


# --- features and the rating -------------------------------------------------------------

def test_playouts_are_seeded_by_the_deal() -> None:
    game = new_game("pyramid", 3)
    again = new_game("pyramid", 3)
    assert playout_stats(game, n=20) == playout_stats(again, n=20)
    assert playout_rng(game, "careful", 0).random() != playout_rng(game, "careful", 1).random()


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(GAME_NAMES),
    win=st.floats(0, 1),
    score=st.floats(0, 52),
)
def test_combine_is_within_range(name: str, win: float, score: float) -> None:
    assert 0.0 <= combine(name, win, score) <= 100.0


@settings(max_examples=100, deadline=None)
@given(win=st.floats(0, 0.99), score=st.floats(0, 27))
def test_doing_better_never_raises_the_rating(win: float, score: float) -> None:
    """More wins, fewer cards left (Pyramid, Accordion), more cards built (Gaps): not harder."""
    assert combine("pyramid", win + 0.01, score) <= combine("pyramid", win, score)
    assert combine("pyramid", win, score) <= combine("pyramid", win, score + 1)
    assert combine("accordion", 0, score + 1) <= combine("accordion", 0, score + 2)
    assert combine("gaps", win, score + 1) <= combine("gaps", win, score)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_thresholds_are_calibrated_and_ordered(name: str) -> None:
    data = rating_mod.calibration()
    entry = data["games"][name]
    assert entry["deals"] > 0 and "calibrate.py" in data["command"]
    assert entry["model"] == rating_mod.model_version(name)  # recalibrate after a change
    t = thresholds(name)
    assert list(t) == sorted(t) and 0 <= t[0] and t[2] <= 100
    assert list(t) == entry["thresholds"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_tiers_follow_the_thresholds(name: str) -> None:
    t = thresholds(name)
    assert tier_of(name, 0.0) == "easy"
    assert tier_of(name, 100.0) == "expert"
    for k, limit in enumerate(t):
        assert tier_of(name, limit - 1e-6) == TIERS[k]
        assert tier_of(name, limit) == TIERS[k + 1]


def test_variants_share_the_default_thresholds() -> None:
    assert tier_of("GAPS", 50.0) == tier_of("gaps", 50.0)
    with pytest.raises(ValueError):
        tier_of("klondike", 50.0)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_rate_is_deterministic_and_in_range(name: str) -> None:
    first = rate(name, 11, solution=WON_RESULT)
    second = rate(name, 11, solution=WON_RESULT)
    assert first == second
    assert isinstance(first, Rating)
    assert 0.0 <= first.rating <= 100.0
    assert first.tier == tier_of(name, first.rating)
    assert first.features["solution_length"] == 1
    json.dumps(first.to_json())


def test_rate_uses_the_given_solution_instead_of_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> SolveResult:
        raise AssertionError("solved again")

    monkeypatch.setattr(rating_mod, "solve_position", boom)
    assert rate("accordion", 4, solution=WON_RESULT).features["solver_nodes"] == 1


def test_rate_solves_when_no_solution_is_given() -> None:
    result = rate("gaps", 2)
    assert result.features["solution_length"] > 1
    # the playouts do not depend on the solution: the same rating either way
    assert result.rating == rate("gaps", 2, solution=WON_RESULT).rating


def test_rate_accepts_explicit_cards() -> None:
    cards = [c for c in shuffled_deck(6)]
    by_cards = rate("pyramid", cards=cards, solution=WON_RESULT)
    assert 0.0 <= by_cards.rating <= 100.0


def test_unwinnable_deal_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not known to be winnable"):
        rate("pyramid", 0)  # the solver proves this deal lost
    for status in ("lost", "unknown"):
        with pytest.raises(ValueError, match=status):
            rate("gaps", 1, solution=SolveResult(status))


def test_rate_never_uses_the_validation_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The casual model validates the rating, so the rating must not be built from it."""
    from dailydeal.rating import players

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("casual model used")

    for fn in ("accordion_casual_choice", "gaps_casual_choice"):
        monkeypatch.setattr(players, fn, boom)
    for name in GAME_NAMES:
        rate(name, 8, solution=WON_RESULT)
    with pytest.raises(AssertionError):
        play(new_game("gaps", 8), "casual", random.Random(0))


# --- the command -------------------------------------------------------------------------

def test_cli_rate_json() -> None:
    out = CliRunner().invoke(main, ["rate", "gaps", "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert 0 <= data["rating"] <= 100
    assert data["tier"] == tier_of("gaps", data["rating"])
    assert data["thresholds"] == list(thresholds("gaps"))
    assert data["features"]["playouts"] > 0


def test_cli_rate_text_and_errors() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["rate", "accordion", "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert "rating:" in out.output and "tier:" in out.output and "player_mean_score" in out.output
    lost = runner.invoke(main, ["rate", "pyramid", "--seed", "0", "--json"])
    assert lost.exit_code == 1
    assert "not known to be winnable" in json.loads(lost.output)["error"]
    bad = runner.invoke(main, ["rate", "pyramid"])
    assert bad.exit_code != 0


def test_cli_rate_explicit_cards_and_variant() -> None:
    cards = " ".join(C.names(shuffled_deck(2)))
    runner = CliRunner()
    out = runner.invoke(main, ["rate", "gaps", "--cards", cards, "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["tier"] in TIERS
    variant = runner.invoke(main, ["rate", "gaps", "--seed", "2", "--variant", "redeals=3"])
    assert variant.exit_code == 0, variant.output
    assert "gaps (redeals=3)" in variant.output
