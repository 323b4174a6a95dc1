// The fairness note: when the deal's cards were committed to (SHA-256), and "before its day"
// only when the commitments list says so (in_advance).
import { esc } from "./cards.js";

/** Fill ``el`` for ``meta`` (hidden without a commitment) in ``w``'s words; ``client`` asks
 *  the list; ``current()``: still the deal shown when the list comes. */
export async function showFair(el, meta, client, current = () => true, w) {
  const c = meta && meta.commitment;
  el.hidden = !c;
  if (!c) return;
  const check = client.commitmentsURL(meta.date);
  const link = `<a href="${esc(check)}" target="_blank" rel="noopener" title="${esc(w.t("fair.hash", { hash: c.sha256 || "" }))}">${esc(w.t("fair.check"))}</a>`;
  el.innerHTML = `<span aria-hidden="true">🔒</span> ${esc(w.t("fair.short"))} · ${link}`;
  let row = null;
  try {
    const list = await client.json(check);
    row = (list.commitments || []).find((r) => r.id === meta.id) || null;
  } catch {
    return; // offline: the short note stays
  }
  if (!row || !row.committed_at || !current()) return;
  const at = new Date(row.committed_at);
  const time = Number.isNaN(at.getTime()) ? String(row.committed_at)
    : w.date(at, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });
  const said = w.t(row.in_advance ? "fair.before" : "fair.after", { time });
  el.innerHTML = `<span aria-hidden="true">🔒</span> ${esc(said)} · ${link}`;
  el.dataset.inAdvance = String(Boolean(row.in_advance));
}
