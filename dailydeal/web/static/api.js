// The element's API client: one small method per request of the dailydeal API (docs/api.md),
// its errors as ApiError, and what to do when the network or the server says "later".
import { clientId, enqueueOffline, posted, queued, readJSON, recordWin, rememberPosted, writeJSON, writeQueue } from "./store.js";

export class ApiError extends Error {
  constructor(message, status, body = null, retryAfter = null) {
    super(message);
    this.status = status; // 0: the server could not be reached
    this.body = body;
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
    this.code = (body && typeof body.code === "string" && body.code) || null; // the problem's
  }
}

const enc = encodeURIComponent;
// A longer ?moves= is sent as a POST (not cached): servers refuse request lines over 8190
// bytes (gunicorn, nginx: a 414), and this leaves room for the path.
export const MAX_QUERY = 6000;
export const WEEK = 7 * 24 * 3600; // the longest time the results endpoint takes

/** The seconds after which a result the server could not take now (503: its store did not
 *  answer, nothing was stored) is worth posting again, else 0. A result the server takes
 *  is counted by the server itself when its time comes (a 201 or a 202 with `counts_at`):
 *  the page never posts it again. */
export function retryLater(err) {
  if (!(err instanceof ApiError) || err.status !== 503) return 0;
  const wait = Number((err.body && err.body.retry_after) || err.retryAfter || 5);
  return wait > 0 && wait <= 3600 ? Math.ceil(wait) : 0;
}

/** Why a hint did not come, in ``w``'s words (i18n.js): the hint budget with the time until
 *  the next hint (Retry-After), the solver's capacity, or no network. */
export function hintTrouble(err, w) {
  if (!(err instanceof ApiError)) return w.t("el.went_wrong", { why: err && err.message });
  if (err.status === 429) {
    const wait = err.retryAfter;
    if (wait === null) return w.t("el.hints_used_up_while");
    return wait < 90 ? w.t("el.hints_used_up_seconds", { n: wait }) : w.t("el.hints_used_up_minutes", { n: Math.ceil(wait / 60) });
  }
  if (err.status === 503) return w.t("problem.solver_busy");
  if (err.status === 0) return w.t("el.hints_offline");
  return errorText(err, w);
}

/** An API error in ``w``'s words: the problem's ``code`` (docs/api.md) where the catalog
 *  has it, else its status (an answer that is no problem: a proxy's error page). */
export function errorText(err, w) {
  if (err.status === 0) return w.t(err.code === "attributes" ? "el.attributes" : "el.unreachable");
  const key = err.code ? `problem.${err.code}` : "";
  const said = key && w.t(key) !== key ? w.t(key) : w.t("el.server_answered", { status: err.status });
  return err.retryAfter ? w.t("el.try_again_in", { detail: said, n: err.retryAfter }) : said;
}

/** What a deal is, from its JSON: {id, game, variant, seed, date, tier, par, rating, commitment,
 *  solutionOpensAt} (when the solver's line is served: the date over everywhere). */
export function dealMeta(d) {
  return {
    id: d.id, game: d.game, variant: d.variant, seed: String(d.seed), date: d.date,
    tier: d.tier, par: d.solution_length, rating: d.rating, commitment: d.commitment || null,
    solutionOpensAt: d.solution_opens_at || null,
  };
}

export class Client {
  /** ``base``: the API's URL (…/api/v1); ``fetcher``: window.fetch (tests pass their own). */
  constructor(base, fetcher = (...args) => fetch(...args)) {
    this.base = base.replace(/\/+$/, "");
    this.fetcher = fetcher;
  }

  async json(url, init) {
    let resp;
    try {
      resp = await this.fetcher(url, init);
    } catch {
      throw new ApiError("The server cannot be reached. Check the connection and try again.", 0);
    }
    let body = null;
    try {
      body = await resp.json();
    } catch {
      body = null;
    }
    if (!resp.ok) {
      const wait = resp.headers.get("Retry-After");
      const seconds = wait && /^\d+$/.test(wait) ? Number(wait) : null;
      const detail = (body && body.detail) || `The server answered ${resp.status}.`;
      throw new ApiError(wait ? `${detail} Try again in ${wait} s.` : detail, resp.status, body, seconds);
    }
    return body;
  }

