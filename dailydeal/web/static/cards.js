// A card as the board shows it: its name, its colour and the button that draws it. Pure
// (strings in, HTML text out), so the renderers and their tests need no DOM.

const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
export const SUITS = { S: ["spades", "♠"], H: ["hearts", "♥"], D: ["diamonds", "♦"], C: ["clubs", "♣"] };

export const isCard = (s) => typeof s === "string" && /^[2-9TJQKA][SHDC]$/.test(s);
export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** "seven of spades" */
export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUITS[card[1]][0]}`;
}

/** The button of card ``c``. ``view``: what the board shows around it ({picked, targets: a
 *  Set of places, landed}); ``opts``: how this card sits (a label, a class, compact, blocked,
 *  inert: drawn but not playable). */
export function cardButton(c, view, { extra = "", label = "", compact = false, blocked = false, inert = false } = {}) {
  const [rank, suit] = [c[0], c[1]];
  const shown = rank === "T" ? "10" : rank;
  const red = suit === "H" || suit === "D" ? "red" : "";
  const picked = view.picked === c;
  const cls = [
    "card", red, `s-${suit}`, compact ? "compact" : "", blocked ? "blocked" : "",
    picked ? "selected" : "", view.targets.has(c) ? "target" : "",
    view.landed === c ? "landed" : "", extra,
  ].filter(Boolean).join(" ");
  // the name starts with what the card shows ("10♥ ten of hearts"): axe's
  // label-content-name-mismatch; the big pip is drawn by CSS from data-pip, not text
  const name = `${shown}${SUITS[suit][1]} ${cardName(c)}${label}`;
  return `<button type="button" class="${cls}" data-card="${c}" data-pip="${SUITS[suit][1]}" aria-label="${esc(name)}"${picked ? ' aria-pressed="true"' : ""}${inert ? " disabled" : ""}>` +
    `<span class="corner">${shown}<i>${SUITS[suit][1]}</i></span></button>`;
}
