// Gaps's board (layout "grid"): four rows of thirteen places, cards and gaps, and the redeal
// button. Pure: the state JSON and the board's view in, sections of HTML out (board.js).
import { cardButton, cardName, esc, isCard } from "./cards.js";

export function skeleton(w) {
  return `<div class="gaps">${'<span class="gap dead"></span>'.repeat(52)}</div><div class="gaps-bottom"><span class="tool">${esc(w.t("board.redeal"))}</span></div>`;
}

export function render(st, view) {
  const p = st.position;
  const w = view.words;
  const gaps = new Map((p.gaps || []).map((g) => [`${g.row},${g.column}`, g]));
  // a grid (rows of cells) that a screen reader walks; the rows and cells take no box of
  // their own (display: contents): the places stand in the board's CSS grid. Each row a
  // section within: a move replaces its cells, not the rows they stand in.
  const rows = p.rows.map((row, r) => {
    const cells = [];
    row.forEach((c, i) => {
      const place = `${r + 1},${i + 1}`;
      if (c) {
        const kept = i < (p.kept ? p.kept[r] : 0);
        const where = w.t("card.row_column", { row: r + 1, column: i + 1 });
        cells.push(cardButton(c, view, { compact: true, extra: kept ? "kept" : "", label: kept ? [where, w.t("card.in_place")] : [where] }));
        return;
      }
      const g = gaps.get(place) || { accepts: null };
      const lit = view.targets.has(place) || view.picked === place;
      const cls = ["gap", g.accepts ? "live" : "dead", lit ? "target" : ""].filter(Boolean).join(" ");
      const where = w.t("card.row_column", { row: r + 1, column: i + 1 });
      const label = isCard(g.accepts) ? w.t("board.gap_takes", { where, card: cardName(g.accepts, w) })
        : g.accepts ? w.t("board.gap_takes_any", { where, what: g.accepts }) : w.t("board.gap_nothing", { where });
      cells.push(`<button type="button" class="${cls}" data-gap="${place}" aria-label="${esc(label)}"></button>`);
    });
    return ["cells", cells.map((cell) => `<span class="cell" role="gridcell">${cell}</span>`), `role="row" aria-label="${esc(w.t("board.row", { row: r + 1 }))}"`];
  });
  const left = p.redeals_left;
  return [
    ["gaps", rows, `role="grid" aria-label="${esc(w.t("board.grid"))}"`],
    ["gaps-bottom", [`<button type="button" class="tool" data-action="redeal" aria-label="${esc(w.t("board.redeal_label", { n: left }))}">${esc(w.t("board.redeal_left", { n: left }))}</button>`]],
  ];
}
