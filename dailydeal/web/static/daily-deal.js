// <daily-deal>: a solitaire board for the dailydeal API, in a shadow root.
//
// Moves are local, the server referees: the deal is loaded once and every click or drop is
// played by rules.js (the same rules as the server's, held equal by tests) in the same frame,
// drawn from its state (`position`, `legal_moves`, `state`, the same JSON as the API's state
// endpoint, which stays for thin clients and is the fallback when rules.js cannot load). An
// illegal attempt shows the same reason the server gives. The server is asked only for what
// needs it: verifying a win (the verdict shown is its answer), hints, the winnable light,
// results and statistics; a win made offline is queued and verified when the network is back.
//
// Attributes in: deal | game+seed(+variant) | date+game+tier, and api (default: the
// origin this script came from). Events out: dailydeal-move, dailydeal-won, dailydeal-hint,
// dailydeal-result, dailydeal-error. Hints, the winnable light and results are the server's
// answers too (hint, results and stats endpoints).
// Hooks: data-card, data-gap="ROW,COL", data-action, and data-state / data-moves on the
// board and on the element. docs/embedding.md is the contract.

const DEFAULT_API = new URL("/api/v1", import.meta.url).href;
const STORE = "dailydeal.v1";
const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SUITS = { S: ["spades", "♠"], H: ["hearts", "♥"], D: ["diamonds", "♦"], C: ["clubs", "♣"] };
const TIER_MARK = { easy: "🟢", medium: "🟡", hard: "🟠", expert: "🔴" };
// the notation box's placeholder: a few moves of each game (docs/rules.md)
const EXAMPLE = { accordion: "4D>4S", pyramid: "d 7S+6H KC r", gaps: "8C 2S@3 R" };
const LIGHT_TEXT = { off: "off", checking: "…", winnable: "yes", lost: "lost", unknown: "?" };
const WEEK = 7 * 24 * 3600; // the longest time the results endpoint takes
const SCORE_NAME = {
  accordion: ["Piles", "Score: the piles left, lower is better; 1 pile is a win"],
  pyramid: ["Cards left", "Score: the pyramid cards left, lower is better; 0 is a win"],
  gaps: ["In place", "Score: the cards in kept sequences, higher is better; 48 is a win"],
};
const GAME_RE = /(?:^|-)(accordion|pyramid|gaps)(?:-|$)/;
const REDUCED = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
// A longer ?moves= is sent as a POST (not cached): servers refuse request lines over 8190
// bytes (gunicorn, nginx: a 414), and this leaves room for the path.
const MAX_QUERY = 6000;
const isCard = (s) => typeof s === "string" && /^[2-9TJQKA][SHDC]$/.test(s);
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUITS[card[1]][0]}`;
}

// What the element shows differently from game to game: each game's spec
// (GameSpec.browser() in dailydeal/games/spec.py; tests/test_game_spec.py holds this equal).
// The element reads this table and never compares a game's name.
export const SPECS = {"accordion":{"title":"Accordion","shows_par":false,"separator":">","stock_move":"deal a card from the stock","one_card":"","stuck":"has nowhere to go now","kings_alone":false,"fills_gaps":false},"pyramid":{"title":"Pyramid","shows_par":true,"separator":"+","stock_move":"draw a card from the stock","one_card":"remove the {card}","stuck":"has no partner now","kings_alone":true,"fills_gaps":false},"gaps":{"title":"Gaps","shows_par":true,"separator":"","stock_move":"","one_card":"move the {card} into its gap","stuck":"has nowhere to go now","kings_alone":false,"fills_gaps":true}};
const specOf = (game) => SPECS[game] || SPECS.accordion;

/** The par a player can aim at, or null: a game whose spec does not show par (every
 *  Accordion win is 52 deals and 51 moves, so its solution length says nothing). */
export function meaningfulPar(meta) {
  return meta && specOf(meta.game).shows_par && meta.par ? meta.par : null;
}

/** Seconds as the timer shows them: 4:05, 1:02:03. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

// rules.js, the browser's copy of the rules, loaded beside the deal (null when it cannot
// load: then the element asks the server's state endpoint, as thin clients do)
let RULES = null;
function loadRules() {
  if (!RULES) RULES = import(new URL("rules.js", import.meta.url).href).catch(() => null);
  return RULES;
}

// sound: off by default, synthesized (no audio files); one context for the page
let AUDIO = null;
const SOUNDS = {
  move: [[660], 0.05, "triangle", 0.04],
  deal: [[520], 0.04, "sine", 0.04],
  bad: [[190, 150], 0.09, "square", 0.015],
  win: [[523, 659, 784, 1047], 0.22, "sine", 0.05],
};
function play(sound) {
  const [freqs, dur, type, gain] = SOUNDS[sound];
  try {
    AUDIO = AUDIO || new AudioContext();
    const t0 = AUDIO.currentTime + 0.01;
    freqs.forEach((f, i) => {
      const osc = AUDIO.createOscillator();
      const amp = AUDIO.createGain();
      const t = t0 + i * 0.1;
      osc.type = type;
      osc.frequency.value = f;
      amp.gain.setValueAtTime(0.0001, t);
      amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(amp).connect(AUDIO.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
    });
  } catch {
    /* no WebAudio here: silence */
  }
}

// --- results kept in the browser (no account) ------------------------------------------
function readJSON(key, fallback) {
  try {
    const text = localStorage.getItem(`${STORE}.${key}`);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback; // storage disabled or corrupt: play on without it
  }
}
function writeJSON(key, value) {
  try {
    if (value === null) localStorage.removeItem(`${STORE}.${key}`);
    else localStorage.setItem(`${STORE}.${key}`, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the game still works */
  }
}

/** A move of the notation in words, for the hint line ("pair the seven of spades with ..."). */
export function moveInWords(move, game) {
  const words = { d: specOf(game).stock_move, r: "recycle the waste", R: "redeal" }[move];
  if (words) return words;
  const cards = move.match(/[2-9TJQKA][SHDC]/g) || [];
  const [a, b] = cards.map(cardName);
  if (move.includes(">")) return `put the ${a} on the ${b}`;
  if (move.includes("+")) return `pair the ${a} with the ${b}`;
  const row = move.match(/@(\d+)$/);
  if (row) return `move the ${a} to row ${row[1]}`;
  if (a && specOf(game).one_card) return specOf(game).one_card.replace("{card}", a);
  return move;
}

/** This browser's anonymous player id for results: random, made once, kept. */
export function clientId() {
  let id = readJSON("client", null);
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
    // randomUUID needs a secure context; getRandomValues works on plain http too
    id = crypto.randomUUID
      ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    writeJSON("client", id);
  }
  return id;
}

/** Every daily deal this browser solved: {id: {date, game, tier, moves, par, at}}. */
export function results() {
  return readJSON("results", {});
}

/** The moves of a game in progress in this browser (an empty list if none). */
export function progress(key) {
  const moves = readJSON(`progress.${key}`, []);
  return Array.isArray(moves) ? moves : [];
}

// things that waited for the network (a win to verify, a result to post), oldest first
let FLUSHING = null;
function enqueueOffline(item) {
  const queue = readJSON("queue", []);
  const list = Array.isArray(queue) ? queue : [];
  if (!list.some((q) => q.kind === item.kind && (q.key || q.id) === (item.key || item.id))) list.push(item);
  writeJSON("queue", list);
}

function rememberPosted(id, mine) {
  if (!mine) return;
  const posted = readJSON("posted", {});
  posted[id] = { won: mine.won, moves: mine.moves, hints: mine.hints };
  writeJSON("posted", posted);
}

function recordWin(m, moves, hints) {
  if (!m.id) return;
  recordResult(m.id, { date: m.date, game: m.game, tier: m.tier, moves, par: meaningfulPar(m), hints, at: new Date().toISOString() });
}

function recordResult(id, entry) {
  const all = results();
  const old = all[id];
  if (!old || entry.moves < old.moves) all[id] = entry;
  writeJSON("results", all);
}

/** Days in a row, ending today or yesterday (the player's dates), with a daily deal solved. */
export function streak(today) {
  const days = new Set(Object.values(results()).map((r) => r.date));
  const day = new Date(`${today}T12:00:00Z`);
  if (!days.has(today)) day.setUTCDate(day.getUTCDate() - 1);
  let n = 0;
  while (days.has(day.toISOString().slice(0, 10))) {
    n += 1;
    day.setUTCDate(day.getUTCDate() - 1);
  }
  return n;
}

export function localToday() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

// --- styles (a constructed sheet: the host page's CSS cannot reach into the shadow root) --
const CSS = `
:host { display: block; container-type: inline-size; --felt: #1d5e3f; --felt-2: #17492f; --ink: #1b1f1d; --red: #c0262d;
  --gold: #f2c14e; --face: #fffdf7; --line: rgba(0,0,0,.18); --radius: 14px; --glow: #2a7a53;
  --text: var(--ink); --muted: #4b5750; --tool-bg: #fffdf7; --tool-line: #c9c2b2; --tool-hover: #f3efe4; --input-bg: #fff;
  --pill-bg: #e6ece8; --pill-ink: #2d4a3a; --err: #a61b22; --good: #1d6b43; --result-bg: #fff8e1; --result-line: #f0d98a;
  --link: var(--felt); --bg: #f4f1ea; --blue: #1a5fc4; --green: #1f7a35;
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); }
/* dark: the system's choice unless the player chose (data-theme on the element) */
@media (prefers-color-scheme: dark) { :host(:not([data-theme="light"])) { --text: #e4ebe6; --muted: #a7b5ad; --tool-bg: #25302a; --tool-line: #3b4a42; --tool-hover: #2e3b34;
  --input-bg: #1a221e; --pill-bg: #2a3a31; --pill-ink: #cfe4d7; --err: #ff9090; --good: #7ee0a8; --result-bg: #2a2716;
  --result-line: #5c5226; --link: #8fd3a8; --bg: #121715; --felt: #16462f; --felt-2: #0d2b1d; --face: #eceae2;
  --glow: #2a6b4a; color-scheme: dark; background: var(--bg); } }
:host([data-theme="dark"]) { --text: #e4ebe6; --muted: #a7b5ad; --tool-bg: #25302a; --tool-line: #3b4a42; --tool-hover: #2e3b34;
  --input-bg: #1a221e; --pill-bg: #2a3a31; --pill-ink: #cfe4d7; --err: #ff9090; --good: #7ee0a8; --result-bg: #2a2716;
  --result-line: #5c5226; --link: #8fd3a8; --bg: #121715; --felt: #16462f; --felt-2: #0d2b1d; --face: #eceae2;
  --glow: #2a6b4a; color-scheme: dark; background: var(--bg); }
/* dark paints its own ground: its light text stays readable on a light host page */
:host([hidden]), [hidden] { display: none !important; }
* { box-sizing: border-box; }
.dd { display: grid; gap: 10px; }
.bar { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: baseline; padding: 0 2px; }
.stat { font-variant-numeric: tabular-nums; color: var(--muted); }
.stat b { color: var(--text); font-weight: 650; }
.timer b { display: inline-block; min-width: 3.2ch; }
.state-pill { margin-left: auto; padding: 2px 10px; border-radius: 99px; font-size: 13px;
  background: var(--pill-bg); color: var(--pill-ink); font-weight: 600; }
.state-pill[data-s="won"] { background: var(--gold); color: #3d2c00; }
.state-pill[data-s="lost"] { background: #f3d6d6; color: #7a1f1f; }
.board { container-type: inline-size; position: relative; min-height: 180px; padding: 14px;
  border-radius: var(--radius); background: radial-gradient(120% 90% at 50% 0%, var(--glow) 0%, var(--felt) 45%, var(--felt-2) 100%);
  box-shadow: inset 0 0 0 1px rgba(255,255,255,.06), inset 0 8px 30px rgba(0,0,0,.25); user-select: none;
  -webkit-tap-highlight-color: transparent; }
.board[data-state="won"] { box-shadow: inset 0 0 0 3px var(--gold), inset 0 8px 30px rgba(0,0,0,.25); }
.banner { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); padding: 14px 28px; border-radius: 16px;
  background: rgba(255,253,247,.96); color: var(--felt); font-size: 28px; font-weight: 750; letter-spacing: -.01em;
  box-shadow: 0 10px 30px rgba(0,0,0,.35); pointer-events: none; animation: pop .35s cubic-bezier(.2,1.4,.5,1); z-index: 10; }
.banner[data-banner="lost"] { color: #8a2a2a; font-size: 22px; }
@keyframes pop { from { transform: translate(-50%, -50%) scale(.6); opacity: 0; } }
.loading { color: #d8eadf; text-align: center; padding: 60px 0; }
.loading.overlay { position: absolute; inset: 0; margin: 0; padding: 0; display: grid; place-items: center; }
.table { position: relative; }
.fx { position: absolute; inset: 0; pointer-events: none; overflow: visible; z-index: 12; }
.fx .ghost { position: absolute; margin: 0; }
.spark { position: absolute; font-size: 28px; color: var(--gold); text-shadow: 0 2px 6px rgba(0,0,0,.45); opacity: 0; }
.spark.red { color: #ff8b8b; }
button { font: inherit; }
.card, .slot, .gap { --cw: 56px; width: var(--cw); aspect-ratio: 5 / 7; border-radius: calc(var(--cw) * .11);
  position: relative; padding: 0; margin: 0; flex: none; }
.card { background: var(--face); border: 1px solid #d8d0bf; color: var(--ink); cursor: pointer;
  box-shadow: 0 1px 0 rgba(0,0,0,.08), 0 2px 5px rgba(0,0,0,.28); display: block;
  transition: transform .12s ease, box-shadow .12s ease, opacity .2s; font-weight: 650; }
.card.red { color: var(--red); }
:host([data-deck="four"]) .card.s-D { color: var(--blue); }
:host([data-deck="four"]) .card.s-C { color: var(--green); }
.board .card { touch-action: none; }
.card.dragging { z-index: 30; transition: none; pointer-events: none; cursor: grabbing;
  box-shadow: 0 0 0 3px var(--gold), 0 14px 28px rgba(0,0,0,.45); }
.card .corner { position: absolute; left: 7%; top: 5%; display: flex; flex-direction: column; align-items: center;
  font-size: calc(var(--cw) * .27); line-height: .95; letter-spacing: -.02em; }
.card .corner i { font-style: normal; font-size: .9em; }
.card::after { content: attr(data-pip); position: absolute; inset: 0; display: grid; place-items: center; padding-top: 22%;
  font-size: calc(var(--cw) * .5); line-height: 1; }
.card.compact .corner { inset: 0; left: 0; top: 0; justify-content: center; font-size: calc(var(--cw) * .42); gap: 1px; }
.card.compact::after { display: none; }
.card:hover { transform: translateY(-2px); box-shadow: 0 3px 8px rgba(0,0,0,.35); }
.card:focus-visible, .gap:focus-visible, .slot:focus-visible, .tool:focus-visible {
  outline: 3px solid #8fd3ff; outline-offset: 2px; z-index: 5; }
.card.selected { transform: translateY(-5px); box-shadow: 0 0 0 3px var(--gold), 0 8px 16px rgba(0,0,0,.4); z-index: 4; }
.card.target, .gap.target { box-shadow: 0 0 0 3px #7ee0a8, 0 2px 6px rgba(0,0,0,.3); }
.card.blocked { filter: brightness(.9) saturate(.8); }
.card.shake, .gap.shake, .slot.shake { animation: shake .3s ease-in-out; }
@keyframes shake { 20%, 60% { transform: translateX(-4px); } 40%, 80% { transform: translateX(4px); } }
@media (prefers-reduced-motion: reduce) { .card, .shake { animation: none !important; transition: none; } }
.slot { border: 2px dashed rgba(255,255,255,.28); background: rgba(0,0,0,.12); color: #d8eadf; cursor: pointer;
  display: grid; place-items: center; font-size: calc(var(--cw) * .2); text-align: center; line-height: 1.15; }
.slot.back { border: 3px solid var(--face); background: repeating-linear-gradient(45deg, #2d5f9e 0 5px, #244f86 5px 10px);
  box-shadow: 0 2px 5px rgba(0,0,0,.3); color: #fff; }
.slot.back .count { background: rgba(0,0,0,.55); border-radius: 99px; padding: 1px 7px; font-weight: 700; font-size: calc(var(--cw) * .24); }
.slot:hover { filter: brightness(1.1); }
.empty { visibility: hidden; }
.badge { position: absolute; right: -5px; bottom: -6px; min-width: 20px; height: 20px; padding: 0 5px; border-radius: 99px;
  background: #0d2f20; color: #fff; font-size: 11px; font-weight: 700; line-height: 20px; text-align: center;
  box-shadow: 0 0 0 2px var(--felt); pointer-events: none; }
.card.pile { box-shadow: 2px 2px 0 #e9e2d2, 3px 3px 0 #cfc6b3, 0 3px 6px rgba(0,0,0,.35); }
/* accordion: a wrapping row of piles after the stock */
.acc { display: grid; grid-template-columns: repeat(13, 1fr); gap: 12px 6px; justify-items: center;
  /* two rows reserved before the cards come: the board does not grow as the first ones are dealt */
  min-height: calc(min(64px, calc((100cqw - 72px) / 13)) * 2.8 + 12px); align-content: start; }
.acc .card, .acc .slot { --cw: min(64px, calc((100cqw - 72px) / 13)); }
.acc-top { display: flex; gap: 12px; align-items: center; margin-bottom: 14px; color: #d8eadf; }
.acc-top .slot { --cw: min(64px, calc((100cqw - 72px) / 13)); }
@container (max-width: 560px) {
  .acc { grid-template-columns: repeat(7, 1fr); }
  .acc .card, .acc .slot, .acc-top .slot { --cw: min(60px, calc((100cqw - 40px) / 7)); }
  .acc { min-height: calc(min(60px, calc((100cqw - 40px) / 7)) * 4.2 + 24px); }
}
/* pyramid: overlapping rows, stock and waste above */
.pyr-top { display: flex; gap: 12px; align-items: flex-end; justify-content: center; margin-bottom: 16px; }
.pyr-top .card, .pyr-top .slot, .pyr .card, .pyr .slot { --cw: min(72px, calc((100cqw - 48px) / 7.2)); }
.waste { display: flex; }
.waste .card + .card { margin-left: calc(var(--cw) * -.62); }
.waste .card:not(:last-child) { pointer-events: none; filter: brightness(.93); }
.pyr { display: flex; flex-direction: column; align-items: center; }
.pyr-row { display: flex; gap: 6px; justify-content: center; }
.pyr-row + .pyr-row { margin-top: calc(min(72px, calc((100cqw - 48px) / 7.2)) * -.78); }
.pyr .card:not(.blocked) { z-index: 1; }
.pyr .card.blocked::after { display: none; }
.label { color: #cfe4d7; font-size: 12px; text-align: center; margin-top: 4px; }
/* gaps: 4 rows of 13 */
.gaps { display: grid; grid-template-columns: repeat(13, 1fr); gap: 6px 4px; justify-items: center; }
.gaps .card, .gaps .gap { --cw: min(62px, calc((100cqw - 48px) / 13)); }
.gap { border: 2px dashed rgba(255,255,255,.35); background: rgba(0,0,0,.16); cursor: pointer; color: rgba(255,255,255,.6);
  display: grid; place-items: center; font-size: calc(var(--cw) * .28); }
.gap.dead { border-style: solid; border-color: rgba(0,0,0,.25); background: rgba(0,0,0,.32); cursor: default; }
.gap.live { border-color: rgba(126,224,168,.8); }
.card.kept { box-shadow: 0 0 0 2px rgba(242,193,78,.85), 0 2px 5px rgba(0,0,0,.28); }
.gaps-bottom { display: flex; justify-content: center; margin-top: 14px; }
.gaps-bottom span.tool { display: inline-block; }
@container (max-width: 560px) {
  .gaps { gap: 5px 2px; }
  .gaps .card, .gaps .gap { --cw: calc((100cqw - 26px) / 13); border-radius: 4px; }
  .gaps .card { border-width: 1px; box-shadow: 0 1px 2px rgba(0,0,0,.3); }
  .pyr-row { gap: 4px; }
}
.tool { appearance: none; border: 1px solid var(--tool-line); background: var(--tool-bg); color: var(--text); border-radius: 10px;
  padding: 8px 14px; font-weight: 600; cursor: pointer; min-height: 40px; }
.tool:hover:not(:disabled) { background: var(--tool-hover); }
.tool:disabled { opacity: .45; cursor: default; }
.tool.primary { background: var(--felt); border-color: var(--felt); color: #fff; }
.tool.primary:hover:not(:disabled) { background: #236e4b; }
.board .tool { background: rgba(255,255,255,.92); color: var(--ink); }
/* Undo and Hint stay in reach: the controls stick to the bottom of the screen */
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; position: sticky; bottom: 0; z-index: 20;
  padding: 6px 0; background: var(--bg); }
.tool[data-confirm] { background: var(--err); border-color: var(--err); color: #fff; }
.more { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.opts { display: flex; flex-wrap: wrap; gap: 6px; }
.opt { appearance: none; font-size: 13px; padding: 4px 10px; border-radius: 99px; border: 1px solid var(--tool-line);
  background: var(--tool-bg); color: var(--muted); cursor: pointer; min-height: 30px; }
.opt[aria-pressed="true"] { color: var(--text); border-color: var(--felt); box-shadow: inset 0 0 0 1px var(--felt); font-weight: 600; }
.opt:focus-visible { outline: 3px solid #8fd3ff; outline-offset: 2px; }
.notation { display: flex; gap: 6px; flex: 1 1 260px; }
.notation input { flex: 1; min-width: 0; font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; padding: 8px 10px;
  border: 1px solid var(--tool-line); border-radius: 10px; background: var(--input-bg); color: var(--text); }
.notation input:focus { outline: 2px solid #8fd3ff; border-color: transparent; }
.msg { min-height: 1.4em; margin: 0; padding: 0 2px; color: var(--muted); }
.msg[data-kind="error"] { color: var(--err); font-weight: 600; }
.msg[data-kind="good"] { color: var(--good); font-weight: 600; }
.result { border-radius: var(--radius); background: var(--result-bg); border: 1px solid var(--result-line); padding: 14px 16px; display: grid; gap: 10px; }
.result h3 { margin: 0; font-size: 20px; }
.verdict { margin: 0; }
.share { display: flex; gap: 8px; align-items: stretch; flex-wrap: wrap; }
.share textarea { flex: 1 1 240px; min-height: 88px; resize: none; font: 13px/1.45 ui-monospace, Menlo, monospace;
  border: 1px solid var(--result-line); border-radius: 10px; padding: 8px 10px; background: var(--input-bg); color: var(--text); }
.log { font-size: 13px; color: var(--muted); }
.log code { display: block; margin-top: 6px; word-break: break-word; font: 12px/1.5 ui-monospace, Menlo, monospace; }
.card.hint, .gap.hint, .slot.hint, .board .tool.hint { box-shadow: 0 0 0 3px #8fd3ff, 0 0 14px 4px rgba(143,211,255,.85);
  animation: glow 1.2s ease-in-out infinite alternate; z-index: 3; }
@keyframes glow { to { box-shadow: 0 0 0 3px #8fd3ff, 0 0 4px 1px rgba(143,211,255,.5); } }
@media (prefers-reduced-motion: reduce) { .hint { animation: none !important; } }
.light-toggle { display: inline-flex; align-items: center; gap: 6px; }
.light { width: 11px; height: 11px; border-radius: 50%; background: #b9b4a8; box-shadow: inset 0 0 0 1px rgba(0,0,0,.2); }
.light[data-light="winnable"] { background: #2fb36a; }
.light[data-light="lost"] { background: #d23b3b; }
.light[data-light="unknown"] { background: #e3b23c; }
.light[data-light="checking"] { background: #8fd3ff; }
.light-text { font-weight: 500; color: var(--muted); font-size: 13px; }
.tool[aria-pressed="true"] { border-color: var(--felt); }
/* the fairness note keeps its place while it is fetched: nothing below it moves */
.fair { margin: 0; padding: 0 2px; font-size: 13px; color: var(--muted); min-height: 1.4em; }
.fair[hidden] { display: block !important; visibility: hidden; }
.fair a { color: var(--link); }
.players { margin: 0; font-weight: 600; color: var(--text); }
@container (max-width: 560px) {
  .bar { min-height: calc(2.8em + 6px); align-content: flex-start; }
  .fair { min-height: 2.8em; }
  .opt { font-size: 12px; padding: 3px 8px; }
}
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

let SHEET = null;
function sheet() {
  if (!SHEET) {
    SHEET = new CSSStyleSheet();
    SHEET.replaceSync(CSS);
  }
  return SHEET;
}

const TEMPLATE = document.createElement("template");

/** Make ``box``'s children show ``items`` (one element each) where ``old`` was drawn:
 *  keep the common head and tail, replace what lies between. */
function patch(box, old, items) {
  let head = 0;
  const n = Math.min(old.length, items.length);
  while (head < n && old[head] === items[head]) head += 1;
  let tail = 0;
  while (tail < n - head && old[old.length - 1 - tail] === items[items.length - 1 - tail]) tail += 1;
  const gone = old.length - tail - head;
  for (let i = 0; i < gone; i += 1) box.children[head].remove();
  const fresh = items.slice(head, items.length - tail).join("");
  if (!fresh) return;
  TEMPLATE.innerHTML = fresh;
  box.insertBefore(TEMPLATE.content, box.children[head] || null);
}

class ApiError extends Error {
  constructor(message, status, body = null, retryAfter = null) {
    super(message);
    this.status = status; // 0: the server could not be reached
    this.body = body;
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
  }
}
const enc = encodeURIComponent;

/** The seconds after which a refused result counts if posted again (425 too fast for a
 *  person, 429 this address's counted budget: the server keeps the play), else 0. */
function retryLater(err) {
  if (!(err instanceof ApiError) || (err.status !== 425 && err.status !== 429)) return 0;
  const wait = Number((err.body && err.body.retry_after) || err.retryAfter || 0);
  return wait > 0 && wait <= 3600 ? Math.ceil(wait) : 0;
}

/** Why a hint did not come, in words: the hint budget with the time until the next hint
 *  (Retry-After), the solver's capacity, or no network. */
function hintTrouble(err) {
  if (!(err instanceof ApiError)) return `Something went wrong: ${err && err.message}`;
  if (err.status === 429) {
    const wait = err.retryAfter;
    const when = wait === null ? "in a while" : wait < 90 ? `in ${plural(wait, "second")}` : `in ${plural(Math.ceil(wait / 60), "minute")}`;
    return `You have used the hints allowed for now: the next one ${when}.`;
  }
  if (err.status === 503) return "The solver is busy right now: try again in a moment.";
  if (err.status === 0) return "Hints need the server, which cannot be reached now (offline?).";
  return err.message;
}

// --- the element -------------------------------------------------------------------------
export class DailyDeal extends HTMLElement {
  static observedAttributes = ["deal", "game", "seed", "variant", "date", "tier", "api"];
  static results = results;
  static streak = streak;
  static progress = progress;
  static cardName = cardName;

  constructor() {
    super();
    this.moves = [];
    this.st = null; // the last state answer
    this.meta = null; // what the deal is: {id, game, variant, seed, date, tier, par}
    this.sel = null; // a selected card
    this.selGap = null; // a selected column-1 gap (Gaps), waiting for a 2
    this.queue = Promise.resolve();
    this.pending = 0; // actions queued or running
    this.asked = new Map(); // move list -> its state request, shared by prefetch and click
    this.loadToken = 0;
    this.rules = null; // rules.js, once loaded: moves are played here
    this.elapsed = 0; // the timer's milliseconds before runningSince
    this.runningSince = null;
    this.ticker = null;
    this.drag = null; // a card being dragged
  }

  attributeChangedCallback(_name, old, value) {
    if (old !== value && this.shadowRoot && this.isConnected) this.reload();
  }

  get api() {
    const url = new URL(this.getAttribute("api") || DEFAULT_API, document.baseURI);
    return url.href.replace(/\/+$/, "");
  }

  build() {
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [sheet()];
    root.innerHTML = `
<div class="dd" part="root">
  <div class="bar" part="bar">
    <span class="stat">Moves <b data-moves-count>0</b></span>
    <span class="stat" data-par hidden>Par <b></b></span>
    <span class="stat" data-score-stat><span data-score-name>Score</span> <b data-score>–</b></span>
    <span class="stat" data-extra></span>
    <span class="stat timer" data-timer title="Your time, from the first move (paused while the page is hidden)">⏱ <b data-timer-text>0:00</b></span>
    <span class="state-pill" data-s="in progress" data-state-pill>Loading</span>
  </div>
  <div class="table">
    <div class="board" part="board" data-board data-state="in progress" data-moves="0" role="group" aria-label="Board">
      <p class="loading">Dealing…</p>
    </div>
    <div class="fx" data-fx aria-hidden="true"></div>
  </div>
  <p class="msg" role="status" aria-live="polite" data-msg></p>
  <div class="controls" part="controls">
    <button type="button" class="tool" data-undo disabled title="Undo (U)">↶ Undo</button>
    <button type="button" class="tool" data-action="hint" title="Show a move of a winning line (H)">💡 Hint</button>
    <button type="button" class="tool" data-restart disabled>Restart</button>
    <button type="button" class="tool light-toggle" data-action="winnable" aria-pressed="false"
            title="After each move, ask the solver whether the deal can still be won">Winnable?
      <span class="light" data-light="off" aria-hidden="true"></span><span class="light-text" data-light-text>off</span></button>
    <button type="button" class="tool primary" data-action="deal-rest" hidden>⏩ Deal the rest</button>
    <button type="button" class="tool" data-action="give-up" hidden>Give up</button>
  </div>
  <div class="more">
    <form class="notation" data-notation>
      <label class="sr" for="dd-moves">Type moves in the notation</label>
      <input id="dd-moves" name="moves" autocomplete="off" autocapitalize="characters" spellcheck="false"
             placeholder="Type moves">
      <button type="submit" class="tool">Play</button>
    </form>
    <div class="opts" role="group" aria-label="Options">
      <button type="button" class="opt" data-option="dark" aria-pressed="false" title="Dark table and page">🌙 Dark</button>
      <button type="button" class="opt" data-option="four" aria-pressed="false" title="Four suit colours: ♠ black, ♥ red, ♦ blue, ♣ green">♦ 4 colours</button>
      <button type="button" class="opt" data-option="sound" aria-pressed="false" title="Sounds of the cards">🔈 Sound</button>
      <button type="button" class="opt" data-option="timer" aria-pressed="true" title="Show the timer">⏱ Timer</button>
    </div>
  </div>
  <p class="fair" data-fair hidden></p>
  <section class="result" data-result hidden aria-live="polite">
    <h3 data-result-title></h3>
    <p class="verdict" data-verdict></p>
    <p class="players" data-stats hidden></p>
    <div class="share">
      <label class="sr" for="dd-share">Share text</label>
      <textarea id="dd-share" readonly data-share></textarea>
      <button type="button" class="tool primary" data-copy>Copy</button>
    </div>
  </section>
  <details class="log"><summary>Your moves</summary><code data-log></code></details>
</div>`;
    const $ = (sel) => root.querySelector(sel);
    this.el = {
      board: $("[data-board]"), msg: $("[data-msg]"), moves: $("[data-moves-count]"),
      score: $("[data-score]"), scoreName: $("[data-score-name]"), scoreStat: $("[data-score-stat]"),
      extra: $("[data-extra]"), pill: $("[data-state-pill]"),
      par: $("[data-par]"), undo: $("[data-undo]"), restart: $("[data-restart]"),
      form: $("[data-notation]"), input: $("#dd-moves"), result: $("[data-result]"),
      resultTitle: $("[data-result-title]"), verdict: $("[data-verdict]"), share: $("[data-share]"),
      copy: $("[data-copy]"), log: $("[data-log]"), hint: $('[data-action="hint"]'),
      lightToggle: $('[data-action="winnable"]'), light: $("[data-light]"), giveUp: $('[data-action="give-up"]'),
      stats: $("[data-stats]"), fair: $("[data-fair]"), lightText: $("[data-light-text]"),
      fx: $("[data-fx]"), timer: $("[data-timer]"), timerText: $("[data-timer-text]"), rest: $('[data-action="deal-rest"]'),
    };
    this.el.board.addEventListener("click", (e) => this.onBoardClick(e));
    this.el.board.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.el.board.addEventListener("keydown", (e) => this.onBoardKey(e));
    this.addEventListener("keydown", (e) => this.onKey(e));
    this.el.undo.addEventListener("click", () => this.enqueue(() => this.undo()));
    this.el.restart.addEventListener("click", () => this.enqueue(() => this.restart()));
    this.el.copy.addEventListener("click", () => this.copyShare());
    this.el.hint.addEventListener("click", () => this.askHint());
    this.el.lightToggle.addEventListener("click", () => this.toggleLight());
    this.el.giveUp.addEventListener("click", () => this.confirmGiveUp());
    this.el.rest.addEventListener("click", () => this.enqueue(() => this.playRest()));
    for (const b of root.querySelectorAll("[data-option]")) {
      b.addEventListener("click", () => this.toggleOption(b.dataset.option));
    }
    this.el.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.enqueue(() => this.typed(this.el.input.value));
    });
    this.applyOptions();
  }

  connectedCallback() {
    if (!this.shadowRoot) this.build();
    this.onVisible = () => this.runClock();
    this.onOnline = () => this.flush();
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    this.reload();
  }

  disconnectedCallback() {
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    this.stopClock();
  }

  // --- options: dark table, four colours, sound, timer (kept in localStorage) ---------------
  options() {
    const o = readJSON("options", {});
    return o && typeof o === "object" ? o : {};
  }

  toggleOption(name) {
    const o = this.options();
    if (name === "dark") o.theme = this.isDark() ? "light" : "dark";
    else if (name === "timer") o.timer = o.timer === false;
    else o[name] = !o[name];
    writeJSON("options", o);
    this.applyOptions();
    if (name === "sound" && o.sound) play("move");
  }

  isDark() {
    const theme = this.options().theme;
    return theme ? theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  }

  /** The options on the element (data-theme only when chosen: else the system's), so the
   *  host page's CSS can follow them too (site.css does for the service's pages). */
  applyOptions() {
    const o = this.options();
    if (o.theme === "dark" || o.theme === "light") this.dataset.theme = o.theme;
    else delete this.dataset.theme;
    if (o.four) this.dataset.deck = "four";
    else delete this.dataset.deck;
    const pressed = { dark: this.isDark(), four: Boolean(o.four), sound: Boolean(o.sound), timer: o.timer !== false };
    for (const b of this.shadowRoot.querySelectorAll("[data-option]")) {
      b.setAttribute("aria-pressed", String(pressed[b.dataset.option]));
    }
    this.el.timer.hidden = o.timer === false;
  }

  sound(name) {
    if (this.options().sound) play(name);
  }

  // --- the timer: from the first move, paused while the page is hidden --------------------
  /** Milliseconds on the clock now. */
  clockMs() {
    return this.elapsed + (this.runningSince !== null ? performance.now() - this.runningSince : 0);
  }

  /** Run the clock when a game is under way and the page is seen; stop it otherwise. */
  runClock() {
    if (!this.meta) return;
    const run = Boolean(this.st && this.st.state === "in progress" && this.moves.length && document.visibilityState === "visible");
    if (run && this.runningSince === null) {
      this.runningSince = performance.now();
      this.ticker = setInterval(() => this.drawClock(), 1000);
    } else if (!run) this.stopClock();
    this.drawClock();
  }

  stopClock() {
    if (this.runningSince !== null) {
      this.elapsed = this.clockMs();
      this.runningSince = null;
    }
    clearInterval(this.ticker);
    this.ticker = null;
    if (this.meta) writeJSON(`time.${this.key}`, Math.round(this.elapsed));
  }

  drawClock() {
    const seconds = this.clockMs() / 1000;
    this.el.timerText.textContent = clockText(seconds);
    this.el.timer.dataset.seconds = String(Math.floor(seconds));
    this.el.timer.dataset.running = String(this.runningSince !== null);
    if (this.meta && this.runningSince !== null) writeJSON(`time.${this.key}`, Math.round(this.clockMs()));
  }

  /** The player's time in whole seconds (reported with a result: the server cannot know it). */
  seconds() {
    return Math.min(WEEK, Math.floor(this.clockMs() / 1000));
  }

  // --- talking to the API: one small function per request ---------------------------------
  async fetchJSON(url, init) {
    let resp;
    try {
      resp = await fetch(url, init);
    } catch {
      throw new ApiError("The server cannot be reached. Check the connection and try again.", 0);
    }
    let body = null;
    try {
      body = await resp.json();
    } catch {
      body = null;
    }
    if (!resp.ok) {
      const wait = resp.headers.get("Retry-After");
      const seconds = wait && /^\d+$/.test(wait) ? Number(wait) : null;
      const detail = (body && body.detail) || `The server answered ${resp.status}.`;
      throw new ApiError(wait ? `${detail} Try again in ${wait} s.` : detail, resp.status, body, seconds);
    }
    return body;
  }

  post(url, body) {
    return this.fetchJSON(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  /** What the deal is, from the API; the last answer is kept, so a deal already opened
   *  loads offline too. */
  async describe() {
    const attrs = ["deal", "date", "game", "tier", "seed", "variant", "api"].map((n) => (this.getAttribute(n) || "").trim());
    const cacheKey = `meta.${attrs.join("|")}`;
    try {
      const meta = await this.describeOnline();
      if (attrs[1] !== "today") writeJSON(cacheKey, meta);
      return meta;
    } catch (err) {
      const kept = readJSON(cacheKey, null);
      if (err instanceof ApiError && err.status === 0 && kept && kept.game) return kept;
      throw err;
    }
  }

  async describeOnline() {
    const api = this.api;
    const attr = (n) => (this.getAttribute(n) || "").trim();
    if (attr("deal")) return this.fromDeal(await this.fetchJSON(`${api}/deals/${enc(attr("deal"))}`));
    if (attr("date") && attr("game") && attr("tier")) {
      const tz = attr("date") === "today" ? `?tz=${enc(timeZone())}` : "";
      const url = `${api}/daily/${enc(attr("date"))}/${enc(attr("game"))}/${enc(attr("tier"))}${tz}`;
      return this.fromDeal(await this.fetchJSON(url));
    }
    if (attr("game") && attr("seed")) {
      const seed = attr("seed"); // a decimal string: a 64-bit seed does not fit a JS number
      const v = attr("variant") ? `?variant=${enc(attr("variant"))}` : "";
      const d = await this.fetchJSON(`${api}/games/${enc(attr("game"))}/deals/${enc(seed)}${v}`);
      return { id: null, game: d.game, variant: d.variant, seed, date: null, tier: null, par: null };
    }
    throw new ApiError('Set the attribute "deal", or "game" and "seed", or "date", "game" and "tier".', 0);
  }

  fromDeal(d) {
    return {
      id: d.id, game: d.game, variant: d.variant, seed: String(d.seed), date: d.date,
      tier: d.tier, par: d.solution_length, rating: d.rating, commitment: d.commitment || null,
    };
  }

  /** A play token for a daily deal, asked once when it is first loaded online and kept with
   *  the play's progress; null when the endpoint is missing or fails (play on without). */
  async playToken() {
    const m = this.meta;
    if (!m || !m.id) return null;
    const kept = readJSON(`play.${m.id}`, null);
    if (typeof kept === "string") return kept;
    try {
      // no body: a "simple" request, so another origin's page needs no CORS preflight
      const answer = await this.fetchJSON(`${this.api}/deals/${enc(m.id)}/plays`, { method: "POST" });
      if (answer && typeof answer.play === "string") {
        writeJSON(`play.${m.id}`, answer.play);
        return answer.play;
      }
    } catch {
      /* no token: hints and results work without it */
    }
    return null;
  }

  /** The state JSON after ``moves`` (the API state endpoint's answer), played here by
   *  rules.js, or asked of the server when rules.js is not there. */
  stateOf(moves) {
    if (this.rules) return Promise.resolve(this.localState(moves));
    const key = moves.join(" ");
    let answer = this.asked.get(key);
    if (!answer) {
      answer = this.requestState(moves);
      this.asked.set(key, answer);
      answer.catch(() => this.asked.delete(key)); // a failure is asked again next time
      if (this.asked.size > 16) this.asked.delete(this.asked.keys().next().value);
    }
    return answer;
  }

  /** rules.stateJSON(game, variant, null, seed, moves), kept fast: one game object follows
   *  the moves asked (undoing back to the common beginning, then playing the rest), so a
   *  move costs one move, not a replay of the whole game. */
  localState(moves) {
    const r = this.rules;
    const m = this.meta;
    if (!this.g || this.g.meta !== m) {
      this.g = { meta: m, game: r.newGame(m.game, m.variant, null, m.seed), texts: [], counts: [] };
    }
    const { game, texts, counts } = this.g;
    let k = 0;
    while (k < texts.length && k < moves.length && texts[k] === moves[k]) k += 1;
    while (texts.length > k) {
      for (let i = counts.pop(); i > 0; i -= 1) game.pop();
      texts.pop();
    }
    let error = null;
    for (let i = k; i < moves.length; i += 1) {
      try {
        counts.push(game.playMove(game.read(moves[i])).length); // Accordion may deal first
        texts.push(moves[i]);
      } catch (err) {
        if (!(err instanceof r.InvalidMoveError || err instanceof r.IllegalMoveError)) throw err;
        error = { index: i, move: moves[i], reason: err.message };
        break;
      }
    }
    return { valid: error === null, error, ...game.toJSON(), seed: game.seed === null ? null : String(game.seed) };
  }

  requestState(moves) {
    const m = this.meta;
    const q = encodeURIComponent(moves.join(" "));
    if (m.id && q.length <= MAX_QUERY) {
      // a GET: the browser caches it, so undo and restart cost no request
      return this.fetchJSON(`${this.api}/deals/${enc(m.id)}/state?moves=${q}`);
    }
    if (m.id) return this.post(`${this.api}/deals/${enc(m.id)}/state`, { moves });
    return this.post(`${this.api}/games/${enc(m.game)}/state`, { seed: m.seed, variant: m.variant, moves });
  }

  verifyMoves(moves, m = this.meta) {
    if (m.id) return this.post(`${this.api}/deals/${enc(m.id)}/verify`, { moves });
    return this.post(`${this.api}/games/${enc(m.game)}/verify`, { seed: m.seed, variant: m.variant, moves });
  }

  /** The move count where the player began following hints, when every move since is the
   *  hint given there (the server then answers the rest of that same line: following hints
   *  always ends in a win); else null. */
  followFrom(moves) {
    const f = this.following;
    if (!f || f.from > moves.length) return null;
    const since = moves.slice(f.from);
    return since.length <= f.hinted.length && since.every((mv, i) => mv === f.hinted[i]) ? f.from : null;
  }

  /** Remember the hint given after ``moves``: it continues the line followed, or starts one. */
  followed(moves, move) {
    const from = this.followFrom(moves);
    if (from === null) this.following = { from: moves.length, hinted: [move] };
    else this.following.hinted = [...moves.slice(from), move];
  }

  /** A hint from the server; a daily deal's carries the play token (the server counts it). */
  async hintOf(moves) {
    const m = this.meta;
    const from = this.followFrom(moves);
    const token = m.id ? await this.token : null;
    const q = enc(moves.join(" "));
    if (m.id && q.length <= MAX_QUERY) {
      // a GET, cacheable like state: the same position gives the same hint
      const f = from === null ? "" : `&from=${from}`;
      const play = token ? `&play=${enc(token)}` : "";
      return this.fetchJSON(`${this.api}/deals/${enc(m.id)}/hint?moves=${q}${f}${play}`);
    }
    const body = m.id ? { moves } : { seed: m.seed, variant: m.variant, moves };
    if (from !== null) body.from = from;
    if (token) body.play = token;
    if (m.id) return this.post(`${this.api}/deals/${enc(m.id)}/hint`, body);
    return this.post(`${this.api}/games/${enc(m.game)}/hint`, body);
  }

  postResult(id, body) {
    return this.post(`${this.api}/deals/${enc(id)}/results`, body);
  }

  fetchStats(id) {
    return this.fetchJSON(`${this.api}/deals/${enc(id)}/stats`);
  }

  // --- hints and the "still winnable?" light ------------------------------------------------
  /** Ask the solver for a move of a winning line from here and light up its cards. The
   *  answer is the server's; nothing here knows which moves win. */
  async askHint() {
    if (!this.st || this.st.state === "won" || this.hinting) return;
    const at = this.moves.join(" ");
    this.hinting = true;
    this.el.hint.disabled = true;
    this.say("Asking the solver…");
    let answer;
    try {
      answer = await this.hintOf(this.moves);
    } catch (err) {
      this.say(hintTrouble(err), "error");
      return;
    } finally {
      this.hinting = false;
      this.el.hint.disabled = !this.st || this.st.state === "won";
    }
    if (at !== this.moves.join(" ")) return; // the player moved on: it was for another position
    this.emit("dailydeal-hint", answer);
    if (this.lightOn) this.setLight(answer.verdict);
    if (answer.verdict === "winnable" && answer.move) {
      this.hintsUsed += 1;
      writeJSON(`hints.${this.key}`, this.hintsUsed);
      this.hint = { at, move: answer.move };
      this.followed(this.moves, answer.move);
      this.dataset.hint = answer.move;
      this.paint();
      const left = plural(answer.moves_left, "move");
      const line = `the first of ${left} to a win${answer.shortest ? " (a shortest line)" : ""}`;
      this.say(`Hint: ${moveInWords(answer.move, this.meta.game)} (${answer.move}), ${line}.`, "good");
    } else if (answer.verdict === "lost") {
      this.say("The solver proved this position lost: no winning line from here. Undo to try another way.", "error");
    } else if (answer.verdict === "unknown") {
      this.say("The solver could not decide from here within its budget: no hint for this position.");
    }
  }

  /** The elements a hinted move involves: its cards, the stock or redeal, a Gaps gap. */
  hintPlaces(move) {
    const out = [];
    const action = { d: "draw", r: "recycle", R: "redeal" }[move];
    if (action) out.push(this.find("action", action));
    for (const c of move.match(/[2-9TJQKA][SHDC]/g) || []) out.push(this.find("card", c));
    const row = move.match(/@(\d+)$/);
    if (row) out.push(this.find("gap", `${row[1]},1`));
    else if (specOf(this.meta.game).fills_gaps && isCard(move)) {
      const gap = (this.st.position.gaps || []).find((g) => g.accepts === move);
      if (gap) out.push(this.find("gap", `${gap.row},${gap.column}`));
    }
    return out.filter(Boolean);
  }

  toggleLight() {
    this.lightOn = !this.lightOn;
    writeJSON("light", this.lightOn);
    this.checkLight();
  }

  /** With the light on, ask after every move whether the deal can still be won. */
  async checkLight() {
    if (!this.lightOn || !this.st) return this.setLight("off");
    if (this.st.state !== "in progress") return this.setLight(this.st.state === "won" ? "winnable" : "lost");
    const at = this.moves.join(" ");
    this.setLight("checking");
    let verdict = "unknown";
    let why = "";
    try {
      verdict = (await this.hintOf(this.moves)).verdict;
    } catch (err) {
      why = hintTrouble(err);
    }
    if (this.lightOn && at === this.moves.join(" ")) this.setLight(verdict, why);
  }

  setLight(verdict, why = "") {
    this.el.light.dataset.light = verdict;
    this.el.lightText.textContent = LIGHT_TEXT[verdict] || verdict;
    this.el.lightToggle.setAttribute("aria-pressed", String(this.lightOn));
    const said = { winnable: "can still be won", lost: "is lost", unknown: "the solver could not tell", checking: "checking" }[verdict];
    this.el.lightToggle.title = this.lightOn
      ? `Still winnable? ${said || ""}${why ? ` (${why})` : ""}. Click to turn off.`
      : "After each move, ask the solver whether the deal can still be won";
    if (this.lightOn) this.dataset.light = verdict;
    else delete this.dataset.light;
  }

  // --- results and statistics of everybody's plays -----------------------------------------
  /** Count this play of a daily deal, once per deal from this browser, then show the stats.
   *  Offline, the result waits in the queue (flushed when the network is back). */
  async sendResult() {
    const m = this.meta;
    if (!m.id) return; // numbered deals have no shared statistics
    const posted = readJSON("posted", {});
    let mine = posted[m.id] || null;
    let note = "";
    if (!mine) {
      const body = { client: clientId(), moves: this.moves, hints: this.hintsUsed, seconds: this.seconds() };
      const token = await this.token;
      if (token) body.play = token;
      try {
        mine = (await this.postResult(m.id, body)).result;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status === 0) {
          enqueueOffline({ kind: "result", id: m.id, api: this.api, body });
          this.el.giveUp.hidden = true;
          return this.showStats(null, null, "Offline: your result is kept and sent when the network is back.");
        }
        if (err.status === 409 && err.body && err.body.result) mine = err.body.result;
        else if (retryLater(err)) {
          // too fast for a person, or this address's budget: the play is kept, post it again
          enqueueOffline({ kind: "result", id: m.id, api: this.api, body });
          clearTimeout(this.resendTimer);
          this.resendTimer = setTimeout(() => this.flush(), retryLater(err) * 1000 + 250);
          note = ` Your result counts in ${plural(retryLater(err), "second")}.`;
        } else if (err.status !== 403) note = ` Your result was not counted: ${err.message}`;
      }
      if (mine) rememberPosted(m.id, mine);
    }
    const won = Boolean(this.st && this.st.state === "won");
    if (mine && (mine.won !== won || (won && mine.moves !== this.verdictMoves))) {
      note = mine.won
        ? ` Your first result counts: won in ${mine.moves} moves.`
        : " Your first result counts: not won.";
    }
    this.el.giveUp.hidden = true;
    let stats;
    try {
      stats = await this.fetchStats(m.id);
    } catch (err) {
      return this.showStats(null, mine, `The statistics are not available: ${err.message}`);
    }
    this.showStats(stats, mine, note);
    this.emit("dailydeal-result", { deal: m.id, result: mine, stats });
  }

  /** Send what waited for the network: wins to verify, results to post. The element showing
   *  a queued deal shows its verdict; the others are verified and posted quietly. */
  async flush() {
    if (FLUSHING) return FLUSHING;
    FLUSHING = (async () => {
      const queue = readJSON("queue", []);
      if (!Array.isArray(queue) || !queue.length) return;
      const kept = [];
      for (const item of queue) {
        try {
          await this.flushOne(item);
        } catch (err) {
          // still offline, or told to come back later (the play is kept by the server)
          if (err instanceof ApiError && (err.status === 0 || retryLater(err))) kept.push(item);
        }
      }
      const later = readJSON("queue", []);
      writeJSON("queue", kept.concat(later.slice(queue.length)).length ? kept.concat(later.slice(queue.length)) : null);
    })().finally(() => (FLUSHING = null));
    return FLUSHING;
  }

  async flushOne(item) {
    const mine = this.meta && item.key === this.key && this.st && this.st.state === "won";
    if (item.kind === "won" && mine) return this.enqueue(() => this.won(true));
    if (item.kind === "won") {
      const verdict = await this.verifyMoves(item.moves, item.meta);
      if (verdict.won && item.meta.id) {
        recordWin(item.meta, verdict.moves, item.hints);
        const body = { client: clientId(), moves: item.moves, hints: item.hints, seconds: item.seconds };
        if (typeof readJSON(`play.${item.meta.id}`, null) === "string") body.play = readJSON(`play.${item.meta.id}`, null);
        await this.flushOne({ kind: "result", id: item.meta.id, api: item.api, body });
      }
      return;
    }
    if (item.kind === "result" && !readJSON("posted", {})[item.id]) {
      try {
        rememberPosted(item.id, (await this.post(`${item.api}/deals/${enc(item.id)}/results`, item.body)).result);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status === 0 || retryLater(err)) throw err;
        if (err.status === 409 && err.body && err.body.result) rememberPosted(item.id, err.body.result);
      }
      if (this.meta && this.meta.id === item.id && !this.el.stats.hidden) await this.sendResult();
    }
  }

  showStats(stats, mine, note = "") {
    const el = this.el.stats;
    el.hidden = false;
    if (!stats) {
      el.textContent = note.trim();
      delete el.dataset.plays;
      return;
    }
    let text = `${plural(stats.plays, "player")}, ${Math.round(stats.win_rate * 100)}% won`;
    if (mine && mine.won) {
      const others = stats.wins - 1;
      const above = stats.winning_moves.filter((w) => w.moves > mine.moves).reduce((a, w) => a + w.count, 0);
      text += others > 0 ? `, you beat ${Math.round((100 * above) / others)}% of the other winners on moves` : ", you are the first to win it";
    }
    el.textContent = `${text}${stats.final ? " (final)" : ""}.${note}`;
    el.dataset.plays = String(stats.plays);
    el.dataset.wins = String(stats.wins);
  }

  /** Give up asks twice: the first tap says what it does, the second (within 5 s) does it. */
  confirmGiveUp() {
    const b = this.el.giveUp;
    if (b.dataset.confirm) {
      clearTimeout(this.confirmTimer);
      delete b.dataset.confirm;
      b.textContent = "Give up";
      this.enqueue(() => this.giveUp());
      return;
    }
    b.dataset.confirm = "1";
    b.textContent = "Sure? Tap again";
    this.say("Giving up counts this deal as not won, for good. Tap “Sure?” to confirm.");
    this.confirmTimer = setTimeout(() => {
      delete b.dataset.confirm;
      b.textContent = "Give up";
    }, 5000);
  }

  /** Stop here and count this daily deal as not won (at most once; later wins do not count). */
  async giveUp() {
    if (!this.meta || !this.meta.id || !this.st || this.st.state === "won") return;
    this.stopClock();
    this.el.result.hidden = false;
    this.el.resultTitle.textContent = "Counted as not won";
    this.el.verdict.textContent = `You stopped after ${plural(this.moves.length, "move")}. Play on if you like: this result is the one that counts.`;
    this.el.share.closest(".share").hidden = true;
    this.say("");
    await this.sendResult();
  }

  /** The fairness note: when the deal was committed to, and "before its day" only when the
   *  commitments list says so (in_advance). */
  async showFair() {
    const m = this.meta;
    const c = m && m.commitment;
    this.el.fair.hidden = !c;
    if (!c) return;
    const check = `${this.api}/commitments?from=${enc(m.date)}&to=${enc(m.date)}`;
    const link = `<a href="${esc(check)}" target="_blank" rel="noopener" title="sha256 ${esc(c.sha256 || "")}">check the commitment</a>`;
    this.el.fair.innerHTML = `<span aria-hidden="true">🔒</span> Fair deal: its cards were committed to (SHA-256) · ${link}`;
    let row = null;
    try {
      const list = await this.fetchJSON(check);
      row = (list.commitments || []).find((r) => r.id === m.id) || null;
    } catch {
      return; // offline: the short note stays
    }
    if (!row || !row.committed_at || this.meta !== m) return;
    const at = String(row.committed_at).replace("T", " ").replace(/:\d\d(\.\d+)?(\+00:00|Z)$/, " UTC");
    const when = row.in_advance ? "before its day began" : "after its day began, so it proves less";
    this.el.fair.innerHTML = `<span aria-hidden="true">🔒</span> Fair deal: committed ${esc(at)}, ${when} · ${link}`;
    this.el.fair.dataset.inAdvance = String(Boolean(row.in_advance));
  }

  // --- flow ----------------------------------------------------------------------------------
  enqueue(task) {
    // one action at a time, in click order: each reads the state the previous one left
    this.pending += 1;
    this.queue = this.queue
      .then(task)
      .catch((err) => this.fail(err))
      .finally(() => (this.pending -= 1));
    return this.queue;
  }

  reload() {
    const token = ++this.loadToken;
    this.enqueue(async () => {
      this.stopClock();
      this.meta = null;
      this.st = null;
      this.asked.clear();
      this.sel = null;
      this.selGap = null;
      this.el.result.hidden = true;
      this.drawn = null;
      this.skeleton();
      const [meta, rules] = await Promise.all([this.describe(), loadRules()]);
      if (token !== this.loadToken) return;
      this.meta = meta;
      this.rules = rules && typeof rules.newGame === "function" ? rules : null;
      this.g = null;
      this.hint = null;
      this.following = null; // the hints followed are this deal's
      this.hintsUsed = Number(readJSON(`hints.${this.key}`, 0)) || 0;
      this.elapsed = Number(readJSON(`time.${this.key}`, 0)) || 0;
      this.lightOn = readJSON("light", false) === true;
      this.el.input.placeholder = `Type moves, e.g. ${EXAMPLE[meta.game] || "d"}`;
      this.el.stats.hidden = true;
      const [name, title] = SCORE_NAME[meta.game] || ["Score", ""];
      this.el.scoreName.textContent = name;
      this.el.scoreStat.title = title;
      this.token = meta.id ? this.playToken() : Promise.resolve(null);
      const saved = readJSON(`progress.${this.key}`, []);
      let st = await this.stateOf(Array.isArray(saved) ? saved : []);
      if (!st.valid) st = await this.stateOf([]);
      if (token !== this.loadToken) return;
      this.moves = st.moves.slice();
      this.show(st);
      this.say(this.moves.length ? "Welcome back: your game as you left it." : "");
      this.showFair();
      if (st.state === "won") await this.won(false);
      else this.offerRest();
      this.flush();
    });
  }

  /** Before the deal is known: the game's board with empty places, the size it will have,
   *  so nothing below it moves when the cards arrive (layout shift). */
  skeleton() {
    const attr = (n) => (this.getAttribute(n) || "").trim();
    const found = attr("deal").match(GAME_RE);
    const game = found ? found[1] : attr("game");
    const board = this.el.board;
    board.dataset.game = game;
    this.el.giveUp.hidden = !(attr("deal") || attr("date")); // daily deals: its place kept
    this.el.giveUp.disabled = true;
    const slot = '<span class="slot"></span>';
    const empty = '<span class="card empty"></span>';
    const html = {
      accordion: `<div class="acc-top">${slot}<span></span></div><div class="acc"></div>`,
      pyramid: `<div class="pyr-top"><div>${slot}<div class="label">stock</div></div><div>${slot}<div class="label">waste</div></div></div>` +
        `<div class="pyr">${[1, 2, 3, 4, 5, 6, 7].map((n) => `<div class="pyr-row">${empty.repeat(n)}</div>`).join("")}</div>`,
      gaps: `<div class="gaps">${'<span class="gap dead"></span>'.repeat(52)}</div><div class="gaps-bottom"><span class="tool">⟳ Redeal</span></div>`,
    }[game];
    board.innerHTML = html ? `${html}<p class="loading overlay">Dealing…</p>` : `<p class="loading">Dealing…</p>`;
  }

  get key() {
    const m = this.meta;
    return m.id || `${m.game}/${m.seed}/${m.variant}`;
  }

  fail(err) {
    const text = err instanceof ApiError ? err.message : `Something went wrong: ${err && err.message}`;
    if (!this.st) {
      this.el.board.innerHTML = `<p class="loading">${esc(text)}</p>`;
      this.drawn = null;
    }
    this.say(text, "error");
    this.emit("dailydeal-error", { message: text, status: err && err.status });
  }

  /** Try moves after the current ones: rules.js plays them (the server when it is missing)
   *  or says why not, in the server's words. */
  async attempt(more, origin) {
    if (!this.meta || !this.st) return false;
    const next = this.moves.concat(more);
    const st = await this.stateOf(next);
    if (!st.valid) {
      const e = st.error;
      const which = more.length > 1 ? `Move ${e.index - this.moves.length + 1} (${e.move}): ` : `${e.move}: `;
      this.sel = null;
      this.selGap = null;
      this.paint();
      this.say(which + e.reason, "error");
      this.shake(Array.isArray(origin) ? this.find(origin[0], origin[1]) : origin);
      this.sound("bad");
      return false;
    }
    const before = this.snapshot();
    this.moves = st.moves.slice();
    this.sel = null;
    this.selGap = null;
    this.show(st, more[more.length - 1]);
    this.animate(before);
    this.sound(/^[dR]$/.test(more[more.length - 1]) ? "deal" : "move");
    this.say(st.state === "lost" ? "No moves left. Undo or restart to try another way." : "");
    for (const move of more) {
      this.emit("dailydeal-move", { move, moves: this.moves.length, state: st.state, score: st.score });
    }
    if (st.state === "won") await this.won(true);
    else if (!this.finishing) this.offerRest();
    return true;
  }

  async undo() {
    if (!this.moves.length || (this.st && this.st.state === "won")) return;
    const st = await this.stateOf(this.moves.slice(0, -1));
    const before = this.snapshot();
    this.moves = st.moves.slice();
    this.sel = null;
    this.selGap = null;
    this.el.result.hidden = true;
    this.show(st);
    this.animate(before);
    this.say("Undone.");
    this.offerRest();
  }

  async restart() {
    const st = await this.stateOf([]);
    this.moves = [];
    this.sel = null;
    this.selGap = null;
    this.el.result.hidden = true;
    this.show(st);
    this.say("Dealt again from the start.");
    this.offerRest();
  }

  async typed(text) {
    const more = text.split(/[\s,]+/).filter(Boolean);
    if (!more.length) return;
    if (await this.attempt(more, this.el.input)) this.el.input.value = "";
  }

  // --- auto-finish: the rest of a game that needs no choice --------------------------------
  /** The moves to the end when each is the only legal one ({moves, state}), else null. */
  forcedRest() {
    if (!this.rules || !this.st || this.st.state !== "in progress" || this.st.legal_moves.length !== 1) return null;
    const rest = [];
    let st = this.st;
    while (st.state === "in progress") {
      if (st.legal_moves.length !== 1 || rest.length > 120) return null;
      rest.push(st.legal_moves[0]);
      st = this.localState(this.moves.concat(rest));
      if (!st.valid) return null;
    }
    return { moves: rest, state: st.state };
  }

  /** A forced win plays itself out; a forced rest of stock moves gets a one-tap button. */
  offerRest() {
    const rest = this.forcedRest();
    this.rest = rest;
    const stockOnly = rest && rest.moves.every((m) => /^[drR]$/.test(m));
    this.el.rest.hidden = !(rest && (stockOnly || rest.state !== "won"));
    if (rest) {
      const n = rest.moves.length;
      this.el.rest.textContent = stockOnly ? `⏩ Deal the rest (${n})` : `⏩ Play the rest (${n})`;
    }
    if (rest && rest.state === "won" && !stockOnly) {
      this.dataset.finishing = ""; // the element plays a forced ending by itself (a hook)
      this.enqueue(() => this.playRest());
    }
  }

  async playRest() {
    const rest = this.forcedRest();
    if (!rest) {
      delete this.dataset.finishing;
      return;
    }
    this.el.rest.hidden = true;
    this.finishing = true;
    try {
      for (const move of rest.moves) {
        if (!REDUCED()) await new Promise((r) => setTimeout(r, 110));
        if (!(await this.attempt([move], null))) break;
      }
    } finally {
      this.finishing = false;
      delete this.dataset.finishing;
    }
  }

  // --- a win: the server's verdict ---------------------------------------------------------
  async won(fresh) {
    const m = this.meta;
    this.stopClock();
    this.el.result.hidden = false;
    this.el.resultTitle.textContent = "Solved!";
    this.el.verdict.textContent = "Checking with the server…";
    if (fresh && !this.el.verdict.dataset.pending) this.celebrate();
    let verdict;
    try {
      verdict = await this.verifyMoves(this.moves);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 0) throw err;
      // offline: kept, verified and posted when the network is back (or on the next load)
      enqueueOffline({
        kind: "won", key: this.key, meta: m, api: this.api, moves: this.moves.slice(),
        hints: this.hintsUsed, seconds: this.seconds(),
      });
      this.el.verdict.dataset.pending = "true";
      this.el.verdict.textContent = "You are offline: the server will check your moves as soon as the network is back.";
      this.el.share.closest(".share").hidden = true;
      return;
    }
    delete this.el.verdict.dataset.pending;
    const queue = readJSON("queue", []);
    if (Array.isArray(queue) && queue.some((q) => q.key === this.key)) {
      writeJSON("queue", queue.filter((q) => q.key !== this.key).length ? queue.filter((q) => q.key !== this.key) : null);
    }
    const n = verdict.moves;
    this.verdictMoves = n;
    const p = meaningfulPar(m);
    const par = p ? ` The solver's par is ${p}${n <= p ? ": you matched it ⭐" : ""}.` : "";
    const helped = this.hintsUsed ? ` with ${plural(this.hintsUsed, "hint")}` : "";
    if (verdict.won) {
      this.el.resultTitle.textContent = `Solved in ${n} moves${helped}`;
      this.el.verdict.textContent = `Verified by the server: won in ${n} moves${helped}.${par}`;
      recordWin(m, n, this.hintsUsed);
    } else {
      this.el.verdict.textContent = `The server did not confirm the win (${verdict.state}).`;
    }
    this.el.share.value = this.shareText(n);
    this.el.share.closest(".share").hidden = false;
    if (fresh) {
      this.say("");
      this.el.result.scrollIntoView({ block: "nearest", behavior: REDUCED() ? "auto" : "smooth" });
      this.emit("dailydeal-won", { deal: m.id, game: m.game, variant: m.variant, seed: m.seed, moves: this.moves.slice(), verdict });
    }
    if (verdict.won && m.id) await this.sendResult(); // then everybody's statistics
  }

  shareText(n) {
    const m = this.meta;
    const base = new URL(this.api).origin;
    const p = meaningfulPar(m);
    const vsPar = (p ? (n <= p ? ` (par ${p} ⭐)` : ` (par ${p})`) : "") +
      (this.hintsUsed ? ` with ${plural(this.hintsUsed, "hint")}` : "");
    // the time is the player's own clock: the server cannot know it
    const time = this.options().timer === false ? [] : [`⏱ ${clockText(this.seconds())} (player's clock)`];
    if (m.id) {
      return [
        `dailydeal ${m.date}`,
        `${cap(m.game)} · ${m.tier} ${TIER_MARK[m.tier] || ""}`.trim(),
        `✅ ${n} moves${vsPar}`,
        ...time,
        `${base}/play/${m.id}`,
      ].join("\n");
    }
    const v = m.variant ? `?variant=${enc(m.variant)}` : "";
    return [`dailydeal · ${cap(m.game)} #${m.seed}`, `✅ ${n} moves${vsPar}`, ...time, `${base}/play/${m.game}/${m.seed}${v}`].join("\n");
  }

  async copyShare() {
    const text = this.el.share.value;
    try {
      await navigator.clipboard.writeText(text);
      this.el.copy.textContent = "Copied ✓";
    } catch {
      this.el.share.focus();
      this.el.share.select();
      this.el.copy.textContent = "Selected: copy it";
    }
    setTimeout(() => (this.el.copy.textContent = "Copy"), 2000);
  }

  emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  say(text, kind = "") {
    this.el.msg.textContent = text;
    this.el.msg.dataset.kind = kind;
  }

  shake(origin) {
    const el = origin && origin.classList ? origin : null;
    if (!el) return;
    el.classList.remove("shake");
    void el.offsetWidth; // restart the animation
    el.classList.add("shake");
  }

  // --- input ---------------------------------------------------------------------------------
  refOf(target) {
    const el = target.closest("[data-card],[data-gap],[data-action]");
    if (!el || !this.el.board.contains(el)) return null;
    return el.dataset.card ? ["card", el.dataset.card] : el.dataset.gap ? ["gap", el.dataset.gap] : ["action", el.dataset.action];
  }

  onBoardClick(e) {
    if (this.dropped) return; // the click that ends a drag
    const ref = this.refOf(e.target);
    if (ref) this.enqueue(() => this.activate(ref[0], ref[1]));
  }

  /** A press on a card may start a drag (pointer events: mouse, pen and touch). Without
   *  rules.js, the press asks the server for the click's position ahead of the click. */
  onPointerDown(e) {
    if (!this.st || this.st.state === "won" || e.button > 0) return;
    this.settle();
    const ref = this.refOf(e.target);
    if (!this.rules) {
      const move = !this.pending && ref && this.intent(ref[0], ref[1]);
      if (move) this.stateOf(this.moves.concat([move])).catch(() => {});
    }
    const el = e.target.closest("[data-card]");
    if (!el || el.disabled || el.classList.contains("blocked") || !this.el.board.contains(el)) return;
    const move = (ev) => this.onDragMove(ev);
    const up = (ev) => this.onDragEnd(ev, true);
    const cancel = (ev) => this.onDragEnd(ev, false);
    this.drag = { el, card: el.dataset.card, x: e.clientX, y: e.clientY, id: e.pointerId, moving: false, off: null };
    this.drag.off = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  onDragMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < 8) return;
      d.moving = true;
      d.el.classList.add("dragging");
      // light the places it may go (classes only: a redraw would replace the dragged card)
      const keep = this.sel;
      this.sel = d.card;
      for (const t of this.targets()) {
        const place = t.startsWith("gap-row-") ? this.find("gap", `${t.slice(8)},1`) : this.find("card", t);
        if (place) place.classList.add("target");
      }
      this.sel = keep;
    }
    e.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px) scale(1.06)`;
  }

  onDragEnd(e, drop) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    d.off();
    this.drag = null;
    if (!d.moving) return; // a tap: the click plays it
    this.dropped = true;
    setTimeout(() => (this.dropped = false), 0);
    // what lies under the finger (the dragged card lets the pointer through), then the
    // card goes back to its place at once: the move's animation starts from the drop
    const under = drop ? this.shadowRoot.elementFromPoint(e.clientX, e.clientY) : null;
    const from = d.el.getBoundingClientRect();
    d.el.style.transition = "none";
    d.el.style.transform = "";
    d.el.classList.remove("dragging");
    void d.el.offsetWidth;
    d.el.style.transition = "";
    for (const t of this.el.board.querySelectorAll(".target")) t.classList.remove("target");
    const ref = under && this.el.board.contains(under) ? this.refOf(under) : null;
    const move = ref && this.dropMove(d.card, ref);
    if (move) {
      this.dragFrom = { card: d.card, rect: from };
      this.enqueue(() => this.attempt([move], ["card", d.card]).finally(() => (this.dragFrom = null)));
      return;
    }
    // back where it came from
    const to = d.el.getBoundingClientRect();
    if (!REDUCED()) {
      d.el.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }],
        { duration: 180, easing: "cubic-bezier(.2,.8,.2,1)" });
    }
    if (ref && ref[1] !== d.card) {
      this.say(`${cap(cardName(d.card))} cannot go there.`, "error");
      this.sound("bad");
    }
  }

  /** The move a card dropped on a card or gap means, or null. */
  dropMove(card, [kind, value]) {
    const spec = specOf(this.meta.game);
    if (kind === "card" && value !== card) return spec.separator ? `${card}${spec.separator}${value}` : null;
    if (kind === "gap" && spec.fills_gaps) {
      const [row, col] = value.split(",").map(Number);
      if (card[0] === "2" && col === 1) return `${card}@${row}`;
      const gap = (this.st.position.gaps || []).find((g) => g.row === row && g.column === col);
      return gap && gap.accepts === card ? card : null;
    }
    return null;
  }

  // --- card animations (FLIP: where each card was, then slide it from there) ---------------
  snapshot() {
    if (REDUCED() || !this.el.board.isConnected) return null;
    this.settle();
    const cards = new Map();
    for (const el of this.el.board.querySelectorAll("[data-card]")) cards.set(el.dataset.card, [el, el.getBoundingClientRect()]);
    if (this.dragFrom && cards.has(this.dragFrom.card)) cards.get(this.dragFrom.card)[1] = this.dragFrom.rect; // dropped here
    const stock = this.el.board.querySelector('[data-action="draw"],[data-action="recycle"]');
    return { cards, stock: stock ? stock.getBoundingClientRect() : null, box: this.el.board.getBoundingClientRect() };
  }

  animate(before) {
    if (!before) return;
    const ease = "cubic-bezier(.2,.8,.2,1)";
    const seen = new Set();
    for (const el of this.el.board.querySelectorAll("[data-card]")) {
      const card = el.dataset.card;
      seen.add(card);
      const was = before.cards.get(card);
      const from = was ? was[1] : before.stock; // a new card comes from the stock
      if (!from) continue;
      const to = el.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 6 }, { transform: "none", zIndex: 6 }], { duration: 200, easing: ease });
    }
    // cards gone from the table (a pair, a king, a pile landed on) fade where they were
    for (const [card, [el, r]] of before.cards) {
      if (seen.has(card)) continue;
      const ghost = el.cloneNode(true);
      ghost.removeAttribute("data-card");
      ghost.setAttribute("aria-hidden", "true");
      ghost.tabIndex = -1;
      ghost.className = `${el.className} ghost`;
      const box = this.el.fx.getBoundingClientRect();
      Object.assign(ghost.style, { left: `${r.left - box.left}px`, top: `${r.top - box.top}px`, width: `${r.width}px` });
      ghost.style.setProperty("--cw", `${r.width}px`);
      this.el.fx.append(ghost);
      ghost.animate([{ opacity: 1, transform: "none" }, { opacity: 0, transform: "scale(.85) translateY(-10px)" }], { duration: 220, easing: "ease-in" })
        .finished.then(() => ghost.remove(), () => ghost.remove());
    }
  }

  /** A short celebration on the table: the cards jump in a wave, suits rise and fade. */
  celebrate() {
    this.sound("win");
    if (REDUCED()) return;
    const cards = [...this.el.board.querySelectorAll("[data-card]")];
    cards.forEach((el, i) => {
      el.animate([{ transform: "none" }, { transform: "translateY(-14px) rotate(-3deg)" }, { transform: "none" }],
        { duration: 420, delay: Math.min(i, 40) * 22, easing: "ease-out" });
    });
    const box = this.el.board.getBoundingClientRect();
    for (let i = 0; i < 18; i += 1) {
      const bit = document.createElement("span");
      bit.className = `spark${i % 4 === 1 || i % 4 === 2 ? " red" : ""}`;
      bit.setAttribute("aria-hidden", "true");
      bit.textContent = "♠♥♦♣"[i % 4];
      Object.assign(bit.style, { left: `${((i * 37) % 100)}%`, top: `${60 + ((i * 53) % 35)}%` });
      this.el.fx.append(bit);
      const rise = box.height * (0.35 + ((i * 29) % 40) / 100);
      bit.animate([{ opacity: 0, transform: "translateY(0) scale(.6)" }, { opacity: 1, offset: 0.2 },
        { opacity: 0, transform: `translateY(-${rise}px) scale(1.2) rotate(${(i % 2 ? 1 : -1) * 40}deg)` }],
      { duration: 1300, delay: i * 45, easing: "ease-out", fill: "backwards" }).finished.then(() => bit.remove(), () => bit.remove());
    }
  }

  /** The move a click on this card, gap or action would try now, or null when the click
   *  only selects. Pure: the pointerdown prefetch and the click both ask it. */
  intent(kind, value) {
    if (!this.st || this.st.state === "won") return null;
    if (kind === "action") return { draw: "d", recycle: "r", redeal: "R" }[value] || null;
    const spec = specOf(this.meta.game);
    const legal = this.st.legal_moves;
    if (kind === "gap") {
      const [row, col] = value.split(",").map(Number);
      const gap = (this.st.position.gaps || []).find((g) => g.row === row && g.column === col);
      if (this.sel && this.sel[0] === "2") return `${this.sel}@${row}`;
      return gap && isCard(gap.accepts) ? gap.accepts : null;
    }
    const card = value;
    if (spec.fills_gaps) {
      if (card[0] !== "2") return card;
      if (this.selGap) return `${card}@${this.selGap}`;
      return legal.filter((m) => m.startsWith(`${card}@`)).length > 1 ? null : card;
    }
    if (spec.kings_alone && card[0] === "K") return card;
    if (!this.sel || this.sel === card) return null;
    return `${this.sel}${spec.separator}${card}`;
  }

  async activate(kind, value) {
    if (!this.st || this.st.state === "won") return;
    const move = this.intent(kind, value);
    if (move) {
      await this.attempt([move], [kind, value]);
      return;
    }
    if (kind === "action") return;
    if (kind === "gap") {
      if (value.endsWith(",1")) {
        this.selGap = Number(value.split(",")[0]);
        this.sel = null;
        this.paint();
        this.say(`Now click the 2 to place in row ${this.selGap}.`);
      } else {
        this.say("No card fits this gap now.", "error");
        this.shake(this.find("gap", value));
      }
      return;
    }
    const card = value;
    const spec = specOf(this.meta.game);
    if (spec.fills_gaps) return this.select(card, "Now click the gap in column 1 for it.");
    if (this.sel === card) return this.select(null);
    const sep = spec.separator;
    const any = this.st.legal_moves.some((m) => m.startsWith(card + sep) || (sep === "+" && m.endsWith(sep + card)));
    return this.select(card, any ? "" : `${cap(cardName(card))} ${spec.stuck}; pick another card.`);
  }

  select(card, message = "") {
    this.sel = card;
    this.selGap = null;
    this.paint();
    if (message !== null) this.say(card ? message || `${cap(cardName(card))} selected: click where it goes.` : "");
  }

  /** Cards still sliding jump to their places: a key or a press acts on where they are. */
  settle() {
    for (const a of this.shadowRoot.getAnimations ? this.shadowRoot.getAnimations() : []) {
      if (a.effect && a.effect.getTiming().iterations !== Infinity) a.finish();
    }
  }

  onBoardKey(e) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = dirs[e.key];
    if (!d) return;
    e.preventDefault();
    this.settle();
    // covered Pyramid cards cannot be played: the arrows skip them
    const items = [...this.el.board.querySelectorAll("button:not(:disabled)")].filter((b) => !b.classList.contains("empty") && !b.classList.contains("blocked"));
    const cur = this.shadowRoot.activeElement;
    if (!items.length) return;
    if (!items.includes(cur)) return items[0].focus();
    const c = cur.getBoundingClientRect();
    const cx = c.left + c.width / 2;
    const cy = c.top + c.height / 2;
    let best = null;
    let bestScore = Infinity;
    for (const b of items) {
      if (b === cur) continue;
      const r = b.getBoundingClientRect();
      const dx = r.left + r.width / 2 - cx;
      const dy = r.top + r.height / 2 - cy;
      const along = d[0] ? dx * d[0] : dy * d[1];
      const across = d[0] ? Math.abs(dy) : Math.abs(dx);
      if (along <= 2) continue;
      const score = along + across * 2.5;
      if (score < bestScore) {
        bestScore = score;
        best = b;
      }
    }
    if (best) best.focus();
  }

  onKey(e) {
    const inText = e.composedPath()[0] instanceof HTMLInputElement || e.composedPath()[0] instanceof HTMLTextAreaElement;
    if (inText || e.ctrlKey || e.metaKey || e.altKey) {
      if ((e.ctrlKey || e.metaKey) && e.key === "z" && !inText) {
        e.preventDefault();
        this.enqueue(() => this.undo());
      }
      return;
    }
    if (e.key === "u" || e.key === "U" || e.key === "Backspace") {
      e.preventDefault();
      this.enqueue(() => this.undo());
    } else if (e.key === "Escape") {
      this.select(null);
    } else if (e.key === "h" || e.key === "H") {
      e.preventDefault();
      this.askHint();
    }
  }

  find(kind, value) {
    const attr = { card: "data-card", gap: "data-gap", action: "data-action" }[kind];
    return this.el.board.querySelector(`[${attr}="${value}"]`);
  }

  // --- drawing -------------------------------------------------------------------------------
  show(st, lastMove) {
    this.st = st;
    this.last = lastMove || null;
    const m = this.meta;
    writeJSON(`progress.${this.key}`, st.moves.length ? st.moves : null);
    const n = st.moves.length;
    this.el.moves.textContent = n;
    this.el.score.textContent = st.score;
    this.el.par.hidden = !meaningfulPar(m);
    this.el.par.querySelector("b").textContent = meaningfulPar(m) || "";
    const p = st.position;
    let extra = "";
    // what the position has to show (its JSON shape: docs/rules.md), not the game's name
    if ("redeals_left" in p) extra = `Redeals left <b>${p.redeals_left}</b>`;
    else if ("passes_left" in p) extra = `Stock <b>${p.stock_count}</b> · Passes <b>${p.passes_left === null ? "∞" : p.passes_left}</b>`;
    else extra = `Stock <b>${p.stock_count}</b>`;
    this.el.extra.innerHTML = extra;
    this.el.pill.textContent = cap(st.state);
    this.el.pill.dataset.s = st.state;
    this.el.undo.disabled = n === 0 || st.state === "won";
    this.el.restart.disabled = n === 0;
    this.el.hint.disabled = st.state === "won";
    this.el.giveUp.hidden = !m.id || Boolean(readJSON("posted", {})[m.id]) || st.state === "won";
    this.el.giveUp.disabled = n === 0;
    if (!this.hint || this.hint.at !== st.moves.join(" ")) delete this.dataset.hint;
    this.checkLight();
    this.el.log.textContent = st.moves.join(" ") || "none yet";
    this.el.board.dataset.state = st.state;
    this.el.board.dataset.moves = String(n);
    this.dataset.state = st.state;
    this.dataset.moves = String(n);
    this.paint();
    this.runClock();
  }

  /** Redraw the board from the last answer. Only the cards that changed are replaced (a
   *  move changes two or three), and keyboard focus stays on the same card or gap. */
  paint() {
    const st = this.st;
    if (!st) return;
    const board = this.el.board;
    const active = this.shadowRoot.activeElement;
    let focus = null;
    if (active && board.contains(active)) {
      focus = ["card", "gap", "action"].map((k) => [k, active.getAttribute(`data-${k}`)]).find(([, v]) => v);
    }
    const game = this.meta.game;
    const sections = { accordion: this.drawAccordion, pyramid: this.drawPyramid, gaps: this.drawGaps }[game].call(this, st);
    const banner = { won: "Solved!", lost: "No moves left" }[st.state];
    if (banner) sections.push(["banner-box", [`<div class="banner" data-banner="${st.state}" aria-hidden="true">${banner}</div>`]]);
    const old = this.drawn;
    const same = old && old.length === sections.length && old.every((o, i) => o[0] === sections[i][0]) && board.children.length === old.length;
    if (!same) {
      board.innerHTML = sections.map(([cls, items]) => `<div class="${cls}">${items.join("")}</div>`).join("");
    } else {
      sections.forEach(([, items], i) => patch(board.children[i], old[i][1], items));
    }
    this.drawn = sections;
    // the hinted move's places (classes set here: patch() keeps unchanged cards as they are)
    for (const el of board.querySelectorAll(".hint")) el.classList.remove("hint");
    if (this.hint && this.hint.at === this.moves.join(" ")) {
      for (const el of this.hintPlaces(this.hint.move)) el.classList.add("hint");
    }
    board.setAttribute("aria-label", `${cap(game)} board, ${st.state}, ${st.moves.length} moves`);
    if (focus && !(active && active.isConnected)) {
      const again = this.find(focus[0], focus[1]) || board.querySelector("button");
      if (again) again.focus();
    }
  }

  targets() {
    const sel = this.sel;
    const out = new Set();
    if (!sel) return out;
    for (const m of this.st.legal_moves) {
      if (m.startsWith(`${sel}>`)) out.add(m.slice(3));
      else if (m.startsWith(`${sel}+`)) out.add(m.slice(3));
      else if (m.endsWith(`+${sel}`)) out.add(m.slice(0, 2));
      else if (m.startsWith(`${sel}@`)) out.add(`gap-row-${m.slice(3)}`);
    }
    return out;
  }

  card(c, { extra = "", label = "", compact = false, blocked = false, inert = false } = {}) {
    const [rank, suit] = [c[0], c[1]];
    const shown = rank === "T" ? "10" : rank;
    const red = suit === "H" || suit === "D" ? " red" : "";
    const cls = [
      "card", red.trim(), `s-${suit}`, compact ? "compact" : "", blocked ? "blocked" : "",
      this.sel === c ? "selected" : "", this.targetSet.has(c) ? "target" : "",
      this.landed === c ? "landed" : "", extra,
    ].filter(Boolean).join(" ");
    // the name starts with what the card shows ("10♥ ten of hearts"): axe's
    // label-content-name-mismatch; the big pip is drawn by CSS from data-pip, not text
    const name = `${shown}${SUITS[suit][1]} ${cardName(c)}${label}`;
    return `<button type="button" class="${cls}" data-card="${c}" data-pip="${SUITS[suit][1]}" aria-label="${esc(name)}"${this.sel === c ? ' aria-pressed="true"' : ""}${inert ? " disabled" : ""}>` +
      `<span class="corner">${shown}<i>${SUITS[suit][1]}</i></span></button>`;
  }

  prepare(st) {
    this.targetSet = this.targets();
    const last = this.last;
    this.landed = null;
    if (last && /^[2-9TJQKA][SHDC]/.test(last)) this.landed = last.slice(0, 2);
    if (last === "d" && st.position.waste && st.position.waste.length) this.landed = st.position.waste[st.position.waste.length - 1];
    if (last === "d" && st.position.piles && st.position.piles.length) this.landed = st.position.piles[st.position.piles.length - 1].top;
  }

  drawAccordion(st) {
    this.prepare(st);
    const p = st.position;
    const stock = p.stock_count
      ? `<button type="button" class="slot back" data-action="draw" aria-label="Stock, ${p.stock_count} cards: deal one"><span class="count">${p.stock_count}</span></button>`
      : `<button type="button" class="slot" data-action="draw" aria-label="Stock, empty">empty</button>`;
    const piles = p.piles.map((pile) => {
      const depth = pile.cards.length;
      const label = depth > 1 ? `, a pile of ${depth} cards` : "";
      const card = this.card(pile.top, { label, extra: depth > 1 ? "pile" : "" });
      return `<div class="pile-wrap">${card.replace("</button>", depth > 1 ? `<span class="badge" aria-hidden="true">${depth}</span></button>` : "</button>")}</div>`;
    });
    const hint = `<span>${p.piles.length ? "" : "Click the stock to deal the first card."}</span>`;
    return [["acc-top", [stock, hint]], ["acc", piles]];
  }

  drawPyramid(st) {
    this.prepare(st);
    const p = st.position;
    const access = new Set(p.accessible);
    const waste = p.waste || [];
    let stock;
    if (p.stock_count) {
      stock = `<button type="button" class="slot back" data-action="draw" aria-label="Stock, ${p.stock_count} cards: draw one"><span class="count">${p.stock_count}</span></button>`;
    } else if (waste.length) {
      stock = `<button type="button" class="slot" data-action="recycle" aria-label="Stock empty: recycle the waste">↻<br>recycle</button>`;
    } else {
      stock = `<button type="button" class="slot" data-action="draw" aria-label="Stock, empty" disabled></button>`;
    }
    const shownWaste = waste.slice(-3).map((c, i, a) =>
      i === a.length - 1 ? this.card(c, { label: ", top of the waste" }) : this.card(c, { label: ", in the waste", extra: "under", inert: true }));
    const wasteHtml = shownWaste.length
      ? `<div class="waste">${shownWaste.join("")}</div>`
      : `<div class="slot empty-waste" aria-hidden="true"></div>`;
    const rows = p.pyramid.map((row, r) =>
      `<div class="pyr-row">${row.map((c, i) =>
        c ? this.card(c, { label: `, row ${r + 1}${access.has(c) ? "" : ", covered"}`, blocked: !access.has(c) })
          : `<span class="card empty" aria-hidden="true" data-place="${r + 1},${i + 1}"></span>`).join("")}</div>`);
    return [
      ["pyr-top", [`<div>${stock}<div class="label">stock</div></div>`, `<div>${wasteHtml}<div class="label">waste</div></div>`]],
      ["pyr", rows],
    ];
  }

  drawGaps(st) {
    this.prepare(st);
    const p = st.position;
    const gaps = new Map((p.gaps || []).map((g) => [`${g.row},${g.column}`, g]));
    const cells = [];
    p.rows.forEach((row, r) => {
      row.forEach((c, i) => {
        const key = `${r + 1},${i + 1}`;
        if (c) {
          const kept = i < (p.kept ? p.kept[r] : 0);
          cells.push(this.card(c, { compact: true, extra: kept ? "kept" : "", label: `, row ${r + 1}, column ${i + 1}${kept ? ", in place" : ""}` }));
          return;
        }
        const g = gaps.get(key) || { accepts: null };
        const target = this.targetSet.has(`gap-row-${r + 1}`) && i === 0;
        const chosen = this.selGap === r + 1 && i === 0;
        const live = Boolean(g.accepts);
        const cls = ["gap", live ? "live" : "dead", target || chosen ? "target" : ""].filter(Boolean).join(" ");
        const takes = isCard(g.accepts) ? `, takes the ${cardName(g.accepts)}` : g.accepts ? `, takes ${g.accepts}` : ", nothing fits";
        cells.push(`<button type="button" class="${cls}" data-gap="${key}" aria-label="Gap, row ${r + 1}, column ${i + 1}${takes}"></button>`);
      });
    });
    const left = p.redeals_left;
    return [
      ["gaps", cells],
      ["gaps-bottom", [`<button type="button" class="tool" data-action="redeal" aria-label="Redeal, ${left} left">⟳ Redeal (${left} left)</button>`]],
    ];
  }
}

if (!customElements.get("daily-deal")) customElements.define("daily-deal", DailyDeal);
