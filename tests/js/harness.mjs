// Runs dailydeal/web/static/rules.js against the Python engine's answers (tests/test_js_rules.py).
//
//   node tests/js/harness.mjs vectors tests/js/vectors.json
//       checks every vector of make_vectors.py; prints one JSON line per mismatch, then a
//       summary line; exit status 1 on any mismatch.
//   node tests/js/harness.mjs walk < specs.json
//       specs: {junk, walks: [{game, variant, steps, prng, cap, full}]}; plays each random walk as
//       make_vectors.walk does (same XorShift32, same choices) and prints one JSON line per
//       spec: the SHA-1 fingerprint of every record, or the records themselves with full.
//   node tests/js/harness.mjs mutants tests/js/vectors.json DIR...
//       checks the vectors against each copy of rules.js and verdict.js (a folder each) in
//       turn (tests/js/mutations.py) and
//       prints one JSON line per copy: the first mismatch ("killed_by"), null if none.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

// the rules and the verdict, as the page loads them: from the static folder, or from a copy
// of it under test (mutants)
async function load(dir) {
  const url = (name) => pathToFileURL(join(resolve(dir), name)).href;
  return { ...(await import(url("rules.js"))), ...(await import(url("verdict.js"))) };
}
let R = await load(new URL("../../dailydeal/web/static/", import.meta.url).pathname);

const RANKS = "A23456789TJQK";
let JUNK = []; // make_vectors.JUNK, sent with the walk specs

class XorShift32 { // make_vectors.XorShift32
  constructor(seed) { this.x = seed >>> 0 || 0x9e3779b9; }
  next() {
    let x = this.x;
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    this.x = x >>> 0;
    return this.x;
  }
  below(n) { return this.next() % n; }
  pick(items) { return items[this.below(items.length)]; }
}

function spell(card, rng) {
  const [r, s] = card, k = rng.below(8);
  if (k === 3) return card.toLowerCase();
  if (k === 4) return (r === "T" ? "10" : r) + s;
  if (k === 5) return r + "♠♥♦♣"["SHDC".indexOf(s)];
  if (k === 6) return r.toLowerCase() + "♤♡♢♧"["SHDC".indexOf(s)];
  if (k === 7) return r.toLowerCase() + s;
  return card;
}

function respell(text, rng) {
  let out = text.replace(/[A2-9TJQK][SHDC]/g, (m) => spell(m, rng));
  if (["d", "r", "R"].includes(out) && rng.below(4) === 0) out = out === "R" ? "r" : out.toUpperCase();
  if (rng.below(8) === 0) out = " " + out + "\t";
  return out;
}

function randomShape(game, rng) {
  const card = R.CARD_NAMES[rng.below(52)];
  if (game === "accordion") return rng.below(6) === 0 ? "d" : card + ">" + R.CARD_NAMES[rng.below(52)];
  if (game === "pyramid") {
    const k = rng.below(8);
    if (k < 2) return "dr"[k];
    if (k === 2) return "K" + "SHDC"[rng.below(4)];
    if (k === 3) return card;
    const v = RANKS.indexOf(card[0]) + 1;
    const other = v < 13 && rng.below(2) ? RANKS[12 - v] : RANKS[rng.below(13)];
    return card + "+" + other + "SHDC"[rng.below(4)];
  }
  const k = rng.below(8);
  if (k === 0) return "R";
  if (k < 3) return "2" + "SHDC"[rng.below(4)] + "@" + String(rng.below(5) + 1);
  if (k === 3) return "2" + "SHDC"[rng.below(4)];
  return card;
}

function attemptText(game, legal, rng) {
  const k = rng.below(20);
  if (k === 0) return rng.pick(JUNK);
  return respell(k <= 5 && legal.length ? rng.pick(legal) : randomShape(game, rng), rng);
}

function outcome(g, text) {
  let m;
  try { m = g.read(text); } catch (e) {
    if (e instanceof R.InvalidMoveError) return ["invalid", e.message];
    if (e instanceof R.IllegalMoveError) return ["illegal", e.message];
    throw e;
  }
  const reason = g.reason(m);
  return reason === null ? ["legal", g.fmt(m)] : ["illegal", reason];
}

const position = (g) => ({ ...g.toJSON(), seed: g.seed === null ? null : String(g.seed) });

function newDeal(game, variant, rng) {
  const hi = rng.next(), lo = rng.next(), kind = rng.below(4);
  if (kind === 0) {
    const seed = (BigInt(hi) << 32n) | BigInt(lo);
    return [R.newGame(game, variant, null, seed), ["seed", String(seed)]];
  }
  if (kind === 1) {
    const cards = R.dealFromSeed(game, lo);
    return [R.newGame(game, variant, cards, null), ["cards", cards.join(" ")]];
  }
  return [R.newGame(game, variant, null, lo % 1000000), ["seed", String(lo % 1000000)]];
}

