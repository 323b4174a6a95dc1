"""The build backend: setuptools', asking for mypy (which brings mypyc) only when the
solvers will be compiled.

A plain-Python install (``DAILYDEAL_PURE_PYTHON=1``: what ``make run`` installs before it
serves, then compiles apart) does not fetch and install mypy into pip's build environment,
the largest part of it. The requirement itself is written once, in pyproject.toml
(``[tool.dailydeal] compiler``); setup.py decides the same way whether to compile.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (every hook, as setuptools defines it)

ROOT = Path(__file__).resolve().parent


def compiler_requires() -> list[str]:
    """What compiling the solvers needs, or nothing for a plain-Python install."""
    if os.environ.get("DAILYDEAL_PURE_PYTHON", "").strip() not in ("", "0"):
        return []
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["dailydeal"]["compiler"])


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return [*build_meta.get_requires_for_build_wheel(config_settings), *compiler_requires()]


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return [*build_meta.get_requires_for_build_editable(config_settings), *compiler_requires()]
