"""Variants: one conformance suite every variant runs, and the rules of each (V1-V5)."""

from __future__ import annotations

import json
import random

import pytest

from builders import play_randomly, position
from tavola import Dice, IllegalPlayError, Position, WinKind
from tavola.actions import ChooseDouble, Double, MoveCheckers, Resign, Undo
from tavola.cube import Cube
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import IllegalActionError, InvalidRulesError
from tavola.game import Game, Phase
from tavola.match import Match, MoneySession
from tavola.records import from_json, to_json
from tavola.rules import Rules
from tavola.turn import Turn
from tavola.variants import (
    ACEY_DEUCEY,
    DUTCH,
    HYPERGAMMON,
    NACKGAMMON,
    STANDARD,
    VARIANTS,
    Variant,
    find_variant,
)

# --- the suite every variant runs ----------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_with_checkers_conserved(variant, seed):
    game = Game(dice=RandomDice(seed=seed), variant=variant)
    play_randomly(game, random.Random(seed))  # checks every board on the way
    assert game.outcome is not None
    assert game.outcome.points >= 1


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_undo_restores_the_turn(variant):
    rng = random.Random(1)
    game = Game(dice=RandomDice(seed=11), variant=variant)
    while game.roll() is None:
        pass
    for _ in range(5):
        steps = [action for action in game.legal_actions() if isinstance(action, MoveCheckers)]
        if steps:
            before = (game.position, game.turn)
            game.apply(rng.choice(steps))
            game.apply(Undo())
            assert (game.position, game.turn) == before
        game.play(rng.choice(list(game.turn.legal)))
        if game.phase is Phase.CHOOSE_DOUBLE:
            game.choose_double(rng.randint(1, 6))
            game.play(game.turn.legal[0])
        if game.is_over:
            break
        if game.phase is Phase.ROLL:
            game.roll()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_variants_start_with_their_checkers_and_ids_round_trip(variant):
    start = variant.start
    assert sum(start.sides()[0]) + start.waiting[0] + start.off[0] == variant.checkers
    assert start.flip() == start  # both sides start alike
    assert Position.from_tavola_id(start.tavola_id()) == start
    assert eval(repr(start)) == start
    assert find_variant(variant.name) is variant


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_matches_and_sessions_play_every_variant(variant):
    for series in (
        Match(3, dice=RandomDice(seed=2), variant=variant),
        MoneySession(dice=RandomDice(seed=2), variant=variant),
    ):
        game = series.new_game()
        play_randomly(game, random.Random(2))
        assert game.variant is variant
        assert game.outcome is not None


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_records_round_trip_every_variant(variant):
    session = MoneySession(dice=RandomDice(seed=5), variant=variant)
    for seed in range(2):
        play_randomly(session.new_game(), random.Random(seed))
    again = from_json(json.loads(json.dumps(to_json(session))))
    assert again.variant == variant
    assert [game.log for game in again.games] == [game.log for game in session.games]
    assert again.score == session.score


# --- V1 Dutch backgammon ---------------------------------------------------------------------


def test_V1_dutch_checkers_start_on_the_bar_and_all_enter_before_any_moves_on():
    assert DUTCH.start.bar == (15, 15)
    pos = position({22: 1}, {3: 1}, bar=(14, 14))
    for play in pos.legal_plays(Dice(6, 5), DUTCH):
        assert all(move.source == 25 for move in play.moves)


def test_V1_dutch_no_hitting_before_a_checker_reaches_home():
    pos = position({20: 2}, {22: 1, 3: 1}, bar=(13, 13))
    assert {play.notation for play in pos.legal_plays(Dice(3, 1), STANDARD)} == {"bar/24 bar/22*"}
    # No checker home: the 3 would hit on 22, so only the 1 can be played.
    assert {play.notation for play in pos.legal_plays(Dice(3, 1), DUTCH)} == {"bar/24"}
    with pytest.raises(IllegalPlayError):
        pos.parse_play(Dice(3, 1), "bar/22* bar/24", DUTCH)


def refusal(start: Position, dice: Dice, typed: str, variant: Variant) -> tuple[str | None, str | None]:
    """Why ``typed`` is refused, typed as a whole play and as moves of a turn (``None``: accepted)."""
    reasons: list[str | None] = []
    for attempt in (
        lambda: start.parse_play(dice, typed, variant),
        lambda: Turn(start, dice, variant=variant).add(typed),
    ):
        try:
            attempt()
        except IllegalPlayError as error:
            reasons.append(str(error))
        else:
            reasons.append(None)
    return reasons[0], reasons[1]


