// Gaps's board (layout "grid"): four rows of thirteen places, cards and gaps, and the redeal
// button. Pure: the state JSON and the board's view in, sections of HTML out (board.js).
import { cardButton, cardName, isCard } from "./cards.js";
import { t } from "./speech.js";

export function skeleton() {
  return `<div class="gaps">${'<span class="gap dead"></span>'.repeat(52)}</div><div class="gaps-bottom"><span class="tool">⟳ Redeal</span></div>`;
}

export function render(st, view) {
  const p = st.position;
  const gaps = new Map((p.gaps || []).map((g) => [`${g.row},${g.column}`, g]));
  // a grid (rows of cells) that a screen reader walks; the rows and cells take no box of
  // their own (display: contents): the places stand in the board's CSS grid
  const rows = p.rows.map((row, r) => {
    const cells = [];
    row.forEach((c, i) => {
      const place = `${r + 1},${i + 1}`;
      if (c) {
        const kept = i < (p.kept ? p.kept[r] : 0);
        cells.push(cardButton(c, view, { compact: true, extra: kept ? "kept" : "", label: `, row ${r + 1}, column ${i + 1}${kept ? ", in place" : ""}` }));
        return;
      }
      const g = gaps.get(place) || { accepts: null };
      const lit = view.targets.has(place) || view.picked === place;
      const cls = ["gap", g.accepts ? "live" : "dead", lit ? "target" : ""].filter(Boolean).join(" ");
      const takes = isCard(g.accepts) ? `, takes the ${cardName(g.accepts)}` : g.accepts ? `, takes ${g.accepts}` : ", nothing fits";
      cells.push(`<button type="button" class="${cls}" data-gap="${place}" aria-label="Gap, row ${r + 1}, column ${i + 1}${takes}"></button>`);
    });
    return `<div class="cells" role="row" aria-label="${t("en", "row", { row: r + 1 })}">${cells.map((cell) => `<span class="cell" role="gridcell">${cell}</span>`).join("")}</div>`;
  });
  const left = p.redeals_left;
  return [
    ["gaps", rows, `role="grid" aria-label="${t("en", "grid")}"`],
    ["gaps-bottom", [`<button type="button" class="tool" data-action="redeal" aria-label="Redeal, ${left} left">⟳ Redeal (${left} left)</button>`]],
  ];
}
