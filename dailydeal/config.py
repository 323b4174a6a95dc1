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
``solve_time_limit``       ``DAILYDEAL_TIME_LIMIT``     120 s per candidate (a safety net)
``max_attempts``           ``DAILYDEAL_MAX_ATTEMPTS``   60 candidates per (date, game)
``jobs``                   ``DAILYDEAL_JOBS``           1 process
``games``                  ``DAILYDEAL_GAMES``          ``DAILY_GAMES`` (``gaps,pyramid:relaxed``)
``webhooks``               ``DAILYDEAL_WEBHOOKS``       none (``dailydeal.daily.webhooks``)
``webhook_secret``         ``DAILYDEAL_WEBHOOK_SECRET`` none; needed by ``json=`` webhooks
``public_url``             ``DAILYDEAL_PUBLIC_URL``     none; needed by webhooks (their links)
=========================  ===========================  ==================================

The secret makes future deals unguessable (see ``dailydeal.daily.seeds``). When none is
configured it is created once (32 random bytes, hex, file mode 0600) and then reused, so a
restart never changes the seeds of days not yet generated. A configured secret (variable or
file) shorter than 32 bytes or of low entropy is refused (``check_secret``): one published
seed lets anyone try guesses offline, and a guessed secret gives every future deal.

A bad setting raises ``SettingsError`` with a one-line message naming the variable; the
command line prints it and exits 1.

