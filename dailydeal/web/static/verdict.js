// The verdict of a move list (dailydeal/verify.py) and the state endpoint's answer
// (dailydeal/web/api.py), over the games of rules.js: what a player's moves come to, with
// the server's words for a bad list (Python's json module's, for a JSON list).
import { IllegalMoveError, InvalidMoveError, PyValue, newGame, split, strip, typeName } from "./rules.js";

// --- The verdict (dailydeal/verify.py) and the state endpoint (dailydeal/web/api.py) ----
const MAX_MOVES = 5000, MAX_MOVES_TEXT = 100000;

/** A move list as split_moves reads it: text (whitespace or commas, or a JSON list) or a list. */
export function splitMoves(moves) {
  if (typeof moves === "string") {
    const len = moves.length > MAX_MOVES_TEXT ? Array.from(moves).length : 0;
    if (len > MAX_MOVES_TEXT) throw new Error(`move text too long: ${len} characters (at most ${MAX_MOVES_TEXT})`);
    const text = strip(moves);
    moves = text.startsWith("[") ? pyJSON(text) : split(text.replaceAll(",", " "));
  }
  if (!Array.isArray(moves)) throw new Error(`moves are a list of strings or text, not ${typeName(moves)}`);
  if (moves.length > MAX_MOVES) throw new Error(`too many moves: ${moves.length} (at most ${MAX_MOVES})`);
  moves.forEach((m, i) => { if (typeof m !== "string") throw new Error(`move ${i} is ${typeName(m)}, not a string`); });
  return [...moves];
}

/** Replay ``moves`` on ``game`` (in place) -> the verdict JSON of verify.replay; ``coded``:
 *  its error with the reason's code and params as text, as the API gives it (reasons.py). */
export function replay(game, moves, { finish = true, coded = false } = {}) {
  const texts = splitMoves(moves);
  let error = null, played = 0;
  for (const [index, text] of texts.entries()) {
    try {
      game.playMove(game.read(text));
    } catch (e) {
      if (!(e instanceof InvalidMoveError || e instanceof IllegalMoveError)) throw e;
      error = { index, move: text, reason: e.message };
      if (coded) Object.assign(error, { code: e.code, params: Object.fromEntries(Object.entries(e.params || {}).map(([k, v]) => [k, String(v)])) });
      break;
    }
    played++;
  }
  if (error === null && finish) game.finishMoves();
  const state = game.status();
  return { valid: error === null, won: state === "won", state, score: game.score(), moves: played, error };
}

/** What the state endpoint answers (api.state_json): the position after ``moves`` as a
 *  player sees it (no end-of-game dealing); an illegal move stops the replay. */
export function stateJSON(game, variant, cards, seed, moves) {
  const position = newGame(game, variant, cards, seed);
  const verdict = replay(position, moves, { finish: false, coded: true });
  const seedText = position.seed === null ? null : String(position.seed);
  return { valid: verdict.valid, error: verdict.error, ...position.toJSON(), seed: seedText };
}

// --- JSON move text as Python's json module reads it (its words for a bad one) -----------

function pyJSON(s) {
  let i = 0, depth = 0;
  const fail = (msg) => { throw new Error(`the moves look like JSON but are not: ${msg}`); };
  const ws = () => { while (" \t\n\r".includes(s[i]) && i < s.length) i++; };
  const NUM = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
  function str() { // after the opening quote
    let out = "";
    for (;;) {
      const c = s[i++];
      if (c === undefined) fail("Unterminated string starting at");
      if (c === '"') return out;
      if (c < " ") fail("Invalid control character at");
      if (c !== "\\") { out += c; continue; }
      const e = s[i++];
      if (e === undefined) fail("Unterminated string starting at");
      if (e === "u") {
        const h = s.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) fail("Invalid \\uXXXX escape");
        out += String.fromCharCode(parseInt(h, 16)); i += 4;
      } else if ('"\\/bfnrt'.includes(e)) out += { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e] ?? e;
      else fail("Invalid \\escape");
    }
  }
  function val() {
    const c = s[i];
    if (c === '"') { i++; return str(); }
    if (c === "[" || c === "{") {
      if (++depth > 900) throw new Error("the moves look like JSON but are nested too deeply");
      i++; ws();
      const close = c === "[" ? "]" : "}", out = c === "[" ? [] : new PyValue("dict");
      if (s[i] === close) { i++; depth--; return out; }
      for (;;) {
        if (c === "{") {
          if (s[i] !== '"') fail("Expecting property name enclosed in double quotes");
          i++; str(); ws();
          if (s[i] !== ":") fail("Expecting ':' delimiter");
          i++; ws();
        }
        const v = val();
        if (c === "[") out.push(v);
        ws();
        if (s[i] === close) { i++; depth--; return out; }
        if (s[i] !== ",") fail("Expecting ',' delimiter");
        i++; ws();
        if (c === "{" && s[i] !== '"') fail("Expecting property name enclosed in double quotes");
      }
    }
    for (const [word, type] of [["null", "NoneType"], ["true", "bool"], ["false", "bool"], ["NaN", "float"], ["Infinity", "float"], ["-Infinity", "float"]]) {
      if (s.startsWith(word, i)) { i += word.length; return new PyValue(type); }
    }
    NUM.lastIndex = i;
    const m = NUM.exec(s);
    if (!m) fail("Expecting value");
    i += m[0].length;
    return new PyValue(m[1] || m[2] ? "float" : "int");
  }
  const out = val();
  ws();
  if (i !== s.length) fail("Extra data");
  return out;
}
