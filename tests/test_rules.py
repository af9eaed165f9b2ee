"""The movement rules R5-R19 and the worked examples E1-E10 of the rulebook.

Points are the mover's: home board 1-6, the opponent's home board 19-24.
"""

from __future__ import annotations

import pytest

from builders import notations, position
from tavola import Dice, GameResult, IllegalPlayError, Move, Position, WinKind

# An opponent army parked out of the way: 13 checkers on the mover's 20-point
# (the opponent's 5-point), which blocks only the mover's 20.
PARKED = {20: 13}


def test_R5_lands_on_open_points_only():
    pos = position({13: 1, 1: 14}, {9: 2, 10: 1, **{20: 12}})
    # 13/9 is blocked, so the 4 can only follow the 3, which hits the blot on 10.
    assert notations(pos, "43") == {"13/10*/6"}


def test_R5_passes_over_blocked_points():
    pos = position({24: 1, 1: 14}, {23: 2, 22: 2, 21: 2, 20: 9})
    assert notations(pos, "55") == {"24/4"}


def test_R6_both_dice_need_an_open_landing_point():
    pos = position({24: 1, 13: 1, 1: 13}, {18: 2, 21: 2, 2: 2, 5: 9})
    with pytest.raises(IllegalPlayError, match="points 21 and 18 are blocked"):
        pos.parse_play(Dice(6, 3), "24/15")
    assert "24/15" not in notations(pos, "63")


def test_R7_doubles_are_four_moves():
    plays = Position.start().legal_plays(Dice(2, 2))
    assert {len(play.moves) for play in plays} == {4}
    assert "13/11(2) 6/4(2)" in {play.notation for play in plays}


def test_R8_landing_on_a_blot_hits_it():
    pos = position({13: 2, 1: 13}, {10: 1, 8: 1, 20: 13})
    play = pos.parse_play(Dice(5, 3), "13/10* 13/8*")
    assert play.after.bar == (0, 2)
    assert (play.after[10], play.after[8]) == (1, 1)
    assert play.notation == "13/10* 13/8*"


def test_R9_bar_checker_enters_on_the_opponents_n_point_first():
    pos = position({24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, bar=(1, 0))
    plays = pos.legal_plays(Dice(4, 2))
    assert all(play.moves[0].source == 25 for play in plays)
    assert {play.moves[0].destination for play in plays} == {21, 23}
    with pytest.raises(IllegalPlayError, match="bar first"):
        pos.parse_play(Dice(4, 2), "13/9 13/11")


def test_R10_enter_as_many_as_possible_and_forfeit_the_rest():
    pos = position({6: 13}, {19: 2, 1: 13}, bar=(2, 0))
    assert notations(pos, "64") == {"bar/21"}


def test_R10_after_the_last_bar_checker_enters_any_checker_moves():
    pos = position({6: 14}, {19: 2, 1: 13}, bar=(1, 0))
    # The entered checker moves on with the 6; nothing else can (no bearing off yet).
    assert notations(pos, "64") == {"bar/15"}


def test_R11_both_dice_must_be_used_when_possible():
    plays = Position.start().legal_plays(Dice(6, 3))
    assert all(len(play.moves) == 2 for play in plays)


def test_R12_larger_die_when_only_one_playable():
    # 13/7 and 13/8 are each possible, but the 2-point is blocked, so not both.
    pos = position({13: 1, 1: 14}, {2: 2, 20: 13})
    assert notations(pos, "65") == {"13/7"}


def test_R12_smaller_die_when_the_larger_cannot_be_played():
    pos = position({13: 1, 1: 14}, {2: 2, 7: 2, 20: 11})
    assert notations(pos, "65") == {"13/8"}


def test_R13_no_legal_play_is_one_empty_play():
    pos = position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, bar=(1, 0))
    plays = pos.legal_plays(Dice(6, 4))
    assert len(plays) == 1
    assert plays[0].is_pass
    assert plays[0].after == pos
    assert plays[0].notation == ""
    assert pos.parse_play(Dice(6, 4), "") == plays[0]


def test_R14_bear_off_only_when_all_checkers_are_home():
    pos = position({10: 1, 6: 2, 3: 2}, PARKED)
    plays = notations(pos, "21")
    assert "6/5 6/4" in plays
    assert not any("off" in play for play in plays)
    with pytest.raises(IllegalPlayError, match="R14"):
        pos.parse_play(Dice(2, 1), "3/1 1/off")


def test_R14_a_checker_coming_home_lets_the_next_die_bear_off():
    pos = position({7: 1, 6: 2, 3: 2}, PARKED)
    assert "7/4 6/off" in notations(pos, "63")


def test_R14_die_n_bears_off_from_the_n_point():
    pos = position({5: 2, 2: 2}, PARKED)
    assert "5/off 2/off" in notations(pos, "52")


def test_R15_higher_point_must_move_before_bearing_off_with_a_larger_die():
    # The 4 may not bear off from the 2-point while the 6- (or 3-) point is occupied.
    pos = position({6: 1, 2: 1}, PARKED)
    assert notations(pos, "43") == {"6/off"}  # 6/3/off, the same as 6/2 2/off
    assert str(pos.parse_play(Dice(4, 3), "6/2 2/off")) == "6/off"
    with pytest.raises(IllegalPlayError, match="R15"):
        pos.parse_play(Dice(4, 3), "6/3 2/off")


