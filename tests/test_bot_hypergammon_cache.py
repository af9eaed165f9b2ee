"""Exact tables on disk and on first use: when a missing table is solved, damaged files, bad input.

The 2-checker table stands in for hypergammon's 3 here: with ``_SOLVED_AT_ONCE``
lowered to 1 it is read from and kept in Tavola's data folder like the 3-checker one,
and solving it takes seconds.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tavola.bot import hypergammon
from tavola.bot.bearoff import _write_npz as write_npz
from tavola.bot.evaluate import Evaluator
from tavola.bot.hypergammon import (
    BUILD_COMMAND,
    ExactTable,
    cache,
    cache_file,
    indexing,
    may_solve,
    ready_table,
    solver,
)
from tavola.errors import TavolaError
from tavola.position import Position
from tavola.variants import HYPERGAMMON, Variant

UNTRAINED = Evaluator.untrained(hidden=8, seed=2)
TWO_CHECKERS = Variant("hypergammon-2", "2 checkers each", Position([-1, -1] + [0] * 20 + [1, 1], checkers=2))
BOARDS = np.stack([TWO_CHECKERS.start.to_array(), TWO_CHECKERS.start.flip().to_array()])


@pytest.fixture(scope="module")
def solved_two() -> ExactTable:
    return ExactTable.solve(checkers=2)


@pytest.fixture
def two_as_a_file(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The 2-checker table handled as the 3-checker one is, with nothing read or missed yet."""
    monkeypatch.setattr(cache, "_SOLVED_AT_ONCE", 1)
    monkeypatch.setattr(cache, "_TABLES", {})
    monkeypatch.setattr(cache, "_UNAVAILABLE", {})
    path = cache_file(2)
    path.unlink(missing_ok=True)
    return path


def networks_only(variant: Variant) -> Evaluator:
    evaluator = UNTRAINED.for_variant(variant)
    evaluator.exact_checkers = None
    return evaluator


# --- the tests' own guard -------------------------------------------------------------------------------


def test_tests_keep_their_data_apart_and_never_solve_the_three_checker_table():
    assert not cache_file().is_relative_to(Path.home() / ".local")
    with pytest.raises(pytest.fail.Exception, match="would solve the exact table of 3 checkers"):
        solver.solve_values(3)
    with pytest.raises(pytest.fail.Exception, match="would solve the exact table of 3 checkers"):
        ExactTable.solve(3)


def test_V5_without_its_table_a_test_judges_hypergammon_by_the_networks():
    start = HYPERGAMMON.start.to_array()[None]
    found = UNTRAINED.for_variant(HYPERGAMMON).evaluate(start)
    assert np.array_equal(found, networks_only(HYPERGAMMON).evaluate(start))


# --- when a missing table is solved ----------------------------------------------------------------------


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_a_missing_table_is_solved_at_a_terminal_or_when_asked_and_never_in_a_worker(monkeypatch):
    monkeypatch.delenv(hypergammon.SOLVE_VARIABLE)
    assert not may_solve()  # the tests' standard error is no terminal
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert may_solve()
    monkeypatch.setattr(cache.multiprocessing, "parent_process", lambda: object())
    assert not may_solve()  # a worker process, whatever its standard error
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "1")
    assert may_solve()
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "0")
    assert not may_solve()
    hypergammon.solve_on_first_use(True)
    try:
        assert may_solve()
        hypergammon.solve_on_first_use(False)
        monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "1")
        assert not may_solve()  # what a server or engine said stands
    finally:
        hypergammon.solve_on_first_use(None)


def test_where_solving_is_not_allowed_the_networks_judge_and_one_warning_names_the_build_command(
    two_as_a_file, caplog
):
    caplog.set_level(logging.WARNING, "tavola.bot.hypergammon")
    evaluator = UNTRAINED.for_variant(TWO_CHECKERS)
    assert evaluator.exact_checkers == 2
    for _ in range(3):
        assert np.array_equal(evaluator.evaluate(BOARDS), networks_only(TWO_CHECKERS).evaluate(BOARDS))
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1
    assert BUILD_COMMAND in warnings[0]
    assert "does not exist" in warnings[0]
    assert not two_as_a_file.exists()


def test_where_asked_a_missing_table_is_solved_kept_and_read_back(two_as_a_file, solved_two, monkeypatch):
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "1")
    evaluator = UNTRAINED.for_variant(TWO_CHECKERS)
    assert np.array_equal(evaluator.evaluate(BOARDS), solved_two.evaluate(BOARDS))
    assert two_as_a_file.exists()
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "0")
    monkeypatch.setattr(cache, "_TABLES", {})  # a new process: it reads the file
    read = ready_table(2)
    assert read is not None
    assert np.array_equal(read.probabilities, solved_two.probabilities, equal_nan=True)


def test_a_table_built_while_missing_is_read_on_next_use(two_as_a_file, solved_two):
    assert ready_table(2) is None
    solved_two.save(two_as_a_file)
    table = ready_table(2)
    assert table is not None
    assert table.passes == solved_two.passes


def test_a_damaged_file_is_named_and_solved_again_where_allowed(two_as_a_file, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, "tavola.bot.hypergammon")
    two_as_a_file.parent.mkdir(parents=True, exist_ok=True)
    two_as_a_file.write_bytes(b"PK\x03\x04 cut short")
    assert ready_table(2) is None
    assert str(two_as_a_file) in caplog.records[-1].getMessage()
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "1")
    assert ready_table(2) is not None
    assert "again" in caplog.records[-1].getMessage()
    assert ExactTable.load(two_as_a_file).checkers == 2


