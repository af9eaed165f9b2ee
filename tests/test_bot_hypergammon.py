"""Exact hypergammon (V5): the solved tables against brute force, and the bot judging by them.

The tables of 1 and 2 checkers a side are solved here (seconds); they come
from the same solver as hypergammon's 3, which takes minutes and is checked
where it has been built (``python -m tavola.cli.hypergammon --build``).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.bot import hypergammon
from tavola.bot.context import money
from tavola.bot.evaluate import Evaluator
from tavola.bot.hypergammon import ExactTable, cache, exact_table, position_index, positions_count
from tavola.bot.player import Bot
from tavola.bot.search import evaluate_ply
from tavola.errors import TavolaError
from tavola.variants import HYPERGAMMON, STANDARD, Variant

ROLLS = [Dice(high, low) for high in range(1, 7) for low in range(1, high + 1)]
UNTRAINED = Evaluator.untrained(hidden=8, seed=2)


def weight(dice: Dice) -> float:
    return (1 if dice.is_double else 2) / 36


def equity(chances: tuple[float, ...]) -> float:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return 2 * win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


def seen_by_other_side(chances: tuple[float, ...]) -> tuple[float, ...]:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return (1 - win, lose_gammon, lose_backgammon, win_gammon, win_backgammon)


def best_reply(replies: list[tuple[float, ...]]) -> tuple[float, ...]:
    """The reply worth least to the opponent (on roll in it); between equal equities, the fewest wins for it
    (so, at that equity, the most net gammons for it)."""
    lowest = min(equity(reply) for reply in replies)
    return min((reply for reply in replies if equity(reply) <= lowest + 1e-12), key=lambda reply: reply[0])


def result_chances(position: Position) -> tuple[float, ...]:
    result = position.result()
    assert result is not None
    points = result.points
    return (
        float(points > 0),
        float(points >= 2),
        float(points >= 3),
        float(points <= -2),
        float(points <= -3),
    )


def all_positions(checkers: int) -> list[Position]:
    """Every position with ``checkers`` a side: each side's checkers off (0), on points 1-24 or the bar (25)."""
    sides = list(itertools.combinations_with_replacement(range(26), checkers))
    positions = []
    for mine, theirs in itertools.product(sides, sides):
        if mine.count(0) == theirs.count(0) == checkers:
            continue
        board = [0] * 24
        for point in mine:
            if 1 <= point <= 24:
                board[point - 1] += 1
        if any(1 <= point <= 24 and board[24 - point] > 0 for point in theirs):
            continue  # both sides on one point
        for point in theirs:
            if 1 <= point <= 24:
                board[24 - point] -= 1
        bar = (mine.count(25), theirs.count(25))
        positions.append(Position(board, bar=bar, checkers=checkers))
    return positions


@functools.cache
def brute_force(checkers: int) -> dict[Position, tuple[float, ...]]:
    """Plain value iteration over Position objects and their legal plays, until nothing moves by 1e-12."""
    positions = all_positions(checkers)
    values = {position: (0.0,) * 5 for position in positions}
    replies = {}
    for position in positions:
        if position.result() is not None:
            values[position] = result_chances(position)
        else:
            replies[position] = [[play.after.flip() for play in position.legal_plays(dice)] for dice in ROLLS]
    change = 1.0
    while change > 1e-12:
        change = 0.0
        for position, by_roll in replies.items():
            total = [0.0] * 5
            for dice, afters in zip(ROLLS, by_roll, strict=True):
                best = best_reply([values[after] for after in afters])
                for column, chance in enumerate(seen_by_other_side(best)):
                    total[column] += weight(dice) * chance
            change = max(change, *(abs(a - b) for a, b in zip(total, values[position], strict=True)))
            values[position] = tuple(total)
    return values


@functools.cache
def table(checkers: int) -> ExactTable:
    return ExactTable.solve(checkers)


def chances(position: Position) -> np.ndarray:
    return table(position.checkers).evaluate(position.to_array()[None])[0].astype(np.float64)


# --- the index of positions ---------------------------------------------------------------------------


@pytest.mark.parametrize("checkers", [1, 2])
def test_V5_every_position_has_its_own_index_and_comes_back_from_it(checkers):
    positions = all_positions(checkers)
    assert len(positions) == positions_count(checkers)
    boards = np.stack([position.to_array() for position in positions])
    indices = position_index(boards, checkers)
    assert len(set(indices.tolist())) == len(positions)
    assert np.array_equal(hypergammon.boards_of(indices, checkers), boards)


