// Type declarations of the <daily-deal> element (static/daily-deal.js) and of the
// embed page's iframe messages (static/embed-frame.js), for app developers.
// The contract is docs/embedding.md; this file follows it.

export type Game = "accordion" | "pyramid" | "gaps";
export type Tier = "easy" | "medium" | "hard" | "expert";
export type PlayState = "in progress" | "won" | "lost";

/** POST /deals/{id}/verify (or /games/{game}/verify) as the server answered it. */
export interface Verdict {
  valid: boolean;
  won: boolean;
  state: PlayState;
  score: number;
  moves: number;
  error: MoveError | null;
  /** A win kept and signed by the server (docs/api.md, Solves); absent otherwise. */
  solve?: Solve;
}

/** The first move a verdict refused (docs/api.md, "Why a move was refused"). */
export interface MoveError {
  /** 0-based, in the list as sent. */
  index: number;
  move: string;
  /** English, for machines and logs. */
  reason: string;
  /** The reason's stable code (rules.js's REASONS; the catalogs' `reason.<code>`), null for one without. */
  code: string | null;
  /** The reason's values by placeholder name, as text. */
  params: Record<string, string>;
}

/** A verified win, signed by the service: check ``signature`` (base64 Ed25519) over
 *  ``signed`` (UTF-8) with the key ``key`` of GET /api/v1/keys (docs/api.md, Solves). */
export interface Solve {
  /** 16 characters of A-Z a-z 0-9 _ -. */
  id: string;
  /** The win's page, "/s/{id}", relative to the API's origin. */
  url: string;
  /** The exact text signed: it names the deal and the SHA-256 of the moves, never the moves. */
  signed: string;
  signature: string;
  key: string;
}

export interface MoveDetail {
  /** The move in the notation, e.g. "7H>9S". */
  move: string;
  /** Moves played so far. */
  moves: number;
  state: PlayState;
  score: number;
}

export interface WonDetail {
  /** The daily deal's id, or null for a numbered deal. */
  deal: string | null;
  game: Game;
  variant: string;
  /** The deal's seed as decimal text (64 bits do not fit a JavaScript number). */
  seed: string;
  moves: string[];
  verdict: Verdict;
  /** The signed win (the verdict's ``solve``), or null where the server kept none. */
  solve: Solve | null;
}

/** The answer of the hint endpoint (docs/api.md, Hints). */
export interface HintDetail {
  verdict: "winnable" | "lost" | "unknown";
  move: string | null;
  moves_left: number | null;
  shortest: boolean;
  moves_played: number;
  state: PlayState;
  deal?: string;
  nodes?: number;
  max_nodes?: number;
}

export interface PlayResult {
  won: boolean;
  state: PlayState;
  moves: number;
  score: number;
  hints: number;
  seconds: number | null;
}

/** GET /deals/{id}/stats. */
export interface Stats {
  deal: string;
  plays: number;
  wins: number;
  win_rate: number | null;
  wins_without_hints: number;
  best: number | null;
  winning_moves: { moves: number; count: number }[];
  solution_length: number;
  final: boolean;
}

export interface ResultDetail {
  deal: string;
  result: PlayResult | null;
  stats: Stats;
}

export interface ErrorDetail {
  message: string;
  /** The HTTP status, when the server answered. */
  status?: number;
}

/** What a daily deal solved in this browser looks like in DailyDeal.results(). */
export interface StoredResult {
  date: string;
  game: Game;
  tier: Tier;
  moves: number;
  par: number;
  hints?: number;
  at: string;
}

export interface DailyDealEventMap {
  "dailydeal-move": CustomEvent<MoveDetail>;
  "dailydeal-won": CustomEvent<WonDetail>;
  "dailydeal-hint": CustomEvent<HintDetail>;
  "dailydeal-result": CustomEvent<ResultDetail>;
  "dailydeal-error": CustomEvent<ErrorDetail>;
}

