"""Match analysis: decisions judged, cube errors named, luck, the figures, the JSON and ``tavola analyze``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tavola.actions import Drop
from tavola.analysis.analyze import analyze_file, analyze_series
from tavola.analysis.decisions import doubling_decision
from tavola.analysis.jsonout import analysis_json
from tavola.analysis.judge import judge_cube, judge_move
from tavola.analysis.model import Analysis, CubeError, Skill
from tavola.bot.evaluate import Evaluator
from tavola.cli import main
from tavola.console.session import PlaySession, Seat
from tavola.dicesource import ManualDice
from tavola.game import Game
from tavola.position import Position
from tavola.records import load

DATA = Path(__file__).parent / "data"
MATCH = DATA / "gnubg-5-point-match.mat"
MONEY = DATA / "gnubg-money-beavers.mat"


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator.default()


@pytest.fixture(scope="module")
def match_analysis(evaluator: Evaluator) -> Analysis:
    return analyze_file(MATCH, level="0-ply", evaluator=evaluator)


@pytest.fixture(scope="module")
def money_analysis(evaluator: Evaluator) -> Analysis:
    return analyze_file(MONEY, level="0-ply", evaluator=evaluator)


def test_a_deliberately_bad_play_is_very_bad_with_the_right_best_play(evaluator: Evaluator) -> None:
    game = Game(dice=ManualDice(["31"]), position=Position.start(), player_on_roll=0)
    game.roll()
    decision = judge_move(game, "6/2", level="0-ply", evaluator=evaluator)
    assert decision.skill is Skill.VERY_BAD
    assert decision.best == "8/5 6/5"
    assert decision.played == "6/2"
    assert decision.alternatives[0].text == "8/5 6/5"
    assert "6/2" in [alternative.text for alternative in decision.alternatives]


def test_the_best_play_loses_nothing(evaluator: Evaluator) -> None:
    game = Game(dice=ManualDice(["31"]), position=Position.start(), player_on_roll=0)
    game.roll()
    decision = judge_move(game, "8/5 6/5", level="1-ply", evaluator=evaluator)
    assert decision.equity_loss == 0.0
    assert decision.skill is Skill.NONE


def test_a_dropped_double_that_should_be_taken_is_a_wrong_drop(evaluator: Evaluator) -> None:
    game = Game(position=Position.start(), player_on_roll=0)
    game.double()
    decision = judge_cube(game, Drop(), level="0-ply", evaluator=evaluator)
    assert decision.best == "take"
    assert decision.cube_error is CubeError.WRONG_DROP
    assert decision.equity_loss > 1.0


def test_a_missed_double_is_named(evaluator: Evaluator) -> None:
    game = Game(position=Position.start(), player_on_roll=0)
    decision, close = doubling_decision(game, [0.76, 0.0, 0.0, 0.0, 0.0], None, doubled=False, where=(1, 1))
    assert close
    assert decision.best == "double, take"
    assert decision.cube_error is CubeError.MISSED_DOUBLE


def test_M3_a_beaver_where_the_double_was_wrong_is_right(money_analysis: Analysis) -> None:
    beavers = [d for d in money_analysis.decisions if d.played == "beaver"]
    assert len(beavers) == 3
    assert all(d.best == "beaver" and d.equity_loss == 0.0 for d in beavers)
    doubles = [d for d in money_analysis.decisions if d.played.startswith("double")]
    assert all(d.cube_error is CubeError.WRONG_DOUBLE for d in doubles)


def test_M4_a_raccoon_is_judged_against_the_take(money_analysis: Analysis) -> None:
    raccoons = [d for d in money_analysis.decisions if d.played == "raccoon"]
    assert raccoons
    assert all(d.cube_error is CubeError.WRONG_BEAVER for d in raccoons)


def test_a_pass_after_a_raccoon_pays_the_cube_before_it(money_analysis: Analysis) -> None:
    dropped = next(d for d in money_analysis.decisions if d.game == 2 and d.played == "drop")
    values = {alternative.text: alternative.equity for alternative in dropped.alternatives}
    assert values["drop"] == -4.0  # the cube was 4 before the raccoon, per unit of the cube before the double
    assert dropped.cube_error is CubeError.WRONG_DROP


def test_P2_the_crawford_game_has_no_cube_decision(match_analysis: Analysis) -> None:
    match = load(MATCH)
    crawford = [index + 1 for index, game in enumerate(match.games) if game.crawford]
    assert crawford
    in_crawford = [d for d in match_analysis.decisions if d.game in crawford]
    assert in_crawford
    cube = [d for d in in_crawford if d.kind == "cube" and d.played not in ("resign", "accept", "decline")]
    assert cube == []


def test_match_decisions_have_their_mwc_loss(match_analysis: Analysis) -> None:
    errors = match_analysis.errors()
    assert errors
    assert all(d.mwc_loss is not None and d.mwc_loss > 0 for d in errors)


def test_the_luck_of_rolls_that_hit_is_positive(match_analysis: Analysis) -> None:
    hits = [
        d.luck for d in match_analysis.decisions if d.kind == "move" and "*" in d.best and d.luck is not None
    ]
    assert len(hits) > 5
    assert sum(hits) / len(hits) > 0


def test_figures_add_up(match_analysis: Analysis) -> None:
    for player, figures in enumerate(match_analysis.players):
        mine = [d for d in match_analysis.decisions if d.player == player and not d.forced]
        assert math.isclose(figures.total_error, sum(d.equity_loss for d in mine))
        assert math.isclose(figures.total_error, figures.move_error + figures.cube_error)
        counted = figures.unforced_moves + figures.cube_decisions
        assert math.isclose(figures.error_rate_memg, 1000 * figures.total_error / counted)
        assert sum(figures.move_errors.values()) == figures.unforced_moves
        assert figures.moves == sum(
            1 for d in match_analysis.decisions if d.player == player and d.kind == "move"
        )
    assert match_analysis.players[1].result == 0.5  # root won the match 5-3: 50% more than at the start


@pytest.mark.parametrize("name", ["match_analysis", "money_analysis"])
def test_luck_adjusted_results_count_both_sides_luck_and_are_opposite(
    name: str, request: pytest.FixtureRequest
) -> None:
    """GNU Backgammon's and eXtreme Gammon's definition: the result less one's own luck plus the
    opponent's, so what one gains the other loses (money: points; a match: chances against 50%)."""
    analysis: Analysis = request.getfixturevalue(name)
    luck = [sum(d.luck_result or 0.0 for d in analysis.decisions if d.player == player) for player in (0, 1)]
    assert all(luck)
    one, two = analysis.players
    assert one.result + two.result == 0.0
    assert one.luck_adjusted_result + two.luck_adjusted_result == pytest.approx(0.0, abs=1e-12)
    assert one.luck_adjusted_result == pytest.approx(one.result - luck[0] + luck[1])


