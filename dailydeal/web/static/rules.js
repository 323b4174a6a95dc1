// The rule book (docs/rules.md) in the browser: Accordion, Pyramid and Gaps with every
// variant of the registry, the notation, the readable reasons, the verdict and the portable
// shuffle (docs/deals.md). One plain ES module, no dependencies, no build step. It is a
// second implementation of dailydeal/games/ (the Python engine stays the referee of every
// result): tests/test_js_rules.py holds the two equal, value for value and word for word,
// with the vectors of tests/js/make_vectors.py and a differential random walk. A rule
// changes in docs/rules.md, then in dailydeal/games/rules/ and here, in the same commit.
// Use: const g = newGame("pyramid", "relaxed", cards, seed); g.push("5h+8c") (throws
// InvalidMoveError or IllegalMoveError with the engine's reason, and its code and params
// in REASONS); g.legalMoves(), g.status(), g.score(), g.toJSON(). The board asks placesOf,
// targets, moveAt and moveParts (below); verdict.js gives the verdict and the state answer.
// Seeds are BigInt (64 bits). toJSON() gives Python's Game.to_json(), but for the seed: a
// Number when it is a safe integer, else its decimal text (a Number would lose digits).

export const GAMES = ["accordion", "pyramid", "gaps"];

class MoveError extends Error { // code, params: the reason by code (REASONS) when it made message
  constructor(message, why) {
    super(message); const known = why && why.text === message;
    this.code = known ? why.code : null; this.params = known ? why.params : null;
  }
}
export class InvalidMoveError extends MoveError { constructor(m, why = LAST) { super(m, why); this.name = "InvalidMoveError"; } }
export class IllegalMoveError extends MoveError { constructor(m, why = LAST) { super(m, why); this.name = "IllegalMoveError"; } }

// Why a move is illegal or cannot be read, by code (the server's words, and its verdict's
// error.code; English's reason.<code> for i18n.js)
export const REASONS = {
  /* notation */ move_not_text: "a move must be text, not {type}", empty_move: "empty move", too_long: "cannot read move {text}...: too long",
  card_not_text: "a card must be text, not {type}", empty_card: "empty card", unknown_card: "unknown card {text}",
  accordion_syntax: "cannot read {text}: an Accordion move is X>Y or d", pair_syntax: "cannot read {text}: a pair is X+Y",
  pyramid_syntax: "cannot read {text}: a Pyramid move is X+Y, a king (KS), d or r", king_alone: "cannot read {text}: only a king is removed alone; a pair is X+Y",
  ace_out: "cannot read {text}: aces are out of play in Gaps", two_to_row: "cannot read {text}: only a 2 is sent to a row (2S@1)", row_range: "cannot read {text}: the row is 1, 2, 3 or 4",
  /* accordion */ not_dealt: "{card} has not been dealt yet",
  not_dealt_forced: "{card} has not been dealt yet, and a move must be made before dealing again (forced variant)",
  not_on_top: "{card} is not on top of a pile", stock_empty: "the stock is empty",
  deal_forced: "a move must be made before dealing again (forced variant)",
  not_left: "{y} is not left of {x}: piles only move left",
  too_far: "{y} is {n} piles left of {x}; a pile moves 1 or 3 places left", no_match: "{x} and {y} share neither suit nor rank",
  /* pyramid */ covered: "{card} is covered by {a}", covered_two: "{card} is covered by {a} and {b}",
  in_waste: "{card} is in the waste under {top}", in_stock: "{card} is in the stock",
  on_foundation: "{card} is already on the foundation", stock_waste_empty: "the stock and the waste are empty",
  stock_empty_no_pass: "the stock is empty and no pass through it is left (at most {n})",
  stock_empty_recycle: "the stock is empty: recycle the waste with r", stock_not_empty: "the stock is not empty yet",
  waste_empty: "the waste is empty", no_pass: "no pass through the stock is left (at most {n})", not_king: "{card} is not a king",
  not_13: "{a} and {b} do not sum to 13",
  /* gaps */ needs_row_of: "{card} needs a row: rows {rows} have a gap in column 1; write {card}@R",
  needs_row_none: "{card} needs a row: no row has a gap in column 1; write {card}@R", won: "the game is won",
  redeal_not_blocked: "a redeal is allowed only when blocked, and a move exists", no_redeal: "no redeal left (at most {n})",
  aces_out: "aces are out of play in Gaps", needs_row: "{card} needs a row 1..4 ({card}@R)",
  row_taken: "row {row} has no gap in column 1 ({card} is there)", two_only: "only a 2 is sent to a row; {card} goes right of {prev}",
  row_end: "{prev} ends its row: there is no place right of it", not_gap: "the place right of {prev} holds {card}, not a gap",
};
const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
let LAST = null; // the reason last made: an IllegalMoveError of its text takes its code
function why(code, params) {
  const text = fill(REASONS[code], params);
  LAST = { code, params: params || {}, text };
  return text;
}
const invalid = (code, params) => new InvalidMoveError(why(code, params));

