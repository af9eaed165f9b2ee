"""Getting the compiled engine ready before the first screen, with a word while it compiles.

Tavola's move generator and evaluator are compiled by Numba the first time
they run after installing, which takes several seconds; later runs load them
from Numba's cache at once. :func:`prepare_engine` runs them once in a
background thread and, only if that takes noticeably long, shows a status
line until it is done, so a new player never faces a silent terminal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rich.console import Console

from tavola.bot.player import Bot
from tavola.dice import Dice
from tavola.i18n import _
from tavola.position import Position
from tavola.turn import Turn

NOTICE_AFTER = 0.3
"""Seconds of waiting after which the status line appears (a cached engine is ready well before)."""


def warm_up(bot: Bot | None = None) -> None:
    """Run what the first screen and the first move need once: legal plays, the next single moves and,
    with a bot, its play."""
    start = Position.start()
    Turn(start, Dice(3, 1)).next_moves()  # the roll's legal plays first, then what may come next
    if bot is not None:
        bot.play(start, Dice(3, 1))


def prepare_engine(console: Console, work: Callable[[], None]) -> None:
    """Run ``work`` (such as :func:`warm_up`), telling the player what happens if it takes a while."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # handed back to the caller below
            failure.append(error)

    thread = threading.Thread(target=run, name="tavola-warm-up", daemon=True)
    thread.start()
    thread.join(NOTICE_AFTER)
    if thread.is_alive():
        with console.status(_("Preparing the engine, first run only...")):
            thread.join()
    if failure:
        raise failure[0]
