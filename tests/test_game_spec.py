"""One game, one place: each game's spec (``dailydeal.games.spec``) is what the rest reads,
and the layers above keep their part of a game in a table by its name (the solvers'
``SOLVERS``, the rating's ``MODELS``), each holding every game of the registry.

No Python module outside ``dailydeal/games/`` compares a game's name: the check walks the
syntax tree of every module (not a regex), so ``game == "pyramid"``, ``"gaps" != name``,
``name in ("accordion", "gaps")`` and a ``case "pyramid":`` are all caught, whatever the
spacing, quoting or line breaks. A table keyed by the name is a lookup, not a comparison.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from helpers.modules import modules

from dailydeal.games import DAILY, GAMES, SPECS, new_game, spec_of
from dailydeal.rating import combine
from dailydeal.rating.models import MODELS
from dailydeal.rating.players import Playout
from dailydeal.solvers import SOLVERS, solver_for

ROOT = Path(__file__).resolve().parents[1]
NAMES = frozenset(GAMES)


def _names_in(node: ast.expr) -> list[str]:
    """The game names a compared operand holds: a string constant, or one in a literal
    tuple, list or set (``in``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.lower() in NAMES else []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [n for elt in node.elts for n in _names_in(elt)]
    return []


def name_comparisons(source: str) -> list[tuple[int, str]]:
    """(line, name) of every comparison with a game's name in a module's source."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                found.extend((node.lineno, n) for n in _names_in(operand))
        elif isinstance(node, ast.MatchValue):
            found.extend((node.lineno, n) for n in _names_in(node.value))
    return found


def test_the_check_sees_every_spelling() -> None:
    caught = [
        'if game == "pyramid": pass',
        "if 'gaps' != row['game']: pass",
        'x = name in ("accordion", "gaps")',
        'x = g.name not in {"Pyramid"}',
        'x = (\n    game\n    ==\n    "accordion"\n)',
        'match g:\n    case "gaps":\n        pass',
        'x = a < b == "pyramid"',
    ]
    for source in caught:
        assert name_comparisons(source), source
    passed = ['x = {"pyramid": 1}["pyramid"]', 'f("gaps")', 'if game == spec.name: pass',
              'x = "accordion-1"', 'SOLVERS = {"accordion": a.solve_game, "gaps": g.solve_game}']
    for source in passed:
        assert not name_comparisons(source), source


def test_no_module_outside_games_compares_a_game_name() -> None:
    found = []
    for path in sorted((ROOT / "dailydeal").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("dailydeal/games/"):
            continue
        for line, name in name_comparisons(path.read_text(encoding="utf-8")):
            found.append(f"{rel}:{line}: compares the name {name!r}")
    assert not found, "read the game's spec (dailydeal.games.spec_of):\n" + "\n".join(found)


@pytest.mark.parametrize("game", list(SPECS))
def test_each_spec_names_what_exists(game: str) -> None:
    spec = spec_of(game)
    assert spec.name == game and spec.default is next(iter(GAMES[game].values()))
    assert all(cls.name == game for cls in spec.variants)
    position = new_game(game, 7)
    assert spec_of(position) is spec
    assert solver_for(position) is SOLVERS[game]
    playout = MODELS[game].player(position, random.Random(1), "careful", record=True)
    assert isinstance(playout, Playout) and playout.moves
    value = combine(game, 0.5, 10.0, 2.0)
    assert 0 <= value <= 100
    assert set(spec.info()) == {"goal", "play", "notation", "score"}
    assert spec.browser()["shows_par"] is spec.shows_par


@pytest.mark.parametrize("table", [SOLVERS, MODELS], ids=["solvers", "rating models"])
def test_each_table_by_game_holds_every_game_of_the_registry(table: dict[str, object]) -> None:
    assert set(table) == set(GAMES)


def test_daily_games_are_the_specs_daily_ones() -> None:
    from dailydeal.config import DAILY_GAMES

    assert DAILY == tuple(g for g, s in SPECS.items() if s.daily)
    assert [g for g, _ in DAILY_GAMES] == list(DAILY)


def test_unknown_game_has_no_spec() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        spec_of("solitaire")
    with pytest.raises(ValueError, match="no rating formula"):
        combine("solitaire", 0.5, 1.0)


STATIC = ROOT / "dailydeal" / "web"
# the modules of the element: everything it loads but the rules (rules.js, verdict.js)
BOARD = [p for p in modules() if p.name not in ("rules.js", "verdict.js")]


def test_the_element_reads_the_specs() -> None:
    """specs.js's SPECS table is each spec's ``browser()``, and neither the element's
    modules nor a template compares a game's name (a source scan: there is no JS parser
    here, so the quoting and spacing of a comparison are allowed for)."""
    script = (STATIC / "static" / "specs.js").read_text(encoding="utf-8")
    found = re.search(r"^export const SPECS = (.*);$", script, re.M)
    assert found, "specs.js has no one-line SPECS table"
    assert json.loads(found.group(1)) == {g: s.browser() for g, s in SPECS.items()}
    assert len(BOARD) >= 10, BOARD
    names = "|".join(GAMES)
    compare = re.compile(rf"""[!=]==?\s*["'`]({names})["'`]|["'`]({names})["'`]\s*[!=]==?""")
    for path in [*BOARD, *sorted((STATIC / "templates").glob("*"))]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not compare.search(line), f"{path.name}:{n} compares a game's name: {line}"


# What reading or writing move text, or knowing a rule, looks like in the element's source:
# a card's pattern (cards.js alone names cards), the notation's marks, legal moves read as
# text, a rank compared (a king alone, a 2 to column 1).
MOVE_TEXT = {
    "a card pattern": re.compile(r"\[2-9TJQKA\]\[SHDC\]"),
    "a move's @": re.compile(r"""[`"']@|@\$\{"""),
    "a move's separator": re.compile(r"""\$\{[^}]*\}[>+]\$\{|separator"""),
    "legal moves read as text": re.compile(
        r"legal_moves[^;]*\.(?:startsWith|endsWith|slice|includes|match|split)\("
    ),
    "a rank compared": re.compile(r"""\[0\]\s*[!=]==?\s*["'][2-9TJQKA]["']"""),
}


def test_the_element_never_reads_or_writes_move_text() -> None:
    """The board asks rules.js (moveAt, targets, placesOf, moveParts) instead."""
    for path in BOARD:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for what, pattern in MOVE_TEXT.items():
                if path.name == "cards.js" and what == "a card pattern":
                    continue
                if path.name == "i18n.js" and what == "a move's @":
                    continue  # a catalog's own member, "@locale", not a move
                assert not pattern.search(line), f"{path.name}:{n}: {what}: {line.strip()}"
