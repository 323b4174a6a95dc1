// The element's words for the player's hand, chosen in one place: "tap" on a touch screen
// (a coarse pointer), "click" with a mouse or without a screen (Node's tests).
const coarse = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

/** "tap" or "click"; ``capital``: "Tap" or "Click", to start a sentence. */
export function press(capital = false) {
  const word = coarse() ? "tap" : "click";
  return capital ? word[0].toUpperCase() + word.slice(1) : word;
}
