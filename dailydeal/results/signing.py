"""The service's Ed25519 signing keys: one file, created once, shared by every node, rotatable.

A solve (``dailydeal.results.solves``) is signed with the active key, so anybody with the
published public keys (``GET /api/v1/keys``) can check it without asking the service.
The keys are a text file (``DAILYDEAL_SIGNING_KEYS_FILE``, by default ``signing.keys`` next
to the database), mode 0600, made the way the secret file is (``config.load_or_create_secret``:
a private temporary file hard-linked into place, so two processes starting at once agree on
one key)::

    # dailydeal signing keys (Ed25519): the last line signs, the others still check
    ed25519 3q2-7wXfB4Y 0123...base64 of the raw 32-byte private key...=

Each line is a key; the **last** one signs new solves, and the others are kept so that
what they signed still checks (``GET /keys`` lists them all). ``rotate`` appends a fresh
key (``dailydeal keys rotate``); a key is retired by deleting its line (what it signed then
no longer checks). Several API nodes must share the one file (copy it, as ``secret.key``):
a node that finds none makes its own, whose signatures the others do not list. A running
server reads the file again when it changes (its size or modification time).

A key's id is derived from its public key (``key_id``: the first 8 bytes of its SHA-256,
base64url), so every node names a key the same way. ``cryptography`` is imported only when
a key is used: a command that never signs does not pay for it.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dailydeal.config import SettingsError, create_once, private_file_beside

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

log = logging.getLogger(__name__)

KIND = "ed25519"
HEADER = "# dailydeal signing keys (Ed25519): the last line signs, the others still check\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def key_id(public_raw: bytes) -> str:
    """A key's id: the first 8 bytes of the SHA-256 of its raw public key, base64url."""
    return base64.urlsafe_b64encode(hashlib.sha256(public_raw).digest()[:8]).decode().rstrip("=")


@dataclass(frozen=True)
class Key:
    id: str
    private: bytes  # the raw 32-byte private key
    public: bytes  # the raw 32-byte public key

    def sign(self, text: str) -> str:
        """The base64 Ed25519 signature of ``text`` (UTF-8)."""
        return b64(_private(self.private).sign(text.encode("utf-8")))


@dataclass(frozen=True)
class KeyRing:
    keys: tuple[Key, ...]  # oldest first; the last signs

    @property
    def active(self) -> Key:
        return self.keys[-1]

    def public(self) -> list[dict[str, str]]:
        """``[{"id", "ed25519"}]``: every key that still checks, the active one first."""
        return [{"id": k.id, "ed25519": b64(k.public)} for k in reversed(self.keys)]


def _private(raw: bytes) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(raw)


def make_key(raw: bytes | None = None) -> Key:
    """A key from its raw private bytes, or a fresh one."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = secrets.token_bytes(32) if raw is None else raw
    public = _private(raw).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return Key(key_id(public), raw, public)


def check(public_b64: str, text: str, signature_b64: str) -> bool:
    """Whether ``signature_b64`` is the signature of ``text`` by the key ``public_b64``
    (what a checker does with the keys of ``GET /keys``, as docs/api.md shows)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_b64, validate=True))
        key.verify(base64.b64decode(signature_b64, validate=True), text.encode("utf-8"))
    except (InvalidSignature, ValueError):
        return False
    return True


def _line(key: Key) -> str:
    return f"{KIND} {key.id} {b64(key.private)}\n"


def parse(text: str, path: Path) -> KeyRing:
    """The keys of a keys file's text; a line that is not a key is a ``SettingsError``."""
    keys = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        try:
            if len(parts) != 3 or parts[0] != KIND:
                raise ValueError
            raw = base64.b64decode(parts[2], validate=True)
            if len(raw) != 32:
                raise ValueError
        except ValueError:
            raise SettingsError(
                f"line {n} of the signing keys file {path} is not "
                f"'{KIND} ID BASE64-PRIVATE-KEY'"
            ) from None
        key = make_key(raw)
        if key.id != parts[1]:
            raise SettingsError(
                f"line {n} of the signing keys file {path}: the id {parts[1]!r} is not "
                f"its key's ({key.id})"
            )
        keys.append(key)
    if not keys:
        raise SettingsError(f"the signing keys file {path} holds no key; "
                            "`dailydeal keys rotate` makes one")
    return KeyRing(tuple(keys))


def load(path: Path) -> KeyRing:
    """The keys of ``path``, created (one key) if the file does not exist yet."""
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise SettingsError(f"cannot read the signing keys file {path}: {exc.strerror}") from None
    try:
        if create_once(path, HEADER + _line(make_key())):
            log.warning("created a new signing key in %s (every API node needs this file)",
                        path)
        return _read(path)
    except OSError as exc:
        raise SettingsError(
            f"cannot create the signing keys file {path}: {exc.strerror}") from None


def rotate(path: Path) -> KeyRing:
    """Append a fresh key to ``path`` (made if missing): it signs from now on, the older
    keys still check. The file is replaced whole (a reader never sees half of it)."""
    ring = load(path)
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    tmp = private_file_beside(path, text + _line(make_key()))
    os.replace(tmp, path)
    return KeyRing((*ring.keys, _read(path).active))


def _read(path: Path) -> KeyRing:
    text = path.read_text(encoding="utf-8")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("the signing keys file %s is readable by others (mode %o); use 0600",
                    path, mode)
    return parse(text, path)


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What says the file changed (inode, size, mtime), or None if it does not exist."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
