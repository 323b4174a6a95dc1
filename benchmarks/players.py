"""Player-model benchmark: CPU per deal of the rating playouts, and a digest of their results.

    .venv/bin/python benchmarks/players.py --game pyramid --deals 50

For ``--deals`` seeds of a SplitMix64 stream (``--stream``), both player models play the
playouts ``rate()`` and ``benchmarks/difficulty.py`` ask for (``careful``: the rating's
count, ``casual``: the validation's count). It prints the CPU seconds per deal of each model
and a SHA-256 digest of every playout statistic: two runs with the same digest gave the same
win rates, mean scores and passes on every deal, so the ratings built from them are equal.
No solver runs, so the deals need not be winnable; ``--json FILE`` writes the per-deal
figures for a closer comparison.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from dailydeal.games import GAMES, new_game
from dailydeal.rating import combine
from dailydeal.rating.features import PLAYOUTS, playout_stats
from dailydeal.shuffle import SplitMix64

CASUAL_PLAYOUTS = {"accordion": 100, "pyramid": 100, "gaps": 60}  # benchmarks/difficulty.py


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--stream", type=int, default=0xCA11B, help="seed of the seed stream")
    parser.add_argument("--json", type=Path, help="write the per-deal figures to this file")
    args = parser.parse_args(argv)
    records: list[dict[str, Any]] = []
    for game in args.game or list(GAMES):
        rng = SplitMix64(args.stream)
        seeds = [rng.next() for _ in range(args.deals)]
        cpu: dict[str, list[float]] = {"careful": [], "casual": []}
        digest = hashlib.sha256()
        for seed in seeds:
            position = new_game(game, seed)
            rec: dict[str, Any] = {"game": game, "seed": seed}
            for model, n in (("careful", PLAYOUTS[game]), ("casual", CASUAL_PLAYOUTS[game])):
                t0 = time.process_time()
                stats = playout_stats(position, model, n)
                cpu[model].append(time.process_time() - t0)
                rec[model] = stats
            careful = rec["careful"]
            rec["rating"] = combine(game, careful["win_rate"], careful["mean_score"],
                                    careful.get("mean_passes", 1.0))
            digest.update(json.dumps(rec, sort_keys=True).encode())
            records.append(rec)
        print(f"{game:<10} deals {len(seeds):>4}  "
              f"careful CPU/deal median {statistics.median(cpu['careful']):.4f} s "
              f"total {sum(cpu['careful']):.2f} s  "
              f"casual CPU/deal median {statistics.median(cpu['casual']):.4f} s "
              f"total {sum(cpu['casual']):.2f} s  digest {digest.hexdigest()[:16]}",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
