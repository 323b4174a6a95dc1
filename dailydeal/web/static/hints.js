// Hints as the player follows them, and the "still winnable?" light in words.
import { press } from "./words.js";

/** The hints given since the player began following them: when every move since is the
 *  hint given there, the server answers the rest of that same line (following hints always
 *  ends in a win). */
export class HintTrail {
  constructor() {
    this.trail = null; // {from: the move count where it began, hinted: the moves hinted}
  }

  /** The move count where the line followed began, or null when the moves left it. */
  from(moves) {
    const f = this.trail;
    if (!f || f.from > moves.length) return null;
    const since = moves.slice(f.from);
    return since.length <= f.hinted.length && since.every((mv, i) => mv === f.hinted[i]) ? f.from : null;
  }

  /** The hint given after ``moves``: it continues the line followed, or starts one. */
  add(moves, move) {
    const from = this.from(moves);
    if (from === null) this.trail = { from: moves.length, hinted: [move] };
    else this.trail.hinted = [...moves.slice(from), move];
  }
}

const LIGHT_TEXT = { off: "off", checking: "…", winnable: "yes", lost: "lost", unknown: "?" };
const SAID = { winnable: "can still be won", lost: "is lost", unknown: "the solver could not tell", checking: "checking" };

/** The light's text and its button's title for a verdict ("winnable", "lost", "unknown",
 *  "checking", "off"); ``why``: why the solver could not answer. */
export function lightWords(verdict, on, why = "") {
  return {
    text: LIGHT_TEXT[verdict] || verdict,
    title: on
      ? `Still winnable? ${SAID[verdict] || ""}${why ? ` (${why})` : ""}. ${press(true)} to turn off.`
      : "After each move, ask the solver whether the deal can still be won",
  };
}
