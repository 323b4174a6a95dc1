"""Compiled or Python: which build of the solvers' hot modules runs, and why.

``setup.py`` compiles the modules listed in pyproject.toml (``[tool.dailydeal] compiled``)
with mypyc when it can, and records the SHA-256 of each one's source in ``compiled.json``
beside this module. The Python source stays the reference: a compiled module must give the
same results (tests/test_native.py compares them node for node).

A compiled module whose source changed after the build (an edit or a checkout in an
editable install) would silently run the old code. So, before anything imports them,
``use_fresh_modules()`` compares the hashes; if any differs, or ``DAILYDEAL_PURE_PYTHON``
is set to anything but ``0``, every recorded module is imported from its ``.py`` source
instead (a finder placed first on ``sys.meta_path``), and ``BUILD`` says why.

A build in the source tree (``make run`` compiles in the background while it serves) first
writes the manifest with ``"building"`` in place of every hash, then replaces the compiled
files, then writes the hashes (each write atomic): a process that starts meanwhile imports
the Python source, one that starts after the last write imports the whole new build.

Hashing every start would cost each command the load of OpenSSL and the hashes (about 4 ms
of a ``dailydeal solve`` start-up of 60). So an in-tree build also writes
``compiled.stat.json``: each source's size and modification time (nanoseconds) as it was
hashed, with that hash. A source whose stat and hash are those recorded is the one
compiled, as Python judges its own bytecode caches; any other (an edit, a checkout, a copy,
a build not in the tree) is hashed as before.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "compiled.json"
STATS = PACKAGE_DIR / "compiled.stat.json"  # setup.py's STATS: {module: [hash, size, mtime_ns...]}
PURE_SETTING = "DAILYDEAL_PURE_PYTHON"

COMPILED = "compiled"
NOT_BUILT = "python (not compiled: no compiler, or DAILYDEAL_PURE_PYTHON at install)"
REQUESTED = "python (DAILYDEAL_PURE_PYTHON is set)"
STALE = "python (the compiled build is older than the source: run `make install`)"
BUILDING = "python (the compiled build is not finished: `make run` or `make install` makes it)"

# The manifest's value for a module while setup.py is (re)building it in the source tree
BUILDING_MARK = "building"

# What runs, once use_fresh_modules() has looked: one of the five strings above
BUILD = NOT_BUILT


def pure_python_requested() -> bool:
    return os.environ.get(PURE_SETTING, "").strip() not in ("", "0")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def recorded() -> dict[str, str]:
    """{module name: SHA-256 of the source it was compiled from}; {} when nothing was."""
    return {str(k): str(v) for k, v in _read_json(MANIFEST).items()}


def source_path(name: str) -> Path:
    """The .py file of module ``name`` (``dailydeal.solvers.gaps``)."""
    return PACKAGE_DIR.parent.joinpath(*name.split(".")).with_suffix(".py")


def source_stat(name: str) -> list[int]:
    """[size, mtime_ns] of module ``name``'s source, and of its C source when there is one
    (setup.py's ``source_stats``); [] when it cannot be read."""
    path = source_path(name)
    try:
        stats = [path.stat()]
        c = path.with_suffix(".c")
        if c.is_file():
            stats.append(c.stat())
    except OSError:
        return []
    return [n for st in stats for n in (st.st_size, st.st_mtime_ns)]


def source_digest(name: str) -> str:
    """The SHA-256 of module ``name``'s source, and of its C source when it is written in C
    too (a .c beside the .py: setup.py builds that one); "" when it cannot be read."""
    import hashlib  # only when a stat differs: OpenSSL's load is most of a hash's cost

    path = source_path(name)
    try:
        digest = hashlib.sha256(path.read_bytes())
        c = path.with_suffix(".c")
        if c.is_file():
            digest.update(c.read_bytes())
    except OSError:
        return ""
    return digest.hexdigest()


def changed(manifest: dict[str, str], stats: dict[str, Any] | None = None) -> list[str]:
    """The recorded modules whose source no longer matches the build: hashed, unless its
    stat and hash are those ``stats`` recorded (``compiled.stat.json``)."""
    stats = stats or {}
    out = []
    for name, digest in sorted(manifest.items()):
        if stats.get(name) == [digest, *source_stat(name)]:
            continue  # the very file that was hashed
        now = source_digest(name)
        if now != digest:
            out.append(name)
    return out


class _SourceFinder:
    """Imports the named modules from their .py source, ahead of any compiled build.

    A meta path finder needs only ``find_spec``; not deriving from importlib.abc's class
    spares every command the import of importlib.resources and tempfile behind it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def use_fresh_modules() -> str:
    """Decide compiled or Python source for the recorded modules; return (and set) BUILD."""
    global BUILD
    manifest = recorded()
    if not manifest:
        BUILD = NOT_BUILT
        return BUILD
    building = BUILDING_MARK in manifest.values()
    stale = [] if building else changed(manifest, _read_json(STATS))
    if pure_python_requested() or building or stale:
        if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _SourceFinder(list(manifest)))
        if pure_python_requested():
            BUILD = REQUESTED
        elif building:
            BUILD = BUILDING
        else:
            BUILD = STALE
            warnings.warn(
                f"dailydeal: {', '.join(stale)} changed since it was compiled; running the "
                "Python source (slower). Rebuild with `make install`.",
                stacklevel=2,
            )
        return BUILD
    BUILD = COMPILED
    return BUILD


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` was loaded from a C extension (mypyc), not from source."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)
