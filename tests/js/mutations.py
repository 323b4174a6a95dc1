"""Do the fast vectors catch every rule? Each mutant of rules.js must fail them.

    .venv/bin/python tests/js/mutations.py      # the table: mutant -> the vector that kills it

A mutant is one rule of dailydeal/web/static/rules.js (or of verdict.js, the verdict over
it) broken by a small textual replacement (legality of each kind of move, what it does,
won, lost, score, redeal, passes, notation, the verdict), written to a copy of the two in a
temporary directory and run by tests/js/harness.mjs
(its `mutants` mode) on tests/js/vectors.json: the fast vectors only, never the slow walk.
It is killed when the harness reports a mismatch; a crash or a load error is no kill (the
mutant is then wrong, not caught). Each replaced text must occur exactly once in the two,
so an edit of the rule code fails this check loudly instead of leaving a mutant that tests
nothing. tests/test_js_rules.py runs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

JS = Path(__file__).resolve().parent
STATIC = JS.parents[1] / "dailydeal" / "web" / "static"
RULES = STATIC / "rules.js"
FILES = ("rules.js", "verdict.js")  # the rules layer of the browser, copied together
HARNESS = JS / "harness.mjs"
VECTORS = JS / "vectors.json"

# (the rule broken, the text of rules.js, what the mutant has instead)
MUTANTS: list[tuple[str, str, str]] = [
    # Accordion
    ("accordion: a move needs a shared suit or rank (rank ignored)",
     "Math.floor(a / 13) === Math.floor(b / 13) || a % 13 === b % 13;",
     "Math.floor(a / 13) === Math.floor(b / 13);"),
    ("accordion: a pile moves onto the first pile too",
     "if (i >= k && matches(row[i], row[i - k]))", "if (i > k && matches(row[i], row[i - k]))"),
    ("accordion: a pile moves 1 or 3 places left (2 too)",
     "const JUMPS = [1, 3];", "const JUMPS = [1, 2, 3];"),
    ("accordion: forced, a move before dealing again",
     "return this.dealt < 52 && !(this.rules.forced && this.pileMoves().length > 0);",
     "return this.dealt < 52;"),
    ("accordion: the reason for a deal from an empty stock",
     'return this.dealt >= 52 ? why("stock_empty")',
     'return this.dealt > 52 ? why("stock_empty")'),
    ("accordion: piles only move left (onto itself)",
     "if (j >= i) return", "if (j > i) return"),
    ("accordion: a move puts the whole pile on top",
     "this.piles[j].push(...moved);", "this.piles[j].push(moved[moved.length - 1]);"),
    ("accordion: undo of a move", "this.piles.splice(i, 0, this.piles[j].splice(-n, n));",
     "this.piles.splice(j, 0, this.piles[j].splice(-n, n));"),
    ("accordion: a lazy deal stops at the moving card",
     "if (this.cards[this.dealt - 1] === m.src) break;", ""),
    ("accordion: won (never)",
     'if (this.dealt === 52 && this.piles.length === 1) return "won";',
     'if (this.dealt === 52 && this.piles.length === 0) return "won";'),
    ("accordion: lost (a move left counts)",
     'return this.dealt < 52 || this.pileMoves().length ? "in progress" : "lost";',
     'return this.dealt < 52 ? "in progress" : "lost";'),
    ("accordion: score counts the undealt cards",
     "return this.piles.length + 52 - this.dealt; }", "return this.piles.length; }"),
    ("accordion: notation, a move is written X>Y",
     "`${name(m.src)}>${name(m.dst)}`", "`${name(m.src)}>${name(m.src)}`"),
    ("accordion: notation, d in any case",
     'if (text.toLowerCase() === "d") return DEAL;', 'if (text === "d") return DEAL;'),
    # Pyramid
    ("pyramid: two pyramid cards pair",
     "for (const b of places.slice(n + 1)) if", "for (const b of places.slice(n + 2)) if"),
    ("pyramid: a pyramid card pairs the waste top",
     "if (top !== EMPTY && isPair(cards[a], top)) moves.push(pair(cards[a], top));", ""),
    ("pyramid: a pyramid king leaves alone",
     'for (const i of places) if (isKing(cards[i])) moves.push({ k: "k", card: cards[i] });', ""),
    ("pyramid: the waste king leaves alone",
     'if (top !== EMPTY && isKing(top)) moves.push({ k: "k", card: top });', ""),
    ("pyramid: a recycle needs a waste (legal moves)",
     "else if (this.waste.length && this.mayRecycle()) moves.push(RECYCLE);",
     "else if (this.mayRecycle()) moves.push(RECYCLE);"),
    ("pyramid: a recycle needs a waste (reason)",
     'if (!this.waste.length) return why("waste_empty");', ""),
    ("pyramid: a recycle needs an empty stock",
     'if (this.stock.length) return why("stock_not_empty");', ""),
    ("pyramid: a covered card is not accessible",
     "return covering.length ? why(", "return false ? why("),
    ("pyramid: the reason for a card under the waste top",
     "if (this.waste.includes(card)) return", "if (this.waste.includes(card) && false) return"),
    ("pyramid: the reason for a draw from an empty stock (passes run out)",
     'if (m.k === "d") return this.stock.length ? null : this.emptyStockReason();',
     'if (m.k === "d") return this.stock.length ? null : this.waste.length'
     ' ? "the stock is empty: recycle the waste with r" : this.emptyStockReason();'),
    ("pyramid: the reason for a draw from an empty stock and waste",
     'if (m.k === "d") return this.stock.length ? null : this.emptyStockReason();',
     'if (m.k === "d") return this.stock.length ? null : !this.waste.length'
     ' ? "the stock is empty: recycle the waste with r" : this.emptyStockReason();'),
    ("pyramid: passes=N allows N - 1 recycles",
     "return this.rules.passes === null || this.recycles < this.rules.passes - 1;",
     "return this.rules.passes === null || this.recycles < this.rules.passes;"),
    ("pyramid: a recycle turns the waste over",
     "this.stock = this.waste.reverse();", "this.stock = this.waste;"),
    ("pyramid: a recycle counts a pass",
     "this.stock = this.waste.reverse(); this.waste = []; this.recycles++;",
     "this.stock = this.waste.reverse(); this.waste = [];"),
    ("pyramid: a pair removes the waste top",
     'else { this.waste.pop(); undo.push(["w", card]); }',
     'else { this.waste.shift(); undo.push(["w", card]); }'),
    ("pyramid: a draw turns the next stock card",
     'if (m.k === "d") this.waste.push(this.stock.pop());',
     'if (m.k === "d") this.waste.push(this.stock.shift());'),
    ("pyramid: lost, relaxed (the whole waste comes round again)",
     "if (this.mayRecycle()) reach.push(...this.waste);",
     "if (this.mayRecycle()) reach.push(...this.waste.slice(-1));"),
    ("pyramid: lost, a king on the waste uncovers the card under it",
     "if (!isKing(this.waste[n])) break;", "break;"),
    ("pyramid: lost, an accessible king is progress",
     "if (values.has(13) || [...values]", "if ([...values]"),
    ("pyramid: won (the talon may keep cards)",
     'return this.mask === 0 ? "won"', 'return this.mask === 0 && !this.stock.length ? "won"'),
    ("pyramid: passes left", "passes_left: passes === null ? null : passes - this.recycles,",
     "passes_left: passes === null ? null : passes - this.recycles - 1,"),
    ("pyramid: notation, a pair is written lower card first",
     "a: Math.min(a, b), b: Math.max(a, b) });", "a, b });"),
    ("pyramid: notation, only a king leaves alone",
     "if (!isKing(card)) throw invalid(", "if (false) throw invalid("),
    # Gaps
    ("gaps: nothing goes right of a king",
     "return c === EMPTY || c % 13 === 12 ? [] : [c + 1];", "return c === EMPTY ? [] : [c + 1];"),
    ("gaps: a card goes right of its predecessor, not after a row's end",
     "if (this.pos[card - 1] % 13 === 12) return", "if (false) return"),
    ("gaps: a card goes only into a gap",
     'return right === EMPTY ? null : why("not_gap"',
     'return true ? null : why("not_gap"'),
    ("gaps: a 2 goes only into a gap in column 1",
     'return there === EMPTY ? null : why("row_taken"',
     'return true ? null : why("row_taken"'),
    ("gaps: a plain 2 needs exactly one column-1 gap",
     "if (rows.length !== 1) {", "if (rows.length < 1) {"),
    ("gaps: only a 2 is sent to a row (notation)",
     "if (value(card) !== 2) throw invalid(", "if (false) throw invalid("),
    ("gaps: a redeal only when blocked (legal moves)",
     "if (!moves.length && this.redealsLeft() > 0 && !this.isComplete()) moves.push(REDEAL);",
     "if (this.redealsLeft() > 0 && !this.isComplete()) moves.push(REDEAL);"),
    ("gaps: no redeal on a won board (legal moves)",
     "if (!moves.length && this.redealsLeft() > 0 && !this.isComplete()) moves.push(REDEAL);",
     "if (!moves.length && this.redealsLeft() > 0) moves.push(REDEAL);"),
    ("gaps: no redeal on a won board (reason)",
     'if (this.isComplete()) return why("won");', ""),
    ("gaps: at most N redeals",
     'return this.redealsLeft() <= 0 ? why("no_redeal"',
     'return this.redealsLeft() < 0 ? why("no_redeal"'),
    ("gaps: a move leaves a gap where the card stood",
     "this.cells[src] = EMPTY; this.cells[dst] = m.card;", "this.cells[dst] = m.card;"),
    ("gaps: a kept run climbs to K (won, score)",
     "while (n < 12 && cells[base + n] === first + n) n++;",
     "while (n < 11 && cells[base + n] === first + n) n++;"),
    ("gaps: a redeal keeps a complete row's king (the gap goes to column 13)",
     "const kept = keptLengths(cells), collected = [];",
     "const kept = keptLengths(cells).map((n) => Math.min(n, 11)), collected = [];"),
    ("gaps: a redeal deals by the seed's substream k",
     "substream(seed, k));", "substream(seed, k + 1));"),
    ("gaps: a redeal of cards without a seed uses seed 0",
     "this.seed === null ? 0n : this.seed", "this.seed === null ? 1n : this.seed"),
    ("gaps: a redeal counts",
     "this.redealsUsed++;", ""),
    ("gaps: won, every row complete",
     "return keptLengths(this.cells).every((n) => n === 12);",
     "return keptLengths(this.cells).some((n) => n === 12);"),
    ("gaps: lost, blocked with no redeal left",
     'return this.placeMoves().length || this.redealsLeft() > 0 ? "in progress" : "lost";',
     'return this.placeMoves().length ? "in progress" : "lost";'),
    ("gaps: notation, a 2 is written with its row",
     'name(m.card) + (m.row === null ? "" : `@${m.row}`)', "name(m.card)"),
    ("gaps: notation, r for R",
     'if (text === "R" || text === "r") return REDEAL;', 'if (text === "R") return REDEAL;'),
    # Cards, deals, the verdict
    ("cards: 10 for T", 'if (r === "10") r = "T";', ""),
    ("deals: the portable shuffle", "for (let i = out.length - 1; i >= 1; i--) {",
     "for (let i = out.length - 1; i >= 2; i--) {"),
    ("verdict: no finishing after an illegal move",
     "if (error === null && finish) game.finishMoves();", "if (finish) game.finishMoves();"),
]


def sources() -> dict[str, str]:
    """The rules layer's files by name."""
    return {name: (STATIC / name).read_text(encoding="utf-8") for name in FILES}


