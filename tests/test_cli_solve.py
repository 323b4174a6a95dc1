"""`dailydeal solve`: the verdict, and whether a won solution is proved shortest."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from dailydeal.cli import main
from dailydeal.verify import verify

runner = CliRunner()


def solve_json(*args: str) -> tuple[int, dict[str, object]]:
    result = runner.invoke(main, ["solve", *args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.output)


def test_a_shortest_pyramid_solution_says_so() -> None:
    code, data = solve_json("pyramid", "--seed", "32")
    assert code == 0 and data["status"] == "won"
    assert data["proved_shortest"] is True
    assert verify("pyramid", 32, data["moves"]).won  # type: ignore[arg-type]


def test_a_budget_cut_pyramid_solution_is_not_proved_shortest() -> None:
    # 150 positions: too few for the proof; the pool plan still wins, not necessarily shortest
    code, data = solve_json("pyramid", "--seed", "32", "--max-nodes", "150")
    assert code == 0 and data["status"] == "won"
    assert data["proved_shortest"] is False
    text = runner.invoke(main, ["solve", "pyramid", "--seed", "32", "--max-nodes", "150"])
    assert "not proved shortest" in text.output


def test_a_solver_that_never_claims_shortest_says_null() -> None:
    code, data = solve_json("gaps", "--seed", "42", "--time-limit", "20")
    assert data["proved_shortest"] is None
    assert code == (0 if data["status"] == "won" else 1)


def test_a_solve_loads_no_web_scheduler_or_store() -> None:
    # Each command's module is imported when it runs (dailydeal/cli/__init__.py, COMMANDS):
    # a solve pays for none of these at start-up; nor for the engines and solvers of the
    # other games (GAMES and SOLVERS load a game's modules when first asked for it).
    code = (
        "import sys\n"
        "from dailydeal.cli import main\n"
        "try:\n"
        "    main(['solve', 'accordion', '--seed', '1'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('flask', 'apscheduler', 'sqlite_utils', 'werkzeug', 'dailydeal.daily',\n"
        "         'dailydeal.web', 'dailydeal.rating', 'dailydeal.cli.web', 'multiprocessing',\n"
        "         'pydantic', 'PIL', 'signal', 'dailydeal.games.pyramid', 'dailydeal.games.gaps',\n"
        "         'dailydeal.solvers.pyramid', 'dailydeal.solvers.gaps')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in heavy\n"
        "             or any(m.startswith(h + '.') for h in heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "won after" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_every_command_is_listed_where_it_is_defined() -> None:
    # The group imports a command's module only when asked: a command a module defines but
    # COMMANDS does not list would never be found, one listed in the wrong module neither.
    import importlib

    from dailydeal.cli import COMMANDS

    for module in sorted(set(COMMANDS.values())):
        importlib.import_module(f"dailydeal.cli.{module}")
    assert set(main.commands) == set(COMMANDS)
    for name, command in main.commands.items():
        assert command.callback is not None
        assert command.callback.__module__ == f"dailydeal.cli.{COMMANDS[name]}", name
