"""Settings: environment, overrides, the secret file (created once, mode 0600, reused)."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from dailydeal.config import (
    DAILY_GAMES,
    Settings,
    SettingsError,
    load_or_create_secret,
    parse_games,
    variables,
)
from dailydeal.games import GAMES, default_variant

ENV_VARS = tuple(var.name for _, var in variables())


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_daily_games_are_the_default_variants() -> None:
    assert DAILY_GAMES == tuple((g, default_variant(g)) for g in ("accordion", "pyramid", "gaps"))
    assert {g for g, _ in DAILY_GAMES} == set(GAMES)


def test_defaults(clean_env: pytest.MonkeyPatch) -> None:
    s = Settings.from_env()
    assert s.db_path == Path("data/dailydeal.db")
    assert s.days_ahead == 7
    assert s.secret is None
    assert s.secret_file == Path("data/secret.key")
    assert s.games == DAILY_GAMES
    assert s.jobs == 1


def test_environment_and_overrides(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("DAILYDEAL_DB", str(tmp_path / "env.db"))
    clean_env.setenv("DAILYDEAL_DAYS_AHEAD", "3")
    clean_env.setenv("DAILYDEAL_MAX_NODES", "none")
    clean_env.setenv("DAILYDEAL_TIME_LIMIT", "2.5")
    clean_env.setenv("DAILYDEAL_GAMES", "gaps:addiction,pyramid")
    s = Settings.from_env()
    assert s.db_path == tmp_path / "env.db"
    assert s.secret_file == tmp_path / "secret.key"  # follows the database
    assert (s.days_ahead, s.solve_max_nodes, s.solve_time_limit) == (3, None, 2.5)
    assert s.games == (("gaps", "redeals=3"), ("pyramid", "relaxed"))
    # arguments win over the environment; None means "not given"
    t = Settings.from_env(tmp_path / "arg.db", days_ahead=None, jobs=2)
    assert (t.db_path, t.days_ahead, t.jobs) == (tmp_path / "arg.db", 3, 2)
    assert t.secret_file == tmp_path / "secret.key"
    clean_env.setenv("DAILYDEAL_SECRET_FILE", str(tmp_path / "elsewhere" / "k"))
    assert Settings.from_env().secret_file == tmp_path / "elsewhere" / "k"


def test_bad_values(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.raises(TypeError):
        Settings.from_env(no_such_setting=1)
    clean_env.setenv("DAILYDEAL_DAYS_AHEAD", "soon")
    with pytest.raises(ValueError, match="DAILYDEAL_DAYS_AHEAD"):
        Settings.from_env()
    with pytest.raises(ValueError):
        Settings(days_ahead=-1)
    with pytest.raises(ValueError):
        parse_games("chess")


# a value each variable refuses, and the words its one line says (a credential is never
# quoted); every variable with a parser or a bound is here (checked below)
BAD = {
    "DAILYDEAL_DAYS_AHEAD": ("abc", "='abc': expected a whole number"),
    "DAILYDEAL_MAX_NODES": ("lots", "='lots': expected a whole number or none"),
    "DAILYDEAL_TIME_LIMIT": ("soon", "='soon': expected seconds or none"),
    "DAILYDEAL_MAX_ATTEMPTS": ("0", "must be a number >= 1, not 0"),
    "DAILYDEAL_JOBS": ("1.5", "='1.5': expected a whole number"),
    "DAILYDEAL_GAMES": ("chess", "unknown game 'chess'"),
    "DAILYDEAL_WEBHOOKS": ("ftp=x", "webhook 1 is not FORMAT=URL"),
    "DAILYDEAL_WEBHOOK_PRIVATE": ("maybe", "='maybe': expected 1 or 0 (true or false)"),
    "DAILYDEAL_PUBLIC_URL": ("cards.example", "must be an http:// or https:// URL"),
    "DAILYDEAL_REDIS_URL": ("localhost:6379", "must be a redis://, rediss:// or unix:// URL"),
    "DAILYDEAL_PROXIES": ("1", "='1': no longer read (a count trusted whoever reached"),
    "DAILYDEAL_TRUSTED_PROXIES": ("nginx", "'nginx' is not an IP address or network"),
    "DAILYDEAL_HINT_MAX_NODES": ("-1", "must be a number >= 0, not -1"),
    "DAILYDEAL_HINT_TIME_LIMIT": ("nan", "must be a number >= 0, not nan"),
    "DAILYDEAL_HINT_PROCESSES": ("two", "='two': expected a whole number"),
    "DAILYDEAL_HINT_QUEUE": ("-3", "must be a number >= 0, not -3"),
    "DAILYDEAL_RESULTS_RETENTION_DAYS": ("a month", "='a month': expected days"),
    "DAILYDEAL_MIN_SECONDS_PER_MOVE": ("-0.5", "must be a number >= 0, not -0.5"),
    "DAILYDEAL_NETWORK_V4": ("33", "must be a prefix length 0..32, not 33"),
    "DAILYDEAL_NETWORK_V6": ("/64", "='/64': expected a whole number"),
}


def test_every_checked_variable_has_a_bad_value_here() -> None:
    checked = {var.name for _, var in variables()
               if var.parse not in (str, Path) or var.low is not None}
    assert checked | {"DAILYDEAL_REDIS_URL"} == set(BAD)  # a URL checked after reading


@pytest.mark.parametrize("var", sorted(BAD))
def test_a_bad_variable_is_one_line_naming_it(var: str, clean_env: pytest.MonkeyPatch) -> None:
    text, words = BAD[var]
    clean_env.setenv(var, text)
    with pytest.raises(SettingsError) as err:
        Settings.from_env()
    message = str(err.value)
    assert var in message and words in message and "\n" not in message, message


@pytest.mark.parametrize("var", [var.name for _, var in variables() if var.rate_limit])
def test_a_bad_rate_limit_is_one_line_naming_it(var: str, clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv(var, "10 per fortnight")
    settings = Settings.from_env()  # read: checked when an app is made
    with pytest.raises(SettingsError) as err:
        settings.check_rate_limits()
    assert var in str(err.value) and "'10 per fortnight'" in str(err.value)


def test_an_empty_variable_is_unset(clean_env: pytest.MonkeyPatch) -> None:
    for var in ENV_VARS:
        clean_env.setenv(var, "")
    assert Settings.from_env() == Settings()


def test_the_app_reads_the_settings(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The web reads the same object, under one name per setting (no copy in the Flask
    config), and one Redis URL also stores the rate limits unless a storage of their own
    is set."""
    from limits.storage import RedisStorage

    from dailydeal.web import create_app
    from dailydeal.web.extensions import RATE_LIMITS, SETTINGS

    clean_env.setenv("DAILYDEAL_DB", str(tmp_path / "w.db"))
    clean_env.setenv("DAILYDEAL_HINT_QUEUE", "3")
    clean_env.setenv("DAILYDEAL_STATE_LIMIT", "5 per second")
    clean_env.setenv("DAILYDEAL_REDIS_URL", "redis://10.0.0.5:6379/0")
    settings = Settings.from_env()
    app = create_app()
    assert app.extensions[SETTINGS] == settings
    assert (settings.db_path, settings.hint_queue) == (tmp_path / "w.db", 3)
    assert settings.state_rate_limit == "5 per second"
    assert not {"DATABASE", "HINT_QUEUE", "STATE_RATE_LIMIT", "REDIS_URL"} & set(app.config)
    assert settings.ratelimit_storage_uri() == "redis://10.0.0.5:6379/0"
    assert isinstance(app.extensions[RATE_LIMITS].storage, RedisStorage)  # on that Redis
    clean_env.setenv("DAILYDEAL_RATELIMIT_STORAGE", "memory://")
    assert Settings.from_env().ratelimit_storage_uri() == "memory://"
    with pytest.raises(SettingsError, match=r"DAILYDEAL_HINT_QUEUE must be a "):
        create_app({"db_path": tmp_path / "t.db", "hint_queue": "8"})  # a test's is checked


