"""Chouette: the order, the rotation, every cube action per member, extras, the partner and the ledger (H1-H10)."""

from __future__ import annotations

import json

import pytest

from builders import position
from tavola import Dice, IllegalPlayError, Position, WinKind
from tavola.actions import Commit, OpeningRoll, Played, Roll, Undo
from tavola.chouette import (
    AcceptPartnership,
    Beaver,
    Chouette,
    ChouetteGame,
    ChouetteSettings,
    Consultation,
    CubeMode,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    GameSettlement,
    GiveExtra,
    Ledger,
    Payment,
    Phase,
    PlayerAction,
    Seating,
    Side,
    Take,
)
from tavola.chouette.actions import AutomaticBeaver, AutomaticDouble, ForcedDrop, NewCaptain, PartnerDrawn
from tavola.chouette.ledger import partner_share
from tavola.chouette.seating import draw_at_random, draw_order
from tavola.cube import Cube
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import (
    ConsultationError,
    IllegalActionError,
    InvalidRulesError,
    LedgerError,
    NotInGameError,
    OutOfTurnError,
    SeatingError,
    WrongSideError,
)
from tavola.rules import Rules
from tavola.variants import find_variant

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]

# Seen from the side on roll. The mover bears off its last checker with any roll; the
# other side has none off: a gammon.
BEARS_OFF = position({1: 1}, {19: 15})
# The mover has all fifteen on its 6-point and cannot bear off with 2-1; the other side
# bears off its last checker next turn, and wins a gammon.
ABOUT_TO_LOSE = position({6: 15}, {24: 1})


def order_dice(count: int) -> list[int]:
    """Dice that draw the order as the players joined: the first is the box, and so on (H1)."""
    if count <= 6:
        return [6, 5, 4, 3, 2, 1][:count]
    rest = count - 5  # the last ones tie on 1 and roll again among themselves
    return [6, 5, 4, 3, 2] + [1] * rest + [6, 5, 4][:rest]


def table(count: int = 3, settings: ChouetteSettings | None = None, **options) -> tuple[Chouette, ManualDice]:
    """A table of ``count`` players seated in the order of NAMES, and the dice to enter its rolls."""
    dice = ManualDice()
    session = Chouette(settings or ChouetteSettings(**options), dice, players=NAMES[:count])
    for die in order_dice(count):
        dice.enter_die(die)
    session.draw_order()
    assert session.seating == Seating(NAMES[0], tuple(NAMES[1:count]))
    return session, dice


def set_up(session: Chouette, board: Position, side: Side) -> ChouetteGame:
    return session.start_game(position=board, side_on_roll=side)


def roll(game: ChouetteGame, dice: ManualDice, player: str, rolled: str = "21") -> None:
    dice.enter(rolled)
    game.roll(player)


def snapshot(session: Chouette, game: ChouetteGame) -> tuple:
    return (
        json.dumps(session.to_json()),
        game.phase,
        game.offers,
        game.bets,
        game.turn,
        game.suggestions,
        game.captains,
        game.legal_actions(),
    )


def refused(session: Chouette, game: ChouetteGame, error: type[Exception], action, match: str | None = None):
    """``action`` raises ``error`` and leaves the session and the game as they were."""
    before = snapshot(session, game)
    with pytest.raises(error, match=match):
        action()
    assert snapshot(session, game) == before


# --- H1: the order --------------------------------------------------------------------------


def test_H1_highest_roll_is_box_second_captain_rest_queue_in_order_of_rolls():
    dice = ManualDice()
    for die in (2, 6, 3, 5):
        dice.enter_die(die)
    seating, rounds = draw_order(["Ann", "Ben", "Cid", "Dee"], dice)
    assert seating == Seating("Ben", ("Dee", "Cid", "Ann"))
    assert seating.captain == "Dee"
    assert rounds == ((("Ann", 2), ("Ben", 6), ("Cid", 3), ("Dee", 5)),)


def test_H1_ties_roll_again_among_the_tied_players_only():
    dice = ManualDice()
    for die in (4, 4, 6, 4, 1, 2, 5, 3):  # Ann, Ben and Dee tie on 4, then roll 2, 5 and 3
        dice.enter_die(die)
    seating, rounds = draw_order(["Ann", "Ben", "Cid", "Dee", "Eve"], dice)
    assert seating == Seating("Cid", ("Ben", "Dee", "Ann", "Eve"))
    assert rounds[1] == (("Ann", 2), ("Ben", 5), ("Dee", 3))
    assert len(rounds) == 2
    assert dice.pending == 0


def test_H1_ties_that_tie_again_roll_again():
    dice = ManualDice()
    for die in (3, 3, 1, 5, 5, 2, 4):  # Ann and Ben tie on 3, then on 5, then roll 2 and 4
        dice.enter_die(die)
    seating, rounds = draw_order(["Ann", "Ben", "Cid"], dice)
    assert seating == Seating("Ben", ("Ann", "Cid"))
    assert [len(r) for r in rounds] == [3, 2, 2]


def test_H1_the_session_draws_the_order_once_from_its_dice_and_logs_it():
    session = Chouette(dice=RandomDice(seed=11), players=NAMES[:4])
    assert session.seating is None
    rounds = session.draw_order()
    assert session.log[-1].action.rounds == rounds
    assert sorted(session.players) == sorted(NAMES[:4])
    with pytest.raises(SeatingError, match="drawn already"):
        session.draw_order()


