"""The two kinds of bad move, as in python-chess: both are ValueError."""


class InvalidMoveError(ValueError):
    """Text that is not a move (or a card) in the game's notation: a syntax error."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the current position."""
