// Input: what a click, a drop or a key means. The decisions are pure (the rules module, the
// state JSON, what is picked up, the place pointed at), so Node tests them without a browser;
// the rules say which move a place means and where a card may go (rules.js moveAt, targets).
import { cap, cardName } from "./cards.js";
import { hand } from "./words.js";

/** What a click on ``place`` (of ``kind``: "card", "gap" or "action") does, with ``picked``
 *  (a place or null) picked up before, said in ``words`` (i18n.js): {play: move} | {pick: place or null, say} |
 *  {say, shake} | null (nothing). A move is tried even when it is illegal: the rules then
 *  say why not, in the server's words. */
export function decide(rules, st, spec, picked, kind, place, words) {
  if (!st || st.state === "won" || !place) return null;
  if (picked !== null && picked === place) return { pick: null, say: "" };
  const move = (picked !== null && rules.moveAt(st, picked, place)) || rules.moveAt(st, null, place);
  if (move) return { play: move };
  if (kind === "action") return null;
  const fits = rules.targets(st, place);
  if (kind === "gap") {
    return fits.size ? { pick: place, say: words.t(`el.gap_pick.${hand()}`) } : { say: words.t("el.gap_none"), shake: place };
  }
  const card = cap(cardName(place, words));
  return { pick: place, say: fits.size ? words.t(`el.selected_card.${hand()}`, { card }) : words.t(`rules.${spec.game}.stuck`, { card }) };
}

/** The move a card dropped on a place means, or null (a drop back on itself is no move). */
export function dropMove(rules, st, card, place) {
  return place && place !== card ? rules.moveAt(st, card, place) : null;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The index in ``rects`` ({left, top, width, height}) an arrow key moves focus to from
 *  ``current`` (an index, or -1: the first), or null: the nearest box that way, a box
 *  straight ahead preferred to one aside. */
export function nextFocus(rects, current, key) {
  const d = ARROWS[key];
  if (!d || !rects.length) return null;
  if (current < 0) return 0;
  const c = rects[current];
  const cx = c.left + c.width / 2;
  const cy = c.top + c.height / 2;
  let best = null;
  let bestScore = Infinity;
  rects.forEach((r, i) => {
    if (i === current) return;
    const dx = r.left + r.width / 2 - cx;
    const dy = r.top + r.height / 2 - cy;
    const along = d[0] ? dx * d[0] : dy * d[1];
    const across = d[0] ? Math.abs(dy) : Math.abs(dx);
    if (along <= 2) return;
    const score = along + across * 2.5;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

export const isArrow = (key) => key in ARROWS;

/** The element's keys outside text fields: "undo" (U, Backspace, Ctrl/Cmd+Z), "drop"
 *  (Escape: put down what is picked up), "hint" (H), "moves" (? or W: what can be done
 *  now, in words), or null. */
export function keyCommand({ key, ctrlKey = false, metaKey = false, altKey = false }, inText = false) {
  if (ctrlKey || metaKey) return key === "z" && !inText ? "undo" : null;
  if (inText || altKey) return null;
  if (key === "u" || key === "U" || key === "Backspace") return "undo";
  if (key === "Escape") return "drop";
  if (key === "h" || key === "H") return "hint";
  if (key === "?" || key === "w" || key === "W") return "moves";
  return null;
}

/** A card dragged with a pointer (mouse, pen or touch). ``on``: start(card) when it moves
 *  past 8 px, drop(card, underElement, fromRect) and back(card, underElement, fromRect,
 *  el) at the end. A press that does not move is a tap: the click plays it. */
export class Drag {
  constructor(el, card, e, on) {
    Object.assign(this, { el, card, on, x: e.clientX, y: e.clientY, id: e.pointerId, moving: false });
    this.handlers = {
      pointermove: (ev) => this.move(ev), pointerup: (ev) => this.end(ev, true), pointercancel: (ev) => this.end(ev, false),
      // a finger's moves are the drag's, not a scroll's: unconsumed, the browser reads them
      // as a fling too, and swallows the next tap as the one that stops it (~0.4 s)
      touchmove: (ev) => ev.cancelable && ev.preventDefault(),
    };
    for (const [type, fn] of Object.entries(this.handlers)) window.addEventListener(type, fn, { passive: false });
  }

  move(e) {
    if (e.pointerId !== this.id) return;
    const dx = e.clientX - this.x;
    const dy = e.clientY - this.y;
    if (!this.moving) {
      if (Math.hypot(dx, dy) < 8) return;
      this.moving = true;
      this.el.classList.add("dragging");
      this.on.start(this.card);
    }
    e.preventDefault();
    this.el.style.transform = `translate(${dx}px, ${dy}px) scale(1.06)`;
  }

  stop() {
    for (const [type, fn] of Object.entries(this.handlers)) window.removeEventListener(type, fn);
  }

  end(e, drop) {
    if (e.pointerId !== this.id) return;
    this.stop();
    if (!this.moving) return; // a tap
    // what lies under the finger (the dragged card lets the pointer through), then the
    // card goes back to its place at once: the move's animation starts from the drop
    const root = this.el.getRootNode();
    const under = drop ? root.elementFromPoint(e.clientX, e.clientY) : null;
    const from = this.el.getBoundingClientRect();
    this.el.style.transition = "none";
    this.el.style.transform = "";
    this.el.classList.remove("dragging");
    void this.el.offsetWidth;
    this.el.style.transition = "";
    this.on.drop(this.card, under, from, this.el);
  }
}