def test_H1_the_order_needs_three_players():
    session = Chouette(dice=RandomDice(seed=1), players=["Ann", "Ben"])
    with pytest.raises(SeatingError, match="3 players or more"):
        session.draw_order()
    with pytest.raises(SeatingError, match="3 players or more"):
        session.start_game()
    assert session.log[-1].action.__class__.__name__ == "Join"


def test_H1_seven_and_eight_players_are_ordered_with_ties_rolled_again():
    for count in (7, 8):
        session, _ = table(count)
        assert session.players == tuple(NAMES[:count])


# --- H2: the rotation -----------------------------------------------------------------------------


def test_H2_box_win_captain_goes_to_end_of_queue():
    session, dice = table(4)
    game = set_up(session, BEARS_OFF, Side.BOX)
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert game.is_over
    assert game.settlement.points == {"Ann": 6, "Ben": -2, "Cid": -2, "Dee": -2}  # a gammon from each
    assert session.seating == Seating("Ann", ("Cid", "Dee", "Ben"))
    assert session.captain == "Cid"


def test_H2_team_win_captain_becomes_box_and_box_goes_to_end_of_queue():
    session, dice = table(4)
    game = set_up(session, position({1: 1}, {19: 14}), Side.TEAM)  # a single game
    roll(game, dice, "Ben")
    game.play("Ben", "1/off")
    assert game.settlement.points == {"Ann": -3, "Ben": 1, "Cid": 1, "Dee": 1}
    assert session.seating == Seating("Ben", ("Cid", "Dee", "Ann"))


def test_H2_the_next_game_is_played_with_the_new_seats():
    session, dice = table(3)
    game = set_up(session, BEARS_OFF, Side.TEAM)
    roll(game, dice, "Ben")
    game.play("Ben", "1/off")
    following = session.start_game()
    assert (following.box, following.captain, following.team) == ("Ben", "Cid", ("Cid", "Ann"))
    assert following.number == 1


# --- H3: joining and leaving ---------------------------------------------------------------------


def test_H3_players_join_at_the_end_of_the_queue_even_during_a_game():
    session, dice = table(3)
    game = set_up(session, BEARS_OFF, Side.BOX)
    session.join("Dee")
    assert session.seating == Seating("Ann", ("Ben", "Cid", "Dee"))
    assert "Dee" not in game.players
    refused(session, game, NotInGameError, lambda: game.double("Dee"))
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert session.seating == Seating("Ann", ("Cid", "Dee", "Ben"))  # the captain after the newcomer
    assert session.start_game().team == ("Cid", "Dee", "Ben")


def test_H3_joining_mid_game_is_refused_when_the_table_seats_between_games():
    session, dice = table(3, join_during_game=False)
    game = set_up(session, BEARS_OFF, Side.BOX)
    refused(session, game, SeatingError, lambda: session.join("Dee"), "when game 0 is over")
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    session.join("Dee")
    assert session.players[-1] == "Dee"


def test_H3_a_player_in_the_game_leaves_only_after_it():
    session, dice = table(4)
    game = set_up(session, BEARS_OFF, Side.BOX)
    refused(session, game, SeatingError, lambda: session.leave("Cid"), "leave when it is over")
    session.join("Eve")
    session.leave("Eve")  # not in this game: may leave at once
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    session.leave("Cid")
    assert session.seating == Seating("Ann", ("Dee", "Ben"))
    assert session.ledger.totals["Cid"] == -2  # the ledger keeps those who left


def test_H3_when_the_box_leaves_the_captain_takes_the_box():
    session, _ = table(4)
    session.leave("Ann")
    assert session.seating == Seating("Ben", ("Cid", "Dee"))


def test_H3_the_table_seats_three_to_eight_players_with_distinct_names():
    session, _ = table(8)
    with pytest.raises(SeatingError, match="at most 8"):
        session.join("Ivy")
    with pytest.raises(SeatingError, match="already"):
        Chouette(players=["Ann", "Ann"])
    with pytest.raises(SeatingError, match="name"):
        Chouette(players=[" Ann"])
    with pytest.raises(SeatingError, match="not at the table"):
        session.leave("Zed")
    session.leave("Hal")
    session.leave("Gus")
    session.leave("Fay")
    session.leave("Eve")
    session.leave("Dee")
    assert session.can_start()
    session.leave("Cid")
    assert not session.can_start()
    with pytest.raises(SeatingError, match="3 players or more"):
        session.start_game()


def test_H3_a_game_must_end_before_the_next_starts():
    session, _ = table(3)
    game = set_up(session, BEARS_OFF, Side.BOX)
    refused(session, game, IllegalActionError, session.start_game, "not over")


# --- the checker game comes from the core ----------------------------------------------------------


