"""The rule-based player and the variants benchmark (``benchmarks/rule_player.py``, ``benchmarks/variants.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tavola.bot.arena import RandomChooser, duplicate_match, policy_for
from tavola.bot.encode import INPUTS
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import Network
from tavola.dice import Dice
from tavola.position import START_BOARD, Position
from tavola.selfplay import play
from tavola.variants import ACEY_DEUCEY, DUTCH, NACKGAMMON, STANDARD

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import variants
from rule_player import RulePlayer


def best_play(player: RulePlayer, position: Position, dice: Dice) -> str:
    plays = position.legal_plays(dice, player.variant)
    results = np.stack([play.after.to_array() for play in plays])
    return str(plays[player.choose(position.to_array(), results)])


def test_the_rule_player_makes_its_5_point_and_hits_a_blot() -> None:
    assert best_play(RulePlayer(), Position.start(), Dice(3, 1)) == "8/5 6/5"
    board = list(START_BOARD)
    board[16], board[17] = -2, -1  # one of the opponent's checkers on their bar point, the mover's 18-point
    assert "24/18*" in best_play(RulePlayer(), Position(board), Dice(6, 2))


def test_V1_the_rule_player_leaves_blots_where_the_dutch_opponent_may_not_hit() -> None:
    # Both sides have entered everything; neither has a checker home: nobody may hit yet (V1).
    board = [0] * 24
    board[12], board[13], board[14] = 5, 5, 5  # the mover's 13-, 14- and 15-points
    board[1], board[2], board[3] = -5, -5, -5  # the opponent's checkers on the mover's 2-, 3- and 4-points
    unsafe = Position(board)
    player, standard = RulePlayer(DUTCH), RulePlayer(STANDARD)
    arrays = np.stack([unsafe.to_array()])
    one_blot = unsafe.parse_play(Dice(6, 5), "13/7 13/8").after.to_array()[None]
    assert player.scores(arrays, one_blot)[0] > standard.scores(arrays, one_blot)[0]


def test_V2_the_rule_player_enters_when_behind_in_development() -> None:
    behind = Position([0] * 5 + [2] + [0] * 17 + [-12], waiting=(13, 3))
    assert ACEY_DEUCEY.start.checkers == behind.checkers
    plays = behind.legal_plays(Dice(4, 3), ACEY_DEUCEY)
    entering = [play for play in plays if play.after.waiting[0] < 13]
    assert entering
    chosen = best_play(RulePlayer(ACEY_DEUCEY), behind, Dice(4, 3))
    assert chosen in {str(play) for play in entering}


def test_the_rule_player_as_a_policy_chooses_what_it_chooses_one_game_at_a_time() -> None:
    player = RulePlayer(DUTCH)
    assert policy_for(player) is player
    checked = 0
    for step in play((player, player), games=6, key=4, variant=DUTCH, stop_after=40):
        for game in np.flatnonzero(step.counts > 1):
            first, end = step.offsets[game], step.offsets[game + 1]
            assert first + player.choose(step.boards[game], step.results[first:end]) == step.chosen[game]
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", [STANDARD, DUTCH, ACEY_DEUCEY])
def test_the_rule_player_beats_random_play_clearly(variant) -> None:
    result = duplicate_match(
        RulePlayer(variant), RandomChooser(np.random.default_rng(2)), 20, 3, variant=variant
    )
    assert result.points_per_game > 1.0


@pytest.fixture(scope="module")
def untrained() -> variants.Bot:
    return variants.Bot(Evaluator.untrained(hidden=8, seed=1), "the untrained networks")


@pytest.mark.parametrize(("variant", "unit"), [(DUTCH, "points"), (ACEY_DEUCEY, "checkers")])
def test_dutch_and_acey_deucey_play_the_variant_bot_against_the_standard_bot_and_the_rule_player(
    untrained: variants.Bot, variant, unit: str
) -> None:
    other = variants.Bot(Evaluator.untrained(hidden=8, seed=2), "other untrained networks")
    lines = variants.networks_benchmark(
        variant, 2, 5, False, against_rules=True, candidate=untrained, standard=other
    )
    assert [line.unit for line in lines] == [unit, unit]
    assert "against other untrained networks" in lines[0].title
    assert "against the rule-based player" in lines[1].title
    assert all(line.result.games == 4 and line.result.seed == 5 for line in lines)
    text = variants.report(variant.name, lines[1])
    assert f"{unit} per game ±" in text
    assert " s, " in text


def test_nackgammon_plays_the_candidate_networks_against_the_standard_bot(tmp_path, capsys) -> None:
    Network.random([INPUTS, 8, 5], seed=1).save(tmp_path / "candidate.npz")
    Network.random([INPUTS, 8, 5], seed=2).save(tmp_path / "candidate-race.npz")
    variants.main(
        [
            "--variant",
            "nackgammon",
            "--games",
            "2",
            "--seed",
            "7",
            "--weights",
            str(tmp_path / "candidate.npz"),
        ]
    )
    printed = capsys.readouterr().out
    assert printed.count("nackgammon: ") == 1  # no rule player in nackgammon
    assert f"candidate networks {tmp_path / 'candidate.npz'}" in printed
    assert "against the standard bot playing nackgammon, the standard networks (tavola.npz)" in printed
    assert "over 4 games, seed 7" in printed


def test_the_output_says_whether_the_variant_bot_has_networks_of_its_own(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(variants, "shipped_weights", lambda variant: tmp_path / "missing.npz")
    assert (
        "the standard networks (tavola.npz) as no dutch networks ship yet"
        in variants.variant_bot(DUTCH).described
    )
    (tmp_path / "own.npz").touch()
    monkeypatch.setattr(variants, "shipped_weights", lambda variant: tmp_path / "own.npz")
    assert variants.variant_bot(NACKGAMMON).described == "the nackgammon bot, its own networks (own.npz)"


def test_hypergammon_takes_no_candidate_networks(tmp_path) -> None:
    with pytest.raises(SystemExit, match="--weights is for"):
        variants.hypergammon(1, 1, False, tmp_path / "candidate.npz")
