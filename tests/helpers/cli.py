"""The real ``dailydeal`` command in a child process, as an administrator would run it, and
what its errors must look like (tests/test_cli_errors.py, tests/test_cli_serve_errors.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STRONG = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff"
COMMAND = [sys.executable, "-c", "from dailydeal.cli import main; main()"]


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DAILYDEAL_")}
    return subprocess.run(
        [*COMMAND, *args], env={**base, "DAILYDEAL_SECRET": STRONG, **env}, cwd=cwd,
        capture_output=True, text=True, timeout=60,
    )


def one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    for word in words:
        assert word in lines[0], lines[0]
