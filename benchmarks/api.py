"""API load benchmark: requests/s and latency percentiles under gunicorn, measured by wrk.

    .venv/bin/python benchmarks/api.py [--duration 10] [--connections 16] [--workers 2]

Fills a temporary database with today's deals (a real solver solution per game), starts
the real gunicorn from deploy/gunicorn.conf.py on a free loopback port, and runs wrk
(Debian package `wrk`) against:

- GET  /api/v1/daily/{today}/{game}/{tier}  (a dated deal: JSON + ETag, no If-None-Match)
- POST /api/v1/deals/{id}/verify            with the full winning solution (a lua script)

The verify rate limit is raised out of the way (DAILYDEAL_VERIFY_LIMIT) but the limiter
still runs, as in production. Every response must be a 200; wrk's count of others is shown.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from dailydeal.daily.store import deal_id, deal_row, insert_deal, open_db
from dailydeal.games import default_variant
from dailydeal.rating import TIERS
from dailydeal.solvers import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import running  # noqa: E402

QUIET = ("--access-logfile", "/dev/null")  # no access log: measure the API, not the disk


def fill(db_path: Path, game: str, day: dt.date) -> tuple[int, list[str]]:
    """Store the four tiers of ``game`` on ``day`` with a real solution; (seed, moves)."""
    for seed in range(1, 50):
        result = solve(game, seed, time_limit=5)
        if result.status == "won":
            break
    else:
        raise SystemExit(f"no {game} seed solved")
    db = open_db(db_path)
    variant = default_variant(game)
    for tier in TIERS:
        insert_deal(
            db,
            deal_row(
                day, game, variant, tier, seed, rating=50.0, solution=result.moves, version="bench"
            ),
        )
    db.close()
    return seed, result.moves


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def _ms(text: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    if not m:
        raise ValueError(text)
    return float(m.group(1)) * _UNITS[m.group(2)]


def run_wrk(url: str, args: argparse.Namespace, script: Path | None = None) -> dict[str, Any]:
    cmd = [
        "wrk",
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{args.duration}s",
        "--latency",
        "--timeout",
        "10s",
    ]
    if script is not None:
        cmd += ["-s", str(script)]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    pct = {p: _ms(v) for p, v in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M)}
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "command": " ".join([*cmd, url]),
        "requests": total,
        "rps": rps,
        "p50_ms": pct.get("50"),
        "p90_ms": pct.get("90"),
        "p99_ms": pct.get("99"),
        "non_2xx": int(bad.group(1)) if bad else 0,
        "socket_errors": errors.group(1) if errors else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per endpoint")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--game", default="gaps", help="game of the deals (gaps: longest)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk not found: apt-get install wrk")

    tmp = Path(tempfile.mkdtemp(prefix="dailydeal-bench-"))
    today = dt.datetime.now(dt.UTC).date()
    seed, moves = fill(tmp / "dailydeal.db", args.game, today)
    env = {
        "DAILYDEAL_WORKERS": str(args.workers),
        "DAILYDEAL_VERIFY_LIMIT": "100000000 per minute",
        "DAILYDEAL_LOGLEVEL": "warning",
    }
    try:
        with running("gunicorn", tmp, env=env, args=QUIET) as (root, _):
            base = f"{root}/api/v1"
            id_ = deal_id(today, args.game, "hard")
            body = json.dumps({"moves": moves})
            script = tmp / "verify.lua"
            script.write_text(
                'wrk.method = "POST"\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
                f"wrk.body = {json.dumps(body)}\n"
            )
            check = urllib.request.Request(
                f"{base}/deals/{id_}/verify",
                data=body.encode(),
                headers={"Content-Type": "application/json"},
            )
            verdict = json.loads(urllib.request.urlopen(check).read())
            assert verdict["won"], verdict
            results = {
                "setup": {
                    "game": args.game,
                    "seed": seed,
                    "solution_moves": len(moves),
                    "body_bytes": len(body),
                    "workers": args.workers,
                    "worker_class": "gevent (dailydeal.web.worker)",
                    "cpus": os.cpu_count(),
                },
                "get_daily_deal": run_wrk(f"{base}/daily/{today}/{args.game}/hard", args),
                "post_verify": run_wrk(f"{base}/deals/{id_}/verify", args, script),
            }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        s = results["setup"]
        print(
            f"{s['game']} seed {s['seed']}: solution of {s['solution_moves']} moves "
            f"({s['body_bytes']} bytes); gunicorn {s['workers']} workers, {s['cpus']} CPUs"
        )
        print(
            f"{'endpoint':<16} {'requests':>9} {'req/s':>9} {'p50 ms':>8} {'p90 ms':>8} "
            f"{'p99 ms':>8} {'non-2xx':>8}"
        )
        for name in ("get_daily_deal", "post_verify"):
            r = results[name]
            print(
                f"{name:<16} {r['requests']:>9} {r['rps']:>9.1f} {r['p50_ms']:>8.2f} "
                f"{r['p90_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['non_2xx']:>8}"
            )
        for name in ("get_daily_deal", "post_verify"):
            print(f"  {results[name]['command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