  post(path, body) {
    return this.json(`${this.base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  get(path) {
    return this.json(`${this.base}${path}`);
  }

  /** What the element's attributes name ({deal} | {date, game, tier} | {game, seed, variant}). */
  async describe(attr) {
    if (attr.deal) return dealMeta(await this.get(`/deals/${enc(attr.deal)}`));
    if (attr.date && attr.game && attr.tier) {
      const tz = attr.date === "today" ? `?tz=${enc(attr.tz)}` : "";
      return dealMeta(await this.get(`/daily/${enc(attr.date)}/${enc(attr.game)}/${enc(attr.tier)}${tz}`));
    }
    if (attr.game && attr.seed) {
      const v = attr.variant ? `?variant=${enc(attr.variant)}` : "";
      const d = await this.get(`/games/${enc(attr.game)}/deals/${enc(attr.seed)}${v}`);
      // a decimal string: a 64-bit seed does not fit a JS number
      return { id: null, game: d.game, variant: d.variant, seed: attr.seed, date: null, tier: null, par: null };
    }
    throw new ApiError('Set the attribute "deal", or "game" and "seed", or "date", "game" and "tier".', 0, { code: "attributes" });
  }

  /** A play token for a daily deal, asked once and kept; null when the endpoint is missing
   *  or fails (hints and results work without it). */
  async playToken(id) {
    const kept = readJSON(`play.${id}`, null);
    if (typeof kept === "string") return kept;
    try {
      // no body: a "simple" request, so another origin's page needs no CORS preflight
      const answer = await this.json(`${this.base}/deals/${enc(id)}/plays`, { method: "POST" });
      if (answer && typeof answer.play === "string") {
        writeJSON(`play.${id}`, answer.play);
        return answer.play;
      }
    } catch {
      /* no token */
    }
    return null;
  }

  /** The solver's line of a daily deal (served once its date is over everywhere). */
  async solution(meta) {
    return (await this.get(`/deals/${enc(meta.id)}/solution`)).moves;
  }

  verify(meta, moves) {
    if (meta.id) return this.post(`/deals/${enc(meta.id)}/verify`, { moves });
    return this.post(`/games/${enc(meta.game)}/verify`, { seed: meta.seed, variant: meta.variant, moves });
  }

  /** A hint after ``moves``; ``from``: where the hints followed began; a daily deal's hint
   *  carries the play token (the server counts it). */
  hint(meta, moves, from, token) {
    const q = enc(moves.join(" "));
    if (meta.id && q.length <= MAX_QUERY) {
      // a GET, cacheable like state: the same position gives the same hint
      const f = from === null ? "" : `&from=${from}`;
      const play = token ? `&play=${enc(token)}` : "";
      return this.get(`/deals/${enc(meta.id)}/hint?moves=${q}${f}${play}`);
    }
    const body = meta.id ? { moves } : { seed: meta.seed, variant: meta.variant, moves };
    if (from !== null) body.from = from;
    if (token) body.play = token;
    return meta.id ? this.post(`/deals/${enc(meta.id)}/hint`, body) : this.post(`/games/${enc(meta.game)}/hint`, body);
  }

  /** The review of a lost game: where the win slipped away (docs/api.md, Review). */
  review(meta, moves) {
    if (meta.id) return this.post(`/deals/${enc(meta.id)}/review`, { moves });
    return this.post(`/games/${enc(meta.game)}/review`, { seed: meta.seed, variant: meta.variant, moves });
  }

  postResult(id, body) {
    return this.post(`/deals/${enc(id)}/results`, body);
  }

  /** Everybody's plays of a deal, asked again of the server (never the browser's copy: it
   *  must hold the play just posted). */
  stats(id) {
    return this.json(`${this.base}/deals/${enc(id)}/stats`, { cache: "no-cache" });
  }

  commitmentsURL(date) {
    return `${this.base}/commitments?from=${enc(date)}&to=${enc(date)}`;
  }
}

/** Post a result unless this browser's result for the deal is taken already; the result
 *  the server keeps (a 409 names the first one), with ``counts_at`` (when it counts for
 *  everybody: now, or later without anything more to send), ``pending`` and, fresh from
 *  the answer, ``stats`` (the deal's statistics with this play in them). Offline and
 *  "later" (503) errors are thrown. */
export async function sendResult(client, id, body) {
  const counted = posted(id);
  if (counted) return counted;
  try {
    const answer = await client.postResult(id, body);
    const mine = { ...answer.result, counts_at: answer.counts_at ?? null, pending: Boolean(answer.pending) };
    rememberPosted(id, mine);
    return answer.stats ? { ...mine, stats: answer.stats } : mine;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 0 || retryLater(err)) throw err;
    if (err.status === 409 && err.body && err.body.result) {
      rememberPosted(id, err.body.result);
      return err.body.result;
    }
    throw err;
  }
}

/** Queue a result for later (offline, or a server that could not store it now: the play is
 *  kept, so posting it again later counts it). */
export function queueResult(client, id, body) {
  enqueueOffline({ kind: "result", id, api: client.base, body });
}

/** Send one queued item: a win made offline (verified, then its result posted), or a result.
 *  ``own(item)``: the element showing that game takes its win itself (true when it did). */
async function sendQueued(item, own) {
  if (item.kind === "won") {
    if (await own(item)) return;
    const client = new Client(item.api);
    const verdict = await client.verify(item.meta, item.moves);
    if (verdict.won && item.meta.id) {
      recordWin(item.meta, verdict.moves, item.hints, item.par ?? null);
      const body = { client: clientId(), moves: item.moves, hints: item.hints, seconds: item.seconds };
      const token = readJSON(`play.${item.meta.id}`, null);
      if (typeof token === "string") body.play = token;
      await sendResult(client, item.meta.id, body);
    }
    return;
  }
  if (item.kind === "result") await sendResult(new Client(item.api), item.id, item.body);
}

let FLUSHING = null;

/** Send what waited for the network, oldest first, one flush at a time. An item stays queued
 *  while offline or told to come back later; any other answer ends it. Items queued while
 *  the flush runs are kept after those it kept. Returns the items sent. */
export function flushQueue(own = async () => false) {
  if (FLUSHING) return FLUSHING;
  FLUSHING = (async () => {
    const queue = queued();
    const kept = [];
    const sent = [];
    for (const item of queue) {
      try {
        await sendQueued(item, own);
        sent.push(item);
      } catch (err) {
        if (err instanceof ApiError && (err.status === 0 || retryLater(err))) kept.push(item);
      }
    }
    if (queue.length) writeQueue(kept.concat(queued().slice(queue.length)));
    return sent;
  })().finally(() => (FLUSHING = null));
  return FLUSHING;
}
