"""The portable shuffle against the test vectors of docs/deals.md (golden deals).

The vectors are written out here by hand and also read back from docs/deals.md, so the
document, the tests and the code cannot drift apart.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dailydeal import cards as C
from dailydeal.games import GAMES, deal, new_game
from dailydeal.shuffle import (
    MAX_SEED,
    SplitMix64,
    check_seed,
    fisher_yates,
    redeal_shuffle,
    shuffled_deck,
    substream,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "deals.md"

SPLITMIX_VECTORS = {
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F],
    1: [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E],
    42: [0xBDD732262FEB6E95, 0x28EFE333B266F103, 0x47526757130F9F52],
    # The values published with Vigna's reference C code: an outside check of the constants.
    1234567: [6457827717110365317, 3203168211198807973, 9817491932198370423],
    2**64 - 1: [0xE4D971771B652C20, 0xE99FF867DBF682C9, 0x382FF84CB27281E9],
}

REJECTED_IN_DECK = 3558559446808474027

GOLDEN_DECKS = {
    0: "8C JD 9S 2C 2H QH 6C TS 3H AS JS 7S 9D 8S QC KD 5D 2S 3D 5S AD 6S 4C TH 5H 8D 8H AH "
    "QD TC QS JH 3C 4H 2D 9H 3S KH AC 7C 9C 7H JC 6D KC 4S 7D 5C 6H 4D KS TD",
    1: "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S 2H JD 5D 7D 4D 2S AH 6C KS KD TD TC JC TH 8C "
    "QS 4C 6S 7S AC 5S AD KC 6D QC QD QH 9H 3H 3C AS 4S 2D 8S TS 3D 2C 9D 7C",
    42: "7S 3D KS AC 2C AS AD KH TH 5S 8C JD 2D 4C 6D 5H 2H 5C 6H AH 7H 2S 8D 8S 4H 7D KC TC "
    "4D 3H TD JC 4S 6C 7C 3C 8H QH 9C KD 5D 6S QC 9H JH QS 3S 9D QD 9S JS TS",
    2**64 - 1: "JS KC 7C 4S AH JD 5H 2D AD 7H 6H 6C 4H AC 4C 7D 3H 2H 9D QD 8H 3C 5C 9C AS 8C "
    "QH TH 7S QC 9S 4D JH KD KS 6D 9H 8D 8S TD 6S KH 2C 3D QS JC 3S 5D TC 2S TS 5S",
    # The first draw (n = 52) is rejected: the first output is 2^64-1.
    REJECTED_IN_DECK: "QD 2C JC KS 4S 5D TD 2D 7S 9D 2S 6C 2H 8H 5S 6D KD 5C QS AS 7D TC AD 4D "
    "8D TH KC JH 9C AC KH 7H 8S 4H AH 8C QC JS 5H 6S TS JD 9H 3H 6H 9S QH 3C 4C 3D 3S 7C",
    # The draws of n = 32, 16 and 4 are 2^64-1: accepted (2^64 mod n = 0).
    15351936018568675335: "4D 8S 4C TH QH 7S 8C 2S 3S AC 7H QC 6S 7C 2D KH 6C QD AH TD JD AS "
    "4H JC 5S 5H 5D 8D TS KC 9D 6D 3D TC 3C AD 3H KD QS 8H 2C 9S 9C JS 4S JH 7D KS 9H 6H 5C 2H",
    17407939646493015735: "QC 5D TS 9H TH 2C 9S 3C 7H 3D 5C 6D 2S 9D AH TD 7S 6C JC 6H 8S 6S "
    "JH KH 5H 5S 3H 7D AC 2D 8C KS JS 9C 4H AD TC 8D KC KD 4C QD AS 8H 4S 7C 2H 3S 4D JD QH QS",
    9726570330581495227: "3D 6D JH 6S 7D 5H 9H 6H 9C KH 2S 4H 8H 8D 6C 7S 5S 4S AC 9S TH JC QH "
    "2C 8S JD 8C 2H KS AH KC 5C QD TC 7C QC TS 5D 2D TD KD 9D 7H AS 3H QS 3C AD 4C JS 3S 4D",
}
POWER_OF_TWO_SEEDS = {15351936018568675335: 32, 17407939646493015735: 16, 9726570330581495227: 4}
# substream(REJECTED_IN_REDEAL, 1) starts with the output 2^64-1: the first draw (n = 48) of
# the redeal of the 48 non-aces is rejected.
REJECTED_IN_REDEAL = 16201630135398685864
REDEAL_WITH_REJECTION = (
    "5H KH KD JC QS 6C JH 8H 7S 9H QH TD 3C 5S 2D 2H 9C 6D QC 7H 8S 6S KC 8C JS 3H 4D 8D 9S TS "
    "KS JD 2S TH TC 3D 9D 4S 5D 5C 7C QD 4C 7D 6H 2C 4H 3S"
)
UINT64_MAX = 2**64 - 1


def test_splitmix64_vectors() -> None:
    for state, expected in SPLITMIX_VECTORS.items():
        rng = SplitMix64(state)
        assert [rng.next() for _ in expected] == expected, state


def test_splitmix64_wraps_around_64_bits() -> None:
    # The state after one step from 2^64-1 is (2^64-1 + gamma) mod 2^64.
    rng = SplitMix64(2**64 - 1)
    rng.next()
    assert rng.state == (2**64 - 1 + 0x9E3779B97F4A7C15) % 2**64
    assert all(0 <= rng.next() < 2**64 for _ in range(100))


def test_below_rejects_draws_at_or_above_the_limit() -> None:
    n = 3 * 2**62  # limit = 3 * 2^62: the first output of state 0 (0xe220...) is rejected
    assert SplitMix64(0).below(n) == 0x6E789E6AA1B965F4 % n == 7960286522194355700
    assert SplitMix64(0).below(1) == 0


def test_substream_states() -> None:
    assert substream(42, 0).state == 0x2A
    assert substream(42, 1).state == 0xD1B54A32D192ED29
    assert substream(42, 2).state == 0xA36A9465A325DA2C
    assert substream(42, 3).state == 0x751FDE9874B8C723


def test_fisher_yates_draws_of_seed_0() -> None:
    rng = substream(0, 0)
    draws = [rng.below(i + 1) for i in range(51, 0, -1)]
    expected = (
        "35 12 29 18 43 32 3 35 31 29 19 31 3 3 25 2 21 27 16 19 23 11 18 25 13 20 16 17 22 18 "
        "5 20 4 16 1 11 3 12 7 7 6 10 0 3 0 5 1 0 1 1 1"
    )
    assert draws == [int(x) for x in expected.split()]


def _reference_deck(seed: int) -> list[int]:
    """The deck rebuilt from the draws with swaps written out by hand (top-down F-Y)."""
    rng = substream(seed, 0)
    deck = list(range(52))
    i = 51
    while i >= 1:
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck


@pytest.mark.parametrize("seed", list(GOLDEN_DECKS))
def test_golden_decks(seed: int) -> None:
    assert C.names(shuffled_deck(seed)) == GOLDEN_DECKS[seed].split()
    assert shuffled_deck(seed) == _reference_deck(seed)


def test_golden_decks_match_the_document() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = dict(re.findall(r"^seed (\d+): ((?:[2-9TJQKA][SHDC] ?){52})$", text, re.M))
    assert {int(k): v.strip() for k, v in found.items()} == GOLDEN_DECKS


def test_document_states_the_constants() -> None:
    text = DOC.read_text(encoding="utf-8")
    for constant in ("0x9E3779B97F4A7C15", "0xBF58476D1CE4E5B9", "0x94D049BB133111EB",
                     "0xD1B54A32D192ED03"):
        assert constant in text


def _layout(game: str, deck: list[str]) -> dict[str, object]:
    """Each game's deal JSON built from a deck by the layout table of docs/deals.md."""
    if game == "accordion":
        return {"stock": deck}
    if game == "pyramid":
        rows, start = [], 0
        for r in range(1, 8):
            rows.append(deck[start : start + r])
            start += r
        return {"pyramid": rows, "stock": deck[28:]}
    cells = [None if c[0] == "A" else c for c in deck]
    return {"rows": [cells[13 * r : 13 * r + 13] for r in range(4)]}


