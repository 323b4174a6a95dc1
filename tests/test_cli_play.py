"""`dailydeal deal` and `dailydeal verify` through click's CliRunner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dailydeal import cards as C
from dailydeal.cli import main
from dailydeal.games import deal
from dailydeal.verify import verify

runner = CliRunner()

EXAMPLE = " ".join(["4S", "7H", "QC", "4D", "KD"] + [
    n for n in C.CARD_NAMES if n not in ("4S", "7H", "QC", "4D", "KD")
])


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("game", ["accordion", "pyramid", "gaps"])
def test_deal_json_is_the_deal_shape(game: str) -> None:
    code, out = run("deal", game, "--seed", "42", "--json")
    assert code == 0
    assert json.loads(out) == {**deal(game, 42), "seed": "42"}  # seeds: decimal strings


def test_deal_json_with_variant_and_cards() -> None:
    code, out = run("deal", "GAPS", "--cards", " ".join(C.CARD_NAMES), "--variant",
                    "redeals=3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "redeals=3" and data["seed"] is None
    assert data["deal"]["rows"][0] == [None, *C.CARD_NAMES[1:13]]
    code, out = run("deal", "gaps", "--seed", "0", "--variant", "addiction", "--json")
    assert code == 0 and json.loads(out)["variant"] == "redeals=3"


def test_deal_picture_has_suit_symbols_and_rows() -> None:
    code, out = run("deal", "pyramid", "--seed", "42")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "pyramid (relaxed), seed 42"
    assert lines[1].strip() == "7♠" and lines[7].split()[:2] == ["2♠", "8♦"]
    assert "stock: 24 cards" in out
    code, out = run("deal", "gaps", "--seed", "42")
    assert code == 0 and out.splitlines()[1].split()[:4] == ["7♠", "3♦", "K♠", ".."]
    code, out = run("deal", "accordion", "--seed", "42")
    assert code == 0 and "dealing order" in out
    assert out.splitlines()[-4].split()[:3] == ["7♠", "3♦", "K♠"]


@pytest.mark.parametrize(
    "args,words",
    [
        (["deal", "gaps"], "give exactly one of --seed N and --cards"),
        (["deal", "gaps", "--seed", "1", "--cards", "AS"], "give exactly one of --seed"),
        (["deal", "gaps", "--seed", "-1"], "--seed"),
        (["deal", "gaps", "--seed", str(2**64)], "--seed"),
        (["deal", "gaps", "--seed", "abc"], "--seed"),
        (["deal", "chess", "--seed", "1"], "chess"),
        (["deal", "gaps", "--seed", "1", "--variant", "nope"], "unknown variant 'nope' of gaps"),
        (["deal", "gaps", "--cards", " ".join(C.CARD_NAMES[:51])], "got 51 cards; missing: KC"),
        (["deal", "gaps", "--cards", " ".join([*C.CARD_NAMES[:51], "AS"])], "twice: AS"),
        (["deal", "gaps", "--cards", "11X " * 52], "unknown card '11X'"),
    ],
)
def test_deal_errors_are_clear_with_exit_code_2(args: list[str], words: str) -> None:
    code, out = run(*args)
    assert code == 2
    assert words in out
    assert "Traceback" not in out


def test_verify_text_output_for_a_valid_list() -> None:
    code, out = run("verify", "accordion", "--cards", EXAMPLE, "4D>4S", "KD>4D")
    assert code == 0
    expected = verify("accordion", None, "4D>4S KD>4D", cards=EXAMPLE)
    assert f"valid; state: {expected.state}; score: {expected.score}; moves played: 2" in out
    assert out.splitlines()[0] == "accordion (standard), explicit cards"


def test_verify_json_for_the_source_example() -> None:
    code, out = run("verify", "accordion", "--cards", EXAMPLE, "--json", "4D>4S KD>4D")
    assert code == 0
    data = json.loads(out)
    verdict = {"valid", "won", "state", "score", "moves", "error"}
    assert set(data) == {"game", "variant", "seed", *verdict}
    assert data["valid"] is True and data["moves"] == 2 and data["error"] is None


def test_verify_bad_move_exits_1_with_index_and_reason() -> None:
    code, out = run("verify", "accordion", "--cards", EXAMPLE, "--json", "KD>4D", "4D>4S")
    assert code == 1
    assert json.loads(out)["error"] == {
        "index": 1, "move": "4D>4S", "reason": "4D is not on top of a pile",
    }  # fmt: skip
    code, out = run("verify", "accordion", "--cards", EXAMPLE, "KD>4D", "4D>4S")
    assert code == 1
    assert "move 1 ('4D>4S') is bad: 4D is not on top of a pile" in out
    assert "invalid" in out


def test_verify_reads_stdin() -> None:
    code, out = run("verify", "pyramid", "--seed", "1", "--json", "-", stdin='["d", "d"]')
    assert code == 0 and json.loads(out)["moves"] == 2
    code, out = run("verify", "pyramid", "--seed", "1", "--json", "-", stdin="d,d\nd\n")
    assert code == 0 and json.loads(out)["moves"] == 3
    code, out = run("verify", "pyramid", "--seed", "1", "--json", "-", stdin="")
    assert code == 0 and json.loads(out)["moves"] == 0


def test_verify_a_won_gaps_game_with_cards() -> None:
    moves = []
    for row, s in enumerate("SHDC", start=1):
        moves += [f"2{s}@{row}"] + [f"{r}{s}" for r in "3456789TJQK"]
    code, out = run("verify", "gaps", "--cards", " ".join(C.CARD_NAMES), "--json", *moves)
    assert code == 0
    assert json.loads(out) == {
        "game": "gaps", "variant": "standard", "seed": None,
        "valid": True, "won": True, "state": "won", "score": 48, "moves": 48, "error": None,
    }  # fmt: skip


@pytest.mark.parametrize(
    "args,stdin,words",
    [
        (["verify", "pyramid", "--seed", "1", "-"], '["d"', "the moves look like JSON"),
        (["verify", "pyramid", "--seed", "1", "-"], "[1, 2]", "move 0 is int, not a string"),
        (["verify", "pyramid", "--seed", "1", *(["d"] * 10_000)], None, "too many moves"),
        (["verify", "pyramid", "--cards", "AS " * 52, "d"], None, "twice: AS"),
        (["verify", "pyramid", "--seed", "1", "--variant", "passes=0", "d"], None,
         "unknown variant"),
        (["verify", "pyramid", "d"], None, "give exactly one of --seed N and --cards"),
    ],
)
def test_verify_malformed_input_exits_2(args: list[str], stdin: str | None, words: str) -> None:
    code, out = run(*args, stdin=stdin)
    assert code == 2
    assert words in out and "Traceback" not in out


def test_verify_unicode_junk_is_a_bad_move_not_a_crash() -> None:
    code, out = run("verify", "gaps", "--seed", "3", "--json", "💩", "\u202e")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["index"] == 0 and error["move"] == "💩"
