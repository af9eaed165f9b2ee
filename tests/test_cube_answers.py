"""C3, M3, M4: one rule answers a double, a beaver and a raccoon, whoever asks.

The bot at a two-player table (:func:`tavola.bot.actor.choose_action`), the bot
at a chouette (:func:`tavola.table.chouette_bot.choose_chouette_action`), the
hint a person gets (:meth:`tavola.bot.player.Bot.advise`) and the analysis's
verdict (:func:`tavola.analysis.judge.judge_cube`, :func:`tavola.analysis.analyze_chouette`)
all read :func:`tavola.bot.cube.answer`; with raccoons allowed they must give the
same answer to a double and to the beaver that follows it.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tavola.actions import Action, Beaver, Drop, Take
from tavola.analysis.chouette import analyze_chouette
from tavola.analysis.cubes import answer_choices, answer_name, doubling_choices
from tavola.analysis.judge import judge_cube
from tavola.bot.actor import choose_action
from tavola.bot.advice import Asked, NoAdviceError, advice_json, ask, ask_chouette
from tavola.bot.context import CubeContext
from tavola.bot.cube import CubeResponse, answer, answers, decide, money_decision
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import ANALYSIS_LEVEL
from tavola.bot.player import Bot
from tavola.chouette import Beaver as ChouetteBeaver
from tavola.chouette import Chouette, ChouetteSettings, Consultation, Side
from tavola.chouette import Drop as ChouetteDrop
from tavola.chouette import Take as ChouetteTake
from tavola.console.view import advice_view
from tavola.cube import Cube
from tavola.dicesource import ManualDice
from tavola.game import Game
from tavola.position import Position
from tavola.protocol import answer as engine_answer
from tavola.rules import Rules
from tavola.table.chouette_bot import choose_chouette_action

RACCOONS = Rules(beavers=2)


def _race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A race: the player on roll's checkers on their points, the opponent's on the opponent's points."""
    board = [0] * 24
    for point, count in mine.items():
        board[point - 1] += count
    for point, count in theirs.items():
        board[24 - point] -= count
    return Position(board)


TAKE_THE_BEAVER = _race({6: 5, 5: 5, 4: 5}, {6: 4, 5: 4, 4: 4, 3: 3})
"""The doubler a little behind in a race: beavered, they do better playing on at four than paying two."""
DROP_THE_BEAVER = _race({6: 15}, {1: 8, 2: 7})
"""The doubler all but lost: beavered, they pay two rather than play on at four."""

NAMES = {Take: "take", Drop: "drop", Beaver: "raccoon"}


@pytest.fixture(scope="module")
def bot() -> Bot:
    return Bot(Evaluator.default())


@pytest.mark.parametrize(
    ("position", "expected"),
    [(TAKE_THE_BEAVER, Take()), (DROP_THE_BEAVER, Drop())],
    ids=["take the beaver", "drop the beaver"],
)
def test_M3_M4_the_bot_its_hint_and_the_analysis_answer_a_double_and_its_beaver_alike(
    bot: Bot, position: Position, expected: Action
) -> None:
    game = Game(RACCOONS, ManualDice(), position=position, player_on_roll=0)
    game.double()
    action = choose_action(bot, game)
    verdict = judge_cube(game, action, level=ANALYSIS_LEVEL)
    assert action == Beaver()
    assert bot.advise(ask(game, 1)).answer is CubeResponse.BEAVER
    assert verdict.played == verdict.best == "beaver"
    game.apply(action)
    action = choose_action(bot, game)  # the doubler answers the beaver: take, drop or raccoon
    verdict = judge_cube(game, action, level=ANALYSIS_LEVEL)
    advice = bot.advise(ask(game, 0))
    assert action == expected
    assert advice.answer is not None
    assert verdict.played == verdict.best == answer_name(advice.answer, 1) == NAMES[type(action)]


@pytest.mark.parametrize(
    ("position", "expected"),
    [(TAKE_THE_BEAVER, ChouetteTake), (DROP_THE_BEAVER, ChouetteDrop)],
    ids=["take the beaver", "drop the beaver"],
)
def test_M3_M4_at_a_chouette_the_bot_its_hint_and_the_analysis_answer_alike(
    bot: Bot, position: Position, expected: type
) -> None:
    dice = ManualDice()
    for die in (6, 5, 4):  # the order of seats: Ann the box, Ben the captain, then Cid (H1)
        dice.enter_die(die)
    table = Chouette(ChouetteSettings(rules=RACCOONS), dice, players=["Ann", "Ben", "Cid"])
    table.draw_order()
    game = table.start_game(position=position, side_on_roll=Side.BOX)
    game.double("Ann", ["Ben"])
    beaver = choose_chouette_action(bot, game, "Ben")
    assert isinstance(beaver, ChouetteBeaver)
    assert bot.advise(ask_chouette(game, "Ben")).answer is CubeResponse.BEAVER
    game.apply("Ben", beaver)
    back = choose_chouette_action(bot, game, "Ann")
    advice = bot.advise(ask_chouette(game, "Ann"))
    assert isinstance(back, expected)
    assert advice.answer is not None
    assert advice.question.redoubles == 1
    game.apply("Ann", back)
    analysis = analyze_chouette(table, level=ANALYSIS_LEVEL)
    verdicts = {
        (analysis.names[decision.player], decision.played, decision.best)
        for decision in analysis.decisions
        if decision.kind == "cube" and decision.offer is not None
    }
    answered = answer_name(advice.answer, 1)
    assert verdicts == {("Ben", "beaver", "beaver"), ("Ann", answered, answered)}


