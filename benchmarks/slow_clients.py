"""Slow clients: many stalled connections held open while normal requests are probed.

    .venv/bin/python benchmarks/slow_clients.py [--kinds serve,entrypoint] [--stalled 200]
        [--hold 60] [--url http://host:port]

For each shipped way to run the API (benchmarks/servers.py: ``dailydeal serve``, the Docker
entrypoint's set-up run outside docker, or ``gunicorn -c deploy/gunicorn.conf.py``), on a
stocked database, it opens ``--stalled`` connections that never finish their request: half
send incomplete headers, half send full headers and a body short of its Content-Length. A
connection the server closes is opened again at once, so the count holds for ``--hold``
seconds. Meanwhile a normal client probes every 0.1 s (new connection each time: GET of the
games, a numbered deal, today's list, healthz, and a POST verify), 5 s timeout.

Prints, per server: the stalled connections held, how many the server closed (and were
reopened), the probes, failures, probes over 1 s and latency percentiles. Exit status 1 if
any probe failed or took over 1 s (the target of issue 9 item 1).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import KINDS, running  # noqa: E402

SLOW = 1.0  # seconds: a probe slower than this fails the target


def stall(host: str, port: int, i: int) -> socket.socket:
    """A connection that starts a request and never finishes it."""
    s = socket.create_connection((host, port), timeout=5)
    if i % 2 == 0:  # incomplete headers
        s.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    else:  # complete headers, a body short of its Content-Length
        s.sendall(
            b"POST /api/v1/games/gaps/verify HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
            b'{"seed": 1, "moves": ['
        )
    s.setblocking(False)
    return s


def closed(s: socket.socket) -> bool:
    """True once the server has closed (or reset) this connection."""
    try:
        data = s.recv(4096)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return data == b"" or closed(s)  # an answer (408, 400) followed by the close


PROBES: list[tuple[str, str, bytes | None]] = [
    ("GET", "/api/v1/games", None),
    ("GET", "/api/v1/games/gaps/deals/42", None),
    ("GET", "/api/v1/healthz", None),
    ("GET", "/api/v1/daily/today", None),
    ("POST", "/api/v1/games/pyramid/verify", json.dumps({"seed": 7, "moves": ["d"] * 5}).encode()),
]


def probe(host: str, port: int, method: str, path: str, body: bytes | None) -> float | None:
    """Seconds for one complete answer (any status below 500), None if it failed."""
    start = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=5)
    try:
        headers = {"Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        resp.read()
        if resp.status >= 500:
            return None
        return time.monotonic() - start
    except OSError:
        return None
    finally:
        conn.close()


def attack(base: str, stalled: int, hold: float) -> dict[str, Any]:
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    latencies: list[float] = []
    failures = 0
    stop = threading.Event()

    def prober() -> None:
        nonlocal failures
        rng = random.Random(1)
        while not stop.is_set():
            took = probe(host, port, *rng.choice(PROBES))
            if took is None:
                failures += 1
            else:
                latencies.append(took)
            stop.wait(0.1)

    conns: list[socket.socket] = []
    open_errors = 0
    for i in range(stalled):
        try:
            conns.append(stall(host, port, i))
        except OSError:
            open_errors += 1
    thread = threading.Thread(target=prober, daemon=True)
    thread.start()
    reopened = 0
    held: list[int] = []
    end = time.monotonic() + hold
    while time.monotonic() < end:
        for i, s in enumerate(conns):
            if closed(s):
                s.close()
                reopened += 1
                try:
                    conns[i] = stall(host, port, i)
                except OSError:
                    open_errors += 1
        held.append(len(conns))
        time.sleep(0.5)
    stop.set()
    thread.join()
    for s in conns:
        s.close()
    over = sum(t > SLOW for t in latencies)
    qs = [0.0] * 99
    if len(latencies) >= 2:
        qs = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "stalled": stalled,
        "held_min": min(held) if held else 0,
        "closed_by_server_and_reopened": reopened,
        "open_errors": open_errors,
        "probes": len(latencies) + failures,
        "failed": failures,
        "over_1s": over,
        "p50_ms": round(qs[49] * 1000, 1),
        "p90_ms": round(qs[89] * 1000, 1),
        "p99_ms": round(qs[98] * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="serve,entrypoint", help=f"of {','.join(KINDS)}")
    parser.add_argument("--stalled", type=int, default=200, help="stalled connections")
    parser.add_argument("--hold", type=float, default=60, help="seconds to hold them")
    parser.add_argument("--url", help="probe a running server instead of starting one")
    args = parser.parse_args()
    results = {}
    if args.url:
        results[args.url] = attack(args.url.rstrip("/"), args.stalled, args.hold)
    else:
        for kind in args.kinds.split(","):
            with tempfile.TemporaryDirectory() as tmp, running(kind, Path(tmp)) as (base, _):
                results[kind] = attack(base, args.stalled, args.hold)
    ok = True
    for name, r in results.items():
        print(f"{name}: " + ", ".join(f"{k}={v}" for k, v in r.items()))
        ok = ok and r["failed"] == 0 and r["over_1s"] == 0 and r["probes"] > 0
    print("target (every probe answered within 1 s):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
