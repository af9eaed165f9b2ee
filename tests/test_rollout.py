"""Rollouts: exact sums that merge, quasi-random dice, variance reduction, paired plays, the command."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.analysis import rollout as rollout_module
from tavola.analysis.rollout import (
    BLOCK,
    RolloutError,
    RolloutSettings,
    quasi_random_dice,
    rollout_plays,
    rollout_position,
    rollout_positions,
)
from tavola.analysis.stats import Estimate, Moments, merge
from tavola.bot.bearoff import default_database
from tavola.bot.cube import CubeAction, CubeResponse
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import level
from tavola.bot.met import default_table, match_equity_after, mwc_to_equity
from tavola.cli import main
from tavola.cube import Cube
from tavola.distribute import Spread
from tavola.match import MatchScore
from tavola.rules import Rules
from tavola.variants import find_variant

TINY = Evaluator.untrained(hidden=8, seed=4)
START = "4HPwATDgc/ABMA"
# One checker on the six point against one on the ace point: the player on roll wins with the 27 of
# the 36 rolls that bear it off (not 1-1, 2-1, 3-1, 4-1, 3-2), else the opponent bears off.
SIX_AGAINST_ACE = Position([0] * 5 + [1] + [0] * 17 + [-1], off=(14, 14))


def test_moments_of_any_split_of_the_trials_merge_to_the_same_bits():
    values = np.random.default_rng(1).normal(size=(50, 3))
    pairs = [(0, 1), (1, 2)]
    whole = Moments.of(values, pairs)
    for cuts in ([10], [1, 2, 30], [25, 26, 49]):
        parts = [Moments.of(part, pairs) for part in np.split(values, cuts)]
        assert merge(parts) == whole
        assert merge(parts[::-1]) == whole
    estimate = whole.estimate(2)
    assert estimate.mean == pytest.approx(values[:, 2].mean(), abs=1e-9)
    assert estimate.standard_error == pytest.approx(values[:, 2].std(ddof=1) / np.sqrt(50), rel=1e-9)
    difference = whole.difference(2, 1)
    paired = values[:, 2] - values[:, 1]
    assert difference.mean == pytest.approx(paired.mean(), abs=1e-9)
    assert difference.standard_error == pytest.approx(paired.std(ddof=1) / np.sqrt(50), rel=1e-9)


def test_the_same_seed_gives_bit_identical_results_however_the_trials_are_split():
    settings = RolloutSettings(trials=100, truncation=3, seed=11)
    one = rollout_position(Position.start(), settings, TINY)
    assert rollout_position(Position.start(), settings, TINY, chunk=BLOCK) == one
    assert rollout_position(Position.start(), settings, TINY, chunk=3 * BLOCK) == one
    assert rollout_position(Position.start(), settings, TINY, spread=Spread(workers=2), chunk=BLOCK) == one
    plays = RolloutSettings(trials=40, truncation=2, seed=5)
    paired = rollout_plays(Position.start(), Dice(4, 2), plays, TINY, 3)
    assert rollout_plays(Position.start(), Dice(4, 2), plays, TINY, 3, chunk=BLOCK) == paired
    assert rollout_position(Position.start(), RolloutSettings(trials=100, truncation=3, seed=12), TINY) != one


def test_quasi_random_first_rolls_cover_all_36_in_every_block_and_first_two_all_1296():
    dice = quasi_random_dice(key=3, first=0, count=2 * 1296)
    ordered = [tuple(pair) for pair in dice[:, 0].tolist()]
    for block in range(0, len(dice), BLOCK):
        assert sorted(ordered[block : block + BLOCK]) == [(a, b) for a in range(1, 7) for b in range(1, 7)]
    for block in range(0, len(dice), 1296):
        assert len({dice[trial].tobytes() for trial in range(block, block + 1296)}) == 1296
    assert (quasi_random_dice(3, 100, 50) == dice[100:150]).all()  # a trial's dice are its own
    assert not (quasi_random_dice(4, 0, BLOCK) == dice[:BLOCK]).all()  # and the seed's


def test_a_finished_game_rolls_out_to_its_exact_result():
    gammoned = Position([0] * 18 + [-15] + [0] * 5, off=(15, 0)).flip()  # on roll, all borne off by the other
    result = rollout_position(gammoned, RolloutSettings(trials=10, seed=1), TINY)
    assert [estimate.mean for estimate in result.probabilities] == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert result.equity.mean == -2.0
    assert result.equity.standard_error == 0.0


@pytest.mark.parametrize("variance_reduction", [False, True])
def test_a_bear_off_decided_by_one_roll_rolls_out_to_its_exact_chances(variance_reduction):
    exact = Evaluator(TINY.contact_net, TINY.race_net, default_database())
    settings = RolloutSettings(trials=2 * BLOCK, variance_reduction=variance_reduction, seed=9)
    result = rollout_position(SIX_AGAINST_ACE, settings, exact)
    assert result.probabilities[0].mean == pytest.approx(0.75, abs=1e-6)  # quasi-random: each roll once
    assert result.equity.mean == pytest.approx(0.5, abs=1e-6)
    if variance_reduction:  # the exact evaluator takes all the luck out: every trial is worth 0.5
        assert result.equity.standard_error < 1e-6
    else:
        assert result.equity.standard_error == pytest.approx(np.sqrt(0.75 * 0.25 * 4 / 71), rel=1e-9)


def test_variance_reduction_lowers_the_standard_error_and_keeps_the_mean():
    evaluator = Evaluator.default()
    race = Position([2, 3, 3, 2, 3, 2] + [0] * 12 + [-2, -3, -3, -2, -3, -2])
    found = {
        reduced: rollout_position(
            race, RolloutSettings(trials=4 * BLOCK, variance_reduction=reduced, seed=2), evaluator
        )
        for reduced in (False, True)
    }
    plain, reduced = found[False].equity, found[True].equity
    assert reduced.standard_error < plain.standard_error / 2
    assert abs(plain.mean - reduced.mean) < 3 * np.hypot(plain.standard_error, reduced.standard_error)


def test_paired_plays_are_rolled_out_on_the_same_dice(monkeypatch):
    seen = []
    real = rollout_module.play

    def recording(*args, **kwargs):
        for step in real(*args, **kwargs):
            seen.append(step)
            yield step

    monkeypatch.setattr(rollout_module, "play", recording)
    settings = RolloutSettings(trials=BLOCK, truncation=4, variance_reduction=False, seed=7)
    found = rollout_plays(Position.start(), Dice(6, 5), settings, TINY, 2)
    dice: dict[tuple[int, int], set[bytes]] = {}
    plays_per_trial: dict[int, set[int]] = {}
    for step in seen:
        for game, stream, turn, rolled in zip(step.game, step.stream, step.turn, step.dice, strict=True):
            dice.setdefault((int(stream), int(turn)), set()).add(rolled.tobytes())
            plays_per_trial.setdefault(int(stream), set()).add(int(game) // BLOCK)
    assert all(plays == {0, 1} for plays in plays_per_trial.values())  # both plays in each trial
    assert all(len(rolls) == 1 for rolls in dice.values())  # the same roll at each turn
    best, other = found
    assert best.difference.mean == 0.0
    assert other.difference.mean == pytest.approx(other.result.equity.mean - best.result.equity.mean)
    assert other.difference.standard_error > 0


def test_early_stop_at_a_target_standard_error_counts_whole_chunks_from_the_start():
    settings = RolloutSettings(trials=20 * BLOCK, truncation=2, seed=3)
    seen = []
    stopped = rollout_position(
        Position.start(), settings, TINY, target_se=1.0, progress=lambda done, _: seen.append(done)
    )
    assert stopped.trials == seen[0] == 2 * BLOCK  # the first chunk already has an error below 1
    first = rollout_position(Position.start(), RolloutSettings(trials=2 * BLOCK, truncation=2, seed=3), TINY)
    assert stopped == first


def test_bad_settings_are_refused_with_what_is_wrong():
    with pytest.raises(RolloutError, match="at least 1 trial"):
        RolloutSettings(trials=0)
    with pytest.raises(RolloutError, match="truncated after 1 play or more"):
        RolloutSettings(truncation=0)
    with pytest.raises(RolloutError, match="0 or 1 ply without noise"):
        RolloutSettings(level=level("2-ply"))
    with pytest.raises(RolloutError, match="multiple of 36"):
        rollout_position(Position.start(), RolloutSettings(trials=10), TINY, chunk=50)
    with pytest.raises(RolloutError, match="3 checkers a side"):
        rollout_position(Position([1, 1, 1] + [0] * 20 + [-3], checkers=3), RolloutSettings(), TINY)


def test_positions_rolled_out_side_by_side_are_each_their_own_rollout():
    boards = np.stack(
        [
            Position.start().to_array(),
            Position.from_position_id("jGfkATDg8+ABUA").to_array(),
            SIX_AGAINST_ACE.to_array(),
        ]
    )
    for settings in (
        RolloutSettings(trials=BLOCK + 4, truncation=3, seed=8),  # a block and part of the next
        RolloutSettings(trials=12, seed=9, variance_reduction=False),
    ):
        together = rollout_positions(boards, settings, TINY)
        for board, means in zip(boards, together, strict=True):
            alone = rollout_position(Position.from_array(board), settings, TINY).probabilities
            assert np.allclose(means, [estimate.mean for estimate in alone], atol=1e-12)


def test_positions_to_roll_out_side_by_side_are_checked():
    start = Position.start().to_array()
    with pytest.raises(RolloutError, match="cubeless, for money"):
        rollout_positions(start[None], RolloutSettings(trials=4, cubeful=True), TINY)
    with pytest.raises(RolloutError, match=r"shape \(N, 30\), not \(30,\)"):
        rollout_positions(start, RolloutSettings(trials=4), TINY)
    hyper = Position([1, 1, 1] + [0] * 20 + [-3], checkers=3).to_array()
    with pytest.raises(RolloutError, match=r"board 1: .*3, not 15"):
        rollout_positions(np.stack([start, hyper]), RolloutSettings(trials=4), TINY)
    with pytest.raises(RolloutError, match="not values of type float64"):
        rollout_positions(start[None] + 0.5, RolloutSettings(trials=4), TINY)
    wrapped = start[None].astype(np.int64)
    wrapped[0, 6] += 256  # would be 5 again as a byte: refused, not read as another board
    with pytest.raises(RolloutError, match="counts of checkers, not 261"):
        rollout_positions(wrapped, RolloutSettings(trials=4), TINY)
    assert rollout_positions(np.zeros((0, 30), np.int8), RolloutSettings(trials=4), TINY).shape == (0, 5)


def test_the_command_prints_a_table_for_a_position(capsys):
    assert main(["rollout", START, "--trials", "36", "--truncate", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Rollout before the roll, 36 trials" in out
    assert "Equity" in out
    assert "interval at 95%" in out
    assert "±" in out


def test_the_command_prints_json_for_plays_best_first(capsys):
    argv = ["rollout", START, "31", "--trials", "36", "--truncate", "2", "--plays", "3", "--seed", "1"]
    assert main([*argv, "--json", "--no-quasi-random", "--no-variance-reduction"]) == 0
    report = json.loads(capsys.readouterr().out)
    plays = report["plays"]
    assert len(plays) == 3
    assert plays[0]["play"] == "8/5 6/5"
    equities = [entry["equity"]["mean"] for entry in plays]
    assert equities == sorted(equities, reverse=True)
    assert plays[0]["difference"] == {"mean": 0.0, "se": 0.0, "interval": [0.0, 0.0]}
    assert all(entry["trials"] == 36 and entry["seed"] == 1 for entry in plays)
    low, high = plays[1]["win"]["interval"]
    assert low < plays[1]["win"]["mean"] < high


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["nonsense"], "neither a gnubg Position ID"),
        ([START, "77"], "cannot read dice '77'"),
        ([START, "--trials", "x"], "--trials: a whole number from 1 up, not 'x'"),
        ([START, "--plies", "2"], "0 or 1 ply without noise, not at world-class (2-ply cubeful)"),
        ([START, "--plies", "5"], "no level looks 5 plies ahead; known: 0-ply, 1-ply, 2-ply"),
        ([START, "--workers", "0"], "--workers: a whole number from 1 up"),
        ([START, "--seed", "-3"], "--seed takes a whole number from 0 up"),
        ([START, "--target-se", "0"], "--target-se: a number above 0"),
    ],
)
def test_a_bad_position_dice_or_option_is_a_one_line_error(capsys, argv, says):
    assert main(["rollout", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tavola rollout: ")
    assert says in captured.err
    assert captured.err.count("\n") == 1


# --- cubeful rollouts ----------------------------------------------------------------------------------

EXACT = Evaluator.default()


def _race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from the checkers each side has on its own points (the rest borne off)."""
    points = [0] * 24
    for point, count in mine.items():
        points[point - 1] += count
    for point, count in theirs.items():
        points[24 - point] -= count
    return Position(points, off=(15 - sum(mine.values()), 15 - sum(theirs.values())))


