"""pyproject.toml's lower bounds are real: CI installs exactly them and runs the tests."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lowest() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("lowest", ROOT / ".ci" / "lowest_constraints.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result: dict[str, str] = module.lower_bounds(ROOT / "pyproject.toml")
    return result


def test_every_runtime_dependency_has_a_floor_that_ci_installs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower()  # type: ignore[union-attr]
             for r in project["dependencies"]}
    floors = _lowest()
    assert names <= set(floors)
    # sqlite_utils.Migrations (the store's migrations) exists from sqlite-utils 4.0 on
    assert tuple(int(p) for p in floors["sqlite-utils"].split(".")[:2]) >= (4, 0)
    assert "redis" in project["optional-dependencies"]
    assert any("flask-limiter[redis]" in r for r in project["optional-dependencies"]["redis"])
    makefile = (ROOT / "Makefile").read_text()
    assert "lowest_constraints.py" in makefile and "-c $(LOWEST)/constraints.txt" in makefile
    assert "make test-lowest" in (ROOT / ".ci" / "run").read_text()
