"""Fill dates with deals: candidates -> solve -> verify -> rate -> tier -> store.

For each date and each (game, variant) of ``DAILY_GAMES``, candidate seeds are taken in
order from the secret stream of ``dailydeal.daily.seeds``; each is solved with a node
budget, its solution checked by the verifier, and rated. Tier T of the day is the FIRST
candidate of the stream that is won and rated in T. That rule makes a stored day a pure
function of (secret, date, game, variant, versions, budget): generating in another order,
in several processes, twice at once, or again after a crash gives the same rows.

The wall-clock time limit is only a safety net and never decides what is stored. A solve
whose answer the clock cut short (unknown, or a win not proved shortest, before the node
budget was spent) stops the search of that (date, game): the tiers it still wants stay
empty for this run, counted and reported, and a later run searches them again. Skipping
the candidate instead would store a later one, and keeping its answer would store a
solution that a faster machine would not find. A win the solver could not prove shortest
within the node budget is deterministic but not kept either (``solution_length`` promises
the shortest where the solver proves shortest solutions, as Pyramid's does); it is counted.

A deal is written as soon as it is found (one small transaction, INSERT OR IGNORE on the
unique (date, game, variant, tier)), so a killed generator loses at most the candidate it
was working on and the next run completes the rest. Stored days are never rewritten: the
``version`` column says what made them. A tier still empty after ``max_attempts``
candidates is reported and noted in the ``unfilled`` table, so the hourly scheduler does not
repeat the same search until the generator version, its budget or ``max_attempts`` changes.

The work unit of ``--jobs N`` is one (date, game): each process opens the database itself.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dailydeal import __version__
from dailydeal.config import DAILY_GAMES, Settings
from dailydeal.daily import fairness, picture, shared, store
from dailydeal.daily.seeds import candidate_seeds
from dailydeal.games import Game, new_game
from dailydeal.rating import TIERS, rate_position
from dailydeal.solvers import UNKNOWN, WON, SolveResult, proved_shortest, solve_position
from dailydeal.verify import replay

log = logging.getLogger(__name__)

#: Bump when the way candidates become deals changes (the seed message, the tier rule...).
#: 2: a win not proved shortest (Pyramid's fallback plan) is no longer stored.
GENERATOR_VERSION = 2


def _version() -> str:
    """What makes a row, for its ``version`` column: package, generator, solver, rating.

    The solver and rating packages are included when they declare a ``VERSION``.
    """
    import dailydeal.rating
    import dailydeal.solvers

    parts = [f"dailydeal {__version__}", f"generator {GENERATOR_VERSION}"]
    for name, module in (("solvers", dailydeal.solvers), ("rating", dailydeal.rating)):
        version = getattr(module, "VERSION", None)
        if version is not None:
            parts.append(f"{name} {version}")
    return "; ".join(parts)


#: What made a row, for every game; ``row_version(game)`` adds the game's rating model.
VERSION = _version()


def row_version(game: str) -> str:
    """The ``version`` column of a row: ``VERSION``, the game's player model and tier table.

    For example ``dailydeal 0.1.0; generator 2; rating pyramid-2; tiers 5.7/16.7/66.9``
    (the parts the rating package does not provide are left out).
    """
    import dailydeal.rating as rating

    parts = [VERSION]
    model_version = getattr(rating, "model_version", None)
    if model_version is not None:
        parts.append(f"rating {model_version(game)}")
    thresholds = getattr(rating, "thresholds", None)
    if thresholds is not None:
        parts.append("tiers " + "/".join(f"{t:g}" for t in thresholds(game)))
    return "; ".join(parts)


def signature(settings: Settings, game: str) -> str:
    """The versions and the budget: a search repeated with the same signature gives the same."""
    return (
        f"{row_version(game)}; max_nodes={settings.solve_max_nodes}; "
        f"time_limit={settings.solve_time_limit}"
    )


@dataclass(frozen=True)
class Unit:
    """One (date, game, variant): the work unit of a process."""

    date: dt.date
    game: str
    variant: str

    def label(self) -> str:
        return f"{self.date.isoformat()} {self.game}/{self.variant}"


@dataclass
class UnitResult:
    unit: Unit
    filled: list[str] = field(default_factory=list)  # tiers this run stored
    by_others: list[str] = field(default_factory=list)  # stored meanwhile by another generator
    unfilled: list[str] = field(default_factory=list)  # still empty after the search
    known_unfilled: list[str] = field(default_factory=list)  # skipped: same search failed before
    attempts: int = 0  # candidates tried
    timeouts: int = 0  # candidates stopped by the time limit before the node budget
    stopped_at: int | None = None  # the attempt the time limit stopped: the search ended there
    not_shortest: int = 0  # wins not proved shortest within the node budget (not kept)
    seconds: float = 0.0


@dataclass
class FillReport:
    """What ``fill_days`` did; ``summary()`` is a human-readable account."""

    start: dt.date
    days: int
    games: tuple[tuple[str, str], ...] = DAILY_GAMES
    already: int = 0  # (date, game, variant, tier) stored before this run
    units: list[UnitResult] = field(default_factory=list)
    seconds: float = 0.0
    max_attempts: int = 0
    other_version: int = 0  # stored deals made by another version: kept, never regenerated
    pictures: int = 0  # preview pictures drawn and stored (daily/picture.py)

    @property
    def filled(self) -> int:
        return sum(len(u.filled) for u in self.units)

    @property
    def unfilled(self) -> list[tuple[dt.date, str, str, str]]:
        """(date, game, variant, tier) left empty, sorted."""
        return sorted(
            (u.unit.date, u.unit.game, u.unit.variant, tier)
            for u in self.units
            for tier in (*u.unfilled, *u.known_unfilled)
        )

    @property
    def ok(self) -> bool:
        return not self.unfilled

    def summary(self) -> str:
        end = self.start + dt.timedelta(days=max(self.days - 1, 0))
        total = self.days * len(self.games) * len(TIERS)
        others = sum(len(u.by_others) for u in self.units)
        lines = [
            f"{self.start.isoformat()}..{end.isoformat()}: {total} deals wanted "
            f"({self.days} days x {len(self.games)} games x {len(TIERS)} tiers); "
            f"{self.already} already stored, {self.filled} stored now"
            + (f", {others} stored meanwhile by another generator" if others else "")
            + f", {len(self.unfilled)} not filled; "
            f"{sum(u.attempts for u in self.units)} candidates tried in {self.seconds:.1f} s"
        ]
        if self.other_version:
            lines.append(
                f"  {self.other_version} stored deals were made by another version of the "
                "rules, solver or rating; they are kept as they are (see their version column)"
            )
        timeouts = sum(u.timeouts for u in self.units)
        if timeouts:
            lines.append(
                f"  WARNING: {timeouts} candidates hit the time limit before the node budget; "
                "their dates and games were left unfinished, to be searched again by the "
                "next run (raise DAILYDEAL_TIME_LIMIT, or run with fewer --jobs)"
            )
        not_shortest = sum(u.not_shortest for u in self.units)
        if not_shortest:
            lines.append(
                f"  {not_shortest} won candidates were not kept: their solution was not "
                "proved shortest within the node budget (DAILYDEAL_MAX_NODES)"
            )
        for u in sorted(self.units, key=lambda r: (r.unit.date, r.unit.game)):
            if u.unfilled and u.stopped_at is not None:
                lines.append(
                    f"  NOT FILLED {u.unit.label()}: {', '.join(u.unfilled)} (the time limit "
                    f"stopped candidate {u.stopped_at} before its node budget)"
                )
            elif u.unfilled:
                lines.append(
                    f"  NOT FILLED {u.unit.label()}: {', '.join(u.unfilled)} "
                    f"(no winnable deal in that tier among {u.attempts} candidates)"
                )
            if u.known_unfilled:
                lines.append(
                    f"  NOT FILLED {u.unit.label()}: {', '.join(u.known_unfilled)} "
                    f"(an earlier run with the same version and budget tried "
                    f"{self.max_attempts}+ candidates; raise max_attempts to retry)"
                )
        return "\n".join(lines)


#: Told after each (date, game): units done, units in all, and the label of the one done.
#: Generation draws nothing itself; the command line turns this into a bar.
Progress = Callable[[int, int, str], None]


def dates_from(start: dt.date, days: int) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range(days)]


def utc_today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def fill_days(
    settings: Settings,
    start: dt.date,
    days: int,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    isolated: bool = False,
) -> FillReport:
    """Store every missing (date, game, variant, tier) of ``days`` dates from ``start``.

    Idempotent; ``jobs`` > 1 spreads the (date, game) units over processes with the same
    result. ``progress`` is called after each (date, game) (the CLI draws a bar with it).
    ``isolated`` runs the work in child
    processes even with one job, so that a caller's threads (a web server running the
    scheduler) are not starved of the GIL by the solver.
    """
    if days < 0:
        raise ValueError("days must be >= 0")
    if jobs < 1:
        raise ValueError("jobs must be >= 1")
    t0 = time.perf_counter()
    dates = dates_from(start, days)
    secret = settings.secret_key()  # created here, once, before any worker starts
    db = store.open_db(settings.db_path)
    times = shared.commit_times(settings.redis_url)
    try:
        if times is not None and dates:  # rows stored before Redis: their time is the first
            times.record(store.stored_commitments(db, dates[0], dates[-1]))
        missing = store.missing_keys(db, dates, settings.games, TIERS)
        other_version = sum(
            store.count_other_versions(db, dates[0], dates[-1], g, v, row_version(g))
            for g, v in settings.games
        ) if dates else 0
    finally:
        db.close()
        if times is not None:
            times.close()
    units = list(dict.fromkeys(Unit(d, g, v) for d, g, v, _ in missing))
    report = FillReport(
        start, days, settings.games,
        already=days * len(settings.games) * len(TIERS) - len(missing),
        max_attempts=settings.max_attempts, other_version=other_version,
    )
    args = [(settings, secret, unit) for unit in units]
    if not units or (jobs == 1 or len(units) == 1) and not isolated:
        results: Iterator[UnitResult] = (fill_unit(*a) for a in args)
        _collect(report, results, len(units), progress)
    else:
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded (web) process
        with _running_pools_lock:
            # registered under the lock it is built in: a stop while its workers start
            # waits for the pool and ends it (registered after, it was missed, and ran on)
            pool = ctx.Pool(min(jobs, len(units)), _init_worker, (os.getpid(),))
            _running_pools.add(pool)
        with pool:
            try:
                _collect(
                    report, pool.imap_unordered(_fill_unit_args, args), len(units), progress
                )
            finally:
                with _running_pools_lock:
                    _running_pools.discard(pool)
    report.pictures = fill_pictures(settings, isolated)
    report.seconds = time.perf_counter() - t0
    if report.unfilled:
        log.warning(
            "%d tiers not filled: %s", len(report.unfilled),
            ", ".join(f"{d} {g}/{v} {t}" for d, g, v, t in report.unfilled),
        )
    return report  # its summary is the caller's to print, once (generate, serve, scheduler)


def _store_pictures(path: Any) -> int:
    db = store.open_db(path)
    try:
        return picture.store_pictures(db)
    finally:
        db.close()


def fill_pictures(settings: Settings, isolated: bool = False) -> int:
    """Draw and store the preview picture of every stored deal that has none
    (``picture.store_pictures``): the deals just stored, and once, those of an older file.
    ``isolated``: in a child process (a web server's scheduler thread must not hold the GIL
    for the drawing), started only when a picture is missing. The number stored."""
    if not isolated:
        return _store_pictures(settings.db_path)
    db = store.open_db(settings.db_path)
    try:
        if not store.deals_without_picture(db, picture.VERSION, limit=1):
            return 0
    finally:
        db.close()
    ctx = multiprocessing.get_context("spawn")
    with _running_pools_lock:
        pool = ctx.Pool(1, _init_worker, (os.getpid(),))
        _running_pools.add(pool)
    with pool:
        try:
            return int(pool.apply(_store_pictures, (settings.db_path,)))
        finally:
            with _running_pools_lock:
                _running_pools.discard(pool)


def _collect(
    report: FillReport, results: Iterable[UnitResult], n: int, progress: Progress | None
) -> None:
    for done, r in enumerate(results, 1):
        # logged here, in the parent: workers have no log handlers
        log.debug(
            "%s: stored %s, not filled %s, %d candidates, %.1f s", r.unit.label(),
            r.filled, r.unfilled + r.known_unfilled, r.attempts, r.seconds,
        )
        report.units.append(r)
        if progress is not None:
            progress(done, n, r.unit.label())


# The pools of the fills running in this process (a server's scheduler thread runs one).
_running_pools: set[Any] = set()
_running_pools_lock = threading.Lock()


def stop_running_fills(wait: float = 5.0) -> int:
    """Stop the solver processes of every fill running in this process, now (a server
    exiting on Ctrl-C would otherwise wait minutes for its scheduler's fill). Each pool is
    terminated as a whole: killing its workers one by one would only make the pool start
    new ones. The deals stored so far stay; the next run fills the rest. The fill's own
    thread is left blocked: the caller is about to exit. Returns the number of pools."""
    with _running_pools_lock:
        pools = list(_running_pools)
        _running_pools.clear()
    stoppers = [threading.Thread(target=pool.terminate, daemon=True) for pool in pools]
    for t in stoppers:
        t.start()
    for t in stoppers:
        t.join(wait)
    return len(pools)


def _init_worker(parent: int) -> None:
    # Stopped by the parent (the pool's terminate, or the watch below), never by the Ctrl-C
    # a terminal sends its whole process group: a worker dead of it loses its task, and the
    # parent, a server's scheduler thread, would wait for it forever.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """A worker whose generator is gone (killed, or exited without stopping its pool) ends
    within ``every`` seconds, even in the middle of a solve or waiting for a task: an
    orphan would hold its parent's output pipes (a terminal, a test) open for minutes."""
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(1)


def _fill_unit_args(args: tuple[Settings, bytes, Unit]) -> UnitResult:
    return fill_unit(*args)


def fill_unit(settings: Settings, secret: bytes, unit: Unit) -> UnitResult:
    """Fill the missing tiers of one date and game; each deal is stored as soon as found."""
    t0 = time.perf_counter()
    result = UnitResult(unit)
    sig = signature(settings, unit.game)
    db = store.open_db(settings.db_path)
    times = shared.commit_times(settings.redis_url)  # one commitment time across nodes
    try:
        wanted = _missing_tiers(db, unit)
        notes = store.unfilled_between(db, unit.date, unit.date)
        for tier in list(wanted):
            note = notes.get((unit.date.isoformat(), unit.game, unit.variant, tier))
            if note and note["signature"] == sig and note["attempts"] >= settings.max_attempts:
                wanted.remove(tier)
                result.known_unfilled.append(tier)
        for attempt, seed in candidate_seeds(secret, unit.date, unit.game, unit.variant):
            if not wanted or attempt >= settings.max_attempts:
                break
            result.attempts = attempt + 1
            dealt = new_game(unit.game, seed, unit.variant)  # dealt once, handed down
            try:
                candidate = make_candidate(settings, unit, attempt, seed, dealt=dealt)
            except TimeLimitHit as exc:
                # Stop here: any later candidate stored instead would depend on the clock.
                log.warning("%s; the search of %s stops for this run", exc, unit.label())
                result.timeouts += 1
                result.stopped_at = attempt
                break
            except NotProvedShortest:
                result.not_shortest += 1
                continue
            if candidate is None:
                continue
            candidate["nonce"] = fairness.deal_nonce(secret, candidate["id"])  # fairness.md
            tier = candidate["tier"]
            now_missing = _missing_tiers(db, unit)
            result.by_others.extend(t for t in wanted if t not in now_missing)
            wanted = [t for t in wanted if t in now_missing]
            if tier not in wanted:
                continue
            first = None if times is None else times.first
            if store.insert_deal(db, candidate, dealt=dealt, first=first):
                result.filled.append(tier)
            else:
                result.by_others.append(tier)
            wanted.remove(tier)
        for tier in wanted if result.stopped_at is None else ():
            store.record_unfilled(
                db, unit.date, unit.game, unit.variant, tier, result.attempts, sig
            )
        result.unfilled = list(wanted)
    finally:
        db.close()
        if times is not None:
            times.close()
    result.seconds = time.perf_counter() - t0
    return result


def _missing_tiers(db: Any, unit: Unit) -> list[str]:
    have = store.stored_keys(db, unit.date, unit.date)
    day = unit.date.isoformat()
    return [t for t in TIERS if (day, unit.game, unit.variant, t) not in have]


class TimeLimitHit(Exception):
    """A solve whose answer the time limit (a safety net) cut short before the node budget.

    Its answer depends on the speed of the machine: the search of the (date, game) stops.
    """


class NotProvedShortest(Exception):
    """A win whose solution the solver could not prove shortest within the node budget."""


def cut_by_clock(solved: SolveResult, max_nodes: int | None) -> bool:
    """True when the answer is what the search had when it stopped (unknown, or a win not
    proved shortest) and the node budget was not spent: the clock stopped it."""
    incomplete = solved.status == UNKNOWN or proved_shortest(solved) is False
    return incomplete and (max_nodes is None or solved.nodes < max_nodes)


def make_candidate(
    settings: Settings, unit: Unit, attempt: int, seed: int, *, dealt: Game[Any] | None = None
) -> dict[str, Any] | None:
    """The row of a candidate if it is won (within budget), verified and rated; else None.

    ``dealt`` is the game of ``seed`` when the caller has dealt it (else it is dealt here):
    the solver, the verifier, the rating and the row all take it, not a deal of their own.
    Raises ``TimeLimitHit`` when the clock cut the solve short before its node budget, and
    ``NotProvedShortest`` for a win not proved shortest within the node budget.
    """
    game, variant = unit.game, unit.variant
    position = dealt if dealt is not None else new_game(game, seed, variant)
    solved = solve_position(
        position, time_limit=settings.solve_time_limit, max_nodes=settings.solve_max_nodes,
    )
    if cut_by_clock(solved, settings.solve_max_nodes):
        raise TimeLimitHit(
            f"{unit.label()} seed {seed}: the time limit ({settings.solve_time_limit} s) "
            f"stopped the solver after {solved.nodes} of {settings.solve_max_nodes} nodes"
        )
    if proved_shortest(solved) is False:
        raise NotProvedShortest(f"{unit.label()} seed {seed}")
    if solved.status != WON:
        return None
    verdict = replay(position.copy(), solved.moves)  # a copy: the deal itself stays unplayed
    if not verdict.won:  # a solver bug must never become a daily deal
        log.error("solver solution rejected by the verifier: %s seed %d", unit.label(), seed)
        return None
    try:
        rating = rate_position(position, solution=solved)
    except ValueError:
        return None
    if rating.tier not in TIERS:
        return None
    solver: dict[str, Any] = {
        "status": solved.status,
        "nodes": solved.nodes,
        "seconds": round(solved.seconds, 6),
        "max_nodes": settings.solve_max_nodes,
        "time_limit": settings.solve_time_limit,
    }
    if solved.stats and _jsonable(solved.stats):
        solver["stats"] = solved.stats
    features = rating.features if _jsonable(rating.features) else {}
    row = store.deal_row(
        unit.date,
        game,
        variant,
        rating.tier,
        seed,
        rating=rating.rating,
        solution=solved.moves,
        version=row_version(game),
        solver=solver,
        features=features,
        dealt=position,
    )
    row["attempt"] = attempt
    return row


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
