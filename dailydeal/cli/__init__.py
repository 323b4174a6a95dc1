"""The ``dailydeal`` command. Each command's docstring is its help."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from dailydeal import __version__

# Which module defines each command. A command's module is imported only when that command
# runs (or when the help lists the commands), so ``dailydeal solve`` loads neither Flask nor
# the scheduler nor the store: its start-up is a tenth of a second, not a fifth.
COMMANDS = {
    "deal": "play",
    "verify": "play",
    "solve": "solve",
    "rate": "rate",
    "generate": "daily",
    "schedule": "daily",
    "serve": "web",
    "recheck": "recheck",
    "keys": "keys",
}


class _Main(click.Group):
    """The group: a bad setting or an unusable file is one line ("Error: ...", exit 1),
    never a traceback. Errors of other kinds are bugs and keep their traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            # The module's decorators add its commands to ``main``.
            importlib.import_module(f"dailydeal.cli.{module}")
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            if _one_line_error(exc):
                raise click.ClickException(str(exc)) from None
            raise


# The errors that are the user's (a bad setting, an unusable file), by module: looked up in
# sys.modules, since an error can only come from a module the command imported, and
# importing the store here would cost every command sqlite-utils' start-up.
_USER_ERRORS = (("dailydeal.config", "SettingsError"), ("dailydeal.daily.store", "StoreError"))


def _one_line_error(exc: Exception) -> bool:
    for module_name, class_name in _USER_ERRORS:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(exc, getattr(module, class_name)):
            return True
    return False


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dailydeal")
def main() -> None:
    """dailydeal: seeded daily solitaire challenges (Accordion, Pyramid, Gaps)."""
