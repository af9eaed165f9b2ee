"""A game from the opening roll to its end: turns, the cube, resignations and scoring."""

from __future__ import annotations

import copy
import pickle

import pytest

from builders import position
from tavola import Dice, IllegalPlayError, Position, WinKind
from tavola.actions import (
    AcceptResignation,
    Beaver,
    Commit,
    DeclineResignation,
    Double,
    Drop,
    MoveCheckers,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.cube import Cube
from tavola.dicesource import ManualDice
from tavola.errors import IllegalActionError, InvalidRulesError, NotationError, OutOfTurnError
from tavola.game import Ending, Game, Phase
from tavola.rules import Rules
from tavola.scoring import score_win
from tavola.variants import DUTCH

# The mover bears off its last checker with any roll; the opponent has none off:
# a gammon, or a backgammon with one of the opponent's checkers in the mover's home.
LAST_CHECKER = position({1: 1}, {19: 15})
LAST_CHECKER_BACKGAMMON = position({1: 1}, {19: 14, 2: 1})


def game_with(*rolls: str, rules: Rules | None = None, **setup) -> Game:
    """A game whose dice are the given rolls, in order."""
    return Game(rules, ManualDice(rolls), **setup)


def snapshot(game: Game) -> tuple:
    return (game.phase, game.player_on_roll, game.position, game.cube, game.log, game.offer, game.turn)


# --- the opening and the turns ----------------------------------------------------------


def test_R4_opening_roll_higher_die_starts_and_plays_both_numbers():
    dice = ManualDice()
    dice.enter_opening(2, 5)
    game = Game(dice=dice)
    assert game.roll() == Dice(5, 2)
    assert game.player_on_roll == 1
    assert game.phase is Phase.MOVE
    assert game.log[0].action == OpeningRoll((2, 5))


def test_R4_opening_ties_are_rolled_again():
    dice = ManualDice()
    dice.enter_opening(4, 4)
    dice.enter_opening(6, 1)
    game = Game(dice=dice)
    assert game.roll() is None
    assert game.phase is Phase.OPENING
    assert game.roll() == Dice(6, 1)
    assert game.player_on_roll == 0
    assert game.cube == Cube()  # no automatic doubles by default


def test_M2_automatic_doubles_up_to_the_cap_keep_the_cube_in_the_middle():
    dice = ManualDice()
    for _ in range(3):
        dice.enter_opening(3, 3)
    dice.enter_opening(1, 2)
    game = Game(Rules(automatic_doubles=2), dice)
    for _ in range(3):
        assert game.roll() is None
    assert game.cube == Cube(4)
    game.roll()
    assert game.cube == Cube(4)
    assert game.may_double() is False  # it is the middle of player 1's turn
    game.play("24/23 13/11")
    assert game.may_double()  # a centred cube: either player may double


def test_R20_moves_are_undone_until_committed():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.roll()
    start = game.position
    game.move("8/5")
    assert game.position[5] == 1
    game.undo()
    assert game.position == start
    game.move("8/5")
    game.move("6/5")
    assert Commit() in game.legal_actions()
    game.commit()
    assert game.player_on_roll == 1
    assert game.position.flip()[5] == 2
    assert str(game.log[-1].action.play) == "8/5 6/5"


def test_R20_an_unfinished_play_cannot_be_committed():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.roll()
    game.move("8/5")
    before = snapshot(game)
    with pytest.raises(IllegalPlayError, match="not finished"):
        game.commit()
    assert snapshot(game) == before


def test_R11_a_partial_move_that_leaves_the_roll_unplayable_is_refused():
    # E2: only 13/10/4 uses both dice; 6/3 alone would forfeit the 6.
    pos = position({13: 1, 6: 4, 5: 4, 3: 3}, {7: 2, 20: 13})
    game = game_with("63", position=pos, player_on_roll=0)
    game.roll()
    with pytest.raises(IllegalPlayError, match="R11"):
        game.move("6/3")
    game.move("13/10")
    game.move("10/4")
    game.commit()


def test_R13_a_roll_that_cannot_be_played_passes_the_turn():
    closed = position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, bar=(1, 0))
    game = game_with("64", position=closed, player_on_roll=0)
    game.roll()
    actions = game.legal_actions()
    assert [type(action) for action in actions if not isinstance(action, Resign)] == [Played, Commit]
    game.commit()
    assert game.player_on_roll == 1
    assert game.log[-1].action.play.is_pass


