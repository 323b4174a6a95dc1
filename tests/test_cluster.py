"""Two API nodes behind nginx, sharing one redis-server, for real; one of them is lost.

A real redis-server, two real gunicorn nodes (deploy/gunicorn.conf.py, one worker each, each
on its own SQLite file) and Debian's nginx with deploy/nginx.conf.example adapted by
tests/helpers/nginx.py's ``adapted`` (the only change: an upstream of both nodes, and an nginx
verify limit the traffic cannot reach). The deals come from a real ``dailydeal generate``
(one cheap game: DAILYDEAL_GAMES=accordion); node B's file is a copy of node A's, as
deploy/README.md "More than one machine" prescribes (and the last test shows why).

Skipped where nginx, openssl or redis-server is absent (.ci/run installs them).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import free_port, stop, wait_for
from helpers.cluster import (
    DAILYDEAL,
    REDIS,
    RESULTS_BUDGET,
    Cluster,
    cluster_conf,
    copy_db,
    deal_rows,
    generate,
    start_node,
    start_redis,
    yesterday,
)
from helpers.nginx import NGINX, OPENSSL, SERVER_NAME

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None or REDIS is None,
    reason="nginx, openssl or redis-server is not installed "
    "(Debian packages nginx, openssl, redis-server)",
)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    assert NGINX is not None and OPENSSL is not None
    tmp = tmp_path_factory.mktemp("cluster")
    secret = secrets.token_hex(32)
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={SERVER_NAME}", "-keyout", str(tmp / "key.pem"),
         "-out", str(tmp / "cert.pem")],
        check=True, capture_output=True, timeout=60,
    )
    redis, redis_url = start_redis(tmp)
    procs: list[subprocess.Popen[bytes]] = [redis]
    nginx: subprocess.Popen[bytes] | None = None
    try:
        a = generate(tmp / "a" / "dailydeal.db", secret)  # the one generator
        b = copy_db(a, tmp / "b" / "dailydeal.db")  # node B's own copy of its file
        nodes = [start_node(db, tmp / db.parent.name, secret, redis_url) for db in (a, b)]
        procs += [n.proc for n in nodes]
        for n in nodes:
            wait_for(lambda n=n: n.request("GET", "/api/v1/healthz")[0] == 200,
                     f"gunicorn on {n.port}", n.log)
        port = free_port()
        conf = tmp / "nginx.conf"
        conf.write_text(cluster_conf(tmp, port, [n.port for n in nodes]))
        checked = subprocess.run([NGINX, "-t", "-p", str(tmp), "-c", str(conf)],
                                 capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True,
                 "nginx", tmp / "error.log")
        yield Cluster(port, nodes, [a, b], redis_url, tmp)
    finally:
        if nginx is not None:
            stop(nginx, signal.SIGQUIT)
        for proc in reversed(procs):
            stop(proc)


def today_ids(cluster: Cluster) -> list[str]:
    status, _, body = cluster.request("GET", "/api/v1/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok", body
    with sqlite3.connect(cluster.dbs[0]) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM deals ORDER BY id")]


def test_both_nodes_serve_identical_deals(cluster: Cluster) -> None:
    assert deal_rows(cluster.dbs[0]) == deal_rows(cluster.dbs[1])
    ids = today_ids(cluster)
    assert len(ids) == 12  # 3 dates x 1 game x 4 tiers
    for id_ in ids:
        answers = [n.request("GET", f"/api/v1/deals/{id_}") for n in cluster.nodes]
        (s1, h1, b1), (s2, h2, b2) = answers
        if s1 == 404:  # tomorrow's deals are not published yet: not served by either
            assert s2 == 404
            continue
        assert s1 == s2 == 200, (b1[:200], b2[:200])
        assert b1 == b2 and h1["etag"] == h2["etag"]
        assert h1["cache-control"] == h2["cache-control"]
        # a conditional request that node A answered is answered the same by node B
        status, _, _ = cluster.nodes[1].request("GET", f"/api/v1/deals/{id_}",
                                                headers={"If-None-Match": h1["etag"]})
        assert status == 304


def post_result(target: Any, id_: str, client: str, address: str,
                moves: list[str] | None = None) -> tuple[int, dict[str, Any]]:
    """A play begun and its result posted through ``target`` (default moves: the first
    legal move, a play given up)."""
    head = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if moves is None:
        _, _, state = target.request("GET", f"/api/v1/deals/{id_}/state", headers=head)
        moves = json.loads(state)["legal_moves"][:1]
    _, _, begun = target.request("POST", f"/api/v1/deals/{id_}/plays", b"{}", head)
    play = json.loads(begun)["play"]
    body = json.dumps({"client": client, "moves": moves, "play": play}).encode()
    status, _, answer = target.request(
        "POST", f"/api/v1/deals/{id_}/results", body,
        {"Content-Type": "application/json", "X-Forwarded-For": address})
    return status, json.loads(answer)


def published_today(cluster: Cluster) -> str:
    """A published deal that takes results for the next hour and more: the budget's turns
    (one every hour / RESULTS_BUDGET) must all come before its results close. (With five
    minutes of margin, the test failed when run within the hour before a date's close: the
    fourth result's turn came 45 minutes later, after it.)"""
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1, minutes=5)
    for id_ in today_ids(cluster):
        status, _, body = cluster.nodes[0].request("GET", f"/api/v1/deals/{id_}")
        if status == 200:
            opens = dt.datetime.fromisoformat(json.loads(body)["solution_opens_at"])
            if opens > later:
                return id_
    raise AssertionError("no published deal takes results for the next hour")


