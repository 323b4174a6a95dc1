// Accordion's board (layout "row"): the stock, then the piles in a row. Pure: the state JSON
// and the board's view in, sections of HTML out (board.js draws them).
import { cardButton, esc } from "./cards.js";
import { hand } from "./words.js";

export function skeleton() {
  return '<div class="acc-top"><span class="slot"></span><span></span></div><div class="acc"></div>';
}

export function render(st, view) {
  const p = st.position;
  const w = view.words;
  const landed = view.landed ?? (view.drew && p.piles.length ? p.piles[p.piles.length - 1].top : null);
  const v = { ...view, landed };
  const stock = p.stock_count
    ? `<button type="button" class="slot back" data-action="draw" aria-label="${esc(w.t("board.stock_deal", { n: p.stock_count }))}"><span class="count">${p.stock_count}</span></button>`
    : `<button type="button" class="slot" data-action="draw" aria-label="${esc(w.t("board.stock_empty"))}">${esc(w.t("board.empty"))}</button>`;
  const piles = p.piles.map((pile, i) => {
    const depth = pile.cards.length;
    const label = [w.t("card.pile_at", { n: i + 1 }), ...(depth > 1 ? [w.t("card.pile", { n: depth })] : [])];
    const card = cardButton(pile.top, v, { label, extra: depth > 1 ? "pile" : "" });
    return `<div class="pile-wrap" role="listitem">${card.replace("</button>", depth > 1 ? `<span class="badge" aria-hidden="true">${depth}</span></button>` : "</button>")}</div>`;
  });
  const hint = `<span>${p.piles.length ? "" : esc(w.t(`board.first_deal.${hand()}`))}</span>`;
  // the piles are a list (a screen reader says how many, and each one's place in it)
  return [["acc-top", [stock, hint]], ["acc", piles, `role="list" aria-label="${esc(w.t("board.piles"))}"`]];
}
