"""Tavola's legal plays equal GNU Backgammon's, position by position.

The default run compares a few hundred positions with all 21 rolls; set
``TAVOLA_GNUBG_POSITIONS`` for a longer run (each position costs about 17 ms
of gnubg time)::

    TAVOLA_GNUBG_POSITIONS=20000 pytest tests/test_movegen_gnubg.py
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from gnubg_oracle import legal_plays
from tavola import ALL_ROLLS, Dice, Position
from tavola.sampling import random_positions

COUNT = int(os.environ.get("TAVOLA_GNUBG_POSITIONS", "300"))
CHUNK = 50_000  # queries per gnubg run, well inside its time limit

pytestmark = pytest.mark.gnubg


def scattered_positions(count: int, seed: int) -> list[Position]:
    """Arbitrary legal arrangements (bar, bear-off and blocking positions games rarely reach)."""
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    while len(found) < count:
        mine, theirs = [0] * 25, [0] * 25
        spread = rng.integers(1, 26)  # how far back each side's checkers may stand
        for counts in (mine, theirs):
            for _ in range(15):
                slot = int(rng.integers(-3, spread))  # below 0: borne off
                if slot >= 0:
                    counts[slot] += 1
        for point in range(24):  # no point held by both sides
            if mine[point] and theirs[23 - point]:
                theirs[24] += theirs[23 - point]
                theirs[23 - point] = 0
        position = Position.from_sides(mine, theirs)
        if position.result() is None:
            found.append(position)
    return found


def compare(positions: list[Position]) -> None:
    queries = [(position.position_id(), roll.high, roll.low) for position in positions for roll in ALL_ROLLS]
    expected = [
        answer
        for start in range(0, len(queries), CHUNK)
        for answer in legal_plays(queries[start : start + CHUNK])
    ]
    mismatches = []
    for (position_id, high, low), theirs in zip(queries, expected, strict=True):
        position = Position.from_position_id(position_id)
        ours = {play.after.position_id(): play.notation for play in position.legal_plays(Dice(high, low))}
        if set(ours) != set(theirs):
            only_ours = sorted(ours[key] for key in set(ours) - set(theirs))
            only_theirs = sorted(theirs[key] for key in set(theirs) - set(ours))
            mismatches.append(f"{position_id} {high}{low}: only Tavola {only_ours}, only gnubg {only_theirs}")
    assert not mismatches, f"{len(mismatches)} of {len(queries)} differ:\n" + "\n".join(mismatches[:20])


def test_R5_to_R17_legal_plays_equal_gnubgs_in_random_games():
    compare(random_positions(COUNT, seed=20261121))


def test_R5_to_R17_legal_plays_equal_gnubgs_in_scattered_positions():
    compare(scattered_positions(max(COUNT // 3, 50), seed=7))
