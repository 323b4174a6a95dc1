"""The cost of forging counted results on one deal (issue 25): a script posts a solver's win.

    .venv/bin/python benchmarks/forgery.py [--addresses 10] [--seconds 125] [--redis]
        [--legacy]

Starts gunicorn as it ships (benchmarks/servers.py, two workers,
``DAILYDEAL_TRUSTED_PROXIES=127.0.0.1`` so that each forging "address" is an
X-Forwarded-For value from a trusted loopback proxy), finds one of
today's stored deals the solver wins (the forger's CPU), then from each address runs the
strongest forgery the API allows, for ``--seconds``:

- default (plays): keep 12 play tokens in flight per address (``POST /deals/{id}/plays``),
  post the win with each as soon as its minimum play time is over, a fresh client id each
  time; a 425 or 429 waits its ``retry_after``;
- ``--legacy``: the API before issue 25, posting the win with a fresh client id and no
  token (run it with the main branch's Python to measure "before":
  ``/work/main/.venv/bin/python benchmarks/forgery.py --legacy``).

Prints the results counted, per address and minute, the CPU seconds of the server
(gunicorn master and workers, from /proc) and of the forger, and the cost of 1,000 counted
results extrapolated from the measured rate: address-minutes, minutes with the addresses
used, CPU seconds. The statistics of the deal are read at the end (what really counted).

``--redis`` starts a redis-server and makes it the rate-limit storage (one budget for both
workers, as in production with several workers); without it each worker counts its own
budget in memory (``memory://``), so two workers count up to twice the limit.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import redis_server, running  # noqa: E402

from dailydeal.solvers import WON, solve  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
COUNTED_AT: list[float] = []  # when each counted result was answered


def call(base: str, method: str, path: str, address: str,
         body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={
        "Content-Type": "application/json", "X-Forwarded-For": address})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its live children (gunicorn master and workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def winnable_deal(base: str) -> tuple[str, list[str]]:
    """One of today's deals and a solver's win of it (the forger's work)."""
    status, today = call(base, "GET", "/api/v1/daily/today", "192.0.2.1")
    if status == 302 or "deals" not in today:
        req = urllib.request.urlopen(base + "/api/v1/daily/today", timeout=30)
        today = json.loads(req.read())
    for deal in today["deals"]:
        result = solve(deal["game"], int(deal["seed"]), deal["variant"], time_limit=10)
        if result.status == WON:
            return deal["id"], result.moves
    raise RuntimeError("the solver won none of today's deals")


def forge(base: str, id_: str, win: list[str], address: str, deadline: float,
          legacy: bool, per_move: float, out: Counter[str]) -> None:
    need = len(win) * per_move + 0.05
    pending: deque[tuple[float, str]] = deque()
    n = 0
    while time.monotonic() < deadline:
        n += 1
        body: dict[str, Any] = {"client": f"forger-{address}-{n:08d}".replace(".", "-"),
                                "moves": win, "hints": 0, "seconds": 300}
        if not legacy:
            while len(pending) < 12:
                status, begun = call(base, "POST", f"/api/v1/deals/{id_}/plays", address, {})
                out[f"plays {status}"] += 1
                if status != 201:
                    break
                pending.append((time.monotonic(), begun["play"]))
            if not pending:
                time.sleep(1)
                continue
            issued, token = pending[0]
            wait = issued + need - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, max(0.0, deadline - time.monotonic())))
                continue
            body["play"] = token
        status, answer = call(base, "POST", f"/api/v1/deals/{id_}/results", address, body)
        out[f"results {status}"] += 1
        if status == 201:
            out["counted"] += 1
            COUNTED_AT.append(time.monotonic())
            if pending:
                pending.popleft()
        elif status in (425, 429):
            wait = float(answer.get("retry_after") or 5)
            time.sleep(min(wait, max(0.0, deadline - time.monotonic())))
        elif pending:
            pending.popleft()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=125)
    parser.add_argument("--redis", action="store_true", help="rate limits in redis-server")
    parser.add_argument("--legacy", action="store_true", help="no play tokens (before)")
    parser.add_argument("--per-move", type=float, default=0.5,
                        help="the server's DAILYDEAL_MIN_SECONDS_PER_MOVE")
    args = parser.parse_args()
    env = {"DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1", "DAILYDEAL_WORKERS": "2",
           "DAILYDEAL_VERIFY_LIMIT": "100000 per minute"}
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if args.redis:
            url = stack.enter_context(redis_server(tmp))
            if url is None:
                raise SystemExit("--redis needs redis-server (apt-get install redis-server)")
            env["DAILYDEAL_RATELIMIT_STORAGE"] = url
        base, pid = stack.enter_context(running("gunicorn", Path(tmp), env=env))
        cpu0 = time.process_time()
        id_, win = winnable_deal(base)
        solve_cpu = time.process_time() - cpu0
        out: Counter[str] = Counter()
        server0, client0, start = cpu_seconds(pid), time.process_time(), time.monotonic()
        deadline = start + args.seconds
        threads = [threading.Thread(target=forge, args=(
            base, id_, win, f"10.66.{i // 250}.{i % 250 + 1}", deadline, args.legacy,
            args.per_move, out)) for i in range(args.addresses)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        server_cpu = cpu_seconds(pid) - server0
        client_cpu = time.process_time() - client0
        _, stats = call(base, "GET", f"/api/v1/deals/{id_}/stats", "192.0.2.2")
    counted = out["counted"]
    rate = counted / args.addresses / (elapsed / 60)  # per address and minute
    print(f"mode: {'legacy (no play tokens)' if args.legacy else 'plays (issue 25)'}, "
          f"rate limits in {'redis' if args.redis else 'memory (per worker)'}")
    print(f"deal: {id_} ({len(win)} moves, solved in {solve_cpu:.2f} s CPU)")
    print(f"addresses: {args.addresses}, seconds: {elapsed:.1f}")
    print(f"answers: {dict(sorted(out.items()))}")
    last = f", the last {max(COUNTED_AT) - start:.1f} s after the start" if COUNTED_AT else ""
    print(f"counted: {counted} (stats plays: {stats.get('plays')}){last}")
    print(f"counted per address per minute: {rate:.2f}")
    print(f"server CPU: {server_cpu:.2f} s, forger CPU: {client_cpu:.2f} s")
    if counted:
        per = 1000 / counted
        print(f"1,000 counted results: {1000 / rate:.0f} address-minutes "
              f"({1000 / rate / args.addresses:.1f} min with {args.addresses} addresses, "
              f"{1000 / rate / 60:.1f} min with 60), server CPU {server_cpu * per:.1f} s, "
              f"forger CPU {client_cpu * per:.1f} s + {solve_cpu:.2f} s to solve once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
