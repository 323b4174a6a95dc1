// "Where did it go wrong?": the server's review of a lost game in words, on the card
// ([data-review] with data-index, data-outcome: the review's verdict, and, once the line is
// open, data-line).
import { hintTrouble } from "./api.js";

/** Ask the review of ``moves`` and show it in ``el`` (the card's [data-review]);
 *  ``replay(line, at)`` replays the winning line from the last winnable position. */
export async function showReview(el, client, meta, moves, replay) {
  el.hidden = false;
  el.textContent = "Asking the solver…";
  delete el.dataset.index;
  delete el.dataset.line;
  delete el.dataset.outcome;
  let a;
  try {
    a = await client.review(meta, moves);
  } catch (err) {
    el.textContent = hintTrouble(err);
    return;
  }
  if (a.index !== null && a.index !== undefined) el.dataset.index = String(a.index);
  // not data-verdict: that names the card's verdict line, a hook of its own
  el.dataset.outcome = a.verdict;
  if (a.move === null) {
    el.textContent = {
      unknown: "The solver could not tell within its budget where the win slipped away.",
      unwinnable: "This deal cannot be won from its start: no move of yours lost it.",
      won: "You won this one.",
    }[a.verdict] || "A win was still in reach at the end of your moves: undo and look for it.";
    return;
  }
  el.textContent = `Move ${a.index + 1}, ${a.move}: no win was left after it.`;
  if (Array.isArray(a.line)) {
    el.dataset.line = a.line.join(" ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tool";
    b.dataset.action = "review-line";
    b.textContent = "Show the winning line from there";
    b.addEventListener("click", () => replay(moves.slice(0, a.index).concat(a.line), a.index));
    el.append(" ", b);
  } else if (a.opens_at) {
    const when = new Date(a.opens_at);
    const text = Number.isNaN(when.getTime()) ? a.opens_at : when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    el.append(` The winning line from there is shown once the day is over everywhere (${text}).`);
  }
}
