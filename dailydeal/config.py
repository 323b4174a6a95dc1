"""Instance settings: every ``DAILYDEAL_*`` variable, in one ``Settings`` object.

Each field of ``Settings`` names its variable (``Var``): ``Settings.from_env()`` reads them
(explicit arguments win over environment variables, which win over the field defaults), the
web app reads the same object (``dailydeal.web.extensions.settings()``: one name per
setting, its field, never a copy under another key), and the README's table documents
every variable that ``variables()`` lists (tests/test_docs.py). An empty variable counts as unset.

The secret makes future deals unguessable (see ``dailydeal.daily.seeds``). When none is
configured it is created once (32 random bytes, hex, file mode 0600) and then reused, so a
restart never changes the seeds of days not yet generated. A configured secret (variable or
file) shorter than 32 bytes or of low entropy is refused (``check_secret``): one published
seed lets anyone try guesses offline, and a guessed secret gives every future deal.

A bad setting raises ``SettingsError`` with a one-line message naming the variable and what
is expected (``bad DAILYDEAL_DAYS_AHEAD='abc': expected a whole number``); the command line
prints it and exits 1, and a web worker fails to start with it.

The solver budget that decides whether a candidate is kept is a node count, not a time, so
the same secret gives the same days on any machine; the time limit only guards against a
pathological deal and should stay well above what ``solve_max_nodes`` takes: a solve it
cuts short fails its (date, game) for that run (see ``dailydeal.daily.generate``).

Plain dataclasses and not pydantic-settings: importing pydantic-settings costs about 0.3 to
0.6 s of CPU (``python -X importtime``), several times the whole start-up of a command.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import os
import secrets as _secrets
import stat
from collections import Counter
from collections.abc import Callable
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
SIGNING_KEYS_FILENAME = "signing.keys"  # dailydeal.results.signing
MIN_SECRET_BYTES = 32
#: Estimated bits (``secret_entropy``) below which a secret is refused. 32 random hex
#: digits (128 bits) score about 90 to 140; 64 (what is created) about 210 to 270.
MIN_SECRET_BITS = 80
MAKE_A_SECRET = "make one with `openssl rand -hex 32`"


class SettingsError(ValueError):
    """A setting, or a file a setting names, that cannot be used (a one-line message)."""


_WHOLE = "expected a whole number"


@dataclass(frozen=True)
class Var:
    """How one setting is read: its environment variable, parser and bounds."""

    name: str
    parse: Callable[[str], Any] = str
    #: What a value the parser refuses is told; "" shows the parser's own message.
    expected: str = ""
    #: The least number allowed (None: not a number, or no bound).
    low: int | None = None
    #: A rate limit such as ``60 per minute`` (checked by ``check_rate_limits``).
    rate_limit: bool = False
    #: Never quoted in an error (it is, or may contain, a credential).
    credential: bool = False


def setting(default: Any, var: Var) -> Any:
    """A field of ``Settings``: its default and how its variable is read."""
    return field(default=default, metadata={"var": var})


def _optional_int(text: str) -> int | None:
    return None if text.lower() == "none" else int(text)


def _optional_float(text: str) -> float | None:
    return None if text.lower() == "none" else float(text)


def _whole(name: str, low: int, optional: bool = False) -> Var:
    parse = _optional_int if optional else int
    return Var(name, parse, _WHOLE + (" or none" if optional else ""), low)


def _limit(name: str) -> Var:
    return Var(name, rate_limit=True)


@dataclass
class Settings:
    """The settings of one instance; build it with ``Settings.from_env()``."""

    db_path: Path = setting(DEFAULT_DB, Var("DAILYDEAL_DB", Path))
    days_ahead: int = setting(7, _whole("DAILYDEAL_DAYS_AHEAD", 0))
    #: Explicit secret (text); None means read or create ``secret_file``.
    secret: str | None = setting(None, Var("DAILYDEAL_SECRET", credential=True))
    #: None means ``secret.key`` in the directory of the database.
    secret_file: Path | None = setting(None, Var("DAILYDEAL_SECRET_FILE", Path))
    #: The Ed25519 keys that sign solves (dailydeal.results.signing); None means
    #: ``signing.keys`` in the directory of the database. Created once, shared by every node.
    signing_keys_file: Path | None = setting(None, Var("DAILYDEAL_SIGNING_KEYS_FILE", Path))
    solve_max_nodes: int | None = setting(
        300_000, _whole("DAILYDEAL_MAX_NODES", 0, optional=True)
    )
    #: Well above what ``solve_max_nodes`` takes: a slow Pyramid deal spends its 300 000
    #: nodes in about 30 s on a busy 2-core machine (measured), and the clock must not be
    #: what ends a solve (see ``dailydeal.daily.generate``).
    solve_time_limit: float | None = setting(
        120.0, Var("DAILYDEAL_TIME_LIMIT", _optional_float, "expected seconds or none", 0)
    )
    max_attempts: int = setting(60, _whole("DAILYDEAL_MAX_ATTEMPTS", 1))
    jobs: int = setting(1, _whole("DAILYDEAL_JOBS", 1))
    #: The (game, variant) pairs to generate and serve; tests and tools may narrow it.
    games: tuple[tuple[str, str], ...] = setting(
        DAILY_GAMES, Var("DAILYDEAL_GAMES", lambda text: parse_games(text))
    )
    #: (format, URL) pairs the scheduler posts each newly begun date to.
    webhooks: tuple[tuple[str, str], ...] = setting(
        (), Var("DAILYDEAL_WEBHOOKS", lambda text: parse_webhooks(text), credential=True)
    )
    webhook_secret: str | None = setting(
        None, Var("DAILYDEAL_WEBHOOK_SECRET", credential=True)
    )
    #: Let webhooks reach loopback, private and link-local addresses (local testing only:
    #: otherwise a hook's URL could make the scheduler probe its own network).
    webhook_private: bool = setting(
        False, Var("DAILYDEAL_WEBHOOK_PRIVATE", lambda text: parse_flag(text),
                   "expected 1 or 0 (true or false)")
    )
    #: Absolute base of links (feeds, previews, webhooks); never a request's Host.
    public_url: str | None = setting(
        None, Var("DAILYDEAL_PUBLIC_URL", lambda text: _public_url(text))
    )

    # --- the web API's own (dailydeal.web) -------------------------------------------
    verify_rate_limit: str = setting(
        "60 per minute", _limit("DAILYDEAL_VERIFY_LIMIT")
    )
    #: A budget of its own: a player's page asks for the state after every click.
    state_rate_limit: str = setting(
        "600 per minute", _limit("DAILYDEAL_STATE_LIMIT")
    )
    #: The rate limits' storage (a limits URI); None: ``redis_url`` if set, else ``memory://``
    #: (per worker).
    ratelimit_storage: str | None = setting(
        None, Var("DAILYDEAL_RATELIMIT_STORAGE")
    )
    #: The Redis shared by several API nodes (results, statistics, and the rate limits
    #: unless ``ratelimit_storage`` is set): one setting makes a node a cluster member.
    #: A generator with it records each deal's first commitment time there (daily/shared.py).
    redis_url: str | None = setting(None, Var("DAILYDEAL_REDIS_URL"))
    #: The addresses and networks of the reverse proxies in front: X-Forwarded-For is read
    #: only from a peer among them, right to left past them (dailydeal.web.proxies).
    trusted_proxies: tuple[Network, ...] = setting(
        (), Var("DAILYDEAL_TRUSTED_PROXIES", lambda text: parse_networks(text))
    )
    #: Replaced by ``trusted_proxies``: a count trusted whoever reached the API directly
    #: (issue 39 item 6); any value but 0 is refused, with the line that says what to set.
    proxies: int = setting(0, Var("DAILYDEAL_PROXIES", lambda text: _no_proxy_count(text)))
    #: Hints per network without a play token; with one, per play (``web/hints.py``).
    hint_rate_limit: str = setting(
        "20 per minute", _limit("DAILYDEAL_HINT_LIMIT")
    )
    #: Hints with a play token, all the plays of one network together.
    hint_network_rate_limit: str = setting(
        "600 per minute", _limit("DAILYDEAL_HINT_NETWORK_LIMIT")
    )
    #: The prefix lengths that make one network of client addresses, for every budget
    #: (``web/extensions.network``): an IPv4 address alone, an IPv6 /64 (one subscriber).
    network_v4_prefix: int = setting(32, _whole("DAILYDEAL_NETWORK_V4", 0))
    network_v6_prefix: int = setting(64, _whole("DAILYDEAL_NETWORK_V6", 0))
    #: The solver's node budget per hint; None: the game's (dailydeal.hints.MAX_NODES).
    hint_max_nodes: int | None = setting(
        None, _whole("DAILYDEAL_HINT_MAX_NODES", 0, optional=True)
    )
    #: Seconds, a safety net that answers 503.
    hint_time_limit: float = setting(
        10.0, Var("DAILYDEAL_HINT_TIME_LIMIT", float, "expected seconds", 0)
    )
    #: Solver processes per worker (dailydeal.solverpool); 0 searches in the worker.
    hint_processes: int = setting(1, _whole("DAILYDEAL_HINT_PROCESSES", 0))
    #: Hints waiting per worker before a 503.
    hint_queue: int = setting(8, _whole("DAILYDEAL_HINT_QUEUE", 0))
    results_rate_limit: str = setting(
        "60 per minute", _limit("DAILYDEAL_RESULTS_LIMIT")
    )
    #: How fast one network's results of one deal are counted: evenly spaced, one every
    #: period / amount (a result posted sooner waits, pending, for its turn).
    counted_rate_limit: str = setting(
        "1 per minute", _limit("DAILYDEAL_COUNTED_LIMIT")
    )
    plays_rate_limit: str = setting(
        "3000 per day", _limit("DAILYDEAL_PLAYS_LIMIT")
    )
    stats_rate_limit: str = setting(
        "600 per minute", _limit("DAILYDEAL_STATS_LIMIT")
    )
    #: Preview pictures answered by the API (not nginx's cache) per client address.
    picture_rate_limit: str = setting(
        "120 per minute", _limit("DAILYDEAL_PICTURE_LIMIT")
    )
    #: Days after a deal's solution opens that its move lists are kept.
    results_retention_days: float = setting(
        30.0,
        Var("DAILYDEAL_RESULTS_RETENTION_DAYS", float, "expected days", 0),
    )
    #: The least play time per move of a counted result (dailydeal.results.plays).
    min_seconds_per_move: float = setting(
        0.5,
        Var("DAILYDEAL_MIN_SECONDS_PER_MOVE", float, "expected seconds", 0),
    )

    def __post_init__(self) -> None:
        self.db_path = Path(self.db_path)
        if self.secret_file is None:
            self.secret_file = self.db_path.parent / SECRET_FILENAME
        self.secret_file = Path(self.secret_file)
        if self.signing_keys_file is None:
            self.signing_keys_file = self.db_path.parent / SIGNING_KEYS_FILENAME
        self.signing_keys_file = Path(self.signing_keys_file)
        for name, var in variables():
            value = getattr(self, name)
            if var.low is None or value is None:
                continue
            # "not >=": NaN is refused too; True is no number of processes
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not value >= var.low:
                raise SettingsError(f"{var.name} must be a number >= {var.low}, not {value!r}")
        for name, most in (("network_v4_prefix", 32), ("network_v6_prefix", 128)):
            if getattr(self, name) > most:
                var = dict(variables())[name]
                raise SettingsError(f"{var.name} must be a prefix length 0..{most}, "
                                    f"not {getattr(self, name)!r}")
        if self.redis_url is not None:
            check_redis_url(self.redis_url)
        if isinstance(self.trusted_proxies, str):  # as a test or a caller writes it
            self.trusted_proxies = parse_networks(self.trusted_proxies)
        if self.proxies:
            raise SettingsError(PROXY_COUNT_GONE)

    @classmethod
    def from_env(cls, db_path: str | Path | None = None, **overrides: Any) -> Settings:
        """Settings from arguments, else ``DAILYDEAL_*`` environment variables, else defaults.

        ``None`` arguments are ignored, so CLI options can be passed through unchanged.
        """
        values: dict[str, Any] = {}
        for name, var in variables():
            text = os.environ.get(var.name)
            if text is not None and text != "":
                values[name] = read(var, text)
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

    def ratelimit_storage_uri(self) -> str:
        """Where the rate limits count: one setting for a cluster, its Redis counts them too."""
        return self.ratelimit_storage or self.redis_url or "memory://"

    def check_rate_limits(self) -> None:
        """Refuse a rate limit limits cannot read: it would otherwise fail, or
        silently not limit, at the first request. Not in ``__post_init__``: the parser's
        module costs a command that never serves about half a second to import."""
        from limits import parse_many

        for name, var in variables():
            text = str(getattr(self, name))
            if not var.rate_limit:
                continue
            try:
                if not parse_many(text):
                    raise ValueError(text)
            except ValueError:
                raise SettingsError(
                    f"{var.name} must be a rate limit such as '60 per minute', not {text[:80]!r}"
                ) from None

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


def variables() -> list[tuple[str, Var]]:
    """(field name, variable) of every setting, in the order of ``Settings``."""
    return [(f.name, f.metadata["var"]) for f in fields(Settings)]


def read(var: Var, text: str) -> Any:
    """The value of ``var`` written as ``text``, else a one-line ``SettingsError`` naming
    the variable and what is expected (a credential's text is never quoted)."""
    try:
        return var.parse(text)
    except ValueError as exc:
        reason = var.expected or str(exc)
        shown = "" if var.credential else f"={text[:80]!r}"
        raise SettingsError(f"bad {var.name}{shown}: {reason}") from None


def check_redis_url(url: str) -> str:
    """``url`` if it names a Redis and the client is installed, else ``SettingsError``."""
    if not str(url).startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError(
            "DAILYDEAL_REDIS_URL must be a redis://, rediss:// or unix:// URL, "
            f"not {str(url)[:80]!r}"
        )
    try:
        import redis  # noqa: F401
    except ImportError:
        raise SettingsError(
            "DAILYDEAL_REDIS_URL needs the redis client: "
            "pip install 'dailydeal[redis]'"
        ) from None
    return url


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


def parse_flag(text: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``, else ValueError."""
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected 1 or 0, not {text[:20]!r}")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
PROXY_COUNT_GONE = (
    "DAILYDEAL_PROXIES is no longer read (a count trusted whoever reached the API "
    "directly): set DAILYDEAL_TRUSTED_PROXIES to the proxies' addresses instead, e.g. "
    "127.0.0.1 behind nginx on this machine (deploy/README.md)"
)


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"127.0.0.1, 10.0.0.0/8 ::1"`` (separated by commas or spaces) -> the networks; an
    address is a network of one. A readable ValueError for anything else."""
    out = []
    for item in text.replace(",", " ").split():
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(
                f"{item[:60]!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
            ) from None
    return tuple(dict.fromkeys(out))


def _no_proxy_count(text: str) -> int:
    if text.strip() == "0":
        return 0
    raise ValueError(PROXY_COUNT_GONE.removeprefix("DAILYDEAL_PROXIES is "))


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
    if create_once(path, _secrets.token_hex(32) + "\n"):
        log.warning("created a new server secret in %s (keep it: it defines future deals)", path)
    return _read_secret(path)


def private_file_beside(path: Path, text: str) -> Path:
    """``text`` in a fresh private file (mode 0600) beside ``path``: its name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{_secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    return tmp


def create_once(path: Path, text: str) -> bool:
    """Make ``path`` a private file holding ``text`` unless it exists: whether this call
    made it. Written aside then hard-linked, so a reader never sees half of it, and of two
    processes starting at once the second finds the first's file and keeps it."""
    tmp = private_file_beside(path, text)
    try:
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _read_secret(path: Path) -> bytes:
    data = path.read_bytes().strip()
    if not data:
        raise SettingsError(f"the secret file {path} is empty; {MAKE_A_SECRET}")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("the secret file %s is readable by others (mode %o); use 0600", path, mode)
    return data