The solver budget that decides whether a candidate is kept is a node count, not a time, so
the same secret gives the same days on any machine; the time limit only guards against a
pathological deal and should stay well above what ``solve_max_nodes`` takes: a solve it
cuts short fails its (date, game) for that run (see ``dailydeal.daily.generate``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets as _secrets
import stat
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dailydeal.games import DAILY, default_variant

log = logging.getLogger(__name__)

#: The (game, variant) pairs dealt every day: the default variant of each game.
DAILY_GAMES: tuple[tuple[str, str], ...] = tuple(
    (game, default_variant(game)) for game in DAILY
)

DEFAULT_DB = Path("data") / "dailydeal.db"
SECRET_FILENAME = "secret.key"
MIN_SECRET_BYTES = 32
#: Estimated bits (``secret_entropy``) below which a secret is refused. 32 random hex
#: digits (128 bits) score about 90 to 140; 64 (what is created) about 210 to 270.
MIN_SECRET_BITS = 80
MAKE_A_SECRET = "make one with `openssl rand -hex 32`"


class SettingsError(ValueError):
    """A setting, or a file a setting names, that cannot be used (a one-line message)."""


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
    #: Well above what ``solve_max_nodes`` takes: a slow Pyramid deal spends its 300 000
    #: nodes in about 30 s on a busy 2-core machine (measured), and the clock must not be
    #: what ends a solve (see ``dailydeal.daily.generate``).
    solve_time_limit: float | None = 120.0
    max_attempts: int = 60
    jobs: int = 1
    #: The (game, variant) pairs to generate; tests and tools may narrow it.
    games: tuple[tuple[str, str], ...] = DAILY_GAMES
    #: (format, URL) pairs the scheduler posts each newly begun date to.
    webhooks: tuple[tuple[str, str], ...] = ()
    webhook_secret: str | None = None
    public_url: str | None = None

    def __post_init__(self) -> None:
        self.db_path = Path(self.db_path)
        if self.secret_file is None:
            self.secret_file = self.db_path.parent / SECRET_FILENAME
        self.secret_file = Path(self.secret_file)
        for name, value, low in (
            ("days_ahead", self.days_ahead, 0),
            ("max_attempts", self.max_attempts, 1),
            ("jobs", self.jobs, 1),
            ("solve_max_nodes", self.solve_max_nodes, 0),
            ("solve_time_limit", self.solve_time_limit, 0),
        ):
            if value is not None and not value >= low:  # "not >=": NaN is refused too
                raise SettingsError(f"{name} ({_VARIABLE[name]}) must be >= {low}, not {value}")

    @classmethod
    def from_env(cls, db_path: str | Path | None = None, **overrides: Any) -> Settings:
        """Settings from arguments, else ``DAILYDEAL_*`` environment variables, else defaults.

        ``None`` arguments are ignored, so CLI options can be passed through unchanged.
        """
        env = os.environ
        values: dict[str, Any] = {}
        for name, var, conv, expected in _ENV:
            text = env.get(var)
            if text is not None and text != "":
                try:
                    values[name] = conv(text)
                except ValueError as exc:
                    reason = str(exc) if not expected else expected
                    shown = "" if var in _CREDENTIALS else f"={text[:80]!r}"
                    raise SettingsError(f"bad {var}{shown}: {reason}") from None
        if db_path is not None:
            values["db_path"] = Path(db_path)
        known = {f.name for f in fields(cls)}
        for key, value in overrides.items():
            if key not in known:
                raise TypeError(f"unknown setting {key!r}")
            if value is not None:
                values[key] = value
        settings = cls(**values)
        if settings.secret is not None:  # refused now, before any work starts
            check_secret(settings.secret.encode(), "DAILYDEAL_SECRET")
        settings.check_webhooks()
        return settings

    def check_webhooks(self) -> None:
        """Webhooks need absolute links, and signed ones a strong secret: refused at once."""
        if not self.webhooks:
            return
        if not self.public_url:
            raise SettingsError(
                "DAILYDEAL_WEBHOOKS needs DAILYDEAL_PUBLIC_URL (the links they post are absolute)"
            )
        if any(kind == "json" for kind, _ in self.webhooks):
            if self.webhook_secret is None:
                raise SettingsError(
                    "a json= webhook is signed: set DAILYDEAL_WEBHOOK_SECRET; " + MAKE_A_SECRET
                )
            check_secret(self.webhook_secret.encode(), "DAILYDEAL_WEBHOOK_SECRET")

    def with_(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return replace(self, **changes)

    def secret_key(self) -> bytes:
        """The HMAC key: ``secret`` if set, else the secret file, created once if missing."""
        if self.secret is not None:
            return check_secret(self.secret.encode(), "DAILYDEAL_SECRET")
        assert self.secret_file is not None
        path = self.secret_file
        return check_secret(load_or_create_secret(path), f"the secret file {path}")


def secret_entropy(secret: bytes) -> float:
    """A rough estimate of a secret's entropy in bits: the Shannon entropy of its byte
    frequencies times its length, where repeats are discounted (the length counts at most
    the distinct 3-byte windows, + 2). Random text scores near its true entropy; repeated
    words, a small alphabet or a run of one character score low."""
    n = len(secret)
    if n == 0:
        return 0.0
    per_byte = -sum(c / n * math.log2(c / n) for c in Counter(secret).values())
    windows = len({secret[i : i + 3] for i in range(n - 2)})
    return per_byte * min(n, windows + 2)


def check_secret(secret: bytes, source: str) -> bytes:
    """``secret`` if it is long and random enough, else ``SettingsError`` naming ``source``."""
    if len(secret) < MIN_SECRET_BYTES:
        raise SettingsError(
            f"{source} is too short: {len(secret)} bytes, at least {MIN_SECRET_BYTES} "
            f"needed; {MAKE_A_SECRET}"
        )
    bits = secret_entropy(secret)
    if bits < MIN_SECRET_BITS:
        raise SettingsError(
            f"{source} has too little entropy (about {bits:.0f} bits: repeats or few "
            f"distinct characters; {MIN_SECRET_BITS} needed); {MAKE_A_SECRET}"
        )
    return secret


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


WEBHOOK_FORMATS = ("slack", "discord", "json")
MAX_WEBHOOKS = 20


def parse_webhooks(text: str) -> tuple[tuple[str, str], ...]:
    """``"slack=https://hooks.slack.com/... json=https://example.org/hook"`` (separated by
    spaces or commas) -> ((format, URL), ...); a readable ValueError for anything else."""
    out = []
    items = text.replace(",", " ").split()
    if len(items) > MAX_WEBHOOKS:
        raise ValueError(f"at most {MAX_WEBHOOKS} webhooks, not {len(items)}")
    for n, item in enumerate(items, 1):
        kind, sep, url = item.partition("=")
        if not sep or kind not in WEBHOOK_FORMATS:
            raise ValueError(
                f"webhook {n} is not FORMAT=URL with FORMAT one of {', '.join(WEBHOOK_FORMATS)}"
            )
        check_url(url, f"webhook {n}", show=False)  # its path is often its secret
        out.append((kind, url))
    return tuple(dict.fromkeys(out))


def check_url(url: str, what: str, show: bool = True) -> str:
    """``url`` if it is an http(s) URL with a host, else ValueError (which quotes the URL
    only when ``show``: a webhook URL is a credential)."""
    from urllib.parse import urlsplit

    quoted = f": {url[:60]!r}" if show else ""
    if len(url) > 2000 or not url.isascii() or not url.isprintable():
        raise ValueError(f"{what} must be a printable ASCII URL of at most 2000 characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (reads and checks the port)
    except ValueError:
        raise ValueError(f"{what} is not a URL{quoted}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{what} must be an http:// or https:// URL with a host{quoted}")
    return url


def _public_url(text: str) -> str:
    return check_url(text, "the public URL")


def _optional_int(text: str) -> int | None:
    return None if text.lower() == "none" else int(text)


def _optional_float(text: str) -> float | None:
    return None if text.lower() == "none" else float(text)


_WHOLE = "expected a whole number"
#: (setting, variable, parser, what a bad value is told)
_ENV: tuple[tuple[str, str, Any, str], ...] = (
    ("db_path", "DAILYDEAL_DB", Path, ""),
    ("days_ahead", "DAILYDEAL_DAYS_AHEAD", int, _WHOLE),
    ("secret", "DAILYDEAL_SECRET", str, ""),
    ("secret_file", "DAILYDEAL_SECRET_FILE", Path, ""),
    ("solve_max_nodes", "DAILYDEAL_MAX_NODES", _optional_int, _WHOLE + " or none"),
    ("solve_time_limit", "DAILYDEAL_TIME_LIMIT", _optional_float, "expected seconds or none"),
    ("max_attempts", "DAILYDEAL_MAX_ATTEMPTS", int, _WHOLE),
    ("jobs", "DAILYDEAL_JOBS", int, _WHOLE),
    ("games", "DAILYDEAL_GAMES", parse_games, ""),
    ("webhooks", "DAILYDEAL_WEBHOOKS", parse_webhooks, ""),
    ("webhook_secret", "DAILYDEAL_WEBHOOK_SECRET", str, ""),
    ("public_url", "DAILYDEAL_PUBLIC_URL", _public_url, ""),
)
_VARIABLE = {name: var for name, var, _, _ in _ENV}
_CREDENTIALS = ("DAILYDEAL_WEBHOOKS", "DAILYDEAL_WEBHOOK_SECRET")  # never quoted in errors


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
    except OSError as exc:
        raise SettingsError(f"cannot read the secret file {path}: {exc.strerror}") from None
    try:
        return _create_secret(path)
    except OSError as exc:
        raise SettingsError(f"cannot create the secret file {path}: {exc.strerror}") from None


def _create_secret(path: Path) -> bytes:
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
        raise SettingsError(f"the secret file {path} is empty; {MAKE_A_SECRET}")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("the secret file %s is readable by others (mode %o); use 0600", path, mode)
    return data
