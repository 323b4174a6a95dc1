// What the element shows differently from game to game: each game's spec, generated from
// GameSpec.browser() (dailydeal/games/spec.py; tests/test_game_spec.py holds it equal). The
// element reads this table and never compares a game's name; the rules are rules.js's.
export const SPECS = {"accordion":{"layout":"row","shows_par":false,"example":"4D>4S"},"pyramid":{"layout":"pyramid","shows_par":true,"example":"d 7S+6H KC r"},"gaps":{"layout":"grid","shows_par":true,"example":"8C 2S@3 R"}};

/** The spec of a game (Accordion's for a game this page does not know yet). */
export const specOf = (game) => SPECS[game] || SPECS.accordion;

/** The game a deal id names ("2026-12-01-pyramid-hard"), or "". */
export function gameOfDeal(id) {
  return id.split("-").find((part) => part in SPECS) || "";
}

/** The par a player can aim at, or null: a game whose spec does not show par (every
 *  Accordion win is 52 deals and 51 moves, so its solution length says nothing). */
export function meaningfulPar(meta) {
  return meta && specOf(meta.game).shows_par && meta.par ? meta.par : null;
}
