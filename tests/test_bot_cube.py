"""Cube decisions (money and match) and the match equity table."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavola.bot.context import CubeContext
from tavola.bot.cube import (
    CubeAction,
    CubeResponse,
    game_decision,
    match_cubeful,
    match_decision,
    money_decision,
    money_equity,
    position_efficiency,
)
from tavola.bot.measured import CONTACT_EFFICIENCY, RACE_EFFICIENCY
from tavola.bot.met import (
    LENGTH,
    CubefulGame,
    GammonRates,
    MatchEquityTable,
    MetModel,
    default_table,
    equity_to_mwc,
    match_equity,
    match_equity_after,
    mwc_to_equity,
    table_for,
)
from tavola.cube import Cube
from tavola.errors import InvalidRulesError
from tavola.game import Game
from tavola.matchrules import MAX_MATCH_LENGTH
from tavola.position import Position
from tavola.rules import Rules

OPENING = [0.52, 0.15, 0.01, 0.13, 0.01]
EVEN = [0.5, 0.13, 0.005, 0.13, 0.005]

# Kazaross-XG2, the default table of GNU Backgammon 1.06 (met/Kazaross-XG2.xml: XG rollouts to
# 9-away, GNU Backgammon rollouts to 15): row a, column b is the chance of the player a-away
# against b-away; the 1-away row and column are the Crawford game.
KAZAROSS_XG2 = [
    [0.50000, 0.67736, 0.75076, 0.81436, 0.84179, 0.88731, 0.90724, 0.93250, 0.94402, 0.95928, 0.96644],
    [0.32264, 0.50000, 0.59947, 0.66870, 0.74359, 0.79940, 0.84225, 0.87539, 0.90197, 0.92303, 0.93931],
    [0.24924, 0.40053, 0.50000, 0.57150, 0.64795, 0.71123, 0.76209, 0.80468, 0.84017, 0.87064, 0.89442],
    [0.18564, 0.33130, 0.42850, 0.50000, 0.57732, 0.64285, 0.69924, 0.74577, 0.78799, 0.82406, 0.85396],
    [0.15821, 0.25641, 0.35205, 0.42268, 0.50000, 0.56635, 0.62638, 0.67786, 0.72540, 0.76706, 0.80273],
    [0.11269, 0.20060, 0.28877, 0.35715, 0.43365, 0.50000, 0.56261, 0.61636, 0.66787, 0.71306, 0.75343],
    [0.09276, 0.15775, 0.23791, 0.30076, 0.37362, 0.43739, 0.50000, 0.55480, 0.60854, 0.65628, 0.70021],
    [0.06750, 0.12461, 0.19532, 0.25423, 0.32214, 0.38364, 0.44520, 0.50000, 0.55442, 0.60372, 0.64990],
    [0.05598, 0.09803, 0.15983, 0.21201, 0.27460, 0.33213, 0.39146, 0.44558, 0.50000, 0.55020, 0.59793],
    [0.04073, 0.07697, 0.12936, 0.17594, 0.23295, 0.28694, 0.34372, 0.39628, 0.44980, 0.50000, 0.54855],
    [0.03356, 0.06069, 0.10558, 0.14605, 0.19727, 0.24657, 0.29979, 0.35010, 0.40207, 0.45145, 0.50000],
]
# The same table's post-Crawford row: the trailer n-away against the leader 1-away.
KAZAROSS_XG2_POST = [0.5, 0.48803, 0.32264, 0.31002, 0.19012, 0.18072, 0.11559, 0.10906, 0.06953]
# And a few longer scores (its entries past 15-away are extrapolated).
KAZAROSS_XG2_LONG = {(13, 25): 0.86123, (15, 25): 0.80883, (24, 25): 0.53086, (25, 1): 0.00095}


def pre(a: int, b: int) -> float:
    """The table's entry as published tables print it: the Crawford game at a 1-away score."""
    return match_equity(a, b, crawford=(a == 1) != (b == 1))


