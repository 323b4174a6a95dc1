"""Load benchmark of the API through the deploy/ stack, beside a hello app under the same config.

    .venv/bin/python benchmarks/load.py [--duration 5] [--connections 16,64] [--modes direct,nginx]
        [--redis] [--before REV] [--profile 300 [--limiter-off]] [--mixed 20] [--json]

What runs (all on this machine, loopback only, every run bounded by --duration):

- the API: ``gunicorn -c deploy/gunicorn.conf.py`` (its workers, worker class and settings;
  ``--workers`` overrides DAILYDEAL_WORKERS) on a database holding today's Gaps deals with a
  real solver solution (benchmarks/api.py's ``fill``: a verify replays its 127 moves);
  with ``--redis`` a redis-server holds results, statistics and rate limits
  (DAILYDEAL_REDIS_URL), as on a cluster node;
- hello: a minimal Flask app (benchmarks/hello.py) under the same gunicorn config;
- ``--before REV``: the API of commit REV too (its tree from ``git archive``, the compiled
  modules of this checkout copied where their source is the same), so that figures before
  and after a change come from one run, side by side;
- ``nginx`` mode: each server behind its own nginx from deploy/nginx.conf.example (TLS,
  cache, tests/helpers/nginx.py), its per-client ``limit_req`` raised out of the way as
  tests/helpers/cluster.py does. A cached answer (dated deal, GET state, hint, stats) is
  then nginx's, as in production: the ``direct`` mode measures the nodes themselves.

Endpoints: GET deal, GET state (half the solution), POST verify (the whole solution),
POST results (the same counted result again: a retry, 200, replayed and looked up),
GET hint (half the solution: answered from the stored line, no search), GET stats. Each
run of an endpoint is preceded by a run of hello with the same method, body and
concurrency (and one more hello closes the list): an endpoint's ratio is its rate over the
mean of the hello runs beside it, so a machine shared with other jobs moves both. Every
rate limit of the API is raised out of the way, but the limiter runs, as in production.

CPU per request: the CPU time of the server's process tree (master, workers, their
children, reaped ones included: /proc) over the run, divided by its requests. ``--mixed S``
adds one run of S seconds per server with every endpoint in one connection's rotation,
and where its p99 comes from: gunicorn's own time per request (access log ``%(D)s``) by
endpoint against wrk's end-to-end latency. ``--profile N``: N requests per endpoint through
the app in this process under cProfile: ms of CPU per request and where it goes
(``--modes none``: that alone, no server; ``--limiter-off``: with the rate limits switched
off, what a cheaper limit check could save at most).
Needs wrk (and nginx, openssl, redis-server for those modes): Debian packages.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import json
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/helpers: nginx as the tests start it
sys.path.insert(0, str(ROOT / "benchmarks"))

from api import fill, run_wrk  # noqa: E402  (benchmarks/api.py)
from cluster import start_nginx  # noqa: E402  (benchmarks/cluster.py)
from helpers import stop  # noqa: E402  (tests/helpers)
from helpers.cluster import copy_db, start_redis  # noqa: E402
from helpers.nginx import NGINX, OPENSSL, SERVER_NAME  # noqa: E402
from servers import running  # noqa: E402  (benchmarks/servers.py)

from dailydeal.daily.store import deal_id  # noqa: E402

ENDPOINTS = ("get_deal", "get_state", "post_verify", "post_results", "get_hint", "get_stats")
LOG_FORMAT = "%(m)s %(U)s %(s)s %(D)s"  # gunicorn's access log: method path status µs
TICKS = os.sysconf("SC_CLK_TCK")
CLIENT = "loadbench-client-0001"


# --- the requests ------------------------------------------------------------------------
def requests_of(id_: str, moves: list[str], play: str) -> dict[str, tuple[str, str, str]]:
    """endpoint -> (method, path, body) of its one request."""
    half = urllib.parse.quote(" ".join(moves[: len(moves) // 2]))
    verify = json.dumps({"moves": moves})
    result = json.dumps({"client": CLIENT, "moves": moves, "play": play, "seconds": 600})
    return {
        "get_deal": ("GET", f"/api/v1/deals/{id_}", ""),
        "get_state": ("GET", f"/api/v1/deals/{id_}/state?moves={half}", ""),
        "post_verify": ("POST", f"/api/v1/deals/{id_}/verify", verify),
        "post_results": ("POST", f"/api/v1/deals/{id_}/results", result),
        "get_hint": ("GET", f"/api/v1/deals/{id_}/hint?moves={half}", ""),
        "get_stats": ("GET", f"/api/v1/deals/{id_}/stats", ""),
    }


def lua(requests: list[tuple[str, str, str]]) -> str:
    """A wrk script sending ``requests`` in turn (each connection's thread in rotation)."""
    items = ",\n".join(
        f"  wrk.format({json.dumps(m)}, {json.dumps(p)}, "
        f"{{[\"Content-Type\"] = \"application/json\"}}, {json.dumps(b) if b else 'nil'})"
        for m, p, b in requests
    )
    return ("local reqs = nil\nlocal i = 0\n"
            f"init = function(args)\n reqs = {{\n{items}\n }}\nend\n"
            "request = function()\n i = i % #reqs + 1\n return reqs[i]\nend\n")


def http(base: str, method: str, path: str, body: str = "") -> tuple[int, Any]:
    import ssl

    req = urllib.request.Request(base + path, method=method, data=body.encode() or None,
                                 headers={"Content-Type": "application/json"})
    context = ssl._create_unverified_context() if base.startswith("https") else None
    try:
        with urllib.request.urlopen(req, timeout=30, context=context) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


# --- CPU of a process tree ---------------------------------------------------------------
def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, CPU ticks of the process and of its reaped children)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), sum(int(f) for f in fields[11:15])  # utime stime cutime cstime


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its descendants, reaped ones included."""
    stats = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(int(p)))}
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][1]
            todo += [c for c, (parent, _) in stats.items() if parent == pid]
    return total / TICKS


# --- servers -----------------------------------------------------------------------------
def before_tree(rev: str, dest: Path) -> Path:
    """The tree of ``rev`` in ``dest``, with this checkout's compiled modules where the
    source is the same (dailydeal/native.py checks each by its digest)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                          capture_output=True).stdout
    dest.mkdir(parents=True)
    archive = dest / "tree.tar"
    archive.write_bytes(data)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    manifest = ROOT / "dailydeal" / "compiled.json"
    if manifest.exists():
        kept = {}
        for name, digest in json.loads(manifest.read_text()).items():
            src = name.replace(".", "/") + ".py"
            if (dest / src).exists() and (dest / src).read_bytes() == (ROOT / src).read_bytes():
                kept[name] = digest
                for so in (ROOT / src).parent.glob(Path(src).stem + "*.so"):
                    shutil.copy2(so, dest / so.relative_to(ROOT))
        (dest / "dailydeal" / "compiled.json").write_text(json.dumps(kept))
    for so in (ROOT / "dailydeal").glob("*__mypyc*.so"):  # mypyc's shared runtime, if any
        shutil.copy2(so, dest / so.relative_to(ROOT))
    for so in ROOT.glob("*__mypyc*.so"):
        shutil.copy2(so, dest / so.name)
    return dest


