// The result card, shown at the end of every game (won, lost, given up): in the top layer (a
// popover) so it is in view wherever the page is scrolled, over the board, dismissible and
// opened again from the controls; in the flow, under the board, where popovers are unknown.
import { clockText } from "./clock.js";
import { statsText } from "./finish.js";

const POPOVER = typeof HTMLElement !== "undefined" && "showPopover" in HTMLElement.prototype;

export class ResultCard {
  /** ``el``: the element's parts (shell.js). */
  constructor(el) {
    this.el = el;
    this.card = el.result;
    this.shown = false; // a result to show: the controls offer it back when closed
    if (!POPOVER) {
      this.card.removeAttribute("popover");
      this.card.hidden = true;
    }
  }

  isOpen() {
    return POPOVER ? this.card.matches(":popover-open") : !this.card.hidden;
  }

  /** Show the card; keyboard focus that was in the element goes to its title (a screen
   *  reader reads it), never taken from the host page. */
  open() {
    this.shown = true;
    const root = this.card.getRootNode();
    const had = root.activeElement;
    this.el.showResult.hidden = true;
    if (!this.isOpen()) {
      if (POPOVER) this.card.showPopover();
      else {
        this.card.hidden = false;
        this.card.scrollIntoView({ block: "nearest" });
      }
    }
    if (had && !this.card.contains(had)) this.el.resultTitle.focus({ preventScroll: true });
  }

  /** Put the card away; ``keep``: the controls offer it back (a result stands). */
  close(keep = true) {
    const inside = this.card.contains(this.card.getRootNode().activeElement);
    if (this.isOpen()) {
      if (POPOVER) this.card.hidePopover();
      else this.card.hidden = true;
    }
    this.shown = keep && this.shown;
    this.el.showResult.hidden = !this.shown;
    // focus in the card stays in the element: on the button that brings it back, or the board
    if (inside) (this.shown ? this.el.showResult : this.el.board.querySelector("button:not(:disabled)") || this.el.board).focus();
  }

  /** No result: a new game, an undo, a restart. */
  reset() {
    [this.filled, this.statsShown] = [null, null];
    this.close(false);
    this.setSolve(null);
    this.el.stats.hidden = true;
    this.el.review.hidden = true;
    this.el.reviewButton.hidden = true;
    delete this.card.dataset.end;
  }

  /** The title, the verdict, and the tiles: ``moves`` (with ``par``: matched, tied or over),
   *  the player's ``seconds`` (null: not shown), ``hints``, ``streak`` (null: no streak).
   *  ``title`` and ``verdict``: text, or a function of the words giving it (said again in
   *  another language by relabel). */
  fill(ending, w) {
    this.filled = ending;
    this.el.review.hidden = true;
    this.draw(w);
  }

  /** The verdict changed (a win kept offline): ``verdict`` as fill's. */
  setVerdict(verdict, w) {
    this.filled = { ...this.filled, verdict };
    this.draw(w);
  }

  /** Everything the card says, again in ``w``'s words (the element's language changed). */
  relabel(w) {
    if (this.filled) this.draw(w);
    if (this.statsShown) this.showStats(...this.statsShown, w);
  }

  draw(w) {
    const { end, title, verdict, moves, par = null, seconds = null, hints = 0, streak = null, solverLine = false } = this.filled;
    const said = (text) => (typeof text === "function" ? text(w) : text);
    this.card.dataset.end = end; // "won", "lost" or "given-up"
    this.el.resultTitle.textContent = said(title);
    this.el.verdict.textContent = said(verdict);
    const tile = (name, text) => (this.card.querySelector(`[data-tile="${name}"]`).textContent = text);
    tile("moves", w.num(moves));
    this.card.querySelector('[data-tile-box="par"]').hidden = par === null;
    if (par !== null) tile("par", w.num(par));
    const vs = end !== "won" || par === null ? "" : moves < par ? w.t("el.under_par") : moves === par ? w.t("el.at_par") : `+${w.num(moves - par)}`;
    if (vs) {
      const small = document.createElement("small");
      small.textContent = vs;
      this.card.querySelector('[data-tile="moves"]').append(small);
    }
    this.card.querySelector('[data-tile-box="time"]').hidden = seconds === null;
    if (seconds !== null) tile("time", clockText(seconds));
    tile("hints", w.num(hints));
    tile("streak", streak === null ? "–" : w.num(streak));
    this.el.reviewButton.hidden = end === "won";
    this.card.querySelector('[data-action="replay-par"]').hidden = !solverLine;
  }

  /** The page of the verified win, signed by the server (``url`` absolute; null: none). */
  setSolve(url) {
    const a = this.el.solveLink;
    a.hidden = !url;
    if (url) a.href = url;
    else a.removeAttribute("href");
  }

  /** Everybody's statistics of the deal with this browser's result ``mine`` and a
   *  ``note`` (or the note alone, without statistics), in ``words``; ``note``: text, or a
   *  function of the words giving it. */
  showStats(stats, mine, noteOf, words) {
    this.statsShown = [stats, mine, noteOf];
    const note = typeof noteOf === "function" ? noteOf(words) : noteOf;
    const el = this.el.stats;
    el.hidden = false;
    if (!stats) {
      el.textContent = note.trim();
      delete el.dataset.plays;
      return;
    }
    el.textContent = statsText(stats, mine, note, words);
    el.dataset.plays = String(stats.plays);
    el.dataset.wins = String(stats.wins);
  }

  /** The share text (its last line the link), in the card and for the share button. */
  setShare(text) {
    this.el.share.value = text;
    this.el.share.rows = text.split("\n").length;
    this.card.querySelector("[data-share-box]").hidden = !text;
    this.card.querySelector('[data-action="share"]').hidden = !text;
  }
}

/** Share ``text`` (its last line a link) through the system's share sheet, where the
 *  browser has one; whether it did (a sheet the player closed counts: they chose). */
export async function share(text) {
  if (!navigator.share) return false;
  const lines = text.split("\n");
  try {
    await navigator.share({ text: lines.slice(0, -1).join("\n"), url: lines[lines.length - 1] });
    return true;
  } catch (err) {
    return Boolean(err && err.name === "AbortError");
  }
}

/** Copy the text of ``field`` with the ``button`` that says how it went (in ``w``'s words);
 *  where the clipboard is refused, the text is selected for the player to copy. Whether it
 *  was copied. */
export async function copyText(field, button, w) {
  let copied = true;
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = w.t("el.copied");
  } catch {
    copied = false;
    field.focus();
    field.select();
    button.textContent = w.t("el.selected");
  }
  setTimeout(() => (button.textContent = w.t("el.copy")), 2000);
  return copied;
}
