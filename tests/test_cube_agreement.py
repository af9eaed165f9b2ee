"""The money cube model against GNU Backgammon 2-ply's cube hints (``benchmarks/cube_agreement.py``).

The stored reference (``benchmarks/data/gnubg-cube.json``) holds gnubg's
cubeless probabilities and cube decisions of positions from real play; run
on gnubg's own probabilities, the cube model must agree with gnubg's
decisions near the double, take and pass points, and its efficiencies
(:mod:`tavola.bot.measured`) must be the ones that agree best. The test
marked gnubg asks gnubg itself and reads its hint back.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tavola.bot.cube import CENTRED, efficiencies, money_decisions
from tavola.bot.evaluate import contact
from tavola.bot.measured import CONTACT_EFFICIENCY, RACE_EFFICIENCY
from tavola.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from cube_agreement import (  # noqa: E402
    CACHE,
    CASE,
    CUBES,
    GnubgError,
    Reference,
    gnubg_available,
    gnubg_class,
    gnubg_hints,
    near,
    parse_hint,
    read_reference,
    selected,
    tied,
)

HINT = """\
Cube analysis
2-ply cubeless equity +0.076
  0.525 0.149 0.007 - 0.475 0.125 0.005
Cubeful equities:
1. No redouble         +0.105
2. Redouble, pass      +1.000  (+0.895)
3. Redouble, take      -0.171  (-0.276)
Proper cube action: No redouble, take (23.6%)
"""


@pytest.fixture(scope="module")
def references() -> dict[str, Reference]:
    stored = json.loads(CACHE.read_text())
    return {cube: read_reference(stored["positions"], cube) for cube in CUBES}


def _agreement(reference: Reference, contact_x: float, race_x: float, half: int) -> float:
    """How often the model on gnubg's probabilities takes gnubg's action and answer, on one half."""
    in_contact = contact(reference.boards)
    owner = CENTRED if reference.cube == "centred" else 0
    found = money_decisions(
        reference.probabilities, owner, Rules(), efficiency=np.where(in_contact, contact_x, race_x)
    )
    same = (found.action == reference.action) & (found.response == reference.response)
    rows = selected(reference.equities) & (reference.games % 2 == half)
    return float(same[rows].mean())


def test_a_cube_hint_reads_back_with_its_equities_and_action():
    hint = parse_hint(HINT)
    assert hint.probabilities == (0.525, 0.149, 0.007, 0.125, 0.005)
    assert (hint.no_double, hint.double_take, hint.double_pass) == (0.105, -0.171, 1.0)
    assert gnubg_class(hint.proper) == (0, 0)  # no double, take
    assert gnubg_class("Too good to redouble, pass") == (2, 1)
    with pytest.raises(GnubgError, match="unknown cube action"):
        gnubg_class("Double, maybe")


def test_positions_near_a_decision_point_are_kept_but_ties_left_out():
    rows = [[0.84, 0.917, 1.0], [0.105, -0.171, 1.0], [1.0, 1.998, 1.0], [0.6, 1.1, 1.0]]
    assert near(rows, 0.15).tolist() == [True, False, True, True]
    assert tied(rows).tolist() == [False, False, True, False]
    assert selected(rows).tolist() == [True, False, False, True]


def test_the_reference_has_over_500_positions_near_a_decision_point(references):
    for reference in references.values():
        assert selected(reference.equities).sum() >= 500


def test_money_model_on_gnubg_probabilities_agrees_with_gnubg_2ply_on_90_percent(references):
    for reference in references.values():
        for half in (0, 1):
            assert _agreement(reference, CONTACT_EFFICIENCY, RACE_EFFICIENCY, half) >= 0.90


def test_measured_cube_efficiencies_agree_with_gnubg_better_than_their_neighbours(references):
    for half in (0, 1):  # fitted on the even games' positions, checked on the odd ones'
        for reference in references.values():
            shipped = _agreement(reference, CONTACT_EFFICIENCY, RACE_EFFICIENCY, half)
            for step in (-0.1, 0.1):
                assert shipped > _agreement(reference, CONTACT_EFFICIENCY + step, RACE_EFFICIENCY, half)
                assert shipped > _agreement(reference, CONTACT_EFFICIENCY, RACE_EFFICIENCY + step, half)


def test_the_case_once_seen_is_double_take_by_the_model_on_gnubg_probabilities():
    case = json.loads(CACHE.read_text())["case"]
    assert case["id"] == CASE
    assert case["centred"][3] == "Double, take"
    board = np.asarray(read_reference([case], "centred").boards)
    found = money_decisions(case["probabilities"], CENTRED, Rules(), efficiency=efficiencies(board))
    assert (int(found.action[0]), int(found.response[0])) == gnubg_class("Double, take")


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="gnubg is not installed")
def test_gnubg_2ply_cube_hints_read_back_as_stored():
    stored = json.loads(CACHE.read_text())
    rows = [stored["case"], *stored["positions"][:3]]
    for cube in CUBES:
        hints = gnubg_hints([row["id"] for row in rows], cube)
        for row, hint in zip(rows, hints, strict=True):
            assert list(hint.probabilities) == row["probabilities"]
            assert [hint.no_double, hint.double_take, hint.double_pass, hint.proper] == row[cube]