# On roll with two checkers on the three point against three more checkers: off at once with all but
# 1-1 and 2-1 (and the game is then a single win), the cube dead after this roll.
LAST_ROLL = _race({3: 2}, {2: 2, 3: 1})
CUBEFUL = RolloutSettings(trials=2 * BLOCK, seed=1, cubeful=True)
# On roll with six checkers on the ace point (three rolls to bear off, two with a double) against three
# on the opponent's six point (two rolls mostly): the opponent doubles us out.
BEHIND = _race({1: 6}, {6: 3})


def test_a_player_far_ahead_in_a_last_roll_gets_double_pass_and_no_double_near_one():
    found = rollout_position(LAST_ROLL, CUBEFUL, EXACT).cubeful
    assert found is not None
    assert found.decision is not None
    assert (found.decision.action, found.decision.response) == (CubeAction.DOUBLE, CubeResponse.DROP)
    win = found.no_double.mean  # the cube is dead: no double is 2p - 1, p = 1 - 3/36 less the rolls that miss
    assert 0.8 < win < 1.0
    assert found.double_pass == Estimate(1.0, 0.0)
    assert found.double_take is not None
    assert found.double_take.mean == pytest.approx(2 * win, abs=1e-9)  # the same dice, twice the cube
    assert found.equity == found.double_pass


