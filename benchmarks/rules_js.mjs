// Replays lines with rules.js and verdict.js in Node: what benchmarks/rules_js.py runs.
//
//   node benchmarks/rules_js.mjs DIR ROUNDS < lines.json
//
// DIR holds the rules.js and verdict.js to measure (the static folder, or a copy of an older
// revision); lines.json is [{game, variant, seed, moves}, ...] (seed as decimal text). Each
// round replays every line from its deal, as the player's verdict does (newGame, then
// verdict.replay); the first round, with the JIT cold (a page replaying a line once), is
// timed apart and not counted. Prints one JSON line: {moves, rounds, cpu_s, us_per_move,
// first_us_per_move, wall_s, verdicts} (verdicts: "valid/won" per line, so that the caller
// checks every line was replayed, and won).
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, roundsText] = process.argv.slice(2);
const url = (name) => pathToFileURL(join(resolve(dir), name)).href;
const { newGame } = await import(url("rules.js"));
const { replay } = await import(url("verdict.js"));

let input = "";
for await (const chunk of process.stdin) input += chunk;
const lines = JSON.parse(input).map((l) => ({ ...l, seed: BigInt(l.seed) }));
const moves = lines.reduce((n, l) => n + l.moves.length, 0);

function round() {
  const out = [];
  for (const l of lines) {
    const v = replay(newGame(l.game, l.variant, null, l.seed), l.moves);
    out.push(`${v.valid}/${v.won}`);
  }
  return out;
}

const first0 = process.cpuUsage();
const verdicts = round(); // warm-up
const first = process.cpuUsage(first0);
const rounds = Number(roundsText);
const cpu0 = process.cpuUsage(), wall0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) round();
const cpu = process.cpuUsage(cpu0), wall = Number(process.hrtime.bigint() - wall0) / 1e9;
const cpuS = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({
  moves, rounds, cpu_s: cpuS, us_per_move: (cpuS * 1e6) / (moves * rounds),
  first_us_per_move: (first.user + first.system) / moves, wall_s: wall, verdicts,
}));
