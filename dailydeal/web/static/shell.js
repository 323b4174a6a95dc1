// The element's shadow DOM before any deal: the bar, the board, the controls, the result.
// Its data-* hooks and ::part names are the element's contract (docs/embedding.md).
import { t } from "./speech.js";

export const SHELL = `
<div class="dd" part="root">
  <div class="bar" part="bar">
    <span class="stat">Moves <b data-moves-count>0</b></span>
    <span class="stat" data-par hidden>Par <b></b></span>
    <span class="stat" data-score-stat><span data-score-name>Score</span> <b data-score>–</b></span>
    <span class="stat" data-extra></span>
    <span class="stat timer" data-timer title="Your time, from the first move (paused while the page is hidden)">⏱ <b data-timer-text>0:00</b></span>
    <span class="state-pill" data-s="in progress" data-state-pill>Loading</span>
  </div>
  <div class="table">
    <div class="board" part="board" data-board data-state="in progress" data-moves="0" role="group" aria-label="Board" tabindex="-1">
      <p class="loading">Dealing…</p>
    </div>
    <div class="fx" data-fx aria-hidden="true"></div>
  </div>
  <p class="msg" role="status" aria-live="polite" data-msg></p>
  <p class="sr" role="status" aria-live="polite" aria-atomic="true" aria-label="${t("en", "speech")}" data-speech></p>
  <div class="controls" part="controls">
    <button type="button" class="tool" data-undo disabled title="Undo (U)">↶ Undo</button>
    <button type="button" class="tool" data-action="hint" title="Show a move of a winning line (H)">💡 Hint</button>
    <button type="button" class="tool" data-restart disabled>Restart</button>
    <button type="button" class="tool light-toggle" data-action="winnable" aria-pressed="false"
            title="After each move, ask the solver whether the deal can still be won">Winnable?
      <span class="light" data-light="off" aria-hidden="true"></span><span class="light-text" data-light-text>off</span></button>
    <button type="button" class="tool primary" data-action="deal-rest" hidden>⏩ Deal the rest</button>
    <button type="button" class="tool" data-action="give-up" hidden>Give up</button>
    <button type="button" class="tool" data-action="show-result" hidden>🏁 Result</button>
  </div>
  <details class="menu" data-menu open>
  <summary class="tool">⋯ More: notation, options, fairness</summary>
  <div class="menu-body">
  <div class="more">
    <form class="notation" data-notation>
      <label class="sr" for="dd-moves">Type moves in the notation</label>
      <input id="dd-moves" name="moves" autocomplete="off" autocapitalize="characters" spellcheck="false"
             placeholder="Type moves">
      <button type="submit" class="tool">Play</button>
    </form>
    <div class="opts" role="group" aria-label="Options">
      <button type="button" class="opt" data-option="dark" aria-pressed="false" title="Dark table and page">🌙 Dark</button>
      <button type="button" class="opt" data-option="four" aria-pressed="false" title="Four suit colours: ♠ black, ♥ red, ♦ blue, ♣ green">♦ 4 colours</button>
      <button type="button" class="opt" data-option="sound" aria-pressed="false" title="Sounds of the cards">🔈 Sound</button>
      <button type="button" class="opt" data-option="timer" aria-pressed="true" title="Show the timer">⏱ Timer</button>
    </div>
  </div>
  <p class="fair" data-fair hidden></p>
  </div>
  </details>
  <section class="result" data-result data-result-card popover="manual" role="dialog" aria-labelledby="dd-result-title" aria-live="polite">
    <button type="button" class="close" data-action="close-result" aria-label="Close the result">×</button>
    <h3 id="dd-result-title" data-result-title tabindex="-1"></h3>
    <p class="verdict" data-verdict></p>
    <dl class="tiles">
      <div><dt>Moves</dt><dd data-tile="moves">–</dd></div>
      <div data-tile-box="par"><dt>Par</dt><dd data-tile="par">–</dd></div>
      <div data-tile-box="time"><dt>Time</dt><dd data-tile="time">–</dd></div>
      <div><dt>Hints</dt><dd data-tile="hints">0</dd></div>
      <div><dt>Streak</dt><dd data-tile="streak">0</dd></div>
    </dl>
    <p class="players" data-stats hidden></p>
    <p class="review" data-review hidden></p>
    <div class="actions">
      <button type="button" class="tool primary" data-action="share">Share</button>
      <button type="button" class="tool" data-action="replay">▶ Replay</button>
      <button type="button" class="tool" data-action="replay-par" hidden>▶ The solver's line</button>
      <button type="button" class="tool" data-action="review" hidden>Where did it go wrong?</button>
      <a class="tool" data-solve-link hidden href="" target="_blank" rel="noopener">🔏 Proof of the win</a>
    </div>
    <div class="share" data-share-box>
      <label class="sr" for="dd-share">Share text</label>
      <textarea id="dd-share" readonly data-share rows="5"></textarea>
      <button type="button" class="tool" data-copy>Copy</button>
      <button type="button" class="opt" data-option="plain" aria-pressed="false">${t("en", "share.plain")}</button>
    </div>
  </section>
  <div class="replay" data-replay hidden role="group" aria-label="Replay">
    <button type="button" class="tool" data-action="replay-first" aria-label="First position">⏮</button>
    <button type="button" class="tool" data-action="replay-back" aria-label="One move back">◀</button>
    <button type="button" class="tool" data-action="replay-play" aria-label="Play">⏯</button>
    <button type="button" class="tool" data-action="replay-forward" aria-label="One move forward">▶</button>
    <button type="button" class="tool" data-action="replay-last" aria-label="Last position">⏭</button>
    <input type="range" min="0" max="0" value="0" data-replay-scrub aria-label="Position in the line">
    <span class="replay-at" data-replay-at></span>
    <button type="button" class="tool" data-action="replay-exit">Back to the game</button>
  </div>
  <details class="log"><summary>Your moves</summary><code data-log></code></details>
</div>`;

