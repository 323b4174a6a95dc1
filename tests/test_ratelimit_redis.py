"""The verify budget shared through a real redis-server (``pip install 'dailydeal[redis]'``).

With ``memory://`` each worker process counts alone; with ``redis://`` every worker and
every machine share one budget per client. Two app instances stand for two workers here,
against a redis-server started by the test on a free port (skipped where it is absent).
"""

from __future__ import annotations

import datetime as dt
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import free_port
from helpers.clock import Clock

from dailydeal.web import create_app

REDIS = shutil.which("redis-server")


def test_two_instances_share_one_verify_budget(
    redis_url: str, tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any
) -> None:
    db = fill_db(tmp_path / "r.db")
    config = {"db_path": db, "NOW": lambda: now, "verify_rate_limit": "3 per minute",
              "ratelimit_storage": redis_url}
    url = "/api/v1/games/gaps/verify"
    # The limiter is one per process (web/extensions.py), as in a worker: each app made
    # here binds it to a storage of its own, so the instances take turns.
    first = create_app(dict(config)).test_client()
    answers = [first.post(url, json={"seed": 1, "moves": []}) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    problem(first.post(url, json={"seed": 1, "moves": []}), 429)
    second = create_app(dict(config)).test_client()  # a fresh connection: the same budget
    body = problem(second.post(url, json={"seed": 1, "moves": []}), 429)
    assert "3 per 1 minute" in body["detail"]
    # another client still has its own budget
    other = second.post(url, json={"seed": 1, "moves": []},
                        environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200


def test_memory_storage_counts_per_instance(
    tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any
) -> None:
    """What the redis storage is for: in memory, each instance has a budget of its own."""
    config = {"db_path": fill_db(tmp_path / "m.db"), "NOW": lambda: now,
              "verify_rate_limit": "1 per minute", "ratelimit_storage": "memory://"}
    url = "/api/v1/games/gaps/verify"
    first = create_app(dict(config)).test_client()
    assert first.post(url, json={"seed": 1, "moves": []}).status_code == 200
    problem(first.post(url, json={"seed": 1, "moves": []}), 429)
    second = create_app(dict(config)).test_client()
    assert second.post(url, json={"seed": 1, "moves": []}).status_code == 200


# --- results, plays and statistics in Redis (issue 25) -----------------------------------


def redis_app(db: Path, url: str, clock: Any) -> Any:
    return create_app({"db_path": db, "NOW": clock, "redis_url": url,
                       "ratelimit_storage": url, "counted_rate_limit": "1000 per minute"})


def begin(client: Any, id_: str) -> str:
    resp = client.post(f"/api/v1/deals/{id_}/plays")
    assert resp.status_code == 201, resp.get_data(as_text=True)
    token: str = resp.get_json()["play"]
    return token


def test_results_in_redis_count_once_with_aggregates_kept_at_write_time(
    redis_url: str, tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any,
    solutions: dict[str, list[str]], days: dict[str, dt.date],
) -> None:
    import redis

    from dailydeal.daily import store
    from dailydeal.results import redis_store

    clock = Clock(now)
    db = fill_db(tmp_path / "r.db")
    nodes = [redis_app(db, redis_url, clock).test_client() for _ in range(2)]
    id_ = f"{days['today']}-pyramid-easy"
    win = solutions["pyramid"]
    tokens = [begin(nodes[i % 2], id_) for i in range(3)]  # either node's token works
    assert nodes[1].get(f"/api/v1/deals/{id_}/hint?moves=&play={tokens[0]}").status_code == 200
    clock.t += dt.timedelta(hours=1)
    first = nodes[1].post(f"/api/v1/deals/{id_}/results",
                          json={"client": "a" * 20, "moves": win, "play": tokens[0]})
    assert first.status_code == 201, first.get_data(as_text=True)
    assert first.get_json()["result"]["hints"] == 1
    assert first.get_json()["result"]["seconds"] == 3600
    retry = nodes[0].post(f"/api/v1/deals/{id_}/results",
                          json={"client": "a" * 20, "moves": win, "play": tokens[0]})
    assert retry.status_code == 200 and retry.get_json()["counted"] is False
    reused = problem(nodes[0].post(f"/api/v1/deals/{id_}/results",
                                   json={"client": "b" * 20, "moves": win, "play": tokens[0]}),
                     409)
    assert reused["reason"] == "play-used"
    assert nodes[0].post(f"/api/v1/deals/{id_}/results", json={
        "client": "b" * 20, "moves": win[:4], "play": tokens[1]}).status_code == 201
    assert nodes[1].post(f"/api/v1/deals/{id_}/results", json={
        "client": "c" * 20, "moves": win, "play": tokens[2]}).status_code == 201
    stats = [n.get(f"/api/v1/deals/{id_}/stats").get_json() for n in nodes]
    assert stats[0] == stats[1]
    assert (stats[0]["plays"], stats[0]["wins"], stats[0]["wins_without_hints"]) == (3, 2, 1)
    assert stats[0]["winning_moves"] == [{"moves": len(win), "count": 2}]
    # the rows expire after the retention; the aggregates stay; rebuilt by replay alike
    r = redis.Redis.from_url(redis_url)
    assert r.ttl(f"dailydeal:results:{id_}") > 30 * 86400
    assert r.ttl(f"dailydeal:stats:{id_}") == -1
    assert 0 < r.ttl(f"dailydeal:plays:{id_}") < 3 * 86400
    shared = redis_store.RedisStore(redis_store.connect(redis_url))
    r.hset(f"dailydeal:stats:{id_}", "plays", 99)
    conn = store.open_db(db)
    deal = store.get_deal(conn, id_)
    conn.close()
    rebuilt = shared.rebuild(deal)
    assert rebuilt.pop("differ") == 0
    assert rebuilt == {k: v for k, v in stats[0].items() if k in rebuilt}


@pytest.fixture
def redis_proc(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A redis-server the test may stop (SIGSTOP) and resume (SIGCONT)."""
    if REDIS is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield proc, f"redis://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def redis_url(redis_proc: tuple[subprocess.Popen[bytes], str]) -> str:
    """A real redis-server's URL (the server of ``redis_proc``)."""
    return redis_proc[1]


def test_a_hung_redis_costs_results_a_second_and_the_rest_nothing(
    redis_proc: tuple[subprocess.Popen[bytes], str], tmp_path: Path, fill_db: Any,
    now: dt.datetime, problem: Any, solutions: dict[str, list[str]],
    days: dict[str, dt.date],
) -> None:
    """redis-server stopped by SIGSTOP (it accepts connections, never answers): results
    and statistics are 503 within about a second; deals, verify and state keep working
    (the rate limiter falls back to memory); after SIGCONT nothing is lost or doubled."""
    from dailydeal.daily import store
    from dailydeal.results import judge, redis_store

    proc, url = redis_proc
    clock = Clock(now)
    db = fill_db(tmp_path / "h.db")
    client = redis_app(db, url, clock).test_client()
    id_ = f"{days['today']}-gaps-easy"
    win = solutions["gaps"]
    tokens = [begin(client, id_) for _ in range(2)]
    clock.t += dt.timedelta(hours=1)
    body = {"client": "h" * 20, "moves": win, "play": tokens[0]}
    late = redis_store.RedisStore(redis_store.connect(url))
    late.salt()  # read once, as a node that counted before
    proc.send_signal(signal.SIGSTOP)
    try:
        for method, path, payload, status in [
            ("POST", f"/api/v1/deals/{id_}/results", body, 503),
            ("GET", f"/api/v1/deals/{id_}/stats", None, 503),
            ("GET", f"/api/v1/deals/{id_}", None, 200),
            ("POST", f"/api/v1/deals/{id_}/verify", {"moves": win}, 200),
            ("GET", f"/api/v1/deals/{id_}/state?moves=QC", None, 200),
            ("POST", "/api/v1/games/gaps/verify", {"seed": 1, "moves": []}, 200),
        ]:
            start = time.monotonic()
            resp = client.open(path, method=method, json=payload)
            took = time.monotonic() - start
            if status == 503:
                problem(resp, 503)
                assert "Retry-After" in resp.headers
            assert resp.status_code == status, (path, resp.get_data(as_text=True))
            assert took < 3, (path, took)  # ~0.5-1 s measured; generous on a loaded machine
        # a write sent while Redis hangs times out here, and Redis runs it when it wakes
        conn = store.open_db(db)
        deal = store.get_deal(conn, id_)
        conn.close()
        assert deal is not None
        result, _ = judge(deal, win, 0, 3600)
        tid = tokens[1].split(".")[1]
        with pytest.raises(redis_store.Unavailable):
            late.record(id_, "l" * 20, result, win, clock.t, tid,
                        clock.t + dt.timedelta(days=40), clock.t + dt.timedelta(days=2))
    finally:
        proc.send_signal(signal.SIGCONT)
    time.sleep(0.3)
    # the refused post, sent again: counted once
    again = client.post(f"/api/v1/deals/{id_}/results", json=body)
    assert again.status_code == 201, again.get_data(as_text=True)
    # the timed-out write may have run when Redis woke (then its retry is a 200, not
    # counted again) or not (then the retry counts it): once either way
    retry = client.post(f"/api/v1/deals/{id_}/results",
                        json={"client": "l" * 20, "moves": win, "play": tokens[1]})
    assert retry.status_code in (200, 201)
    assert retry.get_json()["counted"] is (retry.status_code == 201)
    stats = client.get(f"/api/v1/deals/{id_}/stats").get_json()
    assert (stats["plays"], stats["wins"]) == (2, 2)


def test_pending_results_in_redis_count_once_whichever_node_looks_first(
    redis_url: str, tmp_path: Path, fill_db: Any, now: dt.datetime,
    days: dict[str, dt.date],
) -> None:
    """Issue 38 with several nodes: the turns of a network are one (Redis), results taken
    by either node wait in Redis, and the first node (or scheduler) that looks once they
    are due counts each of them, once."""
    from dailydeal.config import Settings
    from dailydeal.results import due

    clock = Clock(now)
    db = fill_db(tmp_path / "p.db")
    config = {"db_path": db, "NOW": clock, "redis_url": redis_url,
              "ratelimit_storage": redis_url, "counted_rate_limit": "1 per minute"}
    nodes = [create_app(dict(config)).test_client() for _ in range(2)]
    id_ = f"{days['today']}-gaps-easy"
    tokens = [begin(nodes[i % 2], id_) for i in range(4)]
    clock.t += dt.timedelta(hours=1)
    answers = [nodes[i % 2].post(f"/api/v1/deals/{id_}/results", json={
        "client": f"redis-pending-{i:06d}", "moves": ["QC"], "play": t})
        for i, t in enumerate(tokens)]
    assert [a.status_code for a in answers] == [201, 202, 202, 202]
    assert [a.get_json()["stats"]["plays"] for a in answers] == [1, 2, 2, 2]
    stats = [n.get(f"/api/v1/deals/{id_}/stats").get_json() for n in nodes]
    assert stats[0] == stats[1] and (stats[0]["plays"], stats[0]["pending"]) == (1, 3)
    clock.t += dt.timedelta(seconds=60)
    settings = Settings(db_path=db, redis_url=redis_url)
    assert due.count_due(settings, clock.t) == 1  # the scheduler first
    assert due.count_due(settings, clock.t) == 0
    clock.t += dt.timedelta(seconds=120)
    stats = [n.get(f"/api/v1/deals/{id_}/stats").get_json() for n in nodes]
    assert stats[0] == stats[1] and (stats[0]["plays"], stats[0]["pending"]) == (4, 0)
    # a retry of a counted one is the same result, through any node
    again = nodes[1].post(f"/api/v1/deals/{id_}/results", json={
        "client": "redis-pending-000003", "moves": ["QC"], "play": tokens[3]})
    assert again.status_code == 200 and again.get_json()["pending"] is False


def test_local_storage_counts_as_limits_memory_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    """``memory://`` is LocalStorage (web/extensions.py): the fixed windows of the routes and
    the moving window of counted results give limits' MemoryStorage's answers, on a clock
    both read, across window ends and a sweep of dead keys."""
    import limits.storage.memory
    from limits import parse
    from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

    from dailydeal.web import extensions

    clock = [1_000_000.0]
    monkeypatch.setattr(limits.storage.memory.time, "time", lambda: clock[0])
    monkeypatch.setattr(extensions.time, "time", lambda: clock[0])
    ours, theirs = extensions.LocalStorage(), limits.storage.memory.MemoryStorage()
    item = parse("3 per 10 seconds")
    seen: list[tuple[Any, ...]] = []
    for strategy in (FixedWindowRateLimiter, MovingWindowRateLimiter):
        a, b = strategy(ours), strategy(theirs)
        for step in range(80):
            who = f"client-{step % 2}"
            clock[0] += (0.7, 1.3, 0.2, 0.1, 11.0)[step % 5]
            for _ in range(2):
                hit = a.hit(item, who), b.hit(item, who)
                stats = a.get_window_stats(item, who), b.get_window_stats(item, who)
                assert hit[0] == hit[1], (strategy.__name__, step)
                assert stats[0].remaining == stats[1].remaining, (strategy.__name__, step)
                if stats[1].remaining < item.amount:  # an entry in the window: the same end
                    assert stats[0].reset_time == stats[1].reset_time, (strategy.__name__, step)
                seen.append((hit[0], stats[0].remaining))
    assert {h for h, _ in seen} == {True, False}  # both answers were met
    clock[0] += 3600
    ours.incr("late", 10)  # a call after SWEEP seconds drops every dead key
    assert ours._counts == {"late": 1} and ours._events == {}


def test_no_thread_per_request(
    tmp_path: Path, fill_db: Any, now: dt.datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """limits' MemoryStorage started a thread to expire keys on most requests (254 of 300
    verifies): the app's in-memory limits start none."""
    import threading

    config = {"db_path": fill_db(tmp_path / "t.db"), "NOW": lambda: now,
              "verify_rate_limit": "1000 per minute"}
    client = create_app(dict(config)).test_client()
    started: list[threading.Thread] = []
    original = threading.Thread.start

    def start(self: threading.Thread) -> None:
        started.append(self)
        original(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    for _ in range(30):
        assert client.post("/api/v1/games/gaps/verify",
                           json={"seed": 1, "moves": []}).status_code == 200
        time.sleep(0.02)  # past the 10 ms after which MemoryStorage's timer had ended
    assert started == []


def test_limits_are_checked_by_the_routes_alone(
    tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No check before every request (flask-limiter's had nothing to check, and its hooks
    are gone): a limited route is checked once, by its decorator (``extensions._check``),
    and refused past its budget; a route without a limit is not checked."""
    from dailydeal.web import extensions

    checks: list[str] = []
    ours = extensions._check

    def counted_ours(found: Any, limits: Any) -> None:
        checks.append(limits[0].scope)
        ours(found, limits)

    monkeypatch.setattr(extensions, "_check", counted_ours)
    config = {"db_path": fill_db(tmp_path / "c.db"), "NOW": lambda: now,
              "verify_rate_limit": "2 per minute"}
    app = create_app(dict(config))
    hooks = [f for funcs in (*app.before_request_funcs.values(),
                             *app.after_request_funcs.values(),
                             *app.teardown_request_funcs.values()) for f in funcs]
    assert hooks and not [f for f in hooks if "flask_limiter" in repr(f)]
    client = app.test_client()
    url = "/api/v1/games/gaps/verify"
    for _ in range(2):
        assert client.post(url, json={"seed": 1, "moves": []}).status_code == 200
    problem(client.post(url, json={"seed": 1, "moves": []}), 429)
    assert checks == ["verify"] * 3  # the decorator's, one a request
    checks.clear()
    assert client.get("/api/v1/games").status_code == 200
    assert checks == []


def test_a_dead_storage_counts_in_memory_and_is_probed_on_a_back_off(
    tmp_path: Path, fill_db: Any, now: dt.datetime, problem: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A storage that fails: the request is counted in memory instead (the same budget,
    the same 429 and headers), the storage is asked again by the next request, then only
    2, 4, 8... seconds after its previous probe, and counts again once it answers."""
    from dailydeal.web import extensions

    clock = [1_000_000.0]
    monkeypatch.setattr(extensions.time, "time", lambda: clock[0])
    app = create_app({"db_path": fill_db(tmp_path / "d.db"), "NOW": lambda: now,
                      "verify_rate_limit": "2 per minute"})
    found = app.extensions[extensions.RATE_LIMITS]
    probes: list[float] = []
    down = [True]

    def hit(*args: Any, **kwargs: Any) -> int:
        if down[0]:
            raise ConnectionError("redis is down")
        return original_incr(*args, **kwargs)

    def check() -> bool:
        probes.append(clock[0])
        return not down[0]

    original_incr = found.storage.incr
    monkeypatch.setattr(found.storage, "incr", hit)
    monkeypatch.setattr(found.storage, "check", check)
    client = app.test_client()
    url = "/api/v1/games/gaps/verify"
    first = client.post(url, json={"seed": 1, "moves": []})
    assert first.status_code == 200 and found.dead
    assert (first.headers["X-RateLimit-Limit"], first.headers["X-RateLimit-Remaining"]) == (
        "2", "1")  # counted in memory, told from memory
    assert client.post(url, json={"seed": 1, "moves": []}).status_code == 200
    refused = problem(client.post(url, json={"seed": 1, "moves": []}), 429)
    assert refused["limit"] == "2 per 1 minute"
    base = 1_000_000.0
    assert probes == [base]  # the next request asks at once, the one after it does not
    probes.clear()
    for step in (0.5, 0.6, 1.0, 1.5, 3.0):
        clock[0] += step
        client.post(url, json={"seed": 1, "moves": []})
    assert probes == pytest.approx([base + 2.1, base + 6.6])  # after 2 s, then 4 s more
    down[0] = False
    clock[0] += 8.1  # past the next back-off (8 s): probed, alive, counted there again
    again = client.post(url, json={"seed": 1, "moves": []},
                        environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert again.status_code == 200 and not found.dead
    assert found.storage.get("LIMITER/10.1.2.3/32/verify/2/1/minute") == 1


def test_the_storage_keys_are_flask_limiter_s(
    tmp_path: Path, fill_db: Any, now: dt.datetime,
) -> None:
    """The limits are checked by the app's own decorator, on the keys flask-limiter wrote
    (limits' ``key_for(network, scope)``): a Redis keeps counting across a deploy. The
    budget's headers are the limit's, after this request's count."""
    from dailydeal.web.extensions import RATE_LIMITS

    app = create_app({"db_path": fill_db(tmp_path / "k.db"), "NOW": lambda: now,
                      "verify_rate_limit": "7 per minute"})
    client = app.test_client()
    resp = client.post("/api/v1/games/gaps/verify", json={"seed": 1, "moves": []},
                       environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert resp.status_code == 200
    assert (resp.headers["X-RateLimit-Limit"], resp.headers["X-RateLimit-Remaining"]) == ("7", "6")
    storage = app.extensions[RATE_LIMITS].storage
    assert storage.get("LIMITER/198.51.100.7/32/verify/7/1/minute") == 1
