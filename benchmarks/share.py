"""oEmbed and preview-picture latency, cold and cached, and the pictures' sizes.

    .venv/bin/python benchmarks/share.py [--runs 30]

Serves a temporary database holding today's twelve deals (seeds 1..12, no solving: the
pictures and oEmbed read only the deal) with the app on a loopback port (werkzeug, one
process, threads) and times whole HTTP requests from urllib:

- oEmbed: the first request of a deal (cold: the row is read, the answer built) and
  then the same request again (median of --runs);
- preview.png: the first request of each game's deal (cold: drawn with Pillow), then the
  same URL again (served from the process's memory), then with If-None-Match (304).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

from dailydeal.daily.picture import VERSION
from dailydeal.daily.store import deal_row, insert_deal, open_db
from dailydeal.games import GAMES, default_variant
from dailydeal.rating import TIERS
from dailydeal.web import create_app


def timed(url: str, headers: dict[str, str] | None = None) -> tuple[float, int, int]:
    """(milliseconds, status, body bytes) of one GET."""
    request = urllib.request.Request(url, headers=headers or {})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(request) as resp:  # noqa: S310 (loopback)
            body, status = resp.read(), resp.status
    except urllib.error.HTTPError as exc:
        body, status = exc.read(), exc.code
    return (time.perf_counter() - t0) * 1000, status, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    today = dt.datetime.now(dt.UTC).date()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "share.db"
        db = open_db(db_path)
        seed = 0
        for game in GAMES:
            for i, tier in enumerate(TIERS):
                seed += 1
                insert_deal(db, deal_row(today, game, default_variant(game), tier, seed,
                                         rating=10.0 + 25 * i, solution=["d"],
                                         solver={"status": "won"}, version="bench"))
        db.close()
        app = create_app({"db_path": db_path, "public_url": "https://cards.example",
                          "RATELIMIT_ENABLED": False})
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no access log lines
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        timed(base + "/api/v1/")  # the app's first request (imports, database)
        print(f"{sys.argv[0]}: {args.runs} runs, loopback HTTP, one process")
        for game in GAMES:
            id_ = f"{today.isoformat()}-{game}-medium"
            page = urllib.parse.quote(f"https://cards.example/play/{id_}", safe="")
            url = f"{base}/api/v1/oembed?url={page}&maxwidth=600"
            cold, status, _ = timed(url)
            assert status == 200, status
            warm = statistics.median(timed(url)[0] for _ in range(args.runs))
            print(f"oembed  {game:9}  cold {cold:7.1f} ms   again {warm:6.2f} ms (median)")
        for game in GAMES:
            id_ = f"{today.isoformat()}-{game}-hard"
            url = f"{base}/api/v1/deals/{id_}/preview.png?v={VERSION}"
            cold, status, size = timed(url)
            assert status == 200, status
            warm = statistics.median(timed(url)[0] for _ in range(args.runs))
            with urllib.request.urlopen(url) as resp:  # noqa: S310
                etag = resp.headers["ETag"]
            revalidate = statistics.median(
                timed(url, {"If-None-Match": etag})[0] for _ in range(args.runs)
            )
            print(f"preview {game:9}  cold {cold:7.1f} ms   cached {warm:6.2f} ms   "
                  f"304 {revalidate:6.2f} ms   {size / 1000:.1f} kB")
        server.shutdown()


if __name__ == "__main__":
    main()
