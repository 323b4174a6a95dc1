// The board's logic without a browser (node --test tests/js/): what rules.js tells the board
// (placesOf, targets, moveAt), the input decisions and the renderers, on real deals.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as rules from "../../dailydeal/web/static/rules.js";
import { decide, dropMove, keyCommand, nextFocus } from "../../dailydeal/web/static/input.js";
import { html as boardHtml, sections } from "../../dailydeal/web/static/board.js";
import { SPECS, gameOfDeal, meaningfulPar } from "../../dailydeal/web/static/specs.js";
import { cardName } from "../../dailydeal/web/static/cards.js";
import { Words } from "../../dailydeal/web/static/i18n.js";
import { readFileSync } from "node:fs";

// the English catalog, as the element fetches it (static/locales/en.json)
const EN = new Words("en", JSON.parse(readFileSync(new URL("../../dailydeal/web/static/locales/en.json", import.meta.url))));
const spec = (game) => ({ ...SPECS[game], game });
import * as speech from "../../dailydeal/web/static/speech.js";
import { LOCALES } from "../../dailydeal/web/static/i18n.js";

// every catalog, as the element fetches it: speech.js says its words in each
const CATALOG = Object.fromEntries(LOCALES.map((l) => [l, new Words(l, JSON.parse(readFileSync(new URL(`../../dailydeal/web/static/locales/${l}.json`, import.meta.url))))]));

const state = (g) => ({ valid: true, error: null, ...g.toJSON() });

/** Positions along random walks of each game (a fixed generator: the same every run). */
function* positions(game, variant = null, walks = 12, steps = 80) {
  let x = 12345;
  const next = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  for (let w = 0; w < walks; w++) {
    const g = rules.newGame(game, variant, null, BigInt(w + 1));
    for (let i = 0; i < steps && g.status() === "in progress"; i++) {
      yield state(g);
      const legal = g.legalMoves();
      g.push(legal[next(legal.length)]);
    }
    yield state(g);
  }
}

const cardMoves = (st) => st.legal_moves.filter((m) => rules.placesOf(st, m).from !== null);

test("every legal move is the move of its places: a drop, two clicks or one click", () => {
  let seen = 0;
  for (const game of rules.GAMES) {
    for (const st of positions(game)) {
      for (const move of st.legal_moves) {
        const { from, to } = rules.placesOf(st, move);
        const again = from === null || from === to ? rules.moveAt(st, null, to) : rules.moveAt(st, from, to);
        // a Gaps 2 with a choice of rows waits for its row: one click means no move yet
        if (again === null) assert.ok(rules.targets(st, from).size > 1, `${game} ${move}`);
        else assert.equal(again, move, `${game}: ${move} at ${from} -> ${to}`);
        seen += 1;
      }
    }
  }
  assert.ok(seen > 2000, `only ${seen} moves seen`);
});

test("a card's targets are exactly the places of its legal moves", () => {
  for (const game of rules.GAMES) {
    for (const st of positions(game, null, 4)) {
      for (const move of cardMoves(st)) {
        const { from, to } = rules.placesOf(st, move);
        if (from === to) continue; // one click on the card itself
        assert.equal(rules.targets(st, from).get(to), move, `${game} ${move}`);
        for (const [place, m] of rules.targets(st, from)) assert.ok(st.legal_moves.includes(m), `${place} ${m}`);
      }
    }
  }
});

test("a pair is picked either way, an Accordion pile only moves left", () => {
  const py = [...positions("pyramid", null, 3)].find((st) => st.legal_moves.some((m) => m.includes("+")));
  const pair = py.legal_moves.find((m) => m.includes("+"));
  const { from, to } = rules.placesOf(py, pair);
  assert.equal(rules.targets(py, to).get(from), pair);
  assert.equal(rules.moveAt(py, to, from), pair); // the canonical text, whichever came first
  const acc = [...positions("accordion", null, 3)].find((st) => st.legal_moves.some((m) => m.includes(">")));
  const move = acc.legal_moves.find((m) => m.includes(">"));
  const p = rules.placesOf(acc, move);
  assert.equal(rules.targets(acc, p.to).has(p.from), false);
});

