"""The keys command: the Ed25519 keys that sign solves, listed or rotated."""

from __future__ import annotations

import json

import click

from dailydeal.cli import main
from dailydeal.config import Settings


@main.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False),
              help="SQLite file (the keys file is next to it unless DAILYDEAL_SIGNING_KEYS_FILE).")
@click.option("--rotate", is_flag=True,
              help="Append a fresh key first: it signs new solves; older keys still check.")
@click.option("--json", "as_json", is_flag=True, help="Print the public keys as GET /keys does.")
def keys(db_path: str | None, rotate: bool, as_json: bool) -> None:
    """The public keys that sign solves, the active one first (created once if missing).

    With --rotate a fresh key is appended to the keys file (DAILYDEAL_SIGNING_KEYS_FILE,
    by default signing.keys next to the database) and signs every new solve; the older
    keys stay listed by GET /api/v1/keys, so what they signed still checks. Copy the file
    to every API node (as secret.key); a running server reads it again when it changes.
    To retire a key, delete its line: what it signed then no longer checks.
    """
    from dailydeal.results import signing

    settings = Settings.from_env(db_path)
    path = settings.signing_keys_file
    assert path is not None
    ring = signing.rotate(path) if rotate else signing.load(path)
    if as_json:
        click.echo(json.dumps({"keys": ring.public()}, indent=1))
        return
    for n, key in enumerate(ring.public()):
        active = "  (active: signs new solves)" if n == 0 else ""
        click.echo(f"{key['id']}  {key['ed25519']}{active}")
    if rotate:
        click.echo(f"rotated: {ring.active.id} signs from now on ({path}); copy the file to "
                   "every API node")