def test_one_rate_limit_budget_and_one_count_across_the_nodes(cluster: Cluster) -> None:
    """The turns of a network are one across the nodes (Redis): its results count one
    every hour / RESULTS_BUDGET, whichever node took them, and each counts once."""
    a, b = cluster.nodes
    id_ = published_today(cluster)
    address = "10.20.30.40"  # the client's address, as nginx would forward it
    clients = [secrets.token_urlsafe(16) for _ in range(RESULTS_BUDGET)]
    # one result per client, through alternate nodes: the turns are shared, not per node
    turns = []
    for i, client in enumerate(clients):
        status, answer = post_result(cluster.nodes[i % 2], id_, client, address)
        assert status == (201 if i == 0 else 202), answer
        assert answer["stats"]["plays"] == (2 if i else 1), answer  # the poster's own view
        turns.append(dt.datetime.fromisoformat(answer["counts_at"]))
    gap = 3600 / RESULTS_BUDGET  # the first counted in its second, the others to the second
    assert all(0 <= (t - turns[0]).total_seconds() - gap * i <= 1 for i, t in enumerate(turns))
    assert all((b - a).total_seconds() == gap for a, b in zip(turns[1:], turns[2:], strict=False))
    # a result posted through A counts on B's statistics, and on A's: one count
    stats = [json.loads(n.request("GET", f"/api/v1/deals/{id_}/stats")[2]) for n in (a, b)]
    assert stats[0] == stats[1], stats
    assert (stats[0]["plays"], stats[0]["pending"]) == (1, RESULTS_BUDGET - 1), stats
    # the same post again through the other node (another address) is the retry it is,
    # not a second play
    status, answer = post_result(b, id_, clients[0], "10.20.30.41")
    assert status == 200 and answer["counted"] is False, answer
    status, answer = post_result(a, id_, clients[1], "10.20.30.41", ["x"])
    assert status in (409, 422), answer  # never a second count
    stats_after = json.loads(b.request("GET", f"/api/v1/deals/{id_}/stats")[2])
    assert (stats_after["plays"], stats_after["pending"]) == (1, RESULTS_BUDGET - 1)


