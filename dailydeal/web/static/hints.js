// Hints as the player follows them, and the "still winnable?" light in words.
import { hand } from "./words.js";

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

const VERDICTS = ["off", "checking", "winnable", "lost", "unknown"];

/** The light's text and its button's title for a verdict ("winnable", "lost", "unknown",
 *  "checking", "off") in ``words``; ``why``: why the solver could not answer. */
export function lightWords(verdict, on, why = "", words) {
  const v = VERDICTS.includes(verdict) ? verdict : "unknown";
  let said = words.t(`el.light_said.${v === "off" ? "checking" : v}`);
  if (why) said = words.t("el.light_why", { said, why });
  return {
    text: words.t(`el.light.${v}`),
    title: on ? words.t(`el.light_off.${hand()}`, { said }) : words.t("el.winnable_title"),
  };
}
