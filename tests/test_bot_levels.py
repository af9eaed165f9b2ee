"""The bot's levels: one ladder, its depth names, its roles, and one error for an unknown level everywhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.analysis.analyze import analyze_file
from tavola.analysis.judge import judge_move
from tavola.analysis.rollout import RolloutError, RolloutSettings
from tavola.analysis.words import level_name
from tavola.bot.actor import choose_action
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import (
    ANALYSIS_LEVEL,
    BOT_LEVEL,
    CUBE_LEVEL,
    DEPTHS,
    HINT_LEVEL,
    LEVELS,
    LIVE_ANALYSIS_LEVEL,
    ROLLOUT_LEVEL,
    Level,
    NoisyLevelError,
    UnknownLevelError,
    analysis_level,
    level,
    level_at,
)
from tavola.bot.player import Bot
from tavola.bot.search import SearchChooser
from tavola.cli import main
from tavola.console.tutor import Tutor
from tavola.dicesource import ManualDice
from tavola.game import Game
from tavola.position import WinKind
from tavola.protocol import RequestError, read_request
from tavola.variants import STANDARD, Variant
from tavola.web.options import OptionsError, read_options

EVALUATOR = Evaluator.untrained(hidden=8, seed=3)
MATCH = Path(__file__).parent / "data" / "gnubg-5-point-match.mat"
START = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def unknown() -> str:
    """What every front end says of a level called 'godlike'."""
    with pytest.raises(UnknownLevelError) as refused:
        level("godlike")
    return str(refused.value)


def test_the_ladder_goes_from_beginner_to_world_class_and_gives_choosers() -> None:
    names = list(LEVELS)
    assert names == ["beginner", "casual", "intermediate", "advanced", "expert", "world-class"]
    strengths = [(-found.noise, found.plies) for found in LEVELS.values()]
    assert strengths == sorted(strengths)
    for found in LEVELS.values():
        chooser = found.chooser(EVALUATOR, rng=1)
        assert isinstance(chooser, SearchChooser)
        assert (chooser.plies, chooser.noise) == (found.plies, found.noise)
        assert found.description
        assert found.cubeful


def test_the_depth_names_are_the_noiseless_levels_of_that_depth() -> None:
    assert {depth: found.name for depth, found in DEPTHS.items()} == {
        "0-ply": "advanced",
        "1-ply": "expert",
        "2-ply": "world-class",
    }
    for depth, found in DEPTHS.items():
        assert level(depth) is found is level_at(found.plies)
        assert found.title == f"{depth} cubeful" == level_name(depth) == level_name(found.name)
    assert level(LEVELS["casual"]) is LEVELS["casual"]


def test_the_roles_are_levels_of_the_ladder() -> None:
    ladder = list(LEVELS.values())
    for role in (CUBE_LEVEL, HINT_LEVEL, BOT_LEVEL, ANALYSIS_LEVEL, LIVE_ANALYSIS_LEVEL, ROLLOUT_LEVEL):
        assert role in ladder
        assert not role.noise
    assert (ANALYSIS_LEVEL.title, LIVE_ANALYSIS_LEVEL.title) == ("2-ply cubeful", "1-ply cubeful")
    assert Bot(EVALUATOR).level is BOT_LEVEL
    assert Bot(EVALUATOR, "1-ply").level is Bot(EVALUATOR, LEVELS["expert"]).level


def test_an_unknown_level_is_refused_with_one_error_in_python(unknown: str) -> None:
    assert (
        "known: beginner, casual, intermediate, advanced, expert, world-class, 0-ply, 1-ply, 2-ply" in unknown
    )
    with pytest.raises(UnknownLevelError, match="godlike"):
        Bot(EVALUATOR, "godlike")
    with pytest.raises(UnknownLevelError, match="godlike"):
        Bot(EVALUATOR).hint(Position.start(), Dice(3, 1), level="godlike")
    with pytest.raises(UnknownLevelError, match="godlike"):
        analyze_file(MATCH, level="godlike", evaluator=EVALUATOR)
    with pytest.raises(UnknownLevelError, match="godlike"):
        Tutor(level="godlike")
    game = Game(dice=ManualDice(["31"]), position=Position.start(), player_on_roll=0)
    game.roll()
    with pytest.raises(UnknownLevelError, match="godlike"):
        judge_move(game, "24/20", level="godlike", evaluator=EVALUATOR)


def test_an_unknown_level_is_refused_with_the_same_message_on_the_command_line(
    unknown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hint", START, "31", "--level", "godlike"]) == 2
    assert f"tavola hint: {unknown}" in capsys.readouterr().err
    assert main(["engine", "--level", "godlike"]) == 2
    assert f"tavola engine: {unknown}" in capsys.readouterr().err
    assert main(["analyze", str(MATCH), "--level", "godlike"]) == 2
    assert f"tavola analyze: {unknown}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--tutor", "--tutor-level", "godlike"])
    assert unknown in capsys.readouterr().err


def test_an_unknown_level_is_refused_with_the_same_message_by_the_engine_protocol(unknown: str) -> None:
    request = {"id": 1, "cmd": "hint", "position": START, "dice": [3, 1], "level": "godlike"}
    with pytest.raises(RequestError) as refused:
        read_request(request)
    assert str(refused.value) == f"level: {unknown}"
    assert read_request({**request, "level": "2-ply"}).level is LEVELS["world-class"]


def test_an_unknown_level_is_refused_with_the_same_message_by_the_server_options(unknown: str) -> None:
    options = {"kind": "game", "seats": [{}, {"bot": "godlike"}]}
    with pytest.raises(OptionsError) as refused:
        read_options(options)
    assert str(refused.value) == f"seats[1].bot: {unknown}"
    assert read_options({**options, "seats": [{}, {"bot": "1-ply"}]}).seats[1].bot == "expert"


def test_no_level_with_noise_judges_an_analysis_or_the_tutor(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NoisyLevelError, match="casual"):
        analysis_level("casual")
    with pytest.raises(NoisyLevelError, match="beginner"):
        analyze_file(MATCH, level="beginner", evaluator=EVALUATOR)
    with pytest.raises(NoisyLevelError, match="intermediate"):
        Tutor(level="intermediate")
    assert main(["analyze", str(MATCH), "--level", "beginner"]) == 2
    assert "tavola analyze: an analysis judges at a level without noise" in capsys.readouterr().err
    assert Tutor(level="advanced").level is analysis_level("0-ply") is LEVELS["advanced"]


def test_a_rollout_plays_at_a_level_of_the_ladder_without_noise_at_0_or_1_ply() -> None:
    assert RolloutSettings().level is ROLLOUT_LEVEL is level_at(0)
    assert RolloutSettings(level=level("1-ply")).level.plies == 1
    for refused in ("world-class", "casual"):
        with pytest.raises(RolloutError, match=refused):
            RolloutSettings(level=level(refused))


class Asking(Bot):
    """A bot that notes the level each position is judged at."""

    asked: list[Level]

    def probabilities(
        self, position: Position, level: str | Level | None = None, variant: Variant = STANDARD
    ) -> np.typing.NDArray[np.float32]:
        self.asked.append(self._level(level))
        return super().probabilities(position, level, variant)


def test_a_resignation_is_judged_at_the_cube_level_whatever_the_bot_plays_at() -> None:
    bot = Asking(EVALUATOR, "beginner", rng=1)
    bot.asked = []
    game = Game(position=Position.start(), player_on_roll=0)
    game.resign(WinKind.SINGLE)
    choose_action(bot, game)
    assert bot.asked == [CUBE_LEVEL]
