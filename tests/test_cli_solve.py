"""`dailydeal solve`: the verdict, and whether a won solution is proved shortest."""

from __future__ import annotations

import json

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
