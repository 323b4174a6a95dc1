"""The gunicorn worker of every shipped way to run the API: gevent, with an I/O timeout.

Why not gthread: it hands a connection to a thread as soon as its first bytes arrive, and
the thread then blocks until the request is complete, so a handful of clients that send
half a request and wait (incomplete headers, or a body short of its Content-Length) held
every thread: 10 such connections stopped ``dailydeal serve`` (issue 9, item 1). A gevent
worker gives each connection a greenlet of a few KB instead: a stalled client costs memory,
not service, up to ``worker_connections`` per worker (1000 by default; past that, the
kernel's listen queue waits, and nginx in front is the answer).

Timeouts, so that stalled connections do not pile up either:

- the head of a request (request line and headers) must arrive within ``keepalive``
  seconds (gunicorn's gevent worker already bounds it so, for the first request too);
- every later read or write on the connection waits at most ``IO_TIMEOUT`` seconds: a body
  short of its Content-Length ends in a 408 problem, a client that stops reading is dropped.

A transfer coding other than chunked is a 400, not gunicorn's 501, and a request line or
headers too large for gunicorn are a 414 or 431 problem+json with CORS, not its HTML page,
which a browser client cannot even read (see ``handle_error``). The request line may be
``MAX_REQUEST_LINE`` bytes (deploy/gunicorn.conf.py and ``dailydeal serve``): a GET state
or hint of about 800 moves; past it, the 414 tells the client to POST the moves.

The app is imported in the worker after gevent has patched the standard library (never
preloaded in the master, where ``dailydeal serve`` runs the scheduler), so its locks and
per-thread SQLite connections are per greenlet. SQLite calls do not yield: each is short.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import gevent
from gunicorn.http.errors import (
    InvalidHeader,
    LimitRequestHeaders,
    LimitRequestLine,
    UnsupportedTransferCoding,
)
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker as _GeventWorker

IO_TIMEOUT = 10.0  # seconds a read or write on a client connection may wait
# gunicorn's largest bounded limit_request_line (0 would buffer any length): with nginx's
# default large_client_header_buffers (8k) the two refuse the same lines
MAX_REQUEST_LINE = 8190


class GeventWorker(_GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker with a timeout on every socket operation of a client."""

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        # gunicorn's GeventWorker.handle makes the socket blocking without a timeout
        client.settimeout(IO_TIMEOUT)
        AsyncWorker.handle(self, listener, client, addr)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        one_write = OneWrite(sock)
        try:
            return super().handle_request(listener_name, req, one_write, addr)
        finally:
            one_write.flush()
            # Let the other connections go first: when a keep-alive client's next request is
            # already there, reading it does not yield, and one busy connection would be
            # served again and again while the others wait (p99 of 0.4 s under wrk).
            gevent.sleep(0)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, UnsupportedTransferCoding):
            # gunicorn answers 501; RFC 9112 section 6.3 wants a 400 when chunked is not
            # the last coding, and a 5xx reads as a fault of this server to whoever
            # watches the logs: a coding other than chunked is the client's error.
            exc = InvalidHeader(f"Transfer-Encoding {exc} (only chunked is accepted)")
        if isinstance(exc, (LimitRequestLine, LimitRequestHeaders)):
            self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
            try:
                client.sendall(too_large(exc, self.cfg.limit_request_line))
            except OSError:
                pass  # the client is gone
            return  # the connection is closed by the caller, as after gunicorn's own page
        super().handle_error(req, client, addr, exc)


class OneWrite:
    """A client socket for one request, on which the response's head and the first part of
    its body leave in one ``sendall``.

    gunicorn writes the head, then the body, in two calls. Behind nginx, a node killed
    between the two has handed nginx a head without a body: nginx has passed the head on
    to its client and can no longer try the request on another node, so the client gets a
    truncated answer instead of a whole one from the other node (seen in
    tests/test_cluster.py). Held back and sent together, the two reach the kernel at once,
    which delivers them even when the process dies right after.
    """

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._first = True
        self._held = b""

    def sendall(self, data: bytes) -> None:
        if self._first:  # the head: wait for the body
            self._first = False
            self._held = bytes(data)
            return
        held, self._held = self._held, b""
        self._sock.sendall(held + data if held else data)

    def sendfile(self, *args: Any, **kwargs: Any) -> Any:
        self.flush()
        return self._sock.sendfile(*args, **kwargs)

    def flush(self) -> None:
        """Send what is held: a head whose body never came (a 304, a HEAD)."""
        held, self._held = self._held, b""
        if held:
            self._sock.sendall(held)

    def shutdown(self, how: int) -> None:
        self._held = b""  # gunicorn gives up on a response it had begun: send none of it
        self._sock.shutdown(how)

    def close(self) -> None:
        self._held = b""
        self._sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def too_large(exc: LimitRequestLine | LimitRequestHeaders, limit: int) -> bytes:
    """The whole HTTP answer to a request line or headers gunicorn refused to read: a
    problem as the API's (dailydeal/web/problems.py), with CORS, written before any app
    code runs (there is no request to give the app)."""
    if isinstance(exc, LimitRequestLine):
        status = 414
        detail = (
            f"The request line is longer than {limit} bytes: send long move lists in the body "
            'of a POST to the same URL instead ({"moves": [...]}, as docs/api.md says).'
        )
    else:
        status = 431
        detail = "The request's header fields are too many or too large."
    title = HTTPStatus(status).phrase
    body = json.dumps({"type": "about:blank", "title": title, "status": status,
                       "detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status} {title}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\n"
        "X-Content-Type-Options: nosniff\r\n\r\n"
    )
    return head.encode("ascii") + body


WORKER_CLASS = f"{__name__}.GeventWorker"
