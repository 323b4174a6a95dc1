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
)
from dailydeal.games import GAMES, default_variant

ENV_VARS = (
    "DAILYDEAL_DB", "DAILYDEAL_DAYS_AHEAD", "DAILYDEAL_SECRET", "DAILYDEAL_SECRET_FILE",
    "DAILYDEAL_MAX_NODES", "DAILYDEAL_TIME_LIMIT", "DAILYDEAL_MAX_ATTEMPTS", "DAILYDEAL_JOBS",
    "DAILYDEAL_GAMES",
)


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


@pytest.mark.parametrize("strong", [STRONG, secrets.token_hex(16), secrets.token_urlsafe(32)])
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