def test_R4_the_opening_roll_by_the_box_or_the_captain_decides_who_plays_first():
    session, dice = table(3)
    game = session.start_game()
    assert game.legal_actions() == [PlayerAction("Ann", Roll()), PlayerAction("Ben", Roll())]
    refused(session, game, OutOfTurnError, lambda: game.roll("Cid"), "the box and the captain")
    dice.enter_opening(2, 5)  # the box's die first
    assert game.roll("Ann") == Dice(5, 2)
    assert (game.side_on_roll, game.roller) == (Side.TEAM, "Ben")
    assert game.log[0] == game.log[0].__class__("Ann", OpeningRoll((2, 5)))


def test_R20_the_captain_moves_and_undoes_within_the_turn_and_commits():
    session, dice = table(3)
    game = set_up(session, Position.start(), Side.TEAM)
    roll(game, dice, "Ben", "31")
    game.move("Ben", "8/5")
    refused(session, game, OutOfTurnError, lambda: game.undo("Cid"), "Ben rolls and moves")
    game.undo("Ben")
    assert game.position == Position.start()
    game.move("Ben", "8/5")
    game.move("Ben", "6/5")
    assert PlayerAction("Ben", Commit()) in game.legal_actions()
    game.commit("Ben")
    assert game.side_on_roll is Side.BOX
    assert str(game.log[-1].action.play) == "8/5 6/5"


def test_R13_a_closed_out_captain_plays_the_pass():
    session, dice = table(3)
    closed = position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, bar=(1, 0))
    game = set_up(session, closed, Side.TEAM)
    roll(game, dice, "Ben", "64")
    actions = [item.action for item in game.legal_actions()]
    assert [type(action) for action in actions] == [Played, Commit]
    game.commit("Ben")
    assert game.log[-1].action.play.is_pass
    assert game.roller == "Ann"


def test_R11_an_illegal_play_is_refused_with_the_state_unchanged():
    session, dice = table(3)
    game = set_up(session, Position.start(), Side.TEAM)
    roll(game, dice, "Ben", "65")
    refused(session, game, IllegalPlayError, lambda: game.play("Ben", "24/19"))


def test_R19_a_backgammon_is_paid_at_three_times_each_cube():
    session, dice = table(3)
    game = set_up(session, position({1: 1}, {19: 14, 2: 1}), Side.BOX)
    game.double("Ann", ("Ben",))
    game.take("Ben")
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert game.settlement.points == {"Ann": 9, "Ben": -6, "Cid": -3}
    kinds = {payment.payer: payment.outcome.kind for payment in game.settlement.payments}
    assert kinds == {"Ben": WinKind.BACKGAMMON, "Cid": WinKind.BACKGAMMON}


def test_the_checker_game_is_the_two_player_game_with_its_cube_off():
    session, _ = table(3)
    game = session.start_game()
    assert not game.checker_game.rules.cube
    assert game.players == ("Ann", "Ben", "Cid")


# --- H5: one cube for the team --------------------------------------------------------------------------


def test_H5_five_players_single_cube_captain_drops_and_the_highest_taker_becomes_captain():
    session, dice = table(5, cubes=CubeMode.SINGLE)
    game = set_up(session, ABOUT_TO_LOSE, Side.BOX)
    assert game.legal_actions() == [
        PlayerAction("Ann", Double(("Ben", "Cid", "Dee", "Eve"))),
        PlayerAction("Ann", Roll()),
    ]
    game.double("Ann")
    assert game.phase is Phase.ANSWER
    assert game.to_act == ("Ben", "Cid", "Dee", "Eve")
    game.drop("Ben")
    game.drop("Cid")
    game.take("Eve")
    assert game.captain == "Ben"  # the answers are settled together, when all are in
    game.take("Dee")
    assert game.captains == ("Ben", "Dee")
    assert game.log[-1].player == "Dee"
    assert game.log[-1].action == NewCaptain()
    assert game.members_in == ("Dee", "Eve")
    assert game.cube("Dee") == game.cube("Eve") == Cube(2, owner=1)
    roll(game, dice, "Ann")
    game.play("Ann", "6/4 6/5")
    refused(session, game, NotInGameError, lambda: game.roll("Ben"), "out of this game")
    roll(game, dice, "Dee")
    game.play("Dee", "1/off")
    assert game.settlement.points == {"Ann": -6, "Ben": -1, "Cid": -1, "Dee": 4, "Eve": 4}
    # Dee, who finished as captain, beat the box and takes it; Ben, the captain who dropped, then
    # the old box go to the end of the queue.
    assert session.seating == Seating("Dee", ("Cid", "Eve", "Ben", "Ann"))


def test_H5_box_wins_after_the_captain_dropped_the_first_captain_goes_to_the_end():
    session, dice = table(4, cubes=CubeMode.SINGLE)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.double("Ann")
    game.drop("Ben")
    game.take("Cid")
    game.take("Dee")
    assert game.captain == "Cid"
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert game.settlement.points == {"Ann": 9, "Ben": -1, "Cid": -4, "Dee": -4}
    assert session.seating == Seating("Ann", ("Cid", "Dee", "Ben"))  # the stand-in keeps their place


