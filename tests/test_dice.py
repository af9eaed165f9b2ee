"""Dice values."""

from __future__ import annotations

import random

import pytest

from tavola import ALL_ROLLS, Dice, InvalidDiceError


@pytest.mark.parametrize("text", ["31", "3-1", "3 1", "1-3", " 3,1 "])
def test_dice_are_read_in_every_usual_form(text):
    assert Dice.parse(text) == Dice(3, 1)


@pytest.mark.parametrize("text", ["", "3", "71", "3-0", "331", "a-b", "3--1"])
def test_bad_dice_text_raises(text):
    with pytest.raises(InvalidDiceError):
        Dice.parse(text)


@pytest.mark.parametrize("values", [(0, 3), (7, 1), (True, 2), (2.0, 1)])
def test_bad_die_values_raise(values):
    with pytest.raises(InvalidDiceError):
        Dice(*values)


def test_R7_doubles_give_four_moves():
    assert Dice(5, 5).moves == (5, 5, 5, 5)
    assert Dice(2, 6).moves == (6, 2)


def test_rolling_is_reproducible_with_a_seeded_generator():
    assert [Dice.roll(random.Random(3)) for _ in range(2)] == [Dice.roll(random.Random(3))] * 2
    rolls = {Dice.roll(random.Random(seed)) for seed in range(400)}
    assert rolls == set(ALL_ROLLS)


def test_all_rolls():
    assert len(ALL_ROLLS) == 21
    assert sum(1 if roll.is_double else 2 for roll in ALL_ROLLS) == 36
