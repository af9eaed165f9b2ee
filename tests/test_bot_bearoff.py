"""The one-sided bear-off database: small cases worked out by hand, an independent brute force, two sides."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest

from builders import position
from tavola.bot.bearoff import (
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    MAX_ROLLS,
    QUANTUM,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
    BearoffDatabase,
    default_database,
    main,
    positions_count,
    rank,
    rank_array,
    unrank,
)

SMALL = 4  # checkers in the exact database the brute force is compared with
ONE_ON = {point: tuple(int(p == point) for p in range(1, 7)) for point in range(1, 7)}
ALL_ON_1 = (15, 0, 0, 0, 0, 0)
ALL_ON_6 = (0, 0, 0, 0, 0, 15)


@pytest.fixture(scope="module")
def exact() -> BearoffDatabase:
    return BearoffDatabase.build(SMALL)


@pytest.fixture(scope="module")
def shipped() -> BearoffDatabase:
    return default_database()


def fractions(distribution: dict[int, Fraction]) -> np.ndarray:
    out = np.zeros(MAX_ROLLS)
    for rolls, probability in distribution.items():
        out[rolls] = float(probability)
    return out


# --- an independent brute force: exact fractions, its own statement of the bear-off rules ---------

ROLLS = [(a, b, Fraction(1 if a == b else 2, 36)) for a in range(1, 7) for b in range(1, a + 1)]


def single_moves(board: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """One checker moved ``die`` pips: down to a point, off exactly, or off from the highest point."""
    highest = max((p for p in range(1, 7) if board[p - 1]), default=0)
    found = []
    for point in range(1, 7):
        if board[point - 1] and (point >= die or point == highest):
            after = list(board)
            after[point - 1] -= 1
            if point > die:
                after[point - die - 1] += 1
            found.append(tuple(after))
    return found


def plays(board: tuple[int, ...], a: int, b: int) -> set[tuple[int, ...]]:
    """Every legal result: as many dice as can be used, the larger die when only one can be."""
    found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # (dice used, result)

    def walk(current: tuple[int, ...], dice: tuple[int, ...], used: tuple[int, ...]) -> None:
        nexts = single_moves(current, dice[0]) if dice else []
        if not nexts:
            found.append((used, current))
        for after in nexts:
            walk(after, dice[1:], (*used, dice[0]))

    for dice in [(a,) * 4] if a == b else [(a, b), (b, a)]:
        walk(board, dice, ())
    most = max(len(used) for used, _ in found)
    found = [(used, after) for used, after in found if len(used) == most]
    if a != b and most == 1 and any(used == (max(a, b),) for used, _ in found):
        found = [(used, after) for used, after in found if used == (max(a, b),)]
    return {after for _, after in found}


@functools.cache
def brute(board: tuple[int, ...], first_only: bool = False) -> tuple[Fraction, dict[int, Fraction]]:
    """Expected rolls and their distribution, minimising the expectation at every roll (exact)."""
    if sum(board) == 0:
        return Fraction(0), {0: Fraction(1)}
    mean, distribution = Fraction(1), {}
    for a, b, weight in ROLLS:
        options = []
        for after in plays(board, a, b):
            if first_only and sum(after) < sum(board):
                options.append((Fraction(0), {0: Fraction(1)}))
            else:
                options.append(brute(after, first_only))
        best_mean, best = min(options, key=lambda option: option[0])
        mean += weight * best_mean
        for rolls, probability in best.items():
            distribution[rolls + 1] = distribution.get(rolls + 1, Fraction(0)) + weight * probability
    return mean, distribution


def counts_with_at_most(checkers: int) -> list[tuple[int, ...]]:
    return [unrank(index) for index in range(positions_count(checkers))]


# --- ranking ---------------------------------------------------------------------------------------


def test_rank_and_unrank_are_inverse_over_all_54264_positions():
    every = [unrank(index) for index in range(positions_count())]
    assert len(set(every)) == 54264
    assert rank_array(every).tolist() == list(range(54264))
    assert [rank(every[i]) for i in range(0, 54264, 97)] == list(range(0, 54264, 97))


def test_positions_with_fewer_checkers_rank_first():
    totals = [sum(counts) for counts in counts_with_at_most(15)]
    assert totals == sorted(totals)


def test_rank_rejects_impossible_counts():
    for counts in [(16, 0, 0, 0, 0, 0), (1, 1, 1, 1, 1), (-1, 0, 0, 0, 0, 1)]:
        with pytest.raises(ValueError, match="one-sided position"):
            rank(counts)
    with pytest.raises(ValueError, match="ranks run"):
        unrank(54264)


# --- small cases by hand -----------------------------------------------------------------------------


def test_one_checker_on_the_1_point_takes_one_roll(exact):
    assert exact.rolls_distribution(ONE_ON[1])[:3].tolist() == [0, 1, 0]
    assert exact.expected_rolls(ONE_ON[1]) == 1


def test_one_checker_on_the_6_point_misses_only_with_21_31_32_41_and_11(exact):
    # 2-1, 3-1, 3-2, 4-1 (2/36 each) and 1-1 (1/36) move it 3-5 pips; the next roll takes it off.
    distribution = exact.rolls_distribution(ONE_ON[6])
    assert distribution[:4] == pytest.approx([0, 27 / 36, 9 / 36, 0], abs=1e-15)
    assert exact.expected_rolls(ONE_ON[6]) == pytest.approx(1.25, abs=1e-15)


def test_two_checkers_on_the_6_point_come_off_in_one_roll_only_with_33_44_55_66(exact):
    assert exact.rolls_distribution((0, 0, 0, 0, 0, 2))[1] == pytest.approx(4 / 36, abs=1e-15)


def test_checkers_on_the_2_and_1_points_always_come_off_in_one_roll(exact):
    assert exact.rolls_distribution((1, 1, 0, 0, 0, 0))[1] == pytest.approx(1, abs=1e-15)


def test_three_checkers_on_the_1_point_need_a_double_to_go_in_one_roll(exact):
    assert exact.rolls_distribution((3, 0, 0, 0, 0, 0))[:3] == pytest.approx([0, 1 / 6, 5 / 6], abs=1e-15)
    assert exact.expected_rolls((3, 0, 0, 0, 0, 0)) == pytest.approx(11 / 6, abs=1e-15)


def test_fifteen_on_the_1_point_take_two_checkers_a_roll_and_four_a_double(shipped):
    """Rolls for k checkers on the 1-point: 1 + then k - 2 with 30/36, k - 4 with 6/36 (none when k <= 0)."""

    @functools.cache
    def distribution(k: int) -> dict[int, Fraction]:
        if k <= 0:
            return {0: Fraction(1)}
        out: dict[int, Fraction] = {}
        for left, weight in ((k - 2, Fraction(5, 6)), (k - 4, Fraction(1, 6))):
            for rolls, probability in distribution(left).items():
                out[rolls + 1] = out.get(rolls + 1, Fraction(0)) + weight * probability
        return out

    expected = sum(rolls * probability for rolls, probability in distribution(15).items())
    assert expected == Fraction(1953839, 279936)  # 6.9796
    assert shipped.expected_rolls(ALL_ON_1) == pytest.approx(float(expected), abs=1e-13)
    assert shipped.rolls_distribution(ALL_ON_1) == pytest.approx(fractions(distribution(15)), abs=1 / QUANTUM)


def test_fifteen_on_the_6_point_bear_one_off_at_once_with_a_6_51_42_33_or_22(shipped):
    # 6-x: 11/36; 5-1 and 4-2 (exactly 6 pips on one checker): 4/36; 3-3 and 2-2: 2/36.
    assert shipped.first_off_distribution(ALL_ON_6)[1] == pytest.approx(17 / 36, abs=1 / QUANTUM)
    assert shipped.first_off_distribution(ALL_ON_1)[:3].tolist() == [0, 1, 0]


# --- the whole table -------------------------------------------------------------------------------------


@pytest.mark.parametrize("counts", counts_with_at_most(SMALL), ids=str)
def test_matches_an_independent_brute_force_in_exact_fractions(exact, counts):
    mean, distribution = brute(counts)
    first_mean, first = brute(counts, first_only=True)
    assert exact.expected_rolls(counts) == pytest.approx(float(mean), abs=1e-13)
    assert exact.expected_first_off(counts) == pytest.approx(float(first_mean), abs=1e-13)
    assert exact.rolls_distribution(counts) == pytest.approx(fractions(distribution), abs=1e-13)
    assert exact.first_off_distribution(counts) == pytest.approx(fractions(first), abs=1e-13)


def test_the_shipped_file_is_the_exact_database_to_within_one_quantum(exact, shipped):
    """A database of up to m checkers is the first rows of the full one."""
    smaller = BearoffDatabase.build(8)
    rows = len(smaller)
    assert len(shipped) == 54264
    assert not shipped.exact
    assert np.array_equal(shipped.means[:rows], smaller.means)
    assert np.array_equal(shipped.first_means[:rows], smaller.first_means)
    assert np.abs(shipped.rolls[:rows] - smaller.rolls).max() <= 1 / QUANTUM
    assert np.abs(shipped.first_off[:rows] - smaller.first_off).max() <= 1 / QUANTUM
    assert np.array_equal(smaller.rolls[: len(exact)], exact.rolls)


def test_distributions_add_up_to_1_and_agree_with_the_means(shipped):
    for table, means in ((shipped.rolls, shipped.means), (shipped.first_off, shipped.first_means)):
        assert np.abs(table.sum(axis=1) - 1).max() < 1e-12
        assert (table >= 0).all()
        assert np.abs(table @ np.arange(MAX_ROLLS) - means).max() < 1e-3


def test_an_extra_checker_never_bears_off_faster(shipped):
    every = np.array(counts_with_at_most(14))
    for point in range(6):
        added = every.copy()
        added[:, point] += 1
        assert (shipped.means[rank_array(added)] >= shipped.means[: len(every)] - 1e-12).all()


def test_more_pips_can_bear_off_faster_when_they_fill_a_gap(exact):
    """Not monotonic in pips: 1-2-6 (9 pips) beats 1-1-6 (8 pips), since a 2 then bears one off exactly."""
    assert brute((2, 0, 0, 0, 0, 1))[0] == Fraction(158, 81)
    assert brute((1, 1, 0, 0, 0, 1))[0] == Fraction(839, 432)
    assert exact.expected_rolls((1, 1, 0, 0, 0, 1)) < exact.expected_rolls((2, 0, 0, 0, 0, 1))


def test_save_writes_the_same_bytes_every_time_and_loads_back(exact, tmp_path):
    exact.save(tmp_path / "a.npz")
    exact.save(tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    loaded = BearoffDatabase.load(tmp_path / "a.npz")
    assert loaded.max_checkers == SMALL
    assert np.array_equal(loaded.means, exact.means)
    assert np.abs(loaded.rolls - exact.rolls).max() <= 1 / QUANTUM
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "b.npz"]  # no temporary file left


def test_the_build_command_writes_a_loadable_file(tmp_path, capsys):
    target = tmp_path / "sub" / "bearoff.npz"
    assert main(["--build", "--max-checkers", "2", "--output", str(target)]) == 0
    assert "28 positions" in capsys.readouterr().err
    assert len(BearoffDatabase.load(target)) == 28


def test_the_shipped_file_is_small(shipped):
    from tavola.bot.bearoff import DATA_FILE

    assert DATA_FILE.stat().st_size < 2_000_000


def test_a_smaller_database_refuses_bigger_positions(exact):
    with pytest.raises(ValueError, match="at most 4 checkers"):
        exact.expected_rolls((5, 0, 0, 0, 0, 0))


# --- both sides ------------------------------------------------------------------------------------


def chances(database: BearoffDatabase, mine: dict[int, int], theirs: dict[int, int]) -> list[float]:
    """Chances of the side on roll; ``theirs`` on the opponent's own points."""
    return database.evaluate(position(mine, {25 - p: n for p, n in theirs.items()})).tolist()