/**
 * A message of the catalogs (static/locales/{locale}.json, docs/embedding.md "Languages"):
 * a text with {placeholders}, or its forms by CLDR plural category, chosen by {n}.
 */
export type DailyDealMessage = string | Partial<Record<"zero" | "one" | "two" | "few" | "many" | "other", string>>;

/**
 * An embedder's words, by catalog key (every key of static/locales/en.json, and the rules'
 * own words kept in static/rules.js: `reason.<code>` of REASONS), e.g.
 * `{"el.hint": "💡 Clue", "el.moves": "Turns", "share.moves": {"one": "Won in {n} turn", "other": "Won in {n} turns"}}`.
 * The keys are grouped: `el.*` the element's controls, messages and labels; `board.*` and
 * `card.*` the board and the cards' accessible names; `finish.*` the result card; `share.*`
 * the share text (no emoji in its words: the marks are the element's, left out when plain);
 * `say.*` what is said to a screen reader (`say.do.<kind>`: a move to make, a hint's too);
 * `review.*`, `fair.*`, `rules.<game>.*`,
 * `game.*`, `tier.*`, `problem.<code>` (the API's problem codes, docs/api.md) and
 * `reason.<code>` (why a move is illegal or cannot be read).
 */
export type DailyDealStrings = Record<string, DailyDealMessage>;

/**
 * <daily-deal deal="2026-12-01-pyramid-hard">, or date+game+tier, or game+seed(+variant);
 * api= the API base URL; lang= the language (default: the host page's lang); strings= an
 * embedder's words as JSON (DailyDealStrings). Changing an attribute loads the new deal
 * (lang and strings only change the words).
 */
export declare class DailyDeal extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The daily deals solved in this browser, by id. */
  static results(): Record<string, StoredResult>;
  /** Days in a row with a daily deal solved, ending on `today` (YYYY-MM-DD) or the day before. */
  static streak(today: string): number;
  /** The moves of a game in progress (by deal id). */
  static progress(key: string): string[];
  /** "seven of hearts" for "7H". */
  static cardName(card: string): string;

  /** The API base URL in use (the api attribute, or /api/v1 of the script's origin). */
  readonly api: string;
  /** The locale asked for: the lang attribute (or an ancestor's), else the page's. */
  readonly locale: string;
  /** An embedder's words, by catalog key; they win over the catalog's (null: the strings
   *  attribute's, else none). Setting it shows every word again. */
  strings: DailyDealStrings | null;
  /** The moves played. */
  moves: string[];

  addEventListener<K extends keyof DailyDealEventMap>(
    type: K,
    listener: (this: DailyDeal, ev: DailyDealEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof DailyDealEventMap>(
    type: K,
    listener: (this: DailyDeal, ev: DailyDealEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

// --- the iframe of /embed/{id} (docs/embedding.md, "The iframe: size and events") -------
interface FrameMessageBase {
  source: "dailydeal";
  version: 1;
  /** The embedded deal's id. */
  deal: string | null;
}

export type DailyDealFrameMessage =
  | (FrameMessageBase & { type: "resize"; height: number })
  | (FrameMessageBase & { type: "dailydeal-move"; detail: MoveDetail })
  | (FrameMessageBase & { type: "dailydeal-won"; detail: WonDetail })
  | (FrameMessageBase & { type: "dailydeal-hint"; detail: HintDetail })
  | (FrameMessageBase & { type: "dailydeal-result"; detail: ResultDetail })
  | (FrameMessageBase & { type: "dailydeal-error"; detail: ErrorDetail });

/** What a host page sends to the frame so that it may send the player's events. */
export interface DailyDealHostHello {
  source: "dailydeal-host";
  type: "hello";
}

declare global {
  interface HTMLElementTagNameMap {
    "daily-deal": DailyDeal;
  }
  // the events bubble out of the shadow root (composed): listen on document too
  interface DocumentEventMap extends DailyDealEventMap {}
  interface HTMLElementEventMap extends DailyDealEventMap {}
}
