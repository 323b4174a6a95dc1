"""Solver work off the request path: a bounded pool of solver processes.

A hint is a search (dailydeal.hints); run in a request worker, it holds that worker's CPU
for as long as it takes, and under gevent every other request of the worker waits
behind it (issue 25: a probe GET took seconds with 16 hints in flight). So each request
worker hands its searches to ``processes`` solver processes of its own, niced (``NICE``:
the request workers win the CPU when both want it), and waits on a socket, which under
gevent lets its other requests go on. A review of a lost game (dailydeal.review: a
bisection of a few hint searches) is one job too (``ReviewJob``): the same bound, the same
processes, one safety net for the whole review.

Bounded: at most ``processes`` searches run and ``queue`` wait per request worker; one more
is refused at once (``PoolBusy``, with the seconds after which the queue has drained at
its recent pace: the API's 503 and its ``Retry-After``). With gunicorn's W workers the
machine runs at most W x ``processes`` searches (one each by default) and holds W x
``queue`` waiting; ``dailydeal serve`` has one worker. No state is shared between the
workers: nothing to lock across processes, and a worker's wait is bounded by its own
queue.

A solver process is started at the first search (``python -m dailydeal.solverpool FD``,
spawned, never forked from a worker that gevent patched), serves one search at a time
from its socket, keeps its own hint cache, and exits when the socket closes (its worker
exited). One that dies or overruns is killed and replaced; its search is a ``PoolBusy``.

``processes=0`` runs the searches in the calling thread (a development server, tests),
still within the same bound.
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

log = logging.getLogger(__name__)

NICE = 10  # added to a solver process's niceness: request workers first
SPAWN_TIMEOUT = 30.0  # seconds a new solver process may take to say it is ready
GUESS_SECONDS = 0.2  # a search's duration before any is measured (Retry-After)


class PoolBusy(Exception):
    """No search now: the queue is full, or the solver process failed. ``retry_after``:
    whole seconds after which asking again is likely to be served."""

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass(frozen=True)
class HintJob:
    """One hint to compute: the deal, the moves (legal: the caller replayed them), the
    budget and what ``dailydeal.hints.hint`` takes besides."""

    kind: ClassVar[str] = "hint"  # the part of run_job's answer that holds it
    game: str
    variant: str
    seed: int | None
    cards: tuple[int, ...] | None  # the deal's cards when it has no seed
    moves: tuple[str, ...]
    max_nodes: int | None
    time_limit: float | None
    line: tuple[str, ...] | None = None  # the deal's stored winning line
    line_shortest: bool = False
    follow_from: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HintJob:
        return cls(**_fields(data))


@dataclass(frozen=True)
class ReviewJob:
    """One review to compute (``dailydeal.review.review``): the deal, the player's moves
    (legal: the caller replayed them), the deal's stored winning line and the budget."""

    kind: ClassVar[str] = "review"
    game: str
    variant: str
    seed: int | None
    cards: tuple[int, ...] | None
    moves: tuple[str, ...]
    max_nodes: int | None
    time_limit: float | None  # the whole review's safety net, not each search's
    line: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        fields = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}
        return {"kind": self.kind, **fields}


Job = HintJob | ReviewJob


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    """A job's fields from its JSON line: the lists back to tuples."""
    return {
        k: (tuple(v) if k in ("cards", "moves", "line") and v is not None else v)
        for k, v in data.items() if k != "kind"
    }


def job_from_json(data: dict[str, Any]) -> Job:
    """A job from its JSON line (a review's says ``"kind": "review"``)."""
    return ReviewJob(**_fields(data)) if data.get("kind") == "review" else HintJob.from_json(data)