def test_R16_moving_inside_the_home_board_is_allowed():
    pos = position({6: 2, 5: 2}, PARKED)
    plays = notations(pos, "21")
    assert {"6/5 6/4", "6/3", "5/4 5/3"} <= plays


def test_R17_a_hit_checker_enters_and_comes_home_before_bearing_off():
    pos = position({5: 10, 4: 4}, {1: 2, 20: 13}, bar=(1, 0))
    plays = notations(pos, "61")
    assert all(play.startswith("bar/") for play in plays)
    assert not any("off" in play for play in plays)


def test_R18_bearing_off_the_last_checker_wins():
    pos = position({2: 1, 1: 1}, PARKED)
    play = pos.parse_play(Dice(2, 1), "2/off 1/off")
    assert play.after.result() == GameResult(mover_wins=True, kind=WinKind.SINGLE)  # 2 of theirs are off
    assert Position.start().result() is None


def test_R19_single_when_the_loser_bore_off_a_checker():
    finished = position({}, {20: 14})
    assert finished.result() == GameResult(True, WinKind.SINGLE)
    assert finished.flip().result() == GameResult(False, WinKind.SINGLE)
    assert finished.result().points == 1


def test_R19_once_a_checker_is_off_no_gammon_wherever_the_others_stand():
    finished = position({}, {1: 14}, bar=(0, 0))
    assert finished.result() == GameResult(True, WinKind.SINGLE)


def test_R19_no_result_while_both_have_checkers():
    assert Position.start().result() is None


# --- worked examples ------------------------------------------------------------


def test_E1_six_three_from_the_start_has_many_plays():
    plays = notations(Position.start(), "63")
    assert {"24/18 13/10", "24/15"} <= plays
    start = Position.start()
    assert start.parse_play(Dice(6, 3), "24/18/15") == start.parse_play(Dice(6, 3), "24/15")


def test_E2_both_numbers_must_be_played_even_by_an_ugly_move():
    pos = position({13: 1, 6: 4, 5: 4, 3: 3}, {7: 2, 20: 13})
    assert notations(pos, "63") == {"13/4"}
    with pytest.raises(IllegalPlayError, match="both dice"):
        pos.parse_play(Dice(6, 3), "6/3")


def test_E3_must_enter_with_the_four_when_the_six_point_is_closed():
    pos = position({24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, bar=(1, 0))
    plays = pos.legal_plays(Dice(6, 4))
    assert all(play.moves[0] == Move(25, 21) for play in plays)
    with pytest.raises(IllegalPlayError, match="blocked"):
        pos.parse_play(Dice(6, 4), "bar/19")


def test_E4_larger_die_bears_off_from_the_highest_point():
    pos = position({4: 1, 1: 1}, PARKED)
    assert "4/off 1/off" in notations(pos, "61")
    highest_on_four = position({4: 1, 3: 1}, PARKED)
    for die in (4, 5, 6):
        assert set(highest_on_four.parse_play(Dice(die, 3), "4/off 3/off").moves) == {Move(4, 0), Move(3, 0)}


def test_E5_bearing_off_from_four_and_three_is_forced():
    pos = position({4: 1, 3: 1}, {1: 2, 20: 13})
    assert notations(pos, "43") == {"4/off 3/off"}


def test_E6_moving_down_and_bearing_off_is_legal_beside_two_off():
    pos = position({4: 1, 2: 1}, PARKED)
    assert notations(pos, "42") == {"4/off 2/off", "4/off"}
    one_off = pos.parse_play(Dice(4, 2), "4/2 2/off")
    assert one_off.notation == "4/off"  # 4/2/off: the same board as 4/2 2/off
    assert (one_off.after[2], one_off.after.off[0]) == (1, 14)


def test_E7_only_the_six_bears_off_when_the_four_is_blocked():
    pos = position({5: 2, 3: 2}, {1: 2, 20: 13})
    assert notations(pos, "64") == {"5/off"}


def test_E8_six_two_then_five_off_is_the_only_play():
    pos = position({6: 1, 5: 1}, {1: 2, 20: 13})
    assert notations(pos, "64") == {"6/2 5/off"}
    with pytest.raises(IllegalPlayError):
        pos.parse_play(Dice(6, 4), "6/off")


def test_E9_only_the_three_can_move_so_the_five_is_forfeited():
    pos = position({24: 1, 6: 14}, {19: 2, 16: 2, 1: 2, 20: 9})
    plays = pos.legal_plays(Dice(5, 3))
    assert {play.notation for play in plays} == {"24/21", "6/3"}


def test_E10_gammon_and_backgammon():
    all_home_none_off = position({}, {19: 15})  # the loser's 15 checkers in its home board
    assert all_home_none_off.result() == GameResult(True, WinKind.GAMMON)
    one_in_winners_home = position({}, {19: 14, 3: 1})
    assert one_in_winners_home.result() == GameResult(True, WinKind.BACKGAMMON)
    one_on_bar = position({}, {19: 14}, bar=(0, 1))
    assert one_on_bar.result() == GameResult(True, WinKind.BACKGAMMON)
    assert one_on_bar.result().points == 3
