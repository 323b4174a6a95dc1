"""The API's settings, bad files and Ctrl-C on the command line: one clear line and exit 1,
never a traceback; Ctrl-C on `serve --fill background` stops every process cleanly. The
real `dailydeal` command runs in a child process, as an administrator would run it
(helpers/cli.py; the other settings: tests/test_cli_errors.py).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import fill_workers, free_port
from helpers.cli import COMMAND, STRONG, one_clear_line, run

from dailydeal.daily import store


@pytest.mark.parametrize(
    "env,words",
    [
        ({"DAILYDEAL_PROXIES": "1"}, ["DAILYDEAL_PROXIES='1'", "DAILYDEAL_TRUSTED_PROXIES"]),
        ({"DAILYDEAL_TRUSTED_PROXIES": "10.0.0.0/33"},
         ["DAILYDEAL_TRUSTED_PROXIES", "'10.0.0.0/33' is not an IP address or network"]),
        ({"DAILYDEAL_HINT_TIME_LIMIT": "soon"}, ["DAILYDEAL_HINT_TIME_LIMIT='soon'"]),
        ({"DAILYDEAL_VERIFY_LIMIT": "garbage"}, ["DAILYDEAL_VERIFY_LIMIT", "'garbage'"]),
        ({"DAILYDEAL_STATE_LIMIT": "10 per fortnight"}, ["DAILYDEAL_STATE_LIMIT"]),
        ({"DAILYDEAL_RESULTS_LIMIT": "many"}, ["DAILYDEAL_RESULTS_LIMIT", "'many'"]),
        ({"DAILYDEAL_HINT_QUEUE": "-1"}, ["DAILYDEAL_HINT_QUEUE", ">= 0"]),
        ({"DAILYDEAL_REDIS_URL": "localhost:6379"}, ["DAILYDEAL_REDIS_URL", "redis://"]),
    ],
)
def test_bad_web_settings_on_serve(env: dict[str, str], words: list[str], tmp_path: Path) -> None:
    """The API's own settings are checked before anything is filled or served."""
    command = ["serve", "--fill", "no", "--no-scheduler", "--db", str(tmp_path / "d.db")]
    one_clear_line(run(command, env, tmp_path), *words)


def test_a_corrupt_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"\x00garbage" * 1000)
    for command in (["generate", "--days", "1"], ["schedule"],
                    ["serve", "--fill", "no", "--no-scheduler"]):
        result = run([*command, "--db", str(bad)], {}, tmp_path)
        one_clear_line(result, f"cannot use the database {bad}", "file is not a database")
    assert bad.read_bytes() == b"\x00garbage" * 1000


def test_a_database_where_none_can_be(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = run(["generate", "--days", "1", "--db", str(tmp_path / "file" / "d.db")], {},
                 tmp_path)
    one_clear_line(result, "cannot open the database", "is not a directory")
    result = run(["generate", "--days", "1"], {"DAILYDEAL_DB": str(tmp_path)}, tmp_path)
    one_clear_line(result, "is a directory")


def test_an_unreadable_secret_file(tmp_path: Path) -> None:
    env = {"DAILYDEAL_SECRET": "", "DAILYDEAL_SECRET_FILE": str(tmp_path)}  # a directory
    result = run(["generate", "--days", "1", "--db", str(tmp_path / "d.db")], env, tmp_path)
    one_clear_line(result, f"cannot read the secret file {tmp_path}")


def test_ctrl_c_on_serve_with_a_background_fill_stops_cleanly(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches the whole process group: the server, its worker, the
    background filler. All stop, without a traceback, and the command exits 0."""
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
           "DAILYDEAL_SECRET": STRONG, "DAILYDEAL_GAMES": "gaps,pyramid",
           "DAILYDEAL_MAX_NODES": "20000"}
    soon = "import dailydeal.cli.web as web; web.FIRST_STOCK_DELAY = 0.2; "  # the fill's start
    proc = subprocess.Popen(
        [sys.executable, "-c", soon + COMMAND[-1], "serve", "--db", str(tmp_path / "d.db"),
         "--fill", "background", "--port", str(port)],
        env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120  # a hang guard, not a speed target
        while time.monotonic() < deadline:  # the worker answers: everything is up
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        # until the filler is at work: its solver process ignores Ctrl-C (a fixed 2 s came
        # before the fill began, 10 s in; or, on a loaded machine, while the process was
        # still importing, before it ignores Ctrl-C: a KeyboardInterrupt traceback)
        while fill_workers(proc.pid) < 1:
            assert proc.poll() is None, "serve stopped by itself"
            assert time.monotonic() < deadline, "the fill never began"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, out
    assert "stopping the fill of deals" in out, out  # it was at work
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert "exited with code" not in out, out  # no worker exits 1
    assert "Exception ignored" not in out, out
    db = store.open_db(tmp_path / "d.db")  # whatever was stored is intact
    assert store.integrity_check(db) == "ok"
