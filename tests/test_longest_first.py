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
        "unit/a::x", "unit/a::y", "unit/b::x", "unit/c::z", "unit/b::y",
        "unit/d::w",
    )]
    seconds = {"unit/a": 1.0, "unit/b": 30.0, "unit/c": 5.0}
    order = [i.nodeid for i in longest_first(items, seconds)]
    # unit/d is not in the table: it counts as the median (5 s), after unit/c (seen first)
    assert order == ["unit/b::x", "unit/b::y", "unit/c::z", "unit/d::w",
                     "unit/a::x", "unit/a::y"]
    # no table: the files in the order they were first collected
    assert [i.nodeid for i in longest_first(items, {})] == [
        "unit/a::x", "unit/a::y", "unit/b::x", "unit/b::y", "unit/c::z",
        "unit/d::w"]


def test_the_table_names_test_files_with_seconds(tmp_path: Path) -> None:
    table = load()
    assert DURATIONS.parent == ROOT / "tests" and table
    assert all(name.startswith("tests/test_") and s >= 0 for name, s in table.items())
    assert load(tmp_path / "none.json") == {}
    (tmp_path / "t.json").write_text(json.dumps({"unit/test_x": 2}), encoding="utf-8")
    assert load(tmp_path / "t.json") == {"unit/test_x": 2.0}