def run_job(job: Job, clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """Compute a job here: ``{"hint": Hint.to_json()}`` (``{"review": Review.to_json()}``)
    or ``{"timeout": reason}``."""
    from dailydeal.games import new_game
    from dailydeal.hints import HintTimeout, hint

    position = new_game(job.game, job.seed, job.variant,
                        None if job.seed is not None else list(job.cards or ()))
    if isinstance(job, ReviewJob):
        from dailydeal.review import review

        try:
            done = review(position, job.moves, line=job.line, max_nodes=job.max_nodes,
                          time_limit=job.time_limit, clock=clock)
        except HintTimeout as exc:
            return {"timeout": str(exc)}
        return {"review": done.to_json()}
    for text in job.moves:
        position.play(position.parse_move(text))
    try:
        answer = hint(
            position,
            max_nodes=job.max_nodes,
            time_limit=job.time_limit,
            line=job.line,
            line_shortest=job.line_shortest,
            follow_from=job.follow_from,
            clock=clock,
        )
    except HintTimeout as exc:
        return {"timeout": str(exc)}
    return {"hint": answer.to_json()}


class _Process:
    """One solver process and the worker's end of its socket."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        try:
            self.proc = subprocess.Popen(  # noqa: S603 (our own interpreter and module)
                [sys.executable, "-m", "dailydeal.solverpool", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        self.sock = mine
        self.sock.settimeout(SPAWN_TIMEOUT)
        self.file = mine.makefile("rwb")
        if self.file.readline().strip() != b"ready":
            self.close()
            raise OSError("the solver process did not start")

    def ask(self, job: Job, timeout: float | None) -> dict[str, Any]:
        self.sock.settimeout(timeout)
        self.file.write(json.dumps(job.to_json()).encode() + b"\n")
        self.file.flush()
        line = self.file.readline()
        if not line:
            raise OSError("the solver process exited")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        try:
            self.file.close()  # flushes: a dead process's socket refuses it
        except OSError:
            pass
        self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class SolverPool:
    """At most ``processes`` searches at once and ``queue`` waiting, in this process's own
    solver processes (see the module's docstring)."""

    def __init__(self, processes: int = 1, queue: int = 8) -> None:
        if processes < 0 or queue < 0:
            raise ValueError("processes and queue must be >= 0")
        self.processes = processes
        self.queue = queue
        self.lock = threading.Lock()
        self.slots = threading.Semaphore(max(processes, 1))
        self.idle: list[_Process] = []
        self.in_flight = 0  # running and waiting
        self.seconds = GUESS_SECONDS  # a search's recent duration (moving average)
        self.pid = os.getpid()

    def retry_after(self, in_flight: int | None = None) -> int:
        """Whole seconds until the searches in flight are done at the recent pace."""
        n = self.in_flight if in_flight is None else in_flight
        return max(1, math.ceil(n * self.seconds / max(self.processes, 1)))

    def check(self) -> None:
        """``PoolBusy`` if a job would be refused now: a caller may ask before the work of
        preparing one (a refusal must cost little, there may be many)."""
        if self.in_flight >= max(self.processes, 1) + self.queue:
            raise PoolBusy(f"{self.in_flight} hints are being computed or waiting here",
                           self.retry_after())

    def run(self, job: Job) -> dict[str, Any]:
        """The job's answer (``run_job``'s), or ``PoolBusy``."""
        with self.lock:
            self.check()
            self.in_flight += 1
        try:
            wait = job.time_limit
            if not self.slots.acquire(timeout=wait):
                raise PoolBusy("no solver was free in time", self.retry_after())
            try:
                t0 = time.perf_counter()
                answer = self._run(job)
                spent = time.perf_counter() - t0
                with self.lock:
                    self.seconds = 0.8 * self.seconds + 0.2 * spent
                return answer
            finally:
                self.slots.release()
        finally:
            with self.lock:
                self.in_flight -= 1

    def _run(self, job: Job) -> dict[str, Any]:
        if self.processes == 0:
            return run_job(job)
        with self.lock:
            if self.pid != os.getpid():  # forked: the processes are the parent's
                self.idle, self.pid = [], os.getpid()
            proc = self.idle.pop() if self.idle else None
        try:
            if proc is None:
                proc = _Process()
            # the process's own safety net is its CPU time; the wait adds slack for a
            # machine where others have the CPU (the process is niced)
            timeout = None if job.time_limit is None else 3 * job.time_limit + 5
            answer = proc.ask(job, timeout)
        except (OSError, ValueError) as exc:
            log.error("solver process failed: %s", exc)
            if proc is not None:
                proc.close()
            raise PoolBusy("the solver failed; it is being restarted", 1) from None
        with self.lock:
            self.idle.append(proc)
        if "error" in answer:
            raise PoolBusy(f"the solver failed: {answer['error']}", 1)
        return answer

    def close(self) -> None:
        with self.lock:
            idle, self.idle = self.idle, []
        for proc in idle:
            proc.close()


def serve(fd: int) -> None:
    """A solver process: niced, answers jobs from the socket ``fd`` one at a time (one
    JSON line each way), exits when it closes."""
    os.nice(NICE)
    # before "ready": the first job does not wait on an import
    import dailydeal.hints  # noqa: F401
    from dailydeal.solvers import load_all

    load_all()  # the solvers load when first asked for (dailydeal/solvers/__init__.py)

    sock = socket.socket(fileno=fd)
    # under gevent the worker's socketpair is non-blocking, and the flag is the file's:
    # a read here with no job yet would return None and end the process
    sock.setblocking(True)
    file = sock.makefile("rwb")
    file.write(b"ready\n")
    file.flush()
    for line in file:
        try:
            answer = run_job(job_from_json(json.loads(line)), clock=time.process_time)
        except Exception as exc:  # a bug: the worker answers 503, the log says why
            log.exception("hint job failed")
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        file.write(json.dumps(answer).encode() + b"\n")
        file.flush()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    serve(int(sys.argv[1]))
