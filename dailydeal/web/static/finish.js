// The end of a game in words: the verdict, the statistics line, the share text. Pure (the
// answers in, text out), so Node tests them without a browser.
import { plural } from "./cards.js";
import { clockText } from "./clock.js";
import { t } from "./speech.js";

const TIER_MARK = { easy: "🟢", medium: "🟡", hard: "🟠", expert: "🔴" };

/** The result card's title and verdict for the server's verdict of ``n`` moves. */
export function verdictTexts(verdict, par, hints) {
  const n = verdict.moves;
  const helped = hints ? ` with ${plural(hints, "hint")}` : "";
  if (!verdict.won) return { title: "Solved!", verdict: `The server did not confirm the win (${verdict.state}).` };
  const vsPar = par ? ` The solver's par is ${par}${n <= par ? ": you matched it ⭐" : ""}.` : "";
  return { title: `Solved in ${n} moves${helped}`, verdict: `Verified by the server: won in ${n} moves${helped}.${vsPar}` };
}

/** Everybody's plays of a deal in a line ("412 players, 63% won, you beat 80% of the other
 *  winners on moves"); ``mine``: this browser's counted result, or null. */
export function statsText(stats, mine, note = "") {
  let text = `${plural(stats.plays, "player")}, ${Math.round(stats.win_rate * 100)}% won`;
  if (mine && mine.won) text += versus(stats, mine.moves);
  return `${text}${stats.final ? " (final)" : ""}.${note}`;
}

/** A winner among the other winners, on moves: ties are said as ties. */
function versus(stats, moves) {
  const others = stats.wins - 1;
  if (others <= 0) return ", you are the first to win it";
  const count = (keep) => stats.winning_moves.filter((w) => keep(w.moves)).reduce((a, w) => a + w.count, 0);
  const beaten = count((m) => m > moves);
  const tied = count((m) => m === moves) - 1; // this play is one of them
  const them = (n) => (n === 1 ? "the other winner" : `the ${n} other winners`);
  if (beaten + tied === others) {
    if (!beaten) return `, you tied ${them(tied)} on moves`;
    return tied ? `, the fewest moves, tied with ${tied}: you beat ${beaten} of ${them(others)}` : `, the fewest moves: you beat ${them(others)}`;
  }
  const pct = `you beat ${Math.round((100 * beaten) / others)}% of the other winners on moves`;
  return tied ? `, ${pct}, tied with ${tied}` : `, ${pct}`;
}

/** The share text of a win, without spoilers: the deal (its tier in a word, and a mark), the
 *  moves against par, the hints, the player's time (``seconds``, null: not shown) and a link:
 *  ``link``, the page of the signed win (its solve), else the deal's play page; ``plain``: no
 *  emoji at all (the words alone carry every meaning). */
export function shareText({ meta, title, origin, n, par, hints, seconds, link = null, plain = false }) {
  const mark = (emoji) => (plain ? "" : emoji);
  const vsPar = par ? t("en", n <= par ? "share.par-met" : "share.par", { par, star: mark(" ⭐") }) : "";
  const won = t("en", "share.won", { mark: mark("✅ "), n, par: vsPar, hints: hints ? ` with ${plural(hints, "hint")}` : "" });
  // the time is the player's own clock: the server cannot know it
  const time = seconds === null ? [] : [t("en", plain ? "share.time-plain" : "share.time", { mark: "⏱ ", time: clockText(seconds) })];
  if (meta.id) {
    const tier = `${title} · ${meta.tier} ${mark(TIER_MARK[meta.tier] || "")}`.trim();
    return [`dailydeal ${meta.date}`, tier, won, ...time, link || `${origin}/play/${meta.id}`].join("\n");
  }
  const v = meta.variant ? `?variant=${encodeURIComponent(meta.variant)}` : "";
  return [`dailydeal · ${title} #${meta.seed}`, won, ...time, link || `${origin}/play/${meta.game}/${meta.seed}${v}`].join("\n");
}

/** When this browser's result counts for everybody, in words: "" once it has (or when the
 *  server did not say), else " Your result counts for everybody at 21:58." (the player's
 *  clock). The server counts it then by itself: nothing is sent again. */
export function countsNote(mine, now = Date.now()) {
  const at = mine && mine.counts_at ? Date.parse(mine.counts_at) : NaN;
  if (!(at > now)) return "";
  const d = new Date(at);
  const hhmm = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  return ` Your result counts for everybody at ${hhmm}.`;
}

/** Everybody's statistics with this browser's result in them: the server's answer to the
 *  result has it already; a later statistics request has it only once it counted, so until
 *  ``counts_at`` it is added here (the player's own view). */
export function withMine(stats, mine, now = Date.now()) {
  const at = mine && mine.counts_at ? Date.parse(mine.counts_at) : NaN;
  if (!stats || !(at > now) || !(stats.pending > 0)) return stats;
  const winning = stats.winning_moves.map((w) => ({ ...w }));
  if (mine.won) {
    const bucket = winning.find((w) => w.moves === mine.moves);
    if (bucket) bucket.count += 1;
    else winning.push({ moves: mine.moves, count: 1 });
    winning.sort((a, b) => a.moves - b.moves);
  }
  const plays = stats.plays + 1;
  const wins = stats.wins + (mine.won ? 1 : 0);
  return { ...stats, plays, wins, win_rate: wins / plays, pending: stats.pending - 1, winning_moves: winning };
}

/** What a counted result that differs from this game says: the first result counts. */
export function firstResultNote(mine, won, moves) {
  if (!mine || (mine.won === won && (!won || mine.moves === moves))) return null;
  return mine.won ? ` Your first result counts: won in ${mine.moves} moves.` : " Your first result counts: not won.";
}