def test_a_checker_each_on_the_1_point_the_side_on_roll_wins(shipped):
    assert chances(shipped, {1: 1}, {1: 1}) == [1, 0, 0, 0, 0]


def test_a_checker_each_on_the_6_point_wins_13_16_for_the_side_on_roll(exact):
    # Off at once with 3/4; else the opponent misses with 1/4 and the mover's next roll finishes.
    assert chances(exact, {6: 1}, {6: 1}) == pytest.approx([3 / 4 + 1 / 16, 0, 0, 0, 0], abs=1e-15)


def test_gammons_need_the_loser_to_have_none_off(shipped):
    # One on the 6 against fifteen on the opponent's 1-point: the mover always wins (they need 4+
    # rolls), with a gammon when it finishes at once (3/4); otherwise their first roll takes two off.
    assert chances(shipped, {6: 1}, {1: 15}) == pytest.approx([1, 3 / 4, 0, 0, 0], abs=1e-12)
    # Fourteen on their 1-point, one off: no gammon.
    assert chances(shipped, {6: 1}, {1: 14}) == pytest.approx([1, 0, 0, 0, 0], abs=1e-12)


def test_the_side_on_roll_is_gammoned_unless_it_takes_one_off_at_once(shipped):
    assert chances(shipped, {6: 15}, {1: 1}) == pytest.approx([0, 0, 0, 19 / 36, 0], abs=2 / QUANTUM)