test("illegal intentions are still moves, so the rules can say why not", () => {
  const g = rules.newGame("pyramid", null, null, 7n);
  const st = state(g);
  const covered = st.position.pyramid[0][0]; // the top card, covered at the start
  const bottom = st.position.pyramid[6];
  const partner = bottom.find((c) => c !== covered && c[0] !== "K");
  const move = rules.moveAt(st, covered, partner);
  assert.match(move, /\+/);
  assert.throws(() => g.push(move), rules.IllegalMoveError);
});

test("a king goes with one click, even with a card picked up; a king pairs with nothing", () => {
  for (const st of positions("pyramid", null, 6)) {
    const king = st.legal_moves.find((m) => rules.placesOf(st, m).from === rules.placesOf(st, m).to);
    if (!king) continue;
    const other = st.position.accessible.find((c) => c !== king);
    if (!other || other[0] === "K") continue;
    assert.equal(rules.moveAt(st, other, king), null);
    assert.deepEqual(decide(rules, st, spec("pyramid"), other, "card", king, EN), { play: king });
    return;
  }
  assert.fail("no accessible king met");
});

test("Gaps: a gap takes its card by one click, a 2 asks for its row when it has a choice", () => {
  let rows = 0;
  for (const st of positions("gaps", null, 12)) {
    for (const gap of st.position.gaps) {
      const place = `${gap.row},${gap.column}`;
      const move = rules.moveAt(st, null, place);
      if (gap.accepts && gap.accepts !== "any 2") assert.equal(move, gap.accepts);
      else assert.equal(move, null);
    }
    const two = ["2S", "2H", "2D", "2C"].find((c) => rules.targets(st, c).size > 1);
    if (!two) continue;
    rows += 1;
    assert.equal(rules.moveAt(st, null, two), null);
    const what = decide(rules, st, spec("gaps"), null, "card", two, EN);
    assert.equal(what.pick, two);
    const [place, move] = [...rules.targets(st, two)][0];
    assert.deepEqual(decide(rules, st, spec("gaps"), two, "gap", place, EN), { play: move });
    assert.deepEqual(decide(rules, st, spec("gaps"), place, "card", two, EN), { play: move }); // gap first
    assert.equal(dropMove(rules, st, two, place), move);
  }
  assert.ok(rows > 0, "no 2 with a choice of rows met");
});

test("decide: picking, putting down, a stuck card, a dead gap, a finished game", () => {
  const st = [...positions("accordion", null, 2)].find((s) => s.position.piles.length > 3);
  const top = st.position.piles[0].top;
  const what = decide(rules, st, spec("accordion"), null, "card", top, EN);
  assert.equal(what.pick, top);
  assert.match(what.say, rules.targets(st, top).size ? /selected: click where it goes/ : /has nowhere to go now/);
  assert.deepEqual(decide(rules, st, spec("accordion"), top, "card", top, EN), { pick: null, say: "" });
  assert.deepEqual(decide(rules, st, spec("accordion"), top, "action", "draw", EN), { play: "d" });
  assert.equal(decide(rules, { ...st, state: "won" }, SPECS.accordion, null, "action", "draw"), null);
  const gaps = state(rules.newGame("gaps", null, null, 3n));
  const dead = gaps.position.gaps.find((g) => g.accepts === null);
  if (dead) {
    const place = `${dead.row},${dead.column}`;
    assert.deepEqual(decide(rules, gaps, spec("gaps"), null, "gap", place, EN), { say: "No card fits this gap now.", shake: place });
  }
});

test("moves in words (a hint's): speech.js's doSaid, the catalog's say.do.<kind>", () => {
  const at = (game, seed, moves = []) => { const g = rules.newGame(game, null, null, BigInt(seed)); for (const m of moves) g.push(m); return state(g); };
  const pyr = at("pyramid", 32, "d d 3S+TH 2H+JC 4S+9H TD+3C".split(" "));
  assert.equal(speech.doSaid(rules, EN, pyr, "7S+6H"), "pair the seven of spades with the six of hearts");
  assert.equal(speech.doSaid(rules, EN, pyr, "d"), "draw a card from the stock");
  const acc = at("accordion", 1);
  assert.equal(speech.doSaid(rules, EN, acc, "d"), "deal a card from the stock");
  const gaps = at("gaps", 7);
  const move = gaps.legal_moves.find((m) => rules.moveParts(gaps, m).kind === "gap");
  const to = rules.placesOf(gaps, move).to.split(",");
  assert.equal(speech.doSaid(rules, EN, gaps, move), `move the ${cardName(move)} to row ${to[0]}, column ${to[1]}`);
  // in the player's language: the same key in the player's catalog
  const DE = CATALOG.de;
  assert.equal(speech.doSaid(rules, DE, pyr, "7S+6H"), DE.t("say.do.pair", { a: cardName("7S", DE), b: cardName("6H", DE) }));
  assert.equal(EN.t("say.do.pair", { a: "x", b: "y" }), "pair the x with the y");
});

