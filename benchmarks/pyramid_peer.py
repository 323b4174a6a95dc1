"""Pyramid side by side with the public Java A* solver (mchung94/solitaire-player): whole
processes on the same decks, CPU of each, and the lengths of their shortest solutions.

    # the peer's source, unpacked anywhere outside the repository; its two libraries from
    # Debian: apt-get install libtrove3-java libjackson2-databind-java
    .venv/bin/python benchmarks/pyramid_peer.py --peer-source /tmp/peer --deals 144
    .venv/bin/python benchmarks/pyramid_peer.py --peer-build /tmp/pyramid-peer-relaxed \\
        --decks-file /tmp/peer/src/test/resources/random-decks.txt --deals 144
    .venv/bin/python benchmarks/pyramid_peer.py --peer-build DIR --against /tmp/old-tree

For each deck, one ``dailydeal solve pyramid --cards ... --json`` process and one Java
process (a driver of ours that does what the peer's player does with a deck given in a
file: ``new BoardChallengeSolver().solve(new Deck(cards))``, under the JVM options of the
peer's launcher), taking turns which runs first. Every figure is the CPU (user + system)
of each child process, from ``os.wait4``: the interpreter's or the JVM's start-up, the
deal, the search, the output; the JVM's compiler and collector threads count. The peer's
line is translated into our notation and replayed through our rules engine; both lines
must win, and their lengths are compared (both searches claim the shortest).

The peer plays Microsoft's rules: the top card of the stock is face up and pairs without
a draw, and three passes through the stock. ``--rules relaxed`` (the default) builds it
for this project's rules (docs/rules.md) with three small edits of a copy of its source,
none to its search (the A*, the heuristic, the dead-end masks, the tables): the stock card
pairs with nothing before it is drawn, a recycle is always allowed and leaves the state's
pass counter as it was (so recycles are unlimited and the peer's action list calls them
draws: the translation tells them apart, a draw from an empty stock being the recycle),
and the priority queue holds f-values past 102 (three passes bound them; with unlimited
recycles they are not). ``--rules passes=N`` (N of 1 to 3) keeps the pass limit at N and
the stock face down; ``--rules published`` builds it unchanged (its lines are not moves
of our game: CPU only, against our ``passes=3``).

Decks: the first ``--deals`` seeds of the relaxed benchmark stream of
``benchmarks/solvers.py`` (``--stream``), or the lines of ``--decks-file`` (52 cards each,
the peer's notation or ours). ``--against DIR`` also runs a second source tree of ours
(an older revision with its own compiled build), in turns with this one, each as
``python -c`` with PYTHONPATH at its tree (the console script's code).

``--in-process ROUNDS`` runs no Java and no process per deck: the searches alone, every
deck solved in one process per tree (``solve("pyramid", cards=..., max_nodes=10**7)``),
the trees in turns, ROUNDS times: CPU of the searches, nodes, microseconds a node, and a
SHA-256 over "deck status nodes moves" (the same digest for two trees: the same search).

    .venv/bin/python benchmarks/pyramid_peer.py --in-process 3 --against /tmp/old-tree \\
        --decks-file /tmp/peer/src/test/resources/random-decks.txt --deals 144
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.argv[0] = 'dailydeal'; from dailydeal.cli import main; main()"
PACKAGE = "com/secondthorn/solitaireplayer/solvers/pyramid"
# The JVM options of the peer's launcher (its build.gradle, applicationDefaultJvmArgs)
PEER_JVM = ["-Xmx8G", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=5000"]
LIBRARIES = ["/usr/share/java/trove4j.jar", "/usr/share/java/jackson-databind.jar",
             "/usr/share/java/jackson-core.jar", "/usr/share/java/jackson-annotations.jar"]

# Our driver: the deck as one argument; prints "none", or "steps N" and one action a line.
DRIVER = """\
import com.secondthorn.solitaireplayer.solvers.pyramid.Action;
import com.secondthorn.solitaireplayer.solvers.pyramid.BoardChallengeSolver;
import com.secondthorn.solitaireplayer.solvers.pyramid.Deck;
import java.util.List;
import java.util.Map;

