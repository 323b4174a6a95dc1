"""The yardstick of benchmarks/load.py: a minimal Flask app, run by the same gunicorn config
(``gunicorn -c deploy/gunicorn.conf.py --pythonpath benchmarks hello:app``): every path
answers a small JSON object, so the API's rates can be read as a fraction of what the
server, the worker class and (behind nginx) the proxy cost alone."""

from __future__ import annotations

from flask import Flask, Response

app = Flask(__name__)


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def hello(path: str) -> Response:
    return Response('{"hello":"world"}', mimetype="application/json")
