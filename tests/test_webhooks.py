"""Webhooks (dailydeal/daily/webhooks.py) against a real HTTP receiver on 127.0.0.1, and
the DAILYDEAL_WEBHOOKS settings refused with one clear line."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from dailydeal.config import Settings, SettingsError, parse_webhooks
from dailydeal.daily import clock, webhooks
from dailydeal.daily.generate import FillReport
from dailydeal.games import GAMES, default_variant
from dailydeal.web import create_app

SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff"
FAST = (0.01, 0.02)  # the tests' backoff


class Receiver:
    """A local webhook receiver: answers each POST with the next planned status (then
    200), and keeps what it got."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, str], bytes]] = []
        self.plan: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                data = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append((self.path, dict(self.headers), data))
                status = receiver.plan.pop(0) if receiver.plan else 200
                self.send_response(status)
                if status in (301, 302, 307):
                    self.send_header("Location", "http://127.0.0.1:9/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()
    r.server.server_close()


def settings_for(db: Path, hooks: list[tuple[str, str]]) -> Settings:
    """The receivers of these tests listen on 127.0.0.1: webhooks need the setting that
    allows a private address."""
    games = tuple((g, default_variant(g)) for g in GAMES)
    return Settings(db_path=db, secret=SECRET, games=games, webhooks=tuple(hooks),
                    webhook_secret=SECRET, public_url="https://cards.example",
                    webhook_private=True)


def test_each_format_once_with_links_that_work(
    receiver: Receiver, tmp_path: Path, fill_db: Any, days: dict[str, dt.date],
    now: dt.datetime,
) -> None:
    db = fill_db(tmp_path / "w.db")
    hooks = [("slack", receiver.url + "/slack"), ("discord", receiver.url + "/discord"),
             ("json", receiver.url + "/json")]
    settings = settings_for(db, hooks)
    # the moment today begins at UTC+14: today is the newest date, future is not begun
    moment = clock.begins_at(days["today"]) + dt.timedelta(minutes=5)
    done = webhooks.announce(settings, moment, backoff=FAST)
    assert [(d.kind, d.status, d.date) for d in done] == [
        (k, "sent", days["today"]) for k, _ in hooks]
    got = {path: (headers, json.loads(data)) for path, headers, data in receiver.got}
    assert set(got) == {"/slack", "/discord", "/json"}
    today = days["today"].isoformat()
    slack, discord = got["/slack"][1]["text"], got["/discord"][1]["content"]
    assert f"<https://cards.example/play/{today}-pyramid-hard|hard>" in slack
    assert f"[hard](<https://cards.example/play/{today}-gaps-hard>)" in discord
    assert got["/discord"][1]["allowed_mentions"] == {"parse": []}
    headers, day = got["/json"]
    assert day["date"] == today and len(day["deals"]) == 12
    assert days["future"].isoformat() not in json.dumps(got)  # never a deal before its day
    # the signature: HMAC-SHA256 of "timestamp.body" with the secret
    raw = next(data for path, _, data in receiver.got if path == "/json")
    stamp = headers[webhooks.TIMESTAMP]
    mac = hmac.new(SECRET.encode(), stamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    assert headers[webhooks.SIGNATURE] == "sha256=" + mac
    assert abs(int(stamp) - time.time()) < 60
    # every link is a page or answer of the app
    client = create_app({"db_path": db, "NOW": lambda: moment}).test_client()
    for deal in day["deals"][:3]:
        for key in ("play_url", "api_url", "preview_url"):
            path = deal[key].removeprefix("https://cards.example")
            assert client.get(path).status_code == 200, path
    assert client.get(day["api_url"].removeprefix("https://cards.example")).status_code == 200
    # once per date and hook: the next hourly run posts nothing
    assert webhooks.announce(settings, moment + dt.timedelta(hours=1), backoff=FAST) == []
    assert len(receiver.got) == 3


def test_retries_then_delivers(
    receiver: Receiver, tmp_path: Path, fill_db: Any, days: dict[str, dt.date]
) -> None:
    settings = settings_for(fill_db(tmp_path / "r.db"), [("json", receiver.url + "/h")])
    receiver.plan = [503, 429]
    moment = clock.begins_at(days["today"])
    [done] = webhooks.announce(settings, moment, backoff=FAST)
    assert (done.status, done.attempts) == ("sent", 3)
    assert len(receiver.got) == 3


def test_a_dead_receiver_is_tried_again_by_the_next_run(
    receiver: Receiver, tmp_path: Path, fill_db: Any, days: dict[str, dt.date]
) -> None:
    settings = settings_for(fill_db(tmp_path / "d.db"), [("slack", receiver.url + "/h")])
    receiver.plan = [500, 500, 500]
    moment = clock.begins_at(days["today"])
    [done] = webhooks.announce(settings, moment, backoff=FAST)
    assert done.status == "retry"
    [again] = webhooks.announce(settings, moment + dt.timedelta(hours=1), backoff=FAST)
    assert again.status == "sent" and len(receiver.got) == 4


@pytest.mark.parametrize("status", [404, 302])
def test_a_final_answer_is_not_repeated(
    receiver: Receiver, tmp_path: Path, fill_db: Any, days: dict[str, dt.date], status: int
) -> None:
    settings = settings_for(fill_db(tmp_path / "f.db"), [("discord", receiver.url + "/h")])
    receiver.plan = [status]
    moment = clock.begins_at(days["today"])
    [done] = webhooks.announce(settings, moment, backoff=FAST)
    assert (done.status, done.attempts) == ("failed", 1)
    assert webhooks.announce(settings, moment + dt.timedelta(hours=1), backoff=FAST) == []
    assert [path for path, _, _ in receiver.got] == ["/h"]  # no redirect followed


def test_nothing_listens_and_generation_goes_on(
    tmp_path: Path, fill_db: Any, days: dict[str, dt.date], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused connection is logged, never raised; ``start`` returns at once."""
    import socket

    with socket.socket() as s:  # a port with nobody listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = settings_for(fill_db(tmp_path / "n.db"), [("json", f"http://127.0.0.1:{port}/")])
    moment = clock.begins_at(days["today"])
    [done] = webhooks.announce(settings, moment, backoff=FAST, timeout=1)
    assert done.status == "retry" and done.attempts == webhooks.ATTEMPTS
    # start's announce is held until start has returned (its own backoff took 10 s): a
    # start that waited for it would wait the 30 s out
    release = threading.Event()
    announce = webhooks.announce

    def held(*args: Any) -> list[Any]:
        release.wait(30)
        return announce(*args, backoff=FAST, timeout=1)

    monkeypatch.setattr(webhooks, "announce", held)
    t0 = time.perf_counter()
    thread = webhooks.start(settings, moment)
    assert thread is not None and time.perf_counter() - t0 < 0.5
    release.set()
    thread.join(30)
    assert not thread.is_alive()


def test_incomplete_date_waits(receiver: Receiver, tmp_path: Path, days: dict[str, dt.date],
                               fill_db: Any) -> None:
    db = fill_db(tmp_path / "i.db")
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER IF EXISTS deals_commitment_is_final")
        conn.execute("DELETE FROM deals WHERE date = ? AND tier = 'expert'",
                     [days["today"].isoformat()])
    settings = settings_for(db, [("json", receiver.url + "/h")])
    assert webhooks.announce(settings, clock.begins_at(days["today"]), backoff=FAST) == []
    assert receiver.got == []


# --- settings ----------------------------------------------------------------------------
def test_parse_webhooks() -> None:
    assert parse_webhooks("slack=https://hooks.slack.com/services/T/B/x, json=http://h:8/p?a=b") \
        == (("slack", "https://hooks.slack.com/services/T/B/x"), ("json", "http://h:8/p?a=b"))


@pytest.mark.parametrize(
    "text",
    [
        "https://hooks.example/x",  # no format
        "teams=https://x.example/",
        "slack=ftp://x.example/",
        "slack=https://",
        "slack=https://x.example:99999/",
        "slack=https://[::1/",
        "slack=https://x.example/" + "a" * 3000,
        "slack=https://bücher.example/",
        " ".join(["slack=https://x.example/"] * 21),
    ],
)
def test_bad_webhooks_are_refused(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAILYDEAL_WEBHOOKS", text)
    monkeypatch.setenv("DAILYDEAL_PUBLIC_URL", "https://cards.example")
    monkeypatch.setenv("DAILYDEAL_WEBHOOK_SECRET", SECRET)
    with pytest.raises(SettingsError) as exc:
        Settings.from_env()
    message = str(exc.value)
    assert message.startswith("bad DAILYDEAL_WEBHOOKS:") and "\n" not in message
    assert "x.example/a" not in message  # a webhook URL is a credential: never echoed


def _cli(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")}
    return subprocess.run(
        [sys.executable, "-c", "from dailydeal.cli import main; main()", *args],
        env={**base, "DAILYDEAL_SECRET": SECRET, **env}, cwd=cwd,
        capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize(
    "env,words",
    [
        ({"DAILYDEAL_WEBHOOKS": "slack=nope"}, ["DAILYDEAL_WEBHOOKS", "webhook 1"]),
        ({"DAILYDEAL_WEBHOOKS": "slack=https://hooks.example/T0/secret"},
         ["needs DAILYDEAL_PUBLIC_URL"]),
        ({"DAILYDEAL_WEBHOOKS": "json=https://hooks.example/p",
          "DAILYDEAL_PUBLIC_URL": "https://cards.example"}, ["DAILYDEAL_WEBHOOK_SECRET"]),
        ({"DAILYDEAL_WEBHOOKS": "json=https://hooks.example/p",
          "DAILYDEAL_PUBLIC_URL": "https://cards.example",
          "DAILYDEAL_WEBHOOK_SECRET": "short"}, ["DAILYDEAL_WEBHOOK_SECRET is too short"]),
        ({"DAILYDEAL_PUBLIC_URL": "cards.example"}, ["DAILYDEAL_PUBLIC_URL", "http"]),
    ],
)
@pytest.mark.parametrize("command", [["generate", "--days", "0"], ["schedule"],
                                     ["serve", "--fill", "no", "--no-scheduler"]])
def test_bad_webhook_settings_are_one_error_line(
    env: dict[str, str], words: list[str], command: list[str], tmp_path: Path
) -> None:
    result = _cli(command, env, tmp_path)
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "/T0/secret" not in result.stderr
    assert not (tmp_path / "data").exists()  # refused before anything was made


def test_fill_stock_starts_the_announcement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dailydeal.daily import scheduler

    calls: list[Settings] = []
    monkeypatch.setattr(scheduler, "fill_days", lambda *a, **k: FillReport(dt.date(2026, 12, 1), 0))
    monkeypatch.setattr(webhooks, "start", lambda settings, now=None: calls.append(settings))
    settings = Settings(db_path=tmp_path / "s.db", secret=SECRET)
    scheduler.fill_stock(settings, dt.datetime(2026, 12, 1, 10, 5, tzinfo=dt.UTC))
    assert calls == [settings]




# --- hostile receivers and targets (issue 39) --------------------------------------------
class Trickle:
    """A receiver that reads a request, then sends one byte a second, forever (or, with
    ``tls``, before any TLS handshake): what held a delivery past 100 s when the timeout
    was per read."""

    def __init__(self) -> None:
        import socket

        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.drip, args=(conn,), daemon=True).start()

    def drip(self, conn: Any) -> None:
        with conn:
            conn.settimeout(0.5)
            try:
                conn.recv(65536)
            except OSError:
                pass
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 1000:
                if self.stop.wait(1.0):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


@pytest.fixture
def trickle() -> Iterator[Trickle]:
    t = Trickle()
    yield t
    t.close()


HEADERS = {"Content-Type": "application/json"}


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_receiver_sending_a_byte_a_second_is_cut_at_the_deadline(
    trickle: Trickle, scheme: str
) -> None:
    """The deadline holds for the whole request (https: a handshake that trickles too)."""
    t0 = time.monotonic()
    ok, again, reason = webhooks.post(f"{scheme}://127.0.0.1:{trickle.port}/h", b"{}",
                                      HEADERS, timeout=2.5, private=True)
    took = time.monotonic() - t0
    assert (ok, again) == (False, True) and "timed out" in reason, reason
    assert 2.4 <= took < 3.5, took


def test_a_slow_hook_delays_no_other(
    trickle: Trickle, receiver: Receiver, tmp_path: Path, fill_db: Any,
    days: dict[str, dt.date],
) -> None:
    received: list[float] = []
    handler = receiver.server.RequestHandlerClass
    original = handler.do_POST  # type: ignore[attr-defined]

    def timed(self: Any) -> None:
        received.append(time.monotonic())
        original(self)

    handler.do_POST = timed  # type: ignore[attr-defined]
    hooks = [("json", f"http://127.0.0.1:{trickle.port}/slow")] + [
        ("slack", receiver.url + f"/fast{n}") for n in range(3)]
    settings = settings_for(fill_db(tmp_path / "p.db"), hooks)
    t0 = time.monotonic()
    done = webhooks.announce(settings, clock.begins_at(days["today"]), backoff=FAST,
                             timeout=2)
    took = time.monotonic() - t0
    assert [d.status for d in done] == ["retry", "sent", "sent", "sent"]
    assert "timed out" in done[0].reason and done[0].attempts == webhooks.ATTEMPTS
    # the others were posted before the slow one's first attempt had even ended
    assert len(received) == 3 and max(received) - t0 < 2, [r - t0 for r in received]
    # the slow one: three attempts of 2 s and the pauses, not a byte's worth each
    assert took < webhooks.ATTEMPTS * 2 + sum(FAST) + 1.5, took


SPELLINGS = [
    "127.0.0.1", "2130706433", "0x7f.1", "017700000001", "0x7f000001", "127.1",
    "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]",
    "localhost", "LocalHost", "0.0.0.0", "0", "[::]",
]
TARGETS = [
    "169.254.169.254", "2852039166", "[::ffff:169.254.169.254]", "[fd00:ec2::254]",
    "100.100.100.200", "192.0.0.192", "10.0.0.1", "172.16.0.1", "192.168.1.1",
    "100.64.0.1", "224.0.0.1", "240.0.0.1", "255.255.255.255", "[fe80::1]", "[fc00::1]",
    "[ff02::1]", "[64:ff9b::a9fe:a9fe]", "[2002:7f00:1::]", "[2002:a9fe:a9fe::]",
]


@pytest.mark.parametrize("host", SPELLINGS)
def test_loopback_is_refused_in_every_spelling(receiver: Receiver, host: str) -> None:
    port = receiver.server.server_address[1]
    ok, again, reason = webhooks.post(f"http://{host}:{port}/h", b"{}", HEADERS, timeout=2)
    assert (ok, again) == (False, False), reason  # final: never tried again
    assert reason.startswith("refused: ") and "DAILYDEAL_WEBHOOK_PRIVATE" in reason, reason
    assert receiver.got == []


@pytest.mark.parametrize("host", TARGETS)
def test_private_link_local_and_metadata_targets_are_refused(host: str) -> None:
    ok, again, reason = webhooks.post(f"http://{host}/latest/meta-data/", b"{}", HEADERS,
                                      timeout=2)
    assert (ok, again) == (False, False) and reason.startswith("refused: "), reason


@pytest.mark.parametrize("address", ["8.8.8.8", "2001:4860:4860::8888", "1.1.1.1",
                                     "::ffff:8.8.8.8", "2002:808:808::1"])
def test_public_addresses_are_allowed(address: str) -> None:
    assert webhooks.refused(address) == ""


def test_a_name_resolving_to_a_private_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    import socket

    answers = {"inside.example": ["10.1.2.3"], "mixed.example": ["8.8.8.8", "127.0.0.1"]}
    monkeypatch.setattr(webhooks, "lookup", lambda host, port: [
        (socket.AF_INET, (a, port)) for a in answers[host]])
    for host in answers:
        ok, again, reason = webhooks.post(f"https://{host}/h", b"{}", HEADERS, timeout=2)
        assert (ok, again) == (False, False) and "refused" in reason, (host, reason)


def test_a_refused_hook_is_final_and_never_posted(
    receiver: Receiver, tmp_path: Path, fill_db: Any, days: dict[str, dt.date]
) -> None:
    hooks = [("slack", receiver.url.replace("127.0.0.1", "2130706433") + "/h")]
    settings = settings_for(fill_db(tmp_path / "x.db"), hooks).with_(webhook_private=False)
    moment = clock.begins_at(days["today"])
    [done] = webhooks.announce(settings, moment, backoff=FAST)
    assert (done.status, done.attempts) == ("failed", 1) and "loopback" in done.reason
    assert webhooks.announce(settings, moment + dt.timedelta(hours=1), backoff=FAST) == []
    assert receiver.got == []


def test_the_checked_address_is_the_one_connected_to(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    """One lookup per attempt, checked, then the connection goes to that address with the
    name in Host: a second lookup (DNS rebinding) would fail this test."""
    import socket

    port = receiver.server.server_address[1]
    calls: list[str] = []

    def lookup(host: str, port: int) -> list[tuple[int, Any]]:
        calls.append(host)
        return [(socket.AF_INET, ("127.0.0.1", port))]

    real = socket.getaddrinfo

    def no_second_lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        assert host != "hooks.test", "resolved again after the check"
        return real(host, *args, **kwargs)

    monkeypatch.setattr(webhooks, "lookup", lookup)
    monkeypatch.setattr(socket, "getaddrinfo", no_second_lookup)
    ok, _, reason = webhooks.post(f"http://hooks.test:{port}/p?a=b", b"{}", HEADERS, 2,
                                  private=True)
    assert ok, reason
    assert calls == ["hooks.test"]
    [(path, headers, _)] = receiver.got
    assert path == "/p?a=b" and headers["Host"] == f"hooks.test:{port}"
    # without the setting, the same name is refused for the address it resolves to
    ok, again, reason = webhooks.post(f"http://hooks.test:{port}/p", b"{}", HEADERS, 2)
    assert (ok, again) == (False, False) and "127.0.0.1, a loopback address" in reason


def test_tls_goes_to_the_checked_address_with_the_name_as_sni(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutil
    import socket
    import ssl

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a test certificate")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(tmp_path / "k.pem"), "-out", str(tmp_path / "c.pem"),
         "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test"],
        check=True, capture_output=True, timeout=60,
    )
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(tmp_path / "c.pem", tmp_path / "k.pem")
    names: list[str | None] = []
    server_side.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def answer() -> None:
        conn, _ = listener.accept()
        with server_side.wrap_socket(conn, server_side=True) as tls:
            tls.recv(65536)
            tls.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")

    threading.Thread(target=answer, daemon=True).start()
    client_side = ssl.create_default_context(cafile=str(tmp_path / "c.pem"))
    monkeypatch.setattr(webhooks, "_TLS", client_side)
    monkeypatch.setattr(webhooks, "lookup",
                        lambda host, p: [(socket.AF_INET, ("127.0.0.1", p))])
    try:
        ok, _, reason = webhooks.post(f"https://hooks.test:{port}/h", b"{}", HEADERS, 5,
                                      private=True)
    finally:
        listener.close()
    assert ok, reason
    assert names == ["hooks.test"]
