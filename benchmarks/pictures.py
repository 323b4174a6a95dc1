"""Cache-busting preview pictures against a verify probe, through nginx and gunicorn.

    .venv/bin/python benchmarks/pictures.py [--duration 20] [--clients 8] [--source DIR]
        [--client-nice 19]

Issue 39 item 1: a ``preview.png`` cost 47-63 ms of CPU to draw, a worker kept the last
64, more than 64 deals are published after six days, a random query parameter passed
nginx's cache every time, and the route had no per-address limit: eight clients from one
address pushed a verify through nginx from 17 ms to 2.4 s (p50) and 25.9 s (max).

Starts gunicorn from ``deploy/gunicorn.conf.py`` (its default workers) behind
``deploy/nginx.conf.example`` (adapted by tests/helpers/nginx.py: ports, paths, TLS; the
verify limits raised out of the probe's way), on a database stocked like the scheduler's
for the last 12 days (144 published deals: more than any per-process cache of 64), each
deal's picture stored at publication when the code has that step (``daily/picture.py``).

Two phases of ``--duration`` seconds each:

1. the probe alone: one client POSTs a Pyramid verify (deal 32, its 35-move solution)
   through nginx every 0.1 s, and its latencies are kept;
2. the probe again, while ``--clients`` threads from the same address GET
   ``/api/v1/deals/{a random published id}/preview.png?r={random}`` as fast as they can
   (following one redirect, as a browser does).

The clients run in a process of their own (their threads never hold the probe's GIL), on
the same machine: ``--client-nice 19`` lowers their priority, as if they were elsewhere.

Prints the CPU of one picture served in-process (each published deal once, Flask's test
client), the probe's p50 and max in both phases, the pictures' answers (status, nginx's
X-Cache-Status), and the CPU the gunicorn workers spent in phase 2 (less the probes', at
phase 1's cost each) per picture request that reached them and per picture they answered
(200). ``--source DIR`` runs the code of another tree (``git archive <commit> | tar -x -C
DIR``: its ``dailydeal/`` and ``deploy/``), for the figures before a change.

Measured on a 2-core machine shared with other jobs (deploy/README.md, "nginx"): before
(229c0fd), 34.6-35.9 ms of CPU a picture, the probe's p50 2.9 -> 261 ms and 3.5 -> 116 ms
(max 2.45 s); after, 0.47-0.55 ms a picture, the p50 x0.72 to x2.13 in four runs (median
about x1.2).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/helpers: nginx's example, adapted

from helpers import free_port, stop, wait_for  # noqa: E402  (tests/helpers)
from helpers.nginx import GUNICORN, NGINX, OPENSSL, SERVER_NAME, adapted  # noqa: E402

PROBE = "/api/v1/games/pyramid/verify"
PROBE_BODY = json.dumps({"seed": 32, "moves": (
    "d d 3S+TH 2H+JC 4S+9H TD+3C 7S+6H d d d d 2S+JH d d d 4C+9C d d d d 7H+6D KC AS+QH "
    "JD+2C KD QS+AH 8H+5C JS+2D d d 6C+7C 3D+TC 9S+4H 5S+8S 6S+7D")}).encode()

# Run in the server's tree (PYTHONPATH=source): a stock of 12 published days plus the
# week ahead, and each deal's picture stored as the scheduler stores them, when it can.
STOCK = """
import datetime as dt, sys
from dailydeal.config import DAILY_GAMES
from dailydeal.daily import clock
from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.rating import TIERS
now = dt.datetime.now(dt.UTC)
day, last = clock.earliest_today(now) - dt.timedelta(days=10), clock.latest_published(now)
last += dt.timedelta(days=7)
db = open_db(sys.argv[1])
while day <= last:
    for game, variant in DAILY_GAMES:
        for i, tier in enumerate(TIERS):
            insert_deal(db, deal_row(day, game, variant, tier, day.toordinal() * 16 + i,
                                     rating=10.0 + 25 * i, solution=[],
                                     solver={"status": "filler"}, version="filler"))
    day += dt.timedelta(days=1)
try:
    from dailydeal.daily import picture
except ImportError:
    print("pictures stored: none (this tree draws them on request)")
else:
    print("pictures stored:", picture.store_pictures(db))
ids = [r["id"] for r in db.query("SELECT id FROM deals WHERE date <= ?",
                                 [clock.latest_published(now).isoformat()])]