@contextmanager
def server(name: str, workdir: Path, env: dict[str, str], args: list[str]
           ) -> Iterator[dict[str, Any]]:
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "access.log"
    args = [*args, "--access-logfile", str(log), "--access-logformat", LOG_FORMAT]
    with running("gunicorn", workdir, env=env, args=args, startup=120) as (base, pid):
        yield {"name": name, "base": base, "pid": pid, "log": log}


def nginx_in_front(srv: dict[str, Any], tmp: Path, stack: ExitStack) -> dict[str, Any]:
    where = tmp / f"nginx-{srv['name']}"
    where.mkdir()
    for pem in ("cert.pem", "key.pem"):
        shutil.copy(tmp / pem, where / pem)
    port = int(srv["base"].rsplit(":", 1)[1])
    proc, nginx_port = start_nginx(where, [port])
    stack.callback(stop, proc, signal.SIGQUIT)
    return {**srv, "base": f"https://127.0.0.1:{nginx_port}", "nginx": proc.pid}


# --- one run -----------------------------------------------------------------------------
def measure(srv: dict[str, Any], request: tuple[str, str, str] | list[tuple[str, str, str]],
            connections: int, args: argparse.Namespace, tmp: Path,
            duration: int | None = None) -> dict[str, Any]:
    rotation = request if isinstance(request, list) else [request]
    script = tmp / "run.lua"
    script.write_text(lua(rotation))
    wrk_args = argparse.Namespace(threads=min(args.threads, connections),
                                  connections=connections,
                                  duration=duration or args.duration)
    offset = srv["log"].stat().st_size if srv["log"].exists() else 0
    cpu0 = tree_cpu(srv["pid"])
    ng0 = tree_cpu(srv["nginx"]) if "nginx" in srv else 0.0
    out = run_wrk(srv["base"] + rotation[0][1], wrk_args, script)
    cpu = tree_cpu(srv["pid"]) - cpu0
    out["cpu_ms"] = round(1000 * cpu / max(1, out["requests"]), 3)
    if "nginx" in srv:
        out["nginx_cpu_ms"] = round(1000 * (tree_cpu(srv["nginx"]) - ng0)
                                    / max(1, out["requests"]), 3)
    out["served"] = server_times(srv["log"], offset)
    del out["command"]
    return out


