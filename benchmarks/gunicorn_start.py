"""How long gunicorn takes until its workers are ready: the API against a hello app.

    .venv/bin/python benchmarks/gunicorn_start.py --runs 5
    .venv/bin/python benchmarks/gunicorn_start.py --runs 5 --against /tmp/old-tree

Starts ``gunicorn -c deploy/gunicorn.conf.py`` (the systemd unit's command: gevent
workers, ``DAILYDEAL_WORKERS`` of them, default 2 x CPUs + 1) on a stocked database
(benchmarks/servers.py), and the same configuration serving a minimal Flask app (one route
that answers "hello"), in turns, ``--runs`` times each. A worker is ready when it has loaded
its app (gunicorn's ``post_worker_init`` hook, added by a configuration that runs the
deployed one first). Printed per app, the median over the runs of:

- ``ready s``: wall-clock seconds from the start of gunicorn to the last worker ready;
- ``worker CPU s``: CPU seconds a worker spent from its fork to ready (the mean of the
  workers of a run): what the app's imports and ``create_app()`` cost each worker;
- ``master CPU s``: the CPU seconds of the master until then (its imports, the forks).

On a shared machine the wall-clock figure is the CPU of every worker spread over the
cores left free; the CPU figures do not depend on the load as much. ``--against DIR``
also runs the API and the hello app from a second source tree (PYTHONPATH, its own
deploy/gunicorn.conf.py).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from servers import BIN, ROOT, free_port, stock_db, stop

HELLO = '''from flask import Flask

app = Flask("hello")


@app.get("/")
def index() -> str:
    return "hello"
'''

# The deployed configuration, then a hook that writes when each worker is ready
HOOKED = '''import resource as _resource
import time as _time

exec(compile(open({conf!r}).read(), {conf!r}, "exec"))


def post_worker_init(worker):
    used = _resource.getrusage(_resource.RUSAGE_SELF)
    with open({log!r}, "a") as f:
        f.write(f"{{_time.time()}} {{used.ru_utime + used.ru_stime}}\\n")
'''


def cpu_of_pid(pid: int) -> float:
    """CPU seconds (user + system) a running process has used so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_start(tree: Path, app: str | None, workdir: Path, db: Path, workers: int,
              limit: float) -> tuple[float, float, float]:
    """(wall seconds to the last worker ready, mean worker CPU s, master CPU s)."""
    log = workdir / "ready.log"
    log.unlink(missing_ok=True)
    conf = workdir / "hooked.conf.py"
    conf.write_text(HOOKED.format(conf=str(tree / "deploy" / "gunicorn.conf.py"), log=str(log)))
    env = {**os.environ, "DAILYDEAL_DB": str(db), "DAILYDEAL_SECRET": secrets.token_hex(32),
           "DAILYDEAL_BIND": f"127.0.0.1:{free_port()}", "DAILYDEAL_WORKERS": str(workers),
           "PYTHONPATH": os.pathsep.join([str(tree), str(workdir)])}
    command = [str(BIN / "gunicorn"), "-c", str(conf), *([app] if app else [])]
    start = time.time()
    with open(workdir / "gunicorn.log", "wb") as out:
        proc = subprocess.Popen(command, cwd=workdir, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        while True:
            lines = log.read_text().splitlines() if log.exists() else []
            if len(lines) >= workers:
                break
            if proc.poll() is not None or time.time() - start > limit:
                raise RuntimeError(f"gunicorn did not start its workers ({app or 'the API'}):\n"
                                   + (workdir / "gunicorn.log").read_text()[-3000:])
            time.sleep(0.01)
        master = cpu_of_pid(proc.pid)
    finally:
        stop(proc)
    ready = [tuple(map(float, line.split())) for line in lines]
    return (max(t for t, _ in ready) - start, statistics.fmean(c for _, c in ready), master)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=min(2 * (os.cpu_count() or 1) + 1, 8))
    parser.add_argument("--against", type=Path, metavar="DIR")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before giving up")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        (workdir / "hello.py").write_text(HELLO)
        db = stock_db(workdir / "dailydeal.db")
        kinds: dict[str, tuple[Path, str | None]] = {"hello app": (ROOT, "hello:app"),
                                                     "API": (ROOT, None)}
        if args.against is not None:  # the hello app under that tree's configuration too
            kinds["hello (against)"] = (args.against, "hello:app")
            kinds["API (against)"] = (args.against, None)
        figures: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in kinds}
        for _ in range(args.runs):
            for kind, (tree, app) in kinds.items():
                figures[kind].append(one_start(tree, app, workdir, db, args.workers, args.limit))
        print(f"gunicorn -c deploy/gunicorn.conf.py, {args.workers} gevent workers, "
              f"{args.runs} starts each, medians; {os.cpu_count()} CPUs, load "
              + " ".join(f"{x:.1f}" for x in os.getloadavg()))
        print(f"  {'':16} {'ready s':>8} {'worker CPU s':>13} {'master CPU s':>13}")
        for kind, runs in figures.items():
            wall, worker, master = (statistics.median(x) for x in zip(*runs, strict=True))
            print(f"  {kind:16} {wall:8.2f} {worker:13.3f} {master:13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
