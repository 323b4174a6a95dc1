// Motion and sound: cards slide from where they were (FLIP), leave as fading ghosts, jump on
// a win; a refused move shakes. Nothing here changes what is drawn, and
// prefers-reduced-motion stops it. The sounds of the cards: off by default, synthesized (no
// audio files), one audio context a page.

export const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const EASE = "cubic-bezier(.2,.8,.2,1)";

/** Cards still sliding jump to their places: a key or a press acts on where they are. */
export function settle(root) {
  for (const a of root.getAnimations ? root.getAnimations() : []) {
    if (a.effect && a.effect.getTiming().iterations !== Infinity) a.finish();
  }
}

/** Where each card of ``board`` is before a move ({cards, stock}); ``dropped``: {card, rect}
 *  of a card let go by a drag, which starts from the drop. Null when nothing will move. */
export function snapshot(board, dropped = null) {
  if (reduced() || !board.isConnected) return null;
  settle(board.getRootNode());
  const cards = new Map();
  for (const el of board.querySelectorAll("[data-card]")) cards.set(el.dataset.card, [el, el.getBoundingClientRect()]);
  if (dropped && cards.has(dropped.card)) cards.get(dropped.card)[1] = dropped.rect;
  const stock = board.querySelector('[data-action="draw"],[data-action="recycle"]');
  return { cards, stock: stock ? stock.getBoundingClientRect() : null };
}

/** Slide every card from where ``before`` saw it (a new card from the stock); cards gone
 *  from the table (a pair, a king, a pile landed on) fade in ``fx`` where they were. */
export function animate(board, fx, before) {
  if (!before) return;
  const seen = new Set();
  for (const el of board.querySelectorAll("[data-card]")) {
    const card = el.dataset.card;
    seen.add(card);
    const was = before.cards.get(card);
    const from = was ? was[1] : before.stock;
    if (!from) continue;
    const to = el.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) + Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 6 }, { transform: "none", zIndex: 6 }], { duration: 200, easing: EASE });
  }
  for (const [card, [el, r]] of before.cards) {
    if (seen.has(card)) continue;
    const ghost = el.cloneNode(true);
    ghost.removeAttribute("data-card");
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.className = `${el.className} ghost`;
    const box = fx.getBoundingClientRect();
    Object.assign(ghost.style, { left: `${r.left - box.left}px`, top: `${r.top - box.top}px`, width: `${r.width}px` });
    ghost.style.setProperty("--cw", `${r.width}px`);
    fx.append(ghost);
    ghost.animate([{ opacity: 1, transform: "none" }, { opacity: 0, transform: "scale(.85) translateY(-10px)" }], { duration: 220, easing: "ease-in" })
      .finished.then(() => ghost.remove(), () => ghost.remove());
  }
}

/** A dragged card that found no move goes back from ``from`` (its rect at the drop). */
export function slideBack(el, from) {
  if (reduced()) return;
  const to = el.getBoundingClientRect();
  el.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }], { duration: 180, easing: EASE });
}

/** A short celebration on the table: the cards jump in a wave, suits rise and fade. */
export function celebrate(board, fx) {
  if (reduced()) return;
  [...board.querySelectorAll("[data-card]")].forEach((el, i) => {
    el.animate([{ transform: "none" }, { transform: "translateY(-14px) rotate(-3deg)" }, { transform: "none" }],
      { duration: 420, delay: Math.min(i, 40) * 22, easing: "ease-out" });
  });
  const box = board.getBoundingClientRect();
  for (let i = 0; i < 18; i += 1) {
    const bit = document.createElement("span");
    bit.className = `spark${i % 4 === 1 || i % 4 === 2 ? " red" : ""}`;
    bit.setAttribute("aria-hidden", "true");
    bit.textContent = "♠♥♦♣"[i % 4];
    Object.assign(bit.style, { left: `${((i * 37) % 100)}%`, top: `${60 + ((i * 53) % 35)}%` });
    fx.append(bit);
    const rise = box.height * (0.35 + ((i * 29) % 40) / 100);
    bit.animate([{ opacity: 0, transform: "translateY(0) scale(.6)" }, { opacity: 1, offset: 0.2 },
      { opacity: 0, transform: `translateY(-${rise}px) scale(1.2) rotate(${(i % 2 ? 1 : -1) * 40}deg)` }],
    { duration: 1300, delay: i * 45, easing: "ease-out", fill: "backwards" }).finished.then(() => bit.remove(), () => bit.remove());
  }
}

/** A refused move: the place it came from shakes. */
export function shake(el) {
  if (!el || !el.classList) return;
  el.classList.remove("shake");
  void el.offsetWidth; // restart the animation
  el.classList.add("shake");
}

// --- sound ----------------------------------------------------------------------------------
let AUDIO = null;
const SOUNDS = { // [frequencies, seconds, wave, gain]
  move: [[660], 0.05, "triangle", 0.04],
  deal: [[520], 0.04, "sine", 0.04],
  bad: [[190, 150], 0.09, "square", 0.015],
  win: [[523, 659, 784, 1047], 0.22, "sine", 0.05],
};

export function play(sound) {
  const [freqs, dur, type, gain] = SOUNDS[sound];
  try {
    AUDIO = AUDIO || new AudioContext();
    const t0 = AUDIO.currentTime + 0.01;
    freqs.forEach((f, i) => {
      const osc = AUDIO.createOscillator();
      const amp = AUDIO.createGain();
      const t = t0 + i * 0.1;
      osc.type = type;
      osc.frequency.value = f;
      amp.gain.setValueAtTime(0.0001, t);
      amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(amp).connect(AUDIO.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
    });
  } catch {
    /* no WebAudio here: silence */
  }
}
