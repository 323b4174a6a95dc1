// The service worker of dailydeal's own pages (static/offline.js registers it; the
// <daily-deal> element never does, so on other sites it runs without one). With it the daily
// page, today's deals (kept when the daily page is opened online) and every deal once opened
// load and play with no network. Rendered by pages.py: VERSION changes with the package and
// with any static file, so a deploy installs a new worker with a fresh cache.
const VERSION = {{ version|tojson }};
const SHELL = {{ shell|tojson }}; // fetched at install: the daily page, the offline page, static files
const ALIASES = {{ aliases|tojson }}; // a static file's versioned URL -> its plain URL (module imports)
const OFFLINE = {{ offline|tojson }};
const LOCALES = {{ locales|tojson }}; // the offline page is kept in each: OFFLINE?lang=...
const ROOT = {{ root|tojson }};
const API = {{ api|tojson }};
const CACHE = `dailydeal-${VERSION}`;
const KEEP = 150; // pages and deals kept beside the shell, the oldest dropped first
const PATIENCE = 4000; // ms the network is waited for when a kept copy could answer
const KEPT = new Set([...SHELL, ...Object.values(ALIASES)].map((u) => new URL(u, location).href));
// the API's answers that are the same for everyone and that a page needs to play:
// the daily lists, a daily deal, a numbered deal. Never hints, states, results, statistics.
const DEAL = /^(daily\/[^?]+|deals\/[^/?]+|games\/[^/?]+\/deals\/[^/?]+)$/;

const isPage = (url) => url.pathname === ROOT || url.pathname === OFFLINE ||
  url.pathname.startsWith(`${ROOT}play/`);
const isDeal = (url) => url.pathname.startsWith(API) && DEAL.test(url.pathname.slice(API.length));
const isStatic = (url) => url.pathname.startsWith(`${ROOT}static/`);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL); // all or nothing: a worker without its shell does not install
    for (const [versioned, plain] of Object.entries(ALIASES)) {
      await cache.put(plain, await cache.match(versioned));
    }
    await carryOver(cache);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("dailydeal-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // verify, results, hints: the network's, never kept
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    if (isPage(url)) event.respondWith(networkFirst(event, true));
  } else if (isDeal(url)) {
    event.respondWith(networkFirst(event, false));
  } else if (isStatic(url)) {
    event.respondWith(staleWhileRevalidate(event));
  }
});

// The daily page asks for today's deals to be kept: {prefetch: [page and deal URLs]}.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.prefetch;
  if (Array.isArray(urls)) event.waitUntil(prefetch(urls.map(String)));
});

// The network's answer, kept for later; the kept copy when the network fails, or when it is
// slower than PATIENCE (a weak mobile signal: the network's answer is still kept when it comes).
async function networkFirst(event, page) {
  const request = event.request;
  const network = fetch(request).then(async (response) => {
    if (response.ok) await keep(await caches.open(CACHE), request, response.clone());
    return response;
  });
  event.waitUntil(network.catch(() => {})); // the worker lives until it is kept
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  try {
    return await (kept ? Promise.race([network, after(PATIENCE, kept)]) : network);
  } catch (error) {
    if (kept) return kept;
    if (page) return (await cache.match(offlinePage(new URL(request.url)))) || Response.error();
    throw error; // the page's fetch fails as it would without a worker
  }
}

// The offline page in the language the page was asked in: ?lang= as the server reads it
// (i18n.negotiate: the locale itself, any case, or its language's), else the plain one,
// fetched at install in the browser's language.
function offlinePage(url) {
  const tag = (url.searchParams.get("lang") || "").toLowerCase().replace("_", "-");
  const found = LOCALES.find((l) => l.toLowerCase() === tag) ||
    LOCALES.find((l) => tag && l.toLowerCase().split("-")[0] === tag.split("-")[0]);
  return found ? `${OFFLINE}?lang=${encodeURIComponent(found)}` : OFFLINE;
}

const after = (ms, value) => new Promise((resolve) => setTimeout(resolve, ms, value));

async function staleWhileRevalidate(event) {
  const request = event.request;
  const fresh = fetch(request).then(async (response) => {
    if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
    return response;
  });
  event.waitUntil(fresh.catch(() => {})); // offline: the kept copy is all there is
  const kept = await (await caches.open(CACHE)).match(request, { ignoreVary: true });
  return kept || fresh;
}

async function prefetch(urls) {
  const cache = await caches.open(CACHE);
  await Promise.allSettled(urls.map(async (href) => {
    const url = new URL(href, location);
    if (url.origin !== location.origin || !(isPage(url) || isDeal(url))) return;
    if (await cache.match(url, { ignoreVary: true })) return; // a deal's page never changes
    const response = await fetch(url);
    if (response.ok) await keep(cache, url, response);
  }));
}

async function keep(cache, request, response) {
  await cache.put(request, response);
  const extra = (await cache.keys()).filter((r) => !KEPT.has(r.url));
  for (const old of extra.slice(0, Math.max(0, extra.length - KEEP))) await cache.delete(old);
}

// A new version keeps what the previous one kept (pages and deals, fetched anew: the
// install happens online), so a deploy does not lose the deals a player opened.
async function carryOver(cache) {
  for (const name of await caches.keys()) {
    if (!name.startsWith("dailydeal-") || name === CACHE) continue;
    const old = await caches.open(name);
    const urls = (await old.keys()).map((r) => new URL(r.url)).filter((u) => !KEPT.has(u.href) &&
      (isPage(u) || isDeal(u)));
    await Promise.allSettled(urls.slice(-KEEP).map((u) => cache.add(u)));
  }
}
