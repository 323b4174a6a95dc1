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
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
MANIFEST = "dailydeal/compiled.json"


def compiled_modules() -> list[str]:
    """The module paths to compile, from pyproject.toml ([tool.dailydeal] compiled)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["dailydeal"]["compiled"])


def source_hashes(paths: list[str]) -> dict[str, str]:
    """{module name: SHA-256 of its source}: what dailydeal.native compares at import."""
    return {
        path.removesuffix(".py").replace("/", "."): hashlib.sha256(
            (ROOT / path).read_bytes()
        ).hexdigest()
        for path in paths
    }


def remove_in_tree_builds() -> None:
    """Drop an earlier in-place build (editable install): it would run old code."""
    for path in compiled_modules():
        module = ROOT / path
        for built in module.parent.glob(module.stem + ".*.so"):
            built.unlink()
        for built in module.parent.glob(module.stem + "__mypyc.*.so"):
            built.unlink()
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
        try:
            super().run()
        except Exception as exc:  # no compiler, a mypyc error: the Python source still works
            warn(f"compiling the solvers failed ({exc}); installing plain Python")
            self._remove_outputs()
            return
        manifest = json.dumps(source_hashes(compiled_modules()), indent=1, sort_keys=True)
        targets = {Path(self.build_lib) / MANIFEST}
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(ROOT / MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(manifest + "\n", encoding="utf-8")

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
    try:
        # separate=True: one extension per module, each inside the package (no top-level
        # shared library that an editable install could not import)
        return list(
            mypycify(
                ["--ignore-missing-imports", *compiled_modules()],
                opt_level="3",
                separate=True,
            )
        )
    except (Exception, SystemExit) as exc:  # mypyc's type check or code generation failed
        warn(f"mypyc could not compile the solvers ({exc}); installing plain Python")
        remove_in_tree_builds()
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