def test_V1_a_refused_hit_before_a_checker_is_home_says_so_typed_whole_or_move_by_move():
    entering = position({20: 2}, {22: 1, 3: 1}, bar=(13, 13))
    away = position({8: 1, 20: 14}, {4: 1, 24: 14})
    two_blots = position({8: 1, 20: 14}, {4: 1, 5: 1, 24: 13})
    for start, dice, typed, hop in (
        (entering, Dice(3, 1), "bar/22* bar/24", "bar/22*"),
        (entering, Dice(3, 1), "bar/22", "bar/22"),  # the hit is not marked, but it would be one
        (away, Dice(4, 3), "8/4* 20/17", "8/4*"),
        (two_blots, Dice(4, 3), "8/1", "8/1"),  # by the 4 or by the 3 first, it hits before it is home
    ):
        why = f"{hop}: you may not hit until one of your checkers has reached your home board (V1)"
        assert refusal(start, dice, typed, DUTCH) == (why, why)
        assert not any("V1" in (reason or "") for reason in refusal(start, dice, typed, STANDARD))


def test_V1_a_hit_once_a_checker_is_home_within_the_same_play_is_legal():
    start = position({9: 1, 20: 14}, {1: 1, 24: 14})
    assert str(start.parse_play(Dice(4, 4), "9/1* 20/12", DUTCH)) == "20/12 9/1*"
    first_home = position({8: 1, 22: 14}, {18: 1, 24: 14})  # 8/5 first, then 22/18* may hit
    assert str(first_home.parse_play(Dice(4, 3), "22/18* 8/5", DUTCH)) == "22/18* 8/5"
    assert str(Turn(first_home, Dice(4, 3), variant=DUTCH).add("8/5").add("22/18*").play) == "22/18* 8/5"


def test_V1_dutch_the_first_hit_allowed_once_a_checker_is_home():
    away = position({8: 1, 20: 14}, {4: 1, 24: 14})
    assert not any("*" in play.notation for play in away.legal_plays(Dice(4, 3), DUTCH))
    home = position({8: 1, 6: 1, 20: 13}, {4: 1, 24: 14})
    assert any("8/4*" in play.notation for play in home.legal_plays(Dice(4, 3), DUTCH))
    borne_off = position({8: 1, 20: 13}, {4: 1, 24: 14})  # one checker borne off counts too
    assert any("8/4*" in play.notation for play in borne_off.legal_plays(Dice(4, 3), DUTCH))


def test_V1_dutch_a_checker_reaching_home_lets_the_next_die_hit():
    # Judged move by move: 9/6 comes home with the 3, then the 5 may hit on 3.
    pos = position({9: 1, 8: 1, 20: 13}, {3: 1, 24: 14})
    dutch = {play.notation for play in pos.legal_plays(Dice(5, 3), DUTCH)}
    assert "9/6 8/3*" in dutch
    standard = {play.notation for play in pos.legal_plays(Dice(5, 3), STANDARD)}
    assert "20/17 8/3*" in standard  # hitting first, with nobody home: standard only
    assert "20/17 8/3*" not in dutch


def test_V1_dutch_a_double_hits_after_a_checker_comes_home_and_the_turn_goes_on_move_by_move():
    # 6-6: 9/3 comes home, then the sixes may hit on 13 and go on; all four must be played (R11).
    pos = position({9: 1, 19: 14}, {13: 1, 24: 14})
    plays = pos.legal_plays(Dice(6, 6), DUTCH)
    assert pos.parse_play(Dice(6, 6), "9/3 19/13*/7/1", DUTCH).after in {play.after for play in plays}
    assert all(len(play.moves) == 4 for play in plays)
    dice = ManualDice()
    dice.enter("66")
    game = Game(dice=dice, variant=DUTCH, position=pos, player_on_roll=0)
    game.roll()
    for step in ("9/3", "19/13*", "13/7", "7/1"):
        assert any(isinstance(action, MoveCheckers) for action in game.legal_actions())
        game.move(step)
    game.commit()
    assert game.player_on_roll == 1


# --- V2 Acey-Deucey ---------------------------------------------------------------------------


