"""The cube's rules written once for the game and the chouette: the offer, beavers, takes and scoring."""

from __future__ import annotations

import pytest

from tavola.cube import Cube, CubeOffer
from tavola.position import WinKind
from tavola.rules import Rules
from tavola.scoring import Ending, score_drop, score_win


def test_C2_C3_a_double_offers_twice_the_value_and_a_take_gives_the_cube_to_the_taker():
    offer = Cube(2, owner=1).offered_by(1)
    assert offer == CubeOffer(4, doubler=1)
    assert (offer.answering, offer.before) == (0, 2)
    assert offer.taken(Rules()) == Cube(4, owner=0)


def test_M3_M4_beavers_alternate_the_answer_and_never_move_the_cube_from_the_player_doubled_first():
    offer = Cube().offered_by(0).beavered().beavered()  # double, beaver, raccoon
    assert (offer.value, offer.redoubles, offer.answering) == (8, 2, 1)
    assert offer.taken(Rules(beavers=2)) == Cube(8, owner=1)


@pytest.mark.parametrize(
    ("beavers", "redoubles", "reason"),
    [
        (0, 0, "these rules allow no beavers (M3, M4)"),
        (1, 1, "these rules allow a beaver (M3, M4)"),
        (2, 2, "these rules allow a beaver and a raccoon (M3, M4)"),
        (3, 3, "these rules allow 3 redoubles (M3, M4)"),
        (3, 2, None),
    ],
)
def test_M3_M4_how_many_immediate_redoubles_the_rules_allow(beavers, redoubles, reason):
    offer = CubeOffer(2 << redoubles, doubler=0, redoubles=redoubles)
    assert offer.why_no_beaver(Rules(beavers=beavers)) == reason


def test_M6_under_automatic_beavers_the_first_take_is_a_beaver():
    rules = Rules(beavers=1, automatic_beavers=True)
    first = Cube().offered_by(0)
    assert first.taken(rules) == CubeOffer(4, doubler=0, redoubles=1)
    assert first.taken(rules).taken(rules) == Cube(4, owner=1)


def test_C3_M3_a_drop_pays_the_value_before_the_offer_to_the_player_not_answering():
    assert score_drop(Cube().offered_by(0)).winner == 0
    beavered = Cube().offered_by(0).beavered()
    dropped = score_drop(beavered)  # the first doubler drops the beaver
    assert (dropped.winner, dropped.points, dropped.ending) == (1, 2, Ending.DROP)


@pytest.mark.parametrize(
    ("cube", "rules", "points"),
    [
        (Cube(2, owner=1), Rules(), 4),  # C5: a gammon at cube 2
        (Cube(4, owner=0), Rules(), 8),
        (Cube(2, owner=1), Rules(jacoby=True), 4),  # M5: the cube was turned
        (Cube(), Rules(jacoby=True), 1),  # M5: never turned
        (Cube(2), Rules(jacoby=True, automatic_doubles=1), 2),  # M2: an automatic double turns nothing
        (Cube(2, owner=1), Rules(gammons=False), 2),  # M6: no gammons
    ],
)
def test_C5_M2_M5_M6_what_a_gammon_pays(cube, rules, points):
    assert score_win(0, WinKind.GAMMON, cube, rules, Ending.BEAR_OFF).points == points


def test_C5_a_per_checker_win_pays_the_checkers_left_times_the_cube():
    outcome = score_win(1, WinKind.SINGLE, Cube(2, owner=1), Rules(), Ending.BEAR_OFF, checkers_left=5)
    assert outcome.points == 10
