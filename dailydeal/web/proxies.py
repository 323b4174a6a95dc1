"""The client's address behind reverse proxies trusted by address, never by count.

``TrustedProxies`` wraps the WSGI app when ``DAILYDEAL_TRUSTED_PROXIES`` lists the proxies
in front (addresses or networks). A request's ``X-Forwarded-For`` is read only when its
direct peer (``REMOTE_ADDR``) is one of them; its entries are then walked right to left
past every trusted hop, and the first one that is not trusted is the client (every hop
trusted: the leftmost). An entry that is not an IP address ends the walk at the hop that
wrote it, so a client never picks a fresh budget by writing garbage. ``X-Forwarded-Proto``
is taken from a trusted peer too (its last value).

The count it replaces (``DAILYDEAL_PROXIES=1``, werkzeug's ``ProxyFix``) took the last
entry from whoever sent one: a client that reached gunicorn directly (another container on
the compose network) picked any address, and counted results under as many (issue 39).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from dailydeal.config import Network

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_address(text: str) -> Address | None:
    """An IP address as a peer or a header writes it, or None: ``[2001:db8::1]:443`` and
    ``fe80::1%eth0`` are their addresses (no port, no zone), ``::ffff:10.0.0.1`` is
    ``10.0.0.1``. The one reading of an address for trust (here) and budgets
    (``extensions.network_of``)."""
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1 : text.index("]")]
    try:
        found = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped  # ::ffff:10.0.0.1 is 10.0.0.1
    return found


class TrustedProxies:
    """WSGI middleware: ``REMOTE_ADDR`` (and the scheme) from a trusted proxy's headers."""

    def __init__(self, app: Any, networks: Iterable[Network]) -> None:
        self.app = app
        self.networks = tuple(networks)

    def trusted(self, address: Address | None) -> bool:
        return address is not None and any(
            address.version == net.version and address in net for net in self.networks
        )

    def client(self, peer: str, forwarded: str) -> str:
        """The client's address: ``peer``'s own unless it is a trusted proxy, else the
        nearest untrusted entry of ``forwarded`` (X-Forwarded-For), right to left."""
        if not self.trusted(parse_address(peer)):
            return peer
        return self._forwarded(peer, forwarded)

    def _forwarded(self, peer: str, forwarded: str) -> str:
        """The nearest untrusted entry of ``forwarded``, right to left, behind the trusted
        ``peer``."""
        client = peer
        for entry in reversed([e for e in forwarded.split(",") if e.strip()]):
            found = parse_address(entry)
            if found is None:  # garbage: the hop that wrote it is the client we know
                break
            client = str(found)
            if not self.trusted(found):
                break
        return client

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        peer = environ.get("REMOTE_ADDR", "")
        if self.trusted(parse_address(peer)):
            environ["dailydeal.peer"] = peer
            # the peer is trusted (checked once): straight to the forwarded entries
            environ["REMOTE_ADDR"] = self._forwarded(peer, environ.get("HTTP_X_FORWARDED_FOR", ""))
            proto = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        return self.app(environ, start_response)