probabilities = st.tuples(
    st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0)
).map(lambda r: [r[0], r[0] * r[1], r[0] * r[1] * r[2], (1 - r[0]) * r[3], (1 - r[0]) * r[3] * r[4]])


# --- the match equity table ------------------------------------------------------------------


def test_P1_a_player_against_the_same_score_is_even_and_the_table_is_symmetric():
    table = default_table()
    for a in range(1, LENGTH + 1):
        assert table.equity(a, a) == pytest.approx(0.5, abs=1e-12)
        for b in range(1, LENGTH + 1):
            assert pre(a, b) + pre(b, a) == pytest.approx(1.0, abs=1e-12)
            if (a == 1) != (b == 1):
                assert table.equity(a, b) + table.equity(b, a) == pytest.approx(1.0, abs=1e-12)


def test_P1_needing_fewer_points_is_better():
    for a in range(1, LENGTH):
        for b in range(1, LENGTH + 1):
            assert pre(a, b) > pre(a + 1, b)
            assert pre(b, a) < pre(b, a + 1)
        assert match_equity(a, 1) >= match_equity(a + 1, 1)  # post-Crawford trailer


def test_P2_anchor_values():
    assert match_equity(1, 1) == 0.5  # double match point
    assert 0.67 <= match_equity(1, 2, crawford=True) <= 0.70
    # The free drop: post-Crawford, the trailer 2-away is worth less than 1-away/1-away...
    assert 0.48 < match_equity(2, 1) < 0.5
    # ...and the trailer 3-away needs what the trailer in the Crawford game at 2-away needs.
    assert match_equity(3, 1) == pytest.approx(1 - match_equity(1, 2, crawford=True), abs=0.002)
    assert match_equity(1, 3) == pytest.approx(1 - match_equity(3, 1), abs=1e-12)


def differences_from_kazaross_xg2(table: MatchEquityTable) -> tuple[float, float, float]:
    """The largest gaps to the published table: up to 11-away, post-Crawford, at the longer scores."""

    def entry(a: int, b: int) -> float:
        return table.equity(a, b, crawford=(a == 1) != (b == 1))

    short = max(
        abs(entry(a, b) - published)
        for a, row in enumerate(KAZAROSS_XG2, start=1)
        for b, published in enumerate(row, start=1)
    )
    post = max(abs(table.equity(n, 1) - published) for n, published in enumerate(KAZAROSS_XG2_POST, start=1))
    long = max(abs(entry(a, b) - published) for (a, b), published in KAZAROSS_XG2_LONG.items())
    return short, post, long


def test_the_model_can_reproduce_kazaross_xg2():
    """With the parameters once fitted to it, within 0.7 points up to 11-away, 0.3 post-Crawford."""
    fitted = MetModel(gammon_rate=0.28, backgammon_rate=0.01, cube_efficiency=0.8)
    short, post, long = differences_from_kazaross_xg2(MatchEquityTable.build(LENGTH, fitted))
    assert short < 0.007
    assert post < 0.003
    assert long < 0.0015


def test_the_table_from_tavolas_own_figures_is_close_to_kazaross_xg2():
    """Within 1.3 points up to 11-away, 1.1 post-Crawford, 0.5 at longer scores (see tavola.bot.met).

    Tavola's money games have fewer gammons than the published table's
    matches: the Crawford game at 1-away/2-away shows the gammon share.
    """
    short, post, long = differences_from_kazaross_xg2(default_table())
    assert short < 0.013
    assert post < 0.011
    assert long < 0.005
    gammons = MetModel().gammon_rate
    assert pre(1, 2) == pytest.approx(0.5 + (1 - gammons) / 4, abs=1e-12)
    assert pre(1, 2) > KAZAROSS_XG2[0][1]  # fewer gammons: the trailer comes back less often