def test_M4_the_chain_of_answers_values_every_redouble_the_rules_allow() -> None:
    """The doubler's value of a beaver is their best answer to it: a take at four, a drop of two, or a
    raccoon (the doubled side then answering at eight)."""
    decision = money_decision([0.3, 0.0, 0.0, 0.0, 0.0], rules=RACCOONS)
    take = decision.double_take
    assert take is not None
    after_beaver = answers(decision, RACCOONS, 1)
    after_raccoon = answers(decision, RACCOONS, 2)
    assert after_raccoon == {CubeResponse.TAKE: 4 * take, CubeResponse.DROP: 4.0}
    raccoon = min(after_raccoon.values())  # the doubled side answers the raccoon at its best
    assert after_beaver == {
        CubeResponse.TAKE: 2 * take,
        CubeResponse.DROP: -2.0,
        CubeResponse.BEAVER: raccoon,
    }
    assert decision.double_beaver == max(after_beaver.values())
    assert answers(decision, RACCOONS)[CubeResponse.BEAVER] == decision.double_beaver


@pytest.mark.parametrize("beavers", [0, 1, 2, 3])
def test_M3_M4_analysis_choices_are_the_answers_of_the_one_rule(beavers: int) -> None:
    """Over many equities: the analysis's best answer at every step is the answer the bot gives."""
    rules = Rules(beavers=beavers)
    rng = np.random.default_rng(beavers)
    for no_double, take in rng.uniform(-2.5, 2.5, size=(200, 2)):
        decision = decide(no_double, take, 1.0, rules).row(0)
        proper = answer_name(answer(decision, rules), 0)
        assert doubling_choices(decision, rules)[0][0] in ("no double", f"double, {proper}")
        for redoubles in range(beavers + 1):
            best = max(answer_choices(decision, rules, redoubles), key=lambda choice: choice[1])
            chosen = answer(decision, rules, redoubles)
            assert math.isclose(
                best[1], dict(answer_choices(decision, rules, redoubles))[answer_name(chosen, redoubles)]
            )


def test_C3_a_match_has_no_beaver_and_its_drop_is_the_match_drop() -> None:
    decision = decide(0.3, 0.32, 0.49, Rules(), match=True).row(0, match=True)
    assert answers(decision, Rules()) == {CubeResponse.TAKE: 0.32, CubeResponse.DROP: 0.49}
    assert answer(decision, Rules()) is CubeResponse.TAKE


def test_M6_where_every_take_is_a_beaver_the_answer_is_a_beaver_or_a_drop(bot: Bot) -> None:
    rules = Rules(beavers=1, automatic_beavers=True)
    for position, expected in ((TAKE_THE_BEAVER, Beaver()), (DROP_THE_BEAVER, Beaver())):
        game = Game(rules, ManualDice(), position=position, player_on_roll=0)
        game.double()
        advice = bot.advise(ask(game, 1))
        assert advice.cube is not None
        assert CubeResponse.TAKE not in answers(advice.cube, rules)
        assert advice.answer is CubeResponse.BEAVER
        assert choose_action(bot, game) == expected
    decision = money_decision([0.9, 0.0, 0.0, 0.0, 0.0], rules=rules)  # the doubled side is all but lost
    assert answer(decision, rules) is CubeResponse.DROP


def test_C3_a_double_of_a_dead_cube_is_taken_and_its_advice_is_written_and_shown(bot: Bot) -> None:
    """In a match, redoubling a cube whose win already takes the doubler to the match gains them nothing:
    the model values no take, and the advice is to take."""
    game = Game(position=Position.start(), player_on_roll=0, cube=Cube(2, owner=0))
    game.double()
    advice = bot.advise(ask(game, 1, CubeContext.of_game(game, 0, away=(2, 5))))
    assert advice.cube is not None
    assert advice.cube.reason is not None
    assert advice.answer is CubeResponse.TAKE
    written = advice_json(advice)
    assert (written["answer"], written["answers"]) == ("take", {})
    assert "Take" in str(advice_view(advice))


def test_H4_a_chouette_advises_only_the_player_deciding(bot: Bot) -> None:
    dice = ManualDice()
    for die in (6, 5, 4, 3):
        dice.enter_die(die)
    settings = ChouetteSettings(rules=RACCOONS, consultation=Consultation.NONE)
    table = Chouette(settings, dice, players=["Ann", "Ben", "Cid", "Dee"])
    table.draw_order()
    game = table.start_game(position=TAKE_THE_BEAVER, side_on_roll=Side.TEAM)
    assert ask_chouette(game, "Ben").kind is Asked.CUBE  # the captain, before the team's roll
    with pytest.raises(NoAdviceError, match="other side"):
        ask_chouette(game, "Ann")
    dice.enter("31")
    game.roll("Ben")
    assert ask_chouette(game, "Ben").kind is Asked.PLAYS
    with pytest.raises(NoAdviceError, match="H4"):
        ask_chouette(game, "Cid")  # a team member, where consultation is not allowed
    with pytest.raises(NoAdviceError, match="not playing"):
        ask_chouette(game, "Eve")


def test_M3_the_engine_answers_a_double_by_the_one_rule(bot: Bot) -> None:
    request = {
        "id": 1,
        "cmd": "cube",
        "position": TAKE_THE_BEAVER.position_id(),
        "doubled": True,
        "rules": {"beavers": 1},
    }
    reply = engine_answer(bot, json.dumps(request))
    decision = bot.evaluate(TAKE_THE_BEAVER, CubeContext(0, Cube(), Rules(beavers=1))).cube
    assert reply["action"] == answer(decision, Rules(beavers=1)).value == "beaver"
