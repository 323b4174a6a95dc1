// The element's API client, what it keeps and what it says at the end, without a browser
// (node --test tests/js/): errors and retries, the offline queue, streaks, the finish's words.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

// localStorage as the browser has it (Node has none)
const storage = new Map();
globalThis.localStorage = {
  getItem: (k) => (storage.has(k) ? storage.get(k) : null),
  setItem: (k, v) => storage.set(k, String(v)),
  removeItem: (k) => storage.delete(k),
};
const api = await import("../../dailydeal/web/static/api.js");
const store = await import("../../dailydeal/web/static/store.js");
const finish = await import("../../dailydeal/web/static/finish.js");
const { HintTrail, lightWords } = await import("../../dailydeal/web/static/hints.js");
const { clockText } = await import("../../dailydeal/web/static/clock.js");
const { Words } = await import("../../dailydeal/web/static/i18n.js");
const { readFileSync } = await import("node:fs");
// the English catalog, as the element fetches it (static/locales/en.json)
const EN = new Words("en", JSON.parse(readFileSync(new URL("../../dailydeal/web/static/locales/en.json", import.meta.url))));

beforeEach(() => storage.clear());

/** A fetch that answers from a list of [status, body, headers] (or throws for "offline"),
 *  and records what was asked. */
function fakeFetch(answers) {
  const asked = [];
  const fetcher = async (url, init = {}) => {
    asked.push({ url, method: init.method || "GET", body: init.body ? JSON.parse(init.body) : null });
    const next = answers.shift();
    if (next === "offline") throw new TypeError("Failed to fetch");
    const [status, body, headers = {}] = next;
    return {
      ok: status >= 200 && status < 300, status,
      headers: { get: (name) => headers[name] ?? null },
      json: async () => { if (body === null) throw new SyntaxError("no JSON"); return body; },
    };
  };
  return { fetcher, asked };
}

test("the client's errors: no network is status 0, a problem's detail, Retry-After", async () => {
  let f = fakeFetch(["offline"]);
  await assert.rejects(new api.Client("http://x/api/v1/", f.fetcher).get("/games"), (e) => e instanceof api.ApiError && e.status === 0);
  f = fakeFetch([[429, { detail: "hint limit reached" }, { "Retry-After": "42" }]]);
  await assert.rejects(new api.Client("http://x/api/v1", f.fetcher).get("/x"), (e) => {
    assert.equal(e.status, 429);
    assert.equal(e.retryAfter, 42);
    assert.equal(e.message, "hint limit reached Try again in 42 s.");
    return true;
  });
  f = fakeFetch([[502, null]]);
  await assert.rejects(new api.Client("http://x/api/v1", f.fetcher).get("/x"), (e) => {
    assert.match(e.message, /The server answered 502/); // English, for machines and logs
    // the player reads it from the catalog: an answer that is no problem (a proxy's page)
    const DE = new Words("de", JSON.parse(readFileSync(new URL("../../dailydeal/web/static/locales/de.json", import.meta.url))));
    assert.equal(api.errorText(e, DE), "Der Server antwortete mit 502.");
    assert.equal(api.errorText(new api.ApiError("x", 404, { code: "deal_not_found" }), EN), EN.t("problem.deal_not_found"));
    return true;
  });
});

test("hints: GET for a daily deal with its token and where the line followed began; POST when long", async () => {
  const f = fakeFetch([[200, { verdict: "winnable" }], [200, { verdict: "winnable" }], [200, {}]]);
  const c = new api.Client("http://x/api/v1", f.fetcher);
  const meta = { id: "2026-12-01-gaps-easy", game: "gaps", seed: "5", variant: "standard" };
  await c.hint(meta, ["8C", "2S@3"], 1, "tok");
  assert.equal(f.asked[0].url, "http://x/api/v1/deals/2026-12-01-gaps-easy/hint?moves=8C%202S%403&from=1&play=tok");
  await c.hint(meta, Array(2000).fill("8C"), null, null);
  assert.equal(f.asked[1].method, "POST");
  assert.deepEqual(Object.keys(f.asked[1].body), ["moves"]);
  await c.hint({ id: null, game: "gaps", seed: "5", variant: "standard" }, [], null, null);
  assert.deepEqual(f.asked[2].body, { seed: "5", variant: "standard", moves: [] });
  assert.equal(f.asked[2].url, "http://x/api/v1/games/gaps/hint");
});

