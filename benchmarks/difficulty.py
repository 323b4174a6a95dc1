"""Validate the difficulty rating with a second, different player model.

    .venv/bin/python benchmarks/difficulty.py                  # after benchmarks/calibrate.py
    .venv/bin/python benchmarks/difficulty.py --calibrate      # both steps, one command

For every calibration deal (the rated winnable deals cached by ``benchmarks/calibrate.py``)
the *casual* player model (``dailydeal.rating.players``; never used by ``rate()``) plays
``--playouts`` seeded games. Per game and tier the table shows that model's win rate and
mean score; the independent measure must get worse from easy to expert. Spearman's rank
correlation is between the rating and that measure over all the deals, and also between the
solver's figures and the measure (to show what they would add). At most 2 processes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import calibrate  # noqa: E402

from dailydeal.games import GAMES, new_game  # noqa: E402
from dailydeal.rating import TIERS, tier_of  # noqa: E402
from dailydeal.rating.features import playout_stats  # noqa: E402

# The independent measure per game: (key, label, True if higher is better for the player).
MEASURE = {
    "accordion": ("mean_score", "piles left", False),
    "pyramid": ("win_rate", "win rate", True),
    "gaps": ("mean_score", "cards built", True),
}
CASUAL_PLAYOUTS = {"accordion": 100, "pyramid": 100, "gaps": 60}


def ranks(xs: list[float]) -> list[float]:
    """Ranks 0..n-1, ties sharing their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the (tie-averaged) ranks."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def _casual(task: tuple[str, int, int]) -> dict[str, Any]:
    game, seed, n = task
    stats = playout_stats(new_game(game, seed), "casual", n)
    return {"seed": seed, "n": n, "win_rate": stats["win_rate"], "mean_score": stats["mean_score"]}


def casual_measures(game: str, seeds: list[int], work: Path, n: int, jobs: int) -> dict[int, Any]:
    """The casual model's results per deal (cached in ``<work>/<game>.casual.jsonl``)."""
    path = work / f"{game}.casual.jsonl"
    have = {r["seed"]: r for r in calibrate.read_jsonl(path) if r["n"] == n}
    todo = [(game, s, n) for s in seeds if s not in have]
    if todo:
        with path.open("a") as out, Pool(jobs) as pool:
            for rec in pool.imap_unordered(_casual, todo, chunksize=8):
                have[rec["seed"]] = rec
                out.write(json.dumps(rec) + "\n")
    return have


def report(game: str, rated: list[dict[str, Any]], casual: dict[int, Any]) -> dict[str, Any]:
    key, label, higher_better = MEASURE[game]
    ratings = calibrate.ratings_of(game, rated)
    measure = [casual[r["seed"]][key] for r in rated]
    print(f"\n## {game}: {len(rated)} winnable deals; casual model, "
          f"{CASUAL_PLAYOUTS[game]} playouts per deal; measure: {label}")
    print(f"{'tier':<8} {'deals':>6} {'rating':>13} {'win rate':>9} {'mean score':>11}")
    rows: list[dict[str, Any]] = []
    for tier in TIERS:
        idx = [i for i, x in enumerate(ratings) if tier_of(game, x) == tier]
        if not idx:
            print(f"{tier:<8} {0:>6}")
            continue
        lo, hi = min(ratings[i] for i in idx), max(ratings[i] for i in idx)
        win = statistics.fmean(casual[rated[i]["seed"]]["win_rate"] for i in idx)
        score = statistics.fmean(casual[rated[i]["seed"]]["mean_score"] for i in idx)
        rows.append({"tier": tier, "deals": len(idx), "rating_min": lo, "rating_max": hi,
                     "win_rate": win, "mean_score": score})
        print(f"{tier:<8} {len(idx):>6} {lo:>6.1f}-{hi:<6.1f} {win:>9.3f} {score:>11.2f}")
    values: list[float] = [row["win_rate" if key == "win_rate" else "mean_score"] for row in rows]
    pairs = list(zip(values, values[1:], strict=False))
    monotone = all((a > b) if higher_better else (a < b) for a, b in pairs)
    rho = spearman(ratings, measure)
    print(f"monotone ({label} {'falls' if higher_better else 'rises'} easy -> expert): "
          f"{'yes' if monotone else 'NO'}")
    print(f"Spearman(rating, casual {label}) = {rho:+.3f}")
    extra = {}
    for feat in ("player_win_rate", "player_mean_score", "solution_length", "solver_nodes",
                 "solution_recycles", "solution_redeals"):
        xs = [r["features"].get(feat) for r in rated]
        if all(x is not None for x in xs) and len(set(xs)) > 1:
            extra[feat] = spearman([float(x) for x in xs], measure)
    print("Spearman(feature, casual " + label + "): "
          + ", ".join(f"{k} {v:+.3f}" for k, v in extra.items()))
    cpu = sorted(r["cpu"] for r in rated)
    print(f"rating CPU per deal: median {cpu[len(cpu) // 2]:.3f} s, "
          f"90th percentile {cpu[int(0.9 * (len(cpu) - 1))]:.3f} s")
    return {"game": game, "deals": len(rated), "rows": rows, "monotone": monotone,
            "spearman": rho, "feature_spearman": extra}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=1000, help="deals per game at most")
    parser.add_argument("--work", type=Path, default=calibrate.DEFAULT_WORK)
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2))
    parser.add_argument("--calibrate", action="store_true",
                        help="run benchmarks/calibrate.py first (same --deals, --work)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = args.game or list(GAMES)
    if args.calibrate:
        cal = ["--deals", str(args.deals), "--work", str(args.work), "--jobs", str(args.jobs)]
        for g in games:
            cal += ["--game", g]
        calibrate.main(cal)
    started = time.time()
    out = []
    for game in games:
        rated = calibrate.rated_records(args.work, game)[: args.deals]
        if not rated:
            print(f"{game}: no rated deals in {args.work}; run benchmarks/calibrate.py first")
            continue
        n = CASUAL_PLAYOUTS[game]
        casual = casual_measures(game, [r["seed"] for r in rated], args.work, n, args.jobs)
        out.append(report(game, rated, casual))
    print(f"\n({time.time() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0 if all(r["monotone"] for r in out) else 1


if __name__ == "__main__":
    sys.exit(main())
