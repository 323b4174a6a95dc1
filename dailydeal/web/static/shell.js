// The element's shadow DOM before any deal: the bar, the board, the controls, the result.
// Its data-* hooks and ::part names are the element's contract (docs/embedding.md).

export const SHELL = `
<div class="dd" part="root">
  <div class="bar" part="bar">
    <span class="stat"><span data-t="el.moves"></span> <b data-moves-count>0</b></span>
    <span class="stat" data-par hidden><span data-t="el.par"></span> <b></b></span>
    <span class="stat" data-score-stat><span data-score-name data-t="el.score"></span> <b data-score>–</b></span>
    <span class="stat" data-extra></span>
    <span class="stat timer" data-timer data-t-title="el.timer_title">⏱ <b data-timer-text>0:00</b></span>
    <span class="state-pill" data-s="in progress" data-state-pill data-t="el.loading"></span>
  </div>
  <div class="table" dir="ltr">
    <div class="board" part="board" data-board data-state="in progress" data-moves="0" role="group" data-t-label="el.board" tabindex="-1">
      <p class="loading" data-t="el.dealing"></p>
    </div>
    <div class="fx" data-fx aria-hidden="true"></div>
  </div>
  <p class="msg" role="status" aria-live="polite" data-msg></p>
  <p class="sr" role="status" aria-live="polite" aria-atomic="true" data-t-label="el.speech" data-speech></p>
  <div class="controls" part="controls">
    <button type="button" class="tool" data-undo disabled data-t-title="el.undo_title" data-t="el.undo"></button>
    <button type="button" class="tool" data-action="hint" data-t-title="el.hint_title" data-t="el.hint"></button>
    <button type="button" class="tool" data-restart disabled data-t="el.restart"></button>
    <button type="button" class="tool light-toggle" data-action="winnable" aria-pressed="false"
            data-t-title="el.winnable_title"><span data-t="el.winnable"></span>
      <span class="light" data-light="off" aria-hidden="true"></span><span class="light-text" data-light-text data-t="el.light.off"></span></button>
    <button type="button" class="tool primary" data-action="deal-rest" hidden data-t="el.deal_rest"></button>
    <button type="button" class="tool" data-action="give-up" hidden data-t="el.give_up"></button>
    <button type="button" class="tool" data-action="show-result" hidden data-t="el.show_result"></button>
  </div>
  <details class="menu" data-menu open>
  <summary class="tool" data-t="el.more"></summary>
  <div class="menu-body">
  <div class="more">
    <form class="notation" data-notation>
      <label class="sr" for="dd-moves" data-t="el.notation_label"></label>
      <input id="dd-moves" name="moves" autocomplete="off" autocapitalize="characters" spellcheck="false"
             data-t-placeholder="el.notation_placeholder" dir="ltr">
      <button type="submit" class="tool" data-t="el.play"></button>
    </form>
    <div class="opts" role="group" data-t-label="el.options">
      <button type="button" class="opt" data-option="dark" aria-pressed="false" data-t-title="el.dark_title" data-t="el.dark"></button>
      <button type="button" class="opt" data-option="four" aria-pressed="false" data-t-title="el.four_title" data-t="el.four"></button>
      <button type="button" class="opt" data-option="sound" aria-pressed="false" data-t-title="el.sound_title" data-t="el.sound"></button>
      <button type="button" class="opt" data-option="timer" aria-pressed="true" data-t-title="el.timer_show" data-t="el.timer"></button>
    </div>
  </div>
  <p class="fair" data-fair hidden></p>
  </div>
  </details>
  <section class="result" data-result data-result-card popover="manual" role="dialog" aria-labelledby="dd-result-title" aria-live="polite">
    <button type="button" class="close" data-action="close-result" data-t-label="el.close_result">×</button>
    <h3 id="dd-result-title" data-result-title tabindex="-1"></h3>
    <p class="verdict" data-verdict></p>
    <dl class="tiles">
      <div><dt data-t="el.tile.moves"></dt><dd data-tile="moves">–</dd></div>
      <div data-tile-box="par"><dt data-t="el.tile.par"></dt><dd data-tile="par">–</dd></div>
      <div data-tile-box="time"><dt data-t="el.tile.time"></dt><dd data-tile="time">–</dd></div>
      <div><dt data-t="el.tile.hints"></dt><dd data-tile="hints">0</dd></div>
      <div><dt data-t="el.tile.streak"></dt><dd data-tile="streak">0</dd></div>
    </dl>
    <p class="players" data-stats hidden></p>
    <p class="review" data-review hidden></p>
    <div class="actions">
      <button type="button" class="tool primary" data-action="share" data-t="el.share"></button>
      <button type="button" class="tool" data-action="replay" data-t="el.replay"></button>
      <button type="button" class="tool" data-action="replay-par" hidden data-t="el.replay_par"></button>
      <button type="button" class="tool" data-action="review" hidden data-t="el.review"></button>
      <a class="tool" data-solve-link hidden href="" target="_blank" rel="noopener" data-t="el.solve_link"></a>
    </div>
    <div class="share" data-share-box>
      <label class="sr" for="dd-share" data-t="el.share_text"></label>
      <textarea id="dd-share" readonly data-share rows="5"></textarea>
      <button type="button" class="tool" data-copy data-t="el.copy"></button>
      <button type="button" class="opt" data-option="plain" aria-pressed="false" data-t="el.share_plain"></button>
    </div>
  </section>
  <div class="replay" data-replay hidden role="group" data-t-label="el.replay_bar" dir="ltr">
    <button type="button" class="tool" data-action="replay-first" data-t-label="el.replay_first">⏮</button>
    <button type="button" class="tool" data-action="replay-back" data-t-label="el.replay_back">◀</button>
    <button type="button" class="tool" data-action="replay-play" data-t-label="el.replay_play">⏯</button>
    <button type="button" class="tool" data-action="replay-forward" data-t-label="el.replay_forward">▶</button>
    <button type="button" class="tool" data-action="replay-last" data-t-label="el.replay_last">⏭</button>
    <input type="range" min="0" max="0" value="0" data-replay-scrub data-t-label="el.replay_scrub">
    <span class="replay-at" data-replay-at></span>
    <button type="button" class="tool" data-action="replay-exit" data-t="el.replay_exit"></button>
  </div>
  <details class="log"><summary data-t="el.your_moves"></summary><code data-log></code></details>
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
