// The element's logic for a player who listens (a screen reader): every move said with what
// it left, what can be done now, and the live region that says it. The words are the
// element's catalogs' (static/locales/, the "say." keys), in the element's language: each
// function takes ``w``, the element's Words (i18n.js). A move's words come from rules.js
// (moveParts: its kind and its cards; placesOf), never from reading its text.
import { cap, cardName, isCard } from "./cards.js";

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
export function leftSaid(w, st) {
  const p = st.position;
  const vars = { score: st.score, stock: p.stock_count, piles: (p.piles || []).length, redeals: p.redeals_left };
  const said = w.t(`say.left.${st.game}`, vars);
  return said.startsWith("say.") ? w.t("say.left", vars) : said;
}

/** A move to make, in words ("pair the seven of spades with the six of hearts"); ``st``: the
 *  position it is made from. */
export function doSaid(rules, w, st, move) {
  const parts = rules.moveParts(st, move);
  const [a, b] = parts.cards.map((c) => cardName(c, w));
  const to = String(rules.placesOf(st, move).to || "").split(",");
  return w.t(`say.do.${parts.kind}`, { a, b, row: parts.row ?? to[0], column: to[1] });
}

/** A move played, said with what it left: ``before`` and ``after`` the states around it,
 *  ``count`` the moves played at once (typed moves: only their number is said). */
export function moveSaid(rules, w, before, after, move, count = 1) {
  const left = leftSaid(w, after);
  const end = after.state === "in progress" ? "" : ` ${endSaid(w, after)}`;
  if (count > 1) return w.t("say.said", { did: w.t("say.did.many", { n: count }), left }) + end;
  const parts = rules.moveParts(before, move);
  const [a, b] = parts.cards.map((c) => cardName(c, w));
  const p = after.position;
  const shown = { deal: top(p.piles)?.top, draw: top(p.waste) }[parts.kind];
  const vars = { a, b, card: shown ? cardName(shown, w) : "", n: after.score };
  let gap = null;
  if (parts.cards.length && p.rows) { // a Gaps card: where it went, and the gap it left
    Object.assign(vars, placeIn(p, parts.cards[0]));
    const from = placeIn(before.position, parts.cards[0]);
    const g = from && (p.gaps || []).find((x) => x.row === from.row && x.column === from.column);
    if (g) {
      const takes = isCard(g.accepts) ? w.t("say.takes.card", { card: cardName(g.accepts, w) }) : w.t(g.accepts ? "say.takes.two" : "say.takes.none");
      gap = w.t("say.gap_left", { ...from, takes });
    }
  }
  const did = cap(w.t(`say.did.${parts.kind}`, vars));
  return (gap ? w.t("say.said_gap", { did, gap, left }) : w.t("say.said", { did, left })) + end;
}

/** An undone ``move``, said with what the position has now (``st``, where it was made). */
export function undoneSaid(rules, w, st, move) {
  return w.t("say.undone", { move: doSaid(rules, w, st, move), left: leftSaid(w, st) });
}

export const restartSaid = (w, st) => w.t("say.restarted", { left: leftSaid(w, st) });

/** The end of a game in words (won, or lost: no moves left). */
export function endSaid(w, st) {
  return w.t(st.state === "won" ? "say.won" : "say.lost", { n: st.moves.length });
}

/** What can be done now, in words: the number of moves on the table and the first
 *  ``shown`` of them, then the stock's move ("3 moves: ...; or draw a card from the stock"). */
export function nowSaid(rules, w, st, shown = 3) {
  if (st.state !== "in progress") return endSaid(w, st);
  const table = [];
  const stock = [];
  for (const move of st.legal_moves) (rules.placesOf(st, move).from === null ? stock : table).push(move);
  const stockWords = stock.map((m) => doSaid(rules, w, st, m)).join(w.t("say.now.sep"));
  if (!table.length) return stock.length ? w.t("say.now.stock", { stock: stockWords }) : w.t("say.now.none");
  const list = table.slice(0, shown).map((m) => doSaid(rules, w, st, m)).join(w.t("say.now.sep"));
  const n = table.length;
  const moves = w.t(n <= shown ? "say.now.some" : "say.now.more", { n, shown, list });
  return stock.length ? w.t("say.now.or", { moves, stock: stockWords }) : w.t("say.now.end", { moves });
}

/** The live region of the element's announcements: a status that screen readers read and
 *  nobody sees (the message line stays what it was). The same words twice are still said. */
export class Speaker {
  /** ``region``: the live region; ``host``: the element, whose words (``host.words``) say. */
  constructor(region, host) {
    this.region = region;
    this.host = host;
  }

  get words() {
    return this.host.words;
  }

  say(text) {
    this.region.lang = this.words.locale;
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
