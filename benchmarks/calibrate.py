"""Calibrate the difficulty tiers: regenerate ``dailydeal/rating/tiers.json``.

    .venv/bin/python benchmarks/calibrate.py --deals 1000            # all three games
    .venv/bin/python benchmarks/calibrate.py --game pyramid --deals 1000
    .venv/bin/python benchmarks/calibrate.py --thresholds-only       # from the cache only

Seeds come from a SplitMix64 stream (``--stream``), so they look like daily seeds and not
the small seeds of the tests. Each seed is solved (the game's solver, with a time limit; the
generic search if that solver fails) and, when won, rated by ``dailydeal.rating.rate`` with
that solution; games are interleaved so that a run cut short (``--minutes``) leaves every
game with about as many deals. At most 2 worker processes (``--jobs``). Results are cached
one line per seed in ``<work>/<game>.jsonl``, so a run resumes where the last one stopped.

The thresholds of a game are the quartiles of the ratings of its winnable deals: about a
quarter of random winnable deals falls in each tier. Deals the solver leaves ``unknown`` are
skipped, as the daily pipeline skips them. ``benchmarks/difficulty.py`` validates the
result on the same deals with a second player model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from dailydeal.games import GAMES, default_variant
from dailydeal.shuffle import SplitMix64
from dailydeal.solvers import SolveResult, solve

DEFAULT_WORK = Path(os.environ.get("TMPDIR", "/tmp")) / "dailydeal-calibration"
DEFAULT_STREAM = 0xCA11B
SOLVE_TIME = {"accordion": 4.0, "pyramid": 2.0, "gaps": 4.0}
DATA_FILE = Path(__file__).resolve().parent.parent / "dailydeal" / "rating" / "tiers.json"


def seed_stream(stream: int) -> Iterator[int]:
    rng = SplitMix64(stream)
    while True:
        yield rng.next()


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut short by an interrupted run
                continue
    return out


def _solve_one(game: str, seed: int, limit: float) -> dict[str, Any]:
    """Solve with the game's solver; fall back on the generic search if that one fails."""
    solver = "auto"
    try:
        r = solve(game, seed, time_limit=limit)
    except Exception:  # a per-game solver under development must not stop calibration
        from dailydeal.games import new_game
        from dailydeal.solvers.base import Budget
        from dailydeal.solvers.generic import solve_game

        solver = "generic"
        r = solve_game(new_game(game, seed), Budget(time_limit=limit))
    return {"game": game, "seed": seed, "status": r.status, "moves": r.moves,
            "nodes": r.nodes, "seconds": round(r.seconds, 4), "solver": solver}


def _work_one(task: tuple[str, int, float, dict[str, Any] | None]) -> dict[str, Any]:
    """Solve a deal (unless cached) and rate it when it is won."""
    from dailydeal.rating import model_version, rate

    game, seed, limit, cached = task
    rec = cached or _solve_one(game, seed, limit)
    if rec["status"] == "won":
        sol = SolveResult(rec["status"], rec["moves"], rec["nodes"], rec["seconds"])
        t0 = time.process_time()
        r = rate(game, seed, solution=sol)
        rec["rating"] = r.rating
        rec["features"] = r.features
        rec["cpu"] = round(time.process_time() - t0, 4)
        rec["model"] = model_version(game)
    rec.pop("moves", None)
    return rec


def run(games: list[str], deals: int, work: Path, stream: int, jobs: int,
        until: float | None) -> dict[str, list[dict[str, Any]]]:
    """Solve and rate seeds of the stream, games interleaved, until each game has ``deals``
    rated winnable deals (or the clock reaches ``until``). Resumable from ``work``."""
    from dailydeal.rating import model_version

    state: dict[str, dict[str, Any]] = {}
    for game in games:
        path = work / f"{game}.jsonl"
        recs = [r for r in read_jsonl(path)
                if r["status"] != "won" or r.get("model") == model_version(game)]
        # <game>.solved.jsonl: optional solver results to reuse (seed -> record)
        solved = {r["seed"]: r for r in read_jsonl(work / f"{game}.solved.jsonl")}
        state[game] = {"recs": recs, "done": {r["seed"] for r in recs}, "solved": solved,
                       "seeds": seed_stream(stream), "out": path.open("a")}

    def won(game: str) -> int:
        return sum(r["status"] == "won" for r in state[game]["recs"])

    def tasks() -> Iterator[tuple[str, int, float, dict[str, Any] | None]]:
        while True:
            active = [g for g in games if won(g) < deals]
            if not active:
                return
            for game in active:
                st = state[game]
                seed = next(s for s in st["seeds"] if s not in st["done"])
                st["done"].add(seed)
                yield game, seed, SOLVE_TIME.get(game, 4.0), st["solved"].get(seed)

    started = time.time()
    todo = tasks()
    with Pool(jobs) as pool:
        # At most 2 tasks per worker in flight: the generator must see the counts up to date
        # (Pool.imap would drain it ahead and overshoot ``deals``).
        pending: list[Any] = []
        while True:
            while len(pending) < 2 * jobs:
                task = next(todo, None)
                if task is None:
                    break
                pending.append(pool.apply_async(_work_one, (task,)))
            if not pending:
                break
            pending[0].wait()
            rec = pending.pop(0).get()
            st = state[rec["game"]]
            st["recs"].append(rec)
            st["out"].write(json.dumps(rec) + "\n")
            st["out"].flush()
            if rec["status"] == "won" and won(rec["game"]) % 50 == 0:
                print(f"{rec['game']}: {won(rec['game'])} rated, {time.time() - started:.0f} s",
                      file=sys.stderr, flush=True)
            if until is not None and time.time() > until:
                print("time is up", file=sys.stderr, flush=True)
                pool.terminate()
                break
    out = {}
    for game in games:
        state[game]["out"].close()
        out[game] = [r for r in state[game]["recs"] if r["status"] == "won"][:deals]
    return out


