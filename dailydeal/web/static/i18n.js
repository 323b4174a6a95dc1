// The element's words in the player's language: the message catalogs of static/locales/
// (the same JSON files as the server's pages, dailydeal/web/i18n.py), fetched only when a
// locale is needed; plural categories, numbers and dates through Intl. A message is a string
// with {placeholders}, or an object keyed by CLDR plural category chosen by the parameter n.
// en-XA is the pseudo-locale (English accented, a third longer, in ⟦ ⟧) the tests use.

export const LOCALES = ["en", "ar", "de", "es", "fr", "ja", "pt-BR"];
export const PSEUDO = "en-XA";
const PLACEHOLDER = /\{(\w+)\}/g;
const FROM = "abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ";
const TO = [..."áƀçđéĝĥíķĺñöŕšţüýžÅƁÇĐÉĜĤÍĶĹÑÖŘŠŢÜÝŽ"];

/** ``text`` in the pseudo-locale (as i18n.py's pseudo()). */
export function pseudo(text) {
  const out = text.split(/(\{\w+\})/).map((part, i) =>
    i % 2 ? part : [...part].map((c) => (FROM.includes(c) ? TO[FROM.indexOf(c)] : c)).join("")).join("");
  return `⟦${out}${"·".repeat(Math.max(1, Math.round(text.length * 0.35)))}⟧`;
}

/** The catalog a language tag names ("pt-br" -> "pt-BR", "fr-CA" -> "fr"), else "en". */
export function pick(tag) {
  const t = String(tag || "").trim().replace(/_/g, "-").toLowerCase();
  if (t === PSEUDO.toLowerCase()) return PSEUDO;
  const base = t.split("-")[0];
  return LOCALES.find((l) => l.toLowerCase() === t) || LOCALES.find((l) => l.toLowerCase().split("-")[0] === base) || "en";
}

const CATALOGS = new Map();

/** The catalog of ``locale`` (fetched once per page; en-XA is made from English). */
export function catalog(locale) {
  if (!CATALOGS.has(locale)) {
    const file = locale === PSEUDO ? "en" : locale;
    const url = new URL(`locales/${file}.json`, import.meta.url);
    CATALOGS.set(locale, fetch(url).then((resp) => {
      if (!resp.ok) throw new Error(`${resp.status}`);
      return resp.json();
    }).then((cat) => (locale === PSEUDO ? pseudoCatalog(cat) : cat)).catch((err) => {
      CATALOGS.delete(locale); // offline on a first visit: asked again next time
      throw err;
    }));
  }
  return CATALOGS.get(locale);
}

function pseudoCatalog(cat) {
  const out = { "@locale": { name: "Pseudo", dir: "ltr" } };
  for (const [key, value] of Object.entries(cat)) {
    if (key.startsWith("@")) continue;
    out[key] = typeof value === "string" ? pseudo(value) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pseudo(v)]));
  }
  return out;
}

export class Words {
  /** ``locale`` (a LOCALES entry or en-XA), its ``catalog``, and an embedder's
   *  ``overrides`` ({key: message}), which win. */
  constructor(locale = "en", cat = {}, overrides = {}) {
    this.locale = locale;
    this.catalog = cat;
    this.overrides = overrides || {};
    this.intl = locale === PSEUDO ? "en" : locale;
    this.dir = (cat["@locale"] && cat["@locale"].dir) || "ltr";
    this.plurals = new Intl.PluralRules(this.intl);
    this.numbers = new Intl.NumberFormat(this.intl, { numberingSystem: "latn" });
  }

  num(n) {
    return this.numbers.format(n);
  }

  /** The message ``key`` with its {placeholders} filled (numbers in the locale's way). */
  t(key, params = {}) {
    let m = key in this.overrides ? this.overrides[key] : this.catalog[key];
    if (m === undefined) return key;
    if (typeof m === "object" && m !== null) {
      const n = Number(params.n);
      m = m[Number.isFinite(n) ? this.plurals.select(n) : "other"] ?? m.other ?? key;
    }
    return String(m).replace(PLACEHOLDER, (all, name) => {
      const v = params[name];
      if (v === undefined || v === null) return all;
      return typeof v === "number" ? this.num(v) : String(v);
    });
  }

  /** A date (and time) as the locale writes it; ``options``: Intl.DateTimeFormat's. */
  date(when, options) {
    return new Intl.DateTimeFormat(this.intl, { numberingSystem: "latn", ...options }).format(when);
  }
}

/** The words of ``locale`` with ``overrides``: a promise (the catalog may be fetched). */
export async function wordsFor(locale, overrides = {}) {
  const l = locale === PSEUDO ? PSEUDO : pick(locale);
  return new Words(l, await catalog(l), overrides);
}

/** Fill the texts of ``root``'s elements marked with catalog keys: data-t (the text),
 *  data-t-label (aria-label), data-t-title (title), data-t-placeholder; and set its
 *  lang and dir. */
export function translate(root, words) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = words.t(el.dataset.t);
  for (const [attr, prop, name] of [["t-label", "tLabel", "aria-label"], ["t-title", "tTitle", "title"], ["t-placeholder", "tPlaceholder", "placeholder"]]) {
    for (const el of root.querySelectorAll(`[data-${attr}]`)) el.setAttribute(name, words.t(el.dataset[prop]));
  }
}
