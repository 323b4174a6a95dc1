"""dailydeal: seeded daily solitaire challenges (Accordion, Pyramid, Gaps).

Data flows one way: seed -> deal -> solve -> rate -> store -> serve.
"""

from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.games import GAMES, deal, get_game
from dailydeal.verify import Verdict, verify

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