test("each renderer draws every card of the position once, and the view's marks", () => {
  for (const game of rules.GAMES) {
    const layout = SPECS[game].layout;
    for (const st of [...positions(game, null, 2)].filter((_, i) => i % 9 === 0)) {
      const picked = cardMoves(st).map((m) => rules.placesOf(st, m).from)[0] ?? null;
      const targets = new Set(picked ? rules.targets(st, picked).keys() : []);
      const html = sections(layout, st, { picked, targets, landed: null, drew: false, words: EN }).map(boardHtml).join("");
      const drawn = [...html.matchAll(/data-card="(..)"/g)].map((m) => m[1]);
      const shown = game === "accordion" ? st.position.piles.map((p) => p.top)
        : game === "pyramid" ? [...st.position.pyramid.flat().filter(Boolean), ...st.position.waste.slice(-3)]
          : st.position.rows.flat().filter(Boolean);
      assert.deepEqual(drawn.sort(), [...shown].sort(), `${game} after ${st.moves.length} moves`);
      if (picked) assert.match(html, new RegExp(`class="[^"]*selected[^"]*" data-card="${picked}"`));
      for (const t of targets) assert.match(html, new RegExp(`class="[^"]*target[^"]*" data-(card|gap)="${t}"`), `${game} target ${t}`);
    }
  }
});

test("the specs: the game of a deal id, par shown only where it means something", () => {
  assert.equal(gameOfDeal("2026-12-01-pyramid-hard"), "pyramid");
  assert.equal(gameOfDeal("2026-12-01-gapsx-hard"), "");
  assert.equal(meaningfulPar({ game: "accordion", par: 51 }), null);
  assert.equal(meaningfulPar({ game: "gaps", par: 90 }), 90);
});

test("keys: arrows move to the nearest box that way; the element's commands", () => {
  const box = (left, top) => ({ left, top, width: 10, height: 10 });
  const rects = [box(0, 0), box(20, 0), box(40, 1), box(20, 30)];
  assert.equal(nextFocus(rects, 0, "ArrowRight"), 1);
  assert.equal(nextFocus(rects, 1, "ArrowRight"), 2);
  assert.equal(nextFocus(rects, 2, "ArrowRight"), null);
  assert.equal(nextFocus(rects, 1, "ArrowDown"), 3);
  assert.equal(nextFocus(rects, -1, "ArrowDown"), 0);
  assert.equal(keyCommand({ key: "u" }), "undo");
  assert.equal(keyCommand({ key: "z", ctrlKey: true }), "undo");
  assert.equal(keyCommand({ key: "z", ctrlKey: true }, true), null);
  assert.equal(keyCommand({ key: "h" }, true), null);
  assert.equal(keyCommand({ key: "Escape" }), "drop");
  assert.equal(keyCommand({ key: "H" }), "hint");
});

