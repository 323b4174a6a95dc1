// The solve page (/s/{id}): checks the server's Ed25519 signature of the win in this browser
// (WebCrypto), and replays the line once it spoils nothing: the API gives the moves of a
// daily deal once its date is over everywhere, or, while it is open, to a browser that
// finished the deal (its counted play's token, kept by the element). The page never holds
// the moves itself.
const STORE = "dailydeal.v1";

function kept(key) {
  try {
    const text = localStorage.getItem(`${STORE}.${key}`);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

const fromB64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

/** Whether ``signature`` (base64) is ``key``'s (base64 raw Ed25519) over ``text``: true,
 *  false, or null where this browser cannot tell (no WebCrypto Ed25519). */
export async function checkSignature(key, text, signature) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  let pub;
  try {
    pub = await crypto.subtle.importKey("raw", fromB64(key), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return null; // Ed25519 unknown to this browser
  }
  return crypto.subtle.verify({ name: "Ed25519" }, pub, fromB64(signature), new TextEncoder().encode(text));
}

async function getJSON(url) {
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  if (!resp.ok) throw new Error(`${resp.status}`);
  return resp.json();
}

async function check(card) {
  const out = card.querySelector("[data-check]");
  const signed = card.querySelector("[data-signed]").textContent;
  const signature = card.querySelector("[data-signature]").textContent;
  const id = card.querySelector("[data-key]").textContent;
  try {
    const { keys } = await getJSON(card.dataset.keys);
    const key = keys.find((k) => k.id === id);
    const ok = key ? await checkSignature(key.ed25519, signed, signature) : false;
    out.dataset.verified = ok === null ? "unsupported" : String(ok);
    out.textContent = say(card, ok === null ? "solve.check_unsupported" : ok ? "solve.check_ok" : "solve.check_bad", { key: id });
  } catch {
    out.dataset.verified = "unsupported";
    out.textContent = say(card, "solve.keys_unreachable");
  }
}


/** A message of the page's language, which the page holds (data-page-words: the pages'
 *  catalog is never fetched), with its {placeholders} filled. */
function say(card, key, params = {}) {
  const words = JSON.parse(card.dataset.pageWords || "{}");
  return String(words[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

/** The moves, when the API gives them to this browser, else null. */
async function moves(card) {
  const deal = card.dataset.deal;
  let url = card.dataset.json;
  if (card.dataset.public !== "true") {
    const token = deal ? kept(`play.${deal}`) : null;
    const posted = deal ? (kept("posted") || {})[deal] : null;
    if (typeof token !== "string" || !posted) return null; // not finished here: no spoiler
    url += `?play=${encodeURIComponent(token)}`;
  }
  try {
    const answer = await getJSON(url);
    if (!Array.isArray(answer.moves)) return null;
    if (!globalThis.crypto || !crypto.subtle) return answer.moves; // plain http: no digest here
    const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(answer.moves.join(" "))));
    return digest === answer.moves_sha256 ? answer.moves : null;
  } catch {
    return null;
  }
}

async function replay(card, line) {
  const el = document.createElement("daily-deal");
  el.className = `g-${card.dataset.game}`;
  if (card.dataset.deal) el.setAttribute("deal", card.dataset.deal);
  else {
    el.setAttribute("game", card.dataset.game);
    el.setAttribute("seed", card.dataset.seed);
    el.setAttribute("variant", card.dataset.variant);
  }
  el.setAttribute("api", card.dataset.api);
  card.dataset.replaying = "";
  const status = card.querySelector("[data-solve-status]");
  status.textContent = say(card, card.dataset.public === "true" ? "solve.replay_public" : "solve.replay_mine");
  document.querySelector("[data-solve-board]").append(el);
  await customElements.whenDefined("daily-deal");
  await el.replayLine(line);
}

async function main() {
  const card = document.querySelector("[data-solve]");
  if (!card) return;
  const line = await moves(card);
  await Promise.all([check(card), line ? replay(card, line) : null]);
}

main();
