// A deal played in the browser by rules.js: the state JSON after a move list (the state
// endpoint's answer, computed here), and the rest of a game that needs no choice.

export class LocalPlay {
  constructor(rules, meta) {
    this.rules = rules;
    this.game = rules.newGame(meta.game, meta.variant, null, meta.seed);
    this.texts = []; // the moves played on this.game, as asked
    this.counts = []; // how many engine moves each took (Accordion may deal first)
  }

  /** The state JSON after ``moves`` (valid, error: {index, move, reason, code, params}, the
   *  game's JSON).
   *  One game follows the moves asked, undoing back to the common beginning, then playing
   *  the rest: a move costs one move, not a replay of the whole game. */
  stateOf(moves) {
    const { rules, game, texts, counts } = this;
    let k = 0;
    while (k < texts.length && k < moves.length && texts[k] === moves[k]) k += 1;
    while (texts.length > k) {
      for (let i = counts.pop(); i > 0; i -= 1) game.pop();
      texts.pop();
    }
    let error = null;
    for (let i = k; i < moves.length; i += 1) {
      try {
        counts.push(game.playMove(game.read(moves[i])).length);
        texts.push(moves[i]);
      } catch (err) {
        if (!(err instanceof rules.InvalidMoveError || err instanceof rules.IllegalMoveError)) throw err;
        // reason: the rules' English (the server's); code, params: the same by REASONS code
        error = { index: i, move: moves[i], reason: err.message, code: err.code || null, params: err.params || null };
        break;
      }
    }
    return { valid: error === null, error, ...game.toJSON(), seed: game.seed === null ? null : String(game.seed) };
  }

  /** From ``st`` after ``moves``: the moves to the end when each is the only legal one
   *  ({moves, state, stockOnly}), else null. */
  forcedRest(st, moves) {
    if (!st || st.state !== "in progress" || st.legal_moves.length !== 1) return null;
    const rest = [];
    let now = st;
    while (now.state === "in progress") {
      if (now.legal_moves.length !== 1 || rest.length > 120) return null;
      rest.push(now.legal_moves[0]);
      now = this.stateOf(moves.concat(rest));
      if (!now.valid) return null;
    }
    const stockOnly = rest.every((m) => this.rules.placesOf(st, m).from === null);
    return { moves: rest, state: now.state, stockOnly };
  }
}
