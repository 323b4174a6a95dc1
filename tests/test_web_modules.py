"""The browser's files (dailydeal/web/static/): small modules, no circle of imports, each
with its line in docs/architecture.md ("The browser"), and the pages preload what the
element loads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from helpers.modules import graph

from dailydeal.web.pages import STATIC_DIR, module_graph

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in STATIC_DIR.iterdir() if p.suffix in (".js", ".css"))
# the files a page or the tests load by name; every other one is loaded by one of these
ENTRIES = ["daily-deal.js", "daily.js", "solve.js", "offline.js", "embed-frame.js", "embed-host.js",
           "verdict.js", "site.css"]


def test_no_file_is_over_800_lines() -> None:
    lines = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in FILES}
    long = {name: n for name, n in lines.items() if n > 800}
    assert not long, f"files over 800 lines: {long}"


def test_no_module_imports_one_that_imports_it_back() -> None:
    files = {p.name: p.read_bytes() for p in FILES}
    edges = {name: module_graph(files, name)[name] for name in files}
    for start in files:  # a path from start back to start is a circle
        todo, seen = list(edges[start]), set()
        while todo:
            name = todo.pop()
            assert name != start, f"{start} imports itself through {sorted(seen)}"
            if name not in seen:
                seen.add(name)
                todo.extend(edges[name])


def test_every_file_is_loaded_and_has_its_line_in_the_architecture() -> None:
    loaded = set(ENTRIES)
    for entry in ENTRIES:
        loaded |= set(graph(entry))
    assert {p.name for p in FILES} <= loaded, "files nothing loads"
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("## The browser")
    section = text[start : text.index("\n## ", start + 5)]
    named = set(re.findall(r"`([\w.-]+\.(?:js|css))`", section))
    assert {p.name for p in FILES} <= named, {p.name for p in FILES} - named
    assert named <= {p.name for p in FILES}, named - {p.name for p in FILES}


def test_the_pages_preload_every_file_the_element_loads(client: Any) -> None:
    html = client.get("/play/gaps/1").get_data(as_text=True)
    preloaded = re.findall(r'<link rel="(?:modulepreload|preload)" href="/static/([\w.-]+)"', html)
    assert sorted(preloaded) == sorted(n for n in graph() if n != "daily-deal.js")
    assert "rules.js" in preloaded and "daily-deal.css" in preloaded
    for name in preloaded:  # the URL a module's import resolves to: served, revalidated
        resp = client.get(f"/static/{name}")
        assert resp.status_code == 200 and resp.headers["Cache-Control"] == "public, max-age=300"