def test_V5_hypergammon_has_7_959_903_positions_6_550_of_them_finished():
    assert positions_count(3) == 7_959_903
    assert positions_count(3, finished=True) == 6_550


# --- the solve against brute force ----------------------------------------------------------------------


def test_V5_one_checker_a_side_every_position_matches_brute_force_value_iteration():
    expected = brute_force(1)
    positions = list(expected)
    found = table(1).evaluate(np.stack([position.to_array() for position in positions]))
    worst = max(
        abs(float(found[row, column]) - expected[position][column])
        for row, position in enumerate(positions)
        for column in range(5)
    )
    assert worst < 1e-6
    assert any(0.01 < expected[position][3] < 0.99 for position in positions), (
        "no position with a gammon risk"
    )


@functools.cache
def race_value(position: Position) -> tuple[float, ...]:
    """A race by recursion on its positions: every play lowers the pips, so the recursion ends."""
    if position.result() is not None:
        return result_chances(position)
    total = [0.0] * 5
    for dice in ROLLS:
        afters = [play.after.flip() for play in position.legal_plays(dice)]
        best = best_reply([race_value(after) for after in afters])
        for column, chance in enumerate(seen_by_other_side(best)):
            total[column] += weight(dice) * chance
    return tuple(total)


def test_V5_two_checker_races_match_brute_force_recursion():
    rng = np.random.default_rng(5)
    races = [
        position
        for position in all_positions(2)
        if position.kind.value in ("race", "bearoff") and max(position.pip_counts()) <= 24
    ]
    for index in rng.choice(len(races), 40, replace=False):
        position = races[int(index)]
        assert np.allclose(chances(position), race_value(position), atol=1e-6), position


def test_V5_two_checker_contact_positions_are_their_own_one_roll_look_ahead():
    """The table is a fixed point: each position equals the average over the rolls of its best reply."""
    rng = np.random.default_rng(6)
    positions = [p for p in all_positions(2) if p.kind.value == "contact"]
    for index in rng.choice(len(positions), 30, replace=False):
        position = positions[int(index)]
        total = np.zeros(5)
        for dice in ROLLS:
            afters = [play.after.flip() for play in position.legal_plays(dice)]
            best = best_reply([tuple(float(p) for p in chances(after)) for after in afters])
            total += weight(dice) * np.array(seen_by_other_side(best))
        assert np.allclose(chances(position), total, atol=2e-6), position


# --- consistency ------------------------------------------------------------------------------------


def test_V5_chances_are_probabilities_gammons_within_wins_and_backgammons_within_gammons():
    values = table(2).probabilities
    values = values[~np.isnan(values[:, 0])]
    assert values.min() >= 0
    assert values.max() <= 1 + 1e-6
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = values.T
    assert (win_gammon <= win + 1e-6).all()
    assert (win_backgammon <= win_gammon + 1e-6).all()
    assert (lose_gammon <= 1 - win + 1e-6).all()
    assert (lose_backgammon <= lose_gammon + 1e-6).all()


def test_V5_a_last_checker_on_the_six_point_bears_off_with_27_rolls_of_36():
    # One checker a side: whoever bears off first wins a gammon, the loser having borne off none.
    last = Position([0] * 5 + [1] + [0] * 17 + [-1], checkers=1)
    assert chances(last) == pytest.approx([27 / 36, 27 / 36, 0, 9 / 36, 0], abs=1e-6)
    sure = Position([1, -2] + [0] * 22, off=(1, 0), checkers=2)
    assert chances(sure) == pytest.approx([1, 1, 1, 0, 0], abs=1e-6)  # the loser's last in our home


def test_V5_finished_games_are_in_the_table_as_the_rules_score_them():
    lost = Position([0] * 18 + [2] + [0] * 5, off=(0, 2), checkers=2)  # both still in the winner's home
    assert lost.result() is not None
    assert result_chances(lost) == (0, 0, 0, 1, 1)
    assert chances(lost).tolist() == list(result_chances(lost))


def test_V5_a_board_of_another_checker_count_is_refused():
    with pytest.raises(ValueError, match="not a position of 1 checkers a side"):
        table(1).evaluate(HYPERGAMMON.start.to_array()[None])


