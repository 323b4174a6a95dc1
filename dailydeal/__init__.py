"""dailydeal: seeded daily solitaire challenges (Accordion, Pyramid, Gaps).

Data flows one way: seed -> deal -> solve -> rate -> store -> serve.
"""

from dailydeal import native

# First of all: a compiled module whose source changed must not be imported (native.py)
native.use_fresh_modules()

from dailydeal.errors import IllegalMoveError, InvalidMoveError  # noqa: E402
from dailydeal.games import GAMES, deal, get_game  # noqa: E402
from dailydeal.verify import Verdict, verify  # noqa: E402

__all__ = [
    "GAMES",
    "IllegalMoveError",
    "InvalidMoveError",
    "Verdict",
    "deal",
    "get_game",
    "verify",
]
__version__ = "0.1.0"