test("retryLater: only a 503 (nothing stored) is posted again; a result taken is the server's to count", () => {
  const err = (status, body, retryAfter = null) => new api.ApiError("x", status, body, retryAfter);
  assert.equal(api.retryLater(err(503, { retry_after: 12.2 })), 13);
  assert.equal(api.retryLater(err(503, null, 3)), 3);
  assert.equal(api.retryLater(err(503, null)), 5);
  assert.equal(api.retryLater(err(503, { retry_after: 7200 })), 0); // beyond an hour: no
  assert.equal(api.retryLater(err(429, { retry_after: 12 })), 0); // issue 38: no page retries
  assert.equal(api.retryLater(err(425, null, 3)), 0);
  assert.equal(api.retryLater(err(400, { retry_after: 5 })), 0);
  assert.equal(api.retryLater(new Error("x")), 0);
  assert.match(api.hintTrouble(err(429, null, 42), EN), /in 42 seconds/);
  assert.match(api.hintTrouble(err(429, null, 600), EN), /in 10 minutes/);
  assert.match(api.hintTrouble(err(503, null), EN), /busy/);
  assert.match(api.hintTrouble(err(0, null), EN), /offline/);
});

test("a result is posted once; a 409 names the one that counts", async () => {
  const stats = { plays: 3, wins: 2, win_rate: 0.6667, pending: 0, winning_moves: [{ moves: 40, count: 2 }] };
  let f = fakeFetch([[202, { result: { won: true, moves: 40, hints: 0 }, pending: true, counts_at: "2030-01-01T10:07:00Z", stats }]]);
  const mine = await api.sendResult(new api.Client("http://x/api/v1", f.fetcher), "d1", { moves: [] });
  assert.equal(mine.moves, 40);
  assert.deepEqual(mine.stats, stats); // the answer's statistics hold this play
  assert.equal(store.posted("d1").counts_at, "2030-01-01T10:07:00Z");
  f = fakeFetch([]);
  assert.equal((await api.sendResult(new api.Client("http://x/api/v1", f.fetcher), "d1", {})).moves, 40);
  assert.equal(f.asked.length, 0); // counted already: not posted again
  f = fakeFetch([[409, { detail: "counted", result: { won: false, moves: 3, hints: 1 } }]]);
  assert.equal((await api.sendResult(new api.Client("http://x/api/v1", f.fetcher), "d2", {})).won, false);
  assert.equal(store.posted("d2").moves, 3);
});

