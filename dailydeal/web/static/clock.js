// The player's clock: it runs from the first move while the game is under way and the page
// is seen, and is kept per game (a reload goes on from where it stood).
import { readJSON, writeJSON } from "./store.js";
import { WEEK } from "./api.js";

/** Seconds as the timer shows them: 4:05, 1:02:03. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

export class Clock {
  /** ``el``: the timer ([data-timer]) and its text ([data-timer-text]). */
  constructor(el, text) {
    Object.assign(this, { el, text, key: null, elapsed: 0, since: null, ticker: null });
  }

  /** The clock of game ``key``, as it was left. */
  load(key) {
    this.stop();
    this.key = key;
    this.elapsed = Number(readJSON(`time.${key}`, 0)) || 0;
    this.draw();
  }

  ms() {
    return this.elapsed + (this.since !== null ? performance.now() - this.since : 0);
  }

  /** The player's time in whole seconds (reported with a result: the server cannot know it). */
  seconds() {
    return Math.min(WEEK, Math.floor(this.ms() / 1000));
  }

  /** Run while ``running``, else stop. */
  run(running) {
    if (running && this.since === null) {
      this.since = performance.now();
      this.ticker = setInterval(() => this.draw(), 1000);
    } else if (!running) this.stop();
    this.draw();
  }

  stop() {
    if (this.since !== null) {
      this.elapsed = this.ms();
      this.since = null;
    }
    clearInterval(this.ticker);
    this.ticker = null;
    if (this.key) writeJSON(`time.${this.key}`, Math.round(this.elapsed));
  }

  draw() {
    const seconds = this.ms() / 1000;
    this.text.textContent = clockText(seconds);
    this.el.dataset.seconds = String(Math.floor(seconds));
    this.el.dataset.running = String(this.since !== null);
    if (this.key && this.since !== null) writeJSON(`time.${this.key}`, Math.round(this.ms()));
  }
}
