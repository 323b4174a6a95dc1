// rules.js builds an error only for a move or card it refuses (node --test tests/js/): an Error
// object costs more than reading a card (benchmarks/rules_js.py), and a replay reads two cards
// a move. Each construction is counted by a setter of "name" on the error classes' prototypes
// (their constructors assign this.name).
import assert from "node:assert/strict";
import { test } from "node:test";
import * as rules from "../../dailydeal/web/static/rules.js";
import { replay } from "../../dailydeal/web/static/verdict.js";

let built = 0;
for (const cls of [rules.InvalidMoveError, rules.IllegalMoveError]) {
  const name = cls.name;
  Object.defineProperty(cls.prototype, "name", {
    configurable: true,
    get() { return name; },
    set() { built++; },
  });
}

test("the counter sees an error built, and the error keeps its name and message", () => {
  built = 0;
  assert.throws(() => rules.parseCard("ZZ"), (e) => e.name === "InvalidMoveError"
    && e.message === "unknown card 'ZZ'");
  assert.equal(built, 1);
});

test("reading a card in any spelling builds no error", () => {
  built = 0;
  for (const text of ["TD", "td", "10d", "10♦", "t♢", " 7S\t", "a♠", "KC"]) rules.parseCard(text);
  assert.equal(built, 0);
});

test("replaying random legal lines of every game builds no error", () => {
  let x = 41;
  const next = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  for (const game of rules.GAMES) {
    for (const variant of rules.variants(game)) {
      const walk = rules.newGame(game, variant, null, 7n);
      for (let i = 0; i < 150 && walk.status() === "in progress"; i++) {
        const legal = walk.legalMoves();
        walk.push(legal[next(legal.length)]);
      }
      built = 0;
      const verdict = replay(rules.newGame(game, variant, null, 7n), walk.moves);
      assert.equal(verdict.valid, true, `${game} ${variant}`);
      assert.equal(built, 0, `${game} ${variant}: errors built replaying a legal line`);
    }
  }
});