def check_patterns(files: dict[str, str]) -> None:
    """Each mutant's text occurs exactly once in the rules layer (else the check would test
    nothing)."""
    for name, old, new in MUTANTS:
        count = sum(text.count(old) for text in files.values())
        assert count == 1, (
            f"mutant {name!r}: its text occurs {count} times in {' and '.join(files)}, not"
            f" once; they changed: update MUTANTS in tests/js/mutations.py\n  {old}")
        assert old != new, name


def _mutated(files: dict[str, str], old: str, new: str) -> dict[str, str]:
    return {name: text.replace(old, new) for name, text in files.items()}


def _run(copies: list[Path]) -> list[tuple[str | None, str]]:
    """The harness on the vectors with each copy -> (the first mismatch, or None; else why)."""
    run = subprocess.run(
        [shutil.which("node") or "node", str(HARNESS), "mutants", str(VECTORS), *map(str, copies)],
        capture_output=True, text=True, timeout=300,
    )
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    if run.returncode != 0 or len(lines) != len(copies):
        raise RuntimeError(f"harness.mjs: exit status {run.returncode}\n{run.stderr[-3000:]}")
    return [(line.get("killed_by"), line.get("error", "no mismatch")) for line in lines]


def run(jobs: int = 2) -> list[tuple[str, str | None, str]]:
    """Every mutant -> (its name, the first vector that kills it or None, what happened)."""
    files = sources()
    check_patterns(files)
    with tempfile.TemporaryDirectory() as tmp:
        variants = [files] + [_mutated(files, old, new) for _, old, new in MUTANTS]
        copies = []  # a folder each, the unchanged copy first (it must pass)
        for n, variant in enumerate(variants):
            copies.append(Path(tmp) / f"copy{n}")
            copies[-1].mkdir()
            for name, text in variant.items():
                (copies[-1] / name).write_text(text, encoding="utf-8")
        with ThreadPoolExecutor(jobs) as pool:  # one node process for each share of copies
            shares = list(pool.map(_run, [copies[n::jobs] for n in range(jobs)]))
    results = [shares[n % jobs][n // jobs] for n in range(len(copies))]
    killed, why = results[0]
    assert killed is None and why == "no mismatch", (
        f"the unchanged copy of the rules fails the vectors: {killed or why}")
    return [(m[0], k, w) for m, (k, w) in zip(MUTANTS, results[1:], strict=True)]


if __name__ == "__main__":
    rows = run()
    width = max(len(name) for name, _, _ in rows)
    for name, killer, why in rows:
        print(f"{name:<{width}}  {killer or 'SURVIVED ' + why}")
    survivors = sum(killer is None for _, killer, _ in rows)
    print(f"{len(rows) - survivors} of {len(rows)} mutants killed")
    sys.exit(1 if survivors else 0)
