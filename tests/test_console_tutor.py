"""The tutor in the terminal game: warnings before a person's play or cube action, confirmed or reconsidered.

The flow is driven in-process with scripted answers. The tutor's judge is a
stand-in here that calls one play and one cube answer blunders, so the tests
look at the terminal's side only: what is shown, what is asked, and that an
action is made exactly when it is confirmed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import pytest
from rich.console import Console

from tavola.actions import Action, Take
from tavola.analysis.model import Alternative, Decision, skill_of
from tavola.bot.context import CubeContext
from tavola.bot.evaluate import Evaluator
from tavola.console.app import ConsoleGame
from tavola.console.session import PlaySession, Seat
from tavola.console.tutor import Tutor
from tavola.dicesource import ManualDice
from tavola.errors import TavolaError
from tavola.game import Game, Phase
from tavola.match import MoneySession
from tavola.play import Play
from tavola.position import Position

BLUNDER = "13/7 8/7"  # with 6-1 from the start the judge below calls this very bad...
DOUBTFUL = "13/6"  # ...and this doubtful
BEST = "24/23 24/18"


class Script:
    """Answers prompts in order: each step is (a pattern the prompt must match, the line typed)."""

    def __init__(self, steps: Iterable[tuple[str, str]]) -> None:
        self.steps = list(steps)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.steps:
            raise EOFError
        pattern, line = self.steps.pop(0)
        assert re.search(pattern, prompt), f"expected a prompt like {pattern!r}, got {prompt!r}"
        return line


def decision(kind: str, played: str, best: str, loss: float) -> Decision:
    return Decision(
        game=1,
        move=1,
        player=0,
        kind="move" if kind == "move" else "cube",
        position=Position.start(),
        dice=None,
        cube=Game().cube,
        played=played,
        best=best,
        equity_loss=loss,
        mwc_loss=None,
        skill=skill_of(loss),
        alternatives=(Alternative(best, 0.1), Alternative(played, 0.1 - loss)),
    )


class StandInJudge:
    """Calls ``BLUNDER`` a very bad play, ``DOUBTFUL`` a doubtful one and a take a very bad answer;
    everything else right."""

    def __init__(self) -> None:
        self.judged: list[str] = []

    def move(
        self, game: Game, play: Play, *, level: str, evaluator: Evaluator | None, context: CubeContext | None
    ) -> Decision:
        assert game.phase is Phase.MOVE
        assert game.turn is not None
        assert play in game.turn.legal
        self.judged.append(play.notation)
        if play.notation == BLUNDER:
            return decision("move", BLUNDER, BEST, 0.15)
        if play.notation == DOUBTFUL:
            return decision("move", DOUBTFUL, BEST, 0.04)
        return decision("move", play.notation, play.notation, 0.0)

    def cube(
        self,
        game: Game,
        action: Action | None,
        *,
        level: str,
        evaluator: Evaluator | None,
        context: CubeContext | None,
    ) -> Decision:
        self.judged.append(type(action).__name__)
        if isinstance(action, Take):
            return decision("cube", "take", "drop", 0.3)
        return decision("cube", "drop", "drop", 0.0)


def table_game(steps: list[tuple[str, str]], *, dice: tuple[str, ...] = ("61",)) -> tuple[Game, str, Script]:
    """A hot-seat money game from the opening (Ann rolls 6-1 first) with the stand-in tutor."""
    manual = ManualDice(list(dice[1:]))
    manual.enter_opening(6, 1)
    series = MoneySession(dice=manual, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="random")
    judge = StandInJudge()
    tutor = Tutor("0-ply", "bad", judge_move=judge.move, judge_cube=judge.cube)
    script = Script(steps)
    output = io.StringIO()
    game = ConsoleGame(
        session, Console(file=output, width=120, highlight=False, markup=False), script, tutor=tutor
    )
    game.run()
    played = series.games[0]
    return played, output.getvalue(), script


def test_the_tutor_warns_before_a_blunder_and_reconsidering_leaves_the_game_untouched() -> None:
    game, text, _script = table_game([(r"Ann \(6-1\): your move", BLUNDER), (r"Do it anyway", "no")])
    assert "Tutor: 13/7 8/7 loses 0.150 (very bad); better: 24/23 24/18." in text
    assert "Think again: nothing was done." in text
    assert game.phase is Phase.MOVE
    assert game.turn is not None
    assert not game.turn.moves
    assert len(game.log) == 1  # the opening roll only
    assert game.position == Position.start()


def test_confirming_the_warned_play_makes_it() -> None:
    game, text, _script = table_game([(r"Ann \(6-1\): your move", BLUNDER), (r"Do it anyway", "yes")])
    assert "Ann plays 13/7 8/7" in text
    assert game.phase is Phase.ROLL
    assert game.player_on_roll == 1


def test_enter_at_the_question_thinks_again_and_the_better_play_is_made_without_a_word() -> None:
    _game, text, script = table_game(
        [(r"Ann \(6-1\): your move", BLUNDER), (r"Do it anyway", ""), (r"Ann \(6-1\): your move", BEST)]
    )
    assert text.count("Tutor:") == 1
    assert f"Ann plays {BEST}" in text
    assert sum("Do it anyway" in prompt for prompt in script.prompts) == 1


def test_a_play_moved_checker_by_checker_is_judged_when_committed() -> None:
    game, text, _script = table_game(
        [
            (r"Ann \(6-1\): your move", "13/7"),
            (r"Ann \(6-1, 1 to play\)", "8/7"),
            (r"Enter to commit", ""),
            (r"Do it anyway", "n"),
        ]
    )
    assert "Tutor: 13/7 8/7" in text
    turn = game.turn
    assert game.phase is Phase.MOVE
    assert turn is not None
    assert turn.notation == "13/7 8/7"


def test_the_tutor_off_says_nothing_and_on_again_warns() -> None:
    game, text, _script = table_game(
        [
            (r"Ann \(6-1\): your move", "tutor off"),
            (r"Ann \(6-1\): your move", BLUNDER),
        ]
    )
    assert "The tutor is off." in text
    assert "Tutor:" not in text
    assert game.player_on_roll == 1


def test_a_wrong_take_is_warned_and_a_drop_is_not() -> None:
    steps = [
        (r"Ann \(6-1\): your move", BEST),
        (r"Bo: roll \(Enter\) or double", "double"),
        (r"Ann: you are doubled to 2", "take"),
        (r"Do it anyway", "no"),
        (r"Ann: you are doubled to 2", "drop"),
    ]
    game, text, _script = table_game(steps)
    assert "Tutor: take loses 0.300 (very bad); better: drop." in text
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.winner == 1


def test_tutor_options_are_checked() -> None:
    with pytest.raises(TavolaError, match="doubtful, bad or very-bad"):
        Tutor(threshold="awful")
    with pytest.raises(TavolaError, match="0-ply, 1-ply, 2-ply"):
        Tutor(level="9-ply")


def test_the_threshold_decides_what_is_warned() -> None:
    judge = StandInJudge()
    game = Game(dice=ManualDice(["61"]), position=Position.start(), player_on_roll=0)
    game.roll()
    assert game.turn is not None
    blunder, doubtful, best = (
        game.turn.start.parse_play(game.turn.dice, text) for text in (BLUNDER, DOUBTFUL, BEST)
    )
    strict, usual = Tutor(threshold="doubtful", judge_move=judge.move), Tutor(judge_move=judge.move)
    lenient = Tutor(threshold="very-bad", judge_move=judge.move)
    assert [tutor.check_move(game, doubtful) is not None for tutor in (strict, usual, lenient)] == [
        True,
        False,
        False,
    ]
    assert [tutor.check_move(game, blunder) is not None for tutor in (strict, usual, lenient)] == [
        True,
        True,
        True,
    ]
    assert strict.check_move(game, best) is None
    off = Tutor(judge_move=judge.move, on=False)
    judged = len(judge.judged)
    assert off.check_move(game, blunder) is None
    assert len(judge.judged) == judged


# --- with the analysis engine's own judgements -------------------------------------------------------


def engine_game(steps: list[tuple[str, str]], tutor: Tutor) -> tuple[Game, str]:
    """A hot-seat money game from Ann's opening 6-1, with ``tutor`` (judging with the analysis engine)."""
    manual = ManualDice()
    manual.enter_opening(6, 1)
    series = MoneySession(dice=manual, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")))
    output = io.StringIO()
    console = Console(file=output, width=120, highlight=False, markup=False)
    ConsoleGame(session, console, Script(steps), tutor=tutor).run()
    return series.games[0], output.getvalue()


@pytest.mark.parametrize("level", ["0-ply", "1-ply"])
def test_the_engines_tutor_warns_on_a_known_blunder_and_not_on_the_best_play(level: str) -> None:
    tutor = Tutor(level, "bad")
    game, text = engine_game(
        [
            (r"Ann \(6-1\): your move", "8/2 6/5"),  # two blots in the home board instead of the 7 point
            (r"Do it anyway", "no"),
            (r"Ann \(6-1\): your move", "13/7 8/7"),
        ],
        tutor,
    )
    assert re.search(r"Tutor: 8/2 6/5 loses 0\.\d{3} \((bad|very bad)\); better: 13/7 8/7\.", text), text
    assert text.count("Tutor:") == 1  # the best play goes through without a word
    assert "Ann plays 13/7 8/7" in text
    assert game.player_on_roll == 1


def test_what_the_tutor_cannot_judge_is_made_without_its_word() -> None:
    def cannot(*_args: object, **_settings: object) -> Decision:
        raise TavolaError("no judgement here")

    manual = ManualDice()
    manual.enter_opening(6, 1)
    series = MoneySession(dice=manual, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")))
    output = io.StringIO()
    tutor = Tutor(judge_move=cannot, judge_cube=cannot)
    script = Script([(r"Ann \(6-1\): your move", BLUNDER)])
    ConsoleGame(session, Console(file=output, width=120), script, tutor=tutor).run()
    assert "The tutor cannot judge this: no judgement here" in output.getvalue()
    assert series.games[0].player_on_roll == 1


def test_the_warning_names_the_loss_its_class_and_the_better_choice() -> None:
    from tavola.analysis.model import Alternative, CubeError, Decision, Skill
    from tavola.console.view import tutor_warning
    from tavola.cube import Cube
    from tavola.position import Position

    take = Decision(
        game=1,
        move=9,
        player=1,
        kind="cube",
        position=Position.start(),
        dice=None,
        cube=Cube(1),
        played="take",
        best="drop",
        equity_loss=0.24,
        mwc_loss=0.031,
        skill=Skill.VERY_BAD,
        alternatives=(Alternative("drop", -1.0), Alternative("take", -1.24)),
        cube_error=CubeError.WRONG_TAKE,
    )
    assert tutor_warning(take).plain == (
        "Tutor: take loses 0.240 (very bad); better: drop. In match winning chances: 3.1%."
    )