def test_H5_only_the_captain_doubles_for_the_team():
    session, _ = table(4, cubes=CubeMode.SINGLE)
    game = set_up(session, BEARS_OFF, Side.TEAM)
    refused(session, game, OutOfTurnError, lambda: game.double("Cid"), "the captain, Ben")
    refused(session, game, OutOfTurnError, lambda: game.double("Cid", ("Ann",)), "H5")
    game.double("Ben")
    assert [offer.bet for offer in game.offers] == [("Ann", "Ben"), ("Ann", "Cid"), ("Ann", "Dee")]
    assert game.legal_actions() == [
        PlayerAction("Ann", Take(("Ben", "Cid", "Dee"))),
        PlayerAction("Ann", Drop(("Ben", "Cid", "Dee"))),
    ]
    refused(session, game, IllegalActionError, lambda: game.drop("Ann", ("Ben",)), "at once")
    game.drop("Ann")
    assert game.settlement.points == {"Ann": -3, "Ben": 1, "Cid": 1, "Dee": 1}
    assert session.seating == Seating("Ben", ("Cid", "Dee", "Ann"))


def test_H5_the_box_doubles_the_whole_team_at_once():
    session, _ = table(4, cubes=CubeMode.SINGLE)
    game = set_up(session, BEARS_OFF, Side.BOX)
    refused(session, game, IllegalActionError, lambda: game.double("Ann", ("Ben", "Cid")), "at once")
    game.double("Ann", ("Ben", "Cid", "Dee"))
    assert len(game.offers) == 3


def test_H5_when_every_member_drops_the_game_is_over():
    session, _ = table(3, cubes=CubeMode.SINGLE)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.double("Ann")
    game.drop("Ben")
    game.drop("Cid")
    assert game.is_over
    assert game.phase is Phase.OVER
    assert game.settlement.points == {"Ann": 2, "Ben": -1, "Cid": -1}
    assert game.legal_actions() == []
    refused(session, game, IllegalActionError, lambda: game.roll("Ann"), "over")


# --- H6: the last taker must drop ----------------------------------------------------------------------


def test_H6_last_taker_must_drop_when_all_others_drop():
    session, _ = table(5, cubes=CubeMode.SINGLE, last_taker_must_drop=True)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.double("Ann")
    game.take("Ben")
    game.drop("Cid")
    game.drop("Dee")
    game.drop("Eve")
    assert game.log[-1].player == "Ben"
    assert game.log[-1].action == ForcedDrop(("Ann",))
    assert game.is_over
    assert game.settlement.points == {"Ann": 4, "Ben": -1, "Cid": -1, "Dee": -1, "Eve": -1}


def test_H6_two_takers_play_on():
    session, _ = table(5, cubes=CubeMode.SINGLE, last_taker_must_drop=True)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.double("Ann")
    game.take("Ben")
    game.drop("Cid")
    game.drop("Dee")
    game.take("Eve")
    assert not game.is_over
    assert game.members_in == ("Ben", "Eve")


# --- H7: extras ------------------------------------------------------------------------------------------


def test_H7_lone_taker_gets_extras_from_droppers_who_give_them_and_may_redouble_them():
    session, dice = table(4, cubes=CubeMode.SINGLE, mandatory_extras=True)
    game = set_up(session, ABOUT_TO_LOSE, Side.BOX)
    game.double("Ann")
    game.drop("Ben")
    game.take("Cid")
    game.drop("Dee")
    assert game.phase is Phase.EXTRAS
    assert game.legal_actions() == [
        PlayerAction("Ben", GiveExtra()),
        PlayerAction("Ben", DeclineExtra()),
        PlayerAction("Dee", GiveExtra()),
        PlayerAction("Dee", DeclineExtra()),
    ]
    refused(session, game, IllegalActionError, lambda: game.roll("Ann"), "extras")
    refused(session, game, IllegalActionError, lambda: game.give_extra("Cid"), "no extra to give")
    game.give_extra("Ben")
    game.decline_extra("Dee")
    assert game.phase is Phase.ROLL
    extra = game.bets[-1]
    assert (extra.box_side, extra.team_side, extra.cube, extra.extra) == (
        "Ben",
        "Cid",
        Cube(2, owner=1),
        True,
    )
    roll(game, dice, "Ann")
    game.play("Ann", "6/4 6/5")
    # The team's turn: the taker may redouble the extra; the giver answers for the box's side.
    assert PlayerAction("Cid", Double(("Ben",))) in game.legal_actions()
    game.double("Cid", ("Ben",))
    assert game.to_act == ("Ben",)
    game.take("Ben")
    assert game.bets[-1].cube == Cube(4, owner=0)
    roll(game, dice, "Cid")
    game.play("Cid", "1/off")
    # Cid wins a gammon on the cube at 2 from Ann and on the extra at 4 from Ben.
    assert game.settlement.points == {"Ann": -2, "Ben": -9, "Cid": 12, "Dee": -1}


def test_H7_extras_only_for_a_lone_taker_of_the_box_initial_double():
    session, _ = table(4, cubes=CubeMode.SINGLE, mandatory_extras=True)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.double("Ann")
    game.take("Ben")
    game.take("Cid")
    game.drop("Dee")
    assert game.phase is Phase.ROLL  # two takers: no extras
    assert len(game.bets) == 3