function* walk(game, variant, steps, prng, cap) { // make_vectors.walk, step for step
  const rng = new XorShift32(prng);
  let [g, deal] = newDeal(game, variant, rng);
  yield [null, "", [], ["new", ...deal]];
  let since = 0;
  for (let n = 0; n < steps; n++) {
    const state = position(g), legal = state.legal_moves;
    const text = attemptText(game, legal, rng);
    const said = outcome(g, text);
    const action = rng.below(64);
    let done;
    if (action < 4 && g.stack.length) done = ["pop", g.pop()];
    else if (action < 8 && game === "accordion" && g.dealt < 52 && g.piles.length) {
      const a = g.dealt;
      const t = R.CARD_NAMES[g.cards[a + rng.below(Math.min(3, 52 - a))]] + ">" + rng.pick(state.position.piles).top;
      try { done = ["play", t, g.play(t)]; } catch (e) { done = ["play", t, e.message]; }
    } else if (action === 8 && game === "accordion") done = ["finish", g.finish()];
    else if (!legal.length || since >= cap) {
      [g, deal] = newDeal(game, variant, rng);
      since = -1;
      done = ["new", ...deal];
    } else {
      const move = rng.pick(legal);
      g.push(move);
      done = ["push", move];
    }
    since++;
    yield [state, text, said, done];
  }
}

const snapshot = (g) => { const { moves, ...rest } = position(g); return rest; }; // make_vectors._snapshot
const digest = (record) => createHash("sha1").update(JSON.stringify(record)).digest("hex").slice(0, 16);

