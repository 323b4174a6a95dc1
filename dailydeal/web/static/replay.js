// A line played again on the board, a move at a time (lichess's analysis board: the arrow
// keys, first and last, play and pause, a scrubber): the player's own line, or the review's.
import { LocalPlay } from "./play.js";

const KEYS = { ArrowLeft: -1, ArrowRight: 1 };

/** Whether the solver's line of a deal is public now (a daily deal whose date is over
 *  everywhere: before that, no spoiler; a numbered deal has no stored line). */
export function solverLineOpen(meta, now = Date.now()) {
  return Boolean(meta && meta.id && meta.solutionOpensAt && Date.parse(meta.solutionOpensAt) <= now);
}

export class Replay {
  /** ``line``: the moves; ``at``: the position shown (moves played); ``from``: the first
   *  move that is not the player's (a review's winning line), or null. */
  constructor(rules, meta, line, at = 0, from = null) {
    this.play = new LocalPlay(rules, meta);
    this.line = line;
    this.at = Math.max(0, Math.min(at, line.length));
    this.from = from;
    this.timer = null;
  }

  /** The state JSON at the position shown. */
  state() {
    return this.play.stateOf(this.line.slice(0, this.at));
  }

  /** Go to position ``at`` (clamped); whether it moved. */
  go(at) {
    const to = Math.max(0, Math.min(at, this.line.length));
    const moved = to !== this.at;
    this.at = to;
    return moved;
  }

  /** The position an action or a key asks for, or null. */
  target(what) {
    if (what in KEYS) return this.at + KEYS[what];
    return { "replay-first": 0, Home: 0, "replay-back": this.at - 1, "replay-forward": this.at + 1,
      "replay-last": this.line.length, End: this.line.length }[what] ?? null;
  }

  /** "12 / 51" and, past ``from``, whose moves they are, in ``w``'s words. */
  where(w) {
    const at = w.t("el.replay_at", { at: this.at, total: this.line.length });
    return this.from !== null && this.at > this.from ? w.t("el.replay_line", { at }) : at;
  }

  /** Play on, a move every ``ms``, calling ``step`` after each; stops at the end. */
  run(step, ms = 650) {
    this.stop();
    if (this.at >= this.line.length) this.go(0);
    this.timer = setInterval(() => {
      if (!this.go(this.at + 1)) return this.stop();
      step();
      if (this.at >= this.line.length) this.stop();
    }, ms);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }

  get running() {
    return this.timer !== null;
  }
}

/** The replay bar ([data-replay]) over a Replay: its buttons, scrubber and keys. ``draw(r,
 *  animated)`` draws the replayed position; ``exit()`` goes back to the game. */
export class ReplayBar {
  constructor(el, draw, exit, words) {
    Object.assign(this, { el, draw, exit, words, replay: null });
    for (const b of el.replay.querySelectorAll("[data-action]")) {
      b.addEventListener("click", () => this.act(b.dataset.action));
    }
    el.scrub.addEventListener("input", () => this.to(Number(el.scrub.value)));
  }

  start(replay) {
    this.stop();
    this.replay = replay;
    this.el.replay.hidden = false;
    this.el.scrub.max = String(replay.line.length);
    this.show(false);
    this.el.replay.querySelector('[data-action="replay-forward"]').focus();
  }

  stop() {
    if (!this.replay) return;
    this.replay.stop();
    this.replay = null;
    this.el.replay.hidden = true;
  }

  show(animated = true) {
    this.draw(this.replay, animated);
    this.el.scrub.value = String(this.replay.at);
    this.el.replayAt.textContent = this.replay.where(this.words());
  }

  to(at) {
    if (this.replay && this.replay.go(at)) this.show();
  }

  /** A button's action or a key ("ArrowLeft", "Home", ...); whether it was the replay's. */
  act(what) {
    const r = this.replay;
    if (!r) return false;
    if (what === "replay-exit") {
      this.stop();
      this.exit();
    } else if (what === "replay-play") {
      if (r.running) r.stop();
      else r.run(() => this.show());
    } else {
      const at = r.target(what);
      if (at === null) return false;
      r.stop();
      this.to(at);
    }
    return true;
  }
}
