"""The cost of forging counted results on one deal (issues 25, 38, 39): a script posts a
solver's win; and how long honest players behind one address wait to be counted.

    .venv/bin/python benchmarks/forgery.py --redis [--addresses 10] [--target 1000] [--v6]
    .venv/bin/python benchmarks/forgery.py --redis --wait [--seconds 125]   # issue 25's
    .venv/bin/python benchmarks/forgery.py --honest 1000 [--spread 0] [--play 5-20]

Starts gunicorn as it ships (benchmarks/servers.py, two workers,
``DAILYDEAL_TRUSTED_PROXIES=127.0.0.1`` so that each forging "address" is an
X-Forwarded-For value from a trusted loopback proxy), finds one of
today's stored deals the solver wins (the forger's CPU), then from each address runs the
strongest forgery the API allows, for ``--seconds``:

- default (stockpile, issues 38 and 39): each address first fetches its share of
  ``--target`` play tokens and lets them age past their least play time (a stockpile), then
  posts the win with each as fast as the API takes posts (``DAILYDEAL_RESULTS_LIMIT``), a
  fresh client id each time. The server takes each at once and names its ``counts_at``
  (one turn a minute per network and deal): the cost of ``--target`` counted results is the
  addresses x the minutes from the first post to the last ``counts_at``, read from the
  server's own schedule (the statistics at the end hold exactly those due by then).
  ``--v6``: the addresses are IPv6 addresses of one /64 (one network);
- ``--wait`` (issue 25's forger): keep 12 play tokens in flight per address
  (``POST /deals/{id}/plays``), post the win with each as soon as its minimum play time is
  over; a 425 or 429 waits its ``retry_after``; the rate is what the statistics counted
  within ``--seconds``;
- ``--legacy``: the API before issue 25, posting the win with a fresh client id and no
  token (run it with the main branch's Python to measure "before":
  ``/work/main/.venv/bin/python benchmarks/forgery.py --legacy``).

Prints the results counted, per address and minute, the CPU seconds of the server
(gunicorn master and workers, from /proc) and of the forger, and the cost of 1,000 counted
results: address-minutes, minutes with the addresses used, CPU seconds. The statistics of
the deal are read at the end (what really counted).

``--honest N`` runs the API in this process with a clock of its own (a day passes in
seconds): N players behind one address begin a play over ``--spread`` minutes, play
``--play`` minutes each (uniform), and post their result once, never again. It prints when
the last is counted (minutes after the first post), each player's wait from the post to
its count (p50, p95, max), and whether the answer to every post already held the player's
play in its statistics (the line the player sees at once).

``--redis`` starts a redis-server and makes it the rate-limit storage (one budget for both
workers, as in production with several workers); without it each worker counts its own
budget in memory (``memory://``), so two workers count up to twice the limit.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
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
        if status in (201, 202):
            out["taken"] += 1
            COUNTED_AT.append(time.monotonic())
            if pending:
                pending.popleft()
        elif status in (425, 429):
            wait = float(answer.get("retry_after") or 5)
            time.sleep(min(wait, max(0.0, deadline - time.monotonic())))
        elif pending:
            pending.popleft()


STOCK: list[float] = []  # counts_at of each forged result taken (Unix seconds)


def stockpile(base: str, id_: str, win: list[str], address: str, tokens: int,
              out: Counter[str]) -> list[str]:
    """Phase 1: ``tokens`` play tokens fetched from ``address`` (before the clock starts)."""
    got = []
    while len(got) < tokens:
        status, begun = call(base, "POST", f"/api/v1/deals/{id_}/plays", address, {})
        out[f"plays {status}"] += 1
        if status == 201:
            got.append(begun["play"])
        else:
            time.sleep(1)
    return got


def post_all(base: str, id_: str, win: list[str], address: str, tokens: list[str],
             out: Counter[str]) -> None:
    """Phase 2: the win posted with every token as fast as the API takes posts."""
    for n, token in enumerate(tokens):
        while True:
            body = {"client": f"forger-{address}-{n:08d}".replace(".", "-").replace(":", "-"),
                    "moves": win, "play": token}
            status, answer = call(base, "POST", f"/api/v1/deals/{id_}/results", address, body)
            out[f"results {status}"] += 1
            if status in (201, 202):
                STOCK.append(dt.datetime.fromisoformat(answer["counts_at"]).timestamp())
                break
            if status == 429 and answer.get("reason") != "counted-limit":
                time.sleep(float(answer.get("retry_after") or 1))  # the posts' budget
                continue
            break


def forge_stockpile(args: argparse.Namespace, base: str, id_: str, win: list[str],
                    pid: int) -> None:
    out: Counter[str] = Counter()
    per = -(-args.target // args.addresses)
    if args.v6:
        addresses = [f"2001:db8:66:1::{i + 1:x}" for i in range(args.addresses)]
    else:
        addresses = [f"10.66.{i // 250}.{i % 250 + 1}" for i in range(args.addresses)]
    piles: dict[str, list[str]] = {}

    def fetch(a: str) -> None:
        piles[a] = stockpile(base, id_, win, a, per, out)

    threads = [threading.Thread(target=fetch, args=(a,)) for a in addresses]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    warm = len(win) * args.per_move + 1
    print(f"stockpile: {per} tokens from each of {len(addresses)} addresses; "
          f"aging {warm:.0f} s past their least play time", flush=True)
    time.sleep(warm)
    server0, client0 = cpu_seconds(pid), time.process_time()
    start_wall, start = time.time(), time.monotonic()
    threads = [threading.Thread(target=post_all, args=(base, id_, win, a, piles[a], out))
               for a in addresses]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    posting = time.monotonic() - start
    server_cpu, client_cpu = cpu_seconds(pid) - server0, time.process_time() - client0
    _, stats = call(base, "GET", f"/api/v1/deals/{id_}/stats", "192.0.2.2")
    now = time.time()
    due = sum(1 for at in STOCK if at <= now)
    taken = len(STOCK)
    last = (max(STOCK) - start_wall) / 60 if STOCK else float("nan")
    networks = 1 if args.v6 else len(addresses)
    print(f"mode: stockpile ({'one IPv6 /64' if args.v6 else 'IPv4 addresses'}), "
          f"results taken: {taken} of {args.target}, posted in {posting:.1f} s")
    print(f"answers: {dict(sorted(out.items()))}")
    print(f"counted by the end: stats plays {stats.get('plays')} (pending "
          f"{stats.get('pending')}); counts_at due by then: {due}")
    print(f"the last of them counts {last:.1f} min after the first post")
    if taken:
        cost = len(addresses) * last * 1000 / taken
        print(f"1,000 counted results: {cost:.0f} address-minutes ({cost / len(addresses):.0f} "
              f"min with {len(addresses)} addresses, {networks} network(s)), server CPU "
              f"{server_cpu * 1000 / taken:.1f} s, forger CPU {client_cpu * 1000 / taken:.1f} s")


def honest(args: argparse.Namespace) -> None:
    """N players behind one address, in this process, on a clock of its own."""
    import random
    import statistics

    from servers import stock_db

    from dailydeal.web import create_app

    class Clock:
        def __init__(self) -> None:
            self.t = dt.datetime.now(dt.UTC).replace(hour=0, minute=5, second=0,
                                                     microsecond=0)

        def __call__(self) -> dt.datetime:
            return self.t

    clock = Clock()
    rng = random.Random(args.seed)
    low, high = (float(x) for x in args.play.split("-"))
    with tempfile.TemporaryDirectory() as tmp:
        db = stock_db(Path(tmp) / "dailydeal.db")
        app = create_app({"db_path": db, "NOW": clock, "TESTING": True,
                          "results_rate_limit": "100000 per day",
                          "stats_rate_limit": "100000 per day"})  # the probe's reads
        http = app.test_client()
        today = clock.t.date().isoformat()
        id_, win = "", []
        for game in ("accordion", "pyramid", "gaps"):
            row = http.get(f"/api/v1/deals/{today}-{game}-easy").get_json()
            result = solve(game, int(row["seed"]), row["variant"], time_limit=10)
            if result.status == WON:
                id_, win = row["id"], result.moves
                break
        assert id_, "no easy deal of today is won by the solver"
        env = {"REMOTE_ADDR": "192.0.2.44"}
        start = clock.t
        events = []  # (time, kind, player)
        for i in range(args.honest):
            begin = rng.uniform(0, args.spread * 60)
            events.append((begin, "begin", i))
            events.append((begin + rng.uniform(low, high) * 60, "post", i))
        events.sort()
        tokens: dict[int, str] = {}
        waits, held, last = [], 0, 0.0
        cpu0 = time.process_time()
        for at, kind, i in events:
            clock.t = start + dt.timedelta(seconds=at)
            if kind == "begin":
                tokens[i] = http.post(f"/api/v1/deals/{id_}/plays",
                                      environ_base=env).get_json()["play"]
                continue
            before = http.get(f"/api/v1/deals/{id_}/stats", environ_base=env).get_json()
            resp = http.post(f"/api/v1/deals/{id_}/results", environ_base=env, json={
                "client": f"colleague-{i:010d}", "moves": win, "play": tokens[i]})
            assert resp.status_code in (201, 202), resp.get_data(as_text=True)
            answer = resp.get_json()
            held += answer["stats"]["plays"] == before["plays"] + 1
            counted = dt.datetime.fromisoformat(answer["counts_at"])
            waits.append((counted - clock.t).total_seconds() / 60)
            last = max(last, (counted - start).total_seconds() / 60)
        first_post = min(at for at, kind, _ in events if kind == "post") / 60
        clock.t = start + dt.timedelta(minutes=last)
        stats = http.get(f"/api/v1/deals/{id_}/stats", environ_base=env).get_json()
        waits.sort()
        print(f"{args.honest} players behind one address, plays begun over {args.spread} min, "
              f"{args.play} min each, one post each (deal {id_}, {len(win)} moves)")
        print(f"all counted {last - first_post:.1f} min after the first post "
              f"({last:.1f} min after the first play began); stats then: plays "
              f"{stats['plays']}, pending {stats['pending']}")
        print(f"wait from a post to its count, minutes: p50 {statistics.median(waits):.1f}, "
              f"p95 {waits[int(0.95 * (len(waits) - 1))]:.1f}, max {waits[-1]:.1f}")
        print(f"answers whose statistics held the player's play: {held} of {len(waits)} "
              f"(0 s from the win to the line)")
        print(f"CPU of the API in process: {time.process_time() - cpu0:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=125)
    parser.add_argument("--redis", action="store_true", help="rate limits in redis-server")
    parser.add_argument("--legacy", action="store_true", help="no play tokens (before)")
    parser.add_argument("--per-move", type=float, default=0.5,
                        help="the server's DAILYDEAL_MIN_SECONDS_PER_MOVE")
    parser.add_argument("--wait", action="store_true",
                        help="issue 25's forger: tokens in flight, posted when old enough")
    parser.add_argument("--target", type=int, default=1000, help="results to forge")
    parser.add_argument("--v6", action="store_true", help="IPv6 addresses of one /64")
    parser.add_argument("--honest", type=int, help="N honest players behind one address")
    parser.add_argument("--spread", type=float, default=0,
                        help="minutes over which the honest players begin")
    parser.add_argument("--play", default="5-20", help="minutes a play lasts, LOW-HIGH")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.honest:
        honest(args)
        return 0
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
        if not (args.wait or args.legacy):
            print(f"deal: {id_} ({len(win)} moves, solved in {solve_cpu:.2f} s CPU)")
            forge_stockpile(args, base, id_, win, pid)
            return 0
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
    counted = int(stats.get("plays") or 0)
    rate = counted / args.addresses / (elapsed / 60)  # per address and minute
    print(f"mode: {'legacy (no play tokens)' if args.legacy else 'wait (issue 25)'}, "
          f"rate limits in {'redis' if args.redis else 'memory (per worker)'}")
    print(f"deal: {id_} ({len(win)} moves, solved in {solve_cpu:.2f} s CPU)")
    print(f"addresses: {args.addresses}, seconds: {elapsed:.1f}")
    print(f"answers: {dict(sorted(out.items()))}")
    last = f", the last {max(COUNTED_AT) - start:.1f} s after the start" if COUNTED_AT else ""
    print(f"taken: {out['taken']}, counted within the time: {counted} (pending "
          f"{stats.get('pending')}){last}")
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
