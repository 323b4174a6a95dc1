"""Build: the solvers' hot modules compiled to C with mypyc, when that is possible.

Everything else about the package is in pyproject.toml. The modules listed under
``[tool.dailydeal] compiled`` there are compiled by mypyc (it ships with mypy, a build
requirement) into C extensions that import under the same names, 1.5 to 2.4 times faster on the
solvers' searches with the same results (same node counts, same solutions). Compiling is an
optimisation, never a requirement: without a C compiler, with ``DAILYDEAL_PURE_PYTHON=1`` in
the environment, or when mypyc fails, the package installs as plain Python (a warning says
so). The build writes ``dailydeal/compiled.json`` (the SHA-256 of each compiled module's
source); ``dailydeal.native`` reads it at import and runs the Python source instead of a
compiled module whose source has changed since the build.

A build into the source tree (``python setup.py build_ext --inplace``, what ``make`` runs,
or an editable install) may happen while the server runs from that tree: ``make run``
compiles in the background. So it holds a lock (one build at a time), marks the manifest
"building" before it touches a compiled file (the Python source runs meanwhile), replaces
each compiled file by a new one (a running process keeps the file it has loaded), and
records the hashes, taken before mypyc read the sources, only once every file is in place.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import IO, Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
MANIFEST = "dailydeal/compiled.json"
# Beside an in-tree build's manifest: each compiled source's size and mtime as hashed, so
# that a process starting finds its build fresh without hashing (dailydeal.native)
STATS = "dailydeal/compiled.stat.json"
BUILDING_MARK = "building"  # dailydeal.native.BUILDING_MARK: the Python source runs meanwhile
LOCK = "build/.dailydeal-build.lock"

# The hashes of the sources mypyc compiles, taken before it reads them (extensions()), and
# their files' stat taken before the hashes
_compiled_hashes: dict[str, str] = {}
_compiled_stats: dict[str, list[int]] = {}
_lock: IO[str] | None = None


def compiled_modules() -> list[str]:
    """The module paths to compile, from pyproject.toml ([tool.dailydeal] compiled)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["dailydeal"]["compiled"])


def module_name(path: str) -> str:
    """``dailydeal/solvers/gaps.py`` -> ``dailydeal.solvers.gaps``."""
    return path.removesuffix(".py").replace("/", ".")


def in_c(path: str) -> Path | None:
    """The C source of module ``path`` when it is written in C (a .c beside the .py)."""
    c = (ROOT / path).with_suffix(".c")
    return c if c.is_file() else None


def source_hashes(paths: list[str]) -> dict[str, str]:
    """{module name: SHA-256 of its source, and of its C source if any}: what
    dailydeal.native compares at import (``native.source_digest``)."""
    out = {}
    for path in paths:
        digest = hashlib.sha256((ROOT / path).read_bytes())
        c = in_c(path)
        if c is not None:
            digest.update(c.read_bytes())
        out[module_name(path)] = digest.hexdigest()
    return out


def source_stats(paths: list[str]) -> dict[str, list[int]]:
    """{module name: [size, mtime_ns] of its source, and of its C source if any}: what
    dailydeal.native compares before it hashes (``native.source_stat``). Taken before the
    hashes: a file changed in between has another stat than the one recorded."""
    out: dict[str, list[int]] = {}
    for path in paths:
        c = in_c(path)
        stats = [(ROOT / path).stat()] + ([] if c is None else [c.stat()])
        out[module_name(path)] = [n for st in stats for n in (st.st_size, st.st_mtime_ns)]
    return out


def write_manifest(target: Path, modules: dict[str, Any]) -> None:
    """Write the manifest at once (a new file renamed over the old): a reader sees the old
    one or the new one, never half of one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(modules, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(partial, target)


def hold_build_lock() -> None:
    """One build at a time in this tree (``make run``'s background build, ``make test``):
    held until this process ends."""
    global _lock
    if _lock is not None:
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: no background build there either
        return
    path = ROOT / LOCK
    path.parent.mkdir(parents=True, exist_ok=True)
    _lock = path.open("a", encoding="utf-8")
    fcntl.flock(_lock, fcntl.LOCK_EX)


def remove_in_tree_builds(keep_manifest: bool = False) -> None:
    """Drop an earlier in-place build (editable install): it would run old code. Unlinked,
    not overwritten: a process that loaded one keeps it. The manifest goes last."""
    for path in compiled_modules():
        module = ROOT / path
        for built in module.parent.glob(module.stem + ".*.so"):
            built.unlink()
        for built in module.parent.glob(module.stem + "__mypyc.*.so"):
            built.unlink()
    (ROOT / STATS).unlink(missing_ok=True)
    if not keep_manifest:
        (ROOT / MANIFEST).unlink(missing_ok=True)


def warn(message: str) -> None:
    print(f"dailydeal build: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the compiled modules if the machine can; otherwise leave plain Python.

    On success it writes the manifest next to the built modules (and into the source tree
    for an in-place or editable build), so the runtime knows what was compiled from which
    source.
    """

    def run(self) -> None:
        in_tree = bool(self.inplace or getattr(self, "editable_mode", False))
        if in_tree and self.extensions:
            # from here until the hashes are written, new processes run the Python source
            write_manifest(ROOT / MANIFEST, dict.fromkeys(_compiled_hashes, BUILDING_MARK))
            remove_in_tree_builds(keep_manifest=True)
        try:
            super().run()
        except Exception as exc:  # no compiler, a mypyc error: the Python source still works
            warn(f"compiling the solvers failed ({exc}); installing plain Python")
            self._remove_outputs()
            return
        if not self.extensions:
            return
        targets = {Path(self.build_lib) / MANIFEST}
        if in_tree:
            targets.add(ROOT / MANIFEST)
        for target in targets:
            write_manifest(target, _compiled_hashes)
        if in_tree:  # the stats of the files as hashed, with the hash each stands for
            write_manifest(ROOT / STATS, {name: [_compiled_hashes[name], *stat]
                                          for name, stat in _compiled_stats.items()})

    def _remove_outputs(self) -> None:
        """Drop any half-built extension so the Python source is what gets imported."""
        for ext in self.extensions:
            (Path(self.build_lib) / self.get_ext_filename(ext.name)).unlink(missing_ok=True)
        (Path(self.build_lib) / MANIFEST).unlink(missing_ok=True)
        remove_in_tree_builds()


def extensions() -> list[Any]:
    if os.environ.get("DAILYDEAL_PURE_PYTHON", "").strip() not in ("", "0"):
        warn("DAILYDEAL_PURE_PYTHON is set: installing plain Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warn("mypyc is not available: installing plain Python")
        return []
    hold_build_lock()
    # the sources as mypyc reads them now: an edit during the build makes it stale at once
    paths = compiled_modules()
    _compiled_stats.update(source_stats(paths))
    _compiled_hashes.update(source_hashes(paths))
    by_mypyc = [path for path in paths if in_c(path) is None]
    try:
        # separate=True: one extension per module, each inside the package (no top-level
        # shared library that an editable install could not import)
        return list(
            mypycify(["--ignore-missing-imports", *by_mypyc], opt_level="3", separate=True)
        ) + [
            Extension(
                module_name(path),
                [str(Path(path).with_suffix(".c"))],
                extra_compile_args=["-O3"],
            )
            for path in paths
            if path not in by_mypyc
        ]
    except (Exception, SystemExit) as exc:  # mypyc's type check or code generation failed
        warn(f"mypyc could not compile the solvers ({exc}); installing plain Python")
        remove_in_tree_builds()
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