def test_a_failed_save_warns_and_keeps_the_table_in_memory(two_as_a_file, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, "tavola.bot.hypergammon")

    def full_disk(self: ExactTable, path: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ExactTable, "save", full_disk)
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "1")
    table = ready_table(2)
    assert table is not None
    assert ready_table(2) is table
    assert "No space left on device" in caplog.records[-1].getMessage()
    assert not two_as_a_file.exists()


# --- what a file must hold ----------------------------------------------------------------------------


def stored(table: ExactTable) -> dict[str, np.ndarray]:
    valid, _, _ = indexing.position_classes(table.checkers)
    return {
        "format": np.array(hypergammon.FORMAT),
        "solver": np.array(hypergammon.SOLVER_VERSION),
        "tolerance": np.array(table.tolerance),
        "checkers": np.array(table.checkers),
        "passes": np.array(table.passes),
        "probabilities": table.probabilities[valid],
    }


def _set(name: str, value: object) -> Callable[[dict[str, np.ndarray]], None]:
    def change(arrays: dict[str, np.ndarray]) -> None:
        arrays[name] = value(arrays[name]) if callable(value) else np.asarray(value)

    return change


def _poke(row: int, column: int, value: float) -> Callable[[np.ndarray], np.ndarray]:
    def poke(values: np.ndarray) -> np.ndarray:
        values = values.copy()
        values[row, column] = value
        return values

    return poke


def _drop(name: str) -> Callable[[dict[str, np.ndarray]], None]:
    def drop(arrays: dict[str, np.ndarray]) -> None:
        del arrays[name]

    return drop


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_set("solver", hypergammon.SOLVER_VERSION + 1), "solved by solver"),
        (_set("format", hypergammon.FORMAT - 1), "of format"),
        (_set("tolerance", 1e-3), "tolerance of 0.001"),
        (_set("checkers", 7), "claims 7 checkers"),
        (_set("probabilities", lambda values: values[:-1]), r"shape \(650, 5\), not \(651, 5\)"),
        (_set("probabilities", _poke(7, 1, np.nan)), "not numbers from 0 to 1"),
        (_set("probabilities", _poke(3, 0, 1.5)), "not numbers from 0 to 1"),
        (_set("probabilities", _poke(3, 4, -0.25)), "not numbers from 0 to 1"),
        (_set("probabilities", lambda values: np.full(values.shape, "x")), "isfinite"),
        (_drop("passes"), "passes"),
    ],
)
def test_a_file_of_another_solver_or_damaged_chances_is_refused_naming_it(tmp_path, change, reason):
    arrays = stored(ExactTable.solve(checkers=1))
    change(arrays)
    path = tmp_path / "table.npz"
    write_npz(path, arrays)
    with pytest.raises(TavolaError, match=f"{path} is not an exact table") as raised:
        ExactTable.load(path, hypergammon.TOLERANCE)
    assert raised.match(reason)


def test_a_truncated_file_is_refused_naming_it(tmp_path, solved_two):
    path = tmp_path / "table.npz"
    solved_two.save(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(TavolaError, match=f"{path} is not an exact table"):
        ExactTable.load(path)
    path.write_bytes(b"")
    with pytest.raises(TavolaError, match=f"{path} is not an exact table"):
        ExactTable.load(path)


def test_a_table_keeps_its_own_copy_of_the_chances(solved_two):
    values = solved_two.probabilities.copy()
    table = ExactTable(values, 2)
    assert values.flags.writeable
    values[:] = 0.5
    assert not table.probabilities.flags.writeable
    assert np.array_equal(table.probabilities, solved_two.probabilities, equal_nan=True)


# --- bad input and the solve's own limits ----------------------------------------------------------------


def test_a_board_with_a_negative_count_or_too_many_checkers_is_refused(solved_two):
    board = TWO_CHECKERS.start.to_array().copy()
    board[0], board[24] = -1, 3  # three on a point, one "borne off" -1 times: still 2 counted
    with pytest.raises(TavolaError, match="board 0 has a negative count"):
        solved_two.evaluate(board[None])
    board = TWO_CHECKERS.start.to_array().copy()
    board[24] = 3
    with pytest.raises(TavolaError, match="board 0 is not a position of 2 checkers a side"):
        solved_two.evaluate(board[None])


def test_position_indices_out_of_range_are_refused():
    count = hypergammon.side_count(1) ** 2
    with pytest.raises(TavolaError, match="-1 is no position index"):
        hypergammon.boards_of([-1], 1)
    with pytest.raises(TavolaError, match=f"{count} is no position index"):
        hypergammon.boards_of([5, count], 1)


def test_a_solve_that_does_not_settle_stops_after_its_passes():
    with pytest.raises(RuntimeError, match="not settled after 2 passes"):
        solver.solve_values(1, tolerance=0.0, max_passes=2)


def test_a_solve_that_gives_nan_chances_stops(monkeypatch):
    sweep = solver._sweep

    def poisoned(*args: object) -> float:
        moved = sweep(*args)
        args[9][args[0][args[1]]] = np.nan  # values[order[start]]
        args[10][args[0][args[1]]] = np.nan  # and its equity
        return moved

    monkeypatch.setattr(solver, "_sweep", poisoned)
    with pytest.raises(RuntimeError, match="gave NaN chances"):
        solver.solve_values(1)


def test_the_variants_benchmark_stops_where_the_table_is_not_its_own_look_ahead(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import variants

    variants.check_look_ahead(1.9e-6, 1e-6)
    for gap in (2.1e-6, float("nan")):
        with pytest.raises(SystemExit, match="not its own look-ahead") as stopped:
            variants.check_look_ahead(gap, 1e-6)
        assert BUILD_COMMAND in str(stopped.value)