def test_a_new_copy_goes_into_a_serving_node_s_file(cluster: Cluster) -> None:
    """The generator's next days reach node B as deploy/README.md says: its file is
    overwritten in place by SQLite's backup API while B serves (no restart, no stale WAL)."""
    a, b = cluster.dbs
    ids = [i for i in today_ids(cluster)
           if cluster.nodes[1].request("GET", f"/api/v1/deals/{i}")[0] == 200]
    before = {i: cluster.nodes[1].request("GET", f"/api/v1/deals/{i}") for i in ids}
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).date().isoformat()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
           "DAILYDEAL_SECRET": "unused-" + secrets.token_hex(32),
           "DAILYDEAL_GAMES": "accordion"}
    # the generator's next day (any secret: only the copy is under test here)
    subprocess.run([str(DAILYDEAL), "generate", "--db", str(a), "--from", later, "--days",
                    "1"], env=env, check=True, capture_output=True, timeout=120)
    assert len(deal_rows(a)) == 16 and len(deal_rows(b)) == 12
    copy_db(a, b)
    assert deal_rows(b) == deal_rows(a)
    for i in ids:  # served as before, from the new file
        status, headers, body = cluster.nodes[1].request("GET", f"/api/v1/deals/{i}")
        assert status == 200 and body == before[i][2]
        assert headers["etag"] == before[i][1]["etag"]
    status, _, body = cluster.nodes[1].request("GET", "/api/v1/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok", body


def test_a_node_killed_in_the_middle_costs_no_request(cluster: Cluster) -> None:
    """Runs last (it kills node B): 8 client threads, 400 requests through nginx, half GET
    of a deal (a query string per request, so nginx's cache does not answer them all),
    half POST verify; node B gets kill -9 after a third of them."""
    ids = [i for i in today_ids(cluster)
           if cluster.nodes[0].request("GET", f"/api/v1/deals/{i}")[0] == 200]
    total, kill_after = 400, 130
    done = 0
    lock = threading.Lock()
    killed = threading.Event()
    served_before: list[int] = []

    def one(i: int) -> tuple[int, int, bytes]:
        nonlocal done
        id_ = ids[i % len(ids)]
        if i % 2:
            status, _, body = cluster.request(
                "POST", f"/api/v1/deals/{id_}/verify", json.dumps({"moves": []}).encode(),
                {"Content-Type": "application/json"})
        else:
            status, _, body = cluster.request("GET", f"/api/v1/deals/{id_}?n={i}")
        with lock:
            done += 1
            if done == kill_after and not killed.is_set():
                served_before.append(cluster.nodes[1].served())
                cluster.nodes[1].kill()
                killed.set()
        return i, status, body

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(one, range(total)))
    assert killed.is_set()
    failed = [(i, s, b[:200]) for i, s, b in answers if s != 200]
    assert failed == [], f"{len(failed)} failed requests, first: {failed[:3]}"
    for i, _, body in answers:
        assert json.loads(body)["id" if i % 2 == 0 else "deal"] == ids[i % len(ids)]
    # both nodes took traffic: node B before it was lost, node A all along
    assert served_before[0] > 0 and cluster.nodes[0].served() > 0
    assert cluster.nodes[1].proc.poll() is not None
    status, _, body = cluster.request("GET", "/api/v1/healthz")
    assert status == 200, body