def test_V2_acey_deucey_checkers_start_waiting_and_are_not_on_the_bar():
    assert ACEY_DEUCEY.start.waiting == (15, 15)
    assert ACEY_DEUCEY.start.bar == (0, 0)
    with pytest.raises(ValueError, match="Tavola ID"):
        ACEY_DEUCEY.start.position_id()


def test_V2_acey_deucey_entering_and_moving_mix_in_one_play():
    pos = position({20: 2}, {5: 2}, waiting=(13, 13))
    plays = {play.notation for play in pos.legal_plays(Dice(6, 4), ACEY_DEUCEY)}
    assert "in/21 20/14" in plays
    assert "in/19 20/16" in plays


def test_V2_acey_deucey_a_hit_checker_enters_before_anything_else():
    pos = position({20: 1}, {5: 2}, bar=(1, 0), waiting=(13, 13))
    for play in pos.legal_plays(Dice(6, 4), ACEY_DEUCEY):
        assert play.moves[0].source == 25


def test_V2_acey_deucey_no_bearing_off_while_checkers_wait():
    pos = position({3: 14}, {20: 2}, waiting=(1, 13))
    assert not any("off" in play.notation for play in pos.legal_plays(Dice(6, 5), ACEY_DEUCEY))


def test_V2_acey_deucey_has_no_cube():
    game = Game(dice=ManualDice(["65"]), variant=ACEY_DEUCEY, position=ACEY_DEUCEY.start, player_on_roll=0)
    assert Double() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="without the doubling cube"):
        game.double()


@pytest.mark.parametrize("rules", [Rules(automatic_doubles=2), Rules(beavers=1), Rules(jacoby=True)])
def test_V2_M2_acey_deucey_refuses_the_cube_options(rules):
    with pytest.raises(InvalidRulesError, match=r"without the doubling cube.*\(V2\)"):
        Game(rules, variant=ACEY_DEUCEY)
    with pytest.raises(InvalidRulesError, match=r"\(V2\)"):
        MoneySession(rules, variant=ACEY_DEUCEY)


def test_V2_M2_acey_deucey_tied_openings_never_double_the_stake():
    dice = ManualDice()
    for tie in (3, 5, 2):
        dice.enter_opening(tie, tie)
    dice.enter_opening(2, 1)
    game = Game(dice=dice, variant=ACEY_DEUCEY)
    while game.roll() is None:
        pass
    assert game.cube == Cube()


def test_V2_acey_deucey_resigning_is_listed_while_choosing_the_double():
    game = Game(dice=ManualDice(["21"]), variant=ACEY_DEUCEY, position=ACEY_DEUCEY.start, player_on_roll=0)
    game.roll()
    game.play("in/24 in/23")
    assert game.phase is Phase.CHOOSE_DOUBLE
    assert Resign(WinKind.SINGLE) in game.legal_actions()
    game.apply(Resign(WinKind.SINGLE))
    assert game.phase is Phase.RESIGNATION


def test_V2_acey_deucey_the_loser_pays_per_checker_not_borne_off():
    pos = position({1: 1}, {10: 5}, waiting=(0, 2))
    game = Game(dice=ManualDice(["21"]), variant=ACEY_DEUCEY, position=pos, player_on_roll=0)
    game.roll()
    game.play("1/off")
    assert game.phase is Phase.OVER
    assert (game.outcome.winner, game.outcome.points, game.outcome.checkers_left) == (0, 7, 7)


def test_V2_acey_deucey_resigning_pays_per_checker_left():
    game = Game(dice=ManualDice(), variant=ACEY_DEUCEY, position=ACEY_DEUCEY.start, player_on_roll=0)
    with pytest.raises(IllegalActionError, match="per checker"):
        game.resign(WinKind.GAMMON)
    game.resign()
    game.accept_resignation()
    assert game.outcome.points == 15


def test_V2_acey_deucey_roll_plays_the_one_two_then_a_chosen_double_then_rolls_again():
    game = Game(
        dice=ManualDice(["21", "43"]), variant=ACEY_DEUCEY, position=ACEY_DEUCEY.start, player_on_roll=0
    )
    game.roll()
    game.play("in/24 in/23")
    assert game.phase is Phase.CHOOSE_DOUBLE
    assert game.player_on_roll == 0
    assert game.legal_actions() == [*(ChooseDouble(number) for number in range(1, 7)), Resign(WinKind.SINGLE)]
    game.choose_double(6)
    assert game.dice == Dice(6, 6)
    game.play("in/19(4)")
    assert (game.phase, game.player_on_roll) == (Phase.ROLL, 0)  # rolls again
    assert game.roll() == Dice(4, 3)