// --- what is said to a screen reader (speech.js): each kind of move, what can be done now --
test("every move is said in words with what it left; what can be done now; two languages", () => {
  const kinds = new Set();
  for (const game of rules.GAMES) {
    for (const st of [...positions(game, null, 3, 120)]) {
      for (const move of st.legal_moves.slice(0, 4)) {
        const g = rules.newGame(game, null, null, BigInt(st.seed));
        for (const m of [...st.moves, move]) g.push(m);
        const after = state(g);
        const kind = rules.moveParts(st, move).kind;
        kinds.add(kind);
        for (const lang of LOCALES) {
          const w = CATALOG[lang];
          const said = speech.moveSaid(rules, w, st, after, move);
          assert.doesNotMatch(said, /undefined|\{|\}|NaN|say\./, `${lang} ${game} ${move}: ${said}`);
          if (lang === "en" || lang === "es") assert.match(said, /^[A-ZÁÉÍÓÚÑ¡]/, said);
          const now = speech.nowSaid(rules, w, after);
          assert.doesNotMatch(now, /undefined|\{|\}|NaN|say\./, `${lang} ${game}: ${now}`);
          assert.doesNotMatch(speech.undoneSaid(rules, w, st, move), /undefined|\{|\}|say\./);
        }
      }
    }
  }
  for (const k of ["deal", "pile", "draw", "pair", "gap", "redeal"]) assert.ok(kinds.has(k), `no ${k} move said`);
  // a Pyramid pair, a king, a draw: the cards by name, and what is left
  const pyr = (moves) => { const g = rules.newGame("pyramid", null, null, 32n); for (const m of moves) g.push(m); return state(g); };
  const line = "d d 3S+TH 2H+JC 4S+9H TD+3C 7S+6H".split(" ");
  const before = pyr(line.slice(0, -1));
  const after = pyr(line);
  assert.equal(speech.moveSaid(rules, EN, before, after, "7S+6H"), `Seven of spades and six of hearts removed. Cards left: ${after.score}, stock: ${after.position.stock_count}.`);
  assert.equal(speech.moveSaid(rules, CATALOG.es, before, after, "7S+6H"), `Fuera: siete de picas y seis de corazones. Cartas restantes: ${after.score}, mazo: ${after.position.stock_count}.`);
  assert.equal(speech.undoneSaid(rules, EN, before, "7S+6H"), `Undone: pair the seven of spades with the six of hearts. Cards left: ${before.score}, stock: ${before.position.stock_count}.`);
  assert.match(speech.moveSaid(rules, EN, pyr([]), pyr(["d"]), "d"), /^Drew the \w+ of \w+\. Cards left: 28, stock: 23\.$/);
  const now = speech.nowSaid(rules, EN, after);
  const table = after.legal_moves.filter((m) => rules.placesOf(after, m).from !== null).length;
  assert.equal(table, 0);
  assert.equal(now, "No move on the table; only draw a card from the stock.");
  const opening = speech.nowSaid(rules, EN, pyr(line.slice(0, 2)));
  assert.match(opening, /^\d+ moves?(, the first 3)?: (pair the \w+ of \w+ with the \w+ of \w+|remove the king of \w+)(; |; or draw a card from the stock\.$)/);
  // Gaps: where the card went, and what the gap it left takes; a redeal's kept cards
  const gaps = rules.newGame("gaps", null, null, 7n);
  const g0 = state(gaps);
  const move = g0.legal_moves.find((m) => rules.moveParts(g0, m).kind === "gap");
  gaps.push(move);
  assert.match(speech.moveSaid(rules, EN, g0, state(gaps), move), /^\w+ of \w+ moved to row \d, column \d+\. The gap at row \d, column \d+ takes (the \w+ of \w+|any two|nothing)\. In place: \d+, redeals left: 2\.$/);
  const r0 = [...positions("gaps", null, 6, 200)].find((st) => st.legal_moves.includes("R"));
  const redealt = rules.newGame("gaps", null, null, BigInt(r0.seed));
  for (const m of [...r0.moves, "R"]) redealt.push(m);
  const r1 = state(redealt);
  const kept = r1.score === 1 ? "1 card kept" : `${r1.score} cards kept`;
  assert.equal(speech.moveSaid(rules, EN, r0, r1, "R"), `Redeal: ${kept} in place. In place: ${r1.score}, redeals left: ${r1.position.redeals_left}.`);
  // the live region speaks the element's language (its words' locale)
  const region = { textContent: "" };
  new speech.Speaker(region, { words: CATALOG.de }).say("Gezogen");
  assert.deepEqual([region.lang, region.textContent], ["de", "Gezogen"]);
  assert.equal(keyCommand({ key: "?" }), "moves");
  assert.equal(keyCommand({ key: "w" }), "moves");
  assert.equal(keyCommand({ key: "w" }, true), null);
});
