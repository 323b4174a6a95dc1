"""Gaps rules (docs/rules.md): moves into gaps, 2s to column 1, dead gaps, redeals, score."""

from __future__ import annotations

import pytest

from dailydeal import cards as C
from dailydeal.errors import IllegalMoveError, InvalidMoveError
from dailydeal.games import new_game
from dailydeal.games.gaps import EMPTY, REDEAL, Gaps, Place, Redeal
from dailydeal.shuffle import redeal_shuffle, shuffled_deck
from dailydeal.verify import verify

CANONICAL = " ".join(C.CARD_NAMES)  # row r = A..K of suit r: four gaps in column 1


def grid(game: Gaps) -> list[str]:
    return [" ".join(c or ".." for c in row) for row in game.position_json()["rows"]]


def game_of(cards: str, variant: str | None = None) -> Gaps:
    game = new_game("gaps", cards=cards, variant=variant)
    assert isinstance(game, Gaps)
    return game


def build(rows: list[list[str]]) -> str:
    """An explicit deal: each row starts with the given cards; the rest fill in canonical
    order."""
    used = [c for row in rows for c in row]
    assert len(set(used)) == len(used)
    rest = iter([n for n in C.CARD_NAMES if n not in used])
    out = []
    for row in rows:
        out += row + [next(rest) for _ in range(13 - len(row))]
    return " ".join(out)


def test_deal_takes_the_aces_out() -> None:
    game = game_of(CANONICAL)
    assert grid(game)[0] == ".. 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    assert game.column_one_gaps() == [1, 2, 3, 4]
    seeded = new_game("gaps", 7)
    assert isinstance(seeded, Gaps)
    deck = shuffled_deck(7)
    assert [c for c in seeded.cells] == [EMPTY if C.value(c) == 1 else c for c in deck]


def test_a_card_moves_right_of_its_predecessor_and_leaves_a_gap() -> None:
    game = game_of(CANONICAL)
    game.push(game.parse_move("2S@1"))
    assert grid(game)[0] == "2S .. 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    assert [str(m) for m in game.legal_moves() if not str(m).startswith("2")] == ["3S"]
    game.push(game.parse_move("3s"))
    assert grid(game)[0] == "2S 3S .. 4S 5S 6S 7S 8S 9S TS JS QS KS"
    assert game.illegal_reason(game.parse_move("5S")) == "the place right of 4S holds 5S, not a gap"
    assert game.illegal_reason(game.parse_move("3H")) == "the place right of 2H holds 3H, not a gap"


def test_a_complete_canonical_game_is_won() -> None:
    moves = []
    for row, s in enumerate("SHDC", start=1):
        moves += [f"2{s}@{row}"] + [f"{r}{s}" for r in "3456789TJQK"]
    verdict = verify("gaps", None, moves, cards=CANONICAL)
    assert verdict.valid, verdict.error
    assert (verdict.won, verdict.state, verdict.score) == (True, "won", 48)
    game = verdict.game
    assert isinstance(game, Gaps)
    assert game.legal_moves() == [] and game.illegal_reason(REDEAL) == "the game is won"
    assert all(g["column"] == 13 and g["accepts"] is None for g in game.position_json()["gaps"])


def test_two_without_a_row_needs_exactly_one_column_1_gap() -> None:
    game = game_of(CANONICAL)
    with pytest.raises(IllegalMoveError, match="rows 1, 2, 3, 4 have a gap in column 1"):
        game.parse_move("2S")
    for move in ["2S@1", "2H@2", "2D@3"]:
        game.push(game.parse_move(move))
    assert game.parse_move("2C") == Place(C.parse("2C"), 4)
    assert str(game.parse_move("2c")) == "2C@4"
    game.push(game.parse_move("2C"))
    with pytest.raises(IllegalMoveError, match="no row has a gap in column 1"):
        game.parse_move("2S")
    # Through the verifier: the bad "2S" is reported at its index with the reason.
    verdict = verify("gaps", None, "2S@1 2H", cards=CANONICAL)
    assert verdict.error is not None and verdict.error.index == 1
    assert "rows 2, 3, 4 have a gap in column 1" in verdict.error.reason


