// What the browser keeps (localStorage, no account): options, a game's progress, time and
// hints, the results and streaks, this browser's anonymous id, and what waits for the network.
// Every read survives storage that is disabled, full or corrupt: the game plays on without it.

const STORE = "dailydeal.v1";

export function readJSON(key, fallback) {
  try {
    const text = localStorage.getItem(`${STORE}.${key}`);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

/** Keep ``value`` under ``key``; null removes it. */
export function writeJSON(key, value) {
  try {
    if (value === null) localStorage.removeItem(`${STORE}.${key}`);
    else localStorage.setItem(`${STORE}.${key}`, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the game still works */
  }
}

/** The player's options: {theme: "dark"|"light", four, sound, timer}. */
export function options() {
  const o = readJSON("options", {});
  return o && typeof o === "object" ? o : {};
}

/** This browser's anonymous player id for results: random, made once, kept. */
export function clientId() {
  let id = readJSON("client", null);
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
    // randomUUID needs a secure context; getRandomValues works on plain http too
    id = crypto.randomUUID
      ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    writeJSON("client", id);
  }
  return id;
}

/** Every daily deal this browser solved: {id: {date, game, tier, moves, par, at}}. */
export function results() {
  return readJSON("results", {});
}

/** The moves of a game in progress in this browser (an empty list if none). */
export function progress(key) {
  const moves = readJSON(`progress.${key}`, []);
  return Array.isArray(moves) ? moves : [];
}

/** Keep a won daily deal (the fewest moves of this browser's wins of it). */
export function recordWin(meta, moves, hints, par) {
  if (!meta.id) return;
  const all = results();
  const old = all[meta.id];
  if (!old || moves < old.moves) {
    all[meta.id] = { date: meta.date, game: meta.game, tier: meta.tier, moves, par, hints, at: new Date().toISOString() };
  }
  writeJSON("results", all);
}

/** The result the server took for a deal from this browser ({won, moves, hints, counts_at}:
 *  when it counts for everybody, by the server). */
export function posted(id) {
  return readJSON("posted", {})[id] || null;
}

export function rememberPosted(id, mine) {
  if (!mine) return;
  const all = readJSON("posted", {});
  all[id] = { won: mine.won, moves: mine.moves, hints: mine.hints, counts_at: mine.counts_at ?? null };
  writeJSON("posted", all);
}

/** Days in a row, ending today or yesterday (the player's dates), with a daily deal solved. */
export function streak(today) {
  const days = new Set(Object.values(results()).map((r) => r.date));
  const day = new Date(`${today}T12:00:00Z`);
  if (!days.has(today)) day.setUTCDate(day.getUTCDate() - 1);
  let n = 0;
  while (days.has(day.toISOString().slice(0, 10))) {
    n += 1;
    day.setUTCDate(day.getUTCDate() - 1);
  }
  return n;
}

export function localToday() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

// --- what waited for the network (a win to verify, a result to post), oldest first ---------
export function queued() {
  const queue = readJSON("queue", []);
  return Array.isArray(queue) ? queue : [];
}

/** Queue ``item`` once: one win per game, one result per deal. */
export function enqueueOffline(item) {
  const list = queued();
  if (!list.some((q) => q.kind === item.kind && (q.key || q.id) === (item.key || item.id))) list.push(item);
  writeJSON("queue", list);
}

export function writeQueue(list) {
  writeJSON("queue", list.length ? list : null);
}
