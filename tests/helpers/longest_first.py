"""Test files longest first, so that the workers of `make test` end together.

`make test` hands whole files to its workers (``--dist loadfile``: a file's servers and
browser start once). pytest-xdist's own order puts the files with the most tests first, so
the few long browser files came last and ran alone at the end (on a loaded machine: the
last 85 s of a 937 s run with two of four workers idle). Taken longest first instead (the
classic LPT rule), the last file to start is a short one. Each file's seconds are in
``tests/durations.json``, written by ``make durations`` (``pytest --store-durations``); a
file not in it counts as the median. Stale figures cost time only, never a check: the
order within a file is kept.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).resolve().parents[1] / "durations.json"


def load(path: Path = DURATIONS) -> dict[str, float]:
    """The seconds of each test file (its path from the repository root), or {}."""
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): float(v) for k, v in table.items()}


def longest_first(items: list[Any], seconds: dict[str, float]) -> list[Any]:
    """``items`` grouped by file, the files in decreasing ``seconds`` (unknown: the median),
    each file's items in their collected order."""
    default = statistics.median(seconds.values()) if seconds else 0.0
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(_file(item), len(first_seen))

    def key(item: Any) -> tuple[float, int]:
        name = _file(item)
        return -seconds.get(name, default), first_seen[name]

    return sorted(items, key=key)  # stable: a file's own order is kept


def _file(item: Any) -> str:
    return str(item.nodeid.split("::", 1)[0])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store-durations", action="store_true",
        help="write the seconds of each test file run (setup, call and teardown summed) "
             "into tests/durations.json at the end of the run: the order of later runs",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[Any]) -> None:
    items[:] = longest_first(items, load())


class Recorder:
    """Sums the seconds of every report by file (in the controller under xdist: the
    workers' reports come to it)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid.split("::", 1)[0]] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if session.testsfailed or not self.seconds:
            return  # a run cut short measures nothing
        # the files of this run replace their figures; the others keep theirs
        table = load() | {name: round(s, 1) for name, s in self.seconds.items()}
        DURATIONS.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n",
                             encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    # only where the reports arrive: the controller, or a run without xdist
    if config.getoption("--store-durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(), "dailydeal-durations")
