"""Hypothesis strategies for Tavola's values."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from tavola import Dice, Position

OFF_SLOT, BAR_SLOT = 0, 25


@st.composite
def positions(draw: st.DrawFn, checkers: int = 15) -> Position:
    """Any legal arrangement: each side's checkers spread over points, bar and off, no point shared."""
    mine = draw(st.lists(st.integers(0, 25), min_size=checkers, max_size=checkers))
    taken = {slot for slot in mine if 1 <= slot <= 24}
    # The opponent's slots in the mover's numbering; a point the mover holds is not available.
    free = [OFF_SLOT, BAR_SLOT] + [point for point in range(1, 25) if point not in taken]
    theirs = draw(st.lists(st.sampled_from(free), min_size=checkers, max_size=checkers))
    assume(set(mine) != {OFF_SLOT} or set(theirs) != {OFF_SLOT})  # one side is still playing
    board = [0] * 24
    for slot in mine:
        if 1 <= slot <= 24:
            board[slot - 1] += 1
    for slot in theirs:
        if 1 <= slot <= 24:
            board[slot - 1] -= 1
    bar = (mine.count(BAR_SLOT), theirs.count(BAR_SLOT))
    return Position(board, bar=bar, checkers=checkers)


dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@st.composite
def finished_positions(draw: st.DrawFn, checkers: int = 15) -> Position:
    """A game just over: one side (either) has borne off all its checkers, the other has some left."""
    loser = draw(st.lists(st.integers(0, 25), min_size=checkers, max_size=checkers))
    assume(set(loser) != {OFF_SLOT})
    board = [0] * 24
    for slot in loser:
        if 1 <= slot <= 24:
            board[slot - 1] -= 1
    position = Position(board, bar=(0, loser.count(BAR_SLOT)), checkers=checkers)
    return position.flip() if draw(st.booleans()) else position