def test_V2_acey_deucey_roll_whose_two_cannot_be_played_gives_no_double():
    # The 1 can move (in/24 or 10/9) but no 2 can: 23, 22, 8 and 7 are blocked.
    pos = position({10: 1}, {23: 2, 22: 2, 8: 2, 7: 2}, waiting=(14, 7))
    game = Game(dice=ManualDice(["21"]), variant=ACEY_DEUCEY, position=pos, player_on_roll=0)
    game.roll()
    plays = game.turn.legal
    assert {play.notation for play in plays} == {"in/24", "10/9"}  # R12: the one die that can
    game.play(plays[0])
    assert (game.phase, game.player_on_roll) == (Phase.ROLL, 1)  # no double to choose


def test_V2_acey_deucey_a_chosen_double_played_only_partly_ends_the_turn():
    pos = position({24: 2}, {19: 2, 17: 2, 10: 2}, waiting=(13, 9))
    game = Game(dice=ManualDice(["21"]), variant=ACEY_DEUCEY, position=pos, player_on_roll=0)
    game.roll()
    game.play("24/22 24/23")
    game.choose_double(6)  # only 22/16 moves: 16/10, 23/17 and entering on 19 are blocked
    assert {play.notation for play in game.turn.legal} == {"22/16"}
    game.play("22/16")
    assert (game.phase, game.player_on_roll) == (Phase.ROLL, 1)  # no roll again


def test_V2_acey_deucey_roll_can_be_turned_off():
    plain = ACEY_DEUCEY.with_options(acey_deucey_roll=False)
    game = Game(dice=ManualDice(["21"]), variant=plain, position=plain.start, player_on_roll=0)
    game.roll()
    game.play("in/24 in/23")
    assert (game.phase, game.player_on_roll) == (Phase.ROLL, 1)
    with pytest.raises(InvalidRulesError):
        STANDARD.with_options(acey_deucey_roll=True)


# --- V3-V5 --------------------------------------------------------------------------------------


def test_V3_no_gammons_is_a_rule_switch():
    game = Game(
        Rules(gammons=False), ManualDice(["21"]), position=position({1: 1}, {19: 15}), player_on_roll=0
    )
    game.roll()
    game.play("1/off")
    assert game.outcome.points == 1


def test_V4_nackgammon_start():
    start = NACKGAMMON.start
    assert {point: start[point] for point in (24, 23, 13, 8, 6)} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert {point: start[point] for point in (1, 2, 12, 17, 19)} == {1: -2, 2: -2, 12: -4, 17: -3, 19: -4}


def test_V5_hypergammon_three_checkers_each():
    start = HYPERGAMMON.start
    assert start.checkers == 3
    assert {point: start[point] for point in (24, 23, 22, 1, 2, 3)} == {
        24: 1,
        23: 1,
        22: 1,
        1: -1,
        2: -1,
        3: -1,
    }
    assert Position.from_position_id(start.position_id(), checkers=3) == start
    with pytest.raises(IllegalActionError, match="3 checkers"):
        Game(variant=HYPERGAMMON, position=Position.start(), player_on_roll=0)


def test_V1_dutch_a_typed_or_given_play_is_checked_by_the_variants_rules():
    pos = position({20: 2}, {22: 1, 3: 1}, bar=(13, 13))
    game = Game(dice=ManualDice(["31"]), variant=DUTCH, position=pos, player_on_roll=0)
    game.roll()
    with pytest.raises(IllegalPlayError):
        game.play("bar/24 bar/22*")
    standard_play = pos.parse_play(Dice(3, 1), "bar/24 bar/22*")
    with pytest.raises(IllegalPlayError):
        game.play(standard_play)
    game.play(pos.parse_play(Dice(3, 1), "bar/24", DUTCH))
    assert game.log[-1].action.play.variant is DUTCH


def test_V2_points_a_bot_reads_from_a_finished_position():
    finished = position({}, {10: 5}, waiting=(0, 2))
    assert ACEY_DEUCEY.points(finished) == 7
    assert ACEY_DEUCEY.points(finished.flip()) == -7
    assert STANDARD.points(finished) == 1
    assert ACEY_DEUCEY.points(ACEY_DEUCEY.start) is None
