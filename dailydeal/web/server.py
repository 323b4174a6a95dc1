"""Serve the API with gunicorn from Python: what ``dailydeal serve`` runs.

A real WSGI server (not Flask's development server): a gunicorn master with ``workers``
gevent workers (web/worker.py says why: slow clients). The caller may run a scheduler in
the master process; gunicorn forks the workers from it, and a forked child keeps no thread
but its own, so the scheduler runs once. The app is built in each worker, after gevent has
patched it (``make_app`` is called there), never in the master.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from dailydeal.web.worker import MAX_REQUEST_LINE, WORKER_CLASS


class Server(BaseApplication):  # type: ignore[misc]
    """gunicorn serving the Flask app that ``make_app`` builds, with the given settings."""

    def __init__(self, make_app: Callable[[], Flask], options: dict[str, Any]) -> None:
        self.make_app = make_app
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.make_app()


def serve(
    make_app: Callable[[], Flask],
    host: str,
    port: int,
    *,
    workers: int = 1,
    connections: int = 1000,
    **options: Any,
) -> None:
    """Run gunicorn on ``host:port`` until SIGINT/SIGTERM; the settings are those of
    deploy/gunicorn.conf.py that matter on one machine."""
    settings = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",  # IPv6 in brackets
        "workers": workers,
        "worker_class": WORKER_CLASS,
        "worker_connections": connections,
        "timeout": 30,
        "graceful_timeout": 8,
        "keepalive": 5,
        "limit_request_line": MAX_REQUEST_LINE,
        "forwarder_headers": "",  # never a SCRIPT_NAME or PATH_INFO header (see gunicorn.conf)
        "accesslog": "-",
        "errorlog": "-",
        "proc_name": "dailydeal-api",
        "control_socket_disable": True,  # one per $HOME otherwise; not used here
    }
    settings.update(options)
    Server(make_app, settings).run()
