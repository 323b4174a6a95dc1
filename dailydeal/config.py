"""Instance settings: where the database lives, the server secret, generation budgets.

Everything comes from ``Settings.from_env()``: explicit arguments win over environment
variables, which win over the defaults below.

=========================  ===========================  ==================================
setting                    environment variable         default
=========================  ===========================  ==================================
``db_path``                ``DAILYDEAL_DB``             ``data/dailydeal.db`` (cwd-relative)
``days_ahead``             ``DAILYDEAL_DAYS_AHEAD``     7
``secret``                 ``DAILYDEAL_SECRET``         None: use ``secret_file``
``secret_file``            ``DAILYDEAL_SECRET_FILE``    ``secret.key`` next to the database
``solve_max_nodes``        ``DAILYDEAL_MAX_NODES``      300 000 positions per candidate
``solve_time_limit``       ``DAILYDEAL_TIME_LIMIT``     30 s per candidate (a safety net)
``max_attempts``           ``DAILYDEAL_MAX_ATTEMPTS``   60 candidates per (date, game)
``jobs``                   ``DAILYDEAL_JOBS``           1 process
``games``                  ``DAILYDEAL_GAMES``          ``DAILY_GAMES`` (``gaps,pyramid:relaxed``)
=========================  ===========================  ==================================

The secret makes future deals unguessable (see ``dailydeal.daily.seeds``). When none is
configured it is created once (32 random bytes, hex, file mode 0600) and then reused, so a
restart never changes the seeds of days not yet generated.

The solver budget that decides whether a candidate is kept is a node count, not a time, so
the same secret gives the same days on any machine; the time limit only guards against a
pathological deal and should stay well above what ``solve_max_nodes`` takes: a solve it
cuts short fails its (date, game) for that run (see ``dailydeal.daily.generate``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets as _secrets
import stat
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dailydeal.games import default_variant

log = logging.getLogger(__name__)

#: The (game, variant) pairs dealt every day: the default variant of each game.
DAILY_GAMES: tuple[tuple[str, str], ...] = tuple(
    (game, default_variant(game)) for game in ("accordion", "pyramid", "gaps")
)

DEFAULT_DB = Path("data") / "dailydeal.db"
SECRET_FILENAME = "secret.key"


@dataclass
class Settings:
    """The settings of one instance; build it with ``Settings.from_env()``."""

    db_path: Path = field(default_factory=lambda: DEFAULT_DB)
    days_ahead: int = 7
    #: Explicit secret (text); None means read or create ``secret_file``.
    secret: str | None = None
    #: None means ``secret.key`` in the directory of the database.
    secret_file: Path | None = None
    solve_max_nodes: int | None = 300_000
    solve_time_limit: float | None = 30.0
    max_attempts: int = 60
    jobs: int = 1
    #: The (game, variant) pairs to generate; tests and tools may narrow it.
    games: tuple[tuple[str, str], ...] = DAILY_GAMES

    def __post_init__(self) -> None:
        self.db_path = Path(self.db_path)
        if self.secret_file is None:
            self.secret_file = self.db_path.parent / SECRET_FILENAME
        self.secret_file = Path(self.secret_file)
        if self.days_ahead < 0:
            raise ValueError("days_ahead must be >= 0")
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be >= 1")
        if self.jobs < 1:
            raise ValueError("jobs must be >= 1")

    @classmethod
    def from_env(cls, db_path: str | Path | None = None, **overrides: Any) -> Settings:
        """Settings from arguments, else ``DAILYDEAL_*`` environment variables, else defaults.

        ``None`` arguments are ignored, so CLI options can be passed through unchanged.
        """
        env = os.environ
        values: dict[str, Any] = {}
        for name, var, conv in _ENV:
            text = env.get(var)
            if text is not None and text != "":
                try:
                    values[name] = conv(text)
                except ValueError as exc:
                    raise ValueError(f"bad {var}={text!r}: {exc}") from None
        if db_path is not None:
            values["db_path"] = Path(db_path)
        known = {f.name for f in fields(cls)}
        for key, value in overrides.items():
            if key not in known:
                raise TypeError(f"unknown setting {key!r}")
            if value is not None:
                values[key] = value
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return replace(self, **changes)

    def secret_key(self) -> bytes:
        """The HMAC key: ``secret`` if set, else the secret file, created once if missing."""
        if self.secret is not None:
            if not self.secret:
                raise ValueError("the secret is empty")
            return self.secret.encode()
        assert self.secret_file is not None
        return load_or_create_secret(self.secret_file)


def parse_games(text: str) -> tuple[tuple[str, str], ...]:
    """``"accordion,gaps:redeals=3"`` -> ((game, variant), ...); no variant = the default."""
    from dailydeal.games import get_game

    out = []
    for item in text.split(","):
        name, _, variant = item.strip().partition(":")
        cls = get_game(name, variant or None)
        out.append((cls.name, cls.variant))
    if not out:
        raise ValueError("no game")
    return tuple(dict.fromkeys(out))


def _optional_int(text: str) -> int | None:
    return None if text.lower() == "none" else int(text)


def _optional_float(text: str) -> float | None:
    return None if text.lower() == "none" else float(text)


_ENV: tuple[tuple[str, str, Any], ...] = (
    ("db_path", "DAILYDEAL_DB", Path),
    ("days_ahead", "DAILYDEAL_DAYS_AHEAD", int),
    ("secret", "DAILYDEAL_SECRET", str),
    ("secret_file", "DAILYDEAL_SECRET_FILE", Path),
    ("solve_max_nodes", "DAILYDEAL_MAX_NODES", _optional_int),
    ("solve_time_limit", "DAILYDEAL_TIME_LIMIT", _optional_float),
    ("max_attempts", "DAILYDEAL_MAX_ATTEMPTS", int),
    ("jobs", "DAILYDEAL_JOBS", int),
    ("games", "DAILYDEAL_GAMES", parse_games),
)


def load_or_create_secret(path: Path) -> bytes:
    """Read the secret file; create it (mode 0600) if it does not exist yet.

    Creation is atomic: the secret is written to a private temporary file which is then
    hard-linked to ``path``, which fails if another process won the race, in which case
    its secret is read. A reader therefore never sees a half-written file.
    """
    try:
        return _read_secret(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{_secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (_secrets.token_hex(32) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
        log.warning("created a new server secret in %s (keep it: it defines future deals)", path)
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return _read_secret(path)


def _read_secret(path: Path) -> bytes:
    data = path.read_bytes().strip()
    if not data:
        raise ValueError(f"the secret file {path} is empty")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("the secret file %s is readable by others (mode %o); use 0600", path, mode)
    return data
