// The element's words for the player's hand, chosen in one place: "tap" on a touch screen
// (a coarse pointer), "click" with a mouse or without a screen (Node's tests). The catalogs
// have a message of each kind (el.gap_pick.tap, el.gap_pick.click, ...).
const coarse = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

/** "tap" or "click": the last part of the key of a message that says it. */
export function hand() {
  return coarse() ? "tap" : "click";
}
