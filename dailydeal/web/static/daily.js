// The daily page: put the visitor's own "today" (the API's today?tz= rule) in the
// spotlight, hide later dates, show solved deals and the streak, and open solutions.
import { wordsFor } from "./i18n.js";

const root = document;
const spotlight = document.querySelector("[data-spotlight]");
const archive = document.querySelector("[data-archive]");
const DD = await customElements.whenDefined("daily-deal");
// the page's words: its language's catalog (the element's, fetched once), and the pages' own
// words this script says, which the page holds (static/locales/pages/ is never fetched)
const PAGE_WORDS = JSON.parse(spotlight.dataset.pageWords || "{}");
const W = await wordsFor(document.documentElement.lang || "en", PAGE_WORDS).catch(() => wordsFor("en", PAGE_WORDS));

for (const fill of document.querySelectorAll(".meter-fill[data-rating]")) {
  fill.style.setProperty("--r", fill.dataset.rating);
}

// "Solutions open ..." in the visitor's own clock and language
for (const t of document.querySelectorAll("[data-opens] time")) {
  t.textContent = W.date(new Date(t.getAttribute("datetime")), { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
}

async function visitorsToday() {
  const tz = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  try {
    const resp = await fetch(`/api/v1/daily/today?tz=${tz}`);
    if (resp.ok) return (await resp.json()).date;
  } catch {
    /* offline: keep the server's UTC date */
  }
  return null;
}

function arrange(today) {
  const days = [...root.querySelectorAll("details.day[data-date]")];
  const current = spotlight.querySelector("details.day");
  const mine = days.find((d) => d.dataset.date === today);
  if (mine && mine !== current) {
    if (current) {
      current.open = false;
      const after = [...archive.children].find((d) => d.dataset.date < current.dataset.date);
      archive.insertBefore(current, after || null);
    }
    spotlight.replaceChildren(mine);
    mine.open = true;
    const label = mine.querySelector(".day-label");
    document.querySelector("[data-today-label]").textContent = label ? label.textContent : today;
  }
  for (const d of days) d.hidden = d.dataset.date > today;
  document.querySelector("[data-archive-empty]").hidden = [...archive.children].some((d) => !d.hidden);
}

function showResults(today) {
  const mine = DD.results();
  for (const row of document.querySelectorAll("[data-deal]")) {
    const r = mine[row.dataset.deal];
    const mark = row.querySelector("[data-result]");
    if (!mark) continue;
    if (r) {
      mark.textContent = "✓";
      mark.title = W.t("daily.solved_in", { n: r.moves });
    } else if (DD.progress(row.dataset.deal).length) {
      mark.textContent = "…";
      mark.title = W.t("daily.in_progress", { n: DD.progress(row.dataset.deal).length });
    }
    if (mark.title) { // the mark's meaning in words too, for a screen reader (a title is not read)
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", mark.title);
    }
  }
  for (const day of document.querySelectorAll("details.day")) {
    const solved = [...day.querySelectorAll("[data-deal]")].filter((r) => mine[r.dataset.deal]).length;
    const status = day.querySelector("[data-day-status]");
    if (status && solved) status.textContent = W.t("daily.day_solved", { n: solved });
  }
  const n = DD.streak(today);
  const badge = document.querySelector("[data-streak]");
  if (badge && n > 0) {
    badge.textContent = W.t("site.streak", { n });
    badge.hidden = false;
  }
}

document.addEventListener("click", async (e) => {
  const button = e.target.closest("[data-solution]");
  if (!button) return;
  const id = button.dataset.solution;
  const out = document.querySelector(`[data-solution-text="${CSS.escape(id)}"]`);
  if (!out.hidden) {
    out.hidden = true;
    button.textContent = W.t("daily.show_solution");
    return;
  }
  button.disabled = true;
  try {
    const resp = await fetch(`/api/v1/deals/${encodeURIComponent(id)}/solution`);
    const body = await resp.json();
    const problem = !resp.ok && body.code && W.t(`problem.${body.code}`);
    out.textContent = resp.ok ? `${body.moves.join(" ")}\n${W.t("daily.solution_length", { n: body.solution_length })}` : problem || body.detail;
  } catch {
    out.textContent = W.t("el.unreachable");
  }
  out.hidden = false;
  button.textContent = W.t("daily.hide_solution");
  button.disabled = false;
});

// Offline: ask the service worker (registered by offline.js) to keep today's deals, their
// pages and their JSON, so that they open and play later without a network.
function keepForOffline() {
  if (!("serviceWorker" in navigator) || !navigator.onLine) return;
  const rows = [...spotlight.querySelectorAll("[data-deal]")];
  const urls = rows.flatMap((row) => [row.querySelector("a").href, row.dataset.json]);
  navigator.serviceWorker.ready.then((reg) => reg.active && reg.active.postMessage({ prefetch: urls }));
}

const today = (await visitorsToday()) || spotlight.dataset.utcToday;
if (today) arrange(today);
showResults(today || new Date().toISOString().slice(0, 10));
keepForOffline();
