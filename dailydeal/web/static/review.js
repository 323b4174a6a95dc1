// "Where did it go wrong?": the server's review of a lost game in words, on the card
// ([data-review] with data-index, data-outcome: the review's verdict, and, once the line is
// open, data-line).
import { hintTrouble } from "./api.js";

/** Ask the review of ``moves`` and show it in ``el`` (the card's [data-review]) in ``w``'s
 *  words; ``replay(line, at)`` replays the winning line from the last winnable position. */
export async function showReview(el, client, meta, moves, replay, w) {
  el.hidden = false;
  el.textContent = w.t("review.asking");
  delete el.dataset.index;
  delete el.dataset.line;
  delete el.dataset.outcome;
  let a;
  try {
    a = await client.review(meta, moves);
  } catch (err) {
    el.textContent = hintTrouble(err, w);
    return;
  }
  if (a.index !== null && a.index !== undefined) el.dataset.index = String(a.index);
  // not data-verdict: that names the card's verdict line, a hook of its own
  el.dataset.outcome = a.verdict;
  if (a.move === null) {
    el.textContent = w.t(["unknown", "unwinnable", "won"].includes(a.verdict) ? `review.${a.verdict}` : "review.in_reach");
    return;
  }
  el.textContent = w.t("review.move", { i: a.index + 1, move: a.move });
  if (Array.isArray(a.line)) {
    el.dataset.line = a.line.join(" ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tool";
    b.dataset.action = "review-line";
    b.textContent = w.t("review.show_line");
    b.addEventListener("click", () => replay(moves.slice(0, a.index).concat(a.line), a.index));
    el.append(" ", b);
  } else if (a.opens_at) {
    const when = new Date(a.opens_at);
    const time = Number.isNaN(when.getTime()) ? a.opens_at : w.date(when, { dateStyle: "medium", timeStyle: "short" });
    el.append(` ${w.t("review.later", { time })}`);
  }
}