def test_R18_R19_bearing_off_the_last_checker_ends_the_game_with_a_gammon():
    game = game_with("21", position=LAST_CHECKER, player_on_roll=0)
    game.roll()
    game.play("1/off")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.kind, game.outcome.points) == (0, WinKind.GAMMON, 2)
    assert game.outcome.ending is Ending.BEAR_OFF
    assert game.legal_actions() == []


def test_R19_backgammon():
    game = game_with("21", position=LAST_CHECKER_BACKGAMMON, player_on_roll=0)
    game.roll()
    game.play("1/off")
    assert game.outcome.kind is WinKind.BACKGAMMON


def test_R21_acting_out_of_turn_is_refused_and_changes_nothing():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    before = snapshot(game)
    for action in (lambda: game.roll(player=1), lambda: game.double(player=1), lambda: game.resign(player=1)):
        with pytest.raises(OutOfTurnError, match="player 0's turn"):
            action()
        assert snapshot(game) == before


@pytest.mark.parametrize(
    "action",
    [Take(), Drop(), Beaver(), Commit(), Undo(), AcceptResignation(), DeclineResignation()],
)
def test_R21_actions_that_do_not_fit_the_moment_are_refused(action):
    game = game_with("31", position=Position.start(), player_on_roll=0)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert snapshot(game) == before


def test_R20_an_illegal_play_is_refused_with_a_reason_and_the_turn_stays():
    game = game_with("65", position=Position.start(), player_on_roll=0)
    game.roll()
    before = snapshot(game)
    with pytest.raises(IllegalPlayError, match="point 19 is blocked"):
        game.play("24/18 24/19")
    assert snapshot(game) == before


def test_legal_actions_lists_what_each_phase_allows():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    assert game.legal_actions()[:2] == [Roll(), Double()]
    game.roll()
    plays = [action for action in game.legal_actions() if isinstance(action, Played)]
    assert len(plays) == 16
    for action in game.legal_actions():  # every listed action is accepted
        copy = game_with("31", position=Position.start(), player_on_roll=0)
        copy.roll()
        copy.apply(action)


# --- the cube -------------------------------------------------------------------------


def test_C1_the_game_starts_at_one_with_the_cube_in_the_middle():
    game = Game()
    assert game.cube == Cube(1, None)
    assert game.cube.face == 64


def test_C2_doubling_only_before_rolling():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.roll()
    with pytest.raises(IllegalActionError, match="cannot double now"):
        game.double()


def test_C3_take_gives_the_cube_to_the_taker_at_twice_the_value():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.double()
    assert game.offer == (2, 1)
    assert game.player_to_act == 1
    game.take()
    assert game.cube == Cube(2, owner=1)
    assert game.phase is Phase.ROLL
    assert game.player_to_act == 0
    with pytest.raises(IllegalActionError, match="the cube belongs to player 1"):
        game.double()  # C2: not twice in a row


def test_C3_drop_ends_the_game_at_the_stake_before_the_double():
    game = game_with(position=Position.start(), player_on_roll=0, cube=Cube(2, owner=0))
    game.double()
    game.drop()
    assert (game.outcome.winner, game.outcome.points, game.outcome.ending) == (0, 2, Ending.DROP)


def test_C4_redoubles_have_no_limit():
    game = game_with(position=LAST_CHECKER, player_on_roll=0, cube=Cube(64, owner=0))
    game.double()
    game.take()
    assert game.cube == Cube(128, owner=1)


def test_C5_points_are_the_result_times_the_cube():
    game = game_with("21", position=LAST_CHECKER, player_on_roll=0, cube=Cube(2, owner=0))
    game.roll()
    game.play("1/off")
    assert game.outcome.points == 4  # a gammon at 2
    game = game_with("21", position=LAST_CHECKER_BACKGAMMON, player_on_roll=0, cube=Cube(4, owner=1))
    game.roll()
    game.play("1/off")
    assert game.outcome.points == 12  # a backgammon at 4