def test_any_2_may_go_to_any_column_1_gap() -> None:
    game = game_of(CANONICAL)
    twos = {str(m) for m in game.legal_moves()}
    assert twos == {f"2{s}@{r}" for s in "SHDC" for r in "1234"}
    game.push(game.parse_move("2S@3"))
    assert game.illegal_reason(game.parse_move("2H@3")) == (
        "row 3 has no gap in column 1 (2S is there)"
    )


def test_dead_gaps_right_of_a_king_or_of_another_gap() -> None:
    cards = build([["5S", "AS", "AH", "KD", "AD"], ["3C", "KC", "AC"], [], []])
    game = game_of(cards)
    gaps = {(g["row"], g["column"]): g["accepts"] for g in game.position_json()["gaps"]}
    assert gaps == {(1, 2): "6S", (1, 3): None, (1, 5): None, (2, 3): None}
    assert [str(m) for m in game.legal_moves()] == ["6S"]
    game.push(game.parse_move("6S"))
    # Row 1 is now 5S 6S .. KD .. 2S 3S 4S .. 7S: the gap right of 6S takes 7S and the gap
    # 6S left behind (right of 4S) takes 5S; the gaps right of KD and KC stay dead.
    assert grid(game)[0].startswith("5S 6S .. KD .. 2S 3S 4S .. 7S")
    assert {str(m) for m in game.legal_moves()} == {"7S", "5S"}


def blocked_cards() -> str:
    """Every gap right of a king from the start; rows 1 and 2 begin 2H 3H 4H and 2C 3C."""
    return build(
        [
            ["2H", "3H", "4H", "KS", "AS"],
            ["2C", "3C", "KH", "AH"],
            ["5D", "KD", "AD"],
            ["6S", "KC", "AC"],
        ]
    )


def expected_after_redeal(before: list[int], seed: int, k: int) -> list[int]:
    """The redeal of docs/rules.md written out (independently of the rules core): keep,
    collect, sort, shuffle, deal back."""
    kept_lengths = []
    for r in range(4):
        row = before[13 * r : 13 * r + 13]
        n = 0
        if row[0] != EMPTY and C.value(row[0]) == 2:
            while n < 12 and row[n] == row[0] + n:
                n += 1
        kept_lengths.append(n)
    collected = sorted(
        c
        for r in range(4)
        for col, c in enumerate(before[13 * r : 13 * r + 13])
        if c != EMPTY and col >= kept_lengths[r]
    )
    stream = iter(redeal_shuffle(collected, seed, k))
    after: list[int] = []
    for r in range(4):
        n = kept_lengths[r]
        after += before[13 * r : 13 * r + n] + [EMPTY] + [next(stream) for _ in range(12 - n)]
    assert next(stream, None) is None
    return after


def test_redeal_keeps_sequences_and_leaves_one_gap_right_of_each() -> None:
    game = game_of(blocked_cards())
    assert [str(m) for m in game.legal_moves()] == ["R"]
    assert game.kept_lengths() == [3, 2, 0, 0] and game.score() == 5
    before = list(game.cells)
    game.push(game.parse_move("R"))
    # Explicit cards use seed 0's stream.
    assert game.cells == expected_after_redeal(before, 0, 1)
    rows = grid(game)
    assert rows[0].startswith("2H 3H 4H .. ") and rows[1].startswith("2C 3C .. ")
    assert rows[2].startswith(".. ") and rows[3].startswith(".. ")
    assert sum(c == EMPTY for c in game.cells) == 4
    assert sorted(c for c in game.cells if c != EMPTY) == sorted(
        c for c in before if c != EMPTY
    )
    game.pop()
    assert game.cells == before and game.redeals_used == 0