public final class PeerSolve {
    public static void main(String[] args) {
        Map<String, List<Action>> found = new BoardChallengeSolver().solve(new Deck(args[0]));
        StringBuilder out = new StringBuilder();
        if (found.isEmpty()) {
            out.append("none\\n");
        } else {
            List<Action> line = found.values().iterator().next();
            out.append("steps ").append(line.size()).append('\\n');
            for (Action action : line) {
                out.append(action).append('\\n');
            }
        }
        System.out.print(out);
    }
}
"""


def rule_edits(rules: str) -> list[tuple[str, str, str]]:
    """(file, text, replacement) edits of the peer's source for ``rules``; each text must
    occur exactly once."""
    if rules == "published":
        return []
    face_down = [
        # the stock's top card pairs with the waste's: not in our game (drawn first)
        ("Deck.java", "if (!State.isStockEmpty(stockIndex) &&",
         "if (false && !State.isStockEmpty(stockIndex) &&"),
        # ... nor with a pyramid card, nor leaves alone as a king
        ("Deck.java", "masks.addAll(stockMasks[stockIndex]);", ""),
    ]
    if rules == "relaxed":
        return [*face_down,
                ("StateCache.java", "if (cycle != 3) {", "if (true) {"),
                ("StateCache.java", "createState(deckFlags, 28, cycle + 1)",
                 "createState(deckFlags, 28, cycle)"),
                ("BoardChallengeSolver.java", "new BucketQueue<>(102)",
                 "new BucketQueue<>(4096)")]
    passes = int(rules.removeprefix("passes="))
    return [*face_down, ("StateCache.java", "if (cycle != 3) {", f"if (cycle != {passes}) {{")]


def build_peer(source: Path, out: Path, rules: str, classpath: list[str]) -> None:
    """Compile the peer's Pyramid solver (its package alone: the player, the screen
    reading and the other games are not needed), edited for ``rules``, and our driver."""
    package = source / "src/main/java" / PACKAGE
    if not package.is_dir():
        raise SystemExit(f"--peer-source: no {PACKAGE} under {source}/src/main/java")
    if out.exists():
        shutil.rmtree(out)
    (out / "src" / PACKAGE).mkdir(parents=True)
    texts = {p.name: p.read_text(encoding="utf-8") for p in package.glob("*.java")}
    for name, old, new in rule_edits(rules):
        if texts[name].count(old) != 1:
            raise SystemExit(f"the peer's {name} has changed: {old!r} is not there once")
        texts[name] = texts[name].replace(old, new)
    for name, text in texts.items():
        (out / "src" / PACKAGE / name).write_text(text, encoding="utf-8")
    (out / "src/PeerSolve.java").write_text(DRIVER, encoding="utf-8")
    (out / "classes/Pyramid").mkdir(parents=True)
    shutil.copy(source.joinpath("src", "main", "resources", "Pyramid", "Pyramid.json"),
                out / "classes" / "Pyramid")
    sources = [str(p) for p in sorted((out / "src").rglob("*.java"))]
    subprocess.run(["javac", "-nowarn", "-d", str(out / "classes"), "-cp",
                    os.pathsep.join(classpath), *sources], check=True)
    (out / "rules").write_text(rules + "\n", encoding="utf-8")


@dataclass
class Run:
    status: str  # won, lost, unknown, error
    line: list[str]  # in our notation
    cpu: float
    detail: str = ""


def run_child(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process, and its standard output (run in
    the tree of its PYTHONPATH: ``python -c`` puts the working directory first)."""
    cwd = None if env is None else env["PYTHONPATH"]
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env,
                                 cwd=cwd)
        _, _, usage = os.wait4(child.pid, 0)
        child.returncode = 0  # reaped here, not by Popen
        out.seek(0)
        text = cast(IO[bytes], out).read().decode()
    return usage.ru_utime + usage.ru_stime, text


# --in-process: the decks on standard input, one a line; prints CPU seconds, nodes, digest
SEARCHES = """\
import hashlib, sys, time
from dailydeal.solvers import solve
variant = sys.argv[1] or None
digest = hashlib.sha256()
cpu = 0.0
nodes = 0
for line in sys.stdin.read().splitlines():
    start = time.process_time()
    got = solve("pyramid", None, variant, cards=line, max_nodes=10**7)
    cpu += time.process_time() - start
    nodes += got.nodes
    digest.update(f"{line} {got.status} {got.nodes} {' '.join(got.moves)}\\n".encode())
print(cpu, nodes, digest.hexdigest())
"""


def searches(trees: dict[str, Path], chosen: list[tuple[str, str]], variant: str | None,
             rounds: int) -> int:
    """``--in-process``: the searches alone, each tree in its own process, in turns."""
    text = "".join(cards + "\n" for _, cards in chosen)
    names = list(trees)
    seen: dict[str, list[tuple[float, int, str]]] = {n: [] for n in names}
    for k in range(rounds):
        for name in (names if k % 2 == 0 else names[::-1]):
            env = {**os.environ, "PYTHONPATH": str(trees[name])}
            out = subprocess.run([sys.executable, "-c", SEARCHES, variant or ""], input=text,
                                 capture_output=True, text=True, env=env, cwd=trees[name],
                                 check=True).stdout.split()
            seen[name].append((float(out[0]), int(out[1]), out[2]))
            print(f"  round {k + 1} {name:8} CPU {float(out[0]):7.2f} s  nodes {out[1]}  "
                  f"{float(out[0]) / int(out[1]) * 1e6:6.2f} us a node  {out[2][:16]}",
                  flush=True)
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for name in names:
        cpus = [c for c, _, _ in seen[name]]
        nodes = seen[name][0][1]
        print(f"  {name:8} median CPU {statistics.median(cpus):7.2f} s (best {min(cpus):.2f}), "
              f"{nodes} nodes, {statistics.median(cpus) / nodes * 1e6:.2f} us a node, "
              f"{nodes / statistics.median(cpus):,.0f} nodes/s")
    digests = {d for n in names for _, _, d in seen[n]}
    print(f"  digests: {'the same' if len(digests) == 1 else 'DIFFERENT'}")
    return 0 if len(digests) == 1 else 1