def test_independent_generators_serve_the_same_deals(tmp_path: Path, now: Any) -> None:
    """Two nodes that generate their own files with the same secret, a second apart (as two
    machines would at best): the rows differ only in when they were made (``created_at``,
    ``committed_at``, the solver's timing), and every deal they serve is the same but for
    when its commitment was made (``commitment.committed_at`` and ``in_advance``, which a
    player's page shows) when their generators share no Redis: why API nodes copy the
    generator's file, or share one (deploy/README.md; the test below)."""
    from dailydeal.web import create_app

    secret = secrets.token_hex(32)
    first = yesterday()
    a = generate(tmp_path / "a" / "d.db", secret, first)  # the same dates, even across
    time.sleep(1.1)  # midnight UTC
    b = generate(tmp_path / "b" / "d.db", secret, first)
    when = ("created_at", "committed_at", "solver")

    def rows(db: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        with sqlite3.connect(db) as conn:
            conn.row_factory = sqlite3.Row
            all_ = [dict(r) for r in conn.execute("SELECT * FROM deals ORDER BY id")]
        return ([{k: v for k, v in r.items() if k not in when} for r in all_],
                [{k: r[k] for k in when} for r in all_])

    (what_a, when_a), (what_b, when_b) = rows(a), rows(b)
    assert len(what_a) == 12 and what_a == what_b
    assert all(x["committed_at"] != y["committed_at"] for x, y in zip(when_a, when_b,
                                                                      strict=True))
    clock = dt.datetime.now(dt.UTC) + dt.timedelta(days=3)  # every stored date published
    node_a, node_b = (create_app({"db_path": db, "NOW": lambda: clock}).test_client()
                      for db in (a, b))
    for row, made in zip(what_a, when_a, strict=True):
        url = f"/api/v1/deals/{row['id']}"
        ra, rb = node_a.get(url), node_b.get(url)
        assert ra.status_code == rb.status_code == 200, url
        da, db_ = ra.get_json(), rb.get_json()
        assert da["commitment"]["nonce"]  # the opening is there, and its time
        assert da["commitment"]["committed_at"] == made["committed_at"]
        for body in (da, db_):
            del body["commitment"]["committed_at"], body["commitment"]["in_advance"]
        assert da == db_


def test_generators_sharing_redis_serve_one_commitment_time(tmp_path: Path) -> None:
    """Nodes that generate their own files with the same secret and one Redis (issue 39,
    item 8): node A's file begins as an older deployment's (stored before its generator had
    Redis), its next run records those times and stores two more days itself; A serves them
    (the first publication); then node B generates its own file and starts, later. Every
    deal's commitment time is A's on both nodes (daily/shared.py), so both serve the same
    bytes, ETags and ``in_advance``, and the same commitments list."""
    secret = secrets.token_hex(32)
    redis, url = start_redis(tmp_path)
    procs: list[subprocess.Popen[bytes]] = [redis]
    try:
        first = yesterday()
        later = (dt.date.fromisoformat(first) + dt.timedelta(days=3)).isoformat()
        a = generate(tmp_path / "a" / "d.db", secret, first)  # before Redis
        generate(a, secret, first, url)  # nothing to store: records the times stored
        generate(a, secret, later, url)  # three more days, their times recorded first
        node_a = start_node(a, tmp_path / "na", secret, url)
        procs.append(node_a.proc)
        wait_for(lambda: node_a.request("GET", "/api/v1/healthz")[0] == 200, "node A",
                 node_a.log)
        ids = [r[0] for r in deal_rows(a)]
        last = (dt.date.fromisoformat(later) + dt.timedelta(days=2)).isoformat()
        commitments = f"/api/v1/commitments?from={first}&to={last}"
        published = {i: node_a.request("GET", f"/api/v1/deals/{i}") for i in ids}
        listed = node_a.request("GET", commitments)
        assert len(ids) == 24 and listed[0] == 200
        time.sleep(1.1)  # B's own times would differ from A's
        b = generate(tmp_path / "b" / "d.db", secret, first, url)
        generate(b, secret, later, url)
        node_b = start_node(b, tmp_path / "nb", secret, url)
        procs.append(node_b.proc)
        wait_for(lambda: node_b.request("GET", "/api/v1/healthz")[0] == 200, "node B",
                 node_b.log)

        def times(db: Path) -> dict[str, tuple[str, str]]:
            with sqlite3.connect(db) as conn:
                return {i: (made, committed) for i, made, committed in conn.execute(
                    "SELECT id, created_at, committed_at FROM deals")}

        times_a, times_b = times(a), times(b)
        assert times_a.keys() == times_b.keys()
        for i in ids:  # B made its rows later, and stores A's commitment time
            assert times_b[i][0] > times_a[i][0] and times_b[i][1] == times_a[i][1], i
        served = 0
        for i in ids:
            (sa, ha, ba), (sb, hb, bb) = (n.request("GET", f"/api/v1/deals/{i}")
                                          for n in (node_a, node_b))
            assert sa == sb == published[i][0], i
            if sa == 404:  # not published yet, on either node
                continue
            served += 1
            assert ba == bb == published[i][2] and ha["etag"] == hb["etag"], i
            made = json.loads(bb)["commitment"]
            assert made["committed_at"] == times_a[i][1] and made["nonce"]
        assert served >= 8  # yesterday's and today's deals at least
        (la, _, list_a), (lb, _, list_b) = (n.request("GET", commitments)
                                            for n in (node_a, node_b))
        assert la == lb == 200 and list_a == list_b == listed[2]
        rows = json.loads(list_b)["commitments"]
        assert len(rows) == 24 and any(r["in_advance"] for r in rows)
    finally:
        for proc in reversed(procs):
            stop(proc)


def test_a_generator_that_cannot_reach_its_redis_stores_nothing(tmp_path: Path) -> None:
    """A row with its own time while the others adopt the first would be the disagreement
    itself: the generator stops with one line, and the next run stores the deals."""
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    a = tmp_path / "a" / "d.db"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")},
           "DAILYDEAL_SECRET": secrets.token_hex(32), "DAILYDEAL_GAMES": "accordion",
           "DAILYDEAL_REDIS_URL": down}
    failed = subprocess.run([str(DAILYDEAL), "generate", "--db", str(a), "--from",
                             yesterday(), "--days", "1"], env=env, capture_output=True,
                            text=True, timeout=120)
    assert failed.returncode != 0
    assert "cannot record a commitment time in Redis" in failed.stderr, failed.stderr
    assert "Traceback" not in failed.stderr
    assert deal_rows(a) == []


