"""The ``dailydeal`` command. Each command's docstring is its help."""

from __future__ import annotations

import click

from dailydeal import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dailydeal")
def main() -> None:
    """dailydeal: seeded daily solitaire challenges (Accordion, Pyramid, Gaps)."""


# Each module adds its commands to ``main``.
from dailydeal.cli import daily, play, rate, solve, web  # noqa: E402,F401
