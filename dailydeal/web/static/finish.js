// The end of a game in words: the verdict, the statistics line, the share text. Pure (the
// answers in, text out), so Node tests them without a browser.
// ``w``: the words of the player's language (i18n.js).
import { clockText } from "./clock.js";

const TIER_MARK = { easy: "🟢", medium: "🟡", hard: "🟠", expert: "🔴" };

/** The result card's title and verdict for the server's verdict of ``n`` moves. */
export function verdictTexts(verdict, par, hints, w) {
  const n = verdict.moves;
  if (!verdict.won) return { title: w.t("el.solved"), verdict: w.t("finish.not_confirmed", { state: w.t(`el.state.${verdict.state}`) }) };
  let title = w.t("finish.solved_in", { n });
  if (hints) title = w.t("finish.with_hints", { text: title, n: hints });
  const said = hints ? w.t("finish.verified_hints", { moves: n, n: hints }) : w.t("finish.verified", { n });
  const vsPar = par ? ` ${w.t(n <= par ? "finish.par_matched" : "finish.par", { par })}` : "";
  return { title, verdict: `${said}${vsPar}` };
}

/** Everybody's plays of a deal in a line ("412 players, 63% won, you beat 80% of the other
 *  winners on moves"); ``mine``: this browser's counted result, or null. */
export function statsText(stats, mine, note = "", w) {
  let text = w.t("finish.players", { n: stats.plays, pct: Math.round(stats.win_rate * 100) });
  if (mine && mine.won) text = versus(stats, mine.moves, text, w);
  if (stats.final) text = w.t("finish.final", { text });
  return w.t("finish.sentence", { text }) + (note ? ` ${note}` : "");
}

/** A winner among the other winners, on moves: ties are said as ties. */
function versus(stats, moves, text, w) {
  const others = stats.wins - 1;
  if (others <= 0) return w.t("finish.first_to_win", { text });
  const count = (keep) => stats.winning_moves.filter((x) => keep(x.moves)).reduce((a, x) => a + x.count, 0);
  const beaten = count((m) => m > moves);
  const tied = count((m) => m === moves) - 1; // this play is one of them
  if (beaten + tied === others) {
    if (!beaten) return w.t("finish.tied", { text, n: tied });
    return tied ? w.t("finish.fewest_tied", { text, tied, beaten, n: others }) : w.t("finish.fewest", { text, n: others });
  }
  const pct = Math.round((100 * beaten) / others);
  return tied ? w.t("finish.beat_pct_tied", { text, pct, tied }) : w.t("finish.beat_pct", { text, pct });
}

/** The share text of a win, without spoilers: the deal (its tier in a word, and a mark), the
 *  moves against par, the hints, the player's time (``seconds``, null: not shown) and a link:
 *  ``link``, the page of the signed win (its solve), else the deal's play page; ``plain``: no
 *  emoji at all (the words alone carry every meaning: the catalogs' words have none). */
export function shareText({ meta, title, origin, n, par, hints, seconds, link = null, plain = false }, w) {
  const mark = (emoji) => (plain ? "" : emoji);
  let moves = mark("✅ ") + w.t("share.moves", { n });
  if (par) moves = w.t(n <= par ? "share.par_matched" : "share.par", { text: moves, par, star: mark(" ⭐") });
  if (hints) moves = w.t("share.hints", { text: moves, n: hints });
  // the time is the player's own clock: the server cannot know it
  const time = seconds === null ? [] : [plain ? w.t("share.time_plain", { time: clockText(seconds) }) : `⏱ ${w.t("share.time", { time: clockText(seconds) })}`];
  if (meta.id) {
    // without the locale's direction marks (Arabic's): the line is "dailydeal" and a date
    const day = w.date(new Date(`${meta.date}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }).replace(/[\u200e\u200f\u061c]/g, "");
    const tier = `${w.t(`tier.${meta.tier}`)} ${mark(TIER_MARK[meta.tier] || "")}`.trim();
    return [`dailydeal ${day}`, `${title} · ${tier}`, moves, ...time, link || `${origin}/play/${meta.id}`].join("\n");
  }
  const v = meta.variant ? `?variant=${encodeURIComponent(meta.variant)}` : "";
  return [`dailydeal · ${title} #${meta.seed}`, moves, ...time, link || `${origin}/play/${meta.game}/${meta.seed}${v}`].join("\n");
}

/** When this browser's result counts for everybody, in ``w``'s words: "" once it has (or
 *  when the server did not say), else "Your result counts for everybody at 21:58." (the
 *  player's clock). The server counts it then by itself: nothing is sent again. */
export function countsNote(mine, w, now = Date.now()) {
  const at = mine && mine.counts_at ? Date.parse(mine.counts_at) : NaN;
  if (!(at > now)) return "";
  return w.t("el.result_counts_at", { time: w.date(new Date(at), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) });
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
export function firstResultNote(mine, won, moves, w) {
  if (!mine || (mine.won === won && (!won || mine.moves === moves))) return null;
  return mine.won ? w.t("finish.first_counts_won", { n: mine.moves }) : w.t("finish.first_counts_lost");
}