def test_P1_points_past_n_count_for_nothing():
    assert match_equity_after(2, 5, 2) == 1.0
    assert match_equity_after(2, 5, 4) == match_equity_after(2, 5, 6) == 1.0
    assert match_equity_after(5, 3, -6) == 0.0
    table = default_table()
    assert table.outcomes(3, 3, 2)[1:3] == (1.0, 1.0)
    assert table.outcomes(3, 3, 2)[4:] == (0.0, 0.0)
    gammons, backgammons = [0.7, 0.5, 0.0, 0.0, 0.0], [0.7, 0.5, 0.5, 0.0, 0.0]
    assert table.cubeless(gammons, 3, 5, 2) == table.cubeless(backgammons, 3, 5, 2)
    assert match_equity(0, 4) == 1.0
    assert match_equity(4, -2) == 0.0


def test_P2_reaching_1_away_starts_the_crawford_game_then_post_crawford():
    table = default_table()
    assert table.after(3, 4, 2) == table.equity(1, 4, crawford=True)
    assert table.after(1, 4, -1, crawford=True) == table.equity(1, 3)  # post-Crawford
    assert table.after(1, 4, -1, crawford=True) == table.equity(1, 3, post_crawford=True)
    assert table.after(2, 4, -1) == table.equity(2, 3)
    without = default_table(crawford=False)
    assert without.after(3, 4, 2) == without.equity(1, 4)
    with pytest.raises(ValueError, match="without the Crawford rule"):
        without.equity(1, 4, crawford=True)


def test_match_equity_refuses_contradictions():
    with pytest.raises(ValueError, match="Crawford game has one player 1-away"):
        match_equity(3, 4, crawford=True)
    with pytest.raises(ValueError, match="not post-Crawford"):
        match_equity(1, 4, crawford=True, post_crawford=True)
    with pytest.raises(ValueError, match="not post-Crawford"):
        match_equity(3, 4, post_crawford=True)
    with pytest.raises(ValueError, match="stops at 5-away"):
        MatchEquityTable.build(5).equity(3, 6)


def test_equity_and_match_winning_chances_convert_both_ways():
    assert mwc_to_equity(match_equity_after(5, 3, 2), 5, 3, 2) == pytest.approx(1.0)
    assert mwc_to_equity(match_equity_after(5, 3, -2), 5, 3, 2) == pytest.approx(-1.0)
    for equity in (-1.0, -0.3, 0.0, 0.7):
        mwc = equity_to_mwc(equity, 6, 4, 2)
        assert mwc_to_equity(mwc, 6, 4, 2) == pytest.approx(equity)


def test_a_smaller_table_is_the_corner_of_a_larger_one():
    small = MatchEquityTable.build(7)
    for a in range(1, 8):
        for b in range(2, 8):
            assert small.equity(a, b) == default_table().equity(a, b)


# --- the cube-life model -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(probabilities, st.booleans())
def test_the_match_model_with_money_payoffs_is_janowskis_live_cube(probs, jacoby):
    """With money at stake the exact continuous model gives Janowski's take and cash points."""
    game = CubefulGame(lambda k: float(k), GammonRates.of(probs), lambda v, _: v < 2**30, jacoby=jacoby)
    for owner in (None, 0, 1):
        expected = money_equity(probs, owner, jacoby=jacoby, efficiency=1.0)
        assert game.curve(1, owner)(probs[0]) == pytest.approx(expected, abs=1e-6)


def test_a_game_starting_even_is_worth_the_table_entry():
    for away in [(3, 3), (7, 4), (2, 5), (11, 6)]:
        assert match_cubeful([0.5, 0.14, 0.005, 0.14, 0.005], away) == pytest.approx(
            match_equity(*away), abs=0.005
        )


# --- money -------------------------------------------------------------------------------------


def test_C2_a_huge_race_lead_is_double_drop():
    decision = money_decision([0.99, 0.0, 0.0, 0.0, 0.0])
    assert (decision.action, decision.response) == (CubeAction.DOUBLE, CubeResponse.DROP)
    assert decision.equity == decision.double_pass == 1.0
    assert str(decision).startswith("Double, drop (no double +0.99")