def seeds_tried(work: Path, game: str, deals: int) -> dict[str, int]:
    """Solver outcomes of the seeds tried until ``deals`` rated winnable deals were found."""
    from dailydeal.rating import model_version

    counts = {"won": 0, "lost": 0, "unknown": 0}
    for r in read_jsonl(work / f"{game}.jsonl"):
        if counts["won"] >= deals:
            break
        if r["status"] == "won" and r.get("model") != model_version(game):
            continue
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return counts


def rated_records(work: Path, game: str) -> list[dict[str, Any]]:
    """The rated winnable deals of a calibration run (current model only)."""
    from dailydeal.rating import model_version

    return [r for r in read_jsonl(work / f"{game}.jsonl")
            if r["status"] == "won" and r.get("model") == model_version(game)]


def quartiles(values: list[float]) -> list[float]:
    """The 25th, 50th and 75th percentiles (linear interpolation between order statistics)."""
    xs = sorted(values)
    out = []
    for q in (0.25, 0.5, 0.75):
        pos = q * (len(xs) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(xs) - 1)
        out.append(round(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo), 3))
    return out


def ratings_of(game: str, rated: list[dict[str, Any]]) -> list[float]:
    """Ratings recomputed from the stored features with the current formula."""
    from dailydeal.rating import combine

    return [combine(game, r["features"]["player_win_rate"], r["features"]["player_mean_score"],
                    r["features"].get("player_mean_passes", 1.0))
            for r in rated]


def write_data_file(path: Path, game: str, rated: list[dict[str, Any]],
                    solved: dict[str, int], stream: int) -> None:
    from dailydeal.rating import model_version

    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("games", {})
    data.pop("model", None)  # model versions are per game
    data["command"] = "python benchmarks/calibrate.py --deals 1000"
    data["games"][game] = {
        "variant": default_variant(game),
        "model": model_version(game),
        "thresholds": quartiles(ratings_of(game, rated)),
        "deals": len(rated),
        "seeds_tried": sum(solved.values()),
        "solver_outcomes": solved,
        "seed_stream": stream,
        "solver_time_limit": SOLVE_TIME.get(game, 4.0),
        "calibrated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append",
                        help="game to calibrate (repeatable; default: all)")
    parser.add_argument("--deals", type=int, default=1000, help="winnable deals per game")
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2))
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="cache directory")
    parser.add_argument("--stream", type=int, default=DEFAULT_STREAM)
    parser.add_argument("--minutes", type=float, help="stop after this many minutes")
    parser.add_argument("--thresholds-only", action="store_true",
                        help="recompute the data file from the cached ratings only")
    parser.add_argument("--out", type=Path, default=DATA_FILE, help="data file to write")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    games = args.game or list(GAMES)
    if not args.thresholds_only:
        until = None if args.minutes is None else time.time() + 60 * args.minutes
        run(games, args.deals, args.work, args.stream, args.jobs, until)
    for game in games:
        rated = rated_records(args.work, game)[: args.deals]
        tried = seeds_tried(args.work, game, len(rated))
        if not rated:
            print(f"{game}: nothing rated yet", flush=True)
            continue
        write_data_file(args.out, game, rated, tried, args.stream)
        cpu = sorted(d["cpu"] for d in rated)
        print(f"{game}: thresholds {quartiles([ratings_of(game, rated)][0])} from "
              f"{len(rated)} winnable deals of {sum(tried.values())} seeds {tried}; "
              f"rating CPU median {cpu[len(cpu) // 2]:.3f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
