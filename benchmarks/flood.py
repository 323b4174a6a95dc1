"""A flood of cold hints against a real server: does a plain GET still answer at once?

    .venv/bin/python benchmarks/flood.py [--server serve|gunicorn] [--levels 0,4,16,64]
                                         [--duration 8] [--pause 0.1]

For each level N, a fresh server (``benchmarks/servers.py``: ``dailydeal serve`` or
``gunicorn -c deploy/gunicorn.conf.py`` on a free loopback port, a real SQLite file
stocked for the dates that are today somewhere) gets N clients that each keep one cold
Pyramid hint in flight (``POST /api/v1/games/pyramid/hint`` of a random seed,
``variant: passes=3``: nothing cached anywhere), asking the next one as soon as the
answer comes; a refused one (503, 429) waits its ``Retry-After`` before the next (or
``--pause`` seconds: ``--pause 0.1`` is a client that does not listen). Neither server
trusts a proxy here, so ``DAILYDEAL_HINT_LIMIT`` is set high instead of spreading
X-Forwarded-For addresses. A prober (a process of its own) meanwhile GETs a stored deal
(``/api/v1/deals/{id}``) every 50 ms on a new connection; printed per level: the probe's
p50/p99/max, and the hints answered (200), refused (503) and their mean latency.

Goal (issue 25): probe median < 50 ms and p99 < 250 ms with 16 and 64 hints in flight.
Loopback only; each level takes ``--duration`` seconds plus a server start. The figures
depend on the machine's other load: say so when quoting them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import multiprocessing
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import running  # noqa: E402
from solvers import percentile  # noqa: E402  (one nearest-rank rule)

PROBE_EVERY = 0.05  # seconds between two probes


def request(port: int, method: str, path: str, body: bytes | None = None,
            timeout: float = 60) -> tuple[int, float, str | None]:
    """(status, seconds, Retry-After) of one request on a new connection; status 0: no
    answer."""
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    retry = None
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        resp.read()
        status = resp.status
        retry = resp.getheader("Retry-After")
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - t0, retry


def flooder(port: int, stop: threading.Event, rng: random.Random, pause: float | None,
            out: list[tuple[int, float]]) -> None:
    while not stop.is_set():
        body = json.dumps({"seed": str(rng.getrandbits(64)), "variant": "passes=3",
                           "moves": []}).encode()
        status, seconds, retry = request(port, "POST", "/api/v1/games/pyramid/hint", body)
        out.append((status, seconds))
        if status != 200:
            # as told (Retry-After), or a fixed pause: a client that does not listen
            wait = pause if pause is not None else float(retry or 1)
            stop.wait(wait)


def probe_loop(port: int, path: str, duration: float, out: Any) -> None:
    """GET ``path`` every PROBE_EVERY s for ``duration`` s; put (latencies, failures)."""
    probes: list[float] = []
    failed = 0
    end = time.perf_counter() + duration
    while time.perf_counter() < end:
        status, seconds, _ = request(port, "GET", path, timeout=30)
        if status == 200:
            probes.append(seconds)
        else:
            failed += 1
        time.sleep(PROBE_EVERY)
    out.put((probes, failed))


def level(server: str, n: int, duration: float, pause: float | None, seed: int) -> dict[str, float]:
    env = {"DAILYDEAL_HINT_LIMIT": "1000000 per minute", "DAILYDEAL_LOGLEVEL": "warning"}
    with tempfile.TemporaryDirectory() as tmp, running(server, Path(tmp), env=env) as (base, _):
        port = int(base.rsplit(":", 1)[1])
        today = dt.datetime.now(dt.UTC).date()
        probe = f"/api/v1/deals/{today}-pyramid-easy"
        status, _, _ = request(port, "GET", probe)
        if status != 200:
            raise RuntimeError(f"probe {probe} answered {status}")
        stop = threading.Event()
        hints: list[tuple[int, float]] = []
        threads = [
            threading.Thread(target=flooder, args=(port, stop, random.Random(seed * 1000 + i),
                                                    pause, hints), daemon=True)
            for i in range(n)
        ]
        for t in threads:
            t.start()
        time.sleep(1.0 if n else 0)  # the flood under way
        # the prober is a process of its own: in this one it would wait for the GIL
        # behind the flooders' threads, and measure them rather than the server
        ctx = multiprocessing.get_context("spawn")
        results: Any = ctx.Queue()
        prober = ctx.Process(target=probe_loop, args=(port, probe, duration, results))
        prober.start()
        probes, failed = results.get(timeout=duration + 120)
        prober.join()
        stop.set()
        deadline = time.perf_counter() + 5  # then the server stops, with what is left
        for t in threads:
            t.join(timeout=max(0.0, deadline - time.perf_counter()))
        counts = Counter(s for s, _ in hints)
        served = [s for st, s in hints if st == 200]
        return {
            "n": n,
            "probes": len(probes),
            "failed": failed,
            "p50": percentile(probes, 50),
            "p99": percentile(probes, 99),
            "max": max(probes, default=0.0),
            "ok": counts[200],
            "refused": counts[503] + counts[429],
            "other": sum(v for k, v in counts.items() if k not in (200, 503, 429)),
            "hint_mean": sum(served) / len(served) if served else 0.0,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("serve", "gunicorn"), default="serve")
    parser.add_argument("--levels", default="0,4,16,64", help="hints in flight, per level")
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of probes")
    parser.add_argument("--pause", type=float,
                        help="seconds a refused flooder waits before its next hint "
                        "(default: the Retry-After it was given)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from dailydeal import native

    told = "Retry-After" if args.pause is None else f"{args.pause} s"
    print(f"flood: {args.server}, build {native.BUILD}, probe every "
          f"{PROBE_EVERY * 1000:.0f} ms for {args.duration:.0f} s per level; "
          f"a refused flooder waits {told}")
    print(f"{'in flight':>9} {'probes':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  "
          f"{'hints ok':>8} {'refused':>7} {'other':>5} {'hint mean ms':>12}")
    for n in (int(x) for x in args.levels.split(",")):
        r = level(args.server, n, args.duration, args.pause, args.seed)
        print(f"{n:9d} {r['probes']:6.0f} {1000 * r['p50']:8.1f} {1000 * r['p99']:8.1f} "
              f"{1000 * r['max']:8.1f}  {r['ok']:8.0f} {r['refused']:7.0f} {r['other']:5.0f} "
              f"{1000 * r['hint_mean']:12.1f}" + (f"  ({r['failed']:.0f} probes failed)"
                                                   if r["failed"] else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
