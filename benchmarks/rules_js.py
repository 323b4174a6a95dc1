"""The browser's rules against Python's, per move: microseconds of CPU to replay a line.

    .venv/bin/python benchmarks/rules_js.py --deals 20 --runs 5 --against HEAD~1

Lines are the solvers' solutions of ``--deals`` won deals of each game (default variants;
seeds from a stream of their own, found within ``--max-nodes``). Each line is replayed from
its deal, the work of a verdict: Python's ``verify()`` (``new_game`` then ``replay``) and
rules.js's (``newGame`` then verdict.js's ``replay``, in Node: benchmarks/rules_js.mjs, the
first round not counted, for the JIT). The figure is CPU seconds over moves replayed, in
microseconds; each of ``--runs`` runs measures Python and every rules.js in turn, and the
medians are printed, with the ratio of rules.js to Python; then rules.js's first round
alone (the JIT cold, as when a page replays one line), against Python's rounds.

``--against REV`` also measures rules.js and verdict.js as they were at a git revision
(before a change), side by side with the working tree's. Every verdict must be a valid
win, in Python and in each rules.js.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dailydeal import native
from dailydeal.games import GAMES
from dailydeal.solvers import WON, solve
from dailydeal.verify import verify

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "dailydeal" / "web" / "static"
DRIVER = Path(__file__).with_suffix(".mjs")
Line = dict[str, object]


def won_lines(game: str, deals: int, stream: int, max_nodes: int) -> list[Line]:
    """Solutions of ``deals`` won deals of ``game``'s default variant."""
    rng = random.Random(f"{stream}:{game}")
    lines: list[Line] = []
    while len(lines) < deals:
        seed = rng.getrandbits(64)
        result = solve(game, seed, max_nodes=max_nodes)
        if result.status == WON:
            lines.append({"game": game, "variant": None, "seed": str(seed),
                          "moves": result.moves})
    return lines


def python_us(lines: list[Line], rounds: int) -> float:
    """CPU microseconds per move of Python's verify() over ``lines``, ``rounds`` times."""
    moves = sum(len(line["moves"]) for line in lines)  # type: ignore[arg-type]
    start = time.process_time()
    for _ in range(rounds):
        for line in lines:
            verdict = verify(line["game"], int(line["seed"]), line["moves"])  # type: ignore[arg-type]
            assert verdict.valid and verdict.won, line
    return (time.process_time() - start) * 1e6 / (moves * rounds)


def node_us(folder: Path, lines: list[Line], rounds: int) -> tuple[float, float]:
    """CPU microseconds per move of rules.js in ``folder`` over ``lines`` (in Node), after
    its first round and in its first round."""
    out = subprocess.run(["node", str(DRIVER), str(folder), str(rounds)], input=json.dumps(lines),
                         capture_output=True, text=True, check=True).stdout
    answer = json.loads(out)
    bad = [v for v in answer["verdicts"] if v != "true/true"]
    assert not bad, f"{folder}: {len(bad)} lines not replayed as a valid win"
    return float(answer["us_per_move"]), float(answer["first_us_per_move"])


def folder_at(rev: str, into: Path) -> Path:
    """rules.js and verdict.js as they were at git revision ``rev``, in a folder."""
    into.mkdir()
    for name in ("rules.js", "verdict.js"):
        path = f"{rev}:dailydeal/web/static/{name}"
        text = subprocess.run(["git", "-C", str(ROOT), "show", path],
                              capture_output=True, text=True, check=True).stdout
        (into / name).write_text(text, encoding="utf-8")
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="won deals per game")
    parser.add_argument("--rounds", type=int, default=200, help="replays of every line per run")
    parser.add_argument("--runs", type=int, default=5, help="runs; the medians are printed")
    parser.add_argument("--stream", type=int, default=41)
    parser.add_argument("--max-nodes", type=int, default=200_000)
    parser.add_argument("--against", metavar="REV", help="also rules.js at this git revision")
    args = parser.parse_args(argv)
    if shutil.which("node") is None:
        print("node is not installed (apt-get install nodejs)", file=sys.stderr)
        return 1
    lines = {game: won_lines(game, args.deals, args.stream, args.max_nodes) for game in GAMES}
    with tempfile.TemporaryDirectory() as tmp:
        folders = {"rules.js": STATIC}
        if args.against:
            folders = {f"rules.js {args.against}": folder_at(args.against, Path(tmp) / "old"),
                       "rules.js now": STATIC}
        print(f"us of CPU per move, replaying the solutions of {args.deals} won deals a game "
              f"(default variants), {args.rounds} rounds, median of {args.runs} runs; "
              f"Python: verify(), build {native.BUILD}")
        head = f"{'game':10} {'moves':>6} {'python':>8}" + "".join(
            f" {name:>16} {'/ python':>8}" for name in folders)
        print(head)
        cold: list[str] = []
        for game, game_lines in lines.items():
            figures: dict[str, list[float]] = {"python": [], **{name: [] for name in folders}}
            first: dict[str, list[float]] = {name: [] for name in folders}
            for _ in range(args.runs):
                figures["python"].append(python_us(game_lines, args.rounds))
                for name, folder in folders.items():
                    warm, cold_us = node_us(folder, game_lines, args.rounds)
                    figures[name].append(warm)
                    first[name].append(cold_us)
            med = {name: statistics.median(values) for name, values in figures.items()}
            moves = sum(len(line["moves"]) for line in game_lines)  # type: ignore[arg-type]
            print(f"{game:10} {moves:6} {med['python']:8.2f}" + "".join(
                f" {med[name]:16.2f} {med[name] / med['python']:8.2f}" for name in folders))
            cold.append(f"{game:10} {moves:6} {med['python']:8.2f}" + "".join(
                f" {statistics.median(first[name]):16.2f}"
                f" {statistics.median(first[name]) / med['python']:8.2f}" for name in folders))
        print("the first round of rules.js alone (the JIT cold):")
        print(head)
        print("\n".join(cold))
    return 0


if __name__ == "__main__":
    sys.exit(main())