def test_a_redis_that_does_not_answer_is_a_503_not_a_lost_result(
    tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any, days: dict[str, dt.date]
) -> None:
    from dailydeal.web import create_app

    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    app = create_app({"db_path": fill_db(tmp_path / "r.db"), "NOW": lambda: now,
                      "redis_url": down, "ratelimit_storage": down})
    client = app.test_client()
    with sqlite3.connect(tmp_path / "r.db") as conn:
        (id_,) = conn.execute("SELECT id FROM deals WHERE date = ? LIMIT 1",
                              [days["today"].isoformat()]).fetchone()
    problem(client.post(f"/api/v1/deals/{id_}/plays"), 503)  # its key is in Redis
    body = {"client": secrets.token_urlsafe(16), "moves": ["d"], "play": "p1.x"}
    answer = problem(client.post(f"/api/v1/deals/{id_}/results", json=body), 503)
    assert "results store" in answer["detail"]
    problem(client.get(f"/api/v1/deals/{id_}/stats"), 503)
    # deals and verification do not need Redis (the rate limit then counts in memory)
    assert client.get(f"/api/v1/deals/{id_}").status_code == 200
    verdict = client.post(f"/api/v1/deals/{id_}/verify", json={"moves": []})
    assert verdict.status_code == 200 and verdict.get_json()["valid"] is True


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis:/x"])
def test_a_bad_redis_url_is_refused_before_serving(
    url: str, tmp_path: Path, fill_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dailydeal.config import Settings, SettingsError
    from dailydeal.web import create_app

    with pytest.raises(SettingsError, match=r"DAILYDEAL_REDIS_URL must be a redis://"):
        create_app({"db_path": fill_db(tmp_path / "u.db"), "redis_url": url})
    # from the environment, the one setting is also the rate-limit storage
    monkeypatch.setenv("DAILYDEAL_REDIS_URL", "redis://10.0.0.5:6379/0")
    monkeypatch.delenv("DAILYDEAL_RATELIMIT_STORAGE", raising=False)
    assert Settings.from_env().ratelimit_storage_uri() == "redis://10.0.0.5:6379/0"
    monkeypatch.setenv("DAILYDEAL_RATELIMIT_STORAGE", "memory://")
    assert Settings.from_env().ratelimit_storage_uri() == "memory://"
