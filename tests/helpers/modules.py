"""The browser's ES modules (dailydeal/web/static/) as files and imports: which modules
the element loads, and what each imports (a source scan: plain ES modules, no bundler)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "dailydeal" / "web" / "static"
# import ... from "./x.js" (static) and import(new URL("x.js", import.meta.url)) (dynamic)
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["']\./([\w.-]+)["']""", re.M | re.S)
DYNAMIC = re.compile(r"""import\(new URL\(["']([\w.-]+)["'], import\.meta\.url\)""")


def imports(name: str) -> list[str]:
    """The sibling modules ``name`` imports statically, in the order written."""
    return IMPORT.findall((STATIC / name).read_text(encoding="utf-8"))


def dynamic_imports(name: str) -> list[str]:
    return DYNAMIC.findall((STATIC / name).read_text(encoding="utf-8"))


def graph(entry: str = "daily-deal.js", dynamic: bool = True) -> dict[str, list[str]]:
    """Every module reachable from ``entry`` -> the modules it imports (with the dynamic
    imports when ``dynamic``)."""
    out: dict[str, list[str]] = {}
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out[name] = imports(name) + (dynamic_imports(name) if dynamic else [])
        todo.extend(out[name])
    return out


def element_sources() -> str:
    """The text of the element's modules and of its stylesheet, one after the other."""
    names = sorted(graph()) + ["daily-deal.css"]
    return "\n".join((STATIC / n).read_text(encoding="utf-8") for n in names)
