// Pyramid's board (layout "pyramid"): the stock and the waste over the seven rows. Pure: the
// state JSON and the board's view in, sections of HTML out (board.js draws them).
import { cardButton } from "./cards.js";
import { t } from "./speech.js";

const ROWS = [1, 2, 3, 4, 5, 6, 7];

export function skeleton() {
  const slot = '<span class="slot"></span>';
  return `<div class="pyr-top"><div>${slot}<div class="label">stock</div></div><div>${slot}<div class="label">waste</div></div></div>` +
    `<div class="pyr">${ROWS.map((n) => `<div class="pyr-row">${'<span class="card empty"></span>'.repeat(n)}</div>`).join("")}</div>`;
}

export function render(st, view) {
  const p = st.position;
  const waste = p.waste || [];
  const v = { ...view, landed: view.landed ?? (view.drew && waste.length ? waste[waste.length - 1] : null) };
  const access = new Set(p.accessible);
  let stock;
  if (p.stock_count) {
    stock = `<button type="button" class="slot back" data-action="draw" aria-label="Stock, ${p.stock_count} cards: draw one"><span class="count">${p.stock_count}</span></button>`;
  } else if (waste.length) {
    stock = `<button type="button" class="slot" data-action="recycle" aria-label="Stock empty: recycle the waste">↻<br>recycle</button>`;
  } else {
    stock = `<button type="button" class="slot" data-action="draw" aria-label="Stock, empty" disabled></button>`;
  }
  const shownWaste = waste.slice(-3).map((c, i, a) =>
    i === a.length - 1 ? cardButton(c, v, { label: ", top of the waste" }) : cardButton(c, v, { label: ", in the waste", extra: "under", inert: true }));
  const wasteHtml = shownWaste.length
    ? `<div class="waste">${shownWaste.join("")}</div>`
    : `<div class="slot empty-waste" aria-hidden="true"></div>`;
  // each row a group with its number; each card says its row and its place in the row
  const rows = p.pyramid.map((row, r) =>
    `<div class="pyr-row" role="group" aria-label="${t("en", "row", { row: r + 1 })}">${row.map((c, i) =>
      c ? cardButton(c, v, { label: t("en", "at.pyramid", { row: r + 1, n: i + 1 }) + (access.has(c) ? "" : ", covered"), blocked: !access.has(c) })
        : `<span class="card empty" aria-hidden="true" data-place="${r + 1},${i + 1}"></span>`).join("")}</div>`);
  return [
    ["pyr-top", [`<div>${stock}<div class="label">stock</div></div>`, `<div>${wasteHtml}<div class="label">waste</div></div>`], `role="group" aria-label="${t("en", "stock-waste")}"`],
    ["pyr", rows],
  ];
}
