"""The layers hold: no module of dailydeal/ imports a layer above its own.

The order is declared here, lowest first, and stated in docs/architecture.md. Every import
counts, the ones inside a function too (an import "here, so the CLI starts without Flask"
is still an arrow), read from the source with ``ast``, so nothing is imported to check.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dailydeal"

# Lowest first. A module belongs to the layer of its longest matching prefix; modules of
# one layer may import each other.
LAYERS: list[tuple[str, ...]] = [
    (
        "dailydeal.cards", "dailydeal.shuffle", "dailydeal.errors", "dailydeal.native",
        "dailydeal.memo",
    ),
    ("dailydeal.games.rules",),
    ("dailydeal.games",),
    ("dailydeal.verify",),
    ("dailydeal.solvers",),
    ("dailydeal.rating", "dailydeal.hints", "dailydeal.review", "dailydeal.config"),
    ("dailydeal.solverpool",),
    ("dailydeal.daily",),
    ("dailydeal.results",),
    ("dailydeal.web",),
    ("dailydeal.cli",),
]
# ``dailydeal`` itself is the package's front door (``__version__``, ``deal``, ``verify``):
# any module may read ``__version__`` from it, so it belongs to no layer.
FRONT = "dailydeal"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (ROOT / rel).with_suffix(".py").is_file() or (ROOT / rel / "__init__.py").is_file()


def imports(name: str, path: Path) -> set[str]:
    """The dailydeal modules ``name`` imports (``from pkg import sub`` is ``pkg.sub``)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if is_module(sub) else base)
    return {m for m in found if m == FRONT or m.startswith(FRONT + ".")}


def layer_of(name: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or name.startswith(prefix + "."):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), index)
    return None if best is None else best[1]


def upward_imports() -> list[str]:
    wrong = []
    for name, path in modules().items():
        own = layer_of(name)
        if own is None:
            continue
        for target in sorted(imports(name, path)):
            theirs = layer_of(target)
            if theirs is not None and theirs > own:
                wrong.append(f"{name} (layer {own}) imports {target} (layer {theirs})")
    return wrong


def test_every_module_has_a_layer() -> None:
    lost = sorted(n for n in modules() if n != FRONT and layer_of(n) is None)
    assert not lost, f"modules in no layer (add them to LAYERS and docs/architecture.md): {lost}"


def test_no_module_imports_a_higher_layer() -> None:
    wrong = upward_imports()
    assert not wrong, "imports go one way (lowest layer first):\n" + "\n".join(wrong)


def import_graph() -> dict[str, set[str]]:
    """module -> the dailydeal modules it imports, as its statements name them (every import,
    inside functions too; ``from pkg import sub`` is ``pkg.sub``, not ``pkg``)."""
    found = modules()
    return {name: {m for m in imports(name, path) if m in found and m != name}
            for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (``[a, b, ..., a]``) through each group of modules that import each other,
    directly or through others (the strongly connected components of more than one)."""
    order: list[str] = []
    seen: set[str] = set()
    for start in sorted(graph):  # Kosaraju: finishing order, then the reversed graph
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(sorted(graph[start])))]
        while stack:
            node, rest = stack[-1]
            nxt = next((m for m in rest if m not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(graph[nxt]))))
    reverse: dict[str, set[str]] = {n: set() for n in graph}
    for node, targets in graph.items():
        for target in targets:
            reverse[target].add(node)
    out, done = [], set()
    for root in reversed(order):
        if root in done:
            continue
        group, todo = {root}, [root]
        while todo:
            for m in reverse[todo.pop()] - done - group:
                group.add(m)
                todo.append(m)
        done |= group
        if len(group) > 1:
            out.append(shortest_cycle(graph, min(group), group))
    return out


def shortest_cycle(graph: dict[str, set[str]], start: str, group: set[str]) -> list[str]:
    """The shortest path from ``start`` back to itself inside ``group`` (breadth first)."""
    back: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(back[path[-1]])
                    return [*reversed(path), start]
                if target not in back:
                    back[target] = node
                    nxt.append(target)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")


def test_no_circle_of_imports() -> None:
    """No module imports itself through others: a circle has no first module to read,
    works only in the order of its imports, and is one module in two files."""
    found = cycles(import_graph())
    assert not found, "modules that import each other (move the shared piece down):\n" + (
        "\n".join(" -> ".join(cycle) for cycle in found))


def test_the_circle_check_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"x": {"y"}, "y": {"x"}}) == [["x", "y", "x"]]


def test_the_checker_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The arrow that started this test (daily/today.py importing web.clock in a function)
    would be found."""
    path = tmp_path / "today.py"
    path.write_text("def f():\n    from dailydeal.web import clock\n", encoding="utf-8")
    assert "dailydeal.web" in imports("dailydeal.daily.today", path)


# SQL lives in the store modules; ``web/db.py`` holds the request's connection (a PRAGMA on
# it, no table).
SQL_MODULES = {
    "dailydeal.daily.store",
    "dailydeal.results.sqlite_store",
    "dailydeal.web.db",
}
SQL = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|BEGIN) ")


