"""The element's files (dailydeal/web/static/): what daily-deal.js loads, as the pages
preload it (dailydeal.web.pages.module_graph, read from the files on disk)."""

from __future__ import annotations

from pathlib import Path

from dailydeal.web.pages import STATIC_DIR, module_graph


def graph(entry: str = "daily-deal.js") -> dict[str, list[str]]:
    """Every file reachable from ``entry`` (modules and the stylesheet) -> what it loads."""
    files = {p.name: p.read_bytes() for p in STATIC_DIR.iterdir() if p.is_file()}
    return module_graph(files, entry)


def modules() -> list[Path]:
    """The element's JavaScript modules, the entry first."""
    return [STATIC_DIR / n for n in graph() if n.endswith(".js")]


def element_sources() -> str:
    """The text of the element's modules and of its stylesheet, one after the other."""
    return "\n".join((STATIC_DIR / n).read_text(encoding="utf-8") for n in sorted(graph()))
