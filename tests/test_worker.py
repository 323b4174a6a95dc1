"""The gunicorn worker (dailydeal/web/worker.py) writing answers of the real app: a response's
head leaves with its body in one ``sendall``, so that a node killed between the two can
never hand nginx a head without a body (tests/test_cluster.py kills one under load)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.http.parser import RequestParser

from dailydeal.web.worker import GeventWorker


class Recorder:
    """The server's end of a socket pair, keeping each ``sendall`` as it was called."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))
        self.sock.sendall(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


@pytest.fixture
def exchange(app: Flask) -> Iterator[Any]:
    """Send one raw request to a real GeventWorker running the app; the ``sendall`` calls
    of its answer."""
    cfg = Config()
    worker = GeventWorker(0, 0, [], None, 30, cfg, Logger(cfg))
    worker.wsgi = app
    pairs: list[tuple[socket.socket, socket.socket]] = []

    def run(raw: bytes) -> list[bytes]:
        client, server = socket.socketpair()
        pairs.append((client, server))
        client.sendall(raw)
        recorder = Recorder(server)
        addr = ("203.0.113.9", 40000)
        req = next(iter(RequestParser(cfg, server, addr)))
        try:
            worker.handle_request("test", req, recorder, addr)
        except StopIteration:  # the answer closes the connection
            pass
        return recorder.sent

    yield run
    for pair in pairs:
        for s in pair:
            s.close()


def test_a_json_answer_is_one_write(exchange: Any) -> None:
    sent = exchange(b"GET /api/v1/healthz HTTP/1.1\r\nHost: h\r\n\r\n")
    assert len(sent) == 1, sent
    head, _, body = sent[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and b'"status"' in body


def test_a_problem_answer_is_one_write(exchange: Any) -> None:
    sent = exchange(b"GET /api/v1/deals/nope HTTP/1.1\r\nHost: h\r\n\r\n")
    assert len(sent) == 1, sent
    assert sent[0].startswith(b"HTTP/1.1 404 ") and b"application/problem+json" in sent[0]


def test_a_head_without_a_body_is_still_sent(exchange: Any) -> None:
    """A HEAD (and a 304) never writes a body: what was held is sent when the request ends."""
    sent = exchange(b"HEAD /api/v1/healthz HTTP/1.1\r\nHost: h\r\n\r\n")
    assert len(sent) == 1, sent
    assert sent[0].startswith(b"HTTP/1.1 200 ") and sent[0].endswith(b"\r\n\r\n")
