"""Where openapi.json and the server disagree: Schemathesis with every check on every
operation of /api/v1 (examples, coverage, fuzzing and stateful phases), against the app
served on a loopback port with a database stocked as the scheduler would (``stock_db``).

    python benchmarks/schema_fuzz.py [--examples 100] [--seed 1]

prints the mismatches Schemathesis found (0: none) and its report of each. Rate limits are
lifted (a 429 is no mismatch), hints search in the worker. One choice is stated in the
configuration below: a request the document allows but the rules refuse (an illegal move,
a forged play token, an empty play) is a 422, which the API documents for those operations,
so 422 is an expected answer to a schema-valid request; a 400 never is, but where JSON
Schema cannot say the rule (the operations listed below, each with why).

tests/test_api_fuzz_schema.py runs it with a few examples per operation.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from servers import BIN, stock_db
from werkzeug.serving import make_server

CONFIG = """\
[checks.positive_data_acceptance]
# 422: a well-formed request the rules refuse (documented per operation); never 400
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "425", "429", "5xx"]

[checks.negative_data_rejection]
# a body over the size limit is refused as such, before it is read (info.description)
expected-statuses = ["400", "401", "403", "404", "405", "406", "408", "409", "413", "415",
                     "422", "428", "429", "5xx"]

# What JSON Schema cannot say, since it relates one value to another: a 400 here is right.
[[operations]]
# oEmbed answers 501 to a format it does not serve, as its specification asks
include-path = "/oembed"
checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "501"]

[[operations]]
# `to` before `from`, or more than 62 dates between them
include-path = "/commitments"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "404", "429"]

[[operations]]
# the variants are the game's (path and query); a seed of 20 digits past 2**64-1
include-path = "/games/{game}/deals/{seed}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "404", "429"]

[[operations]]
# the variants are the game's; cards: the 52 of one deck, each once
include-path-regex = "^/games/[{]game[}]/(verify|state|hint|review)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "404", "422",
                                                      "429", "5xx"]
"""
LIFTED = "1000000 per minute"


@contextmanager
def served(tmp: Path) -> Iterator[str]:
    """The app on a free loopback port, its rate limits lifted: the URL of its document."""
    from dailydeal.web import create_app

    limits = {f"{scope}_rate_limit": LIFTED
              for scope in ("verify", "state", "hint", "results", "counted", "plays", "stats")}
    app = create_app({"db_path": stock_db(tmp / "fuzz.db"), "hint_processes": 0, **limits})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/api/v1/openapi.json"
    finally:
        server.shutdown()
        thread.join(5)


def mismatches(examples: int, seed: int) -> tuple[int, str]:
    """(the number of distinct mismatches Schemathesis found, its report)."""
    with tempfile.TemporaryDirectory() as tmp, served(Path(tmp)) as url:
        config = Path(tmp) / "schemathesis.toml"
        config.write_text(CONFIG, encoding="utf-8")
        run = subprocess.run(
            [str(BIN / "st"), "--config-file", str(config), "run", url, "--checks", "all",
             "--max-examples", str(examples), "--seed", str(seed), "--workers", "1",
             "--no-color"],
            capture_output=True, text=True, cwd=tmp, check=False,
        )
    report = run.stdout + run.stderr
    found = re.search(r"(\d+) unique failures?", report)
    if found is None and run.returncode != 0:
        raise RuntimeError(f"schemathesis failed to run:\n{report[-3000:]}")
    return (int(found.group(1)) if found else 0), report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="per operation and phase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    count, report = mismatches(args.examples, args.seed)
    print(report)
    print(f"mismatches: {count} ({args.examples} examples per operation, seed {args.seed})")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
