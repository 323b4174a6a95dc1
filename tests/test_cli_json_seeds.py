"""Every --json answer of the command line writes seeds as decimal strings, as the API does
(issue 9 item 8): a JavaScript client reading 12135775398892334671 as a number gets
12135775398892335000, another deal."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dailydeal.cli import main

BIG = "12135775398892334671"


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "gaps", "--seed", BIG, "--json"],
        ["verify", "gaps", "--seed", BIG, "--json", "R"],
        ["solve", "accordion", "--seed", BIG, "--json", "--max-nodes", "200"],
        ["rate", "accordion", "--seed", BIG, "--json"],
    ],
)
def test_seeds_are_decimal_strings(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    data = json.loads(result.output)
    assert data["seed"] == BIG and data["game"] == args[1]
    assert f'"seed": "{BIG}"' in result.output