def test_no_double_and_double_take_are_paired_on_the_same_dice():
    found = rollout_position(
        Position.start(), RolloutSettings(trials=BLOCK, truncation=3, seed=2, cubeful=True), TINY
    )
    figures = found.cubeful
    assert figures is not None
    assert figures.double_take is not None
    assert figures.take_less_no_double is not None
    assert figures.take_less_no_double.mean == pytest.approx(
        figures.double_take.mean - figures.no_double.mean
    )
    unpaired = np.hypot(figures.double_take.standard_error, figures.no_double.standard_error)
    assert figures.take_less_no_double.standard_error < unpaired


def test_a_redouble_of_a_cube_of_2_owned_is_counted_per_unit_of_that_cube():
    owned = rollout_position(LAST_ROLL, replace(CUBEFUL, cube=Cube(2, 0)), EXACT).cubeful
    centred = rollout_position(LAST_ROLL, CUBEFUL, EXACT).cubeful
    assert owned is not None
    assert owned.decision is not None
    assert centred is not None
    assert owned.decision.redouble
    assert owned.decision.title == "Redouble, drop"
    assert owned.no_double == centred.no_double  # per unit of the cube: the same figures
    assert owned.double_take == centred.double_take


def test_a_trailer_whose_cube_the_opponent_owns_at_2_has_no_double_to_roll_out():
    lost = _race({6: 3, 5: 3}, {1: 2})  # the opponent bears off next: lost single, whatever the cube
    found = rollout_position(lost, replace(CUBEFUL, cube=Cube(2, 1)), EXACT).cubeful
    assert found is not None
    assert found.decision is not None
    assert found.double_take is None
    assert found.double_pass is None
    assert found.decision.action is CubeAction.NO_DOUBLE
    assert found.equity == found.no_double
    assert found.no_double.mean == pytest.approx(-1.0)