def test_explicit_secret_wins(tmp_path: Path) -> None:
    s = Settings(db_path=tmp_path / "d.db", secret=STRONG)
    assert s.secret_key() == STRONG.encode()
    assert not (tmp_path / "secret.key").exists()  # nothing written
    with pytest.raises(ValueError):
        Settings(db_path=tmp_path / "d.db", secret="").secret_key()


def test_secret_created_once_private_and_reused(tmp_path: Path) -> None:
    s = Settings(db_path=tmp_path / "inst" / "d.db")
    key = s.secret_key()
    path = tmp_path / "inst" / "secret.key"
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(key) == 64 and bytes.fromhex(key.decode())  # 32 random bytes in hex
    # a restart (a new Settings object, a new process reading the file) gets the same key
    assert Settings(db_path=tmp_path / "inst" / "d.db").secret_key() == key
    # another instance gets another key
    assert Settings(db_path=tmp_path / "other" / "d.db").secret_key() != key


def test_secret_creation_race(tmp_path: Path) -> None:
    path = tmp_path / "secret.key"
    keys: list[bytes] = []
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        keys.append(load_or_create_secret(path))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["secret.key"]  # no temporary left


def test_empty_secret_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "secret.key"
    path.write_text("\n")
    os.chmod(path, 0o600)
    with pytest.raises(ValueError, match="empty"):
        load_or_create_secret(path)


