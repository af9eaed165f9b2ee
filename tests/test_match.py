"""Matches to N points and money sessions."""

from __future__ import annotations

import pytest

from tavola import WinKind
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import IllegalActionError, InvalidRulesError
from tavola.game import Game
from tavola.ids import GameState, decode_match_id
from tavola.match import Match, MoneySession
from tavola.rules import Rules


def win(game: Game, winner: int, kind: WinKind = WinKind.SINGLE) -> None:
    """End ``game`` quickly: the loser resigns ``kind`` on their turn."""
    if game.phase.value == "opening":
        game.roll()
    loser = 1 - winner
    while game.player_on_roll != loser or game.phase.value != "roll":
        if game.phase.value == "move":
            game.play(game.turn.legal[0])
        else:
            game.roll()
    game.resign(kind)
    game.accept_resignation()


def test_P1_first_to_n_wins_and_points_past_n_count_for_nothing():
    match = Match(3, dice=RandomDice(seed=1))
    win(match.new_game(), 0, WinKind.GAMMON)
    assert match.score == (2, 0)
    win(match.new_game(), 1)  # Crawford game
    win(match.new_game(), 0, WinKind.BACKGAMMON)
    assert match.score == (3, 1)
    assert match.is_over
    assert match.winner == 0
    with pytest.raises(IllegalActionError, match="match is over"):
        match.new_game()


def test_P1_a_game_must_end_before_the_next_one_starts():
    match = Match(5, dice=RandomDice(seed=1))
    match.new_game()
    with pytest.raises(IllegalActionError, match="must end"):
        match.new_game()


def test_P2_no_doubling_in_the_crawford_game_and_the_cube_is_back_after():
    match = Match(3, dice=RandomDice(seed=2))
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0: player 0 reaches N-1
    crawford = match.new_game()
    assert crawford.crawford
    crawford.roll()
    crawford.play(crawford.turn.legal[0])
    assert not crawford.may_double()
    with pytest.raises(IllegalActionError, match="Crawford"):
        crawford.double()
    assert decode_match_id(match.match_id()).crawford
    win(crawford, 1)  # 2-1
    after = match.new_game()
    assert not after.crawford
    assert not decode_match_id(match.match_id()).crawford
    after.roll()
    after.play(after.turn.legal[0])
    assert after.may_double()


def test_P2_a_later_game_at_n_minus_1_is_not_another_crawford_game():
    match = Match(5, dice=RandomDice(seed=3))
    win(match.new_game(), 0, WinKind.BACKGAMMON)  # 3-0
    win(match.new_game(), 0)  # 4-0, next is Crawford
    assert match.new_game().crawford
    win(match.game, 1, WinKind.BACKGAMMON)  # 4-3
    assert not match.new_game().crawford


def test_P3_holland_restricts_nobody_at_equal_scores():
    """Post-Crawford at 2-2 of a 3-point match: nobody trails, so both may double at once."""
    dice = ManualDice()
    match = Match(3, Rules(holland=True), dice)
    dice.enter_opening(6, 1)
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0, the next game is the Crawford game
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # Crawford game: 2-1
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # post-Crawford: 2-2
    game = match.new_game()
    assert match.score == (2, 2)
    assert game.holland is None
    dice.enter_opening(6, 1)
    dice.enter("21")
    game.roll()
    game.play(game.turn.legal[0])
    assert game.player_on_roll == 1
    assert game.may_double()


def test_P3_holland_the_trailer_doubles_from_their_third_turn():
    dice = ManualDice()
    match = Match(3, Rules(holland=True), dice)
    dice.enter_opening(6, 1)
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # Crawford game: 2-1
    dice.enter_opening(6, 1)  # player 0 (the leader) starts; player 1 trails
    game = match.new_game()
    assert game.holland == 1
    turns_of_player_1 = 0
    for roll in ["21", "43", "21", "43", "21", "43"]:
        dice.enter(roll)
    game.roll()
    game.play(game.turn.legal[0])
    while turns_of_player_1 < 3:
        assert game.player_on_roll == 1
        assert game.may_double() == (turns_of_player_1 >= 2)
        game.roll()
        turns_of_player_1 += 1
        game.play(game.turn.legal[0])
        game.roll()
        game.play(game.turn.legal[0])


def test_P4_money_options_are_refused_in_a_match():
    for rules in (Rules(jacoby=True), Rules(beavers=1), Rules(automatic_doubles=1)):
        with pytest.raises(InvalidRulesError, match="P4"):
            Match(7, rules)


@pytest.mark.parametrize("length", [0, -1, True, 1.5])
def test_P1_match_length_is_checked(length):
    with pytest.raises(InvalidRulesError):
        Match(length)


def test_P5_the_match_id_holds_score_length_and_state():
    match = Match(7, dice=RandomDice(seed=5))
    assert decode_match_id(match.match_id()).game_state is GameState.NONE
    win(match.new_game(), 1, WinKind.GAMMON)
    state = decode_match_id(match.match_id())
    assert (state.match_length, state.score, state.game_state) == (7, (0, 2), GameState.RESIGNED)
    game = match.new_game()
    while game.roll() is None:  # opening ties
        pass
    state = decode_match_id(match.match_id())
    assert (state.score, state.game_state, state.player_on_roll) == (
        (0, 2),
        GameState.PLAYING,
        game.player_on_roll,
    )
    assert state.dice == tuple(game.dice)


def test_M1_a_money_session_keeps_a_zero_sum_running_score_at_the_stake():
    session = MoneySession(Rules(jacoby=True), RandomDice(seed=6), stake=5)
    win(session.new_game(), 0, WinKind.GAMMON)  # Jacoby: counts single
    win(session.new_game(), 1)
    win(session.new_game(), 1)
    assert session.score.points == (-1, 1)
    assert session.score.money == (-5, 5)
    assert not session.is_over


@pytest.mark.parametrize("stake", [0, -2, "1", float("nan"), float("inf"), -float("inf"), True])
def test_M1_the_stake_is_a_positive_amount(stake):
    with pytest.raises(InvalidRulesError, match="stake"):
        MoneySession(stake=stake)


def test_players_have_names():
    with pytest.raises(InvalidRulesError):
        Match(5, players=("Ann", ""))
    assert Match(5, players=("Ann", "Bruno")).players == ("Ann", "Bruno")
