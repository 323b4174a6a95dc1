"""Print a pip constraints file pinning every runtime dependency of pyproject.toml (and of
its non-dev extras) to its lower bound: `pip install -c FILE -e '.[dev]'` then installs the
lowest versions the project claims to work with (dependencies of dependencies resolve as
usual). A dependency without a lower bound is an error: every one must have a tested floor.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9._-]+)\s*(?:\[[^\]]*\])?\s*(.*)$")


def lower_bounds(pyproject: Path) -> dict[str, str]:
    project = tomllib.loads(pyproject.read_text())["project"]
    name = project["name"]
    requirements = list(project.get("dependencies", []))
    for extra, items in project.get("optional-dependencies", {}).items():
        if extra != "dev":
            requirements += items
    out: dict[str, str] = {}
    for text in requirements:
        match = REQUIREMENT.match(text)
        if match is None:
            raise SystemExit(f"cannot read the requirement {text!r}")
        dist, spec = match.group(1).lower(), match.group(2)
        if dist == name:
            continue
        floor = re.search(r">=\s*([0-9][^,;\s]*)", spec)
        if floor is None:
            raise SystemExit(f"{text!r} has no lower bound (>=) in {pyproject}")
        out[dist] = max(out.get(dist, floor.group(1)), floor.group(1), key=_version_key)
    return out


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version))


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml")
    for dist, version in sorted(lower_bounds(path).items()):
        print(f"{dist}=={version}")