STRONG = "3f9a1c0e8b7d6a5f4e3d2c1b0a998877665544332211ffeeddccbbaa00112233"


@pytest.mark.parametrize(
    "weak,words",
    [
        ("sunshine", "too short"),
        ("s3cret-but-only-31-bytes-long!!", "too short"),
        ("sunshine" * 8, "too little entropy"),
        ("a" * 64, "too little entropy"),
        ("0123456789" * 4, "too little entropy"),
    ],
)
def test_weak_secrets_are_refused(
    weak: str, words: str, clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(SettingsError, match=words) as err:
        Settings(db_path=tmp_path / "d.db", secret=weak).secret_key()
    assert "\n" not in str(err.value) and "openssl rand -hex 32" in str(err.value)
    clean_env.setenv("DAILYDEAL_SECRET", weak)
    with pytest.raises(SettingsError, match="DAILYDEAL_SECRET"):
        Settings.from_env(tmp_path / "d.db")  # refused before any work starts
    clean_env.delenv("DAILYDEAL_SECRET")
    path = tmp_path / "weak.key"
    path.write_text(weak + "\n")
    os.chmod(path, 0o600)
    with pytest.raises(SettingsError, match=f"secret file {path}"):
        Settings(db_path=tmp_path / "d.db", secret_file=path).secret_key()


# named, not by value: a fresh random secret each run, the same test ids (pytest-xdist)
@pytest.mark.parametrize("strong", [STRONG, secrets.token_hex(16), secrets.token_urlsafe(32)],
                         ids=["fixed", "random-hex", "random-urlsafe"])
def test_strong_secrets_are_accepted(strong: str, tmp_path: Path) -> None:
    assert Settings(db_path=tmp_path / "d.db", secret=strong).secret_key() == strong.encode()


def test_secret_files_are_ignored_by_git() -> None:
    root = Path(__file__).resolve().parent.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git work tree")
    for name in ("data/secret.key", "data/.secret.key.123.abcd", "elsewhere/prod.key"):
        ignored = subprocess.run(["git", "check-ignore", "-q", name], cwd=root)
        assert ignored.returncode == 0, f"{name} is not git-ignored"


def test_systemd_units_keep_new_files_private() -> None:
    deploy = Path(__file__).resolve().parent.parent / "deploy"
    units = sorted(deploy.glob("*.service"))
    assert units
    for unit in units:
        assert re.search(r"^UMask=0077$", unit.read_text(), re.M), unit.name


def test_the_web_app_refuses_a_bad_setting(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A worker (gunicorn's ``create_app()``) stops with the one line, as the CLI does;
    a test's config is checked as the environment is."""
    from dailydeal.web import create_app
    from dailydeal.web.extensions import SETTINGS

    clean_env.setenv("DAILYDEAL_DB", str(tmp_path / "w.db"))
    clean_env.setenv("DAILYDEAL_HINT_PROCESSES", "many")
    with pytest.raises(SettingsError, match=r"^bad DAILYDEAL_HINT_PROCESSES='many': expected a "):
        create_app()
    clean_env.delenv("DAILYDEAL_HINT_PROCESSES")
    clean_env.setenv("DAILYDEAL_VERIFY_LIMIT", "often")
    with pytest.raises(SettingsError, match="DAILYDEAL_VERIFY_LIMIT"):
        create_app()
    with pytest.raises(SettingsError, match=r"^DAILYDEAL_HINT_LIMIT must be a rate limit"):
        create_app({"db_path": tmp_path / "t.db", "hint_rate_limit": "often"})
    app = create_app({"db_path": tmp_path / "t.db", "hint_queue": 2, "TESTING": True})
    assert app.extensions[SETTINGS].hint_queue == 2 and app.config["TESTING"] is True
    # the environment is not read
    assert app.extensions[SETTINGS].verify_rate_limit == "60 per minute"