def test_H7_a_giver_of_an_extra_who_dropped_cannot_double_the_box():
    session, dice = table(3, cubes=CubeMode.SINGLE, mandatory_extras=True)
    game = set_up(session, ABOUT_TO_LOSE, Side.BOX)
    game.double("Ann")
    game.drop("Ben")
    game.take("Cid")
    game.give_extra("Ben")
    roll(game, dice, "Ann")
    game.play("Ann", "6/4 6/5")
    refused(session, game, WrongSideError, lambda: game.double("Ben"), "not on roll|is on roll")


# --- H8: one cube per member ----------------------------------------------------------------------------


def test_H8_box_wins_against_some_and_loses_against_others():
    session, dice = table(4)
    game = set_up(session, ABOUT_TO_LOSE, Side.BOX)
    game.double("Ann", ("Cid",))
    game.drop("Cid")
    assert game.members_in == ("Ben", "Dee")
    roll(game, dice, "Ann")
    game.play("Ann", "6/4 6/5")
    assert game.legal_actions() == [
        PlayerAction("Ben", Double(("Ann",))),
        PlayerAction("Dee", Double(("Ann",))),
        PlayerAction("Ben", Roll()),
    ]
    game.double("Dee")
    game.drop("Ann")
    roll(game, dice, "Ben")
    game.play("Ben", "1/off")
    assert game.settlement.points == {"Ann": -2, "Ben": 2, "Cid": -1, "Dee": 1}
    assert session.seating == Seating("Ben", ("Cid", "Dee", "Ann"))


def test_H8_box_keeps_the_box_unless_beaten_by_the_captain():
    session, dice = table(4)
    game = set_up(session, position({6: 15}, {24: 1}), Side.TEAM)
    game.double("Cid")
    game.drop("Ann")  # the box loses to Cid...
    roll(game, dice, "Ben")
    game.play("Ben", "6/4 6/5")
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")  # ...but beats the captain
    assert game.settlement.points == {"Ann": 3, "Ben": -2, "Cid": 1, "Dee": -2}
    assert session.seating == Seating("Ann", ("Cid", "Dee", "Ben"))


def test_H8_the_box_dropping_the_captains_double_makes_the_captain_the_next_box():
    session, dice = table(4)
    game = set_up(session, position({6: 15}, {24: 1}), Side.TEAM)
    game.double("Ben")
    game.drop("Ann")
    assert game.captains == ("Ben", "Cid")
    roll(game, dice, "Cid")
    game.play("Cid", "6/4 6/5")
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert game.settlement.points == {"Ann": 3, "Ben": 1, "Cid": -2, "Dee": -2}
    assert session.seating == Seating("Ben", ("Cid", "Dee", "Ann"))


def test_H8_members_double_and_redouble_their_own_cubes_independently():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.TEAM)
    game.double("Ben")
    game.take("Ann", ("Ben",))
    refused(session, game, IllegalActionError, lambda: game.double("Ben"), "no cube to double|already")
    game.double("Dee")
    game.take("Ann")
    roll(game, dice, "Ben", "31")
    game.play("Ben", "8/5 6/5")
    # The box owns Ben's and Dee's cubes; Cid's is still in the middle.
    assert game.legal_actions()[:3] == [
        PlayerAction("Ann", Double(("Ben",))),
        PlayerAction("Ann", Double(("Cid",))),
        PlayerAction("Ann", Double(("Dee",))),
    ]
    game.double("Ann", ("Ben", "Cid"))
    game.take("Ben")
    game.take("Cid")
    assert [game.cube(name) for name in ("Ben", "Cid", "Dee")] == [
        Cube(4, owner=1),
        Cube(2, owner=1),
        Cube(2, owner=0),
    ]


def test_H8_the_box_answers_each_members_double_separately():
    session, _ = table(4)
    game = set_up(session, Position.start(), Side.TEAM)
    game.double("Ben")
    game.take("Ann")
    game.double("Cid")
    refused(session, game, OutOfTurnError, lambda: game.take("Ben"), "Ann must answer")
    game.drop("Ann", ("Cid",))
    assert game.members_in == ("Ben", "Dee")
    assert game.bets[1].outcome.points == 1


# --- refused actions ---------------------------------------------------------------------------------


def test_a_member_acting_out_of_turn_is_refused():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.TEAM)
    refused(session, game, OutOfTurnError, lambda: game.roll("Cid"), "Ben rolls and moves")
    roll(game, dice, "Ben", "31")
    refused(session, game, OutOfTurnError, lambda: game.play("Dee", "8/5 6/5"), "Ben rolls and moves")
    refused(session, game, IllegalActionError, lambda: game.take("Cid"), "no double waits")


def test_a_dropped_member_cannot_double_or_answer():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Cid",))
    game.drop("Cid")
    roll(game, dice, "Ann", "31")
    game.play("Ann", "8/5 6/5")
    refused(session, game, NotInGameError, lambda: game.double("Cid"), "no cube left")
    game.double("Ben")
    refused(session, game, NotInGameError, lambda: game.take("Cid"), "no cube left")