def test_redeal_of_the_document_example_seed_212() -> None:
    game = new_game("gaps", 212)
    assert isinstance(game, Gaps)
    game.push(game.parse_move("2S@2"))
    assert game.legal_moves() == [REDEAL]
    game.push(REDEAL)
    assert grid(game) == [
        ".. 4S 4H KH QC 6S 3H 5H JH 7D TD TS QH",
        "2S .. 6C 9C 9S KS 9D 3D 2D KC JS 8D 4D",
        ".. KD 3C 5C 5S TC 5D 7C 8S JC JD 9H 2H",
        ".. QS 8H 7H 3S 4C 7S 8C 6H 6D 2C TH QD",
    ]
    # The same cards as an explicit deal redeal with seed 0's stream instead.
    explicit = game_of(" ".join(C.names(shuffled_deck(212))))
    explicit.push(explicit.parse_move("2S@2"))
    before = list(explicit.cells)
    explicit.push(REDEAL)
    assert explicit.cells == expected_after_redeal(before, 0, 1) != game.cells


def test_redeal_shuffle_depends_on_the_collected_set_not_on_positions() -> None:
    # Two blocked positions with the same kept sequences and the same collected cards
    # in different places redeal to the same layout.
    a = game_of(blocked_cards())
    rows = [r.split() for r in grid(a)]
    # Swap two non-kept cards of rows 3 and 4 (not kings next to gaps): still blocked.
    r3, r4 = rows[2], rows[3]
    r3[5], r4[5] = r4[5], r3[5]
    deck = [c.replace("..", "") for row in rows for c in row]
    aces = iter(["AS", "AH", "AD", "AC"])
    b_cards = " ".join(c if c else next(aces) for c in deck)
    b = game_of(b_cards)
    assert b.legal_moves() == [REDEAL] and a.cells != b.cells
    a.push(REDEAL)
    b.push(REDEAL)
    assert a.cells == b.cells


def play_until_blocked(game: Gaps) -> None:
    """Play the first legal move that reaches a new position, until none does."""
    seen = {game.key()}
    while True:
        for move in game.legal_moves():
            if isinstance(move, Redeal):
                return
            game.push(move)
            if game.key() not in seen:
                seen.add(game.key())
                break
            game.pop()
        else:
            return


@pytest.mark.parametrize(
    "variant,redeals", [("redeals=0", 0), ("redeals=1", 1), (None, 2), ("redeals=3", 3)]
)
def test_number_of_redeals(variant: str | None, redeals: int) -> None:
    game = game_of(blocked_cards(), variant)
    for used in range(redeals + 1):
        play_until_blocked(game)
        assert not game.place_moves() and not game.is_complete()
        assert game.redeals_left() == redeals - used
        if used < redeals:
            assert game.legal_moves() == [REDEAL] and game.status() == "in progress"
            game.push(REDEAL)
    assert game.redeals_used == redeals
    assert game.legal_moves() == [] and game.status() == "lost"
    assert game.illegal_reason(REDEAL) == f"no redeal left (at most {redeals})"


def test_redeal_only_when_blocked() -> None:
    game = game_of(CANONICAL)
    assert game.illegal_reason(REDEAL) == "a redeal is allowed only when blocked, and a move exists"
    with pytest.raises(IllegalMoveError):
        game.push(REDEAL)


def test_lost_when_blocked_without_redeals() -> None:
    game = game_of(blocked_cards(), "redeals=0")
    assert game.status() == "lost" and game.legal_moves() == []
    verdict = verify("gaps", None, "R", variant="redeals=0", cards=blocked_cards())
    assert verdict.error is not None and verdict.error.reason == "no redeal left (at most 0)"
    assert verdict.state == "lost" and verdict.score == 5


