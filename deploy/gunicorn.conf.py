"""gunicorn settings for the dailydeal API: `gunicorn -c deploy/gunicorn.conf.py`.

Workers only serve: the scheduler that generates deals runs as ONE separate process
(`dailydeal schedule`, deploy/dailydeal-scheduler.service), never one per worker. Each
worker opens the SQLite file read-only in practice (WAL lets readers and the scheduler's
writer work at the same time).

Workers are gevent workers with an I/O timeout (dailydeal/web/worker.py): a client that
sends half a request and waits holds a greenlet, not a thread, so slow clients cannot stop
the service (the gthread workers used before were stopped by 10 of them). Measured by
benchmarks/slow_clients.py.

Environment: DAILYDEAL_BIND (default 127.0.0.1:8000), DAILYDEAL_WORKERS (default
2 x CPUs + 1, at most 8), DAILYDEAL_CONNECTIONS (simultaneous connections per worker,
default 1000), DAILYDEAL_FORWARDED_ALLOW_IPS (proxies trusted for X-Forwarded-Proto,
default 127.0.0.1), DAILYDEAL_LOGLEVEL, plus the app's own: DAILYDEAL_DB,
DAILYDEAL_VERIFY_LIMIT, DAILYDEAL_RATELIMIT_STORAGE, DAILYDEAL_TRUSTED_PROXIES (the proxies
whose X-Forwarded-For gives the client's address: deploy/README.md), DAILYDEAL_PUBLIC_URL,
DAILYDEAL_GAMES, DAILYDEAL_HINT_PROCESSES and DAILYDEAL_HINT_QUEUE (each worker's own solver
processes and hint queue: hints are never searched in a worker, dailydeal/solverpool.py).
"""

import importlib
import multiprocessing
import os

wsgi_app = "dailydeal.web:create_app()"
bind = os.environ.get("DAILYDEAL_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("DAILYDEAL_WORKERS", min(2 * multiprocessing.cpu_count() + 1, 8)))
worker_class = "dailydeal.web.worker.GeventWorker"
worker_connections = int(os.environ.get("DAILYDEAL_CONNECTIONS", 1000))
preload_app = False  # each worker builds its app after gevent has patched it
timeout = 30  # a verify is bounded (64 KiB body, 5000 moves): far under this
graceful_timeout = 8  # under `docker stop`'s 10 s: a stop is clean, not a SIGKILL
keepalive = 5  # also the time the head of a request may take to arrive
max_requests = 10000  # recycle workers now and then
max_requests_jitter = 1000
# a GET state or hint of about 800 moves (the player POSTs longer lists); past it, a 414
# problem with CORS (dailydeal/web/worker.py); 8190 is gunicorn's largest bounded value
limit_request_line = 8190
limit_request_fields = 50
forwarded_allow_ips = os.environ.get("DAILYDEAL_FORWARDED_ALLOW_IPS", "127.0.0.1")
# No SCRIPT_NAME or PATH_INFO from headers, even from a trusted proxy: a client-sent
# SCRIPT_NAME that is no prefix of the path was a 500 with forwarded_allow_ips = "*".
forwarder_headers = ""
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("DAILYDEAL_LOGLEVEL", "info")
proc_name = "dailydeal-api"
# gunicorn >= 25.1 opens a control socket in $HOME by default: several instances on one
# machine would share its path, and nothing here uses it (older gunicorn ignores this name).
control_socket_disable = True

# Start-up: what every worker imports anyway, imported once here, in the master, so that
# each forked worker has it (benchmarks/gunicorn_start.py: a worker's CPU to ready falls from
# 0.38 to 0.16 s, and the workers are ready within 1.5 s of a hello app's; docs/solvers.md). The master already
# imports Flask and gevent (with ssl) to load the worker class (dailydeal.web.worker); this
# adds only modules that start no thread and make no lock, socket or connection at import:
# libraries, the package below the web, and the API's pydantic models (web/schema.py). Never
# the app's other modules: their locks, per-greenlet connections and memos are made in the
# worker, after gevent's patch. tests/test_deploy.py holds the list to that.
PRELOADED = (
    "pydantic",
    "sqlite_utils",
    "PIL.Image",
    "limits",
    "dailydeal.config",
    "dailydeal.daily.store",
    "dailydeal.hints",
    "dailydeal.rating",
    "dailydeal.results",
    "dailydeal.web.schema",
)
for _name in PRELOADED:
    importlib.import_module(_name)
importlib.import_module("dailydeal.games").load_all()