def test_the_box_cannot_act_for_the_team_nor_a_member_for_the_box():
    session, dice = table(3)
    game = set_up(session, Position.start(), Side.TEAM)
    refused(session, game, WrongSideError, lambda: game.roll("Ann"), "team's turn")
    refused(session, game, WrongSideError, lambda: game.double("Ann"), "team side is on roll")
    roll(game, dice, "Ben", "31")
    refused(session, game, WrongSideError, lambda: game.play("Ann", "8/5 6/5"), "team's turn")
    refused(session, game, WrongSideError, lambda: game.suggest("Ann", "8/5 6/5"), "plays for the box")
    game.play("Ben", "8/5 6/5")
    refused(session, game, WrongSideError, lambda: game.roll("Cid"), "box's turn")
    refused(session, game, WrongSideError, lambda: game.double("Ben"), "box side is on roll")


def test_doubling_comes_before_the_roll_and_once_a_turn():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Ben",))
    game.take("Ben")
    refused(session, game, IllegalActionError, lambda: game.double("Ann", ("Cid",)), "already")
    roll(game, dice, "Ann", "31")
    refused(session, game, IllegalActionError, lambda: game.double("Ann"), "C2")


def test_a_player_not_at_the_game_is_refused():
    session, _ = table(3)
    game = set_up(session, Position.start(), Side.BOX)
    refused(session, game, NotInGameError, lambda: game.roll("Zed"), "not playing")
    refused(session, game, IllegalActionError, lambda: game.apply("Ann", Commit()), "cannot commit")


def test_apply_takes_any_item_of_legal_actions():
    session, dice = table(3)
    game = set_up(session, Position.start(), Side.BOX)
    game.apply(PlayerAction("Ann", Double(("Ben",))))
    game.apply("Ben", Take(("Ann",)))
    dice.enter("31")
    game.apply(game.legal_actions()[-1])
    assert game.phase is Phase.MOVE
    game.apply(game.legal_actions()[0])
    assert game.side_on_roll is Side.TEAM
    with pytest.raises(IllegalActionError, match="not something"):
        game.apply("Ben", Undo)


# --- money options (M2-M6) -------------------------------------------------------------------------------


def test_M2_automatic_doubles_double_every_cube_up_to_the_cap():
    session, dice = table(3, rules=Rules(automatic_doubles=1))
    game = session.start_game()
    dice.enter_opening(3, 3)
    dice.enter_opening(4, 4)
    dice.enter_opening(5, 2)
    assert game.roll("Ann") is None
    assert game.log[-1].action == AutomaticDouble(2)
    assert game.roll("Ben") is None
    assert game.roll("Ann") == Dice(5, 2)
    assert game.cube("Ben") == game.cube("Cid") == Cube(2)
    assert sum(isinstance(entry.action, AutomaticDouble) for entry in game.log) == 1


def test_M3_a_member_beavers_and_the_box_answers_the_beaver():
    session, _ = table(3, rules=Rules(beavers=1))
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Ben",))
    assert PlayerAction("Ben", Beaver(("Ann",))) in game.legal_actions()
    game.beaver("Ben")
    assert game.legal_actions() == [PlayerAction("Ann", Take(("Ben",))), PlayerAction("Ann", Drop(("Ben",)))]
    refused(session, game, IllegalActionError, lambda: game.beaver("Ann"), "M3, M4")
    game.drop("Ann")  # pays the value before the beaver
    assert game.bets[0].outcome.points == 2
    assert game.captains == ("Ben", "Cid")


def test_M3_the_box_drops_a_beaver_and_the_member_wins_the_value_before_it():
    session, _ = table(3, rules=Rules(beavers=1))
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Ben",))
    game.beaver("Ben")
    game.drop("Ann")  # the box gives up the beavered cube: Ben wins 2
    bet = game.bets[0]
    assert (bet.winner, bet.loser, bet.outcome.points) == ("Ben", "Ann", 2)


def test_M3_M4_a_redouble_refused_says_how_many_the_rules_allow():
    session, _ = table(3, rules=Rules(beavers=2))
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Cid",))
    game.beaver("Cid")
    game.beaver("Ann")
    refused(
        session,
        game,
        IllegalActionError,
        lambda: game.beaver("Cid"),
        r"Cid cannot redouble now: these rules allow a beaver and a raccoon \(M3, M4\)",
    )


def test_M4_a_raccoon_keeps_the_cube_with_the_member_doubled_first():
    session, _ = table(3, rules=Rules(beavers=2))
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Cid",))
    game.beaver("Cid")
    game.beaver("Ann")
    game.take("Cid")
    assert game.cube("Cid") == Cube(8, owner=1)


def test_M5_jacoby_counts_gammons_only_on_cubes_that_were_turned():
    session, dice = table(3, rules=Rules(jacoby=True))
    game = set_up(session, BEARS_OFF, Side.TEAM)
    game.double("Ben")
    game.take("Ann")
    roll(game, dice, "Ben")
    game.play("Ben", "1/off")
    assert game.settlement.points == {"Ann": -5, "Ben": 4, "Cid": 1}


def test_M6_no_gammons_pays_every_win_single():
    session, dice = table(3, rules=Rules(gammons=False))
    game = set_up(session, BEARS_OFF, Side.TEAM)
    roll(game, dice, "Ben")
    game.play("Ben", "1/off")
    assert game.settlement.points == {"Ann": -2, "Ben": 1, "Cid": 1}


