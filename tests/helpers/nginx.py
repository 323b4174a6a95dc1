"""deploy/nginx.conf.example for real: the example adapted to a test's ports and paths,
and a request to it (tests/test_nginx.py, tests/test_cluster.py, benchmarks/cluster.py)."""

from __future__ import annotations

import http.client
import os
import shutil
import ssl
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import ROOT, exchange

EXAMPLE = ROOT / "deploy" / "nginx.conf.example"
GUNICORN = Path(sys.executable).parent / "gunicorn"
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if os.access(p, os.X_OK)), None
)
OPENSSL = shutil.which("openssl")
SERVER_NAME = "deals.example.org"


def adapted(example: str, tmp: Path, port: int, upstream: int) -> str:
    """The example with this machine's ports and paths: nothing else changes."""
    subs = {
        "/var/cache/nginx/dailydeal": str(tmp / "cache"),
        "listen 443 ssl http2;": f"listen 127.0.0.1:{port} ssl http2;",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        f"/etc/letsencrypt/live/{SERVER_NAME}/fullchain.pem": str(tmp / "cert.pem"),
        f"/etc/letsencrypt/live/{SERVER_NAME}/privkey.pem": str(tmp / "key.pem"),
        # a limit a test can reach: 1 verify per minute past the first, burst 1
        "rate=5r/s": "rate=1r/m",
        "burst=20": "burst=1",
    }
    for old, new in subs.items():
        assert old in example, f"the example no longer has {old!r}: update this test"
        example = example.replace(old, new)
    temp = "\n".join(f"    {kind}_temp_path {tmp / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # as root, nginx's workers would switch to nobody, who cannot enter pytest's tmp_path
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\n"
        "events { worker_connections 128; }\n"
        f"http {{\n    access_log {tmp / 'access.log'};\n{temp}\n"
        "    default_type application/octet-stream;\n"
        f"{example}\n}}\n"
    )


def https_request(port: int, method: str, path: str, body: bytes | None = None,
                  headers: dict[str, str] | None = None,
                  timeout: float = 15) -> tuple[int, dict[str, str], bytes]:
    """One request to the test's nginx on ``port`` as ``SERVER_NAME``: (status, headers with
    lower-case names, body)."""
    context = ssl._create_unverified_context()  # the test's self-signed certificate
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=context)
    return exchange(conn, method, path, body, {"Host": SERVER_NAME, **(headers or {})})


@dataclass
class Front:
    port: int
    gunicorn: subprocess.Popen[bytes]
    tmp: Path

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return https_request(self.port, method, path, body, headers)


def state_url(days: dict[str, Any]) -> str:
    """The state URL of a deal the fixture's database holds and the server serves."""
    return f"/api/v1/deals/{days['today']}-pyramid-easy/state"
