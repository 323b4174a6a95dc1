"""The ``dailydeal`` command. Each command's docstring is its help."""

from __future__ import annotations

from typing import Any

import click

from dailydeal import __version__


class _Main(click.Group):
    """The group: a bad setting or an unusable file is one line ("Error: ...", exit 1),
    never a traceback. Errors of other kinds are bugs and keep their traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        from dailydeal.config import SettingsError
        from dailydeal.daily.store import StoreError

        try:
            return super().invoke(ctx)
        except (SettingsError, StoreError) as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dailydeal")
def main() -> None:
    """dailydeal: seeded daily solitaire challenges (Accordion, Pyramid, Gaps)."""


# Each module adds its commands to ``main``.
from dailydeal.cli import daily, play, rate, solve, web  # noqa: E402,F401
