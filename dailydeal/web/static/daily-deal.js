// <daily-deal>: a solitaire board for the dailydeal API, in a shadow root.
//
// Moves are local, the server referees: the deal is loaded once and every click or drop is
// played by rules.js (the same rules as the server's, held equal by tests) in the same frame,
// drawn from its state (`position`, `legal_moves`, `state`: the same JSON as the API's state
// endpoint). The board asks rules.js what a place means (moveAt), where a card may go
// (targets) and what a move is in words; it never reads or writes move text. An illegal
// attempt shows the same reason the server gives. The server is asked only for what needs it:
// verifying a win (the verdict shown is its answer), hints, the winnable light, results and
// statistics; a win made offline is queued and verified when the network is back.
//
// Attributes in: deal | game+seed(+variant) | date+game+tier, and api (default: the
// origin this script came from). Events out: dailydeal-move, dailydeal-won, dailydeal-hint,
// dailydeal-result, dailydeal-error. Hooks: data-card, data-gap="ROW,COL", data-action, and
// data-state / data-moves on the board and on the element. docs/embedding.md is the contract.
//
// This module holds the element's state and flow; the rest is in modules of one concern
// each (docs/architecture.md, "The browser"): rules.js, play.js, api.js, store.js, specs.js,
// shell.js, board.js with a renderer per layout (render-*.js) over cards.js, input.js,
// motion.js, clock.js, hints.js, finish.js, speech.js, and the stylesheet daily-deal.css. It imports
// every one of them itself, so that a browser that loaded it asks for all the others at once
// (one round trip, not one per level of imports).
import { ApiError, Client, errorText, flushQueue, queueResult, retryLater, sendResult } from "./api.js";
import { Board, placeOf, sections } from "./board.js";
import { ResultCard, copyText, share } from "./card.js";
import { cap, cardName, esc } from "./cards.js";
import { Speaking } from "./i18n.js";
import "./render-grid.js";
import "./render-pyramid.js";
import "./render-row.js";
import * as rules from "./rules.js";
import { Clock, clockText } from "./clock.js";
import { countsNote, firstResultNote, shareText, verdictTexts, withMine } from "./finish.js";
import { showFair } from "./fair.js";
import { HintTrail, Hinting } from "./hints.js";
import { Drag, decide, dropMove, isArrow, keyCommand, nextFocus } from "./input.js";
import { animate, celebrate, play, reduced, settle, shake, slideBack, snapshot } from "./motion.js";
import { SHELL, foldMenu, parts } from "./shell.js";
import * as options from "./options.js";
import { LocalPlay } from "./play.js";
import { Replay, ReplayBar, solverLineOpen } from "./replay.js";
import { showReview } from "./review.js";
import { SPECS, gameOfDeal, meaningfulPar, specOf } from "./specs.js";
import { Speaker, keepFocus, moveSaid, nowSaid, restartSaid, undoneSaid } from "./speech.js";
import * as store from "./store.js";

export { cardName, clockText, meaningfulPar, SPECS };
export const { results, streak, progress, localToday, clientId, timeZone } = store;

const DEFAULT_API = new URL("/api/v1", import.meta.url).href;

// the stylesheet, adopted by every element's shadow root; it comes while the deal does, and
// until it is in the element shows nothing and says so (data-styling: the host page sizes it)
const SHEET = new CSSStyleSheet();
let styled = false;
const STYLED = fetch(new URL("daily-deal.css", import.meta.url))
  .then((resp) => (resp.ok ? resp.text() : ""))
  .then((css) => SHEET.replaceSync(css), () => {})
  .finally(() => (styled = true));

/** What the last ``move`` (or null) left to mark on the board: the card it moved (landed);
 *  after a stock move (drew), the renderer knows which card came. */
function landing(st, move) {
  const last = move ? rules.placesOf(st, move) : null;
  return { landed: last && last.from, drew: Boolean(last && last.from === null) };
}

// --- the element -------------------------------------------------------------------------
export class DailyDeal extends Hinting(Speaking(HTMLElement)) {
  static observedAttributes = ["deal", "game", "seed", "variant", "date", "tier", "api", "lang", "strings"];
  static results = store.results;
  static streak = store.streak;
  static progress = store.progress;
  static cardName = cardName;