def test_C2_a_huge_lead_with_gammons_likely_is_too_good_to_double():
    decision = money_decision([0.99, 0.6, 0.05, 0.0, 0.0])
    assert (decision.action, decision.response) == (CubeAction.TOO_GOOD, CubeResponse.DROP)
    assert decision.no_double > 1.0
    assert decision.title == "Too good to double, drop"


@pytest.mark.parametrize("probs", [OPENING, EVEN])
def test_C2_the_opening_position_and_an_even_one_are_no_double_take(probs):
    decision = money_decision(probs)
    assert (decision.action, decision.response) == (CubeAction.NO_DOUBLE, CubeResponse.TAKE)
    assert decision.double_take is not None
    assert decision.double_take < decision.no_double


def test_C2_no_double_when_the_opponent_owns_the_cube():
    decision = money_decision([0.9, 0.0, 0.0, 0.0, 0.0], Cube(2, 1))
    assert decision.action is CubeAction.NO_DOUBLE
    assert decision.response is None
    assert decision.double_take is None
    assert "opponent's (C2)" in str(decision)
    assert money_decision([0.9, 0.0, 0.0, 0.0, 0.0], Cube(2, 1), player=1).action is CubeAction.DOUBLE


def test_C2_a_redouble_from_an_owned_cube_needs_more_than_an_initial_double():
    at_74, at_75 = [0.74, 0.0, 0.0, 0.0, 0.0], [0.75, 0.0, 0.0, 0.0, 0.0]
    assert money_decision(at_74).action is CubeAction.DOUBLE
    owned = money_decision(at_74, Cube(2, 0))
    assert owned.action is CubeAction.NO_DOUBLE
    assert owned.title == "No redouble, take"
    redouble = money_decision(at_75, Cube(2, 0))
    assert redouble.action is CubeAction.DOUBLE
    assert redouble.title == "Redouble, take"
    assert money_decision(at_75, Cube(4, 1), player=1).title == "Redouble, take"


def test_C3_the_take_point_lies_between_the_live_and_the_dead_cube_ones():
    def response(p: float) -> CubeResponse | None:
        return money_decision([p, 0.0, 0.0, 0.0, 0.0]).response

    assert response(0.75) is CubeResponse.TAKE  # the taker has 25%: above either take point
    assert response(0.82) is CubeResponse.DROP  # 18%: below either
    assert money_decision([0.78, 0.0, 0.0, 0.0, 0.0], efficiency=1.0).response is CubeResponse.TAKE
    assert money_decision([0.78, 0.0, 0.0, 0.0, 0.0], efficiency=0.0).response is CubeResponse.DROP


def test_M3_beaver_when_the_takers_equity_after_the_take_is_positive():
    beavers = Rules(beavers=1)
    decision = money_decision(OPENING, rules=beavers)
    assert (decision.action, decision.response) == (CubeAction.NO_DOUBLE, CubeResponse.BEAVER)
    assert decision.double_take is not None
    assert decision.double_take < 0
    assert decision.double_beaver == pytest.approx(2 * decision.double_take)
    assert money_decision(OPENING).response is CubeResponse.TAKE  # no beavers in these rules
    assert money_decision([0.68, 0.1, 0.0, 0.05, 0.0], rules=beavers).response is CubeResponse.TAKE
    automatic = Rules(beavers=1, automatic_beavers=True)  # every take is a beaver (M6)
    assert money_decision([0.2, 0.0, 0.0, 0.1, 0.0], rules=automatic).response is CubeResponse.BEAVER


@settings(max_examples=60, deadline=None)
@given(probabilities, st.sampled_from([None, 0]), st.booleans())
def test_M3_money_decisions_are_consistent(probs, owner, beavers):
    rules = Rules(beavers=int(beavers))
    decision = money_decision(probs, Cube(2, owner) if owner is not None else Cube(), rules)
    assert decision.double_take is not None
    assert decision.double_pass == 1.0
    take = -decision.double_take
    if decision.response is CubeResponse.BEAVER:
        assert beavers
        assert take > 0
    elif decision.response is CubeResponse.TAKE:
        assert take >= -1
        assert not (beavers and 0 < take < 2)
    else:
        assert take < -1
    assert decision.equity >= decision.no_double
    assert (decision.action is CubeAction.DOUBLE) == (decision.equity > decision.no_double)


