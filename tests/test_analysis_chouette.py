"""A chouette analysed cube by cube: each member's answer judged on their own cube, per-player figures.

The judge is a stand-in here (put in place of :mod:`tavola.analysis.judge`'s
functions where the chouette's analysis calls them) that records what it was
asked: these tests check what the chouette's analysis asks and how it names
and counts the answers, not the engine's equities.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import tavola.analysis.chouette
from tavola.actions import Action, Double, Drop, Take
from tavola.analysis.chouette import analyze_chouette, analyze_chouette_file
from tavola.analysis.model import Alternative, Decision, Skill, skill_of
from tavola.analysis.summary import chouette_analysis_view
from tavola.chouette import Chouette, ChouetteSettings
from tavola.cube import Cube
from tavola.dicesource import RandomDice
from tavola.game import Game, Phase
from tavola.play import Play
from tavola.records import record_kind


class StandInJudge:
    """Calls a take right and a drop wrong (0.2), every double and play right; records every question."""

    def __init__(self) -> None:
        self.cube_questions: list[tuple[int, Cube, Phase, str]] = []
        self.plays: list[str] = []

    def judge_move(self, game: Game, play: Play, **_settings: object) -> Decision:
        assert game.phase is Phase.MOVE
        self.plays.append(play.notation)
        return _decision("move", play.notation, play.notation, 0.0)

    def judge_cube(self, game: Game, action: Action | None, **_settings: object) -> Decision:
        self.cube_questions.append((game.player_on_roll, game.cube, game.phase, type(action).__name__))
        if isinstance(action, Drop):
            return _decision("cube", "drop", "take", 0.2)
        if isinstance(action, Take):
            return _decision("cube", "take", "take", 0.0)
        if isinstance(action, Double):
            return _decision("cube", "double, take", "double, take", 0.0)
        return _decision("cube", "no double", "double, take", 0.0, forced=True)


def _decision(kind: str, played: str, best: str, loss: float, *, forced: bool = False) -> Decision:
    return Decision(
        game=0,
        move=0,
        player=0,
        kind="move" if kind == "move" else "cube",
        position=Game().position,
        dice=None,
        cube=Cube(1),
        played=played,
        best=best,
        equity_loss=loss,
        mwc_loss=None,
        skill=skill_of(loss),
        alternatives=(Alternative(best, 0.5), Alternative(played, 0.5 - loss)),
        forced=forced,
    )


@pytest.fixture
def judge(monkeypatch: pytest.MonkeyPatch) -> StandInJudge:
    stand_in = StandInJudge()
    monkeypatch.setattr(tavola.analysis.chouette, "judge_move", stand_in.judge_move)
    monkeypatch.setattr(tavola.analysis.chouette, "judge_cube", stand_in.judge_cube)
    return stand_in


def two_answers() -> Chouette:
    """Cid, the box, doubles Ann and Ben after the opening; Ann takes and Ben drops (H5); Ann redoubles
    after Cid's 6-6 and Cid drops, which ends the game."""
    table = Chouette(ChouetteSettings(), RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
    game = table.start_game()
    assert (game.box, game.team) == ("Cid", ("Ann", "Ben"))
    game.roll("Ann")
    game.play("Ann", "24/15")
    game.double("Cid", ["Ann", "Ben"])
    game.take("Ann")
    game.drop("Ben")
    game.roll("Cid")
    game.play("Cid", "24/18(2) 13/7(2)")
    game.double("Ann")
    game.drop("Cid")
    assert game.is_over
    return table


def test_H5_two_members_answering_one_double_differently_make_two_judged_decisions(
    judge: StandInJudge,
) -> None:
    analysis = analyze_chouette(two_answers(), level="0-ply")
    assert analysis.names == ("Cid", "Ann", "Ben")
    answers = [
        (analysis.names[d.player], d.played, d.skill)
        for d in analysis.decisions
        if d.played in ("take", "drop")
    ]
    assert answers[:2] == [("Ann", "take", Skill.NONE), ("Ben", "drop", Skill.VERY_BAD)]
    # each answer is asked on a money game of the one cube: the box (player 0) on roll, centred cube, doubled
    assert (0, Cube(1), Phase.DOUBLED, "Take") in judge.cube_questions
    assert (0, Cube(1), Phase.DOUBLED, "Drop") in judge.cube_questions


def test_H8_the_box_doubling_two_members_makes_a_decision_on_each_cube(judge: StandInJudge) -> None:
    analysis = analyze_chouette(two_answers(), level="0-ply")
    doubles = [d for d in analysis.decisions if d.played == "double, take" and d.move == 2]
    assert [analysis.names[d.player] for d in doubles] == ["Cid", "Cid"]
    assert all(d.game == 1 for d in analysis.decisions)


def test_the_captains_play_is_judged_and_every_player_gets_figures(judge: StandInJudge) -> None:
    analysis = analyze_chouette(two_answers(), level="0-ply")
    assert judge.plays == ["24/15", "24/18(2) 13/7(2)"]  # the captain's and the box's
    ann, ben, cid = (analysis.figures(name) for name in ("Ann", "Ben", "Cid"))
    assert (ann.moves, ann.cube_decisions, ann.total_error) == (1, 2, 0.0)
    assert (ben.moves, ben.cube_decisions, ben.total_error) == (0, 1, 0.2)
    assert ben.cube_errors_by_skill[Skill.VERY_BAD] == 1
    assert (cid.moves, cid.cube_decisions) == (1, 3)
    assert (ann.result, ben.result, cid.result) == (2.0, -1.0, -1.0)  # the ledger's points


def test_a_redouble_is_judged_on_the_takers_own_cube(judge: StandInJudge) -> None:
    analyze_chouette(two_answers(), level="0-ply")
    # Ann (the team, player 1) on roll redoubles her cube at 2, which she owns; Cid's drop is asked on it
    assert (1, Cube(2, owner=1), Phase.ROLL, "Double") in judge.cube_questions
    assert (1, Cube(2, owner=1), Phase.DOUBLED, "Drop") in judge.cube_questions


def test_a_saved_chouette_is_analysed_from_its_file_and_the_view_names_the_wrong_answer(
    judge: StandInJudge, tmp_path: Path
) -> None:
    path = tmp_path / "chouette.json"
    two_answers().save(path)
    assert record_kind(path) == "chouette"
    assert record_kind(tmp_path / "missing.json") == "record"
    analysis = analyze_chouette_file(path, level="0-ply")
    assert analysis.source == str(path)
    output = io.StringIO()
    Console(file=output, width=160).print(chouette_analysis_view(analysis))
    text = output.getvalue()
    assert "Game 1, turn 2: Ben drop loses 0.200 (very bad); better: take." in text
    assert [name for name in ("Ann", "Ben", "Cid") if name in text] == ["Ann", "Ben", "Cid"]
