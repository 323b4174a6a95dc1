"""Observed difficulty: the model's rating and tiers against the win rates players get.

    .venv/bin/python benchmarks/observed_difficulty.py --db data/dailydeal.db
    .venv/bin/python benchmarks/observed_difficulty.py --simulate --deals 12 --players 40

Per game, over the stored deals with at least ``--min-results`` results (table ``results``,
see docs/api.md), it prints Spearman's rank correlation between the rating (0..100, higher
is harder) and the observed win rate (a good rating gives a clearly negative value), and per
tier the deals, plays, wins and pooled win rate (which should fall from easy to expert),
next to the rating model's own predicted win rate (its ``player_win_rate`` feature) and the
players' mean score, whose correlation with the rating is shown too (Accordion players
seldom win: there the score is what orders the deals).

Until real players come, ``--simulate`` makes the players: a temporary database (or
``--db``, which must then be a scratch copy) gets stored-style deals (HMAC candidate seeds,
solved, rated and stored as the generator does) and, for every deal, ``--players`` games
played by a player model of ``dailydeal.rating.players`` (``casual`` by default: the model
the rating is NOT built on), each one verified and stored through the results code like a
posted result.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from difficulty import spearman  # noqa: E402

from dailydeal import results  # noqa: E402
from dailydeal.config import DAILY_GAMES  # noqa: E402
from dailydeal.daily import store  # noqa: E402
from dailydeal.daily.seeds import candidate_seeds  # noqa: E402
from dailydeal.games import new_game  # noqa: E402
from dailydeal.rating import TIERS, rate  # noqa: E402
from dailydeal.rating.features import play  # noqa: E402
from dailydeal.results import sqlite_store  # noqa: E402
from dailydeal.solvers import WON, solve  # noqa: E402

SECRET = b"observed-difficulty-benchmark"
START = dt.date(2026, 12, 1)


def make_deals(
    db: Any, per_game: int, games: tuple[tuple[str, str], ...] = DAILY_GAMES,
    max_nodes: int = 50_000,
) -> int:
    """Store ``per_game`` winnable, rated deals of each game (one per date, its first won
    candidate, at the tier its rating gives); returns the number stored."""
    stored = 0
    for game, variant in games:
        day = START
        made = 0
        while made < per_game:
            for attempt, seed in candidate_seeds(SECRET, day, game, variant):
                if attempt >= 20:
                    break
                solved = solve(game, seed, variant, max_nodes=max_nodes, time_limit=60)
                if solved.status != WON:
                    continue
                rating = rate(game, seed, variant, solution=solved)
                row = store.deal_row(day, game, variant, rating.tier, seed,
                                     rating=rating.rating, solution=solved.moves,
                                     version="observed-difficulty", features=rating.features,
                                     secret=SECRET)
                if store.insert_deal(db, row):
                    made += 1
                    stored += 1
                break
            day += dt.timedelta(days=1)
    return stored


def simulate(db: Any, players: int, model: str, seed: int = 1) -> int:
    """Every stored deal gets ``players`` results of ``model`` playouts, verified and stored
    as a posted result is; returns the number stored."""
    rng = random.Random(seed)
    now = dt.datetime.now(dt.UTC)
    count = 0
    for row in db.query("SELECT id FROM deals ORDER BY id"):
        deal = store.get_deal(db, row["id"])
        assert deal is not None
        position = new_game(deal["game"], deal["seed"], deal["variant"])
        for k in range(players):
            playout = play(position, model, rng, record=True)
            result, error = results.judge(deal, playout.moves, 0, None)
            if error is not None:  # a model's move the rules refuse: a bug, not a play
                raise AssertionError(f"{deal['id']}: {model} played {error}")
            inserted, _ = sqlite_store.record(db, deal["id"], f"simulated-{model}-{k:06d}", result,
                                         playout.moves, now)
            count += inserted
    return count


def observed(db: Any, min_results: int) -> dict[str, Any]:
    """Per game: deals with enough results, Spearman(rating, win rate), per-tier rates."""
    rows = db.query(
        "SELECT d.id, d.game, d.tier, d.rating, d.features, count(r.client) AS plays,"
        " coalesce(sum(r.won), 0) AS wins, avg(r.score) AS score FROM deals d LEFT JOIN results r"
        " ON r.deal_id = d.id GROUP BY d.id"
    )
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["plays"] >= min_results:
            by_game[r["game"]].append(dict(r))
    out: dict[str, Any] = {}
    for game, deals in sorted(by_game.items()):
        rates = [d["wins"] / d["plays"] for d in deals]
        tiers = {}
        for tier in TIERS:
            mine = [d for d in deals if d["tier"] == tier]
            if not mine:
                continue
            plays = sum(d["plays"] for d in mine)
            wins = sum(d["wins"] for d in mine)
            predicted = [_feature(d, "player_win_rate") for d in mine]
            known = [p for p in predicted if p is not None]
            tiers[tier] = {
                "deals": len(mine), "plays": plays, "wins": wins,
                "win_rate": round(wins / plays, 4),
                "mean_score": round(sum(d["score"] * d["plays"] for d in mine) / plays, 3),
                "model_win_rate": round(statistics.fmean(known), 4) if known else None,
            }
        ratings = [d["rating"] for d in deals]
        out[game] = {
            "deals": len(deals),
            "plays": sum(d["plays"] for d in deals),
            "spearman": _rho(ratings, rates),
            # the score too (docs/rules.md: piles left, pyramid cards left, cards built), for a
            # game whose players seldom win (Accordion): it still orders the deals
            "spearman_score": _rho(ratings, [d["score"] for d in deals]),
            "tiers": tiers,
        }
    return out


def _rho(a: list[float], b: list[float]) -> float | None:
    """Spearman's rho, None when it is undefined (fewer than 2 deals, or a constant)."""
    rho = spearman(a, b) if len(a) > 1 else float("nan")
    return None if math.isnan(rho) else round(rho, 4)


