// The element's words for the player's hand, chosen in one place: "tap" on a touch screen
// (a coarse pointer), "click" with a mouse or without a screen (Node's tests). The catalogs
// have a message of each kind (el.gap_pick.tap, el.gap_pick.click, ...).
const coarse = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

/** "tap" or "click": the last part of the key of a message that says it. */
export function hand() {
  return coarse() ? "tap" : "click";
}

const CARD = /^[2-9TJQKA][SHDC]$/;

/** A move of the notation (a hint's) in ``w``'s words: "pair the seven of spades with the
 *  six of hearts". ``layout``: the game's (specs.js), which says what "d" is. */
export function moveWords(layout, move, w) {
  const card = (c) => w.t("card.name", { rank: w.t(`card.rank.${c[0]}`), suit: w.t(`card.suit.${c[1]}`) });
  if (move === "d") return w.t(layout === "row" ? "move.deal" : "move.draw");
  // r: Pyramid's recycle, Gaps's redeal (the layout says which, never the game's name)
  if (move === "R" || move === "r") return w.t(move === "R" || layout === "grid" ? "move.redeal" : "move.recycle");
  let m = move.match(/^(\w\w)>(\w\w)$/);
  if (m) return w.t("move.put", { a: card(m[1]), b: card(m[2]) });
  m = move.match(/^(\w\w)\+(\w\w)$/);
  if (m) return w.t("move.pair", { a: card(m[1]), b: card(m[2]) });
  m = move.match(/^(\w\w)@(\d)$/);
  if (m) return w.t("move.to_row", { a: card(m[1]), row: Number(m[2]) });
  if (CARD.test(move)) return w.t(layout === "grid" ? "move.to_gap" : "move.king", { a: card(move) });
  return move;
}