def ours(command: list[str], cards: str, variant: str | None,
         env: dict[str, str] | None) -> Run:
    import json

    extra = [] if variant is None else ["--variant", variant]
    cpu, text = run_child([*command, "solve", "pyramid", "--cards", cards, "--json", *extra],
                          env)
    try:
        answer = json.loads(text)
    except ValueError:
        return Run("error", [], cpu, text[-200:])
    return Run(answer["status"], list(answer["moves"]), cpu,
               "" if answer["status"] != "won" or answer["proved_shortest"] else "not proved")


REMOVE = re.compile(r"Remove \[([^\]]*)\]")


def peer(build: Path, classpath: list[str], jvm: list[str], cards: str) -> Run:
    """The peer's answer, its actions translated into our notation (a draw from an empty
    stock is a recycle: see the module's docstring)."""
    cp = os.pathsep.join([str(build / "classes"), *classpath])
    deck = " ".join(c[0].upper() + c[1].lower() for c in cards.split())
    cpu, text = run_child(["java", *jvm, "-cp", cp, "PeerSolve", deck])
    lines = text.splitlines()
    if lines == ["none"]:
        return Run("lost", [], cpu)
    if not lines or not lines[0].startswith("steps "):
        return Run("error", [], cpu, text[-200:])
    moves = []
    for action in lines[1:]:
        found = REMOVE.match(action)
        if found:
            moves.append("+".join(c.strip().upper() for c in found.group(1).split(",")))
        elif action in ("Draw", "Recycle"):
            moves.append(action[0].lower())
        else:
            return Run("error", [], cpu, f"action {action!r}")
    if len(moves) != int(lines[0].split()[1]):
        return Run("error", [], cpu, "steps and actions differ")
    return Run("won", moves, cpu)


def replay(cards: str, variant: str | None, line: list[str]) -> tuple[bool, list[str]]:
    """Whether ``line`` wins the deal under our rules, and the line as our engine writes it
    (a draw the peer wrote from an empty stock is our recycle; a pair in either order)."""
    from dailydeal.games import new_game

    game: Any = new_game("pyramid", None, variant, cards)
    written: list[str] = []
    for text in line:
        if text == "d" and not game.stock:
            text = "r"
        legal = {str(m): m for m in game.legal_moves()}
        if text not in legal and "+" in text:
            text = "+".join(reversed(text.split("+")))
        if text not in legal:
            return False, written
        game.push(legal[text])
        written.append(text)
    return game.status() == "won", written