def test_M5_jacoby_with_a_centred_cube_counts_gammons_single():
    gammonish = [0.85, 0.6, 0.02, 0.0, 0.0]
    assert money_decision(gammonish).action is CubeAction.TOO_GOOD
    jacoby = money_decision(gammonish, rules=Rules(jacoby=True))
    assert (jacoby.action, jacoby.response) == (CubeAction.DOUBLE, CubeResponse.DROP)
    assert jacoby.no_double < 1.0
    # The dead cube counts single games only; once the cube is turned gammons count again.
    assert money_equity(gammonish, jacoby=True, efficiency=0.0) == pytest.approx(2 * 0.85 - 1)
    owned = money_decision(gammonish, Cube(2, 0), Rules(jacoby=True))
    assert owned.no_double == money_decision(gammonish, Cube(2, 0)).no_double


def test_M6_without_gammons_every_game_is_single():
    without = money_decision([0.85, 0.6, 0.02, 0.0, 0.0], rules=Rules(gammons=False))
    assert without.no_double == money_decision([0.85, 0.0, 0.0, 0.0, 0.0]).no_double


def test_decisions_take_one_positions_probabilities():
    with pytest.raises(ValueError, match="five probabilities"):
        money_decision([0.5, 0.1])


# --- match play --------------------------------------------------------------------------------


def test_match_a_huge_lead_is_double_drop_and_the_opening_is_no_double():
    decision = match_decision([0.99, 0.0, 0.0, 0.0, 0.0], (5, 5))
    assert (decision.action, decision.response) == (CubeAction.DOUBLE, CubeResponse.DROP)
    assert decision.double_pass == pytest.approx(match_equity_after(5, 5, 1))
    assert "%" in str(decision)
    for away in [(3, 3), (7, 7), (11, 11)]:
        assert match_decision(OPENING, away).action is CubeAction.NO_DOUBLE


def test_match_at_2_away_2_away_any_edge_is_a_double():
    decision = match_decision([0.55, 0.1, 0.0, 0.1, 0.0], (2, 2))
    assert (decision.action, decision.response) == (CubeAction.DOUBLE, CubeResponse.TAKE)
    assert decision.double_take == pytest.approx(0.55)  # the 2-cube decides the match


def test_P2_nobody_doubles_in_the_crawford_game():
    for probs in ([0.99, 0.0, 0.0, 0.0, 0.0], [0.8, 0.4, 0.0, 0.0, 0.0], EVEN):
        for away in [(1, 2), (2, 1), (1, 5), (5, 1)]:
            decision = match_decision(probs, away, crawford=True)
            assert decision.action is CubeAction.NO_DOUBLE
            assert "Crawford" in str(decision)
            assert decision.no_double == pytest.approx(default_table().cubeless(probs, *away, 1, True))


@pytest.mark.parametrize("trailer", [2, 3, 4, 5, 8])
def test_P2_post_crawford_the_trailer_doubles_at_once_and_the_leader_never(trailer):
    assert match_decision(EVEN, (trailer, 1)).action is CubeAction.DOUBLE
    leader = match_decision(EVEN, (1, trailer))
    assert leader.action is CubeAction.NO_DOUBLE
    assert "dead" in str(leader)
    owned = match_decision(EVEN, (1, trailer), Cube(2, 0))  # no automatic redouble
    assert owned.action is CubeAction.NO_DOUBLE
    assert owned.title.startswith("No redouble")