def test_a_dropped_double_ends_the_trial_at_the_cube_value_and_stops_the_game(monkeypatch):
    turns = []
    real = rollout_module.play

    def recording(*args, **kwargs):
        for step in real(*args, **kwargs):
            turns.extend(step.turn.tolist())
            yield step

    monkeypatch.setattr(rollout_module, "play", recording)
    settings = replace(CUBEFUL, trials=BLOCK, variance_reduction=False, cube=Cube(2))
    found = rollout_position(BEHIND, settings, EXACT).cubeful
    assert found is not None
    assert found.no_double == Estimate(-1.0, 0.0)  # dropped at the next turn, every trial, a cube of 2
    assert max(turns) == 1  # no game went on after the drop


def test_the_jacoby_rule_counts_a_gammon_single_while_the_cube_is_centred():
    gammon = _race({1: 2}, {6: 5, 5: 5, 4: 5})  # off this roll; the opponent has none off
    plain = rollout_position(gammon, CUBEFUL, EXACT).cubeful
    jacoby = rollout_position(gammon, replace(CUBEFUL, rules=Rules(jacoby=True)), EXACT).cubeful
    assert plain is not None
    assert jacoby is not None
    assert plain.no_double.mean == 2.0
    assert jacoby.no_double.mean == 1.0  # M5: the cube was never turned
    assert plain.double_take == jacoby.double_take == Estimate(4.0, 0.0)  # a turned cube counts gammons
    assert plain.decision is not None
    assert plain.decision.action is CubeAction.TOO_GOOD


