"""The first run after installing: the engine compiles behind a status line, never a silent terminal."""

from __future__ import annotations

import io
import time

import pytest
from rich.console import Console

from tavola.bot.evaluate import Evaluator
from tavola.bot.player import Bot
from tavola.console.engine_ready import prepare_engine, warm_up


def _terminal() -> tuple[Console, io.StringIO]:
    screen = io.StringIO()
    return Console(file=screen, force_terminal=True, width=80), screen


def test_a_slow_first_run_says_what_is_happening() -> None:
    console, screen = _terminal()
    prepare_engine(console, lambda: time.sleep(0.8))
    assert "Preparing the engine, first run only" in screen.getvalue()


def test_a_ready_engine_shows_nothing() -> None:
    console, screen = _terminal()
    prepare_engine(console, lambda: None)
    assert screen.getvalue() == ""


def test_a_failure_while_preparing_reaches_the_caller() -> None:
    console, _ = _terminal()

    def broken() -> None:
        raise OSError("no room for the cache")

    with pytest.raises(OSError, match="no room"):
        prepare_engine(console, broken)


def test_warm_up_plays_the_first_move_of_the_bot_given() -> None:
    warm_up(Bot(Evaluator.untrained(hidden=8, seed=1), level="expert"))
    warm_up(None)
