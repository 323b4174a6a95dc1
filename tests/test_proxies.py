"""Proxies trusted by address, not by count (issue 39 item 6; dailydeal/web/proxies.py).

``DAILYDEAL_PROXIES=1`` took the last X-Forwarded-For entry from whoever sent one: another
container on the compose network reached gunicorn directly and counted 100 spoofed
results in 50 s. Now X-Forwarded-For is read only from a peer that
``DAILYDEAL_TRUSTED_PROXIES`` lists. (nginx in front still gives the real client's
address: tests/test_nginx.py.)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from dailydeal.config import Settings, SettingsError, parse_networks
from dailydeal.web import create_app
from dailydeal.web.db import forget
from dailydeal.web.proxies import TrustedProxies

API = "/api/v1"


def middleware(text: str) -> TrustedProxies:
    return TrustedProxies(None, parse_networks(text))


@pytest.mark.parametrize("peer,forwarded,client", [
    ("198.51.100.7", "203.0.113.1", "198.51.100.7"),  # a direct client: its header ignored
    ("10.1.2.3", "203.0.113.1", "203.0.113.1"),  # a trusted proxy: its entry
    ("10.1.2.3", "", "10.1.2.3"),  # a trusted peer that forwards nothing is the client
    # right to left past every trusted hop; what the client wrote first is never taken
    ("10.1.2.3", "1.2.3.4, 203.0.113.9, 10.0.0.5", "203.0.113.9"),
    ("10.1.2.3", "10.0.0.9, 10.0.0.5", "10.0.0.9"),  # every hop trusted: the leftmost
    ("10.1.2.3", "nonsense, 10.0.0.5", "10.0.0.5"),  # garbage: the hop that wrote it
    ("10.1.2.3", "203.0.113.1:4711", "10.1.2.3"),  # not an address either
    ("::1", "2001:db8::7", "2001:db8::7"),
    ("10.1.2.3", "[2001:db8::8]:443", "2001:db8::8"),
    ("::ffff:10.1.2.3", "203.0.113.4", "203.0.113.4"),  # an IPv4-mapped peer
    ("127.0.0.1", "203.0.113.1", "127.0.0.1"),  # loopback is not trusted unless listed
])
def test_the_client_is_the_nearest_untrusted_hop(peer: str, forwarded: str, client: str) -> None:
    assert middleware("10.0.0.0/8 ::1").client(peer, forwarded) == client


def test_settings_read_addresses_and_networks_and_refuse_the_count() -> None:
    settings = Settings.from_env(trusted_proxies=None)
    assert settings.trusted_proxies == ()
    nets = parse_networks("127.0.0.1, 10.0.0.0/8 ::1,fd00::/8 10.0.0.0/8")
    assert [str(n) for n in nets] == ["127.0.0.1/32", "10.0.0.0/8", "::1/128", "fd00::/8"]
    assert Settings(trusted_proxies="127.0.0.1").trusted_proxies == nets[:1]  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="DAILYDEAL_TRUSTED_PROXIES"):
        Settings(proxies=1)
    assert Settings(proxies=0).proxies == 0


@pytest.mark.parametrize("trusted", ["", "10.0.0.0/8"])
def test_a_direct_client_cannot_spoof_its_address(
    tmp_path: Path, fill_db: Any, now: dt.datetime, trusted: str
) -> None:
    """A client that reaches the API itself (its address not listed) shares one budget
    whatever X-Forwarded-For it sends."""
    path = fill_db(tmp_path / "direct.db")
    app = create_app({"db_path": path, "NOW": lambda: now, "verify_rate_limit": "1/minute",
                      "trusted_proxies": trusted})
    try:
        c = app.test_client()
        url = f"{API}/games/gaps/verify"
        direct = {"REMOTE_ADDR": "198.51.100.7"}
        first = c.post(url, json={"seed": 1, "moves": []}, environ_base=direct,
                       headers={"X-Forwarded-For": "203.0.113.1"})
        assert first.status_code == 200
        for spoof in ("203.0.113.2", "203.0.113.3, 10.0.0.1", "10.0.0.1"):
            again = c.post(url, json={"seed": 1, "moves": []}, environ_base=direct,
                           headers={"X-Forwarded-For": spoof})
            assert again.status_code == 429, spoof
            assert int(again.headers["Retry-After"]) > 0
        # the same request through a listed proxy is the forwarded client's
        if trusted:
            proxied = c.post(url, json={"seed": 1, "moves": []},
                             environ_base={"REMOTE_ADDR": "10.0.0.1"},
                             headers={"X-Forwarded-For": "203.0.113.2"})
            assert proxied.status_code == 200
    finally:
        forget(path)


def test_results_are_counted_under_the_real_address_only(
    tmp_path: Path, fill_db: Any, now: dt.datetime, days: dict[str, dt.date],
    problem: Any,
) -> None:
    """The finding: spoofed X-Forwarded-For values made fresh budgets of plays begun (and
    so of counted results); from a direct client they are all one address."""
    path = fill_db(tmp_path / "plays.db")
    app = create_app({"db_path": path, "NOW": lambda: now, "plays_rate_limit": "2 per day",
                      "trusted_proxies": "10.0.0.0/8"})
    try:
        c = app.test_client()
        url = f"{API}/deals/{days['today'].isoformat()}-gaps-easy/plays"
        direct = {"REMOTE_ADDR": "198.51.100.7"}
        codes = [c.post(url, environ_base=direct,
                        headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                 for i in range(1, 4)]
        assert codes[0] == codes[1] < 300 and codes[2] == 429, codes
        problem(c.post(url, environ_base=direct, headers={"X-Forwarded-For": "203.0.113.9"}),
                429)
    finally:
        forget(path)