def test_a_match_at_2_away_4_away_is_in_match_winning_chances_and_normalised_equity():
    match = MatchScore.from_away((2, 4))
    settings = RolloutSettings(trials=BLOCK, truncation=2, seed=4, cubeful=True, match=match)
    result = rollout_position(Position.start(), settings, TINY)
    figures, normalised = result.cubeful, result.normalised
    assert figures is not None
    assert normalised is not None
    assert result.mwc is not None
    assert figures.double_pass == Estimate(match_equity_after(2, 4, 1), 0.0)
    assert normalised.double_pass == Estimate(pytest.approx(1.0), 0.0)
    assert normalised.no_double.mean == pytest.approx(mwc_to_equity(figures.no_double.mean, 2, 4))
    assert 0.0 < result.mwc.mean < 1.0
    assert 0.0 < figures.no_double.mean < 1.0
    cubeless = default_table().cubeless([estimate.mean for estimate in result.probabilities], 2, 4)
    assert result.mwc.mean == pytest.approx(cubeless, abs=1e-9)  # the cubeless chances at the score


def test_P2_nobody_doubles_in_the_crawford_game():
    crawford = MatchScore.from_away((3, 1), crawford=True)
    settings = RolloutSettings(trials=BLOCK, truncation=2, seed=4, cubeful=True, match=crawford)
    figures = rollout_position(Position.start(), settings, TINY).cubeful
    assert figures is not None
    assert figures.decision is not None
    assert figures.double_take is None
    assert figures.decision.action is CubeAction.NO_DOUBLE


def test_plays_are_ranked_by_their_cubeful_equity_with_the_cube_as_given():
    settings = RolloutSettings(trials=BLOCK, truncation=2, seed=5, cubeful=True, cube=Cube(2, 1))
    found = rollout_plays(Position.start(), Dice(3, 1), settings, TINY, 3)
    cubeful = [entry.result.cubeful.no_double.mean for entry in found if entry.result.cubeful is not None]
    assert len(cubeful) == 3
    assert cubeful == sorted(cubeful, reverse=True)
    assert found[1].difference.mean == pytest.approx(cubeful[1] - cubeful[0])


def test_a_cubeful_rollout_stops_on_the_error_of_the_figure_that_decides():
    seen = []
    settings = RolloutSettings(trials=10 * BLOCK, truncation=2, seed=3, cubeful=True)
    found = rollout_position(
        Position.start(), settings, TINY, chunk=BLOCK, target_se=10.0, progress=lambda n, e: seen.append(e)
    )
    assert found.trials == BLOCK
    assert seen == [found.deciding]
    assert found.cubeful is not None
    assert found.cubeful.double_take is not None
    assert found.deciding.standard_error == max(
        found.cubeful.no_double.standard_error, found.cubeful.double_take.standard_error
    )


def test_cubeful_settings_are_refused_without_a_cube():
    with pytest.raises(RolloutError, match="without the doubling cube"):
        RolloutSettings(cubeful=True, variant=find_variant("acey-deucey"))
    with pytest.raises(RolloutError, match="these rules have no doubling cube"):
        RolloutSettings(cubeful=True, rules=Rules(cube=False))


def test_the_command_rolls_out_an_xgid_cubeful_with_every_figure_in_json(capsys):
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:3:0:10"  # money, the cube at 2 on roll's side
    argv = ["rollout", xgid, "--trials", "36", "--truncate", "2", "--seed", "7", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    settings = report["settings"]
    assert settings["cubeful"] is True
    assert settings["seed"] == 7
    assert settings["cube"] == {"value": 2, "owner": "player"}
    figures = report["position"]["cubeful"]
    for name in ("no_double", "double_take", "double_pass", "take_less_no_double", "equity"):
        assert set(figures[name]) == {"mean", "se", "interval"}
    assert figures["action"] in {"no double", "double", "too good to double"}
    assert main([*argv, "--cubeless"]) == 0
    assert "cubeful" not in json.loads(capsys.readouterr().out)["position"]


def test_the_command_shows_the_cube_action_under_the_table(capsys):
    assert main(["rollout", START, "--trials", "36", "--truncate", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "double/take" in out
    assert "No double" in out or "Double" in out