def _feature(deal: dict[str, Any], name: str) -> float | None:
    value = json.loads(deal["features"] or "{}").get(name)
    return float(value) if isinstance(value, (int, float)) else None


def print_report(report: dict[str, Any], min_results: int) -> None:
    print(f"observed difficulty (deals with at least {min_results} results)")
    for game, info in report.items():
        rho, rho_score = info["spearman"], info["spearman_score"]
        print(f"{game}: {info['deals']} deals, {info['plays']} plays, "
              f"Spearman(rating, win rate) = {'n/a' if rho is None else f'{rho:+.3f}'}, "
              f"(rating, mean score) = {'n/a' if rho_score is None else f'{rho_score:+.3f}'}")
        for tier, t in info["tiers"].items():
            model = "n/a" if t["model_win_rate"] is None else f"{t['model_win_rate']:.3f}"
            print(f"  {tier:7} {t['deals']:3d} deals {t['plays']:6d} plays "
                  f"win rate {t['win_rate']:.3f} (rating model {model}) "
                  f"mean score {t['mean_score']:.1f}")
    if not report:
        print("no deal has enough results yet")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="the database (with --simulate: a scratch one)")
    parser.add_argument("--simulate", action="store_true", help="make deals and players")
    parser.add_argument("--deals", type=int, default=12, help="--simulate: deals per game")
    parser.add_argument("--players", type=int, default=40, help="--simulate: plays per deal")
    parser.add_argument("--model", default="casual", help="--simulate: the player model")
    parser.add_argument("--min-results", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.simulate and args.db is None:
        parser.error("give --db, or --simulate")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "observed.db"
        db = store.open_db(path)
        try:
            if args.simulate:
                made = make_deals(db, args.deals)
                plays = simulate(db, args.players, args.model)
                print(f"simulated: {made} deals stored, {plays} {args.model} results stored")
            print_report(observed(db, args.min_results), args.min_results)
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