def server_times(log: Path, offset: int) -> dict[str, dict[str, float]]:
    """gunicorn's own time per request (µs in the access log), by endpoint: count, p50, p99
    in ms. What wrk sees beyond it was spent waiting for a worker or in nginx."""
    by: dict[str, list[float]] = {}
    with open(log, "rb") as f:
        f.seek(offset)
        for line in f.read().decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) != 4 or not parts[3].isdigit():
                continue
            by.setdefault(endpoint_of(parts[0], parts[1]), []).append(int(parts[3]) / 1000)
    return {k: {"count": len(v), "p50_ms": round(pct(v, 50), 2), "p99_ms": round(pct(v, 99), 2),
                "max_ms": round(max(v), 2)} for k, v in by.items()}


def endpoint_of(method: str, path: str) -> str:
    tail = path.rstrip("/").rsplit("/", 1)[-1]
    if "/deals/" not in path:
        return "hello"
    if tail in ("verify", "results", "state", "hint", "stats"):
        return f"{method.lower()}_{tail}"
    return "get_deal"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else 0.0


# --- the in-process profile --------------------------------------------------------------
CATEGORIES = (
    ("replay (games/, verify, cards, shuffle)",
     ("dailydeal/games/", "dailydeal/verify.py", "dailydeal/cards.py", "dailydeal/shuffle.py",
      "dailydeal/hints.py")),
    ("rate limiter (limits, web/extensions.py)", ("/limits/", "web/extensions.py")),
    ("threads (start, wait)", ("threading.py", "_thread")),
    ("SQLite (sqlite3, sqlite_utils, stores)",
     ("sqlite3", "sqlite_utils", "daily/store.py", "sqlite_store.py")),
    ("Redis", ("/redis/", "redis_store.py")),
    ("bodies (pydantic, json)", ("pydantic", "json")),
    ("Flask, Werkzeug", ("/flask/", "/werkzeug/")),
    ("dailydeal/web (routes, helpers)", ("dailydeal/web/",)),
    ("dailydeal/results, other dailydeal", ("dailydeal/",)),
)


def category(func: tuple[str, int, str]) -> str:
    where = f"{func[0]} {func[2]}"
    for name, needles in CATEGORIES:
        if any(n in where for n in needles):
            return name
    return "other"


