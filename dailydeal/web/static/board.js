// The board: draws a position with its game's renderer (one per layout), patching only the
// cards that changed, keeps keyboard focus, finds the element of a place and lights places.
// It knows no rule and no move: what to draw comes in, places go out (data-card, data-gap,
// data-action).
import * as grid from "./render-grid.js";
import * as pyramid from "./render-pyramid.js";
import * as row from "./render-row.js";
import { esc } from "./cards.js";

const RENDERERS = { row, pyramid, grid };
const TEMPLATE = typeof document === "undefined" ? null : document.createElement("template");

/** The sections of HTML (one [class, items, attributes] per box: the attributes, roles and
 *  names of its structure, the same for every position; an item is HTML or a section) of a
 *  position: its layout's renderer (the end of a game is the result card's to say, never a
 *  banner over the cards). */
export function sections(layout, st, view) {
  return RENDERERS[layout].render(st, view);
}

/** The place a board element stands for ("7S", "3,1", "draw"), or null. */
export function placeOf(el) {
  return el ? el.dataset.card || el.dataset.gap || el.dataset.action || null : null;
}

/** The HTML of an item of a section: HTML itself, or a section within ([class, items,
 *  attributes], as Gaps's rows in its grid). */
const itemHtml = (item) => (typeof item === "string" ? item : html(item));

/** The HTML of a section [class, items, attributes]: a box of its items. */
export function html([cls, items, attrs]) {
  return `<div class="${cls}"${attrs ? ` ${attrs}` : ""}>${items.map(itemHtml).join("")}</div>`;
}

/** ``el`` replaced by ``markup``. */
function replace(el, markup) {
  TEMPLATE.innerHTML = markup;
  el.replaceWith(TEMPLATE.content);
}

/** Make ``box``'s children show ``items`` (one element each) where ``old`` was drawn. As
 *  many as before: each item that changed is replaced, a section within patched in its turn
 *  (a Gaps move replaces its two cells, not the rows of thirteen they stand in). Else keep
 *  the common head and tail, replace what lies between. */
function patch(box, old, items) {
  if (old.length === items.length) {
    items.forEach((item, i) => {
      const was = old[i];
      if (item === was) return;
      if (typeof item !== "string" && typeof was !== "string" && item[0] === was[0] && item[2] === was[2]) {
        patch(box.children[i], was[1], item[1]);
      } else if (itemHtml(item) !== itemHtml(was)) {
        replace(box.children[i], itemHtml(item));
      }
    });
    return;
  }
  const before = old.map(itemHtml);
  const after = items.map(itemHtml);
  let head = 0;
  const n = Math.min(before.length, after.length);
  while (head < n && before[head] === after[head]) head += 1;
  let tail = 0;
  while (tail < n - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
  const gone = before.length - tail - head;
  for (let i = 0; i < gone; i += 1) box.children[head].remove();
  const fresh = after.slice(head, after.length - tail).join("");
  if (!fresh) return;
  TEMPLATE.innerHTML = fresh;
  box.insertBefore(TEMPLATE.content, box.children[head] || null);
}

export class Board {
  constructor(el) {
    this.el = el; // the [data-board] element
    this.drawn = null; // the sections on the board now
  }

  /** Before the deal is known: the layout's places, empty, at the size they will have, so
   *  nothing below moves when the cards arrive (layout shift). */
  skeleton(game, layout, words) {
    this.el.dataset.game = game;
    const html = RENDERERS[layout] ? RENDERERS[layout].skeleton(words) : "";
    const dealing = esc(words.t("el.dealing"));
    this.el.innerHTML = html ? `${html}<p class="loading overlay">${dealing}</p>` : `<p class="loading">${dealing}</p>`;
    this.drawn = null;
  }

  /** A word instead of a board (the deal could not load). */
  say(text) {
    this.el.innerHTML = `<p class="loading">${esc(text)}</p>`;
    this.drawn = null;
  }

  /** Draw ``parts`` (sections()); only the cards that changed are replaced (a move changes
   *  two or three), and keyboard focus stays on the same place, or where it was. */
  draw(parts) {
    const board = this.el;
    const root = board.getRootNode();
    const active = root.activeElement;
    const focus = active && board.contains(active) ? placeOf(active) : null;
    const old = this.drawn;
    // the same boxes with the same attributes (another language names them anew)
    const same = old && old.length === parts.length && old.every((o, i) => o[0] === parts[i][0] && o[2] === parts[i][2]) && board.children.length === old.length;
    const playable = () => [...board.querySelectorAll("button:not(:disabled):not(.blocked)")];
    const index = focus ? playable().indexOf(active) : -1;
    if (!same) board.innerHTML = parts.map(html).join("");
    else parts.forEach(([, items], i) => patch(board.children[i], old[i][1], items));
    this.drawn = parts;
    if (focus && !(active && active.isConnected)) {
      // the same place; gone (a pair removed), the place now where it was, else the first
      const places = playable();
      const again = this.find(focus) || places[Math.max(0, Math.min(index, places.length - 1))] || board;
      again.focus(); // the board itself (tabindex -1) when no place is left: never the page
    }
  }

  /** The element of a place, or null. */
  find(place) {
    if (!place) return null;
    const v = CSS.escape(place);
    return this.el.querySelector(`[data-card="${v}"],[data-gap="${v}"],[data-action="${v}"]`);
  }

  /** Give exactly ``places`` the class ``cls`` (a hint's places, a drag's targets). */
  light(cls, places) {
    for (const el of this.el.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
    for (const p of places) {
      const el = this.find(p);
      if (el) el.classList.add(cls);
    }
  }

  cards() {
    return [...this.el.querySelectorAll("[data-card]")];
  }
}
