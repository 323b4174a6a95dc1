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

A transfer coding other than chunked is a 400, not gunicorn's 501 (see ``handle_error``).

The app is imported in the worker after gevent has patched the standard library (never
preloaded in the master, where ``dailydeal serve`` runs the scheduler), so its locks and
per-thread SQLite connections are per greenlet. SQLite calls do not yield: each is short.
"""

from __future__ import annotations

from typing import Any

import gevent
from gunicorn.http.errors import InvalidHeader, UnsupportedTransferCoding
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker as _GeventWorker

IO_TIMEOUT = 10.0  # seconds a read or write on a client connection may wait


class GeventWorker(_GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker with a timeout on every socket operation of a client."""

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        # gunicorn's GeventWorker.handle makes the socket blocking without a timeout
        client.settimeout(IO_TIMEOUT)
        AsyncWorker.handle(self, listener, client, addr)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
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
        super().handle_error(req, client, addr, exc)


WORKER_CLASS = f"{__name__}.GeventWorker"
