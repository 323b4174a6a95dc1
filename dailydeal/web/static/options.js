// The player's options (kept in the browser): dark table, four colours, sound, timer, and a
// share text without emoji (plain). The
// element carries them (data-theme only when chosen, else the system's; data-deck), so the
// host page's CSS can follow them too (site.css does for the service's pages).
import { options, writeJSON } from "./store.js";

export function isDark() {
  const theme = options().theme;
  return theme ? theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Flip option ``name`` ("dark", "four", "sound", "timer", "plain") and keep it; the new options. */
export function toggle(name) {
  const o = options();
  if (name === "dark") o.theme = isDark() ? "light" : "dark";
  else if (name === "timer") o.timer = o.timer === false;
  else o[name] = !o[name];
  writeJSON("options", o);
  return o;
}

/** Show the options on ``host`` and its option buttons (``root``'s [data-option]); the timer
 *  ``timer`` hidden when it is off. */
export function apply(host, root, timer) {
  const o = options();
  if (o.theme === "dark" || o.theme === "light") host.dataset.theme = o.theme;
  else delete host.dataset.theme;
  if (o.four) host.dataset.deck = "four";
  else delete host.dataset.deck;
  const pressed = { dark: isDark(), four: Boolean(o.four), sound: Boolean(o.sound), timer: o.timer !== false, plain: Boolean(o.plain) };
  for (const b of root.querySelectorAll("[data-option]")) b.setAttribute("aria-pressed", String(pressed[b.dataset.option]));
  timer.hidden = o.timer === false;
}
