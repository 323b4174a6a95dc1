"""Bad settings on the command line: one clear line and exit 1, never a traceback. The
API's own settings, bad files and Ctrl-C on ``serve`` are in tests/test_cli_serve_errors.py
(apart, so two test workers share them). The real `dailydeal` command runs in a child
process, as an administrator would run it (helpers/cli.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import one_clear_line, run


@pytest.mark.parametrize(
    "env,words",
    [
        ({"DAILYDEAL_JOBS": "abc"}, ["DAILYDEAL_JOBS='abc'", "whole number"]),
        ({"DAILYDEAL_DAYS_AHEAD": "abc"}, ["DAILYDEAL_DAYS_AHEAD='abc'", "a whole number"]),
        ({"DAILYDEAL_DAYS_AHEAD": "-1"}, ["DAILYDEAL_DAYS_AHEAD", ">= 0"]),
        ({"DAILYDEAL_MAX_NODES": "-5"}, ["DAILYDEAL_MAX_NODES", ">= 0"]),
        ({"DAILYDEAL_TIME_LIMIT": "nan"}, ["DAILYDEAL_TIME_LIMIT", ">= 0"]),
        ({"DAILYDEAL_TIME_LIMIT": "soon"}, ["DAILYDEAL_TIME_LIMIT", "seconds"]),
        ({"DAILYDEAL_MAX_ATTEMPTS": "0"}, ["DAILYDEAL_MAX_ATTEMPTS", ">= 1"]),
        ({"DAILYDEAL_GAMES": "chess"}, ["DAILYDEAL_GAMES", "unknown game 'chess'"]),
        ({"DAILYDEAL_SECRET": "sunshine"}, ["DAILYDEAL_SECRET is too short"]),
        ({"DAILYDEAL_SECRET": "sunshine" * 8}, ["DAILYDEAL_SECRET has too little entropy"]),
    ],
)
@pytest.mark.parametrize("command", [["generate", "--days", "1"], ["schedule"],
                                     ["serve", "--fill", "no", "--no-scheduler"]])
def test_bad_settings(
    env: dict[str, str], words: list[str], command: list[str], tmp_path: Path
) -> None:
    one_clear_line(run([*command, "--db", str(tmp_path / "d.db")], env, tmp_path), *words)
