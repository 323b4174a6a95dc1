// Hints: asked of the server and shown, as the player follows them, and the "still
// winnable?" light, in words.
import { hintTrouble } from "./api.js";
import * as rules from "./rules.js";
import { doSaid } from "./speech.js";
import * as store from "./store.js";
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

/** The element's hints and light (a mixin of DailyDeal): the element gives meta, moves, st,
 *  token, trail, client, el, key, words, hintsUsed, lightOn, paint(), say() and emit(). */
export const Hinting = (Base) => class extends Base {
  async hintOf(moves) {
    const token = this.meta.id ? await this.token : null;
    return this.client.hint(this.meta, moves, this.trail.from(moves), token);
  }

  /** Ask the solver for a move of a winning line from here and light up its places. The
   *  answer is the server's; nothing here knows which moves win. */
  async askHint() {
    if (!this.st || this.st.state === "won" || this.hinting) return;
    const at = this.moves.join(" ");
    this.hinting = true;
    this.el.hint.disabled = true;
    this.say(this.t("el.asking"));
    let answer;
    try {
      answer = await this.hintOf(this.moves);
    } catch (err) {
      this.say(hintTrouble(err, this.words), "error");
      return;
    } finally {
      this.hinting = false;
      this.el.hint.disabled = !this.st || this.st.state === "won";
    }
    if (at !== this.moves.join(" ")) return; // the player moved on: it was for another position
    this.emit("dailydeal-hint", answer);
    if (this.lightOn) this.setLight(answer.verdict);
    if (answer.verdict === "winnable" && answer.move) {
      this.hintsUsed += 1;
      store.writeJSON(`hints.${this.key}`, this.hintsUsed);
      this.hint = { at, move: answer.move };
      this.trail.add(this.moves, answer.move);
      this.dataset.hint = answer.move;
      this.paint();
      const words = doSaid(rules, this.words, this.st, answer.move); // the catalog's say.do.<kind>
      const key = answer.shortest ? "el.hint_said_shortest" : "el.hint_said";
      this.say(this.t(key, { words, move: answer.move, n: answer.moves_left }), "good");
    } else if (answer.verdict === "lost") {
      this.say(this.t("el.hint_lost"), "error");
    } else if (answer.verdict === "unknown") {
      this.say(this.t("el.hint_unknown"));
    }
  }

  toggleLight() {
    this.lightOn = !this.lightOn;
    store.writeJSON("light", this.lightOn);
    this.checkLight();
  }

  /** With the light on, ask after every move whether the deal can still be won. */
  async checkLight() {
    if (!this.lightOn || !this.st) return this.setLight("off");
    if (this.st.state !== "in progress") return this.setLight(this.st.state === "won" ? "winnable" : "lost");
    const at = this.moves.join(" ");
    this.setLight("checking");
    let verdict = "unknown";
    let why = "";
    try {
      verdict = (await this.hintOf(this.moves)).verdict;
    } catch (err) {
      why = hintTrouble(err, this.words);
    }
    if (this.lightOn && at === this.moves.join(" ")) this.setLight(verdict, why);
  }

  setLight(verdict, why = "") {
    this.el.light.dataset.light = verdict;
    const words = lightWords(verdict, this.lightOn, why, this.words);
    this.el.lightText.textContent = words.text;
    this.el.lightToggle.setAttribute("aria-pressed", String(this.lightOn));
    this.el.lightToggle.title = words.title;
    if (this.lightOn) this.dataset.light = verdict;
    else delete this.dataset.light;
  }
};
