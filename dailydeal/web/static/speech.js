// The element's words for a player who listens (a screen reader): every move said with what
// it left, what can be done now, the places' positions on the board, the share text's words
// and its plain option. One table (WORDS), by language: English, and Spanish for what is said
// aloud (a missing key falls back to English). Each string is whole, with placeholders
// ({card}, {n}), so that it moves into a message catalog as it is. A move's words come from
// rules.js (moveParts: its kind and its cards; placesOf), never from reading its text.
import { cap, cardName, isCard } from "./cards.js";

export const WORDS = {
  en: {
    // a move played, said after it (with what it left, "left.<game>")
    "did.deal": "Dealt the {card}",
    "did.pile": "{a} put on the {b}",
    "did.draw": "Drew the {card}",
    "did.recycle": "The waste is turned over into the stock",
    "did.pair": "{a} and {b} removed",
    "did.king": "{a} removed",
    "did.gap": "{a} moved to row {row}, column {column}",
    "did.two": "{a} moved to row {row}, column {column}",
    "did.redeal": "Redeal: {n} cards kept in place",
    "did.redeal.one": "Redeal: 1 card kept in place",
    "did.many": "{n} moves played",
    "said": "{did}. {left}.",
    "said.gap": "{did}. {gap}. {left}.",
    "gap-left": "The gap at row {row}, column {column} {takes}",
    "takes.card": "takes the {card}",
    "takes.two": "takes any two",
    "takes.none": "takes nothing",
    "left.accordion": "Piles: {piles}, stock: {stock}",
    "left.pyramid": "Cards left: {score}, stock: {stock}",
    "left.gaps": "In place: {score}, redeals left: {redeals}",
    "left": "Score {score}",
    "undone": "Undone: {move}. {left}.",
    "restarted": "Dealt again from the start. {left}.",
    "won": "Won in {n} moves!",
    "won.one": "Won in 1 move!",
    "lost": "No moves left: the game is lost after {n} moves. Undo to try another way.",
    "lost.one": "No moves left: the game is lost after 1 move. Undo to try another way.",
    // a move to make: what can be done now (the keys ? and W), and an undone move
    "do.deal": "deal a card from the stock",
    "do.pile": "put the {a} on the {b}",
    "do.draw": "draw a card from the stock",
    "do.recycle": "turn the waste over into the stock",
    "do.pair": "pair the {a} with the {b}",
    "do.king": "remove the {a}",
    "do.gap": "move the {a} to row {row}, column {column}",
    "do.two": "move the {a} to row {row}, column 1",
    "do.redeal": "redeal",
    "now.none": "No moves left.",
    "now.one": "1 move: {list}",
    "now.many": "{n} moves: {list}",
    "now.more": "{n} moves, the first {shown}: {list}",
    "now.or": "{moves}; or {stock}.",
    "now.end": "{moves}.",
    "now.stock": "No move on the table; only {stock}.",
    "now.sep": "; ",
    // the board's structure (accessible names)
    "at.pile": ", pile {n}",
    "at.pyramid": ", row {row}, card {n}",
    "piles": "Piles, left to right",
    "row": "Row {row}",
    "stock-waste": "Stock and waste",
    "grid": "Four rows of thirteen places",
    "speech": "Moves said",
    // the share text and its plain option (no emoji)
    "share.won": "{mark}Won in {n} moves{par}{hints}",
    "share.par": " (par {par})",
    "share.par-met": " (par {par}, matched{star})",
    "share.time": "{mark}{time} (player's clock)",
    "share.time-plain": "Time {time} (player's clock)",
    "share.plain": "Share without emoji",
  },
  es: {
    "did.deal": "Carta repartida: {card}",
    "did.pile": "{a} pasa sobre {b}",
    "did.draw": "Carta robada: {card}",
    "did.recycle": "El descarte vuelve al mazo",
    "did.pair": "Fuera: {a} y {b}",
    "did.king": "Fuera: {a}",
    "did.gap": "{a} pasa a la fila {row}, columna {column}",
    "did.two": "{a} pasa a la fila {row}, columna {column}",
    "did.redeal": "Nuevo reparto: {n} cartas quedan en su sitio",
    "did.redeal.one": "Nuevo reparto: 1 carta queda en su sitio",
    "did.many": "{n} jugadas hechas",
    "gap-left": "El hueco de la fila {row}, columna {column} {takes}",
    "takes.card": "admite {card}",
    "takes.two": "admite cualquier dos",
    "takes.none": "no admite nada",
    "left.accordion": "Montones: {piles}, mazo: {stock}",
    "left.pyramid": "Cartas restantes: {score}, mazo: {stock}",
    "left.gaps": "En su sitio: {score}, repartos restantes: {redeals}",
    "left": "Puntuación {score}",
    "undone": "Deshecho: {move}. {left}.",
    "restarted": "Repartido de nuevo desde el principio. {left}.",
    "won": "¡Ganada en {n} jugadas!",
    "won.one": "¡Ganada en 1 jugada!",
    "lost": "No quedan jugadas: partida perdida tras {n} jugadas. Deshaz para probar otro camino.",
    "lost.one": "No quedan jugadas: partida perdida tras 1 jugada. Deshaz para probar otro camino.",
    "do.deal": "repartir una carta del mazo",
    "do.pile": "poner {a} sobre {b}",
    "do.draw": "robar una carta del mazo",
    "do.recycle": "devolver el descarte al mazo",
    "do.pair": "emparejar {a} con {b}",
    "do.king": "quitar {a}",
    "do.gap": "mover {a} a la fila {row}, columna {column}",
    "do.two": "mover {a} a la fila {row}, columna 1",
    "do.redeal": "repartir de nuevo",
    "now.none": "No quedan jugadas.",
    "now.one": "1 jugada: {list}",
    "now.many": "{n} jugadas: {list}",
    "now.more": "{n} jugadas, las {shown} primeras: {list}",
    "now.or": "{moves}; o {stock}.",
    "now.stock": "Ninguna jugada en la mesa; solo {stock}.",
    "card": "{rank} de {suit}",
    "rank.A": "as", "rank.2": "dos", "rank.3": "tres", "rank.4": "cuatro", "rank.5": "cinco",
    "rank.6": "seis", "rank.7": "siete", "rank.8": "ocho", "rank.9": "nueve", "rank.T": "diez",
    "rank.J": "jota", "rank.Q": "reina", "rank.K": "rey",
    "suit.S": "picas", "suit.H": "corazones", "suit.D": "diamantes", "suit.C": "tréboles",
  },
};