// --- vectors ---------------------------------------------------------------------------
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}
function firstDifference(a, b, path = "") { // where two answers part, for a readable report
  if (same(a, b)) return null;
  if (typeof a === "object" && typeof b === "object" && a && b && Array.isArray(a) === Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return { at: path || ".", python: a, rules_js: b };
}
class Killed extends Error {} // the first mismatch, when one is enough (mutants)
const attempt = (fn) => {
  try { return fn(); } catch (e) { if (e instanceof Killed) throw e; return { error: e.message }; }
};

function checkVectors(v, firstOnly = false) {
  let checks = 0, bad = 0;
  const expect = (where, expected, got) => {
    checks++;
    if (same(expected, got)) return true;
    bad++;
    if (firstOnly) throw new Killed(where);
    console.log(JSON.stringify({ where, ...firstDifference(expected, got) }));
    return false;
  };
  v.decks.forEach(([seed, deck], i) => expect(`decks[${i}] seed ${seed}`, deck, R.dealFromSeed("gaps", seed).join(" ")));
  expect("registry", v.registry, Object.fromEntries(R.GAMES.map((g) => [g, R.variants(g)])));
  v.variants.forEach(([game, variant, want], i) => expect(`variants[${i}] ${game} ${variant}`, want,
    attempt(() => { const found = R.variantOf(game, variant); return [found.name, found.description]; })));
  v.cards.forEach(([text, want], i) =>
    expect(`cards[${i}] ${JSON.stringify(text)}`, want, attempt(() => R.CARD_NAMES[R.parseCard(text)])));
  v.deals.forEach(([cards, want], i) =>
    expect(`deals[${i}]`, want, attempt(() => R.newGame("accordion", null, cards, null).cards.map((c) => R.CARD_NAMES[c]))));
  v.redeals.forEach(([seed, cards, k, before, after], i) => {
    let g;
    if (seed === "shuffle") { // a board that keeps nothing: the 48 shuffled cards, row by row
      g = R.newGame("gaps", "redeals=9", null, BigInt(cards));
      g.cells = Array.from({ length: 52 }, (_, c) => (c % 13 === 0 ? 52 : R.CARD_NAMES.indexOf(before[c - 1 - Math.floor(c / 13)])));
      g.redealsUsed = k - 1;
      g.apply(g.read("R")); // not blocked (2s fit the gaps in column 1): the redeal alone
      expect(`redeals[${i}] shuffle`, after, g.toJSON().position.rows.flatMap((row) => row.slice(1)));
      return;
    }
    g = R.newGame("gaps", "redeals=9", cards, seed);
    g.cells = before.map((c) => (c === null ? 52 : R.CARD_NAMES.indexOf(c)));
    g.pos = Array(53).fill(-1);
    g.cells.forEach((c, n) => { if (c !== 52) g.pos[c] = n; });
    g.redealsUsed = k - 1;
    const pushed = attempt(() => g.push("R"));
    expect(`redeals[${i}] seed ${seed} k=${k}`, after, pushed.error ? pushed : g.toJSON().position.rows.flat());
  });
  v.replays.forEach((c, i) => {
    const g = R.newGame(c.game, c.variant, c.cards, c.seed);
    const where = `replays[${i}] ${c.game} ${c.variant} ${c.seed} ${JSON.stringify(c.moves).slice(0, 60)}`;
    if (expect(where, c.verdict, attempt(() => R.replay(g, c.moves, { finish: c.finish }))) && c.after) {
      expect(where + " (position after)", c.after, { moves: g.moves, json: g.toJSON() });
    }
  });
  v.states.forEach((c, i) =>
    expect(`states[${i}] ${c.game} ${c.seed}`, c.state, attempt(() => R.stateJSON(c.game, c.variant, c.cards, c.seed, c.moves))));
  v.from_deals.forEach((c, i) => expect(`from_deals[${i}] ${c.game} ${c.seed}`, c.json, attempt(() => {
    const g = R.newGame(c.game, null, R.cardsFromDeal(c.game, c.deal), c.seed);
    for (const m of c.moves) g.push(m);
    return g.toJSON();
  })));
  v.probes.forEach((p) => { // make_vectors.probe_vectors: a real line, then its end probed
    const where = `probes "${p.name}"`;
    const g = R.newGame(p.game, p.variant, p.cards, p.seed);
    const steps = [digest([snapshot(g)])];
    const played = attempt(() => { for (const m of p.line) { g.push(m); steps.push(digest([snapshot(g)])); } return null; });
    const at = p.steps.findIndex((d, n) => d !== steps[n]);
    if (!expect(`${where} line`, null, played) || (at >= 0 && !expect(
      `${where} position after move ${at} ${JSON.stringify(p.line[at - 1] ?? "")} (digest)`, p.steps[at], steps[at]))) return;
    if (!expect(`${where} end`, p.end, snapshot(g))) return;
    for (const [text, said, after] of p.attempts) {
      if (!expect(`${where} attempt ${JSON.stringify(text)}`, said, outcome(g, text)) || after === null) continue;
      const pushed = attempt(() => g.push(text));
      if (expect(`${where} after ${JSON.stringify(text)}`, after, pushed.error ? pushed : snapshot(g)) && !pushed.error) {
        g.pop();
        expect(`${where} ${JSON.stringify(text)} taken back`, p.end, snapshot(g));
      }
    }
    expect(`${where} verdict`, p.verdict, attempt(() => R.replay(R.newGame(p.game, p.variant, p.cards, p.seed), p.line)));
  });
  v.walks.forEach((w) => {
    let g = null;
    for (const [n, [state, text, said, done]] of w.records.entries()) {
      const where = `walks ${w.game} ${w.variant} record ${n}`;
      if (state !== null && !(expect(where + " position", state, position(g)) && expect(where + ` attempt ${JSON.stringify(text)}`, said, outcome(g, text)))) break;
      const [kind, a, b] = done;
      let got;
      if (kind === "new") { g = R.newGame(w.game, w.variant, a === "cards" ? b : null, a === "seed" ? b : null); continue; }
      if (kind === "pop") got = [kind, g.pop()];
      else if (kind === "push") got = [kind, g.push(a)];
      else if (kind === "finish") got = [kind, g.finish()];
      else { try { got = [kind, a, g.play(a)]; } catch (e) { got = [kind, a, e.message]; } }
      if (!expect(where + " " + kind, done, got)) break;
    }
    expect(`walks ${w.game} ${w.variant}: copy()`, g.toJSON(), g.copy().toJSON());
  });
  if (!firstOnly) console.log(JSON.stringify({ checks, mismatches: bad }));
  return bad;
}

const [mode, arg] = process.argv.slice(2);
if (mode === "vectors") process.exitCode = checkVectors(JSON.parse(readFileSync(arg, "utf8"))) ? 1 : 0;
else if (mode === "mutants") {
  const v = JSON.parse(readFileSync(arg, "utf8"));
  for (const file of process.argv.slice(4)) {
    R = await load(file);
    let line;
    try { checkVectors(v, true); line = { rules: file, killed_by: null }; } catch (e) {
      line = e instanceof Killed ? { rules: file, killed_by: e.message } : { rules: file, error: String(e.stack) };
    }
    process.stdout.write(JSON.stringify(line) + "\n");
  }
}
else if (mode === "walk") {
  const { junk, walks } = JSON.parse(readFileSync(0, "utf8"));
  JUNK = junk;
  for (const s of walks) {
    const records = [...walk(s.game, s.variant, s.steps, s.prng, s.cap)];
    process.stdout.write(JSON.stringify(s.full ? { records } : { digests: records.map(digest) }) + "\n");
  }
} else {
  console.error("usage: node harness.mjs vectors FILE | mutants FILE DIR... | walk < specs.json");
  process.exitCode = 2;
}
