// Accordion's board (layout "row"): the stock, then the piles in a row. Pure: the state JSON
// and the board's view in, sections of HTML out (board.js draws them).
import { cardButton } from "./cards.js";
import { t } from "./speech.js";
import { press } from "./words.js";

export function skeleton() {
  return '<div class="acc-top"><span class="slot"></span><span></span></div><div class="acc"></div>';
}

export function render(st, view) {
  const p = st.position;
  const landed = view.landed ?? (view.drew && p.piles.length ? p.piles[p.piles.length - 1].top : null);
  const v = { ...view, landed };
  const stock = p.stock_count
    ? `<button type="button" class="slot back" data-action="draw" aria-label="Stock, ${p.stock_count} cards: deal one"><span class="count">${p.stock_count}</span></button>`
    : `<button type="button" class="slot" data-action="draw" aria-label="Stock, empty">empty</button>`;
  const piles = p.piles.map((pile, i) => {
    const depth = pile.cards.length;
    const label = t("en", "at.pile", { n: i + 1 }) + (depth > 1 ? `, a pile of ${depth} cards` : "");
    const card = cardButton(pile.top, v, { label, extra: depth > 1 ? "pile" : "" });
    return `<div class="pile-wrap" role="listitem">${card.replace("</button>", depth > 1 ? `<span class="badge" aria-hidden="true">${depth}</span></button>` : "</button>")}</div>`;
  });
  const hint = `<span>${p.piles.length ? "" : `${press(true)} the stock to deal the first card.`}</span>`;
  // the piles are a list (a screen reader says how many, and each one's place in it)
  return [["acc-top", [stock, hint]], ["acc", piles, `role="list" aria-label="${t("en", "piles")}"`]];
}
