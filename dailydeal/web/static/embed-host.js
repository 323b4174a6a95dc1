// Optional, for pages that embed dailydeal in an <iframe> (docs/embedding.md): load it
// from the dailydeal server with
//   <script type="module" src="https://cards.example/static/embed-host.js"></script>
// and every <iframe> of that server's /embed/ pages grows and shrinks with the board,
// and re-dispatches the player's events (dailydeal-move, dailydeal-won, ...) on the
// <iframe> element, bubbling, with the same `detail` as the element's events.
// Messages are taken only from that server's origin and from one of those iframes.

const ORIGIN = new URL(import.meta.url).origin;
const EMBED = ORIGIN + "/embed/";

function frames() {
  return [...document.querySelectorAll("iframe")].filter((f) => (f.src || "").startsWith(EMBED));
}

function greet(frame) {
  // tells the frame this page's origin, so that it may send the player's events here
  if (frame.contentWindow) frame.contentWindow.postMessage({ source: "dailydeal-host", type: "hello" }, ORIGIN);
}

function watch(frame) {
  if (frame.dataset.dailydealHost) return;
  frame.dataset.dailydealHost = "1";
  frame.addEventListener("load", () => greet(frame));
  greet(frame);
}

window.addEventListener("message", (event) => {
  const data = event.data;
  if (event.origin !== ORIGIN || !data || data.source !== "dailydeal" || data.version !== 1) return;
  const frame = frames().find((f) => f.contentWindow === event.source);
  if (!frame) return;
  if (data.type === "resize" && Number.isFinite(data.height) && data.height > 0) {
    frame.style.height = `${Math.min(Math.ceil(data.height), 10000)}px`;
  } else if (typeof data.type === "string" && data.type.startsWith("dailydeal-")) {
    frame.dispatchEvent(new CustomEvent(data.type, { detail: data.detail, bubbles: true }));
  }
});

frames().forEach(watch);
new MutationObserver(() => frames().forEach(watch)).observe(document.documentElement, {
  childList: true,
  subtree: true,
});
