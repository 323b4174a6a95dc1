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
    assert any("limits[redis]" in r for r in project["optional-dependencies"]["redis"])
    makefile = (ROOT / "Makefile").read_text()
    assert "lowest_constraints.py" in makefile and "-c $(LOWEST)/constraints.txt" in makefile
    assert "make test-lowest" in (ROOT / ".ci" / "run").read_text()


def test_the_package_data_globs_take_every_static_file_and_catalog() -> None:
    """setuptools reads each package-data pattern as a glob (``web/static/*`` takes no file
    of a subfolder): every file the pages serve or read, the catalogs of static/locales/ and
    static/locales/pages/ too, is in a wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = ROOT / "dailydeal"
    taken = {p for pattern in config["package-data"]["dailydeal"] for p in package.glob(pattern)}
    wanted = {p for p in (package / "web").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"}
    assert any(p.parent.name == "pages" for p in wanted)
    assert not wanted - taken, sorted(str(p.relative_to(package)) for p in wanted - taken)
