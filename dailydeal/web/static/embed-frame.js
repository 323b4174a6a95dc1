// The embed page's half of the iframe protocol (docs/embedding.md, "The iframe: size and
// events"). Loaded by /embed/{id} only. It tells the parent window, and nobody else:
//   {source: "dailydeal", version: 1, type: "resize", deal, height}   the page's height (px)
//   {source: "dailydeal", version: 1, type: "dailydeal-move" | "dailydeal-won" | ..., deal, detail}
// The height goes to the parent whatever its origin (targetOrigin "*": it says nothing).
// The player's events go only to the parent's origin, once it is known: from
// location.ancestorOrigins (Chromium, Safari), the referrer (the parent page's origin
// under the default Referrer-Policy), or a {source: "dailydeal-host", type: "hello"}
// message from the parent itself (static/embed-host.js sends it). The element is not
// changed: this listens to the DOM events it already dispatches.

const SOURCE = "dailydeal";
const VERSION = 1;
const EVENTS = ["dailydeal-move", "dailydeal-won", "dailydeal-hint", "dailydeal-result", "dailydeal-error"];

const framed = window.parent !== window;
const player = document.querySelector("daily-deal");
const deal = player ? player.getAttribute("deal") : null;

function knownOrigin() {
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length && ancestors[0] !== "null") return ancestors[0];
  try {
    if (document.referrer) return new URL(document.referrer).origin;
  } catch {
    /* not a URL: unknown */
  }
  return null;
}

let parentOrigin = framed ? knownOrigin() : null;
const waiting = []; // events before the parent's origin is known (the last 20)

function post(message, sensitive) {
  if (!framed) return;
  const data = { source: SOURCE, version: VERSION, deal, ...message };
  if (!sensitive) window.parent.postMessage(data, parentOrigin || "*");
  else if (parentOrigin) window.parent.postMessage(data, parentOrigin);
  else if (waiting.push(data) > 20) waiting.shift();
}

// --- the height ------------------------------------------------------------------------
function measure() {
  let bottom = 0;
  for (const el of document.body.children) {
    if (el.tagName === "SCRIPT") continue;
    const box = el.getBoundingClientRect();
    const margin = parseFloat(getComputedStyle(el).marginBottom) || 0;
    bottom = Math.max(bottom, box.bottom + margin + window.scrollY);
  }
  return Math.ceil(bottom);
}

let sent = -1;
let queued = false;
function sendHeight() {
  queued = false;
  const height = measure();
  if (height !== sent && height > 0) {
    sent = height;
    post({ type: "resize", height }, false);
  }
}
function schedule() {
  if (!queued) {
    queued = true;
    requestAnimationFrame(sendHeight);
  }
}

if (framed) {
  const observer = new ResizeObserver(schedule);
  observer.observe(document.body);
  for (const el of document.body.children) observer.observe(el);
  window.addEventListener("load", schedule);

  // --- the events ------------------------------------------------------------------------
  for (const name of EVENTS) {
    document.addEventListener(name, (event) => {
      post({ type: name, detail: JSON.parse(JSON.stringify(event.detail ?? null)) }, true);
      schedule();
    });
  }

  // the host script's greeting: only from the parent window itself
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source !== window.parent || !data || data.source !== "dailydeal-host") return;
    if (data.type === "hello" && event.origin !== "null") {
      parentOrigin = event.origin;
      while (waiting.length) window.parent.postMessage(waiting.shift(), parentOrigin);
      sent = -1; // answer with the current height
      schedule();
    }
  });
  schedule();
}