@pytest.mark.parametrize("seed", list(GOLDEN_DECKS))
@pytest.mark.parametrize(
    "game,variant", [(g, v) for g, variants in GAMES.items() for v in variants]
)
def test_golden_deal_json_of_every_game_and_variant(game: str, variant: str, seed: int) -> None:
    got = deal(game, seed, variant)
    assert got == {
        "game": game,
        "variant": variant,
        "seed": seed,
        "deal": _layout(game, GOLDEN_DECKS[seed].split()),
    }


def test_golden_deals_of_seed_42_written_out() -> None:
    assert deal("pyramid", 42)["deal"] == {
        "pyramid": [["7S"], ["3D", "KS"], ["AC", "2C", "AS"], ["AD", "KH", "TH", "5S"],
                    ["8C", "JD", "2D", "4C", "6D"], ["5H", "2H", "5C", "6H", "AH", "7H"],
                    ["2S", "8D", "8S", "4H", "7D", "KC", "TC"]],
        "stock": ["4D", "3H", "TD", "JC", "4S", "6C", "7C", "3C", "8H", "QH", "9C", "KD",
                  "5D", "6S", "QC", "9H", "JH", "QS", "3S", "9D", "QD", "9S", "JS", "TS"],
    }  # fmt: skip
    assert deal("gaps", 42)["deal"] == {
        "rows": [["7S", "3D", "KS", None, "2C", None, None, "KH", "TH", "5S", "8C", "JD", "2D"],
                 ["4C", "6D", "5H", "2H", "5C", "6H", None, "7H", "2S", "8D", "8S", "4H", "7D"],
                 ["KC", "TC", "4D", "3H", "TD", "JC", "4S", "6C", "7C", "3C", "8H", "QH", "9C"],
                 ["KD", "5D", "6S", "QC", "9H", "JH", "QS", "3S", "9D", "QD", "9S", "JS", "TS"]]
    }  # fmt: skip


