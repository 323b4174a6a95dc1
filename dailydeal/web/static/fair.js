// The fairness note: when the deal's cards were committed to (SHA-256), and "before its day"
// only when the commitments list says so (in_advance).
import { esc } from "./cards.js";

/** Fill ``el`` for ``meta`` (hidden without a commitment); ``client`` asks the list;
 *  ``current()``: still the deal shown when the list comes. */
export async function showFair(el, meta, client, current = () => true) {
  const c = meta && meta.commitment;
  el.hidden = !c;
  if (!c) return;
  const check = client.commitmentsURL(meta.date);
  const link = `<a href="${esc(check)}" target="_blank" rel="noopener" title="sha256 ${esc(c.sha256 || "")}">check the commitment</a>`;
  el.innerHTML = `<span aria-hidden="true">🔒</span> Fair deal: its cards were committed to (SHA-256) · ${link}`;
  let row = null;
  try {
    const list = await client.json(check);
    row = (list.commitments || []).find((r) => r.id === meta.id) || null;
  } catch {
    return; // offline: the short note stays
  }
  if (!row || !row.committed_at || !current()) return;
  const at = String(row.committed_at).replace("T", " ").replace(/:\d\d(\.\d+)?(\+00:00|Z)$/, " UTC");
  const when = row.in_advance ? "before its day began" : "after its day began, so it proves less";
  el.innerHTML = `<span aria-hidden="true">🔒</span> Fair deal: committed ${esc(at)}, ${when} · ${link}`;
  el.dataset.inAdvance = String(Boolean(row.in_advance));
}
