// The element's words in the player's language: the message catalogs of static/locales/
// (the same JSON files as the server's pages, dailydeal/web/i18n.py), fetched only when a
// locale is needed; plural categories, numbers and dates through Intl. A message is a string
// with {placeholders}, or an object keyed by CLDR plural category chosen by the parameter n.
// en-XA is the pseudo-locale (English accented, a third longer, in ⟦ ⟧) the tests use: its
// catalog is made by the server (i18n.py's pseudo_catalog).
import { REASONS } from "./rules.js";

export const LOCALES = ["en", "ar", "de", "es", "fr", "ja", "pt-BR"];
export const PSEUDO = "en-XA";
const PLACEHOLDER = /\{(\w+)\}/g;

/** The catalog a language tag names ("pt-br" -> "pt-BR", "fr-CA" -> "fr"), else "en". */
export function pick(tag) {
  const t = String(tag || "").trim().replace(/_/g, "-").toLowerCase();
  if (t === PSEUDO.toLowerCase()) return PSEUDO;
  const base = t.split("-")[0];
  return LOCALES.find((l) => l.toLowerCase() === t) || LOCALES.find((l) => l.toLowerCase().split("-")[0] === base) || "en";
}

const CATALOGS = new Map();
/** English's words outside en.json, the rules' own (rules.js): the reasons for an illegal
 *  move (reason.<code>: REASONS, the server's words). */
const ENGLISH = Object.fromEntries(Object.entries(REASONS).map(([k, v]) => [`reason.${k}`, v]));

/** The catalog of ``locale`` (fetched once per page). */
export function catalog(locale) {
  if (!CATALOGS.has(locale)) {
    const url = new URL(`locales/${locale}.json`, import.meta.url);
    CATALOGS.set(locale, fetch(url).then((resp) => {
      if (!resp.ok) throw new Error(`${resp.status}`);
      return resp.json();
    }).catch((err) => {
      CATALOGS.delete(locale); // offline on a first visit: asked again next time
      throw err;
    }));
  }
  return CATALOGS.get(locale);
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
    let m = key in this.overrides ? this.overrides[key] : key in this.catalog ? this.catalog[key] : ENGLISH[key];
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

/** The element's language (a mixin of DailyDeal): its ``lang`` (or an ancestor's), else the
 *  page's, else the browser's; an embedder's ``strings``; the words loaded before any text
 *  shows, and every text shown again when they change. The element gives shadowRoot,
 *  enqueue(), meta, setSpecWords(), st, show(), relabelShown() and say(). */
export const Speaking = (Base) => class extends Base {
  constructor() {
    super();
    this.words = new Words(); // the player's language: its catalog comes before any text
    this.overrides = null; // an embedder's words (the strings property)
  }

  /** The locale asked for: the element's lang (or an ancestor's), else the page's. */
  get locale() {
    const own = this.closest("[lang]");
    return (own && own.getAttribute("lang")) || document.documentElement.lang || navigator.language || "en";
  }

  /** An embedder's words, by catalog key (docs/embedding.md): they win over the catalog's. */
  get strings() {
    if (this.overrides) return this.overrides;
    try {
      const parsed = JSON.parse(this.getAttribute("strings") || "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch {
      return {};
    }
  }

  set strings(value) {
    this.overrides = value && typeof value === "object" ? { ...value } : null;
    if (this.shadowRoot && this.isConnected) this.relabel();
  }

  /** Load the words of the locale asked for and put them on the shell (English if its
   *  catalog cannot be fetched, e.g. offline on a first visit). */
  async loadWords() {
    let words;
    try {
      words = await wordsFor(this.locale, this.strings);
    } catch {
      words = await wordsFor("en", this.strings).catch(() => new Words("en", {}, this.strings));
    }
    this.words = words;
    const shell = this.shadowRoot.firstElementChild;
    shell.lang = words.locale;
    shell.dir = words.dir;
    translate(this.shadowRoot, words);
    return words;
  }

  /** Show nothing before ``styled`` (the stylesheet) and the words are in: the shell stays
   *  [hidden] (no stylesheet needed) and the element carries data-styling until then. */
  hideUntilWords(styled) {
    this.wordsReady = this.loadWords();
    const shell = this.shadowRoot.firstElementChild;
    shell.hidden = true;
    this.dataset.styling = "";
    Promise.all([styled, this.wordsReady.catch(() => {})]).then(() => {
      shell.hidden = false;
      delete this.dataset.styling;
    });
  }

  t(key, params) {
    return this.words.t(key, params);
  }

  /** The language or the embedder's words changed: everything shown, again in them. */
  relabel() {
    this.wordsReady = this.loadWords();
    this.enqueue(async () => {
      await this.wordsReady;
      if (!this.meta) return;
      this.setSpecWords();
      if (this.st) this.show(this.st, this.last);
      this.relabelShown(); // the fairness note; a game over's result card and share text
      this.say("");
    });
  }
};