def test_the_side_on_roll_wins_more_than_half_of_every_symmetric_position(shipped):
    ranks = np.arange(1, len(shipped))
    none_off = np.array([sum(unrank(int(r))) == 15 for r in ranks])
    out = shipped.evaluate_ranks(ranks, ranks, none_off, none_off)
    assert (out[:, WIN] > 0.5).all()
    assert (out[:, WIN_GAMMON] <= out[:, WIN] + 1e-12).all()
    assert (out[:, LOSE_GAMMON] <= 1 - out[:, WIN] + 1e-12).all()
    assert not out[:, [WIN_BACKGAMMON, LOSE_BACKGAMMON]].any()


def test_the_batch_agrees_with_one_at_a_time(shipped):
    rng = np.random.default_rng(5)
    boards = []
    for _ in range(40):
        mine = rng.multinomial(int(rng.integers(1, 16)), [1 / 6] * 6)
        theirs = rng.multinomial(15 - int(rng.integers(0, 3)), [1 / 6] * 6)
        boards.append(position(dict(enumerate(mine, 1)), {25 - p: n for p, n in enumerate(theirs, 1)}))
    out = shipped.evaluate_batch(np.array([b.to_array() for b in boards]))
    assert out.shape == (40, 5)
    for board, row in zip(boards, out, strict=True):
        assert shipped.evaluate(board).tolist() == row.tolist()


def test_only_bear_off_positions_are_evaluated(shipped):
    for board in (position({7: 1}, {20: 1}), position({1: 1}, {6: 1}), position({1: 1}, {20: 1}, bar=(0, 1))):
        with pytest.raises(ValueError, match="not a bear-off position"):
            shipped.evaluate(board)