  constructor() {
    super();
    this.moves = [];
    this.st = null; // the position's state JSON
    this.meta = null; // what the deal is: {id, game, variant, seed, date, tier, par}
    this.picked = null; // a place picked up: a card, or a gap waiting for its card
    this.queue = Promise.resolve();
    this.loadToken = 0;
    this.drag = null; // a card being dragged
    this.pressed = null; // the card a press began on (its click acts on it: onBoardClick)
  }

  attributeChangedCallback(name, old, value) {
    if (old === value || !this.shadowRoot || !this.isConnected) return;
    if (name === "lang" || name === "strings") this.relabel();
    else this.reload();
  }

  setSpecWords() {
    const game = this.meta.game;
    this.el.input.placeholder = this.t("el.notation_example", { example: this.spec.example });
    this.el.scoreName.textContent = this.t(`rules.${game}.score_name`);
    this.el.scoreStat.title = this.t(`rules.${game}.score_title`);
  }

  get api() {
    const url = new URL(this.getAttribute("api") || DEFAULT_API, document.baseURI);
    return url.href.replace(/\/+$/, "");
  }

  attr(name) { return (this.getAttribute(name) || "").trim(); }

  build() {
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [SHEET];
    root.innerHTML = SHELL;
    this.el = parts(root);
    foldMenu(root);
    this.hideUntilWords(STYLED); // no English flash, no shift
    this.board = new Board(this.el.board);
    this.speaker = new Speaker(this.el.speech, this); // every move said (a live region)
    this.clock = new Clock(this.el.timer, this.el.timerText);
    this.el.board.addEventListener("click", (e) => this.onBoardClick(e));
    this.el.board.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.el.board.addEventListener("keydown", (e) => this.onBoardKey(e));
    this.addEventListener("keydown", (e) => this.onKey(e));
    this.el.undo.addEventListener("click", () => this.enqueue(() => this.undo()));
    this.el.restart.addEventListener("click", () => this.enqueue(() => this.restart()));
    this.el.copy.addEventListener("click", () => this.copyShare());
    this.card = new ResultCard(this.el);
    const on = (action, fn) => root.querySelector(`[data-action="${action}"]`).addEventListener("click", fn);
    on("close-result", () => this.card.close());
    on("show-result", () => this.card.open());
    on("share", () => this.shareResult());
    on("replay", () => this.startReplay(this.moves.slice(), 0));
    on("replay-par", () => this.client.solution(this.meta).then((line) => this.startReplay(line, 0, 0), (e) => this.say(e instanceof ApiError ? errorText(e, this.words) : this.t("el.went_wrong", { why: e.message }), "error")));
    on("review", () => showReview(this.el.review, this.client, this.meta, this.moves.slice(), (line, at) => this.startReplay(line, at, at), this.words));
    this.replayBar = new ReplayBar(this.el, (r, animated) => this.drawReplay(r, animated), () => this.show(this.st), () => this.words);
    this.el.hint.addEventListener("click", () => this.askHint());
    this.el.lightToggle.addEventListener("click", () => this.toggleLight());
    this.el.giveUp.addEventListener("click", () => this.confirmGiveUp());
    this.el.rest.addEventListener("click", () => this.enqueue(() => this.playRest()));
    for (const b of root.querySelectorAll("[data-option]")) {
      b.addEventListener("click", () => this.toggleOption(b.dataset.option));
    }
    this.el.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.enqueue(() => this.typed(this.el.input.value));
    });
    options.apply(this, root, this.el.timer);
  }

  connectedCallback() {
    if (!this.shadowRoot) this.build();
    this.onVisible = () => this.runClock();
    this.onOnline = () => this.flush();
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    // the system turning dark (or light) while the page is open: the Dark option says so
    this.onScheme = () => options.apply(this, this.shadowRoot, this.el.timer);
    this.scheme = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
    if (this.scheme) this.scheme.addEventListener("change", this.onScheme);
    this.reload();
  }

  disconnectedCallback() {
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    if (this.scheme) this.scheme.removeEventListener("change", this.onScheme);
    this.stopClock();
  }

  // --- options (options.js) ------------------------------------------------------------------
  toggleOption(name) {
    const o = options.toggle(name);
    options.apply(this, this.shadowRoot, this.el.timer);
    if (name === "sound" && o.sound) play("move");
    if (name === "plain") this.showShare();
  }

  sound(name) { if (store.options().sound) play(name); }

  // --- the timer (clock.js): from the first move, paused while the page is hidden ----------
  runClock() {
    if (this.meta) this.clock.run(Boolean(this.st && this.st.state === "in progress" && this.moves.length && document.visibilityState === "visible"));
  }

  stopClock() { this.clock.stop(); }

  // --- the deal: what it is (the API; the last answer kept for offline) and its positions ---
  async describe() {
    const names = ["deal", "date", "game", "tier", "seed", "variant", "api"];
    const cacheKey = `meta.${names.map((n) => this.attr(n)).join("|")}`;
    try {
      const attrs = Object.fromEntries(names.map((n) => [n, this.attr(n)]));
      const meta = await this.client.describe({ ...attrs, tz: store.timeZone() });
      if (attrs.date !== "today") store.writeJSON(cacheKey, meta);
      return meta;
    } catch (err) {
      const kept = store.readJSON(cacheKey, null);
      if (err instanceof ApiError && err.status === 0 && kept && kept.game) return kept;
      throw err;
    }
  }

  /** The state JSON after ``moves``, played here by rules.js (play.js). */
  stateOf(moves) { return this.play.stateOf(moves); }

  // --- results and statistics of everybody's plays -----------------------------------------
  /** Count this play of a daily deal, once per deal from this browser, then show the stats.
   *  The server takes it at once and counts it when its time comes (``counts_at``): the
   *  page posts nothing again, except a result that never reached the server (offline, or
   *  a server that could not store it: the queue, flushed when the network is back). */
  async sendResult() {
    const m = this.meta;
    if (!m.id || solverLineOpen(m)) return; // numbered deals have no shared statistics; a date over, closed ones
    let mine = store.posted(m.id);
    let failed = null; // the post's error, said in the note
    if (!mine) {
      const body = { client: store.clientId(), moves: this.moves, hints: this.hintsUsed, seconds: this.clock.seconds() };
      const token = await this.token;
      if (token) body.play = token;
      try {
        mine = await sendResult(this.client, m.id, body);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status === 0 || retryLater(err)) {
          queueResult(this.client, m.id, body);
          this.el.giveUp.hidden = true;
          if (retryLater(err)) {
            clearTimeout(this.resendTimer);
            this.resendTimer = setTimeout(() => this.flush(), retryLater(err) * 1000 + 250);
          }
          return this.showStats(null, null, (w) => w.t(err.status === 0 ? "el.result_offline" : "el.result_later"));
        }
        if (err.status !== 403) failed = err;
      }
    }
    const [won, moves] = [Boolean(this.st && this.st.state === "won"), this.verdictMoves]; // the note in any words (relabel)
    const note = (w) => firstResultNote(mine, won, moves, w) ?? (failed ? w.t("el.result_not_counted", { why: errorText(failed, w) }) : countsNote(mine, w));
    this.el.giveUp.hidden = true;
    let stats = mine && mine.stats;
    if (!stats) {
      try {
        stats = withMine(await this.client.stats(m.id), mine);
      } catch (err) {
        return this.showStats(null, mine, (w) => w.t("el.stats_unavailable", { why: err instanceof ApiError ? errorText(err, w) : err.message }));
      }
    }
    this.showStats(stats, mine, note);
    if (mine && !this.resulted) {
      this.resulted = true;
      const { stats: _, ...result } = mine;
      this.emit("dailydeal-result", { deal: m.id, result, stats });
    }
  }

  /** Send what waited for the network; this element's own offline win is verified by it
   *  (its verdict shown), and its deal's statistics shown again once its result is in. */
  async flush() {
    const own = async (item) => {
      if (!(this.meta && item.key === this.key && this.st && this.st.state === "won")) return false;
      await this.enqueue(() => this.won(true));
      // still offline: the win stays queued (taken as sent, an offline load lost it)
      if (this.el.verdict.dataset.pending) throw new ApiError("offline", 0);
      return true;
    };
    const sent = await flushQueue(own);
    const id = this.meta && this.meta.id;
    if (id && !this.el.stats.hidden && sent.some((item) => item.kind === "result" && item.id === id)) await this.sendResult();
  }

  showStats(stats, mine, note = "") {
    this.card.showStats(stats, mine, note, this.words);
  }

  /** Give up asks twice: the first tap says what it does, the second (within 5 s) does it. */
  confirmGiveUp() {
    const b = this.el.giveUp;
    if (b.dataset.confirm) {
      clearTimeout(this.confirmTimer);
      delete b.dataset.confirm;
      b.textContent = this.t("el.give_up");
      this.enqueue(() => this.giveUp());
      return;
    }
    b.dataset.confirm = "1";
    b.textContent = this.t("el.give_up_sure");
    this.say(this.t("el.give_up_asks"));
    this.confirmTimer = setTimeout(() => {
      delete b.dataset.confirm;
      b.textContent = this.t("el.give_up");
    }, 5000);
  }

  /** Stop here and count this daily deal as not won (at most once; later wins do not count). */
  async giveUp() {
    if (!this.meta || !this.meta.id || !this.st || this.st.state === "won") return;
    this.stopClock();
    const n = this.moves.length;
    this.endCard("given-up", (w) => w.t("el.given_up_title"), (w) => w.t("el.given_up", { n }));
    this.say("");
    await this.sendResult();
  }

  // --- flow ----------------------------------------------------------------------------------
  enqueue(task) {
    // one action at a time, in click order: each reads the state the previous one left
    this.queue = this.queue.then(task).catch((err) => this.fail(err));
    return this.queue;
  }

  reload() {
    const token = ++this.loadToken;
    this.enqueue(async () => {
      await this.wordsReady; // every text below in the player's language
      this.stopClock();
      this.meta = null;
      this.st = null;
      this.picked = null;
      this.card.reset();
      this.replayBar.stop();
      this.resulted = false; // dailydeal-result: once a play
      this.client = new Client(this.api);
      this.skeleton();
      const meta = await this.describe();
      if (token !== this.loadToken) return;
      this.meta = meta;
      this.spec = { ...specOf(meta.game), game: meta.game };
      this.play = new LocalPlay(rules, meta);
      this.hint = null;
      this.trail = new HintTrail(); // the hints followed are this deal's
      this.hintsUsed = Number(store.readJSON(`hints.${this.key}`, 0)) || 0;
      this.clock.load(this.key);
      this.lightOn = store.readJSON("light", false) === true;
      this.el.stats.hidden = true;
      this.setSpecWords();
      this.token = meta.id && !solverLineOpen(meta) ? this.client.playToken(meta.id) : Promise.resolve(null);
      let st = this.stateOf(store.progress(this.key));
      if (!st.valid) st = this.stateOf([]);
      this.moves = st.moves.slice();
      this.show(st);
      this.say(this.moves.length ? this.t("el.welcome_back") : "");
      showFair(this.el.fair, meta, this.client, () => this.meta === meta, this.words);
      if (st.state === "won") await this.won(false);
      else if (st.state === "lost") this.lost();
      else this.offerRest();
      this.flush();
    });
  }

  /** Before the deal is known: the game's board with empty places (its layout's size). */
  skeleton() {
    const game = gameOfDeal(this.attr("deal")) || this.attr("game");
    this.board.skeleton(game, SPECS[game] ? SPECS[game].layout : "", this.words);
    this.el.giveUp.hidden = !(this.attr("deal") || this.attr("date")); // daily deals: its place kept
    this.el.giveUp.disabled = true;
  }

  get key() {
    const m = this.meta;
    return m.id || `${m.game}/${m.seed}/${m.variant}`;
  }

  fail(err) {
    const text = err instanceof ApiError ? errorText(err, this.words) : this.t("el.went_wrong", { why: err && err.message });
    if (!this.st) this.board.say(text);
    this.say(text, "error");
    this.emit("dailydeal-error", { message: text, status: err && err.status });
  }

  /** Try moves after the current ones: rules.js plays them or says why not, in the
   *  server's words. ``origin``: the place the move came from (it shakes when refused). */
  async attempt(more, origin) {
    if (!this.meta || !this.st) return false;
    const st = this.stateOf(this.moves.concat(more));
    if (!st.valid) {
      const e = st.error;
      // the rules' reason (English, the server's words) in the player's language, by its code
      const reason = e.code ? this.t(`reason.${e.code}`, e.params) : e.reason;
      const said = more.length > 1 ? this.t("el.move_refused", { i: e.index - this.moves.length + 1, move: e.move, reason })
        : this.t("el.move_refused_one", { move: e.move, reason });
      this.picked = null;
      this.paint();
      this.say(said, "error");
      shake(typeof origin === "string" ? this.board.find(origin) : origin);
      this.sound("bad");
      return false;
    }
    const before = snapshot(this.el.board, this.dragFrom);
    const was = this.st;
    this.moves = st.moves.slice();
    this.picked = null;
    const last = more[more.length - 1];
    this.show(st, last);
    this.speaker.say(moveSaid(rules, this.words, was, st, last, more.length));
    animate(this.el.board, this.el.fx, before);
    this.sound(rules.placesOf(st, last).from === null ? "deal" : "move");
    this.say(st.state === "lost" ? this.t("el.no_moves_left") : "");
    if (st.state === "lost") this.lost();
    for (const move of more) {
      this.emit("dailydeal-move", { move, moves: this.moves.length, state: st.state, score: st.score });
    }
    if (st.state === "won") await this.won(true);
    else if (!this.finishing) this.offerRest();
    return true;
  }

  async undo() {
    if (!this.moves.length || (this.st && this.st.state === "won")) return;
    const st = this.stateOf(this.moves.slice(0, -1));
    const [before, had, move] = [snapshot(this.el.board), this.shadowRoot.activeElement, this.moves[this.moves.length - 1]];
    this.moves = st.moves.slice();
    this.picked = null;
    this.card.reset();
    this.show(st);
    animate(this.el.board, this.el.fx, before);
    this.say(this.t("el.undone"));
    this.speaker.say(undoneSaid(rules, this.words, st, move));
    keepFocus(this.shadowRoot, this.el.board, had); // Undo itself is off once nothing is left
    this.offerRest();
  }

  async restart() {
    if (!this.st) return;
    const [st, had] = [this.stateOf([]), this.shadowRoot.activeElement];
    this.moves = [];
    this.picked = null;
    this.card.reset();
    this.show(st);
    this.say(this.t("el.dealt_again"));
    this.speaker.say(restartSaid(this.words, st));
    keepFocus(this.shadowRoot, this.el.board, had);
    this.offerRest();
  }

  async typed(text) {
    const more = text.split(/[\s,]+/).filter(Boolean);
    if (!more.length) return;
    if (await this.attempt(more, this.el.input)) this.el.input.value = "";
  }

  // --- auto-finish: the rest of a game that needs no choice --------------------------------
  forcedRest() { return this.play.forcedRest(this.st, this.moves); }

  /** A forced win plays itself out; a forced rest of stock moves gets a one-tap button. */
  offerRest() {
    const rest = this.forcedRest();
    const stockOnly = rest && rest.stockOnly;
    this.el.rest.hidden = !(rest && (stockOnly || rest.state !== "won"));
    if (rest) {
      const n = rest.moves.length;
      this.el.rest.textContent = this.t(stockOnly ? "el.deal_rest_n" : "el.play_rest_n", { n });
    }
    if (rest && rest.state === "won" && !stockOnly) {
      this.dataset.finishing = ""; // the element plays a forced ending by itself (a hook)
      this.enqueue(() => this.playRest());
    }
  }

  async playRest() {
    const rest = this.forcedRest();
    if (!rest) {
      delete this.dataset.finishing;
      return;
    }
    this.el.rest.hidden = true;
    this.finishing = true;
    try {
      for (const move of rest.moves) {
        if (!reduced()) await new Promise((r) => setTimeout(r, 110));
        if (!(await this.attempt([move], null))) break;
      }
    } finally {
      this.finishing = false;
      delete this.dataset.finishing;
    }
  }

  // --- a win: the server's verdict ---------------------------------------------------------
  async won(fresh) {
    const m = this.meta;
    this.stopClock();
    this.endCard("won", (w) => w.t("el.solved"), (w) => w.t("el.checking"));
    if (fresh && !this.el.verdict.dataset.pending) {
      this.sound("win");
      celebrate(this.el.board, this.el.fx);
    }
    let verdict;
    try {
      verdict = await this.client.verify(m, this.moves);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 0) throw err;
      // offline: kept, verified and posted when the network is back (or on the next load)
      store.enqueueOffline({
        kind: "won", key: this.key, meta: m, api: this.api, moves: this.moves.slice(),
        hints: this.hintsUsed, seconds: this.clock.seconds(), par: meaningfulPar(m),
      });
      this.el.verdict.dataset.pending = "true";
      this.card.setVerdict((w) => w.t("el.won_offline"), this.words);
      return;
    }
    delete this.el.verdict.dataset.pending;
    const queue = store.queued();
    if (queue.some((q) => q.key === this.key)) store.writeQueue(queue.filter((q) => q.key !== this.key));
    const n = verdict.moves;
    this.verdictMoves = n;
    const par = meaningfulPar(m);
    const hints = this.hintsUsed;
    if (verdict.won) store.recordWin(m, n, hints, par);
    this.endCard("won", (w) => verdictTexts(verdict, par, hints, w).title, (w) => verdictTexts(verdict, par, hints, w).verdict, n);
    const seconds = store.options().timer === false ? null : this.clock.seconds();
    const origin = new URL(this.api).origin;
    // the win kept and signed by the server: its page is the link shared (docs/api.md, Solves)
    const solve = verdict.won && verdict.solve ? verdict.solve : null;
    const link = solve ? new URL(solve.url, this.api).href : null;
    this.card.setSolve(link);
    this.shareArgs = { meta: m, origin, n, par, hints, seconds, link };
    this.showShare();
    if (fresh) {
      this.say("");
      this.emit("dailydeal-won", { deal: m.id, game: m.game, variant: m.variant, seed: m.seed, moves: this.moves.slice(), verdict, solve });
    }
    if (verdict.won && m.id) await this.sendResult(); // then everybody's statistics
  }

  /** The share text of the win, in the player's words and with their options (again when
   *  either changes). */
  showShare() {
    if (this.shareArgs) this.card.setShare(shareText({ ...this.shareArgs, title: this.t(`game.${this.meta.game}`), plain: Boolean(store.options().plain) }, this.words));
  }

  /** What was said once and stays, again in the player's words (relabel: the language
   *  changed): the fairness note, the result card, the share text. */
  relabelShown() {
    const meta = this.meta;
    showFair(this.el.fair, meta, this.client, () => this.meta === meta, this.words);
    this.card.relabel(this.words);
    this.showShare();
  }

  /** The result card at the end of a game ("won", "lost", "given-up"), in view: ``moves``
   *  the verified count where the server gave one. */
  endCard(end, title, verdict, moves = this.moves.length) {
    const m = this.meta;
    const seconds = store.options().timer === false ? null : this.clock.seconds();
    const streak = m.id ? store.streak(store.localToday()) : null;
    this.card.fill({ end, title, verdict, moves, par: meaningfulPar(m), seconds, hints: this.hintsUsed, streak, solverLine: solverLineOpen(m) }, this.words);
    this.shareArgs = null;
    this.card.setShare("");
    this.card.setSolve(null);
    this.card.open();
  }

  /** No move is left: the card says so, and offers the review (nothing is counted until the
   *  player gives up: undo plays on). */
  lost() {
    this.stopClock();
    const n = this.moves.length;
    this.endCard("lost", (w) => w.t("el.lost_title"), (w) => w.t("el.lost", { n }));
  }

  /** The system's share sheet, else the clipboard (else the text selected to copy). */
  async shareResult() {
    if (await share(this.el.share.value)) return;
    if (await this.copyShare()) this.say(this.t("el.copied_note"), "good");
  }

  // --- replay (replay.js): a line on the board again, the game's own state untouched ------
  /** Replay ``moves`` on this deal's board once it is loaded (the solve page, solve.js). */
  replayLine(moves) { return this.enqueue(async () => this.startReplay(moves.slice(), 0)); }

  startReplay(line, at, from = null) { this.card.close(); this.replayBar.start(new Replay(rules, this.meta, line, at, from)); }

  drawReplay(r, animated) {
    const st = r.state();
    const before = animated ? snapshot(this.el.board) : null;
    const view = { picked: null, targets: new Set(), words: this.words, ...landing(st, r.at ? r.line[r.at - 1] : null) };
    this.board.draw(sections(this.spec.layout, st, view));
    animate(this.el.board, this.el.fx, before);
    const next = r.at < r.line.length ? rules.placesOf(st, r.line[r.at]) : null;
    this.board.light("hint", next ? [next.from, next.to] : []);
    for (const el of [this.el.board, this]) el.dataset.moves = String(r.at);
  }

  copyShare() { return copyText(this.el.share, this.el.copy, this.words); }

  emit(name, detail) { this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true })); }

  /** The message line (a live region): ``kind`` "error", "good" or "". */
  say(text, kind = "") { [this.el.msg.textContent, this.el.msg.dataset.kind] = [text, kind]; }

  // --- input: the decisions are input.js's, the moves rules.js's ---------------------------
  /** The [kind, place] of a board element under ``target``, or null. */
  refOf(target) {
    const el = target && target.closest("[data-card],[data-gap],[data-action]");
    if (!el || !this.el.board.contains(el)) return null;
    return [el.dataset.card ? "card" : el.dataset.gap ? "gap" : "action", placeOf(el)];
  }

  onBoardClick(e) {
    const pressed = this.pressed;
    this.pressed = null;
    if (this.dropped || this.replayBar.replay) return; // the click that ends a drag; a replay
    // A press on a card still sliding puts it in its place (settle), away from the pointer:
    // the release falls beside it and the click on what holds both. The tap is the card's.
    const ref = this.refOf(e.target) || this.refOf(pressed);
    if (ref) this.enqueue(() => this.activate(ref[0], ref[1]));
  }

  async activate(kind, place) {
    const what = decide(rules, this.st, this.spec, this.picked, kind, place, this.words);
    if (!what) return;
    if (what.play) {
      await this.attempt([what.play], place);
      return;
    }
    if (what.shake) shake(this.board.find(what.shake));
    if ("pick" in what) {
      this.picked = what.pick;
      this.paint();
    }
    this.say(what.say, what.shake ? "error" : "");
  }

  /** A press on a card may start a drag (pointer events: mouse, pen and touch). */
  onPointerDown(e) {
    this.pressed = null;
    if (!this.st || this.st.state === "won" || e.button > 0 || this.replayBar.replay) return;
    settle(this.shadowRoot);
    const el = e.target.closest("[data-card]");
    if (!el || el.disabled || el.classList.contains("blocked") || !this.el.board.contains(el)) return;
    if (this.drag) this.drag.stop();
    this.pressed = el;
    this.drag = new Drag(el, el.dataset.card, e, {
      // light the places it may go (classes only: a redraw would replace the dragged card)
      start: (card) => this.board.light("target", rules.targets(this.st, card).keys()),
      drop: (card, under, from, cardEl) => this.onDrop(card, under, from, cardEl),
    });
  }

  onDrop(card, under, from, cardEl) {
    this.drag = null;
    this.dropped = true;
    setTimeout(() => (this.dropped = false), 0);
    this.board.light("target", []);
    const ref = under && this.el.board.contains(under) ? this.refOf(under) : null;
    const move = ref && dropMove(rules, this.st, card, ref[1]);
    if (move) {
      this.dragFrom = { card, rect: from };
      this.enqueue(() => this.attempt([move], card).finally(() => (this.dragFrom = null)));
      return;
    }
    slideBack(cardEl, from);
    if (ref && ref[1] !== card) {
      this.say(this.t("el.cannot_go", { card: cap(cardName(card, this.words)) }), "error");
      this.sound("bad");
    }
  }

  /** Arrow keys move focus to the nearest playable place that way (covered cards skipped). */
  onBoardKey(e) {
    if (!isArrow(e.key) || this.replayBar.replay) return;
    e.preventDefault();
    settle(this.shadowRoot);
    const items = [...this.el.board.querySelectorAll("button:not(:disabled)")].filter((b) => !b.classList.contains("empty") && !b.classList.contains("blocked"));
    const i = nextFocus(items.map((b) => b.getBoundingClientRect()), items.indexOf(this.shadowRoot.activeElement), e.key);
    if (i !== null) items[i].focus();
  }

  onKey(e) {
    if (this.replayBar.replay && !e.ctrlKey && !e.metaKey && this.replayBar.act(e.key)) {
      e.preventDefault(); // the arrows, Home and End step through the replay
      return;
    }
    const target = e.composedPath()[0];
    const inText = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    const command = keyCommand(e, inText);
    if (command === "undo") {
      e.preventDefault();
      this.enqueue(() => this.undo());
    } else if (command === "drop") {
      this.picked = null;
      this.paint();
      this.say("");
    } else if (command === "hint") {
      e.preventDefault();
      this.askHint();
    } else if (command === "moves" && this.st) {
      e.preventDefault(); // what can be done now, in words (the message line is a live region)
      this.say(nowSaid(rules, this.words, this.st));
    }
  }

  // --- drawing: the board module draws, this says what --------------------------------------
  show(st, lastMove) {
    this.replayBar.stop(); // the game's own position again
    this.st = st;
    this.last = lastMove || null;
    const m = this.meta;
    store.writeJSON(`progress.${this.key}`, st.moves.length ? st.moves : null);
    const n = st.moves.length;
    this.el.moves.textContent = this.words.num(n);
    this.el.score.textContent = this.words.num(st.score);
    this.el.par.hidden = !meaningfulPar(m);
    this.el.par.querySelector("b").textContent = meaningfulPar(m) ? this.words.num(meaningfulPar(m)) : "";
    const p = st.position;
    // what the position has to show (its JSON shape: docs/rules.md), not the game's name
    const w = this.words;
    const stat = (key, n) => `${esc(w.t(key))} <b>${typeof n === "number" ? w.num(n) : n}</b>`;
    let extra = stat("el.stock", p.stock_count);
    if ("redeals_left" in p) extra = stat("el.redeals_left", p.redeals_left);
    else if ("passes_left" in p) extra = `${stat("el.stock", p.stock_count)} · ${stat("el.passes", p.passes_left === null ? "∞" : p.passes_left)}`;
    this.el.extra.innerHTML = extra;
    this.el.pill.textContent = this.t(`el.state.${st.state}`);
    this.el.pill.dataset.s = st.state;
    this.el.undo.disabled = n === 0 || st.state === "won";
    this.el.restart.disabled = n === 0;
    this.el.hint.disabled = st.state === "won";
    this.el.giveUp.hidden = !m.id || solverLineOpen(m) || Boolean(store.posted(m.id)) || st.state === "won";
    this.el.giveUp.disabled = n === 0;
    if (!this.hint || this.hint.at !== st.moves.join(" ")) delete this.dataset.hint;
    this.checkLight();
    this.el.log.textContent = st.moves.join(" ") || this.t("el.none_yet");
    for (const el of [this.el.board, this]) {
      el.dataset.state = st.state;
      el.dataset.moves = String(n);
    }
    this.paint();
    this.runClock();
  }

  /** Redraw the board from the state: the renderer of the game's layout, what is picked up
   *  and where it may go, the card that landed, the hinted move's places. */
  paint() {
    const st = this.st;
    if (!st) return;
    const view = {
      picked: this.picked,
      targets: new Set(this.picked ? rules.targets(st, this.picked).keys() : []),
      words: this.words,
      ...landing(st, this.last),
    };
    this.board.draw(sections(this.spec.layout, st, view));
    const hinted = this.hint && this.hint.at === this.moves.join(" ") ? rules.placesOf(st, this.hint.move) : null;
    this.board.light("hint", hinted ? [hinted.from, hinted.to] : []);
    this.el.board.setAttribute("aria-label", this.t("el.board_label", { game: this.t(`game.${this.meta.game}`), state: this.t(`el.state.${st.state}`), n: st.moves.length }));
  }
}

if (!customElements.get("daily-deal")) customElements.define("daily-deal", DailyDeal);
