"""What ``GET /games/{game}`` says about each game: a short summary of docs/rules.md.

docs/rules.md is the contract; this text only helps a client developer find their way.
"""

from __future__ import annotations

RULES: dict[str, dict[str, str]] = {
    "accordion": {
        "goal": "Squeeze the 52 cards into a single pile.",
        "play": (
            "Deal the stock one card at a time to the right end of a row. A pile moves onto "
            "the pile immediately to its left or exactly three places to its left when their "
            "top cards share a suit or a rank. Moves are optional."
        ),
        "notation": (
            "X>Y moves the pile topped by X onto the pile topped by Y (4D>4S); d deals. "
            "Deals may be left out: the verifier deals just enough, and the rest at the end."
        ),
        "score": "Piles left; 1 is a win.",
    },
    "pyramid": {
        "goal": "Clear the 28 cards of the pyramid.",
        "play": (
            "Remove two accessible cards whose values sum to 13 (J=11, Q=12), or a king "
            "alone. Draw from the stock to the waste; recycle the waste when the stock is "
            "empty (unlimited in the default variant)."
        ),
        "notation": "X+Y pairs two cards (5H+8C); KS removes a king; d draws; r recycles.",
        "score": "Pyramid cards left; 0 is a win.",
    },
    "gaps": {
        "goal": "Order each of the 4 rows 2..K of one suit from column 1.",
        "play": (
            "The aces are removed, leaving 4 gaps. A card moves into the gap right of its "
            "predecessor (same suit, one rank lower); a 2 moves into a gap in column 1. "
            "When blocked, redeal the cards not in place (2 redeals in the default variant)."
        ),
        "notation": "X moves card X (8C); 2S@R moves a 2 to column 1 of row R; R redeals.",
        "score": "Cards in kept sequences (0..48); 48 is a win.",
    },
}
