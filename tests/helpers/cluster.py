"""Two API nodes behind nginx, sharing one redis-server: the pieces tests/test_cluster.py and
benchmarks/cluster.py start the same way."""

from __future__ import annotations

import datetime as dt
import http.client
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers import exchange, free_port, wait_for
from helpers.nginx import EXAMPLE, GUNICORN, SERVER_NAME, adapted, https_request

REDIS = shutil.which("redis-server")
DAILYDEAL = Path(sys.executable).parent / "dailydeal"
RESULTS_BUDGET = 4  # turns to count a result per network and deal an hour, both nodes


def yesterday() -> str:
    """Yesterday's date (UTC), ISO."""
    return (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).date().isoformat()


def generate(db: Path, secret: str, first: str | None = None,
             redis_url: str | None = None) -> Path:
    """A real `dailydeal generate` of yesterday..tomorrow (UTC): every date some time zone
    may call today, so /healthz is "ok". ``first``: the first date instead of yesterday;
    ``redis_url``: a generator of a cluster (one commitment time per deal, daily/shared.py)."""
    db.parent.mkdir(parents=True, exist_ok=True)
    if first is None:
        first = yesterday()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
           "DAILYDEAL_SECRET": secret, "DAILYDEAL_GAMES": "accordion",
           **({} if redis_url is None else {"DAILYDEAL_REDIS_URL": redis_url})}
    subprocess.run([str(DAILYDEAL), "generate", "--db", str(db), "--from", first,
                    "--days", "3", "--strict"], env=env, check=True, capture_output=True,
                   timeout=120)
    return db


def copy_db(src: Path, dst: Path) -> Path:
    """A consistent copy of a live SQLite file (what `sqlite3 src ".backup dst"` does)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    return dst


def deal_rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT * FROM deals ORDER BY id"))


@dataclass
class Node:
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        return exchange(conn, method, path, body, headers)

    def kill(self) -> None:
        """kill -9 of the master and its workers at once: a machine lost, not a shutdown."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def served(self) -> int:
        return sum(1 for line in self.log.read_text().splitlines() if '"GET /api' in line
                   or '"POST /api' in line)


@dataclass
class Cluster:
    port: int
    nodes: list[Node]
    dbs: list[Path]
    redis_url: str
    tmp: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return https_request(self.port, method, path, body, headers, timeout=30)


def start_redis(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    assert REDIS is not None
    port = free_port()
    proc = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True,
             "redis-server", tmp / "none.log")
    return proc, f"redis://127.0.0.1:{port}"


def start_node(db: Path, tmp: Path, secret: str, redis_url: str,
               access_log: bool = True) -> Node:
    """A gunicorn node from deploy/ (one worker); ``access_log=False`` for benchmarks."""
    port = free_port()
    tmp.mkdir(parents=True, exist_ok=True)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
        "DAILYDEAL_DB": str(db),
        "DAILYDEAL_SECRET": secret,
        "DAILYDEAL_GAMES": "accordion",
        "DAILYDEAL_BIND": f"127.0.0.1:{port}",
        "DAILYDEAL_WORKERS": "1",
        "DAILYDEAL_CONNECTIONS": "100",
        "DAILYDEAL_PUBLIC_URL": f"https://{SERVER_NAME}",
        "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",
        "DAILYDEAL_REDIS_URL": redis_url,  # results and every rate limit, shared
        "DAILYDEAL_VERIFY_LIMIT": "100000 per minute",  # the traffic below stays under it
        "DAILYDEAL_STATE_LIMIT": "100000 per minute",  # (and benchmarks/cluster.py's)
        "DAILYDEAL_COUNTED_LIMIT": f"{RESULTS_BUDGET} per hour",
        "DAILYDEAL_MIN_SECONDS_PER_MOVE": "0",  # the results below need not wait
    }
    log = tmp / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(GUNICORN), "-c", str(Path(EXAMPLE).parent / "gunicorn.conf.py"),
             *([] if access_log else ["--access-logfile", "/dev/null"])],
            cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes the workers too
        )
    return Node(port, proc, log)


def cluster_conf(tmp: Path, port: int, upstreams: list[int]) -> str:
    """The example with an upstream of every node (the example's one line, repeated)."""
    example = EXAMPLE.read_text()
    one = "server 127.0.0.1:8000;"
    more = "\n    ".join([one] + [f"server 127.0.0.1:{p};" for p in upstreams[1:]])
    conf = adapted(example.replace(one, more), tmp, port, upstreams[0])
    # adapted() sets an nginx verify limit of 1 per minute for test_nginx's 429; the
    # traffic here must not meet nginx's limit (the nodes' shared limit is what is tested)
    return conf.replace("rate=1r/m", "rate=10000r/s").replace("burst=1 ", "burst=1000 ")