// --- Python's view of text: whitespace, repr(), type names ------------------------------
const WS = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${WS}]+|[${WS}]+$`, "gu");
const RUNS = new RegExp(`[${WS}]+`, "u");
export const strip = (s) => s.replace(EDGES, ""); // str.strip(): JS trim() knows other spaces
export const split = (s) => { const t = strip(s); return t ? t.split(RUNS) : []; }; // str.split()
const ASCII = /^[\x00-\x7f]*$/;
const NONPRINT = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const hex = (c, n) => c.toString(16).padStart(n, "0");

/** Python's repr() of a string (the reasons quote what was sent with it). */
export function repr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === q || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + hex(c, 2);
    else if (c < 0x7f || !NONPRINT.test(ch)) out += ch;
    else out += c <= 0xff ? "\\x" + hex(c, 2) : c <= 0xffff ? "\\u" + hex(c, 4) : "\\U" + hex(c, 8);
  }
  return out + q;
}

const reprAny = (x) => (typeof x === "string" ? repr(x) : x === null || x === undefined ? "None"
  : typeof x === "boolean" ? (x ? "True" : "False") : String(x));

export class PyValue { constructor(type) { this.type = type; } } // a JSON value that is no move
export function typeName(x) { // type(x).__name__ of the value JSON would have given Python
  if (x === null || x === undefined) return "NoneType";
  if (Array.isArray(x)) return "list";
  if (x instanceof PyValue) return x.type;
  return { string: "str", boolean: "bool", bigint: "int", object: "dict" }[typeof x]
    || (Number.isInteger(x) ? "int" : typeof x === "number" ? "float" : typeof x);
}

// --- Cards (dailydeal/cards.py) -----------------------------------------------------------
export const CARD_NAMES = [];
for (const s of "SHDC") for (const r of "A23456789TJQK") CARD_NAMES.push(r + s);
const CARD_OF = new Map(CARD_NAMES.map((n, i) => [n, i]));
const SYMBOLS = "♠♥♦♣♤♡♢♧"; // filled and outline, read as "SHDCSHDC"
const name = (c) => CARD_NAMES[c];
const names = (cs) => cs.map(name);
const value = (c) => (c % 13) + 1;
const EMPTY = 52; // no card here (a gap; an empty waste)

/** One card in any spelling of docs/rules.md ("TD", "10d", "10♦") -> 0..51. An error is
 *  built only for text that is no card (building one costs more than reading a card). */
export function parseCard(text) {
  if (typeof text !== "string") throw invalid("card_not_text", { type: typeName(text) });
  const card = CARD_OF.get(text); // the usual spelling, as the board and the solvers write it
  if (card !== undefined) return card;
  const t = strip(text);
  if (!t) throw invalid("empty_card");
  const read = readCard(t);
  if (read === undefined) throw invalid("unknown_card", { text: repr(text) });
  return read;
}

/** A card in any spelling (``t`` stripped, not empty), or undefined. */
function readCard(t) {
  const cs = Array.from(t);
  if (cs.length > 4) return undefined;
  const last = cs.pop(), head = cs.join(""), sym = SYMBOLS.indexOf(last);
  if (!ASCII.test(head) || !(ASCII.test(last) || sym >= 0)) return undefined;
  let r = head.toUpperCase();
  if (r === "10") r = "T";
  return CARD_OF.get(r + (sym >= 0 ? "SHDC"[sym % 4] : last.toUpperCase()));
}

function checkDeck(cards) {
  const bad = cards.filter((c) => !Number.isInteger(c) || c < 0 || c >= 52);
  if (bad.length) throw new InvalidMoveError(`a card number is an integer 0..51, not ${reprAny(bad[0])}`);
  const seen = new Set(), doubles = [];
  for (const c of cards) { if (seen.has(c)) doubles.push(name(c)); seen.add(c); }
  const missing = CARD_NAMES.filter((_, c) => !seen.has(c));
  if (doubles.length || missing.length || cards.length !== 52) {
    const parts = [`a deal is the 52 cards each once; got ${cards.length} cards`];
    if (doubles.length) parts.push("twice: " + doubles.join(" "));
    if (missing.length) parts.push("missing: " + missing.join(" "));
    throw new InvalidMoveError(parts.join("; "));
  }
}

/** An explicit deal as Game.from_cards reads it: text, card names or card numbers. */
function readDeck(cards) {
  if (typeof cards !== "string" && !Array.isArray(cards)) {
    throw new InvalidMoveError(`a deal is text or a list of 52 cards, not ${typeName(cards)}`);
  }
  const items = typeof cards === "string" ? split(cards.replaceAll(",", " ")) : cards;
  const deck = typeof cards === "string" || typeof items[0] === "string" ? items.map(parseCard) : [...items];
  checkDeck(deck);
  return deck;
}

/** The 52 cards of a deal JSON (the API's "deal"), in dealing order. Gaps shows its aces as
 *  gaps (null): they are put back in suit order, which changes nothing (aces never play). */
export function cardsFromDeal(game, deal) {
  const g = checkGame(game);
  if (g === "accordion") return [...deal.stock];
  if (g === "pyramid") return [...deal.pyramid.flat(), ...deal.stock];
  const aces = ["AS", "AH", "AD", "AC"];
  return deal.rows.flat().map((c) => (c === null ? aces.shift() : c));
}

// --- The portable shuffle (docs/deals.md, dailydeal/shuffle.py) -------------------------
const MASK = (1n << 64n) - 1n;
const MAX_SEED = MASK;

class SplitMix64 {
  constructor(state) { this.state = state & MASK; }
  next() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }
  below(n) { // uniform in 0..n-1 by rejection (docs/deals.md section 3)
    const maxOk = MASK - ((MASK % n) + 1n) % n;
    for (;;) { const x = this.next(); if (x <= maxOk) return Number(x % n); }
  }
}
const substream = (seed, k) => new SplitMix64(seed ^ ((BigInt(k) * 0xD1B54A32D192ED03n) & MASK));

function shuffle(items, rng) { // Fisher-Yates from the top down, on a copy
  const out = items.slice();
  for (let i = out.length - 1; i >= 1; i--) {
    const j = rng.below(BigInt(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A seed (BigInt, safe integer Number or decimal text) -> BigInt 0..2**64-1, else an Error. */
export function checkSeed(seed) {
  let n = null;
  if (typeof seed === "bigint") n = seed;
  else if (typeof seed === "number" && Number.isSafeInteger(seed)) n = BigInt(seed);
  else if (typeof seed === "string" && /^[0-9]+$/.test(seed)) n = BigInt(seed);
  if (n === null) throw new Error(`a seed is an integer 0..${MAX_SEED}, not ${reprAny(seed)}`);
  if (n < 0n || n > MAX_SEED) throw new Error(`a seed is an integer 0..${MAX_SEED}, not ${n}`);
  return n;
}

const deckOf = (seed) => shuffle([...Array(52).keys()], substream(checkSeed(seed), 0));

/** The cards of a numbered deal, in dealing order (every game deals the same deck). */
export function dealFromSeed(game, seed) {
  checkGame(game);
  return names(deckOf(seed));
}

// --- A game: what every game offers (dailydeal/games/base.py) ---------------------------
// Moves are small objects ({k: kind, ...}); every public method takes and gives the
// notation's text, canonical as Python's str() of a move.
class Game {
  constructor(cards, seed, variant) {
    this.cards = cards; this.seed = seed; this.variant = variant.name; this.rules = variant;
    this.stack = []; this.undoInfo = [];
  }
  get game() { return this.name; }
  get moves() { return this.stack.map((m) => this.fmt(m)); }
  /** Read one move (base.Game.parse_move) -> the move object. */
  read(text) {
    if (typeof text !== "string") throw invalid("move_not_text", { type: typeName(text) });
    const t = strip(text);
    if (!t) throw invalid("empty_move");
    const cs = Array.from(t);
    if (cs.length > 16) throw invalid("too_long", { text: repr(cs.slice(0, 16).join("")) });
    return this.parse(t);
  }
  parseMove(text) { return this.fmt(this.read(text)); }
  move(m) {
    const reason = this.reason(m);
    if (reason !== null) throw new IllegalMoveError(reason);
    this.apply(m);
    this.stack.push(m);
  }
  push(text) { const m = this.read(text); this.move(m); return this.fmt(m); }
  pop() {
    if (!this.stack.length) throw new Error("pop from empty list");
    const m = this.stack.pop();
    this.undo(m);
    return this.fmt(m);
  }
  playMove(m) { this.move(m); return [m]; }
  play(text) { return this.playMove(this.read(text)).map((m) => this.fmt(m)); }
  finishMoves() { return []; }
  finish() { return this.finishMoves().map((m) => this.fmt(m)); }
  legalMoves() { return this.legal().map((m) => this.fmt(m)); }
  isOver() { return this.status() !== "in progress"; }
  copy() {
    const g = new this.constructor(this.cards, this.seed, this.rules);
    for (const m of this.stack) g.move(m);
    return g;
  }
  toJSON() {
    const s = this.seed;
    return {
      game: this.name, variant: this.variant,
      seed: s === null ? null : s <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(s) : String(s),
      position: this.position(), state: this.status(), score: this.score(),
      moves: this.moves, legal_moves: this.legalMoves(),
    };
  }
}

// --- Accordion (dailydeal/games/accordion.py, rules/accordion.py) -----------------------
const JUMPS = [1, 3];
const matches = (a, b) => Math.floor(a / 13) === Math.floor(b / 13) || a % 13 === b % 13;
const DEAL = { k: "d" };

class Accordion extends Game {
  constructor(cards, seed, variant) {
    super(cards, seed, variant);
    this.dealt = 0;
    this.order = []; // card -> its place in the stock
    cards.forEach((c, n) => { this.order[c] = n; });
    this.piles = [];
    if (variant.open) { this.piles = cards.map((c) => [c]); this.dealt = 52; }
  }
  get name() { return "accordion"; }
  static placesOf(m) { return m.k === "d" ? { from: null, to: "draw" } : { from: name(m.src), to: name(m.dst) }; }
  static moveAt(from, to) {
    if (from === null) return to === "draw" ? DEAL : null;
    return typeof from === "number" && typeof to === "number" && from !== to ? { k: "m", src: from, dst: to } : null;
  }
  static parts(m) { return m.k === "d" ? { kind: "deal", cards: [] } : { kind: "pile", cards: names([m.src, m.dst]) }; }
  fmt(m) { return m.k === "d" ? "d" : `${name(m.src)}>${name(m.dst)}`; }
  parse(text) {
    if (text.toLowerCase() === "d") return DEAL;
    const parts = text.split(">");
    if (parts.length !== 2) throw invalid("accordion_syntax", { text: repr(text) });
    return { k: "m", src: parseCard(parts[0]), dst: parseCard(parts[1]) };
  }
  tops() { return this.piles.map((p) => p[p.length - 1]); }
  pileMoves() { // (source, destination) indices, by source, then by jump
    const row = this.tops(), out = [];
    for (let i = 1; i < row.length; i++) {
      for (const k of JUMPS) if (i >= k && matches(row[i], row[i - k])) out.push([i, i - k]);
    }
    return out;
  }
  canDeal() { return this.dealt < 52 && !(this.rules.forced && this.pileMoves().length > 0); }
  legal() {
    const row = this.tops();
    const moves = this.pileMoves().map(([i, j]) => ({ k: "m", src: row[i], dst: row[j] }));
    if (this.canDeal()) moves.push(DEAL);
    return moves;
  }
  pileOf(card) { const i = this.tops().indexOf(card); return i < 0 ? null : i; }
  isDealt(card) { return this.order[card] < this.dealt; }
  where(card) {
    if (!this.isDealt(card)) {
      if (this.rules.forced && this.pileMoves().length) {
        return why("not_dealt_forced", { card: name(card) });
      }
      return why("not_dealt", { card: name(card) });
    }
    return why("not_on_top", { card: name(card) });
  }
  reason(m) {
    if (m.k === "d") {
      if (this.canDeal()) return null;
      return this.dealt >= 52 ? why("stock_empty") : why("deal_forced");
    }
    const i = this.pileOf(m.src);
    if (i === null) return this.where(m.src);
    const j = this.pileOf(m.dst);
    if (j === null) return this.where(m.dst);
    const x = name(m.src), y = name(m.dst);
    if (j >= i) return why("not_left", { x, y });
    if (!JUMPS.includes(i - j)) return why("too_far", { x, y, n: i - j });
    if (!matches(m.src, m.dst)) return why("no_match", { x, y });
    return null;
  }
  apply(m) {
    if (m.k === "d") { this.piles.push([this.cards[this.dealt++]]); return; }
    const i = this.pileOf(m.src), j = this.pileOf(m.dst);
    const [moved] = this.piles.splice(i, 1);
    this.piles[j].push(...moved);
    this.undoInfo.push([i, j, moved.length]);
  }
  undo(m) {
    if (m.k === "d") { this.piles.pop(); this.dealt--; return; }
    const [i, j, n] = this.undoInfo.pop();
    this.piles.splice(i, 0, this.piles[j].splice(-n, n));
  }
  playMove(m) { // deal lazily, just enough to bring the moving card into the row
    const pushed = [];
    if (m.k === "m" && !this.isDealt(m.src)) {
      while (this.canDeal()) {
        this.move(DEAL); pushed.push(DEAL);
        if (this.cards[this.dealt - 1] === m.src) break;
      }
    }
    try {
      this.move(m);
    } catch (e) {
      for (const _ of pushed) this.pop(); // a rejected move leaves the position as it was
      throw e;
    }
    return [...pushed, m];
  }
  finishMoves() {
    const pushed = [];
    while (this.canDeal()) { this.move(DEAL); pushed.push(DEAL); }
    return pushed;
  }
  status() {
    if (this.dealt === 52 && this.piles.length === 1) return "won";
    return this.dealt < 52 || this.pileMoves().length ? "in progress" : "lost";
  }
  score() { return this.piles.length + 52 - this.dealt; } // undealt cards count as piles
  position() {
    return { piles: this.piles.map((p) => ({ top: name(p[p.length - 1]), cards: names(p) })), stock_count: 52 - this.dealt };
  }
}

// --- Pyramid (dailydeal/games/pyramid.py, rules/pyramid.py) -----------------------------
const SIZE = 28;
const ROW_OF = [], PLACE_OF = [], COVERS = [];
for (let r = 0; r < 7; r++) {
  for (let p = 0; p <= r; p++) {
    ROW_OF.push(r); PLACE_OF.push(p);
    const b = ((r + 1) * (r + 2)) / 2 + p;
    COVERS.push(r === 6 ? [] : [b, b + 1]);
  }
}
const COVER_MASK = COVERS.map((cs) => cs.reduce((m, c) => m | (1 << c), 0));
const FREE = new Map();
function freePlaces(mask) { // accessible places: filled, and nothing covering them is left
  let got = FREE.get(mask);
  if (!got) {
    got = [];
    for (let i = 0; i < SIZE; i++) if ((mask >> i) & 1 && !(mask & COVER_MASK[i])) got.push(i);
    FREE.set(mask, got);
  }
  return got;
}
const isKing = (c) => c % 13 === 12;
const isPair = (a, b) => (a % 13) + (b % 13) === 11; // values sum to 13
const DRAW = { k: "d" }, RECYCLE = { k: "r" };
const pair = (a, b) => ({ k: "p", a: Math.min(a, b), b: Math.max(a, b) });
const rowsOf = (cells, n) => Array.from({ length: 7 }, (_, r) =>
  Array.from({ length: r + 1 }, (_, p) => { const c = cells[(r * (r + 1)) / 2 + p]; return c === n ? null : name(c); }));

class Pyramid extends Game {
  constructor(cards, seed, variant) {
    super(cards, seed, variant);
    this.mask = (1 << SIZE) - 1;
    this.place = new Map(cards.slice(0, SIZE).map((c, i) => [c, i]));
    this.stock = cards.slice(SIZE).reverse(); // next drawn last
    this.waste = []; // top last
    this.recycles = 0;
  }
  get name() { return "pyramid"; }
  static placesOf(m) {
    if (m.k === "p") return { from: name(m.a), to: name(m.b), mutual: true }; // a pair either way
    return m.k === "k" ? { from: name(m.card), to: name(m.card) } : { from: null, to: m.k === "d" ? "draw" : "recycle" };
  }
  static moveAt(from, to) { // a king goes by itself and pairs with nothing
    if (from === null) return to === "draw" ? DRAW : to === "recycle" ? RECYCLE : typeof to === "number" && isKing(to) ? { k: "k", card: to } : null;
    const cards = typeof from === "number" && typeof to === "number";
    return cards && from !== to && !isKing(from) && !isKing(to) ? pair(from, to) : null;
  }
  static parts(m) { return m.k === "p" ? { kind: "pair", cards: names([m.a, m.b]) } : m.k === "k" ? { kind: "king", cards: [name(m.card)] } : { kind: m.k === "d" ? "draw" : "recycle", cards: [] }; }
  fmt(m) { return m.k === "p" ? `${name(m.a)}+${name(m.b)}` : m.k === "k" ? name(m.card) : m.k; }
  parse(text) {
    const low = text.toLowerCase();
    if (low === "d") return DRAW;
    if (low === "r") return RECYCLE;
    if (text.includes("+")) {
      const parts = text.split("+");
      if (parts.length !== 2) throw invalid("pair_syntax", { text: repr(text) });
      return pair(parseCard(parts[0]), parseCard(parts[1]));
    }
    let card;
    try { card = parseCard(text); } catch (e) {
      throw invalid("pyramid_syntax", { text: repr(text) });
    }
    if (!isKing(card)) throw invalid("king_alone", { text: repr(text) });
    return { k: "k", card };
  }
  top() { return this.waste.length ? this.waste[this.waste.length - 1] : EMPTY; }
  mayRecycle() { return this.rules.passes === null || this.recycles < this.rules.passes - 1; }
  legal() {
    const cards = this.cards, places = freePlaces(this.mask), top = this.top(), moves = [];
    places.forEach((a, n) => {
      for (const b of places.slice(n + 1)) if (isPair(cards[a], cards[b])) moves.push(pair(cards[a], cards[b]));
      if (top !== EMPTY && isPair(cards[a], top)) moves.push(pair(cards[a], top));
    });
    for (const i of places) if (isKing(cards[i])) moves.push({ k: "k", card: cards[i] });
    if (top !== EMPTY && isKing(top)) moves.push({ k: "k", card: top });
    if (this.stock.length) moves.push(DRAW);
    else if (this.waste.length && this.mayRecycle()) moves.push(RECYCLE);
    return moves;
  }
  locate(card) { // null when the card is accessible, else why not
    const i = this.place.get(card);
    if (i !== undefined && (this.mask >> i) & 1) {
      const covering = COVERS[i].filter((k) => (this.mask >> k) & 1).map((k) => name(this.cards[k]));
      return covering.length ? why(covering.length > 1 ? "covered_two" : "covered", { card: name(card), a: covering[0], b: covering[1] }) : null;
    }
    if (this.top() === card) return null;
    if (this.waste.includes(card)) return why("in_waste", { card: name(card), top: name(this.top()) });
    if (this.stock.includes(card)) return why("in_stock", { card: name(card) });
    return why("on_foundation", { card: name(card) });
  }
  emptyStockReason() { // the recycle is offered only when it is allowed
    if (!this.waste.length) return why("stock_waste_empty");
    if (!this.mayRecycle()) return why("stock_empty_no_pass", { n: this.rules.passes });
    return why("stock_empty_recycle");
  }
  reason(m) {
    if (m.k === "d") return this.stock.length ? null : this.emptyStockReason();
    if (m.k === "r") {
      if (this.stock.length) return why("stock_not_empty");
      if (!this.waste.length) return why("waste_empty");
      return this.mayRecycle() ? null : why("no_pass", { n: this.rules.passes });
    }
    if (m.k === "k") return isKing(m.card) ? this.locate(m.card) : why("not_king", { card: name(m.card) });
    if (!isPair(m.a, m.b)) return why("not_13", { a: name(m.a), b: name(m.b) });
    return this.locate(m.a) || this.locate(m.b);
  }
  apply(m) {
    if (m.k === "d") this.waste.push(this.stock.pop());
    else if (m.k === "r") { this.stock = this.waste.reverse(); this.waste = []; this.recycles++; }
    else {
      const undo = [];
      for (const card of m.k === "k" ? [m.card] : [m.a, m.b]) {
        const i = this.place.get(card);
        if (i !== undefined && (this.mask >> i) & 1) { this.mask &= ~(1 << i); undo.push(["p", i]); }
        else { this.waste.pop(); undo.push(["w", card]); }
      }
      this.undoInfo.push(undo);
    }
  }
  undo(m) {
    if (m.k === "d") this.stock.push(this.waste.pop());
    else if (m.k === "r") { this.waste = this.stock.reverse(); this.stock = []; this.recycles--; }
    else {
      for (const [kind, x] of this.undoInfo.pop().reverse()) {
        if (kind === "p") this.mask |= 1 << x; else this.waste.push(x);
      }
    }
  }
  /** Can draws and recycles lead to removing another pyramid card? (If not: lost.) */
  canProgress() {
    const values = new Set(freePlaces(this.mask).map((i) => value(this.cards[i])));
    if (values.has(13) || [...values].some((v) => values.has(13 - v))) return true;
    const reach = [...this.stock];
    if (this.mayRecycle()) reach.push(...this.waste);
    else {
      for (let n = this.waste.length - 1; n >= 0; n--) { reach.push(this.waste[n]); if (!isKing(this.waste[n])) break; }
    }
    return reach.some((c) => values.has(13 - value(c)));
  }
  status() { return this.mask === 0 ? "won" : this.canProgress() ? "in progress" : "lost"; }
  score() { let n = 0; for (let m = this.mask; m; m &= m - 1) n++; return n; } // pyramid cards left
  position() {
    const passes = this.rules.passes;
    return {
      pyramid: rowsOf(this.cards.map((c, i) => (i < SIZE && (this.mask >> i) & 1 ? c : EMPTY)), EMPTY),
      stock_count: this.stock.length,
      waste: names(this.waste),
      accessible: freePlaces(this.mask).map((i) => name(this.cards[i])),
      passes_left: passes === null ? null : passes - this.recycles,
    };
  }
}

// --- Gaps (dailydeal/games/gaps.py, rules/gaps.py) --------------------------------------
const TWOS = [1, 14, 27, 40]; // any 2 may go to column 1, in suit order
const REDEAL = { k: "R" };
const fits = (cells, g) => {
  if (g % 13 === 0) return TWOS;
  const c = cells[g - 1]; // nothing goes right of a king or of a gap
  return c === EMPTY || c % 13 === 12 ? [] : [c + 1];
};
function keptLengths(cells) { // per row, the run 2, 3, ... of one suit from column 1
  const out = [];
  for (let base = 0; base < 52; base += 13) {
    const first = cells[base];
    let n = 0;
    if (first % 13 === 1) { n = 1; while (n < 12 && cells[base + n] === first + n) n++; }
    out.push(n);
  }
  return out;
}
const positions = (cells) => { const pos = Array(53).fill(-1); cells.forEach((c, i) => { if (c !== EMPTY) pos[c] = i; }); return pos; };

class Gaps extends Game {
  constructor(cards, seed, variant) {
    super(cards, seed, variant);
    this.cells = cards.map((c) => (c % 13 === 0 ? EMPTY : c)); // the aces leave for good
    this.pos = positions(this.cells);
    this.redealsUsed = 0;
  }
  get name() { return "gaps"; }
  static placesOf(m, position) {
    if (m.k === "R") return { from: null, to: "redeal" };
    if (m.row !== null) return { from: name(m.card), to: `${m.row},1` };
    const gap = gapOf(position, m.card); // the card's gap, or the card itself: one click
    return { from: name(m.card), to: gap ? `${gap.row},${gap.column}` : name(m.card) };
  }
  static moveAt(from, to, state) {
    const card = (c) => ({ k: "p", card: c, row: null }), rowOf = (place) => Number(place.split(",")[0]);
    if (from === null) {
      if (to === "redeal") return REDEAL;
      if (typeof to === "string") { const g = gapAt(state.position, to); return g && CARD_OF.has(g.accepts) ? card(CARD_OF.get(g.accepts)) : null; }
      if (value(to) !== 2) return card(to);
      const rows = targets(state, name(to)); // a 2 with a choice of rows waits for its row
      return rows.size > 1 ? null : rows.size ? rows.values().next().value : card(to);
    }
    if (typeof from === "string" && typeof to === "number") return from.endsWith(",1") && value(to) === 2 ? { k: "p", card: to, row: rowOf(from) } : null;
    if (typeof from !== "number" || typeof to !== "string" || !to.includes(",")) return null;
    if (value(from) === 2) return to.endsWith(",1") ? { k: "p", card: from, row: rowOf(to) } : null;
    const g = gapAt(state.position, to);
    return g && g.accepts === name(from) ? card(from) : null;
  }
  static parts(m) { return m.k === "R" ? { kind: "redeal", cards: [] } : { kind: m.row === null ? "gap" : "two", cards: [name(m.card)], row: m.row }; }
  fmt(m) { return m.k === "R" ? "R" : name(m.card) + (m.row === null ? "" : `@${m.row}`); }
  parse(text) {
    if (text === "R" || text === "r") return REDEAL;
    const at = text.indexOf("@");
    const card = parseCard(at < 0 ? text : text.slice(0, at));
    if (value(card) === 1) throw invalid("ace_out", { text: repr(text) });
    if (at >= 0) {
      if (value(card) !== 2) throw invalid("two_to_row", { text: repr(text) });
      const row = text.slice(at + 1);
      if (!["1", "2", "3", "4"].includes(row)) throw invalid("row_range", { text: repr(text) });
      return { k: "p", card, row: Number(row) };
    }
    if (value(card) === 2) {
      const rows = this.columnOneGaps();
      if (rows.length !== 1) {
        throw new IllegalMoveError(rows.length ? why("needs_row_of", { card: name(card), rows: rows.join(", ") }) : why("needs_row_none", { card: name(card) }));
      }
      return { k: "p", card, row: rows[0] };
    }
    return { k: "p", card, row: null };
  }
  columnOneGaps() { return [1, 2, 3, 4].filter((r) => this.cells[(r - 1) * 13] === EMPTY); }
  placeMoves() { // by destination cell, the 2s in suit order
    const out = [];
    this.cells.forEach((c, g) => {
      if (c === EMPTY) for (const card of fits(this.cells, g)) out.push({ k: "p", card, row: card % 13 === 1 ? Math.floor(g / 13) + 1 : null });
    });
    return out;
  }
  redealsLeft() { return this.rules.redeals - this.redealsUsed; }
  isComplete() { return keptLengths(this.cells).every((n) => n === 12); }
  legal() {
    const moves = this.placeMoves();
    if (!moves.length && this.redealsLeft() > 0 && !this.isComplete()) moves.push(REDEAL);
    return moves;
  }
  target(m) { return m.row !== null ? (m.row - 1) * 13 : this.pos[m.card - 1] + 1; }
  reason(m) {
    if (m.k === "R") {
      if (this.isComplete()) return why("won");
      if (this.placeMoves().length) return why("redeal_not_blocked");
      return this.redealsLeft() <= 0 ? why("no_redeal", { n: this.rules.redeals }) : null;
    }
    const card = m.card;
    if (value(card) === 1) return why("aces_out");
    if (value(card) === 2) {
      if (m.row === null || m.row < 1 || m.row > 4) return why("needs_row", { card: name(card) });
      const there = this.cells[this.target(m)];
      return there === EMPTY ? null : why("row_taken", { row: m.row, card: name(there) });
    }
    if (m.row !== null) return why("two_only", { card: name(card), prev: name(card - 1) });
    if (this.pos[card - 1] % 13 === 12) return why("row_end", { prev: name(card - 1) });
    const right = this.cells[this.target(m)];
    return right === EMPTY ? null : why("not_gap", { prev: name(card - 1), card: name(right) });
  }
  apply(m) {
    if (m.k === "R") {
      this.undoInfo.push(this.cells);
      this.redealsUsed++;
      this.cells = redeal(this.cells, this.seed === null ? 0n : this.seed, this.redealsUsed);
      this.pos = positions(this.cells);
      return;
    }
    const dst = this.target(m), src = this.pos[m.card];
    this.cells[src] = EMPTY; this.cells[dst] = m.card; this.pos[m.card] = dst;
    this.undoInfo.push(src);
  }
  undo(m) {
    const info = this.undoInfo.pop();
    if (m.k === "R") { this.cells = info; this.redealsUsed--; this.pos = positions(this.cells); return; }
    this.cells[this.pos[m.card]] = EMPTY; this.cells[info] = m.card; this.pos[m.card] = info;
  }
  status() {
    if (this.isComplete()) return "won";
    return this.placeMoves().length || this.redealsLeft() > 0 ? "in progress" : "lost";
  }
  score() { return keptLengths(this.cells).reduce((a, b) => a + b, 0); } // cards in kept runs
  position() {
    const gaps = [];
    this.cells.forEach((c, g) => {
      if (c !== EMPTY) return;
      const f = fits(this.cells, g);
      gaps.push({ row: Math.floor(g / 13) + 1, column: (g % 13) + 1, accepts: g % 13 === 0 ? "any 2" : f.length ? name(f[0]) : null });
    });
    return {
      rows: [0, 1, 2, 3].map((r) => this.cells.slice(r * 13, r * 13 + 13).map((c) => (c === EMPTY ? null : name(c)))),
      gaps, kept: keptLengths(this.cells), redeals_used: this.redealsUsed, redeals_left: this.redealsLeft(),
    };
  }
}

/** Redeal number k (docs/deals.md section 7): the kept runs stay, the rest is collected,
 *  sorted, shuffled by substream k of the seed and dealt back with one gap after each run. */
function redeal(cells, seed, k) {
  const kept = keptLengths(cells), collected = [];
  kept.forEach((n, r) => { for (let c = r * 13 + n; c < r * 13 + 13; c++) if (cells[c] !== EMPTY) collected.push(cells[c]); });
  const dealt = shuffle(collected.sort((a, b) => a - b), substream(seed, k));
  const out = cells.slice();
  let next = 0;
  kept.forEach((n, r) => {
    out[r * 13 + n] = EMPTY;
    for (let c = n + 1; c < 13; c++) out[r * 13 + c] = dealt[next++];
  });
  return out;
}

// --- The registry (dailydeal/games/__init__.py) -----------------------------------------
const CLASSES = { accordion: Accordion, pyramid: Pyramid, gaps: Gaps };
const LISTED = {
  accordion: [["standard", "moves optional, cards dealt one by one", {}],
    ["forced", "a move, when one exists, must be made before dealing again", { forced: true }],
    ["open", "all 52 cards dealt before the first move", { open: true }]],
  pyramid: [["relaxed", "clear the pyramid; unlimited recycles", { passes: null }], ...[1, 2, 3].map((n) => numbered("pyramid", n))],
  gaps: [["standard", "two redeals, a redeal only when blocked", { redeals: 2 }], ...[0, 1, 3].map((n) => numbered("gaps", n))],
};
const NUMBERED = { pyramid: ["passes", 1, 99], gaps: ["redeals", 0, 9] };
const ALIASES = { "gaps redeals=2": "standard", "gaps addiction": "redeals=3" };
function numbered(game, n) {
  if (game === "pyramid") return [`passes=${n}`, `at most ${n} passes through the stock`, { passes: n }];
  return n === 2 ? LISTED.gaps[0] : [`redeals=${n}`, `${n} redeals`, { redeals: n }];
}

function checkGame(game) {
  if (typeof game !== "string" || !GAMES.includes(game.toLowerCase())) {
    throw new Error(`unknown game ${reprAny(game)}; games: ${GAMES.join(", ")}`);
  }
  return game.toLowerCase();
}

/** The variant names the registry lists for a game (the first is its default). Any other
 *  spelling get_game accepts (passes=7, redeals=02, ADDICTION) is accepted by newGame. */
export function variants(game) { return LISTED[checkGame(game)].map(([v]) => v); }

/** A variant as get_game reads it -> {name, description, forced, open, passes, redeals}. */
export function variantOf(game, variant = null) {
  const g = checkGame(game);
  let found;
  if (variant === null || variant === undefined || variant === "") found = LISTED[g][0];
  else {
    if (typeof variant !== "string") throw new Error(`a variant is text, not ${typeName(variant)}`);
    const low = variant.toLowerCase(), v = ALIASES[`${g} ${low}`] ?? low;
    found = LISTED[g].find(([n]) => n === v);
    const eq = v.indexOf("="), key = eq < 0 ? v : v.slice(0, eq), number = eq < 0 ? "" : v.slice(eq + 1);
    if (!found && NUMBERED[g] && NUMBERED[g][0] === key && /^[0-9]+$/.test(number)) {
      const [, lo, hi] = NUMBERED[g], n = BigInt(number);
      if (n < lo || n > hi) throw new Error(`unknown variant ${repr(variant)} of ${g}: ${key}=N needs ${lo} <= N <= ${hi}, not ${n}`);
      found = numbered(g, Number(n));
    }
    if (!found) throw new Error(`unknown variant ${repr(variant)} of ${g}; variants: ${variants(g).join(", ")}`);
  }
  const [vname, description, settings] = found;
  return { game: g, name: vname, description, forced: false, open: false, passes: null, redeals: 2, ...settings };
}

/** A game from a deal: ``cards`` (52 names in dealing order, text, or card numbers) or, when
 *  ``cards`` is null, the numbered deal of ``seed``. The seed also drives Gaps redeals. */
export function newGame(game, variant = null, cards = null, seed = null) {
  const v = variantOf(game, variant);
  const s = seed === null || seed === undefined ? null : checkSeed(seed);
  if (cards === null || cards === undefined) {
    if (s === null) throw new Error("give either a seed or the cards of a deal");
    cards = deckOf(s);
  }
  return new CLASSES[v.game](readDeck(cards), s, v);
}

// --- What a board asks (chessops' dests): the board never reads or writes move text -------
// A place is what a player points at: a card ("7S"), a gap ("3,1": row, column) or a stock
// button ("draw", "recycle", "redeal"). Each game class says how its moves sit on places
// (placesOf, moveAt) and in words; these are the same for every game, over the state JSON.
const gapAt = (position, place) => (position.gaps || []).find((g) => `${g.row},${g.column}` === place);
const gapOf = (position, card) => (position.gaps || []).find((g) => g.accepts === name(card));
const classOf = (state) => CLASSES[checkGame(state.game)];
// a move's text read with only the state JSON (a plain 2 of Gaps asks for the column-1 gaps)
const readMove = (G, move, position = {}) => G.prototype.parse.call(
  { columnOneGaps: () => (position.gaps || []).filter((g) => g.column === 1).map((g) => g.row) }, move);

/** The places a move involves: {from, to} (from null: a stock button; to === from: one click
 *  on the card; mutual: the two cards may be picked in either order). */
export function placesOf(state, move) {
  const G = classOf(state);
  return G.placesOf(readMove(G, move, state.position), state.position);
}

/** Where a card may go now (or, for a gap, the cards that may fill it): Map(place -> move). */
export function targets(state, from) {
  const out = new Map();
  for (const move of state.legal_moves) {
    const p = placesOf(state, move);
    if (p.from === null || p.from === p.to) continue;
    if (p.from === from) out.set(p.to, move);
    else if (p.to === from && (p.mutual || !CARD_OF.has(from))) out.set(p.from, move);
  }
  return out;
}

/** The move a player means by pointing at ``from`` then ``to`` (a card dropped on a place,
 *  two clicks; from null: one click on ``to``), legal or not (the rules then say why not), or
 *  null when it means no move. */
export function moveAt(state, from, to) {
  const card = (p) => (p !== null && CARD_OF.has(p) ? CARD_OF.get(p) : p);
  const G = classOf(state), m = G.moveAt(card(from), card(to), state);
  return m === null || typeof m === "string" ? m : G.prototype.fmt(m);
}

/** A move's parts, for its words said elsewhere (speech.js: a hint, the announcements): {kind, cards,
 *  row}; kind is one of "deal", "pile" (Accordion), "draw", "recycle", "pair", "king"
 *  (Pyramid), "gap", "two", "redeal" (Gaps); cards: the card names it moves, in order. */
export function moveParts(state, move) {
  const G = classOf(state);
  return G.parts(readMove(G, move, state.position));
}