def profile(db: Path, env: dict[str, str], reqs: dict[str, tuple[str, str, str]], n: int,
            top: int, limiter: bool = True) -> dict[str, Any]:
    """CPU ms per request in this process (no server) and where it goes, by endpoint;
    ``limiter`` False: the rate limits switched off, what the app costs without any limit
    check (a bound for what a cheaper check can save, never a way to run)."""
    from werkzeug.test import EnvironBuilder

    os.environ.update({**env, "DAILYDEAL_DB": str(db)})
    from dailydeal.web import create_app
    from dailydeal.web.extensions import RATE_LIMITS

    app = create_app()
    app.extensions[RATE_LIMITS].enabled = limiter
    out: dict[str, Any] = {}
    for name, (method, path, body) in reqs.items():
        # the request's environ made once: building it is the harness's cost, not the app's
        base = EnvironBuilder(
            path=path.split("?")[0], query_string=path.partition("?")[2], method=method,
            data=body.encode() or None,
            headers={"Content-Type": "application/json", "Accept-Encoding": "gzip",
                     "X-Forwarded-For": "127.0.0.2"},
        ).get_environ()

        def call(base: dict[str, Any] = base, raw: bytes = body.encode()) -> None:
            environ = {**base, "wsgi.input": io.BytesIO(raw)}
            it = app.wsgi_app(environ, lambda *_: None)
            b"".join(it)
            getattr(it, "close", lambda: None)()

        for _ in range(min(50, n)):
            call()
        start = time.process_time()
        for _ in range(n):
            call()
        ms = 1000 * (time.process_time() - start) / n
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(n):
            call()
        prof.disable()
        stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
        total = sum(s[2] for s in stats.values()) or 1.0
        shares: dict[str, float] = {}
        for func, s in stats.items():
            shares[category(func)] = shares.get(category(func), 0.0) + s[2]
        items = sorted(stats.items(), key=lambda kv: -kv[1][2])[:top]
        out[name] = {
            "cpu_ms": round(ms, 3),
            "shares": {k: round(v / total, 3) for k, v in sorted(shares.items(),
                                                                  key=lambda kv: -kv[1])},
            "top": [{"function": f"{Path(f[0]).name}:{f[1]}({f[2]})", "calls": s[1],
                     "own_share": round(s[2] / total, 3)} for f, s in items],
        }
    return out


