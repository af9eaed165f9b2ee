"""Writing and reading standard notation."""

from __future__ import annotations

import pytest

from builders import position
from tavola import AmbiguousPlayError, Dice, IllegalPlayError, Move, NotationError, Position
from tavola.errors import InvalidDiceError, InvalidRulesError, TavolaError
from tavola.notation import format_play, parse_play, parse_segments

START = Position.start()


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ([Move(24, 18), Move(13, 10)], "24/18 13/10"),
        ([Move(24, 18, hit=True), Move(18, 15)], "24/18*/15"),
        ([Move(25, 22)], "bar/22"),
        ([Move(6, 0)], "6/off"),
        ([Move(8, 5), Move(8, 5)], "8/5(2)"),
        ([Move(13, 7, hit=True), Move(7, 1)], "13/7*/1"),
        ([Move(24, 18), Move(18, 12), Move(13, 7), Move(13, 7)], "24/12 13/7(2)"),
        ([Move(6, 4), Move(8, 6)], "8/6 6/4"),  # the furthest-back checker first
    ],
)
def test_canonical_notation(moves, text):
    assert format_play(moves) == text


def test_R6_a_path_without_hits_shows_only_its_ends():
    assert START.parse_play(Dice(6, 3), "24/18/15").notation == "24/15"


@pytest.mark.parametrize(
    ("typed", "dice", "canonical"),
    [
        ("8/5 6/5", "31", "8/5 6/5"),
        ("6/5 8/5", "31", "8/5 6/5"),  # any order
        ("8-5 6-5", "31", "8/5 6/5"),  # dashes
        ("  8/5,   6/5 ", "31", "8/5 6/5"),  # commas and spaces
        ("24/18 18/15", "63", "24/15"),  # a path as separate hops
        ("18/15 24/18", "63", "24/15"),
        ("13/10/4", "63", "13/4"),
        ("8/2(2) 6/off(2)".replace("6/off(2)", "6/0(2)"), "66", None),
        ("13/7(2) 24/18(2)", "66", "24/18(2) 13/7(2)"),
        ("13/7 13/7 24/18 24/18", "66", "24/18(2) 13/7(2)"),
    ],
)
def test_typed_plays_are_read(typed, dice, canonical):
    if canonical is None:
        with pytest.raises(IllegalPlayError):
            START.parse_play(Dice.parse(dice), typed)
    else:
        assert START.parse_play(Dice.parse(dice), typed).notation == canonical


def test_R9_bar_written_as_25_or_bar():
    pos = position({6: 14}, {1: 2, 20: 13}, bar=(1, 0))
    assert pos.parse_play(Dice(3, 1), "25/22 22/21").notation == pos.parse_play(Dice(3, 1), "bar/21").notation


def test_R8_star_is_optional_when_the_hit_is_clear():
    pos = position({13: 2, 1: 13}, {10: 1, 20: 14})
    assert pos.parse_play(Dice(3, 2), "13/10 13/11").notation == "13/11 13/10*"


def test_a_path_that_could_hit_on_either_way_is_ambiguous():
    pos = position({24: 1, 13: 1, 1: 13}, {18: 1, 21: 1, 20: 13})
    with pytest.raises(AmbiguousPlayError, match=r"24/18\*/15 or 24/21\*/15|24/21\*/15 or 24/18\*/15"):
        pos.parse_play(Dice(6, 3), "24/15")
    assert pos.parse_play(Dice(6, 3), "24/18*/15").notation == "24/18*/15"


@pytest.mark.parametrize(
    "text",
    ["24/", "/18", "24//18", "x/18", "24/18(5)", "24/26", "18/24", "24*/18", "hello", "24/18(0)"],
)
def test_text_that_is_not_notation_raises_notation_error(text):
    with pytest.raises(NotationError):
        parse_segments(text)


def test_R11_the_message_names_a_legal_play():
    with pytest.raises(IllegalPlayError, match=r"both dice can be played.*is legal \(R11\)"):
        START.parse_play(Dice(6, 3), "24/18")


def test_R12_the_message_says_the_larger_die_must_be_played():
    pos = position({13: 1, 1: 14}, {2: 2, 20: 13})
    with pytest.raises(IllegalPlayError, match=r"must be the larger, 6: 13/7 is legal \(R12\)"):
        pos.parse_play(Dice(6, 5), "13/8")


def test_R13_a_pass_is_typed_as_nothing():
    pos = position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, bar=(1, 0))
    assert pos.parse_play(Dice(6, 4), "").is_pass
    assert pos.parse_play(Dice(6, 4), "pass").is_pass
    with pytest.raises(IllegalPlayError, match="R13"):
        pos.parse_play(Dice(6, 4), "bar/19")


def test_R11_passing_when_a_move_exists_is_refused():
    with pytest.raises(IllegalPlayError, match="you must play"):
        START.parse_play(Dice(6, 3), "")


def test_moving_a_checker_you_do_not_have():
    with pytest.raises(IllegalPlayError, match="not have enough checkers on point 7"):
        START.parse_play(Dice(6, 1), "7/1 13/12")


def test_the_error_quotes_what_was_typed():
    with pytest.raises(IllegalPlayError, match=r"^24-18: both dice"):
        START.parse_play(Dice(6, 5), "24-18")


@pytest.mark.parametrize(
    ("dice", "text", "variant", "error"),
    [
        pytest.param(Dice(3, 1), None, None, NotationError, id="no-text"),
        pytest.param(Dice(3, 1), 42, None, NotationError, id="a-number"),
        pytest.param(Dice(3, 1), b"8/5 6/5", None, NotationError, id="bytes"),
        pytest.param(None, "8/5 6/5", None, InvalidDiceError, id="no-dice"),
        pytest.param("31", "8/5 6/5", None, InvalidDiceError, id="dice-as-text"),
        pytest.param(Dice(3, 1), "8/5 6/5", 5, InvalidRulesError, id="variant-a-number"),
    ],
)
def test_parse_play_refuses_arguments_of_the_wrong_kind_with_a_tavola_error(
    dice: object, text: object, variant: object, error: type[TavolaError]
) -> None:
    with pytest.raises(error):
        Position.start().parse_play(dice, text, variant)  # type: ignore[arg-type]
    with pytest.raises(error):
        parse_play(Position.start(), dice, text, variant)  # type: ignore[arg-type]