def test_redeal_shuffle_vector_of_the_document() -> None:
    collected = C.parse_list(
        "3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2D 3D 4D 5D 6D "
        "7D 8D 9D TD JD QD KD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    )
    expected = (
        "4S 4H KH QC 6S 3H 5H JH 7D TD TS QH 6C 9C 9S KS 9D 3D 2D KC JS 8D 4D KD 3C 5C 5S TC "
        "5D 7C 8S JC JD 9H 2H QS 8H 7H 3S 4C 7S 8C 6H 6D 2C TH QD"
    )
    assert C.names(redeal_shuffle(collected, 212, 1)) == expected.split()
    # A function of the set alone: the order the cards are handed in does not matter.
    assert redeal_shuffle(list(reversed(collected)), 212, 1) == redeal_shuffle(collected, 212, 1)
    assert redeal_shuffle(collected, 212, 2) != redeal_shuffle(collected, 212, 1)


@given(st.integers(0, MAX_SEED))
def test_every_deal_is_a_permutation(seed: int) -> None:
    deck = shuffled_deck(seed)
    assert sorted(deck) == list(range(52))
    for game in GAMES:
        position = new_game(game, seed)
        assert sorted(position.cards) == list(range(52))


@given(st.lists(st.integers(0, 51), unique=True, max_size=52), st.integers(0, MAX_SEED),
       st.integers(1, 3))
def test_redeal_shuffle_is_fisher_yates_of_the_sorted_cards(
    cards: list[int], seed: int, k: int
) -> None:
    """The kept order of a substream (shuffle._order) gives the definition's answer: the
    collected cards sorted, then shuffled by substream k."""
    assert redeal_shuffle(cards, seed, k) == fisher_yates(sorted(cards), substream(seed, k))
    assert redeal_shuffle(cards, seed, k) == fisher_yates(sorted(cards), substream(seed, k))


def test_redeal_shuffle_checks_its_seed_every_time() -> None:
    redeal_shuffle([3, 1, 2], 1, 1)  # seed 1's order is kept now
    with pytest.raises(ValueError, match="not True"):
        redeal_shuffle([3, 1, 2], True, 1)  # type: ignore[arg-type]  # True == 1, no seed
    with pytest.raises(ValueError, match="not -1"):
        redeal_shuffle([3, 1, 2], -1, 1)


@given(st.integers(0, MAX_SEED), st.lists(st.integers(0, 51), unique=True, max_size=52),
       st.integers(1, 5))
def test_redeal_shuffle_is_a_permutation_of_the_collected_set(
    seed: int, cards: list[int], k: int
) -> None:
    assert sorted(redeal_shuffle(cards, seed, k)) == sorted(cards)


def test_fisher_yates_does_not_touch_its_input() -> None:
    items = list(range(10))
    out = fisher_yates(items, SplitMix64(7))
    assert items == list(range(10)) and sorted(out) == items


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "3", True, None])
def test_bad_seeds_are_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="a seed is an integer"):
        check_seed(bad)  # type: ignore[arg-type]
    if bad is not None:  # new_game reads a missing seed as "no seed given"
        with pytest.raises(ValueError, match="a seed is an integer"):
            new_game("gaps", bad)  # type: ignore[arg-type]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_javascript_reference_of_the_document_gives_the_same_decks() -> None:
    code = re.search(r"^```js\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert code is not None
    script = code.group(1).replace("console.log(", "void (", 1)  # drop the demo line
    seeds = list(GOLDEN_DECKS)
    script += (
        f"for (const s of [{', '.join(f'{s}n' for s in seeds)}])"
        " console.log(deck(s).map((c) => NAMES[c]).join(' '));\n"
        "console.log(String(new SplitMix64(0n).below(3n * (1n << 62n))));\n"
        "const nonAces = [...Array(52).keys()].filter((c) => c % 13 !== 0);\n"
        f"console.log(redealShuffle(nonAces, {REJECTED_IN_REDEAL}n, 1)"
        ".map((c) => NAMES[c]).join(' '));\n"
    )
    out = subprocess.run(
        ["node", "-e", script], capture_output=True, text=True, timeout=60, check=True
    ).stdout.splitlines()
    assert out[: len(seeds)] == [GOLDEN_DECKS[s] for s in seeds]
    assert out[len(seeds) :] == ["7960286522194355700", REDEAL_WITH_REJECTION]


# --- The edges of rejection sampling (docs/deals.md section 3) --------------------------


def _max_ok(n: int) -> int:
    """The document's 64-bit-safe bound, every step kept in 0..2^64-1 as in C."""
    return UINT64_MAX - ((UINT64_MAX % n) + 1) % n


def test_64_bit_bound_accepts_exactly_the_draws_python_accepts() -> None:
    for n in [*range(1, 53), 2**32, 2**63, 3 * 2**62, 2**64 - 1, 12345678901234567]:
        assert _max_ok(n) <= UINT64_MAX
        # Python's limit is 2^64 - (2^64 mod n); it can be 2^64, which has no uint64.
        assert _max_ok(n) + 1 == (1 << 64) - ((1 << 64) % n)


@given(st.integers(1, UINT64_MAX))
def test_64_bit_bound_for_any_n(n: int) -> None:
    assert _max_ok(n) + 1 == (1 << 64) - ((1 << 64) % n)


def test_a_draw_rejected_in_a_deck() -> None:
    rng = substream(REJECTED_IN_DECK, 0)
    first, second = rng.next(), rng.next()
    assert first == UINT64_MAX > _max_ok(52)  # rejected
    assert substream(REJECTED_IN_DECK, 0).below(52) == second % 52 == 45
    draws = substream(REJECTED_IN_DECK, 0)
    assert [draws.below(i + 1) for i in range(51, 0, -1)][:3] == [45, 2, 28]
    assert draws.state == (REJECTED_IN_DECK + 52 * 0x9E3779B97F4A7C15) % 2**64  # 52 outputs


@pytest.mark.parametrize("seed,n", list(POWER_OF_TWO_SEEDS.items()))
def test_powers_of_two_never_reject(seed: int, n: int) -> None:
    """The draw of n (a power of two) is 2^64-1: accepted by the document's rule, rejected by
    the shortcut ``UINT64_MAX - UINT64_MAX % n``, which therefore deals another deck."""
    rng = substream(seed, 0)
    outputs = [rng.next() for _ in range(51)]  # no draw of these seeds is rejected
    assert outputs[52 - n] == UINT64_MAX <= _max_ok(n)
    assert fisher_yates(range(52), substream(seed, 0)) == shuffled_deck(seed)

    class Shortcut(SplitMix64):
        def below(self, n: int) -> int:
            limit = UINT64_MAX - UINT64_MAX % n
            while True:
                x = self.next()
                if x < limit:
                    return x % n

    shortcut = Shortcut(substream(seed, 0).state)
    assert C.names(fisher_yates(range(52), shortcut)) != GOLDEN_DECKS[seed].split()


def test_a_draw_rejected_in_a_gaps_redeal() -> None:
    rng = substream(REJECTED_IN_REDEAL, 1)
    assert rng.next() == UINT64_MAX > _max_ok(48)
    non_aces = [c for c in range(52) if C.value(c) != 1]
    got = redeal_shuffle(non_aces, REJECTED_IN_REDEAL, 1)
    assert C.names(got) == REDEAL_WITH_REJECTION.split()
    text = DOC.read_text(encoding="utf-8")
    assert REDEAL_WITH_REJECTION in text and str(REJECTED_IN_REDEAL) in text


C_PROGRAM = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint64_t splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
%s
int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        uint64_t state = strtoull(argv[a], NULL, 10);
        int deck[52];
        for (int i = 0; i < 52; i++) deck[i] = i;
        for (int i = 51; i >= 1; i--) {
            int j = (int)below(&state, (uint64_t)i + 1);
            int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
        for (int i = 0; i < 52; i++) printf(i ? " %%d" : "%%d", deck[i]);
        printf("\n");
    }
    return 0;
}
"""


@pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler"
)
def test_the_c_below_of_the_document_deals_the_golden_decks(tmp_path: Path) -> None:
    """A literal 64-bit port (the document's C) gives every golden deck: no endless loop on
    powers of two, the same rejections."""
    code = re.search(r"^```c\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert code is not None
    source = tmp_path / "deck.c"
    source.write_text(C_PROGRAM % code.group(1))
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None
    subprocess.run([compiler, "-O1", "-o", str(tmp_path / "deck"), str(source)], check=True,
                   timeout=60)
    out = subprocess.run(
        [str(tmp_path / "deck"), *map(str, GOLDEN_DECKS)], capture_output=True, text=True,
        timeout=10, check=True,
    ).stdout.splitlines()
    got = [" ".join(C.names([int(x) for x in line.split()])) for line in out]
    assert got == list(GOLDEN_DECKS.values())