def test_the_json_has_the_required_keys(money_analysis: Analysis) -> None:
    data = json.loads(json.dumps(analysis_json(money_analysis)))
    for player in data["players"]:
        assert {"name", "error_rate_memg", "pr", "luck_per_move"} <= player.keys()
    for decision in data["decisions"]:
        assert {"game", "move", "player", "kind", "played", "best", "equity_loss"} <= decision.keys()


def test_an_analysis_of_a_series_in_memory(evaluator: Evaluator) -> None:
    session = load(MONEY)
    analysis = analyze_series(session, level="0-ply", evaluator=evaluator, names=("A", "B"))
    assert [player.name for player in analysis.players] == ["A", "B"]
    assert analysis.length == 0
    assert len(analysis.games) == 4


def test_cli_analyses_both_files_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(MATCH), str(MONEY), "--level", "0-ply", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [entry["length"] for entry in data] == [5, 0]


def test_cli_at_the_default_level_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(MONEY)]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out
    assert "2-ply cubeful" in out
    assert "raccoon" in out


def test_cli_reads_the_autosave(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = PlaySession(load(MATCH), (Seat("gnubg"), Seat("root")))
    path = tmp_path / "play.json"
    session.save(path)
    assert main(["analyze", str(path), "--level", "0-ply", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["length"] == 5


def test_cli_a_bad_file_exits_2_and_the_others_are_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text("not a match\n")
    assert main(["analyze", str(bad), str(MONEY), "--level", "0-ply", "--json"]) == 2
    captured = capsys.readouterr()
    assert "bad.mat" in captured.err
    assert len(json.loads(captured.out)) == 1
