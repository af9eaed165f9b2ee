"""Pairing a tournament: the knockout's seeded draw with its byes, the consolation's field, the Swiss's
rounds by score without repeats, and the standings."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavola.web.pairing import (
    Entrant,
    PairingError,
    Result,
    bracket_size,
    consolation_field,
    first_round,
    knockout_places,
    knockout_rounds,
    next_round,
    ranked,
    seed_positions,
    swiss_pairings,
    swiss_standings,
)

pytestmark = pytest.mark.timeout(120)

fields = st.integers(min_value=2, max_value=70)


def test_the_standard_draw_of_eight_and_sixteen() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@given(st.integers(min_value=1, max_value=7))
def test_each_first_round_pair_adds_up_to_the_bracket_plus_one(power: int) -> None:
    size = 2**power
    positions = seed_positions(size)
    assert sorted(positions) == list(range(1, size + 1))
    assert all(top + bottom == size + 1 for top, bottom in zip(positions[::2], positions[1::2], strict=True))


@given(st.integers(min_value=1, max_value=7))
def test_the_better_seeds_meet_only_as_late_as_their_seeding_allows(power: int) -> None:
    """Seeds 1 and 2 are in different halves, 1 to 4 in different quarters, and so on."""
    positions = seed_positions(2**power)
    for depth in range(1, power + 1):
        part = len(positions) // 2**depth
        parts = [positions.index(seed) // part for seed in range(1, 2**depth + 1)]
        assert len(set(parts)) == 2**depth


@given(fields)
def test_byes_go_to_the_top_seeds_and_everyone_plays_once(players: int) -> None:
    seeds = list(range(1, players + 1))
    matches = first_round(seeds)
    size = bracket_size(players)
    assert len(matches) == size // 2
    byes = sorted(first for first, second in matches if second is None)
    assert byes == seeds[: size - players]
    assert sorted(player for match in matches for player in match if player is not None) == seeds
    assert all(second is None or first < second for first, second in matches)
    assert knockout_rounds(players) == (size - 1).bit_length()


@given(fields, st.randoms(use_true_random=False))
def test_a_knockout_played_round_by_round_ends_with_one_champion_and_ranked_places(
    players: int, chance: random.Random
) -> None:
    seeds = list(range(1, players + 1))
    rounds = []
    pairs: list[tuple[int, int | None]] = list(first_round(seeds))
    while True:
        played = [
            (first, second, first if second is None else chance.choice((first, second)))
            for first, second in pairs
        ]
        rounds.append(played)
        winners = [winner for _first, _second, winner in played]
        if len(winners) == 1:
            break
        pairs = list(next_round(winners))
    assert len(rounds) == knockout_rounds(players)
    places = knockout_places(rounds)
    assert sorted(player for _place, player in places) == seeds
    assert places[0] == (1, rounds[-1][0][2])
    assert [place for place, _player in places] == sorted(place for place, _player in places)


def test_knockout_places_of_a_field_of_five() -> None:
    rounds = [
        [(1, None, 1), (4, 5, 5), (2, None, 2), (3, None, 3)],
        [(1, 5, 1), (2, 3, 3)],
        [(1, 3, 3)],
    ]
    assert knockout_places(rounds) == [(1, 3), (2, 1), (3, 5), (3, 2), (5, 4)]


def test_the_consolation_takes_the_first_round_losers_and_no_bye() -> None:
    matches = first_round(["A", "B", "C", "D", "E", "F"])
    assert matches == [("A", None), ("D", "E"), ("B", None), ("C", "F")]
    assert consolation_field(matches, ["A", "E", "B", "F"], "ABCDEF") == ["C", "D"]


def test_too_few_players_cannot_be_paired() -> None:
    with pytest.raises(PairingError, match="at least 2"):
        first_round(["A"])
    with pytest.raises(PairingError, match="even number"):
        next_round(["A", "B", "C"])
    with pytest.raises(PairingError, match="at least 2"):
        swiss_pairings([1], (), ())


def test_seeding_is_by_rating_then_by_entry() -> None:
    entrants = [Entrant(1, 1500, 0), Entrant(2, 1620, 1), Entrant(3, 1500, 2), Entrant(4, 1700, 3)]
    assert ranked(entrants) == [4, 2, 1, 3]


# --- Swiss ----------------------------------------------------------------------------------------


def _swiss(players: int, rounds: int, chance: random.Random) -> tuple[list[Entrant], list[list[Result]]]:
    entrants = [Entrant(number, 1400 + chance.randrange(300), number) for number in range(players)]
    results: list[Result] = []
    played: list[list[Result]] = []
    for _round in range(rounds):
        ranking = [line.id for line in swiss_standings(entrants, results)]
        met = {frozenset((result.first, result.second)) for result in results if result.second is not None}
        had_bye = {result.first for result in results if result.second is None}
        pairs, bye = swiss_pairings(ranking, met, had_bye)
        this = [Result(first, second, chance.choice((first, second))) for first, second in pairs]
        if bye is not None:
            this.append(Result(bye, None, bye))
        played.append(this)
        results += this
    return entrants, played


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.randoms(use_true_random=False))
def test_swiss_rounds_pair_everyone_once_without_repeats_and_byes_go_round(
    players: int, chance: random.Random
) -> None:
    rounds = min(players - 1, 4) if players % 2 == 0 else min(players, 4)
    _entrants, played = _swiss(players, rounds, chance)
    pairs = [frozenset((r.first, r.second)) for this in played for r in this if r.second is not None]
    assert len(pairs) == len(set(pairs))
    for this in played:
        seated = [player for r in this for player in (r.first, r.second) if player is not None]
        assert sorted(seated) == list(range(players))
    byes = [r.first for this in played for r in this if r.second is None]
    assert len(byes) == len(set(byes)) == (rounds if players % 2 else 0)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    assert swiss_pairings([1, 2, 3, 4, 5], (), ()) == ([(1, 2), (3, 4)], 5)
    assert swiss_pairings([1, 2, 3, 4, 5], (), {5}) == ([(1, 2), (3, 5)], 4)


def test_a_pairing_goes_back_where_the_first_choice_leaves_two_who_met() -> None:
    met = {frozenset({1, 2}), frozenset({3, 4})}
    assert swiss_pairings([1, 2, 3, 4], met, ()) == ([(1, 3), (2, 4)], None)
    assert swiss_pairings([1, 3, 2, 4], {frozenset({1, 3}), frozenset({2, 4})}, ()) == (
        [(1, 2), (3, 4)],
        None,
    )


def test_no_round_is_left_once_everyone_has_met() -> None:
    met = {frozenset(pair) for pair in itertools.combinations(range(4), 2)}
    with pytest.raises(PairingError, match="meeting again"):
        swiss_pairings([0, 1, 2, 3], met, ())


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.randoms(use_true_random=False))
def test_standings_rank_by_points_then_buchholz_then_rating(players: int, chance: random.Random) -> None:
    rounds = min(players - 1, 3) if players % 2 == 0 else min(players, 3)
    entrants, played = _swiss(players, rounds, chance)
    results = [r for this in played for r in this]
    table = swiss_standings(entrants, results)
    assert [line.place for line in table] == list(range(1, players + 1))
    keys = [(-line.points, -line.buchholz, -line.rating) for line in table]
    assert keys == sorted(keys)
    points = {line.id: line.points for line in table}
    assert sum(points.values()) == len(results)  # a point for each match's winner and each bye
    for line in table:
        met = [r.second if r.first == line.id else r.first for r in results if line.id in (r.first, r.second)]
        assert line.buchholz == sum(points[other] for other in met if other is not None)


def test_a_double_forfeit_scores_nobody() -> None:
    entrants = [Entrant(1, 1500, 0), Entrant(2, 1500, 1)]
    table = swiss_standings(entrants, [Result(1, 2, None)])
    assert [(line.id, line.points, line.wins) for line in table] == [(1, 0.0, 0), (2, 0.0, 0)]