@pytest.mark.parametrize("kind", list(WinKind))
def test_C6_an_accepted_resignation_ends_the_game_at_its_result(kind):
    game = game_with(position=Position.start(), player_on_roll=0, cube=Cube(2, owner=1))
    game.resign(kind)
    assert game.player_to_act == 1
    assert game.resignation == (0, kind)
    game.accept_resignation()
    assert (game.outcome.winner, game.outcome.kind, game.outcome.points) == (1, kind, 2 * int(kind))


def test_C6_a_declined_resignation_lets_play_go_on_where_it_stopped():
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.roll()
    game.move("8/5")
    game.resign(WinKind.SINGLE)
    game.decline_resignation()
    assert game.phase is Phase.MOVE
    assert game.turn.notation == "8/5"
    game.move("6/5")
    game.commit()


# --- money options ---------------------------------------------------------------------


def test_M3_beaver_redoubles_and_keeps_the_cube():
    game = game_with(rules=Rules(beavers=1), position=Position.start(), player_on_roll=0)
    game.double()
    assert Beaver() in game.legal_actions()
    game.beaver()
    assert game.offer == (4, 0)  # the original doubler answers now
    assert Beaver() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="a beaver"):
        game.beaver()
    game.take()
    assert game.cube == Cube(4, owner=1)


def test_M3_dropping_a_beaver_pays_the_value_before_it():
    game = game_with(rules=Rules(beavers=1), position=Position.start(), player_on_roll=0)
    game.double()
    game.beaver()
    game.drop()
    assert (game.outcome.winner, game.outcome.points) == (1, 2)


def test_M4_raccoon_and_otter_never_change_the_owner():
    game = game_with(rules=Rules(beavers=3), position=Position.start(), player_on_roll=0)
    game.double()  # player 0 doubles to 2
    game.beaver()  # player 1 beavers to 4
    game.beaver()  # player 0 raccoons to 8
    assert game.offer == (8, 1)
    game.beaver()  # player 1 otters to 16
    assert game.offer == (16, 0)
    game.take()
    assert game.cube == Cube(16, owner=1)  # the player doubled first owns it


def test_M4_dropping_a_raccoon_pays_the_beaver_value():
    game = game_with(rules=Rules(beavers=2), position=Position.start(), player_on_roll=0)
    game.double()
    game.beaver()
    game.beaver()
    game.drop()  # player 1 drops the raccoon
    assert (game.outcome.winner, game.outcome.points) == (0, 4)


def test_M5_jacoby_gammons_count_single_until_the_cube_is_turned():
    game = game_with("21", rules=Rules(jacoby=True), position=LAST_CHECKER, player_on_roll=0)
    game.roll()
    game.play("1/off")
    assert (game.outcome.kind, game.outcome.points) == (WinKind.SINGLE, 1)


def test_M5_jacoby_gammons_count_once_the_cube_is_turned():
    game = game_with("21", rules=Rules(jacoby=True), position=LAST_CHECKER, player_on_roll=0)
    game.double()
    game.take()
    game.roll()
    game.play("1/off")
    assert (game.outcome.kind, game.outcome.points) == (WinKind.GAMMON, 4)


def test_M5_automatic_doubles_do_not_turn_the_cube():
    dice = ManualDice()
    dice.enter_opening(2, 2)
    dice.enter_opening(2, 1)
    game = Game(Rules(jacoby=True, automatic_doubles=1), dice)
    game.roll()
    game.roll()
    assert game.cube == Cube(2)
    assert score_win(0, WinKind.GAMMON, game.cube, game.rules, Ending.BEAR_OFF).kind is WinKind.SINGLE


def test_M6_no_gammons_makes_every_win_single():
    game = game_with("21", rules=Rules(gammons=False), position=LAST_CHECKER_BACKGAMMON, player_on_roll=0)
    game.roll()
    game.play("1/off")
    assert (game.outcome.kind, game.outcome.points) == (WinKind.SINGLE, 1)