def test_M6_automatic_beavers_turn_every_take_into_a_beaver():
    session, _ = table(3, rules=Rules(beavers=1, automatic_beavers=True))
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Ben",))
    game.take("Ben")
    assert game.log[-1] == game.log[-1].__class__("Ben", AutomaticBeaver(("Ann",)))
    assert game.to_act == ("Ann",)
    game.take("Ann")
    assert game.cube("Ben") == Cube(4, owner=1)


def test_C3_a_drop_pays_the_value_before_the_double():
    session, dice = table(3)
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Ben",))
    game.take("Ben")
    assert game.cube("Ben") == Cube(2, owner=1)
    roll(game, dice, "Ann", "31")
    game.play("Ann", "8/5 6/5")
    game.double("Ben")  # the redouble to 4...
    game.drop("Ann")  # ...dropped: the box pays 2
    assert game.bets[0].outcome.points == 2
    assert game.bets[0].winner == "Ben"


def test_no_cube_no_doubling():
    session, _ = table(3, rules=Rules(cube=False))
    game = set_up(session, Position.start(), Side.BOX)
    assert game.legal_actions() == [PlayerAction("Ann", Roll())]
    refused(session, game, IllegalActionError, lambda: game.double("Ann"), "no doubling cube")


# --- H4: consultation ------------------------------------------------------------------------------------


def test_H4_free_consultation_members_suggest_legal_plays_and_the_captain_decides():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.TEAM)
    assert not game.may_suggest("Cid")  # no roll yet
    roll(game, dice, "Ben", "31")
    assert game.may_suggest("Cid")
    assert not game.may_suggest("Ben")
    assert str(game.suggest("Cid", "6/5 8/5")) == "8/5 6/5"
    game.suggest("Dee", game.turn.legal[0])
    assert [(s.member, str(s.play)) for s in game.suggestions] == [
        ("Cid", "8/5 6/5"),
        ("Dee", str(game.turn.legal[0])),
    ]
    refused(session, game, IllegalPlayError, lambda: game.suggest("Cid", "24/18"))
    refused(session, game, ConsultationError, lambda: game.suggest("Ben", "8/5 6/5"), "the captain plays")
    game.play("Ben", "24/23 13/10")  # the captain's play is final
    assert game.suggestions == ()


def test_H4_no_consultation_refuses_suggestions():
    session, dice = table(3, consultation=Consultation.NONE)
    game = set_up(session, Position.start(), Side.TEAM)
    roll(game, dice, "Ben", "31")
    refused(session, game, ConsultationError, lambda: game.suggest("Cid", "8/5 6/5"), "without consultation")


def test_H4_consultation_only_after_a_double():
    session, dice = table(3, consultation=Consultation.AFTER_CUBE)
    game = set_up(session, Position.start(), Side.TEAM)
    roll(game, dice, "Ben", "31")
    refused(
        session, game, ConsultationError, lambda: game.suggest("Cid", "8/5 6/5"), "after someone has doubled"
    )
    game.play("Ben", "8/5 6/5")
    game.double("Ann", ("Cid",))
    game.take("Cid")
    roll(game, dice, "Ann", "31")
    game.play("Ann", "8/5 6/5")
    roll(game, dice, "Ben", "31")
    game.suggest("Cid", "13/9")


def test_H4_a_member_who_dropped_no_longer_consults():
    session, dice = table(4)
    game = set_up(session, Position.start(), Side.BOX)
    game.double("Ann", ("Cid",))
    game.drop("Cid")
    roll(game, dice, "Ann", "31")
    game.play("Ann", "8/5 6/5")
    roll(game, dice, "Ben", "31")
    refused(session, game, NotInGameError, lambda: game.suggest("Cid", "8/5 6/5"), "no longer consults")
    game.suggest("Dee", "8/5 6/5")


# --- H9: the box's partner ----------------------------------------------------------------------------------


def test_H9_partnership_offered_in_queue_order_starting_with_the_captain():
    session, _dice = table(4, box_partner_from=4)
    game = set_up(session, Position.start(), Side.BOX)
    assert game.phase is Phase.PARTNER
    assert game.legal_actions() == [
        PlayerAction("Ben", AcceptPartnership()),
        PlayerAction("Ben", DeclinePartnership()),
    ]
    refused(session, game, OutOfTurnError, lambda: game.accept_partnership("Cid"), "Ben answers now")
    refused(session, game, WrongSideError, lambda: game.accept_partnership("Ann"), "not to the box")
    refused(session, game, IllegalActionError, lambda: game.roll("Ann"), "partner")
    game.decline_partnership("Ben")
    game.accept_partnership("Cid")
    assert (game.partner, game.team, game.captain) == ("Cid", ("Ben", "Dee"), "Ben")
    assert game.side_of("Cid") is Side.BOX
    refused(session, game, OutOfTurnError, lambda: game.roll("Cid"), "Ann rolls")


def test_H9_nobody_volunteers_and_the_partner_is_drawn_at_random_with_dice():
    session, dice = table(4, box_partner_from=4)
    game = set_up(session, Position.start(), Side.BOX)
    game.decline_partnership("Ben")
    game.decline_partnership("Cid")
    dice.enter_die(5)  # no fifth player: rolled again
    dice.enter_die(3)
    game.decline_partnership("Dee")
    assert game.partner == "Dee"
    assert game.log[-1].player == "Dee"
    assert game.log[-1].action == PartnerDrawn((5, 3))
    assert game.team == ("Ben", "Cid")