# --- main --------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=5, help="seconds per run")
    parser.add_argument("--connections", default="16", help="concurrencies, comma separated")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: the config's)")
    parser.add_argument("--modes", default="direct,nginx",
                        help="direct, nginx or both; none: no server (with --profile)")
    parser.add_argument("--endpoints", default=",".join(ENDPOINTS))
    parser.add_argument("--redis", action="store_true", help="results and limits in Redis")
    parser.add_argument("--before", metavar="REV", help="also run the API of commit REV")
    parser.add_argument("--mixed", type=int, default=0, metavar="S",
                        help="a mixed run of S seconds per server and mode")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="N requests per endpoint in this process under cProfile")
    parser.add_argument("--top", type=int, default=8, help="functions listed per profile")
    parser.add_argument("--limiter-off", action="store_true",
                        help="profile with the rate limits switched off (a bound, not a mode)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m != "none"]
    names = args.endpoints.split(",")
    concurrencies = [int(c) for c in args.connections.split(",")]
    need = [("wrk", shutil.which("wrk"))] if modes else []
    if "nginx" in modes:
        need += [("nginx", NGINX), ("openssl", OPENSSL)]
    if args.redis:
        need += [("redis-server", shutil.which("redis-server"))]
    if missing := [n for n, p in need if p is None]:
        raise SystemExit(f"not installed: {', '.join(missing)} (Debian packages)")

    tmp = Path(tempfile.mkdtemp(prefix="dailydeal-load-"))
    today = dt.datetime.now(dt.UTC).date()
    db = tmp / "api" / "dailydeal.db"
    db.parent.mkdir()
    seed, moves = fill(db, "gaps", today)
    id_ = deal_id(today, "gaps", "hard")
    env = {
        "DAILYDEAL_LOGLEVEL": "warning",
        "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",  # as the systemd unit behind nginx
        "DAILYDEAL_MIN_SECONDS_PER_MOVE": "0",
        **{f"DAILYDEAL_{k}_LIMIT": "100000000 per minute"
           for k in ("VERIFY", "STATE", "HINT", "RESULTS", "COUNTED", "PLAYS", "STATS")},
    }
    if args.workers:
        env["DAILYDEAL_WORKERS"] = str(args.workers)
    report: dict[str, Any] = {"setup": {
        "game": "gaps", "seed": seed, "solution_moves": len(moves), "modes": modes,
        "connections": concurrencies, "duration_s": args.duration, "redis": args.redis,
        "workers": args.workers or "the config's (2 x CPUs + 1, at most 8)",
        "cpus": os.cpu_count(), "before": args.before, "build": build(),
    }}
    try:
        if args.profile:
            copy_db(db, tmp / "profile" / "dailydeal.db")
            token = plays_token_inprocess(tmp / "profile" / "dailydeal.db", env, id_)
            reqs = requests_of(id_, moves, token)
            report["profile"] = profile(tmp / "profile" / "dailydeal.db", env,
                                        {k: reqs[k] for k in names}, args.profile, args.top,
                                        limiter=not args.limiter_off)
        if modes:  # "none": the profile alone
            with ExitStack() as stack:
                if args.redis:
                    redis, url = start_redis(tmp)
                    stack.callback(stop, redis)
                    env["DAILYDEAL_REDIS_URL"] = url
                if "nginx" in modes:
                    subprocess.run(
                        [str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                         "2", "-subj", f"/CN={SERVER_NAME}", "-keyout", str(tmp / "key.pem"),
                         "-out", str(tmp / "cert.pem")], check=True, capture_output=True)
                servers = [stack.enter_context(server(
                    "hello", tmp / "hello", env,
                    ["--pythonpath", str(ROOT / "benchmarks"), "hello:app"]))]
                if args.before:
                    tree = before_tree(args.before, tmp / "before-tree")
                    copy_db(db, tmp / "before" / "dailydeal.db")
                    servers.append(stack.enter_context(server(
                        "before", tmp / "before",
                        {**proxies_of(tree, env), "PYTHONPATH": str(tree)},
                        ["-c", str(tree / "deploy" / "gunicorn.conf.py")])))
                servers.append(stack.enter_context(server("api", tmp / "api", env, [])))
                report["runs"] = run_all(servers, modes, names, concurrencies, moves, id_, args,
                                         tmp, stack)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


def proxies_of(tree: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` as a tree older than DAILYDEAL_TRUSTED_PROXIES reads it (it trusted a count
    of proxies, which the newer API refuses to start with)."""
    if "DAILYDEAL_TRUSTED_PROXIES" in (tree / "dailydeal" / "config.py").read_text():
        return env
    return {**{k: v for k, v in env.items() if k != "DAILYDEAL_TRUSTED_PROXIES"},
            "DAILYDEAL_PROXIES": "1"}


def build() -> str:
    from dailydeal import native

    return str(getattr(native, "BUILD", "?"))


def plays_token_inprocess(db: Path, env: dict[str, str], id_: str) -> str:
    os.environ.update({**env, "DAILYDEAL_DB": str(db)})
    from dailydeal.web import create_app

    client = create_app().test_client()
    token: str = client.post(f"/api/v1/deals/{id_}/plays").get_json()["play"]
    return token


def run_all(servers: list[dict[str, Any]], modes: list[str], names: list[str],
            concurrencies: list[int], moves: list[str], id_: str,
            args: argparse.Namespace, tmp: Path, stack: ExitStack) -> dict[str, Any]:
    runs: dict[str, Any] = {}
    for mode in modes:
        targets = servers if mode == "direct" else [nginx_in_front(s, tmp, stack)
                                                    for s in servers]
        apis = [s for s in targets if s["name"] != "hello"]
        hello = targets[0]
        reqs: dict[str, dict[str, tuple[str, str, str]]] = {}
        for srv in apis:  # one play each: the results posted are retries of its result
            status, play = http(srv["base"], "POST", f"/api/v1/deals/{id_}/plays")
            assert status == 201, (status, play)
            reqs[srv["name"]] = requests_of(id_, moves, play["play"])
            for name in names:
                status, answer = http(srv["base"], *reqs[srv["name"]][name])
                assert status in (200, 201), (srv["name"], name, status, answer)
                if name == "post_verify":
                    assert answer["won"], answer
        for c in concurrencies:
            key = f"{mode} c={c}"
            runs[key] = {}
            hellos: list[float] = []
            for name in names:
                one = reqs[apis[-1]["name"]][name]
                h = measure(hello, one, c, args, tmp)
                hellos.append(h["rps"])
                runs[key][f"hello {name}"] = h
                for srv in apis:
                    runs[key][f"{srv['name']} {name}"] = measure(
                        srv, reqs[srv["name"]][name], c, args, tmp)
            one = reqs[apis[-1]["name"]][names[-1]]
            hellos.append(measure(hello, one, c, args, tmp)["rps"])
            for i, name in enumerate(names):
                yardstick = statistics.mean(hellos[i:i + 2])
                for srv in apis:
                    r = runs[key][f"{srv['name']} {name}"]
                    r["hello_rps"] = round(yardstick, 1)
                    r["ratio"] = round(r["rps"] / yardstick, 3)
            if args.mixed:
                for srv in apis:
                    rotation = [reqs[srv["name"]][n] for n in MIX if n in names]
                    runs[key][f"{srv['name']} mixed"] = measure(
                        srv, rotation, c, args, tmp, duration=args.mixed)
    return runs


# the mixed rotation: what a browser player asks most (the state after each move) weighs most
MIX = ("get_state", "get_deal", "get_state", "post_verify", "get_state", "get_hint",
       "get_state", "post_results", "get_stats", "get_state")


def print_report(report: dict[str, Any]) -> None:
    s = report["setup"]
    print(f"gaps seed {s['seed']}, a solution of {s['solution_moves']} moves; gunicorn from "
          f"deploy/gunicorn.conf.py, workers: {s['workers']}; {s['cpus']} CPUs; "
          f"{s['duration_s']} s a run; redis: {s['redis']}; build: {s['build']}")
    if "profile" in report:
        print("\nIn-process profile (no server): CPU ms per request, where it goes")
        for name, p in report["profile"].items():
            shares = ", ".join(f"{k} {v:.0%}" for k, v in p["shares"].items() if v >= 0.02)
            print(f"  {name:<13} {p['cpu_ms']:6.3f} ms  {shares}")
            for t in p["top"][:4]:
                print(f"      {t['own_share']:5.1%} {t['calls']:>7} {t['function']}")
    servers = ["before", "api"] if s["before"] else ["api"]
    for key, runs in report.get("runs", {}).items():
        print(f"\n{key}: req/s, ratio to hello beside it, p50/p99 ms, server CPU ms/req"
              + (" (before -> after)" if s["before"] else ""))
        print(f"  {'endpoint':<13} {'hello':>8}  " + "  ".join(
            f"{w + ' req/s':>12} {'ratio':>6} {'p50':>6} {'p99':>7} {'cpu':>6}"
            for w in servers))
        endpoints = [k.split(" ", 1)[1] for k in runs if k.startswith("hello ")]
        for name in endpoints:
            h = runs[f"hello {name}"]
            cells = []
            for w in servers:
                r = runs[f"{w} {name}"]
                cells.append(f"{r['rps']:>12.1f} {r['ratio']:>6.2f} {r['p50_ms']:>6.2f} "
                             f"{r['p99_ms']:>7.2f} {r['cpu_ms']:>6.3f}")
            print(f"  {name:<13} {h['rps']:>8.1f}  " + "  ".join(cells))
        print(f"  {'(hello itself)':<13} " + ", ".join(
            f"{k.split(' ', 1)[1]} {r['rps']:.0f}/s cpu {r['cpu_ms']:.3f}"
            for k, r in runs.items() if k.startswith("hello ")))
        for w in servers:
            if (m := runs.get(f"{w} mixed")) is None:
                continue
            print(f"  {w} mixed: {m['rps']:.1f} req/s, p50 {m['p50_ms']:.2f} ms, p99 "
                  f"{m['p99_ms']:.2f} ms, cpu {m['cpu_ms']:.3f} ms/req; in gunicorn: " + ", ".join(
                      f"{k} p50 {v['p50_ms']} p99 {v['p99_ms']} max {v['max_ms']}"
                      for k, v in sorted(m["served"].items())))


if __name__ == "__main__":
    sys.exit(main())