def decks(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(label, cards in dealing order, our notation) of the decks to run."""
    from dailydeal import cards as C
    from dailydeal.games import new_game
    from dailydeal.shuffle import SplitMix64

    if args.decks_file:
        rows = [r.split() for r in Path(args.decks_file).read_text().splitlines() if r.strip()]
        chosen = rows[:args.deals]
        return [(f"line{i + 1}", " ".join(c[0].upper() + c[1].upper() for c in r))
                for i, r in enumerate(chosen)]
    rng = SplitMix64(args.stream)
    seeds = [rng.next() for _ in range(args.deals)]
    return [(str(s), " ".join(C.names(new_game("pyramid", s, args.variant).cards)))
            for s in seeds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-source", type=Path,
                        help="the peer's unpacked repository: build it into --peer-build")
    parser.add_argument("--peer-build", type=Path, help="the peer's build (default: "
                        "a directory in the temporary directory named by --rules)")
    parser.add_argument("--rules", default="relaxed",
                        help="relaxed (default), passes=N (1..3) or published")
    parser.add_argument("--deals", type=int, default=144)
    parser.add_argument("--stream", type=int, default=0xBE1C4, help="seed of the seed stream")
    parser.add_argument("--decks-file", help="decks, one a line, instead of the stream")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="a second source tree of ours, run in turns with this one")
    parser.add_argument("--classpath", default=os.pathsep.join(LIBRARIES),
                        help="the peer's libraries (trove4j 3, jackson-databind 2)")
    parser.add_argument("--jvm", default=" ".join(PEER_JVM), help="JVM options")
    parser.add_argument("--verbose", action="store_true", help="a line per deck")
    parser.add_argument("--in-process", type=int, metavar="ROUNDS",
                        help="the searches alone, in one process per tree (no Java)")
    args = parser.parse_args(argv)
    if args.rules not in ("relaxed", "published") and not re.fullmatch(
            r"passes=[123]", args.rules):
        parser.error("--rules: relaxed, published or passes=1, 2 or 3")
    args.variant = {"relaxed": None, "published": "passes=3"}.get(args.rules, args.rules)
    if args.in_process:
        print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        trees = {"ours": ROOT} if args.against is None else {"ours": ROOT,
                                                              "against": args.against}
        return searches(trees, decks(args), args.variant, args.in_process)
    classpath = args.classpath.split(os.pathsep)
    missing = [p for p in classpath if not Path(p).exists()]
    if missing:
        parser.error(f"--classpath: not found: {', '.join(missing)} "
                     "(apt-get install libtrove3-java libjackson2-databind-java)")
    build = args.peer_build or Path(tempfile.gettempdir()) / f"pyramid-peer-{args.rules}"
    if args.peer_source:
        build_peer(args.peer_source, build, args.rules, classpath)
    elif not (build / "classes/PeerSolve.class").exists():
        parser.error(f"no peer build in {build}: give --peer-source")
    built_for = (build / "rules").read_text().strip()
    if built_for != args.rules:
        parser.error(f"{build} was built for --rules {built_for}")

    trees = {"ours": ROOT} if args.against is None else {"ours": ROOT, "against": args.against}
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {}
    for name, tree in trees.items():
        if args.against is None:
            commands[name] = ([str(Path(sys.executable).parent / "dailydeal")], None)
        else:
            commands[name] = ([sys.executable, "-c", MAIN],
                              {**os.environ, "PYTHONPATH": str(tree)})
        code = "from dailydeal import native; print(native.BUILD)"
        env = commands[name][1]
        what = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, cwd=None if env is None else tree).stdout.strip()
        print(f"{name}: {tree}, build {what}")
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    print(f"peer: {build} (--rules {args.rules}), {java.splitlines()[0]}, {args.jvm}")
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))

    names = [*trees, "peer"]
    cpu: dict[str, list[float]] = {n: [] for n in names}
    same = shorter = longer = verdicts = bad = 0
    chosen = decks(args)
    jvm = args.jvm.split()
    for i, (label, cards) in enumerate(chosen):
        runs: dict[str, Run] = {}
        order = names if i % 2 == 0 else names[::-1]
        for name in order:
            if name == "peer":
                runs[name] = peer(build, classpath, jvm, cards)
            else:
                command, env = commands[name]
                runs[name] = ours(command, cards, args.variant, env)
        for name, run in runs.items():
            cpu[name].append(run.cpu)
            won = run.status != "error"
            if run.status == "won" and (name != "peer" or args.rules != "published"):
                won, run.line = replay(cards, args.variant, run.line)
            if not won:
                bad += 1
                print(f"  {label} {name}: {run.status}, its line does not win under our "
                      f"rules {run.detail}")
        mine, theirs = runs["ours"], runs["peer"]
        if args.rules != "published":
            verdicts += mine.status == theirs.status
            if mine.status == theirs.status == "won":
                same += len(mine.line) == len(theirs.line)
                shorter += len(mine.line) < len(theirs.line)
                longer += len(mine.line) > len(theirs.line)
        if args.verbose:
            cells = "  ".join(
                f"{n} {r.status} {len(r.line) if r.status == 'won' else '-':>3} "
                f"{r.cpu:7.3f}" for n, r in runs.items())
            print(f"{label:>20}  {cells}  ratio {mine.cpu / theirs.cpu:.3f}", flush=True)
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{len(chosen)} decks; CPU seconds per process: total, median, max")
    for name in names:
        values = cpu[name]
        print(f"  {name:8} {sum(values):8.2f} {statistics.median(values):7.3f} "
              f"{max(values):7.3f}")
    for name in trees:
        ratios = [a / b for a, b in zip(cpu[name], cpu["peer"], strict=True)]
        print(f"  {name} / peer: total {sum(cpu[name]) / sum(cpu['peer']):.4f}, median of the "
              f"per-deck ratios {statistics.median(ratios):.4f}, max {max(ratios):.4f}")
    if args.rules != "published":
        print(f"  same verdict {verdicts}/{len(chosen)}; both won: same length {same}, ours "
              f"shorter {shorter}, ours longer {longer}; lines not won {bad}")
    return 1 if bad or (args.rules != "published" and (verdicts != len(chosen) or shorter
                                                         or longer)) else 0


if __name__ == "__main__":
    sys.exit(main())