print("published:", " ".join(ids))
"""

# Run in the server's tree too: the CPU of one picture answered in-process (Flask's test
# client, no limiter), each published deal once: what a worker spends on a picture.
SERVE = """
import sys, time
from dailydeal.web import create_app
try:
    from dailydeal.daily.picture import VERSION
except ImportError:
    from dailydeal.web.preview import VERSION
client = create_app({"db_path": sys.argv[1], "RATELIMIT_ENABLED": False}).test_client()
ids = sys.argv[2].split()
t0 = time.process_time()
for id_ in ids:
    assert client.get(f"/api/v1/deals/{id_}/preview.png?v={VERSION}").status_code == 200
print((time.process_time() - t0) / len(ids) * 1000)
"""


def context() -> ssl.SSLContext:
    return ssl._create_unverified_context()  # the benchmark's self-signed certificate


class Client:
    """One keep-alive HTTPS connection to nginx."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPSConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPSConnection(
                    "127.0.0.1", self.port, timeout=120, context=context())
            try:
                self.conn.request(method, path, body=body,
                                  headers={"Host": SERVER_NAME, **(headers or {})})
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def worker_cpu(master: int) -> float:
    """CPU seconds (user + system) of the gunicorn master's children so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:  # ppid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def probe(port: int, until: float, latencies: list[float]) -> None:
    client = Client(port)
    while time.monotonic() < until:
        t0 = time.perf_counter()
        status, _, body = client.request("POST", PROBE, PROBE_BODY,
                                         {"Content-Type": "application/json"})
        latencies.append(time.perf_counter() - t0)
        assert status == 200, (status, body[:300])
        time.sleep(max(0.0, 0.1 - (time.perf_counter() - t0)))


def attacker(port: int, ids: list[str], until: float, seen: Counter[str], seed: int) -> None:
    rng = random.Random(seed)
    client = Client(port)
    while time.monotonic() < until:
        path = f"/api/v1/deals/{rng.choice(ids)}/preview.png?r={rng.getrandbits(64)}"
        status, headers, _ = client.request("GET", path)
        seen[f"{status} {headers.get('x-cache-status', '-')}"] += 1
        if status in (301, 302, 303, 307, 308):
            status, headers, _ = client.request("GET", headers["location"])
            seen[f"{status} {headers.get('x-cache-status', '-')} (redirected)"] += 1


def attack(port: int, ids: list[str], seconds: float, clients: int) -> None:
    """The attackers' own process (``--attack``): their threads never hold the probe's GIL.
    Prints what they were answered, as JSON."""
    until = time.monotonic() + seconds
    seen: Counter[str] = Counter()
    threads = [threading.Thread(target=attacker, args=(port, ids, until, seen, i))
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps(seen))


def percentiles(latencies: list[float]) -> str:
    ms = sorted(x * 1000 for x in latencies)
    return f"p50 {statistics.median(ms):8.1f} ms   max {ms[-1]:8.1f} ms   ({len(ms)} probes)"


def main() -> int:
    if sys.argv[1:2] == ["--attack"]:
        port, ids, seconds, clients = sys.argv[2:6]
        attack(int(port), Path(ids).read_text().split(), float(seconds), int(clients))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=20, help="seconds per phase")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--client-nice", type=int, default=0,
                        help="niceness of the clients' process (19: as if on another machine, "
                        "their own CPU not taken from the server's)")
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the tree whose dailydeal/ and deploy/ run (default: this one)")
    args = parser.parse_args()
    if NGINX is None or OPENSSL is None:
        print("needs nginx and openssl (Debian packages nginx, openssl)", file=sys.stderr)
        return 2
    source = args.source.resolve()
    config = (source / "dailydeal" / "config.py").read_text()
    trusted = "DAILYDEAL_TRUSTED_PROXIES" in config
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
               "PYTHONPATH": str(source)}
        db = tmp / "dailydeal.db"
        out = subprocess.run([sys.executable, "-c", STOCK, str(db)], env=env, cwd=tmp,
                             capture_output=True, text=True, check=True, timeout=600)
        lines = dict(line.split(": ", 1) for line in out.stdout.splitlines())
        ids = lines["published"].split()
        print(f"source {source}; {len(ids)} published deals; pictures stored: "
              f"{lines['pictures stored']}")
        served = subprocess.run([sys.executable, "-c", SERVE, str(db), " ".join(ids)],
                                env=env, cwd=tmp, capture_output=True, text=True,
                                check=True, timeout=600)
        print(f"CPU per picture served in-process (each published deal once): "
              f"{float(served.stdout):.2f} ms")
        subprocess.run(
            [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", f"/CN={SERVER_NAME}", "-keyout", str(tmp / "key.pem"),
             "-out", str(tmp / "cert.pem")], check=True, capture_output=True, timeout=60)
        upstream, port = free_port(), free_port()
        env.update({
            "DAILYDEAL_DB": str(db),
            "DAILYDEAL_SECRET": secrets.token_hex(32),
            "DAILYDEAL_BIND": f"127.0.0.1:{upstream}",
            "DAILYDEAL_PUBLIC_URL": f"https://{SERVER_NAME}",
            "DAILYDEAL_VERIFY_LIMIT": "100000 per minute",  # the probe is never refused
            **({"DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1"} if trusted
               else {"DAILYDEAL_PROXIES": "1"}),
        })
        glog = tmp / "gunicorn.log"
        with open(glog, "wb") as log:
            gunicorn = subprocess.Popen(
                [str(GUNICORN), "-c", str(source / "deploy" / "gunicorn.conf.py"),
                 "--access-logfile", "/dev/null"],
                cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT)
        example = (source / "deploy" / "nginx.conf.example").read_text()
        conf = adapted(example, tmp, port, upstream)
        conf = conf.replace("rate=1r/m", "rate=10000r/s").replace("burst=1 ", "burst=1000 ")
        (tmp / "nginx.conf").write_text(conf)
        nginx = None
        try:
            wait_for(lambda: socket.create_connection(("127.0.0.1", upstream), 1).close()
                     or True, "gunicorn", glog)
            nginx = subprocess.Popen(
                [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True,
                     "nginx", tmp / "error.log")
            warm = Client(port)
            for _ in range(20):  # every worker imported, the probe's path warm
                warm.request("POST", PROBE, PROBE_BODY, {"Content-Type": "application/json"})
            alone: list[float] = []
            cpu0 = worker_cpu(gunicorn.pid)
            probe(port, time.monotonic() + args.duration, alone)
            print(f"verify probe alone:                {percentiles(alone)}")
            per_probe = (worker_cpu(gunicorn.pid) - cpu0) / len(alone)
            loaded: list[float] = []
            (tmp / "ids").write_text(" ".join(ids))
            attackers = subprocess.Popen(
                ["nice", "-n", str(args.client_nice), sys.executable, __file__, "--attack",
                 str(port), str(tmp / "ids"), str(args.duration), str(args.clients)],
                stdout=subprocess.PIPE, text=True)
            time.sleep(0.5)  # the attackers' connections are up
            cpu0 = worker_cpu(gunicorn.pid)
            probe(port, time.monotonic() + args.duration - 0.5, loaded)
            cpu = worker_cpu(gunicorn.pid) - cpu0
            seen: Counter[str] = Counter(json.loads(attackers.communicate()[0]))
            print(f"verify probe, {args.clients} picture clients: {percentiles(loaded)}")
            print(f"   p50 x{statistics.median(loaded) / statistics.median(alone):.2f}")
            total = sum(seen.values())
            print(f"picture requests: {total} in {args.duration:g} s")
            for key, n in sorted(seen.items(), key=lambda kv: -kv[1]):
                print(f"   {n:7d}  {key}")
            reached = sum(n for k, n in seen.items() if k.split()[1] != "HIT")
            drawn = sum(n for k, n in seen.items() if k.split()[:2] in (
                ["200", "MISS"], ["200", "EXPIRED"], ["200", "BYPASS"], ["200", "-"]))
            cpu -= per_probe * len(loaded)
            print(f"gunicorn workers' CPU in phase 2 for pictures: {cpu:.2f} s (less the "
                  f"{len(loaded)} probes' {per_probe * 1000:.1f} ms each, from phase 1)")
            if reached:
                print(f"   per picture request that reached gunicorn: "
                      f"{cpu / reached * 1000:.2f} ms ({reached})")
            if drawn:
                print(f"   per picture answered 200 by gunicorn:     "
                      f"{cpu / drawn * 1000:.2f} ms ({drawn})")
        finally:
            if nginx is not None:
                stop(nginx, signal.SIGQUIT)
            stop(gunicorn)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