def test_H9_no_partner_below_the_number_of_players_set():
    session, _ = table(4, box_partner_from=5)
    assert session.start_game().phase is Phase.OPENING


def test_H9_box_and_partner_split_the_result_and_the_odd_point_goes_to_the_box():
    session, dice = table(4, box_partner_from=4)
    game = set_up(session, BEARS_OFF, Side.BOX)
    game.accept_partnership("Ben")
    assert game.team == ("Cid", "Dee")
    game.double("Ann", ("Dee",))
    game.drop("Dee")
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    assert game.settlement.points == {"Ann": 2, "Ben": 1, "Cid": -2, "Dee": -1}  # the box won 3
    assert session.seating == Seating("Ann", ("Ben", "Dee", "Cid"))  # the partner keeps their place


def test_H9_the_partner_shares_losses_too():
    session, dice = table(4, box_partner_from=4)
    game = set_up(session, position({1: 1}, {19: 14}), Side.TEAM)
    game.accept_partnership("Ben")
    game.double("Cid")
    game.drop("Ann")
    roll(game, dice, "Dee")
    game.play("Dee", "1/off")
    assert game.settlement.points == {"Ann": -1, "Ben": -1, "Cid": 1, "Dee": 1}
    assert partner_share(-3) == -1
    assert partner_share(3) == 1
    assert partner_share(-2) == -1


def test_H9_draws_at_random_among_seven_with_two_dice():
    dice = ManualDice()
    for die in (6, 6, 1, 3):  # 35 falls in the remainder; then (0 * 6 + 2) = 2
        dice.enter_die(die)
    assert draw_at_random(NAMES[:7], dice) == ("Cid", (6, 6, 1, 3))


# --- H10: the ledger ------------------------------------------------------------------------------------------


def test_H10_ledger_per_game_and_running_totals_at_the_stake():
    session, dice = table(3, stake=2.5)
    game = set_up(session, BEARS_OFF, Side.BOX)
    roll(game, dice, "Ann")
    game.play("Ann", "1/off")
    game = set_up(session, BEARS_OFF, Side.TEAM)  # Ann boxes again; Cid is captain
    roll(game, dice, "Cid")
    game.play("Cid", "1/off")
    ledger = session.ledger
    assert [g.points for g in ledger.games] == [
        {"Ann": 4, "Ben": -2, "Cid": -2},
        {"Ann": -4, "Cid": 2, "Ben": 2},
    ]
    assert ledger.totals == {"Ann": 0, "Ben": 0, "Cid": 0}
    assert ledger.money("Cid") == 0
    assert len(ledger) == 2
    assert session.seating == Seating("Cid", ("Ben", "Ann"))


def test_H10_a_ledger_that_does_not_balance_is_refused():
    with pytest.raises(LedgerError, match="did not play"):
        GameSettlement(0, "Ann", None, ("Ann", "Ben"), (Payment("Ben", "Zed", 1),))
    with pytest.raises(LedgerError, match="whole number"):
        Payment("Ben", "Ann", -1)

    class Miscounted(GameSettlement):
        @property
        def points(self) -> dict[str, int]:
            return {"Ann": 1, "Ben": 0}

    with pytest.raises(LedgerError, match="do not sum to zero"):
        Miscounted(0, "Ann", None, ("Ann", "Ben"), (Payment("Ben", "Ann", 1),))
    assert Ledger([GameSettlement(0, "Ann", None, ("Ann", "Ben"), (Payment("Ben", "Ann", 1),))]).totals == {
        "Ann": 1,
        "Ben": -1,
    }


# --- settings -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mandatory_extras": True}, "single-cube rule"),
        ({"last_taker_must_drop": True}, "single-cube rule"),
        (
            {"cubes": CubeMode.SINGLE, "last_taker_must_drop": True, "mandatory_extras": True},
            "exclude each other",
        ),
        (
            {"cubes": CubeMode.SINGLE, "mandatory_extras": True, "rules": Rules(cube=False)},
            "need the doubling cube",
        ),
        ({"box_partner_from": 3}, "at least 4 players"),
        ({"box_partner_from": 9}, "at least 4 players"),
        ({"box_partner_from": True}, "number of players"),
        ({"stake": 0}, "positive"),
        ({"stake": float("nan")}, "positive"),
        ({"cubes": "single"}, "CubeMode"),
        ({"consultation": "free"}, "Consultation"),
        ({"rules": Rules(holland=True)}, "Holland"),
        ({"variant": find_variant("acey-deucey")}, "no cube"),
        ({"last_taker_must_drop": 1}, "True or False"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_error(options, message):
    with pytest.raises(InvalidRulesError, match=message):
        ChouetteSettings(**options)


def test_settings_are_an_immutable_value_with_a_short_repr():
    settings = ChouetteSettings(cubes=CubeMode.SINGLE, rules=Rules(jacoby=True), stake=2)
    assert repr(settings) == "ChouetteSettings(cubes=CubeMode.SINGLE, rules=Rules(jacoby=True), stake=2)"
    with pytest.raises(AttributeError):
        settings.stake = 3
    assert ChouetteSettings(variant=find_variant("nackgammon")).variant.name == "nackgammon"
