"""``GET /deals/{id}/stats`` with many results on one deal, in SQLite and in Redis.

    .venv/bin/python benchmarks/stats.py [--results 10000] [--requests 300] [--no-redis]

Stores ``--results`` verified results of one deal (a win or a give-up, fresh clients)
through the same functions a counted post uses (dailydeal.daily.sqlite_store.record, or the
Redis store's Lua script, with a real redis-server), then times ``--requests`` statistics
requests through the app in-process (Flask's test client: the handler, the store and the
JSON, no network), and, for comparison, the old way of computing them from every stored
row. Prints p50/p99 in milliseconds and checks that both ways give the same numbers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import redis_server, stock_db  # noqa: E402

from dailydeal import results  # noqa: E402
from dailydeal.daily import store  # noqa: E402
from dailydeal.results import sqlite_store  # noqa: E402
from dailydeal.web import create_app  # noqa: E402
from dailydeal.web.db import forget  # noqa: E402


def deal_and_moves(db_path: Path) -> tuple[dict[str, Any], list[str]]:
    """Today's Gaps easy deal (a stored filler row) and a short legal move list."""
    from dailydeal.games import new_game

    db = store.open_db(db_path)
    today = dt.datetime.now(dt.UTC).date()
    deal = store.get_deal(db, f"{today}-gaps-easy")
    db.close()
    assert deal is not None
    game = new_game(deal["game"], deal["seed"], deal["variant"])
    moves: list[str] = []
    for _ in range(6):
        legal = game.to_json()["legal_moves"]
        if not legal:
            break
        moves.append(legal[0])
        game.push(game.parse_move(legal[0]))
    return deal, moves


def fill_sqlite(db_path: Path, deal: dict[str, Any], moves: list[str], n: int) -> float:
    db = store.open_db(db_path)
    now = dt.datetime.now(dt.UTC)
    start = time.perf_counter()
    for i in range(n):
        cut = moves[: 1 + i % len(moves)]
        result, error = results.judge(deal, cut, 0, 60 + i % 300)
        assert error is None, error
        sqlite_store.record(db, deal["id"], f"bench-client-{i:010d}", result, cut, now)
    took = time.perf_counter() - start
    db.close()
    return took


def fill_redis(url: str, deal: dict[str, Any], moves: list[str], n: int) -> float:
    from dailydeal.results import redis_store

    shared = redis_store.RedisStore(redis_store.connect(url))
    now = dt.datetime.now(dt.UTC)
    later = now + dt.timedelta(days=40)
    start = time.perf_counter()
    for i in range(n):
        cut = moves[: 1 + i % len(moves)]
        result, _ = results.judge(deal, cut, 0, 60 + i % 300)
        shared.record(deal["id"], f"bench-client-{i:010d}", result, cut, now, None, later,
                      later)
    return time.perf_counter() - start


def timed(fn: Any, requests: int) -> tuple[float, float]:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--no-redis", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = stock_db(Path(tmp) / "dailydeal.db")
        deal, moves = deal_and_moves(db_path)
        url_path = f"/api/v1/deals/{deal['id']}/stats"
        took = fill_sqlite(db_path, deal, moves, args.results)
        print(f"sqlite: {args.results} results stored in {took:.1f} s "
              f"({took / args.results * 1000:.2f} ms each, aggregates included)")
        app = create_app({"db_path": db_path, "RATELIMIT_ENABLED": False})
        http = app.test_client()
        body = http.get(url_path).get_json()
        assert body["plays"] == args.results, body
        p50, p99 = timed(lambda: http.get(url_path), args.requests)
        print(f"sqlite: GET stats p50 {p50:.2f} ms, p99 {p99:.2f} ms (plays {body['plays']})")
        db = store.open_db(db_path)
        rows = lambda: results.stats_of([  # noqa: E731 - the pre-issue-25 computation
            (bool(r["won"]), r["moves"], r["hints"])
            for r in db.query("SELECT won, moves, hints FROM results WHERE deal_id = ?",
                              [deal["id"]])])
        assert rows() == sqlite_store.deal_stats(db, deal["id"])
        p50, p99 = timed(rows, max(20, args.requests // 10))
        print(f"sqlite: the same from every row (before): p50 {p50:.2f} ms, p99 {p99:.2f} ms")
        db.close()
        forget(db_path)
        if args.no_redis:
            return 0
        with redis_server(tmp) as url:
            if url is None:
                print("redis: skipped (no redis-server)")
                return 0
            took = fill_redis(url, deal, moves, args.results)
            print(f"redis: {args.results} results stored in {took:.1f} s "
                  f"({took / args.results * 1000:.2f} ms each)")
            app = create_app({"db_path": db_path, "redis_url": url,
                              "RATELIMIT_ENABLED": False})
            http = app.test_client()
            body = http.get(url_path).get_json()
            assert body["plays"] == args.results, body
            p50, p99 = timed(lambda: http.get(url_path), args.requests)
            print(f"redis: GET stats p50 {p50:.2f} ms, p99 {p99:.2f} ms")
            import redis

            r = redis.Redis.from_url(url)
            key = f"dailydeal:results:{deal['id']}"
            size = sum(len(v) for v in r.hvals(key))
            p50, p99 = timed(lambda: [json.loads(v) for v in r.hvals(key)],
                             max(20, args.requests // 10))
            print(f"redis: HVALS of every row (before): {size / 1e6:.1f} MB, "
                  f"p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
