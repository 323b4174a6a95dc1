"""The order `make test` hands test files out in (tests/helpers/longest_first.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from helpers import ROOT
from helpers.longest_first import DURATIONS, load, longest_first


@dataclass
class Item:
    nodeid: str


def test_files_come_longest_first_each_in_its_own_order() -> None:
    items = [Item(n) for n in (
        "tests/a.py::x", "tests/a.py::y", "tests/b.py::x", "tests/c.py::z", "tests/b.py::y",
        "tests/d.py::w",
    )]
    seconds = {"tests/a.py": 1.0, "tests/b.py": 30.0, "tests/c.py": 5.0}
    order = [i.nodeid for i in longest_first(items, seconds)]
    # d.py is not in the table: it counts as the median (5 s), after c.py (seen first)
    assert order == ["tests/b.py::x", "tests/b.py::y", "tests/c.py::z", "tests/d.py::w",
                     "tests/a.py::x", "tests/a.py::y"]
    # no table: the files in the order they were first collected
    assert [i.nodeid for i in longest_first(items, {})] == [
        "tests/a.py::x", "tests/a.py::y", "tests/b.py::x", "tests/b.py::y", "tests/c.py::z",
        "tests/d.py::w"]


def test_the_table_names_test_files_with_seconds(tmp_path: Path) -> None:
    table = load()
    assert DURATIONS.parent == ROOT / "tests" and table
    assert all(name.startswith("tests/test_") and s >= 0 for name, s in table.items())
    assert load(tmp_path / "none.json") == {}
    (tmp_path / "t.json").write_text(json.dumps({"tests/test_x.py": 2}), encoding="utf-8")
    assert load(tmp_path / "t.json") == {"tests/test_x.py": 2.0}
