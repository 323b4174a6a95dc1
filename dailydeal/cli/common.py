"""Options shared by the commands that take a deal: --seed/--cards, --variant, --json."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from dailydeal.games import GAMES, Game, get_game, new_game
from dailydeal.shuffle import MAX_SEED, seed_text

GAME_ARG = click.argument("game", type=click.Choice(list(GAMES), case_sensitive=False))


def deal_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add --seed, --cards and --variant, and pass the ``game`` object built from them."""

    @click.option("--seed", type=click.IntRange(0, MAX_SEED), help="Deal number, 0..2**64-1.")
    @click.option(
        "--cards",
        help=(
            "An explicit deal instead of --seed: the 52 cards in dealing order (Accordion: "
            "the stock, first dealt first; Pyramid: the 28 pyramid cards row by row, then "
            "the stock, first drawn first; Gaps: the 4 rows of 13 as dealt, aces included). "
            "Gaps redeals of an explicit deal use the stream of seed 0."
        ),
    )
    @click.option("--variant", help="Variant of the game (default: the default of docs/rules.md).")
    @functools.wraps(func)
    def wrapper(
        game: str, seed: int | None, cards: str | None, variant: str | None, **kw: Any
    ) -> Any:
        if (seed is None) == (cards is None):
            raise click.UsageError("give exactly one of --seed N and --cards '...'")
        try:
            get_game(game, variant)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--variant") from None
        try:
            position = new_game(game, seed, variant, cards)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--cards") from None
        return func(position, **kw)

    return wrapper


JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def echo_json(data: dict[str, Any], game: Game[Any] | None = None) -> None:
    """Print ``data``, after the game, variant and seed of ``game`` if given. Seeds are
    decimal strings, as in the API (a JavaScript number cannot hold 64 bits)."""
    if game is not None:
        head = {"game": game.name, "variant": game.variant, "seed": seed_text(game.seed)}
        data = {**head, **data}
    click.echo(json.dumps(data, ensure_ascii=False))


def game_header(game: Game[Any]) -> str:
    seed = "explicit cards" if game.seed is None else f"seed {game.seed}"
    return f"{game.name} ({game.variant}), {seed}"


def run_without_interrupt(target: Callable[..., Any], *args: Any) -> None:
    """Run ``target(*args)`` in a child process that ignores Ctrl-C.

    A terminal sends SIGINT to its whole foreground process group; a helper process (the
    background fill of ``serve``) is stopped by its parent instead, so it must not die of it
    with a traceback. Children it spawns inherit the ignored signal. A bad setting or
    database ends it with one line, as on the command line.
    """
    import signal  # here: its enums cost every other command's start-up

    from dailydeal.config import SettingsError
    from dailydeal.daily.store import StoreError

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        target(*args)
    except (SettingsError, StoreError) as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)


@contextlib.contextmanager
def progress_bar(
    label: str, shown: bool = True
) -> Iterator[Callable[[int, int, str], None] | None]:
    """A bar on standard error, drawn from the progress calls of generation (``fill_days``'s
    ``progress``: units done, units in all, the label of the one done); None when not
    ``shown`` (no terminal). The bar is opened at the first call, when the total is known."""
    if not shown:
        yield None
        return
    bars: list[Any] = []

    def step(done: int, total: int, item: str) -> None:
        if not bars:
            bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True,
                                    item_show_func=lambda text: text)
            bars.append(bar.__enter__())
        bars[0].update(1, item)

    try:
        yield step
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)


@contextlib.contextmanager
def forked_workers_exit_here() -> Iterator[None]:
    """Around a server that forks its workers from inside (gunicorn's ``run()``).

    A forked worker that stops unwinds the stack it inherited from the master: without
    this it would run the master's clean-up (``finally`` blocks, ``atexit`` handlers that
    join the master's children) and fail in it. Here a forked process leaves at once with
    its own exit status.
    """
    master = os.getpid()
    try:
        yield
    except BaseException as exc:
        if os.getpid() != master:
            _leave(exc.code if isinstance(exc, SystemExit) else 1)
        raise
    if os.getpid() != master:
        _leave(0)


def _leave(code: object) -> None:
    status = code if isinstance(code, int) else (0 if code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)
