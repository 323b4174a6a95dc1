"""Serve the API with gunicorn from Python: what ``dailydeal serve`` runs.

A real WSGI server (not Flask's development server): a gunicorn master with ``workers``
gthread workers. The caller may run a scheduler in the master process; gunicorn forks the
workers from it, and a forked child keeps no thread but its own, so the scheduler runs once.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication


class Server(BaseApplication):  # type: ignore[misc]
    """gunicorn serving an already built Flask app with the given settings."""

    def __init__(self, app: Flask, options: dict[str, Any]) -> None:
        self.application = app
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application


def serve(
    app: Flask, host: str, port: int, *, workers: int = 1, threads: int = 8, **options: Any
) -> None:
    """Run gunicorn on ``host:port`` until SIGINT/SIGTERM."""
    settings = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": 60,
        "accesslog": "-",
        "errorlog": "-",
        "proc_name": "dailydeal-api",
        "control_socket_disable": True,  # one per $HOME otherwise; not used here
    }
    settings.update(options)
    Server(app, settings).run()
