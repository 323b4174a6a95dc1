"""Hostile requests against a real server: counts the answers, and every 5xx.

    .venv/bin/python benchmarks/hostile.py [--requests 20000] [--kind gunicorn] [--seed 1]
        [--url http://host:port] [--concurrency 4]

Starts the API as it ships (benchmarks/servers.py; by default gunicorn with
deploy/gunicorn.conf.py and the Docker image's DAILYDEAL_FORWARDED_ALLOW_IPS=*, behind a
trusted proxy at 127.0.0.1 as the systemd unit sets it, with the verify budget raised out
of the way so that the handlers, not the limiter, answer), then sends ``--requests`` raw
HTTP requests over sockets, drawn from the classes below (each round-robin, random within its class,
reproducible from ``--seed``), one connection each.

Prints the requests per class, the status classes seen, the 5xx count, answers that showed
a traceback, connections closed without an answer, and the tracebacks in the server's log.
Exit status 1 if any 5xx or traceback was seen (issue 9 item 3: 0 in >= 20,000 requests).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import running  # noqa: E402

GAMES = ("accordion", "pyramid", "gaps")
TIERS = ("easy", "medium", "hard", "expert")
Request = tuple[str, str, dict[str, str], bytes]  # method, target, headers, body


def raw(method: str, target: str, headers: dict[str, str], body: bytes) -> bytes:
    """The bytes of a request; ``Connection: close`` so that the answer ends with EOF."""
    head = {"Host": "api.test", "Connection": "close", **headers}
    if body and "Transfer-Encoding" not in head and "Content-Length" not in head:
        head["Content-Length"] = str(len(body))
    lines = [f"{method} {target} HTTP/1.1"] + [f"{k}: {v}" for k, v in head.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace") + body


def deal_ids() -> list[str]:
    today = dt.datetime.now(dt.UTC).date()
    days = [today + dt.timedelta(days=d) for d in (-1, 0, 1, 5)]
    return [f"{d}-{g}-{t}" for d in days for g in GAMES for t in TIERS]


IDS = deal_ids()


def verify_url(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"/api/v1/deals/{rng.choice(IDS)}/{rng.choice(['verify', 'state'])}"
    return f"/api/v1/games/{rng.choice(GAMES)}/{rng.choice(['verify', 'state'])}"


def nested_brackets(rng: random.Random) -> Request:
    depth = rng.choice([900, 1000, 1100, 3000, 20000, 60000])
    kind = rng.randrange(4)
    if kind == 0:
        url = f"/api/v1/deals/{rng.choice(IDS)}/verify"
        return "POST", url, {"Content-Type": "text/plain"}, b"[" * depth
    if kind == 1:
        body = json.dumps({"seed": 1, "moves": "[" * depth}).encode()
        return "POST", verify_url(rng), {"Content-Type": "application/json"}, body
    if kind == 2:
        n = rng.randint(900, 1300)
        url = f"/api/v1/deals/{rng.choice(IDS)}/state?moves=" + "%5B" * n
        return rng.choice(["GET", "HEAD"]), url, {}, b""
    body = b'{"moves": ' + b"[" * depth + b"]" * depth + b"}"
    return "POST", verify_url(rng), {"Content-Type": "application/json"}, body


CHARSETS = ["undefined", "rot13", "hex", "base64", "zlib", "utf-16", "utf-32", "unicode_escape",
            "raw_unicode_escape", "idna", "punycode", "latin-1", "utf-8-sig", "bogus", "", "ascii",
            "cp037", "utf-7", "quopri", "uu", "bz2", "mbcs", "UTF8", "\"utf-8\""]


def charsets(rng: random.Random) -> Request:
    charset = rng.choice(CHARSETS)
    body = rng.choice([b"d d d", b"\\ud800", b"+2D8A-", b"\xff\xfe\x00", b"[[[", b"\\x00"])
    url = f"/api/v1/deals/{rng.choice(IDS)}/{rng.choice(['verify', 'state'])}"
    return "POST", url, {"Content-Type": f"text/plain; charset={charset}"}, body


def surrogates(rng: random.Random) -> Request:
    s = rng.choice(["\\ud800", "\\udfff", "\\ud83d", "4S\\udc00", "\\ud800\\ud800"])
    field = rng.choice(["moves", "variant", "seed", "cards", "x"])
    value = f'["{s}"]' if field in ("moves", "cards") else f'"{s}"'
    seed = "" if field == "seed" else '"seed": 3, '
    body = ("{" + seed + f'"{field}": {value}' + (', "moves": []' if field != "moves" else "")
            + "}").encode()
    return "POST", verify_url(rng), {"Content-Type": "application/json"}, body


def chunked(rng: random.Random) -> Request:
    bodies = [b"zz\r\nabc\r\n0\r\n\r\n", b"-1\r\nab\r\n0\r\n\r\n", b"ffffffffffffffffff\r\na\r\n",
              b"3\r\nabcdef\r\n0\r\n\r\n", b"3;\x00=1\r\nabc\r\n0\r\n\r\n", b"0\r\nX: y\r\n\r\n",
              b"5\r\n{\"a\":\r\n", b"\r\n\r\n", b"3\r\nabc", b"0x3\r\nabc\r\n0\r\n\r\n"]
    codings = ["chunked", "Chunked", "gzip, chunked", "chunked, x"]
    headers = {"Transfer-Encoding": rng.choice(codings), "Content-Type": "application/json"}
    if rng.random() < 0.2:
        headers["Content-Length"] = "5"
    return "POST", verify_url(rng), headers, rng.choice(bodies)


def proxy_headers(rng: random.Random) -> Request:
    name = rng.choice(["SCRIPT_NAME", "SCRIPT-NAME", "PATH_INFO", "X-Forwarded-Prefix",
                       "X-Forwarded-Host", "X-Forwarded-For", "X-Forwarded-Proto", "Forwarded",
                       "X-Forwarded-Port", "X-Real-IP", "REMOTE_USER"])
    value = rng.choice(["/foo", "/api", "/api/v1/games", "evil.example", "", "\\", "1.2.3.4, x",
                        "https", "for=\"[::1]\"", "%00", "/" * 50, "a" * 2000])
    path = rng.choice(["/api/v1/games", "/api/v1/feed.json", "/api/v1/feed.atom",
                       f"/api/v1/deals/{rng.choice(IDS)}", "/api/v1/healthz"])
    return "GET", path, {name: value}, b""


def conditionals(rng: random.Random) -> Request:
    name = rng.choice(["If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since",
                       "If-Range", "Range"])
    value = rng.choice(["*", '"x"', 'W/"x"', "W/*", '"a", *', "", ",,,", "bytes=0-10",
                        "bytes=-5", "bytes=10-1", "Mon, 01 Jan 1990 00:00:00 GMT", '"' * 30])
    path = rng.choice(["/api/v1/games", "/api/v1/games/gaps/deals/42", "/api/v1/feed.json",
                       f"/api/v1/deals/{rng.choice(IDS)}", f"/api/v1/daily/{IDS[20][:10]}",
                       f"/api/v1/deals/{rng.choice(IDS)}/state?moves=d"])
    return rng.choice(["GET", "HEAD"]), path, {name: value}, b""


SEEDS = ["١٢٣", "１２３", "123%0A", "123%0D", "%E2%80%8B1", "+1", "-1", "1_0", "0x10", "1e3",
         "18446744073709551616", "99999999999999999999", "%F0%9F%82%A1", "%00", "1%20", " 1",
         "000000000000000000001", "", "%", "%zz"]


def seeds(rng: random.Random) -> Request:
    if rng.random() < 0.6:
        seed = rng.choice(SEEDS)
        return "GET", f"/api/v1/games/{rng.choice(GAMES)}/deals/{seed}", {}, b""
    seed_value: Any = rng.choice([s for s in SEEDS if "%" not in s] + [2**64, -1, 1.5, True])
    body = json.dumps({"seed": seed_value, "moves": []}).encode()
    return "POST", f"/api/v1/games/{rng.choice(GAMES)}/verify", {
        "Content-Type": "application/json"}, body


CARDS = ["Aſ", "ſ", "KS", "10ſ", "ＡS", "ıS", "AK", "A♠", "A♤", "１0S", "2S@١", "2S@1",
         "4D>4S", "QS+5H", "d", "D", "R", "r", "Ｒ"]


def cards(rng: random.Random) -> Request:
    moves = [rng.choice(CARDS) for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.5:
        url = f"/api/v1/deals/{rng.choice(IDS)}/state?moves=" + quote(" ".join(moves))
        return "GET", url, {}, b""
    body = json.dumps({"seed": "5", "moves": moves, "cards": None}, ensure_ascii=False).encode()
    return "POST", f"/api/v1/games/{rng.choice(GAMES)}/verify", {
        "Content-Type": "application/json"}, body


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 2**64, 2**200, 1.5, 1e308, -0.0])
    if kind == 3:
        return rng.choice(["", "d", "R", "\u0000", "💩", "x" * 100, "[", "{}", "\u202e"])
    if kind == 4:
        return rng.choice(["moves", "seed", "cards", "variant"])
    if kind == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys = ["moves", "seed", "cards", "variant", "x"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def bodies(rng: random.Random) -> Request:
    value = random_json(rng)
    body = json.dumps(value).encode()
    if rng.random() < 0.2:
        body = body.replace(b"1.5", b"NaN").replace(b"0", b"Infinity")
    ctype = rng.choice(["application/json", "application/problem+json", "text/plain",
                        "application/json; charset=latin-1", "multipart/form-data; boundary=x",
                        "application/x-www-form-urlencoded", "", "*/*"])
    return "POST", verify_url(rng), {"Content-Type": ctype} if ctype else {}, body


def random_bytes(rng: random.Random) -> Request:
    body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
    ctype = rng.choice(["application/json", "text/plain", "text/plain; charset=utf-16", ""])
    return "POST", verify_url(rng), {"Content-Type": ctype} if ctype else {}, body


SEGMENTS = [*GAMES, *TIERS, "today", "deals", "daily", "games", "verify", "state", "solution",
            "feed.json", "feed.atom", "openapi.json", "healthz", "..", "%2e%2e", "%00", "%ff",
            "2026-02-30", "9999-99-99", "%C0%AE", "~", "%u0041", "a" * 300, "٢٠٢٦-١١-٣٠"]


def paths(rng: random.Random) -> Request:
    parts = [rng.choice(SEGMENTS) for _ in range(rng.randint(0, 5))]
    query = rng.choice(["", "?tz=Mars/Olympus", "?tz=%2B99:99", "?variant=%00", "?moves=%ff",
                        "?variant=redeals=9999999999999999999", "?tz=" + "A" * 500])
    method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"])
    return method, "/api/v1/" + "/".join(parts) + query, {}, b""


def bad_http(rng: random.Random) -> Request:
    return rng.choice([
        ("GET", "/api/v1/games", {"Content-Length": "-1"}, b""),
        ("GET", "/api/v1/games", {"Content-Length": "1, 2"}, b""),
        ("POST", "/api/v1/games/gaps/verify", {"Content-Length": "99999999999999999999"}, b"{}"),
        ("GET", "/api/v1/games", {"Bad Header": "x"}, b""),
        ("GET", "/api/v1/games", {"X-Long": "a" * 9000}, b""),
        ("GET", "/api/v1/games", {f"X-{i}": "1" for i in range(120)}, b""),
        ("G\x00T", "/api/v1/games", {}, b""),
        ("GET", "/api/v1/" + "a" * 5000, {}, b""),
        ("GET", "api/v1/games", {}, b""),
        ("GET", "http://evil.example/api/v1/games", {}, b""),
        ("GET", "*", {}, b""),
        ("CONNECT", "evil.example:443", {}, b""),
        ("GET", "/api/v1/games", {"Expect": "100-continue"}, b""),
        ("POST", "/api/v1/games/gaps/verify", {"Expect": "100-continue",
                                               "Content-Type": "application/json"},
         b'{"seed": 1, "moves": []}'),
        ("GET", "/api/v1/games", {"Upgrade": "h2c", "HTTP2-Settings": "AAA"}, b""),
        ("GET", "/api/v1/games", {"Host": ""}, b""),
    ])


#: real play tokens of today's deals, fetched by ``attack`` before it starts (play_reuse)
TOKENS: list[tuple[str, str]] = []
TODAY = [i for i in IDS if i.startswith(dt.datetime.now(dt.UTC).date().isoformat())]


B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def fake_token(rng: random.Random) -> str:
    def b64(n: int) -> str:
        return "".join(rng.choice(B64) for _ in range(n))

    return rng.choice([
        f"p1.{b64(22)}.{int(time.time())}.{b64(22)}", f"p1.{b64(22)}.99999999999.{b64(22)}",
        "p1...", "", "p2." + b64(60), b64(300), "p1.%00.1.x", "p1.\\ud800",
    ])


def forged_results(rng: random.Random) -> Request:
    """Results of a solver-like script: no play, a forged or another deal's token, odd
    fields; each must be a 4xx that counts nothing."""
    body: dict[str, Any] = {"client": rng.choice(["c" * 20, "x", "", "é" * 20, None]),
                            "moves": rng.choice([[], ["d"] * rng.randint(1, 300), "d d d",
                                                 ["QC", "7H"], 5, None])}
    kind = rng.randrange(4)
    if kind == 1:
        body["play"] = fake_token(rng)
    elif kind == 2 and TOKENS:
        body["play"] = rng.choice(TOKENS)[1]  # a real token, maybe of another deal
    elif kind == 3:
        body["play"] = rng.choice([1, None, [], {}, True, 2**70])
    if rng.random() < 0.3:
        body["seconds"] = rng.choice([-1, 0, 10**12, 1.5, "1", None])
    if rng.random() < 0.3:
        body["hints"] = rng.choice([-1, 0, 10**9])
    url = f"/api/v1/deals/{rng.choice(IDS)}/results"
    return "POST", url, {"Content-Type": "application/json"}, json.dumps(body).encode()


def play_reuse(rng: random.Random) -> Request:
    """One real play token posted again and again, by many clients, with many lists."""
    if not TOKENS:
        return forged_results(rng)
    deal, token = rng.choice(TOKENS)
    body = {"client": f"reuse-{rng.randrange(10**12):016d}", "play": token,
            "moves": rng.choice([["d"], ["d", "d"], [], ["ZZ"], ["d"] * 5000])}
    return "POST", f"/api/v1/deals/{deal}/results", {"Content-Type": "application/json"}, \
        json.dumps(body).encode()


def stats_flood(rng: random.Random) -> Request:
    """Statistics, plays and hints with a play, from one address, as fast as it goes."""
    id_ = rng.choice(IDS + ["x", "a" * 200, "%00", "..%2f"])
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(["GET", "HEAD"]), f"/api/v1/deals/{id_}/stats", {}, b""
    if kind == 1:
        return "POST", f"/api/v1/deals/{id_}/plays", rng.choice(
            [{}, {"Content-Type": "application/json"}]), rng.choice([b"", b"{}", b"[[["])
    token = quote(fake_token(rng) if rng.random() < 0.7 or not TOKENS
                  else rng.choice(TOKENS)[1])
    return "GET", f"/api/v1/deals/{id_}/hint?moves=&play={token}", {}, b""


def prime(host: str, port: int, count: int = 8) -> None:
    """Fetch real play tokens of today's deals for ``play_reuse`` (none if it fails)."""
    TOKENS.clear()
    for i in range(count):
        deal = TODAY[i % len(TODAY)] if TODAY else IDS[0]
        answer = send(host, port, raw("POST", f"/api/v1/deals/{deal}/plays", {}, b""))
        if status_of(answer) == 201:
            TOKENS.append((deal, json.loads(answer.split(b"\r\n\r\n", 1)[1])["play"]))