// On a phone (a touch screen, small or on its side), the notation box, the options and the
// fairness note fold into "More" under the board and the main actions; elsewhere they show.
const PHONE = "(pointer: coarse) and ((max-width: 600px) or (max-height: 500px))";

/** Keep the "More" menu folded on a phone and open elsewhere, as the screen changes. */
export function foldMenu(root) {
  const menu = root.querySelector("[data-menu]");
  if (typeof matchMedia !== "function") return;
  const phone = matchMedia(PHONE);
  const fit = () => (menu.open = !phone.matches);
  fit();
  phone.addEventListener("change", fit);
}

/** The elements the element talks to, by name. */
export function parts(root) {
  const $ = (sel) => root.querySelector(sel);
  return {
    board: $("[data-board]"), msg: $("[data-msg]"), moves: $("[data-moves-count]"),
    score: $("[data-score]"), scoreName: $("[data-score-name]"), scoreStat: $("[data-score-stat]"),
    extra: $("[data-extra]"), pill: $("[data-state-pill]"),
    par: $("[data-par]"), undo: $("[data-undo]"), restart: $("[data-restart]"),
    form: $("[data-notation]"), input: $("#dd-moves"), result: $("[data-result]"),
    resultTitle: $("[data-result-title]"), verdict: $("[data-verdict]"), share: $("[data-share]"),
    copy: $("[data-copy]"), log: $("[data-log]"), hint: $('[data-action="hint"]'),
    lightToggle: $('[data-action="winnable"]'), light: $("[data-light]"), giveUp: $('[data-action="give-up"]'),
    stats: $("[data-stats]"), fair: $("[data-fair]"), lightText: $("[data-light-text]"),
    fx: $("[data-fx]"), timer: $("[data-timer]"), timerText: $("[data-timer-text]"), rest: $('[data-action="deal-rest"]'),
    showResult: $('[data-action="show-result"]'), review: $("[data-review]"), reviewButton: $('[data-action="review"]'),
    speech: $("[data-speech]"), replay: $("[data-replay]"), scrub: $("[data-replay-scrub]"), replayAt: $("[data-replay-at]"),
    solveLink: $("[data-solve-link]"),
  };
}