@pytest.mark.parametrize(
    ("trailer", "chance", "response"),
    [
        (2, 0.45, CubeResponse.TAKE),
        (2, 0.55, CubeResponse.DROP),  # the free drop: dropping costs the leader nothing
        (3, 0.55, CubeResponse.TAKE),  # no free drop at an odd-away score
        (4, 0.55, CubeResponse.DROP),
        (5, 0.55, CubeResponse.TAKE),
    ],
)
def test_P2_post_crawford_the_leader_uses_the_free_drop(trailer, chance, response):
    probs = [chance, 0.14, 0.005, 0.14, 0.005]
    assert match_decision(probs, (trailer, 1)).response is response


def test_P3_holland_the_trailer_may_not_double_before_their_third_turn():
    decision = match_decision(EVEN, (3, 1), may_double=False)
    assert decision.action is CubeAction.NO_DOUBLE
    assert "P3" in str(decision)
    game = Game(Rules(holland=True), position=Position.start(), player_on_roll=1, holland=1)
    assert "P3" in str(game_decision(game, EVEN, CubeContext.of_game(game, away=(3, 1))))


def test_match_a_cube_whose_win_already_ends_the_match_is_dead():
    decision = match_decision([0.9, 0.0, 0.0, 0.0, 0.0], (2, 5), Cube(2, 0))
    assert decision.action is CubeAction.NO_DOUBLE
    assert "dead" in str(decision)
    assert decision.no_double == pytest.approx(default_table().cubeless([0.9, 0, 0, 0, 0], 2, 5, 2))
    assert match_decision(EVEN, (1, 1)).action is CubeAction.NO_DOUBLE  # double match point


def test_P4_beavers_are_refused_in_a_match():
    with pytest.raises(InvalidRulesError, match="P4"):
        match_decision(EVEN, (5, 5), rules=Rules(beavers=1))


def test_a_game_in_progress_gives_its_own_decision():
    game = Game(Rules(), position=Position.start(), player_on_roll=0)
    assert game_decision(game, [0.99, 0.0, 0.0, 0.0, 0.0]).action is CubeAction.DOUBLE
    game.double()
    assert game_decision(game, [0.99, 0.0, 0.0, 0.0, 0.0]).response is CubeResponse.DROP
    assert game_decision(game, OPENING, CubeContext.of_game(game, away=(5, 5))).response is CubeResponse.TAKE
    game.take()
    game.roll()
    with pytest.raises(ValueError, match="before the roll"):
        game_decision(game, OPENING)


def test_a_game_decides_with_the_cube_efficiency_measured_for_its_position_class():
    race = Position([0, 3, 3, 3, 3, 3] + [0] * 13 + [-3, -3, -3, -3, -3])
    assert position_efficiency(race) == RACE_EFFICIENCY < CONTACT_EFFICIENCY
    assert position_efficiency(Position.start()) == CONTACT_EFFICIENCY
    probabilities = [0.7, 0.0, 0.0, 0.0, 0.0]
    for position, efficiency in ((race, RACE_EFFICIENCY), (Position.start(), CONTACT_EFFICIENCY)):
        game = Game(Rules(), position=position, player_on_roll=0)
        decision = game_decision(game, probabilities)
        assert decision == money_decision(probabilities, efficiency=efficiency)
    # A less efficient cube is worth less to the favourite, who holds the better use of it.
    in_race = game_decision(Game(Rules(), position=race, player_on_roll=0), probabilities)
    in_contact = game_decision(Game(Rules(), position=Position.start(), player_on_roll=0), probabilities)
    assert in_race.no_double < in_contact.no_double


def test_P1_the_table_for_the_longest_match_is_built_in_well_under_a_second_or_so() -> None:
    started = time.perf_counter()
    table = MatchEquityTable.build(MAX_MATCH_LENGTH)
    assert time.perf_counter() - started < 3.0  # about 0.4 s; 18 s once at 200 points
    assert table_for(MAX_MATCH_LENGTH, MAX_MATCH_LENGTH).length == MAX_MATCH_LENGTH
    assert table_for(LENGTH, 1).length == LENGTH
    assert table.equity(5, 7) == default_table().equity(5, 7)
