"""The bot's cube decisions in Dutch backgammon (V1) are the ones its hints give, in the terminal and in the API."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tavola.actions import Beaver, Double, Drop, Take
from tavola.bot.actor import choose_action
from tavola.bot.advice import ask
from tavola.bot.cube import CubeAction, CubeResponse
from tavola.bot.evaluate import SHIPPED_WEIGHTS, Evaluator
from tavola.bot.player import Bot
from tavola.console.app import ConsoleGame
from tavola.console.session import PlaySession, Seat
from tavola.dicesource import RandomDice
from tavola.game import Game
from tavola.match import MoneySession
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import DUTCH

ENTERING = Position.from_position_id("AABo8X8AAND0fw")
"""A Dutch game on the bot's third turn: each side still has 11 checkers to enter (V1)."""
HINT = re.compile(r"(No double|Double|Too good to double), (take|drop|beaver) \(no double")


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    """The standard networks playing Dutch, as the bot plays it until Dutch networks of its own ship."""
    return Evaluator.load(SHIPPED_WEIGHTS, DUTCH)


def _terminal(board: Position, on_roll: int, steps: list[str], bot: Bot) -> str:
    """A Dutch money game from ``board``, Ann (a person) against the bot, answering the prompts in order."""
    series = MoneySession(dice=RandomDice(seed=5), players=("Ann", "Tavola"), variant=DUTCH)
    series.games.append(
        Game(series.rules, series.dice, position=board, player_on_roll=on_roll, variant=DUTCH)
    )
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", bot.level.name)))
    typed = list(steps)

    def answer(prompt: str) -> str:
        if not typed:
            raise EOFError  # the script is over: like Ctrl-D
        return typed.pop(0)

    output = io.StringIO()
    ConsoleGame(
        session, Console(file=output, width=120, highlight=False, markup=False), answer, bots={1: bot}
    ).run()
    return output.getvalue()


def test_V1_dutch_bot_doubles_only_when_its_hint_says_double(evaluator: Evaluator) -> None:
    # The hint a person gets at the roll prompt for this very position ...
    hinted = HINT.search(_terminal(ENTERING, 0, ["hint"], Bot(evaluator, "expert", 1)))
    assert hinted is not None
    # ... and what the bot at its usual level does there, with the hint it gives at the take prompt.
    played = _terminal(ENTERING, 1, ["hint"], Bot(evaluator, "expert", 1))
    doubled = "Tavola doubles to 2." in played
    assert doubled == (hinted.group(1) == "Double")
    if doubled:
        at_take = HINT.search(played)
        assert at_take is not None
        assert at_take.group(1) == "Double"


def _dutch_states(seed: int, turns: int) -> list[Game]:
    """Up to ``turns`` states of a seeded Dutch game between bots, before a roll where a double is allowed."""
    mover = Bot(Evaluator.load(SHIPPED_WEIGHTS, DUTCH), "advanced", seed)
    game = Game(Rules(beavers=1), RandomDice(seed=seed), variant=DUTCH)
    states: list[Game] = []
    while not game.is_over and len(states) < turns:
        if game.may_double():
            board, on_roll, cube = game.position, game.player_on_roll, game.cube
            states.append(Game(game.rules, position=board, player_on_roll=on_roll, cube=cube, variant=DUTCH))
        game.apply(choose_action(mover, game))
    return states


@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_V1_dutch_cube_actions_are_the_hints_decisions(evaluator: Evaluator, level: str) -> None:
    """Over many positions of seeded Dutch games: the bot doubles, takes, drops or beavers as its hint says."""
    acting, advisor = Bot(evaluator, level, 3), Bot(evaluator, "world-class")
    doubles = answers = 0
    for seed in range(4):
        for state in _dutch_states(seed, 14):
            hint = advisor.advise(ask(state, state.player_on_roll)).cube
            assert hint is not None
            assert (choose_action(acting, state) == Double()) == (hint.action is CubeAction.DOUBLE)
            doubles += hint.action is CubeAction.DOUBLE
            state.apply(Double())
            answer = advisor.advise(ask(state, 1 - state.player_on_roll)).answer  # at the take prompt
            expected = {CubeResponse.TAKE: Take(), CubeResponse.DROP: Drop(), CubeResponse.BEAVER: Beaver()}
            assert answer is not None
            assert choose_action(acting, state) == expected[answer]
            answers += 1
    assert answers >= 40