CLASSES: dict[str, Callable[[random.Random], Request]] = {
    "nested_brackets": nested_brackets,
    "charsets": charsets,
    "lone_surrogates": surrogates,
    "malformed_chunked": chunked,
    "proxy_headers_script_name": proxy_headers,
    "conditional_requests": conditionals,
    "non_ascii_seeds": seeds,
    "non_ascii_cards": cards,
    "random_json_bodies": bodies,
    "random_bytes": random_bytes,
    "odd_paths_methods": paths,
    "malformed_http": bad_http,
    "forged_results": forged_results,
    "play_reuse": play_reuse,
    "stats_flood": stats_flood,
}


def send(host: str, port: int, data: bytes, timeout: float = 15) -> bytes:
    with socket.create_connection((host, port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except OSError:
            pass  # the server may answer (400) and close before reading everything
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except OSError:
            pass
        return out


def status_of(answer: bytes) -> int | None:
    """The final status of an answer (after any interim 1xx, e.g. 100 Continue)."""
    while True:
        line = answer.split(b"\r\n", 1)[0].split()
        if len(line) < 2 or not line[1].isdigit():
            return None
        status = int(line[1])
        if status >= 200 or b"\r\n\r\n" not in answer:
            return status
        answer = answer.split(b"\r\n\r\n", 1)[1]


def attack(base: str, total: int, seed: int = 1, concurrency: int = 16) -> dict[str, Any]:
    """Send ``total`` hostile requests to ``base``; the counts."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    names = list(CLASSES)
    per_class: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    five: list[tuple[str, int, bytes]] = []
    tracebacks = 0
    no_answer = 0
    lock = threading.Lock()
    counter = iter(range(total))
    prime(host, port)

    def worker() -> None:
        nonlocal tracebacks, no_answer
        for i in counter:
            name = names[i % len(names)]
            rng = random.Random(seed * 1_000_003 + i)
            request = CLASSES[name](rng)
            answer = send(host, port, raw(*request))
            status = status_of(answer)
            with lock:
                per_class[name] += 1
                if status is None:
                    no_answer += 1
                    statuses["none"] += 1
                    continue
                statuses[f"{status // 100}xx"] += 1
                if status >= 500:
                    five.append((name, status, raw(*request)[:300]))
                if b"Traceback (most recent call last)" in answer:
                    tracebacks += 1

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "requests": sum(per_class.values()),
        "seconds": round(time.monotonic() - start, 1),
        "classes": dict(per_class),
        "statuses": dict(sorted(statuses.items())),
        "5xx": len(five),
        "tracebacks_in_answers": tracebacks,
        "no_answer": no_answer,
        "examples_5xx": five[:5],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--kind", default="gunicorn", help="serve, gunicorn or entrypoint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=16, help="most wait on stalls")
    parser.add_argument("--url", help="attack a running server instead of starting one")
    args = parser.parse_args()
    env = {
        "DAILYDEAL_FORWARDED_ALLOW_IPS": "*",  # as the Docker image sets it
        "DAILYDEAL_TRUSTED_PROXIES": "127.0.0.1",  # as the systemd unit sets it
        "DAILYDEAL_VERIFY_LIMIT": "100000000 per minute",  # the handlers answer, not the limiter
        "DAILYDEAL_WORKERS": "2",
    }
    log_errors = None
    if args.url:
        result = attack(args.url.rstrip("/"), args.requests, args.seed, args.concurrency)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            with running(args.kind, Path(tmp), env=env) as (base, _):
                result = attack(base, args.requests, args.seed, args.concurrency)
            log = (Path(tmp) / f"{args.kind}.log").read_text(errors="replace")
            log_errors = log.count("Traceback")
    result["tracebacks_in_server_log"] = log_errors
    for key, value in result.items():
        print(f"{key}: {value}")
    bad = result["5xx"] or result["tracebacks_in_answers"] or log_errors
    print("target (0 responses 5xx, no traceback):", "NOT met" if bad else "met")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
