"""What ``GET /games/{game}`` says about each game: a short summary of docs/rules.md.

docs/rules.md is the contract; this text only helps a client developer find their way.
"""

from __future__ import annotations

from dailydeal.games import SPECS

# The text lives in each game's spec (dailydeal/games/spec.py).
RULES: dict[str, dict[str, str]] = {game: spec.info() for game, spec in SPECS.items()}