def test_a_saved_table_loads_back_the_same(tmp_path):
    path = tmp_path / "table.npz"
    table(1).save(path)
    loaded = ExactTable.load(path)
    assert loaded.checkers == 1
    assert loaded.passes == table(1).passes
    assert np.array_equal(loaded.probabilities, table(1).probabilities, equal_nan=True)
    path.write_bytes(b"not a table")
    with pytest.raises(TavolaError, match="not an exact table"):
        ExactTable.load(path)


# --- the bot ---------------------------------------------------------------------------------------------


TWO_CHECKERS = Variant("hypergammon-2", "2 checkers each", Position([-1, -1] + [0] * 20 + [1, 1], checkers=2))


def test_V5_the_evaluator_for_hypergammon_is_the_exact_table_and_for_standard_the_networks():
    assert UNTRAINED.exact_checkers is None
    assert UNTRAINED.for_variant(STANDARD).exact_checkers is None
    assert UNTRAINED.for_variant(HYPERGAMMON).exact_checkers == 3
    assert UNTRAINED.for_variant(TWO_CHECKERS).exact_checkers == 2


def test_V5_hypergammon_evaluation_reads_the_table_of_three_checkers(monkeypatch):
    values = np.full((hypergammon.side_count(3) ** 2, 5), 0.25, dtype=np.float32)
    monkeypatch.setitem(cache._TABLES, 3, ExactTable(values, 3))
    evaluator = UNTRAINED.for_variant(HYPERGAMMON)
    assert evaluator.evaluate(HYPERGAMMON.start.to_array()[None]).tolist() == [[0.25] * 5]


def test_V5_the_bot_ranks_plays_by_the_exact_values_at_every_level():
    # Two checkers each: the mover's on its 8- and 3-points, the opponent's blots on the mover's 5- and 2-points.
    position = Position([0, -1, 1, 0, -1, 0, 0, 1] + [0] * 16, checkers=2)
    dice = Dice(3, 1)
    plays = position.legal_plays(dice, TWO_CHECKERS)
    exact = [-equity(tuple(float(p) for p in chances(play.after.flip()))) for play in plays]
    best = plays[int(np.argmax(exact))]
    for level in ("beginner", "advanced", "world-class"):
        ranked = Bot(UNTRAINED, level=level).hint(position, dice, money(TWO_CHECKERS))
        if level != "beginner":
            assert ranked[0].play == best
        for choice in ranked:
            assert choice.equity == pytest.approx(exact[plays.index(choice.play)], abs=2e-6)
    assert Bot(UNTRAINED, level="world-class").play(position, dice, money(TWO_CHECKERS)).play == best


def test_V5_looking_ahead_on_an_exact_table_changes_nothing():
    positions = [p for p in all_positions(2) if p.result() is None][::4999]
    boards = np.stack([position.to_array() for position in positions])
    evaluator = UNTRAINED.for_variant(TWO_CHECKERS)
    for plies in (1, 2):
        ahead = evaluator.equity(evaluate_ply(evaluator, boards, plies))
        assert np.allclose(ahead, evaluator.equity(evaluator.evaluate(boards)), atol=4e-6)


def test_V5_the_cube_is_decided_from_the_exact_chances():
    position = Position([0, 0, 0, 0, 1, 1] + [0] * 6 + [-1, -1] + [0] * 10, checkers=2)  # 11 pips to 23
    evaluation = Bot(UNTRAINED).evaluate(position, money(TWO_CHECKERS))
    # Plays of equal equity may differ in their chances: the equity is what the table fixes.
    assert evaluation.cubeless_equity == pytest.approx(equity(tuple(chances(position))), abs=2e-6)
    assert evaluation.cube.action.name != "NO_DOUBLE"


def test_V5_small_tables_are_solved_when_asked_and_not_written(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "_TABLES", {})
    assert exact_table(1) is exact_table(1)
    assert exact_table(1).checkers == 1
    assert not any(tmp_path.iterdir())


def test_V5_the_cubeful_value_of_hypergammon_plays_reads_boards_of_three_checkers():
    start = HYPERGAMMON.start
    legal = start.legal_plays(Dice(6, 5), HYPERGAMMON)
    results = np.stack([play.after.to_array() for play in legal])
    probabilities = np.tile(np.array([0.6, 0.1, 0.01, 0.05, 0.0], dtype=np.float32), (len(legal), 1))
    values = money(HYPERGAMMON).after_play(probabilities, results)
    assert values.shape == (len(legal),)
    assert np.all(np.isfinite(values))