def test_M6_automatic_beaver_on_every_take():
    game = game_with(
        rules=Rules(beavers=1, automatic_beavers=True), position=Position.start(), player_on_roll=0
    )
    game.double()
    game.take()
    assert game.offer == (4, 0)
    assert [type(entry.action) for entry in game.log] == [Double, Take, Beaver]
    game.take()
    assert game.cube == Cube(4, owner=1)


def test_the_cube_is_off_when_the_rules_have_none():
    game = game_with(rules=Rules(cube=False), position=Position.start(), player_on_roll=0)
    assert Double() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="no doubling cube"):
        game.double()


def test_the_game_tells_its_hooks_every_entry_and_its_end():
    heard: list[object] = []
    game = game_with("31", position=Position.start(), player_on_roll=0)
    game.record = lambda entry: heard.append((entry, game.phase, game.offer))
    game.on_over = lambda over: heard.append(("over", over.outcome, len(over.log)))
    game.double()
    game.take()
    game.roll()
    game.play("8/5 6/5")
    game.double()
    game.drop()
    assert [item[0] for item in heard[:-1]] == list(game.log)
    assert heard[0][1:] == (Phase.DOUBLED, (2, 1))  # each entry once the game includes it
    assert heard[2][1:] == (Phase.MOVE, None)
    assert heard[-1] == ("over", game.outcome, len(game.log))  # the end after the last entry
    assert (game.outcome.winner, game.outcome.points) == (1, 2)  # player 1 redoubled, player 0 dropped


def _rolled() -> Game:
    game = Game(dice=ManualDice(["31"]), position=Position.start(), player_on_roll=0)
    game.roll()
    return game


@pytest.mark.parametrize(
    ("bad_input", "error"),
    [
        (lambda game: game.resign(5), IllegalActionError),
        (lambda game: game.resign("gammon"), IllegalActionError),
        (lambda game: game.apply(Resign(None)), IllegalActionError),
        (lambda game: game.move(123), NotationError),
        (lambda game: game.apply(MoveCheckers(None)), NotationError),
        (lambda game: game.play(None), IllegalPlayError),
        (lambda game: game.play(3), IllegalPlayError),
        (lambda game: game.apply(Played(b"x")), IllegalPlayError),
    ],
)
def test_bad_input_to_a_game_is_a_tavola_error_and_changes_nothing(bad_input, error):
    game = _rolled()
    before = (game.phase, game.position, game.turn, game.log)
    with pytest.raises(error):
        bad_input(game)
    assert (game.phase, game.position, game.turn, game.log) == before
    game.play("8/5 6/5")  # the game goes on


@pytest.mark.parametrize(
    "settings",
    [{"cube": "x"}, {"dice": object()}, {"rules": "jacoby"}, {"crawford": "yes"}, {"variant": 3}],
)
def test_a_game_with_settings_of_the_wrong_kind_is_refused(settings):
    with pytest.raises(InvalidRulesError):
        Game(**settings)


def test_a_game_takes_a_variant_by_name():
    assert Game(variant="dutch").variant == DUTCH
    with pytest.raises(InvalidRulesError, match="no variant"):
        Game(variant="dutchess")


def test_R20_a_whole_play_is_refused_once_checkers_are_moved():
    game = _rolled()
    game.move("8/5")
    with pytest.raises(IllegalActionError, match="R20"):
        game.play("8/5 6/5")
    game.move("6/5")
    game.commit()
    assert game.log[-1].action.play.notation == "8/5 6/5"


def test_a_copy_of_a_game_does_not_call_the_original_listeners():
    heard = []
    game = Game(dice=ManualDice(["31", "65"]), position=Position.start(), player_on_roll=0)
    game.record = heard.append
    copied = copy.deepcopy(game)
    copied.roll()
    copied.play("8/5 6/5")
    assert heard == []
    assert copied.record is None
    again = pickle.loads(pickle.dumps(game))
    assert (again.position, again.phase) == (game.position, game.phase)