test("the offline queue: kept while offline or told 'later', dropped on a final answer", async () => {
  const realFetch = globalThis.fetch;
  const answers = [];
  const f = fakeFetch(answers);
  globalThis.fetch = f.fetcher;
  try {
    store.enqueueOffline({ kind: "result", id: "a", api: "http://x/api/v1", body: { moves: [] } });
    store.enqueueOffline({ kind: "result", id: "b", api: "http://x/api/v1", body: { moves: [] } });
    store.enqueueOffline({ kind: "result", id: "c", api: "http://x/api/v1", body: { moves: [] } });
    store.enqueueOffline({ kind: "result", id: "a", api: "http://x/api/v1", body: { moves: [] } }); // once
    assert.equal(store.queued().length, 3);
    answers.push("offline", [503, { retry_after: 30 }], [400, { detail: "bad" }]);
    let sent = await api.flushQueue();
    assert.deepEqual(store.queued().map((q) => q.id), ["a", "b"]);
    assert.equal(sent.length, 0);
    answers.push([201, { result: { won: true, moves: 9, hints: 0 } }], [201, { result: { won: false, moves: 2, hints: 0 } }]);
    sent = await api.flushQueue();
    assert.deepEqual(sent.map((q) => q.id), ["a", "b"]);
    assert.deepEqual(store.queued(), []);
    assert.equal(store.posted("a").moves, 9);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("an offline win is verified, recorded and its result posted; the element may take its own", async () => {
  const realFetch = globalThis.fetch;
  const f = fakeFetch([[200, { won: true, moves: 51 }], [201, { result: { won: true, moves: 51, hints: 1 } }]]);
  globalThis.fetch = f.fetcher;
  try {
    const meta = { id: "2026-12-01-accordion-easy", date: "2026-12-01", game: "accordion", tier: "easy" };
    store.writeJSON(`play.${meta.id}`, "token1");
    store.enqueueOffline({ kind: "won", key: meta.id, meta, api: "http://x/api/v1", moves: ["d"], hints: 1, seconds: 30, par: null });
    store.enqueueOffline({ kind: "won", key: "mine", meta, api: "http://x/api/v1", moves: ["d"], hints: 0, seconds: 3 });
    const own = async (item) => item.key === "mine";
    await api.flushQueue(own);
    assert.deepEqual(f.asked.map((a) => a.url), ["http://x/api/v1/deals/2026-12-01-accordion-easy/verify", "http://x/api/v1/deals/2026-12-01-accordion-easy/results"]);
    assert.equal(f.asked[1].body.play, "token1");
    assert.equal(store.results()[meta.id].moves, 51);
    assert.deepEqual(store.queued(), []);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("streaks count days in a row ending today or yesterday", () => {
  const win = (id, date) => store.recordWin({ id, date, game: "gaps", tier: "easy" }, 50, 0, null);
  win("a", "2026-12-01");
  win("b", "2026-12-02");
  win("c", "2026-12-03");
  assert.equal(store.streak("2026-12-03"), 3);
  assert.equal(store.streak("2026-12-04"), 3);
  assert.equal(store.streak("2026-12-05"), 0);
  store.recordWin({ id: "c", date: "2026-12-03", game: "gaps", tier: "easy" }, 60, 0, null);
  assert.equal(store.results().c.moves, 50); // the best win stays
  storage.set("dailydeal.v1.results", "{corrupt");
  assert.equal(store.streak("2026-12-03"), 0); // corrupt storage: play on
});

test("a result counted later: when, in words, and in the player's own statistics until then", () => {
  const now = Date.parse("2030-01-01T10:00:00Z");
  const at = new Date(now + 7 * 60000);
  const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const mine = { won: true, moves: 40, hints: 0, counts_at: at.toISOString() };
  assert.equal(finish.countsNote(mine, EN, now), `Your result counts for everybody at ${hhmm}.`);
  assert.equal(finish.countsNote(mine, EN, now + 8 * 60000), "");
  assert.equal(finish.countsNote({ won: true, moves: 40 }, EN, now), "");
  const stats = { plays: 4, wins: 2, win_rate: 0.5, pending: 1, final: false, winning_moves: [{ moves: 38, count: 2 }] };
  const mineIn = finish.withMine(stats, mine, now);
  assert.deepEqual([mineIn.plays, mineIn.wins, mineIn.pending], [5, 3, 0]);
  assert.deepEqual(mineIn.winning_moves, [{ moves: 38, count: 2 }, { moves: 40, count: 1 }]);
  assert.equal(finish.withMine(stats, mine, now + 8 * 60000), stats); // counted: in them already
  assert.equal(finish.withMine({ ...stats, pending: 0 }, mine, now).plays, 4);
});

test("the finish in words: verdict, ties, the share text", () => {
  assert.deepEqual(finish.verdictTexts({ won: true, moves: 40 }, 40, 0, EN), { title: "Solved in 40 moves", verdict: "Verified by the server: won in 40 moves. The solver's par is 40: you matched it ⭐." });
  assert.match(finish.verdictTexts({ won: false, moves: 40, state: "lost" }, null, 0, EN).verdict, /did not confirm the win \(lost\)/i);
  const stats = { plays: 5, wins: 4, win_rate: 0.8, final: false, winning_moves: [{ moves: 40, count: 2 }, { moves: 50, count: 2 }] };
  assert.equal(finish.statsText(stats, { won: true, moves: 40 }, "", EN), "5 players, 80% won, the fewest moves, tied with 1: you beat 2 of the 3 other winners.");
  assert.equal(finish.statsText({ ...stats, wins: 1, winning_moves: [{ moves: 40, count: 1 }] }, { won: true, moves: 40 }, "", EN), "5 players, 80% won, you are the first to win it.");
  const meta = { id: "2026-12-01-pyramid-hard", date: "2026-12-01", tier: "hard", game: "pyramid" };
  // Arabic's date has direction marks (U+200F) that scramble "dailydeal 01/12/2026" in a line
  // shown left to right: the share text leaves them out
  const AR = new Words("ar", JSON.parse(readFileSync(new URL("../../dailydeal/web/static/locales/ar.json", import.meta.url))));
  assert.equal(finish.shareText({ meta, title: "x", origin: "o", n: 3, par: null, hints: 0, seconds: null }, AR).split("\n")[0], "dailydeal 01/12/2026");
  assert.equal(finish.shareText({ meta, title: "Pyramid", origin: "https://d.example", n: 30, par: 28, hints: 1, seconds: 65 }, EN),
    "dailydeal Dec 1, 2026\nPyramid · Hard 🟠\n✅ Won in 30 moves (par 28) with 1 hint\n⏱ 1:05 (player's clock)\nhttps://d.example/play/2026-12-01-pyramid-hard");
  // no meaning in colour or emoji alone: the plain option says everything in words
  const plain = finish.shareText({ meta, title: "Pyramid", origin: "https://d.example", n: 28, par: 28, hints: 0, seconds: 65, plain: true }, EN);
  assert.equal(plain, "dailydeal Dec 1, 2026\nPyramid · Hard\nWon in 28 moves (par 28, matched)\nTime 1:05 (player's clock)\nhttps://d.example/play/2026-12-01-pyramid-hard");
  assert.doesNotMatch(plain, /\p{Extended_Pictographic}/u);
  assert.match(finish.shareText({ meta, title: "Pyramid", origin: "o", n: 28, par: 28, hints: 0, seconds: null }, EN), /✅ Won in 28 moves \(par 28, matched ⭐\)/);
  assert.equal(finish.shareText({ meta: { id: null, game: "gaps", seed: "9", variant: "redeals=0" }, title: "Gaps", origin: "o", n: 3, par: null, hints: 0, seconds: null }, EN),
    "dailydeal · Gaps #9\n✅ Won in 3 moves\no/play/gaps/9?variant=redeals%3D0");
  // a signed win: the share text links its solve page, no move in it
  assert.equal(finish.shareText({ meta, title: "Pyramid", origin: "https://d.example", n: 30, par: 28, hints: 0, seconds: null, link: "https://d.example/s/AbCdEfGhIjKlMnOp" }, EN),
    "dailydeal Dec 1, 2026\nPyramid · Hard 🟠\n✅ Won in 30 moves (par 28)\nhttps://d.example/s/AbCdEfGhIjKlMnOp");
  const ties = (wm, moves) => finish.statsText({ plays: 9, wins: wm.reduce((a, w) => a + w.count, 0), win_rate: 0.5, final: false, winning_moves: wm }, { won: true, moves }, "", EN);
  assert.equal(ties([{ moves: 40, count: 2 }], 40), "9 players, 50% won, you tied the other winner on moves.");
  assert.equal(ties([{ moves: 40, count: 3 }], 40), "9 players, 50% won, you tied the 2 other winners on moves.");
  assert.equal(ties([{ moves: 40, count: 1 }, { moves: 50, count: 2 }], 40), "9 players, 50% won, the fewest moves: you beat the 2 other winners.");
  assert.equal(ties([{ moves: 40, count: 2 }, { moves: 50, count: 1 }], 40), "9 players, 50% won, the fewest moves, tied with 1: you beat 1 of the 2 other winners.");
  assert.equal(ties([{ moves: 30, count: 1 }, { moves: 40, count: 2 }, { moves: 50, count: 1 }], 40), "9 players, 50% won, you beat 33% of the other winners on moves, tied with 1.");
  assert.equal(finish.firstResultNote({ won: true, moves: 40 }, true, 40, EN), null);
  assert.match(finish.firstResultNote({ won: false, moves: 3 }, true, 40, EN), /not won/);
  assert.equal(clockText(3723), "1:02:03");
  assert.equal(clockText(-5), "0:00");
});

test("the hints followed: the server's line goes on while the player follows it", () => {
  const t = new HintTrail();
  assert.equal(t.from(["a"]), null);
  t.add(["a"], "b");
  assert.equal(t.from(["a"]), 1);
  assert.equal(t.from(["a", "b"]), 1);
  t.add(["a", "b"], "c");
  assert.equal(t.from(["a", "b", "c"]), 1);
  assert.equal(t.from(["a", "x"]), null); // left the line
  t.add(["a", "x"], "y");
  assert.equal(t.from(["a", "x"]), 2);
  assert.equal(lightWords("winnable", true, "", EN).text, "yes");
  assert.match(lightWords("unknown", true, "busy", EN).title, /could not tell \(busy\)/);
});

test("an illegal move's reason: the rules' English (the server's) and its code, said in the player's language", async () => {
  const rules = await import("../../dailydeal/web/static/rules.js");
  const { LocalPlay } = await import("../../dailydeal/web/static/play.js");
  const FR = new Words("fr", JSON.parse(readFileSync(new URL("../../dailydeal/web/static/locales/fr.json", import.meta.url))));
  const play = new LocalPlay(rules, { game: "pyramid", variant: "relaxed", seed: 7n });
  const st = play.stateOf(["2S+3H"]);
  assert.equal(st.valid, false);
  assert.deepEqual([st.error.reason, st.error.code, st.error.params], ["2S and 3H do not sum to 13", "not_13", { a: "2S", b: "3H" }]);
  // English's words are the rules' own; another language's come from its catalog
  assert.equal(EN.t(`reason.${st.error.code}`, st.error.params), st.error.reason);
  assert.equal(FR.t(`reason.${st.error.code}`, st.error.params), "2S et 3H ne font pas 13");
  // every reason a game gives has its code, whose English is the reason itself
  const g = rules.newGame("accordion", "forced", null, 3n);
  for (const text of ["AS>KD", "d", "d", "d"]) {
    try {
      g.push(text);
    } catch (e) {
      assert.ok(e instanceof rules.IllegalMoveError && e.code in rules.REASONS, e.message);
      assert.equal(EN.t(`reason.${e.code}`, e.params), e.message);
    }
  }
  // a move that cannot be read (the notation) has its code too: no English reaches the player
  const unread = play.stateOf(["2S+3H+4D"]).error;
  assert.deepEqual([unread.code, unread.params], ["pair_syntax", { text: "'2S+3H+4D'" }]);
  assert.equal(FR.t(`reason.${unread.code}`, unread.params), "impossible de lire '2S+3H+4D' : une paire s'écrit X+Y");
  for (const [game, text] of [["accordion", "zz"], ["accordion", ""], ["pyramid", "7C"], ["gaps", "AS"], ["gaps", "3S@1"], ["gaps", "2S@9"], ["gaps", "x".repeat(20)]]) {
    const e = new LocalPlay(rules, { game, variant: rules.variants(game)[0], seed: 1n }).stateOf([text]).error;
    assert.ok(e.code in rules.REASONS && EN.t(`reason.${e.code}`, e.params) === e.reason, `${game} ${text}: ${e.reason}`);
  }
});