def test_notation() -> None:
    game = game_of(CANONICAL)
    assert game.parse_move("R") == REDEAL == game.parse_move("r")
    assert game.parse_move("2s@1") == Place(C.parse("2S"), 1)
    assert game.parse_move("10♠") == Place(C.parse("TS"))
    for bad in ["AS", "2S@5", "2S@0", "2S@", "3S@1", "4D>4S", "AS+QS", "11X", "2S@1@2", "d"]:
        with pytest.raises(InvalidMoveError):
            game.parse_move(bad)


def test_illegal_reasons_for_odd_moves() -> None:
    game = game_of(CANONICAL)
    assert game.illegal_reason(Place(C.parse("AS"))) == "aces are out of play in Gaps"
    assert game.illegal_reason(Place(C.parse("2S"))) == "2S needs a row 1..4 (2S@R)"
    assert game.illegal_reason(Place(C.parse("2S"), 9)) == "2S needs a row 1..4 (2S@R)"
    assert "only a 2 is sent to a row" in (game.illegal_reason(Place(C.parse("5S"), 1)) or "")
    row = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 5H".split()
    other = game_of(build([row, [], [], []]))
    assert other.illegal_reason(Place(C.parse("6H"))) == (
        "5H ends its row: there is no place right of it"
    )


def test_score_counts_kept_cards() -> None:
    game = game_of(CANONICAL)
    assert game.score() == 0
    game.push(game.parse_move("2S@1"))
    assert game.score() == 1
    game.push(game.parse_move("3S"))
    assert game.score() == 2 and game.kept_lengths() == [2, 0, 0, 0]
    game.push(game.parse_move("2H@2"))
    assert game.kept_lengths() == [2, 1, 0, 0] and game.score() == 3
    game.push(game.parse_move("4S"))
    assert game.kept_lengths() == [3, 1, 0, 0] and game.score() == 4
    game.push(game.parse_move("2S@3"))  # moving the 2 away breaks the row's sequence
    assert game.kept_lengths() == [0, 1, 1, 0] and game.score() == 2


def test_any_number_of_redeals_is_a_variant() -> None:
    assert new_game("gaps", 1, "redeals=2").variant == "standard"
    assert new_game("gaps", 1, "addiction").variant == "redeals=3"
    game = game_of(blocked_cards(), "redeals=5")
    assert game.variant == "redeals=5" and game.redeals_left() == 5
    for bad in ("redeals=10", "redeals=-1", "redeals=two"):
        with pytest.raises(ValueError, match="unknown variant"):
            new_game("gaps", 1, bad)


def test_play_texts_reads_and_refuses_as_parse_move_and_play(
    solved: dict[str, tuple[int, list[str]]],
) -> None:
    """Gaps' replay reads a placement written as the notation writes it in one lookup:
    on lines with every kind of text and refusal (other spellings, a 2 without its row, a
    redeal, a move out of turn, nonsense) it plays and refuses exactly as the general way
    (``Game.play_texts``: ``parse_move`` then ``play`` each text), for the same reasons."""
    from dailydeal.games.base import Game

    seed, line = solved["gaps"]
    extra = ["5h", " 5H", "2S", "2S@1", "2s@2", "R", "r", "KS", "AS", "3S@1", "zz", ""]
    lines = [line, line[: len(line) // 2]]
    lines += [line[:k] + [t] + line[k:] for k in (0, 3, len(line) // 2) for t in extra]
    lines += [line[:k] + line[k + 1:] for k in range(0, len(line), 5)]  # one move left out
    refusals = set()
    for texts in lines:
        fast, general = new_game("gaps", seed), new_game("gaps", seed)
        answer = fast.play_texts(texts)
        assert answer == Game.play_texts(general, texts), texts
        assert fast.key() == general.key() and fast.move_stack == general.move_stack
        assert [str(m) for m in fast.move_stack] == [str(m) for m in general.move_stack]
        while fast.move_stack:  # what was pushed is taken back the same way
            assert fast.pop() == general.pop() and fast.key() == general.key()
        refusals.add(answer[1])
    assert None in refusals and len(refusals) > 5  # wins, and many kinds of refusal
