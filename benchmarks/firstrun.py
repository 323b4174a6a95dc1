"""A newcomer's first ``make run``: seconds from a fresh clone until ``/`` answers.

    python3 benchmarks/firstrun.py                 # this repository's checked-out branch
    python3 benchmarks/firstrun.py --ref main      # another branch or commit, for before/after
    python3 benchmarks/firstrun.py --build         # also wait for the compiled solvers

Clones the repository (``git clone``, committed files only: no .venv, no build, no database)
into a temporary directory, runs ``make run PORT=<a free port>`` there, and prints the seconds
until ``GET /`` answers 200; with ``--build``, also until the package's ``compiled.json``
records a finished compiled build. Then it stops that ``make run`` (its whole process
group) and deletes the clone. Needs only the standard library, git, make and the network
that ``pip`` uses; nothing is cached between runs (this machine keeps no pip cache), as on a
newcomer's machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return bool(resp.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def build_finished(clone: Path) -> bool:
    """The compiled build is complete: its manifest names modules with their source hashes
    (not the "building" mark that dailydeal.native reads as "not yet")."""
    try:
        data = json.loads((clone / "dailydeal" / "compiled.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and bool(data) and "building" not in data.values()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="branch or commit to clone (HEAD)")
    parser.add_argument("--repo", default=str(ROOT), help="repository to clone (this one)")
    parser.add_argument("--build", action="store_true", help="wait for the compiled build too")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--keep-log", help="copy make run's output to this file")
    args = parser.parse_args(argv)
    # stopped by a signal (a background job ignores Ctrl-C): still stop make run, below
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))

    with tempfile.TemporaryDirectory(prefix="dailydeal-firstrun-") as tmp:
        clone = Path(tmp) / "dailydeal"
        subprocess.run(["git", "clone", "--quiet", args.repo, str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", args.ref], check=True)
        commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        log = Path(tmp) / "make-run.log"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DAILYDEAL_", "VIRTUAL_ENV", "MAKE"))}
        t0 = time.perf_counter()
        with log.open("wb") as out:
            # its own session: stopping it stops make, the server and any background build
            proc = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=clone, stdout=out,
                                    stderr=subprocess.STDOUT, env=env, start_new_session=True)
        served = built = None
        try:
            while time.perf_counter() - t0 < args.timeout and proc.poll() is None:
                now = time.perf_counter() - t0
                if served is None and answers(url):
                    served = now
                    print(f"{commit}: / answered after {served:.1f} s", flush=True)
                if args.build and built is None and build_finished(clone):
                    built = now
                    print(f"{commit}: compiled build finished after {built:.1f} s", flush=True)
                if served is not None and (built is not None or not args.build):
                    break
                time.sleep(0.25)
        finally:
            # as Ctrl-C in a terminal: SIGINT to the whole group, then SIGKILL to what is left
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                print(f"{commit}: make run did not stop within 30 s of Ctrl-C", flush=True)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            if args.keep_log:
                Path(args.keep_log).write_bytes(log.read_bytes())
        if served is None:
            sys.stdout.write(log.read_text(errors="replace")[-3000:])
            print(f"{commit}: / did not answer within {args.timeout:.0f} s "
                  f"(make run exit status {proc.returncode})")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
