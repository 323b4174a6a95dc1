// A card as the board shows it: its name, its colour and the button that draws it. Pure
// (strings in, HTML text out), so the renderers and their tests need no DOM.

import { Words } from "./i18n.js";

export const SUITS = { S: ["spades", "♠"], H: ["hearts", "♥"], D: ["diamonds", "♦"], C: ["clubs", "♣"] };
// without a catalog (Node's tests, a card named before the words are in): the keys' English
const ENGLISH = new Words("en", {
  "card.name": "{rank} of {suit}", "card.sep": ", ",
  ...Object.fromEntries([..."A23456789TJQK"].map((r, i) => [`card.rank.${r}`, "ace two three four five six seven eight nine ten jack queen king".split(" ")[i]])),
  ...Object.fromEntries(Object.entries(SUITS).map(([s, [n]]) => [`card.suit.${s}`, n])),
});

export const isCard = (s) => typeof s === "string" && /^[2-9TJQKA][SHDC]$/.test(s);
export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** "seven of spades", in ``words``' language */
export function cardName(card, words = ENGLISH) {
  return words.t("card.name", { rank: words.t(`card.rank.${card[0]}`), suit: words.t(`card.suit.${card[1]}`) });
}

/** The button of card ``c``. ``view``: what the board shows around it ({picked, targets: a
 *  Set of places, landed, words}); ``opts``: how this card sits (``label``: what more its
 *  name says, a list of words; a class, compact, blocked, inert: drawn but not playable). */
export function cardButton(c, view, { extra = "", label = [], compact = false, blocked = false, inert = false } = {}) {
  const words = view.words || ENGLISH;
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
  const name = [`${shown}${SUITS[suit][1]} ${cardName(c, words)}`, ...label].join(words.t("card.sep"));
  return `<button type="button" class="${cls}" data-card="${c}" data-pip="${SUITS[suit][1]}" aria-label="${esc(name)}"${picked ? ' aria-pressed="true"' : ""}${inert ? " disabled" : ""}>` +
    `<span class="corner">${shown}<i>${SUITS[suit][1]}</i></span></button>`;
}