def sql_outside_the_store() -> list[str]:
    found = []
    for name, path in modules().items():
        if name in SQL_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and SQL.match(node.value) and " " in node.value.strip()):
                found.append(f"{name}:{node.lineno}: {node.value.strip()[:50]!r}")
    return found


def test_sql_only_in_the_store() -> None:
    found = sql_outside_the_store()
    assert not found, "SQL outside the store modules (put it in daily/store.py):\n" + "\n".join(
        found)


def test_click_only_in_the_command_line() -> None:
    """Generation and the rest report through values and callbacks; cli/ draws them."""
    users = sorted(name for name, path in modules().items()
                   if not name.startswith("dailydeal.cli")
                   and "click" in {m.split(".")[0] for m in all_imports(path)})
    assert not users, f"click imported outside dailydeal/cli: {users}"


def all_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


# --- the tests' own scaffolding --------------------------------------------------------------
TESTS = ROOT / "tests"


def test_no_test_module_imports_another() -> None:
    """Shared helpers are in tests/helpers/ and shared fixtures in tests/conftest.py: a test
    module (or a benchmark) that imports a test module runs or breaks with it."""
    wrong = []
    for path in sorted([*TESTS.rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]):
        for name in sorted(all_imports(path)):
            if name.split(".")[-1].startswith("test_") or name.startswith("test_"):
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
            if name in ("conftest", "tests.conftest"):
                wrong.append(f"{path.relative_to(ROOT)} imports {name} (ask for its fixture)")
    assert not wrong, "\n".join(wrong)


def test_the_shared_helpers_are_in_one_place() -> None:
    """Next to the test modules only conftest.py: a helper module goes in tests/helpers/."""
    loose = sorted(p.name for p in TESTS.glob("*.py")
                   if not p.name.startswith("test_") and p.name != "conftest.py")
    assert not loose, f"helper modules outside tests/helpers/: {loose}"
    defined: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith(("test_", "_")):
                defined.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    twice = {"free_port": defined.get("free_port", []), "wait_for": defined.get("wait_for", [])}
    assert all(len(where) <= 1 for where in twice.values()), twice


# --- docs/architecture.md is the map ------------------------------------------------------
MAP = ROOT / "docs" / "architecture.md"
MAP_LINE = re.compile(r"^- `(dailydeal/[^`]+\.py)`: (\S.*)$", re.M)


def mapped() -> dict[str, str]:
    """module path -> its one-line role, from the Modules section of docs/architecture.md."""
    return dict(MAP_LINE.findall(MAP.read_text(encoding="utf-8")))


def test_every_module_is_on_the_map() -> None:
    roles = mapped()
    paths = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py"))
    missing = [p for p in paths if p not in roles]
    assert not missing, "docs/architecture.md (## Modules) names no role for:\n" + "\n".join(
        f"  {p}  -> add a line: - `{p}`: <its one-line role>" for p in missing)
    gone = sorted(p for p in roles if not (ROOT / p).is_file())
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"


def test_the_map_states_the_declared_layers() -> None:
    """The layer diagram names each layer of ``LAYERS`` in the same order."""
    text = MAP.read_text(encoding="utf-8")
    start = text.index("```", text.index("## Layers")) + 3
    diagram = text[start:text.index("```", start)]
    where = []
    for prefixes in LAYERS:
        for prefix in prefixes:
            short = prefix.removeprefix("dailydeal.").replace(".", "/")
            found = re.search(rf"(?<![\w/]){re.escape(short)}(?=/?[,\s])", diagram)
            assert found, f"the layer diagram of docs/architecture.md does not name {short}"
            where.append((found.start(), short))
    order = [short for _, short in where]
    assert [s for _, s in sorted(where)] == order, f"layers out of order: {sorted(where)}"