/** The language of the words for ``el``: its own or its nearest ancestor's ``lang`` (the
 *  primary subtag), when WORDS has it; else English. */
export function langOf(el) {
  const tag = (el && el.closest && el.closest("[lang]")?.getAttribute("lang")) || "en";
  const primary = tag.toLowerCase().split("-")[0];
  return primary in WORDS ? primary : "en";
}

const said = (lang, key) => (WORDS[lang] && WORDS[lang][key]) ?? WORDS.en[key];

/** The words of ``key`` in ``lang`` (English where it has none), ``vars`` put in; with
 *  ``n`` 1, the key's singular ("<key>.one") where there is one. */
export function t(lang, key, vars = {}) {
  const text = (vars.n === 1 && said(lang, `${key}.one`)) || said(lang, key);
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
}

/** A card's name in ``lang`` ("seven of spades", "siete de picas"). */
export function cardWords(lang, card) {
  const T = WORDS[lang];
  if (!T || !T.card) return cardName(card);
  return t(lang, "card", { rank: T[`rank.${card[0]}`], suit: T[`suit.${card[1]}`] });
}

const top = (list) => (list && list.length ? list[list.length - 1] : null);

/** Where ``card`` lies in a grid position ({row, column}, counted from 1), or null. */
function placeIn(position, card) {
  for (const [r, row] of (position.rows || []).entries()) {
    const i = row.indexOf(card);
    if (i >= 0) return { row: r + 1, column: i + 1 };
  }
  return null;
}

/** What a position has left, in words ("20 cards left, 12 in the stock"). */
export function leftSaid(lang, st) {
  const p = st.position;
  const vars = { score: st.score, stock: p.stock_count, piles: (p.piles || []).length, redeals: p.redeals_left };
  const key = `left.${st.game}`;
  return t(lang, key in WORDS.en ? key : "left", vars);
}

/** A move to make, in words ("pair the seven of spades with the six of hearts"); ``st``: the
 *  position it is made from. */
