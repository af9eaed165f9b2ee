"""The compiled move generator against an exhaustive search, in every variant.

The reference below is written from the rules alone (R5-R16, V1, V2), shares
no code with :mod:`tavola.movegen`, and tries every order of every die on
every checker; it keeps the plays that use the most of the roll (R11), the
larger die when only one can be played (R12), and the empty play when none
can (R13). Positions come from random games of each variant, where the
entering phases, Dutch's no-hit rule and Acey-Deucey's waiting checkers all
occur. The default run takes a few seconds; ``TAVOLA_EXHAUSTIVE_POSITIONS``
sets the positions per variant for a longer one::

    TAVOLA_EXHAUSTIVE_POSITIONS=5000 pytest tests/test_movegen_exhaustive.py
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from tavola import ALL_ROLLS, Dice, Position
from tavola.movegen import HIT_NEEDS_HOME, generate
from tavola.variants import DUTCH, VARIANTS, Variant

COUNT = int(os.environ.get("TAVOLA_EXHAUSTIVE_POSITIONS", "150"))

OFF, BAR, WAITING, THEIR_BAR, THEIR_OFF = 0, 25, 26, 27, 28
Board = tuple[int, ...]


def _may_hit(board: Board, dutch: bool) -> bool:
    """V1: under Dutch rules, only with a checker in the home board or borne off."""
    return not dutch or board[OFF] > 0 or any(board[point] > 0 for point in range(1, 7))


def _single_moves(board: Board, die: int, dutch: bool) -> list[Board]:
    """Every board one checker moved by ``die`` can give, by the rules read plainly."""
    if board[BAR] > 0:
        sources = [BAR]  # R9: a checker on the bar enters before anything else moves
    else:
        sources = [point for point in range(1, 25) if board[point] > 0]
        if board[WAITING] > 0:
            sources.append(WAITING)  # V2: a checker not yet entered enters like one from the bar
    all_home = board[BAR] == 0 and board[WAITING] == 0 and all(board[p] <= 0 for p in range(7, 25))
    found = []
    for source in sources:
        start = 25 if source in (BAR, WAITING) else source
        target = start - die
        after = list(board)
        after[source] -= 1
        if target >= 1:
            if board[target] <= -2:
                continue  # R5: blocked
            if board[target] == -1:
                if not _may_hit(board, dutch):
                    continue
                after[target] = 0  # R8: the blot goes to the bar
                after[THEIR_BAR] += 1
            after[target] += 1
        else:
            if not all_home:
                continue  # R14
            higher = any(board[point] > 0 for point in range(source + 1, 7))
            if target < 0 and higher:
                continue  # R16: a larger die bears off only from the highest point
            after[OFF] += 1
        found.append(tuple(after))
    return found


def reference_results(board: Board, high: int, low: int, dutch: bool) -> set[Board]:
    """The positions the legal plays of a roll reach, by trying every order of the dice."""
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    ranked: dict[int, set[Board]] = {}
    for order in orders:
        level = {board}
        for used, die in enumerate(order, start=1):
            level = {after for before in level for after in _single_moves(before, die, dutch)}
            if not level:
                break
            # A non-double that plays one die: the larger ranks above the smaller (R12).
            rank = 2 * used if high == low or used == 2 else (2 if die == high else 1)
            ranked.setdefault(rank, set()).update(level)
    return ranked[max(ranked)] if ranked else {board}  # R13: nothing playable, the pass


def _random_positions(variant: Variant, count: int, seed: int) -> list[np.ndarray]:
    """Positions met in games of ``variant`` with uniformly random plays, the side to move on roll."""
    rng = np.random.default_rng(seed)
    start = variant.start.to_array()
    board = start.copy()
    found: list[np.ndarray] = []
    while len(found) < count:
        found.append(board.copy())
        results, _ = generate(board, int(rng.integers(1, 7)), int(rng.integers(1, 7)), variant.flags)
        after = results[rng.integers(len(results))]
        finished = after[OFF] == variant.checkers
        board = (
            start.copy()
            if finished
            else Position.from_array(after, checkers=variant.checkers).flip().to_array()
        )
    return found


def _mismatches(boards: list[np.ndarray], flags: int) -> list[str]:
    dutch = bool(flags & HIT_NEEDS_HOME)
    wrong = []
    for board in boards:
        for roll in ALL_ROLLS:
            results, _ = generate(board, roll.high, roll.low, flags)
            ours = {tuple(int(value) for value in row) for row in results}
            assert len(ours) == len(results), "the generator gave the same position twice"
            expected = reference_results(tuple(int(value) for value in board), roll.high, roll.low, dutch)
            if ours != expected:
                wrong.append(f"{board.tolist()} {roll}: {len(ours)} plays, the rules give {len(expected)}")
    return wrong


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_R5_R16_V1_V2_every_legal_play_is_generated_in_every_variant(variant: Variant) -> None:
    wrong = _mismatches(_random_positions(variant, COUNT, seed=len(variant.name)), variant.flags)
    assert not wrong, f"{len(wrong)} position-rolls differ, e.g.\n" + "\n".join(wrong[:5])


def test_V1_dutch_double_may_hit_after_a_checker_comes_home_in_the_same_roll() -> None:
    """6-6: 9/3 brings a checker home, and then 19/13* may hit and go on."""
    board = [0] * 24
    board[8], board[18], board[12], board[23] = 1, 14, -1, -14
    position = Position(board)
    plays = position.legal_plays(Dice(6, 6), DUTCH)
    hit_on_the_way = position.parse_play(Dice(6, 6), "9/3 19/13*/7/1", DUTCH)
    assert hit_on_the_way.after in {play.after for play in plays}
    assert all(len(play.moves) == 4 for play in plays), "all four sixes can be played"
    assert _mismatches([position.to_array()], DUTCH.flags) == []
