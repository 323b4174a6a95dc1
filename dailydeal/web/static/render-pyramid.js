// Pyramid's board (layout "pyramid"): the stock and the waste over the seven rows. Pure: the
// state JSON and the board's view in, sections of HTML out (board.js draws them).
import { cardButton, esc } from "./cards.js";

const ROWS = [1, 2, 3, 4, 5, 6, 7];

export function skeleton(w) {
  const slot = '<span class="slot"></span>';
  return `<div class="pyr-top"><div>${slot}<div class="label">${esc(w.t("board.stock"))}</div></div><div>${slot}<div class="label">${esc(w.t("board.waste"))}</div></div></div>` +
    `<div class="pyr">${ROWS.map((n) => `<div class="pyr-row">${'<span class="card empty"></span>'.repeat(n)}</div>`).join("")}</div>`;
}

export function render(st, view) {
  const p = st.position;
  const w = view.words;
  const waste = p.waste || [];
  const v = { ...view, landed: view.landed ?? (view.drew && waste.length ? waste[waste.length - 1] : null) };
  const access = new Set(p.accessible);
  let stock;
  if (p.stock_count) {
    stock = `<button type="button" class="slot back" data-action="draw" aria-label="${esc(w.t("board.stock_draw", { n: p.stock_count }))}"><span class="count">${p.stock_count}</span></button>`;
  } else if (waste.length) {
    stock = `<button type="button" class="slot" data-action="recycle" aria-label="${esc(w.t("board.recycle_label"))}">↻<br>${esc(w.t("board.recycle"))}</button>`;
  } else {
    stock = `<button type="button" class="slot" data-action="draw" aria-label="${esc(w.t("board.stock_empty"))}" disabled></button>`;
  }
  const shownWaste = waste.slice(-3).map((c, i, a) =>
    i === a.length - 1 ? cardButton(c, v, { label: [w.t("card.top_of_waste")] }) : cardButton(c, v, { label: [w.t("card.in_waste")], extra: "under", inert: true }));
  const wasteHtml = shownWaste.length
    ? `<div class="waste">${shownWaste.join("")}</div>`
    : `<div class="slot empty-waste" aria-hidden="true"></div>`;
  // each row a group with its number; each card says its row and its place in the row
  // (a section within: a pair removed replaces its cards, not the rows they stand in)
  const rows = p.pyramid.map((row, r) => ["pyr-row", row.map((c, i) =>
    c ? cardButton(c, v, { label: [w.t("card.row_card", { row: r + 1, n: i + 1 }), ...(access.has(c) ? [] : [w.t("card.covered")])], blocked: !access.has(c) })
      : `<span class="card empty" aria-hidden="true" data-place="${r + 1},${i + 1}"></span>`), `role="group" aria-label="${esc(w.t("board.row", { row: r + 1 }))}"`]);
  return [
    ["pyr-top", [`<div>${stock}<div class="label">${esc(w.t("board.stock"))}</div></div>`, `<div>${wasteHtml}<div class="label">${esc(w.t("board.waste"))}</div></div>`], `role="group" aria-label="${esc(w.t("board.stock_waste"))}"`],
    ["pyr", rows],
  ];
}
