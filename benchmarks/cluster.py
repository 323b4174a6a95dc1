"""One API node against two behind nginx: requests/s of GET deal and POST verify, by wrk.

    .venv/bin/python benchmarks/cluster.py [--duration 10] [--connections 32]

The parts of tests/test_cluster.py, started the same way (tests/helpers, not a copy): a real
redis-server (the shared rate limit and results: DAILYDEAL_REDIS_URL), gunicorn nodes from
deploy/gunicorn.conf.py with ONE worker each (a node = a worker here, so that "two nodes"
means twice the workers), each on its own copy of one SQLite file (today's Gaps deals with a
real solver solution, as benchmarks/api.py fills them), and deploy/nginx.conf.example
adapted by tests/helpers/nginx.py (TLS, cache, proxy_next_upstream). Runs, 10 s each:

- one node, direct (no nginx);
- one node behind nginx;
- two nodes behind nginx.

and, on the direct node only, GET /api/v1/deals/{id}/state?moves= with half the solution
(what the browser player asks after each move; behind nginx, a repeated one is a cache hit).

GET is /api/v1/deals/{id} (behind nginx: answered from nginx's cache after the first
request, as in production: an immutable dated deal); POST is /api/v1/deals/{id}/verify with
the full winning solution (never cached: every one reaches a node). Every answer must be a
200; wrk's count of others is shown. Needs wrk, nginx, openssl and redis-server (Debian).

On a machine with 2 cores, wrk, nginx, redis and the nodes share them: two nodes cannot be
twice one. The ratio printed is what this machine measured, no more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/helpers: one way to start the cluster

from api import fill, run_wrk  # noqa: E402  (benchmarks/api.py)
from helpers import free_port, stop, wait_for  # noqa: E402  (tests/helpers)
from helpers.cluster import REDIS, cluster_conf, copy_db, start_node, start_redis  # noqa: E402
from helpers.nginx import NGINX, OPENSSL, SERVER_NAME  # noqa: E402

from dailydeal.daily.store import deal_id  # noqa: E402


def start_nginx(tmp: Path, upstreams: list[int]) -> tuple[subprocess.Popen[bytes], int]:
    assert NGINX is not None
    port = free_port()
    conf = tmp / f"nginx-{len(upstreams)}.conf"
    text = cluster_conf(tmp, port, upstreams)
    # no access log: the benchmark measures serving, not writing a log line per request
    text = text.replace(f"access_log {tmp / 'access.log'};", "access_log off;")
    conf.write_text(text)
    subprocess.run([NGINX, "-t", "-p", str(tmp), "-c", str(conf)], check=True,
                   capture_output=True, timeout=30)
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True,
             "nginx", tmp / "error.log")
    return proc, port


def measure(base: str, id_: str, script: Path, args: argparse.Namespace,
            state: str | None = None) -> dict[str, Any]:
    out = {"get_deal": run_wrk(f"{base}/deals/{id_}", args),
           "post_verify": run_wrk(f"{base}/deals/{id_}/verify", args, script)}
    if state is not None:  # a node's own cost: behind nginx it would come from the cache
        out["get_state"] = run_wrk(f"{base}/deals/{id_}/state?moves={state}", args)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    missing = [n for n, p in (("wrk", shutil.which("wrk")), ("nginx", NGINX),
                              ("openssl", OPENSSL), ("redis-server", REDIS)) if p is None]
    if missing:
        raise SystemExit(f"not installed: {', '.join(missing)} (Debian packages)")

    tmp = Path(tempfile.mkdtemp(prefix="dailydeal-cluster-bench-"))
    subprocess.run(
        [str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={SERVER_NAME}", "-keyout", str(tmp / "key.pem"),
         "-out", str(tmp / "cert.pem")], check=True, capture_output=True, timeout=60)
    today = dt.datetime.now(dt.UTC).date()
    a = tmp / "a" / "dailydeal.db"
    a.parent.mkdir()
    _, moves = fill(a, "gaps", today)  # the one generator
    b = copy_db(a, tmp / "b" / "dailydeal.db")  # node B's copy
    id_ = deal_id(today, "gaps", "hard")
    body = json.dumps({"moves": moves})
    script = tmp / "verify.lua"
    script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                      f"wrk.body = {json.dumps(body)}\n")
    secret = secrets.token_hex(32)
    redis, redis_url = start_redis(tmp)
    procs: list[subprocess.Popen[bytes]] = [redis]
    results: dict[str, Any] = {}
    try:
        nodes = [start_node(db, tmp / db.parent.name, secret, redis_url, access_log=False)
                 for db in (a, b)]
        procs += [n.proc for n in nodes]
        for n in nodes:
            wait_for(lambda n=n: n.request("GET", "/api/v1/healthz")[0] == 200,
                     f"gunicorn on {n.port}", n.log)
        verdict = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{nodes[0].port}/api/v1/deals/{id_}/verify", data=body.encode(),
            headers={"Content-Type": "application/json"})).read())
        assert verdict["won"], verdict
        # the browser player asks the state after every move: on average, half a game
        half = urllib.parse.quote(" ".join(moves[: len(moves) // 2]))
        results["one node, direct"] = measure(
            f"http://127.0.0.1:{nodes[0].port}/api/v1", id_, script, args, half)
        for count in (1, 2):
            nginx, port = start_nginx(tmp, [n.port for n in nodes[:count]])
            try:
                results[f"{count} node{'s' if count > 1 else ''} behind nginx"] = measure(
                    f"https://127.0.0.1:{port}/api/v1", id_, script, args)
            finally:
                stop(nginx, signal.SIGQUIT)
    finally:
        for proc in reversed(procs):
            stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    one, two = results["1 node behind nginx"], results["2 nodes behind nginx"]
    ratio = {k: round(two[k]["rps"] / one[k]["rps"], 2) for k in ("get_deal", "post_verify")}
    if args.json:
        print(json.dumps({"runs": results, "two_over_one": ratio}, indent=2))
        return 0
    print(f"gaps hard, verify of {len(moves)} moves; 1 gunicorn worker per node; "
          f"{args.connections} connections, {args.duration} s per run")
    print(f"{'setup':<22} {'endpoint':<12} {'requests':>9} {'req/s':>9} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'non-2xx':>8}")
    for setup, runs in results.items():
        for name, r in runs.items():
            print(f"{setup:<22} {name:<12} {r['requests']:>9} {r['rps']:>9.1f} "
                  f"{r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['non_2xx']:>8}")
    print(f"two nodes / one node behind nginx: GET deal x{ratio['get_deal']}, "
          f"POST verify x{ratio['post_verify']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