export function doSaid(rules, lang, st, move) {
  const parts = rules.moveParts(st, move);
  const [a, b] = parts.cards.map((c) => cardWords(lang, c));
  const to = String(rules.placesOf(st, move).to || "").split(",");
  return t(lang, `do.${parts.kind}`, { a, b, row: parts.row ?? to[0], column: to[1] });
}

/** A move played, said with what it left: ``before`` and ``after`` the states around it,
 *  ``count`` the moves played at once (typed moves: only their number is said). */
export function moveSaid(rules, lang, before, after, move, count = 1) {
  const left = leftSaid(lang, after);
  const end = after.state === "in progress" ? "" : ` ${endSaid(lang, after)}`;
  if (count > 1) return t(lang, "said", { did: t(lang, "did.many", { n: count }), left }) + end;
  const parts = rules.moveParts(before, move);
  const [a, b] = parts.cards.map((c) => cardWords(lang, c));
  const p = after.position;
  const shown = { deal: top(p.piles)?.top, draw: top(p.waste) }[parts.kind];
  const vars = { a, b, card: shown ? cardWords(lang, shown) : "", n: after.score };
  let gap = null;
  if (parts.cards.length && p.rows) { // a Gaps card: where it went, and the gap it left
    Object.assign(vars, placeIn(p, parts.cards[0]));
    const from = placeIn(before.position, parts.cards[0]);
    const g = from && (p.gaps || []).find((x) => x.row === from.row && x.column === from.column);
    if (g) {
      const takes = isCard(g.accepts) ? t(lang, "takes.card", { card: cardWords(lang, g.accepts) }) : t(lang, g.accepts ? "takes.two" : "takes.none");
      gap = t(lang, "gap-left", { ...from, takes });
    }
  }
  const did = cap(t(lang, `did.${parts.kind}`, vars));
  return (gap ? t(lang, "said.gap", { did, gap, left }) : t(lang, "said", { did, left })) + end;
}

/** An undone ``move``, said with what the position has now (``st``, where it was made). */
export function undoneSaid(rules, lang, st, move) {
  return t(lang, "undone", { move: doSaid(rules, lang, st, move), left: leftSaid(lang, st) });
}

export const restartSaid = (lang, st) => t(lang, "restarted", { left: leftSaid(lang, st) });

/** The end of a game in words (won, or lost: no moves left). */
export function endSaid(lang, st) {
  return t(lang, st.state === "won" ? "won" : "lost", { n: st.moves.length });
}

/** What can be done now, in words: the number of moves on the table and the first
 *  ``shown`` of them, then the stock's move ("3 moves: ...; or draw a card from the stock"). */
export function nowSaid(rules, lang, st, shown = 3) {
  if (st.state !== "in progress") return endSaid(lang, st);
  const table = [];
  const stock = [];
  for (const move of st.legal_moves) (rules.placesOf(st, move).from === null ? stock : table).push(move);
  const stockWords = stock.map((m) => doSaid(rules, lang, st, m)).join(t(lang, "now.sep"));
  if (!table.length) return stock.length ? t(lang, "now.stock", { stock: stockWords }) : t(lang, "now.none");
  const list = table.slice(0, shown).map((m) => doSaid(rules, lang, st, m)).join(t(lang, "now.sep"));
  const n = table.length;
  const moves = t(lang, n === 1 ? "now.one" : n <= shown ? "now.many" : "now.more", { n, shown, list });
  return stock.length ? t(lang, "now.or", { moves, stock: stockWords }) : t(lang, "now.end", { moves });
}

/** The live region of the element's announcements: a status that screen readers read and
 *  nobody sees (the message line stays what it was). The same words twice are still said. */
export class Speaker {
  constructor(region, host) {
    this.region = region;
    this.host = host;
  }

  get lang() {
    return langOf(this.host);
  }

  say(text) {
    this.region.lang = this.lang;
    this.region.textContent = this.region.textContent === text ? `${text}\u00a0` : text;
  }
}

/** Keep keyboard focus in the element after an action: when the element that had it
 *  (``had``) is gone or disabled (Undo with nothing left to undo), the board's first place. */
export function keepFocus(root, board, had) {
  if (!had || (had.isConnected && !had.disabled && root.activeElement)) return;
  const place = board.querySelector("button:not(:disabled)");
  if (place) place.focus();
}
