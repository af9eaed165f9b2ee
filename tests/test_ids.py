"""Tests for tavola.ids: gnubg Position IDs and Match IDs, and XGIDs.

The literal IDs below come from GNU Backgammon 1.07.001 (/usr/games/gnubg),
run as ``gnubg -t -q`` with both players set to ``human`` and the commands
quoted next to each value piped to it; gnubg printed the IDs with ``show
board``. The ones marked "Python" come from gnubg's embedded Python module
(``gnubg -t -q -p script.py``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import positions
from tavola.errors import InvalidIdError
from tavola.ids import (
    GameState,
    MatchState,
    XgidSide,
    XgidStage,
    XgidState,
    decode_match_id,
    decode_position_id,
    decode_xgid,
    encode_match_id,
    encode_position_id,
    encode_xgid,
    parse_position,
)
from tavola.matchrules import crawford_possible
from tavola.position import Position

GNUBG = Path("/usr/games/gnubg")
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"

# Each example costs Hypothesis a few milliseconds to draw: fewer of them keep
# this file well under five seconds.
QUICK = settings(max_examples=50)


# --- helpers and strategies -----------------------------------------------------


def counts(**points: int) -> list[int]:
    """25 counts (points 1-24 and the bar) from keywords such as ``p6=5, bar=1``."""
    result = [0] * 25
    for name, count in points.items():
        result[24 if name == "bar" else int(name[1:]) - 1] = count
    return result


START = counts(p6=5, p8=3, p13=5, p24=2)


def position_id_from_counts(first: list[int], second: list[int]) -> str:
    """A Position ID packed independently of tavola.ids, from raw counts in key order."""
    bits = []
    for count in first + second:
        bits += [1] * count + [0]
    bits += [0] * (80 - len(bits))
    key = bytes(sum(bits[8 * byte + bit] << bit for bit in range(8)) for byte in range(10))
    return base64.b64encode(key).decode()[:14]


def with_match_bits(match_id: str, first: int, width: int, value: int) -> str:
    """``match_id`` with key bits ``first`` to ``first + width - 1`` set to ``value``."""
    key = int.from_bytes(base64.b64decode(match_id), "little")
    key &= ~(((1 << width) - 1) << first)
    key |= value << first
    return base64.b64encode(key.to_bytes(9, "little")).decode()


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    """A state some match or money game reaches (P1, P2, C3), as gnubg writes it."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, 32767)))
    game_state = draw(st.sampled_from(GameState))
    finished = game_state not in (GameState.NONE, GameState.PLAYING)
    top = length - 1 if length else 32767
    score = [draw(st.integers(0, top)), draw(st.integers(0, top))]
    if length and finished and draw(st.booleans()):  # the game won the match: its points as won
        score[draw(st.integers(0, 1))] = draw(st.integers(length, 32767))
    crawford = crawford_possible(length, (score[0], score[1])) and draw(st.booleans()) if length else False
    crawford_game = crawford and not finished
    owner = None if crawford_game else draw(st.sampled_from([None, 0, 1]))
    rolled = st.tuples(st.integers(1, 6), st.integers(1, 6))
    return MatchState(
        cube_value=1 if crawford_game else 1 << draw(st.integers(0 if owner is None else 1, 15)),
        cube_owner=owner,
        player_on_roll=draw(st.integers(0, 1)),
        crawford=crawford,
        game_state=game_state,
        turn=draw(st.integers(0, 1)),
        double_offered=game_state is GameState.PLAYING and not crawford_game and draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=draw(st.one_of(st.just((0, 0)), rolled)),
        match_length=length,
        score=(score[0], score[1]),
        jacoby=draw(st.booleans()),
    )


@st.composite
def xgid_states(draw: st.DrawFn) -> XgidState:
    """A state some match or money game reaches (P1, P2, C3), as an XGID holds it."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25)))
    top = length - 1 if length else 99
    score_bottom, score_top = draw(st.integers(0, top)), draw(st.integers(0, top))
    crawford = bool(length) and crawford_possible(length, (score_bottom, score_top)) and draw(st.booleans())
    stages = [XgidStage.TO_ROLL, XgidStage.ROLLED] if crawford else list(XgidStage)
    stage = draw(st.sampled_from(stages))
    dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6))) if stage is XgidStage.ROLLED else (0, 0)
    owner = None if crawford else draw(st.sampled_from([None, XgidSide.BOTTOM, XgidSide.TOP]))
    return XgidState(
        position=draw(positions()),
        turn=draw(st.sampled_from(XgidSide)),
        stage=stage,
        dice=dice,
        cube_value=1 if crawford else 1 << draw(st.integers(0 if owner is None else 1, 15)),
        cube_owner=owner,
        score_bottom=score_bottom,
        score_top=score_top,
        crawford_jacoby=int(crawford) if length else draw(st.integers(0, 3)),
        match_length=length,
        max_cube=1 << draw(st.integers(0, 15)),
    )


# --- Position ID: values gnubg produced ---------------------------------------------

KNOWN_POSITION_IDS = [
    # `new game`: the starting position.
    pytest.param(START, START, "4HPwATDgc/ABMA", id="start"),
    # gnubg (O) opened 51 with 24/23 13/8; then root (X) was on roll.
    pytest.param(START, counts(p6=5, p8=4, p13=4, p23=1, p24=1), "4PPgASjgc/ABMA", id="after-51"),
    # `set board AAAAAQAAAgAAAA` with O on roll: O had one checker on its
    # 24-point and X one on the bar. So the side NOT on roll comes first.
    pytest.param(counts(p24=1), counts(bar=1), "AAAAAQAAAgAAAA", id="mover-on-24"),
    # ... then `set turn 1` (X on roll) turned the ID into this one.
    pytest.param(counts(bar=1), counts(p24=1), "AACAAAAABAAAAA", id="mover-on-bar"),
    # `set xgid XGID=a-----N-------------n---A-:1:-1:-1:31:2:3:0:7:10`, top on roll.
    pytest.param(counts(p5=14, bar=1), counts(p6=14, p24=1), "4P8HACDw/wMAQA", id="from-xgid"),
]


@pytest.mark.parametrize(("mover", "opponent", "position_id"), KNOWN_POSITION_IDS)
def test_position_id_encodes_like_gnubg(mover: list[int], opponent: list[int], position_id: str) -> None:
    assert encode_position_id(Position.from_sides(mover, opponent)) == position_id


@pytest.mark.parametrize(("mover", "opponent", "position_id"), KNOWN_POSITION_IDS)
def test_position_id_decodes_like_gnubg(mover: list[int], opponent: list[int], position_id: str) -> None:
    assert decode_position_id(position_id).sides() == (tuple(mover), tuple(opponent))


def test_position_id_starting_position_is_position_start() -> None:
    assert decode_position_id("4HPwATDgc/ABMA") == Position.start()
    assert encode_position_id(Position.start()) == "4HPwATDgc/ABMA"


def test_position_id_packs_the_opponent_first_like_an_independent_packer() -> None:
    mover, opponent = counts(p24=1), counts(bar=1)
    assert position_id_from_counts(opponent, mover) == "AAAAAQAAAgAAAA"


def test_position_id_ignores_surrounding_white_space() -> None:
    assert decode_position_id("  4HPwATDgc/ABMA\n") == Position.start()


def test_position_id_hypergammon_uses_the_checkers_argument() -> None:
    position = Position.from_sides(counts(p24=1, p23=1, p22=1), counts(p24=1, p23=1, p22=1), checkers=3)
    text = encode_position_id(position)
    assert decode_position_id(text, checkers=3) == position
    assert decode_position_id(text, checkers=3).off == (0, 0)
    assert decode_position_id(text).off == (12, 12)


# --- Position ID: round trips -------------------------------------------------------


@QUICK
@given(positions())
def test_position_id_round_trips_every_legal_position(position: Position) -> None:
    text = encode_position_id(position)
    assert len(text) == 14
    assert decode_position_id(text) == position


@QUICK
@given(positions(checkers=3))
def test_position_id_round_trips_hypergammon_positions(position: Position) -> None:
    assert decode_position_id(encode_position_id(position), checkers=3) == position


@QUICK
@given(positions())
def test_position_id_matches_an_independent_packer(position: Position) -> None:
    mover, opponent = position.sides()
    assert encode_position_id(position) == position_id_from_counts(list(opponent), list(mover))


@QUICK
@given(st.text(alphabet=BASE64, min_size=14, max_size=14))
def test_position_id_any_14_characters_decode_canonically_or_raise(text: str) -> None:
    try:
        position = decode_position_id(text)
    except InvalidIdError:
        return
    assert encode_position_id(position) == text


@QUICK
@given(st.text(max_size=20))
def test_position_id_arbitrary_text_raises_only_invalid_id_error(text: str) -> None:
    with contextlib.suppress(InvalidIdError):
        decode_position_id(text)


# --- Position ID: malformed ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("4HPwATDgc/ABM", "14 characters, not 13", id="too-short"),
        pytest.param("4HPwATDgc/ABMAA", "14 characters, not 15", id="too-long"),
        pytest.param("", "14 characters, not 0", id="empty"),
        pytest.param("4HPwATDgc-ABMA", "'-' (character 10) is not a base64", id="bad-character"),
        pytest.param("4HPwATDgc ABMA", "' ' (character 10) is not a base64", id="inner-space"),
        pytest.param("4HPwATDgc/ABM=", "'=' (character 14) is not a base64", id="padding-sign"),
        pytest.param("4HPwATDgc/ABMB", "bits left over in its last character", id="padding-bits-set"),
        pytest.param("/////////////w", "bits run out", id="all-80-bits-ones"),
        pytest.param(
            position_id_from_counts(counts(p1=14), counts(p6=16)),
            "the player on roll has 16 checkers on the board, more than 15",
            id="sixteen-checkers",
        ),
        pytest.param(
            position_id_from_counts(counts(p6=16), counts(p1=14)),
            "the opponent has 16 checkers on the board, more than 15",
            id="sixteen-opponent-checkers",
        ),
        pytest.param(
            position_id_from_counts(counts(p24=1), counts(p1=1)),
            "point 1 is held by both sides",
            id="point-held-by-both",
        ),
        pytest.param(
            base64.b64encode((1 << 60).to_bytes(10, "little")).decode()[:14],
            "bits left over after both sides",
            id="bits-left-over",
        ),
    ],
)
def test_position_id_malformed_raises_invalid_id_error(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=re.escape(message)):
        decode_position_id(text)


def test_position_id_too_many_checkers_for_hypergammon() -> None:
    with pytest.raises(InvalidIdError, match="15 checkers on the board, more than 3"):
        decode_position_id("4HPwATDgc/ABMA", checkers=3)


@pytest.mark.parametrize("checkers", [0, -1, "15", 15.0, 128])
def test_position_id_bad_checkers_argument_raises_invalid_id_error(checkers: object) -> None:
    with pytest.raises(InvalidIdError, match="checkers per side"):
        decode_position_id("4HPwATDgc/ABMA", checkers=checkers)  # type: ignore[arg-type]
    with pytest.raises(InvalidIdError, match="checkers per side"):
        decode_xgid(START_XGID, checkers=checkers)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 42, b"4HPwATDgc/ABMA"])
def test_position_id_that_is_not_text_raises_invalid_id_error(value: object) -> None:
    with pytest.raises(InvalidIdError, match="is text"):
        decode_position_id(value)  # type: ignore[arg-type]


def test_position_id_encoding_a_non_position_raises_invalid_id_error() -> None:
    with pytest.raises(InvalidIdError, match="only a Position"):
        encode_position_id("4HPwATDgc/ABMA")  # type: ignore[arg-type]


# --- Match ID: values gnubg produced ------------------------------------------------

KNOWN_MATCH_IDS = [
    # `new match 9`, `set turn 1`: player 1 to roll.
    pytest.param(
        "cAkgAQAAAAAE",
        MatchState(player_on_roll=1, turn=1, match_length=9),
        id="new-9-point-match",
    ),
    # The gnubg manual's example: 9-point match at 2-4, player 0 owns a 2-cube,
    # player 1 rolled 52. Its 67th bit (Jacoby not in use) is clear; gnubg 1.07
    # `set matchid QYkqASAAIAAA` shows it back unchanged.
    pytest.param(
        "QYkqASAAIAAA",
        MatchState(
            cube_value=2,
            cube_owner=0,
            player_on_roll=1,
            turn=1,
            dice=(5, 2),
            match_length=9,
            score=(2, 4),
            jacoby=True,
        ),
        id="manual-example",
    ),
    # `new match 9`, `set turn 1`, `double`, `take`, `set dice 2 5`: gnubg
    # writes the larger die first.
    pytest.param(
        "QYkqAQAAAAAE",
        MatchState(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(5, 2), match_length=9),
        id="doubled-taken-dice-25",
    ),
    # `new match 9`, `set turn 1`, `double`: player 0 must answer.
    pytest.param(
        "cBEgAQAAAAAE",
        MatchState(player_on_roll=1, turn=0, double_offered=True, match_length=9),
        id="double-offered",
    ),
    # `new match 5`, `set score 4 2`, `set crawford off`, `set cube value 8`,
    # `set cube owner 1`; player 1 had rolled 54.
    pytest.param(
        "U4myAEAAEAAE",
        MatchState(
            cube_value=8,
            cube_owner=1,
            player_on_roll=1,
            turn=1,
            dice=(5, 4),
            match_length=5,
            score=(4, 2),
        ),
        id="cube-8-owned-by-1",
    ),
    # `new match 5`, `set score 4 2`, `set crawford on`; player 1 rolled 53.
    pytest.param(
        "8ImuAEAAEAAE",
        MatchState(player_on_roll=1, turn=1, crawford=True, dice=(5, 3), match_length=5, score=(4, 2)),
        id="crawford-game",
    ),
    # ... then `set turn 0`, `set cube owner 0`, `set score 3 1` (cube still 8).
    pytest.param(
        "AwGgADAACAAE",
        MatchState(cube_value=8, cube_owner=0, match_length=5, score=(3, 1)),
        id="cube-8-owned-by-0",
    ),
    # `new match 7`, `set turn 1`, `set score 2 5`, `resign gammon`.
    pytest.param(
        "cEHgACAAKAAE",
        MatchState(player_on_roll=1, turn=0, resignation=2, match_length=7, score=(2, 5)),
        id="gammon-resignation-offered",
    ),
    # `set automatic game off`, `new match 7`, `set turn 1`, `resign single`, `accept`.
    pytest.param(
        "cCPgABAAAAAE",
        MatchState(
            player_on_roll=1,
            turn=0,
            game_state=GameState.RESIGNED,
            resignation=1,
            match_length=7,
            score=(1, 0),
        ),
        id="game-resigned",
    ),
    # `set automatic game off`, `new match 7`, `set turn 1`, `double`, `drop`.
    pytest.param(
        "cATgAAAACAAE",
        MatchState(player_on_roll=1, turn=0, game_state=GameState.DROPPED, match_length=7, score=(0, 1)),
        id="double-dropped",
    ),
    # `new game` (money, Jacoby rule on by default); player 0 rolled 31.
    pytest.param("MIEFAAAAAAAA", MatchState(dice=(3, 1), jacoby=True), id="money-jacoby"),
    # `set jacoby off`, `new session`; player 0 rolled 52.
    pytest.param("MIEKAAAAAAAE", MatchState(dice=(5, 2)), id="money-no-jacoby"),
    # Python: gnubg.matchid(cubeinfo of a new 7-point match, gnubg.posinfo(1, 0, 0, gs, (0, 0))).
    pytest.param(
        "MAjgAAAAAAAE",
        MatchState(turn=1, game_state=GameState.NONE, match_length=7),
        id="no-game-started",
    ),
    pytest.param(
        "MArgAAAAAAAE",
        MatchState(turn=1, game_state=GameState.OVER, match_length=7),
        id="game-over",
    ),
    # `new match 25`, `set turn 0`, `set score 20 23`, `set cube value 4`,
    # `set cube owner 1`, `set dice 6 6`.
    pytest.param(
        "EgE7A0ABuAAE",
        MatchState(cube_value=4, cube_owner=1, dice=(6, 6), match_length=25, score=(20, 23)),
        id="25-point-match",
    ),
]


@pytest.mark.parametrize(("match_id", "state"), KNOWN_MATCH_IDS)
def test_match_id_decodes_like_gnubg(match_id: str, state: MatchState) -> None:
    assert decode_match_id(match_id) == state


@pytest.mark.parametrize(("match_id", "state"), KNOWN_MATCH_IDS)
def test_match_id_encodes_like_gnubg(match_id: str, state: MatchState) -> None:
    assert encode_match_id(state) == match_id


def test_match_state_keeps_the_dice_in_the_order_the_id_gives() -> None:
    assert MatchState(dice=(2, 5)).dice == (2, 5)
    for dice in ((2, 5), (5, 2)):
        assert decode_match_id(encode_match_id(MatchState(dice=dice))).dice == dice


def test_states_are_frozen_and_hashable() -> None:
    match_state = decode_match_id("cAkgAQAAAAAE")
    xgid_state = decode_xgid(START_XGID)
    assert hash(match_state) == hash(decode_match_id("cAkgAQAAAAAE"))
    assert hash(xgid_state) == hash(decode_xgid(START_XGID))
    with pytest.raises(AttributeError):
        match_state.cube_value = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        xgid_state.turn = XgidSide.TOP  # type: ignore[misc]


def test_match_id_ignores_surrounding_white_space() -> None:
    assert decode_match_id(" cAkgAQAAAAAE\t").match_length == 9


# --- Match ID: round trips ------------------------------------------------------


@QUICK
@given(match_states())
def test_match_id_round_trips_every_valid_state(state: MatchState) -> None:
    text = encode_match_id(state)
    assert len(text) == 12
    assert decode_match_id(text) == state


@QUICK
@given(st.text(alphabet=BASE64, min_size=12, max_size=12))
def test_match_id_any_12_characters_decode_canonically_or_raise(text: str) -> None:
    try:
        state = decode_match_id(text)
    except InvalidIdError:
        return
    if state.dice[0] >= state.dice[1]:  # gnubg writes the larger die first
        assert encode_match_id(state) == text


@QUICK
@given(st.text(max_size=20))
def test_match_id_arbitrary_text_raises_only_invalid_id_error(text: str) -> None:
    with contextlib.suppress(InvalidIdError):
        decode_match_id(text)


# --- Match ID: malformed ------------------------------------------------------------

VALID_MATCH_ID = "cAkgAQAAAAAE"  # a fresh 9-point match, player 1 to roll


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("cAkgAQAAAAA", "12 characters, not 11", id="too-short"),
        pytest.param("cAkgAQAAAAAEA", "12 characters, not 13", id="too-long"),
        pytest.param("cAkgAQAA*AAE", r"'\*' \(character 9\) is not a base64", id="bad-character"),
        pytest.param(with_match_bits(VALID_MATCH_ID, 67, 5, 1), "bits left over", id="bit-68-set"),
        pytest.param(with_match_bits(VALID_MATCH_ID, 71, 1, 1), "bits left over", id="bit-72-set"),
        pytest.param(with_match_bits(VALID_MATCH_ID, 4, 2, 2), "cube owner is 0, 1 or 3", id="owner-2"),
        pytest.param(with_match_bits(VALID_MATCH_ID, 8, 3, 5), "game state is 0 to 4, not 5", id="state-5"),
        pytest.param(
            with_match_bits(VALID_MATCH_ID, 15, 6, 7 | 1 << 3), "a die is 0 to 6, not 7", id="die-7"
        ),
        pytest.param(with_match_bits(VALID_MATCH_ID, 15, 6, 3), "dice are two numbers", id="one-die"),
        pytest.param(
            with_match_bits(VALID_MATCH_ID, 36, 15, 10),
            "a score in a 9-point match is 0 to 8 while a game is played, not 10-0",
            id="score-10-of-9",
        ),
        pytest.param(
            with_match_bits(with_match_bits(VALID_MATCH_ID, 21, 15, 0), 7, 1, 1),
            "a money game has no Crawford game",
            id="crawford-money",
        ),
    ],
)
def test_match_id_malformed_raises_invalid_id_error(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"cube_value": 3}, "power of two", id="cube-3"),
        pytest.param(
            {"cube_value": 1 << 16}, "the cube at 65536 is more than a Match ID can hold", id="cube-too-big"
        ),
        pytest.param({"cube_value": 3 << 16}, "cube value is 1 to 32768", id="cube-too-big-not-a-power"),
        pytest.param({"cube_owner": 2}, "cube owner", id="owner-2"),
        pytest.param({"player_on_roll": 2}, "player on roll is 0 to 1", id="on-roll-2"),
        pytest.param({"turn": True}, "whole number", id="turn-bool"),
        pytest.param({"crawford": 1}, "Crawford flag is True or False", id="crawford-int"),
        pytest.param({"game_state": 7}, "game state is 0 to 4", id="state-7"),
        pytest.param({"resignation": 4}, "resignation offered is 0 to 3", id="resign-4"),
        pytest.param({"dice": (7, 1)}, "a die is 0 to 6", id="die-7"),
        pytest.param({"dice": (1, 2, 3)}, "dice should be a pair", id="three-dice"),
        pytest.param({"match_length": -1}, "match length", id="negative-length"),
        pytest.param(
            {"match_length": 5, "score": (5, 6)}, "0 to 4 while a game is played, not 5-6", id="score-over"
        ),
    ],
)
def test_match_state_out_of_range_raises_invalid_id_error(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        MatchState(**fields)  # type: ignore[arg-type]


def test_match_id_encoding_a_non_state_raises_invalid_id_error() -> None:
    with pytest.raises(InvalidIdError, match="only a MatchState"):
        encode_match_id("cAkgAQAAAAAE")  # type: ignore[arg-type]


# --- XGID: values gnubg read ----------------------------------------------------------


def test_xgid_published_example_is_the_start_with_bottom_to_play_52() -> None:
    # gnubg `set xgid` of it: Position ID 4HPwATDgc/ABMA, Match ID cIkKAAAAAAAA
    # (player 1, i.e. bottom, rolled 52 in a money game with the Jacoby rule).
    state = decode_xgid(START_XGID)
    assert state.position == Position.start()
    assert state.turn is XgidSide.BOTTOM
    assert (state.stage, state.dice) == (XgidStage.ROLLED, (5, 2))
    assert (state.cube_value, state.cube_owner, state.match_length) == (1, None, 0)
    assert (state.jacoby, state.beavers, state.crawford) == (True, True, False)
    assert state.max_cube == 1024
    assert decode_match_id("cIkKAAAAAAAA") == MatchState(player_on_roll=1, turn=1, dice=(5, 2), jacoby=True)


def test_xgid_top_on_turn_is_read_as_gnubg_reads_it() -> None:
    # `set xgid` of this XGID made gnubg show Position ID 4P8HACDw/wMAQA and
    # Match ID AYHlADAAEAAE: top is gnubg's player 0, on roll with 31, owning
    # a 2-cube, with 3 points to bottom's 2 in a 7-point match.
    state = decode_xgid("XGID=a-----N-------------n---A-:1:-1:-1:31:2:3:0:7:10")
    assert encode_position_id(state.position) == "4P8HACDw/wMAQA"
    assert state.position.sides() == (tuple(counts(p5=14, bar=1)), tuple(counts(p6=14, p24=1)))
    assert state.turn is XgidSide.TOP
    assert state.cube_owner is XgidSide.TOP
    assert (state.score_bottom, state.score_top) == (2, 3)
    gnubg = decode_match_id("AYHlADAAEAAE")
    assert (gnubg.player_on_roll, gnubg.cube_owner, gnubg.cube_value) == (0, 0, 2)
    assert (gnubg.dice, gnubg.match_length, gnubg.score) == ((3, 1), 7, (3, 2))


def test_xgid_doubled_is_seen_from_the_player_who_doubled() -> None:
    # gnubg `set xgid` of this XGID: "SetMatchID cannot handle positions where
    # a double has been offered. Stepping back to the offering of the cube",
    # leaving Match ID cQkAAAAAAAAA: player 1 (bottom) on roll before a 2-cube.
    state = decode_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:3:0:10")
    assert state.stage is XgidStage.DOUBLED
    assert state.turn is XgidSide.BOTTOM
    assert state.cube_value == 2
    assert decode_match_id("cQkAAAAAAAAA") == MatchState(cube_value=2, player_on_roll=1, turn=1, jacoby=True)


def test_xgid_round_trips_the_published_example() -> None:
    assert encode_xgid(decode_xgid(START_XGID)) == START_XGID


def test_xgid_prefix_is_optional_and_case_insensitive() -> None:
    state = decode_xgid(START_XGID)
    assert decode_xgid(START_XGID.removeprefix("XGID=")) == state
    assert decode_xgid("xgid=" + START_XGID.removeprefix("XGID=")) == state
    assert decode_xgid(f"  {START_XGID}\n") == state


@pytest.mark.parametrize("dice", ["00", "D", "B", "R", "25", "66"])
def test_xgid_dice_field_round_trips(dice: str) -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:1:0:1:{dice}:0:0:3:0:10"
    assert encode_xgid(decode_xgid(text)) == text


def test_xgid_keeps_the_dice_in_the_order_written() -> None:
    assert decode_xgid(START_XGID.replace(":52:", ":25:")).dice == (2, 5)


def test_xgid_match_fields() -> None:
    state = decode_xgid("XGID=-b----E-C---eE---c-e----B-:2:1:-1:00:4:6:0:7:8")
    assert (state.cube_value, state.cube_owner, state.turn) == (4, XgidSide.BOTTOM, XgidSide.TOP)
    assert (state.score_bottom, state.score_top, state.match_length) == (4, 6, 7)
    assert (state.crawford, state.jacoby, state.beavers, state.max_cube) == (False, False, False, 256)
    crawford = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:4:6:1:7:8")
    assert (crawford.crawford, crawford.jacoby, crawford.beavers) == (True, False, False)


# --- XGID: round trips ------------------------------------------------------------


@QUICK
@given(xgid_states())
def test_xgid_round_trips_every_valid_state(state: XgidState) -> None:
    text = encode_xgid(state)
    assert text.startswith("XGID=")
    assert decode_xgid(text) == state
    assert encode_xgid(decode_xgid(text.removeprefix("XGID="))) == text


@QUICK
@given(positions())
def test_xgid_board_is_the_same_whichever_side_is_on_turn(position: Position) -> None:
    bottom_to_play = encode_xgid(XgidState(position, turn=XgidSide.BOTTOM))
    top_to_play = encode_xgid(XgidState(position.flip(), turn=XgidSide.TOP))
    assert bottom_to_play.split(":")[0] == top_to_play.split(":")[0]
    assert decode_xgid(top_to_play).position == position.flip()


@QUICK
@given(st.text(max_size=60))
def test_xgid_arbitrary_text_raises_only_invalid_id_error(text: str) -> None:
    with contextlib.suppress(InvalidIdError):
        decode_xgid(text)


@QUICK
@given(st.lists(st.text(alphabet="-0123456789ABDRabp", max_size=4), min_size=10, max_size=10))
def test_xgid_arbitrary_fields_raise_only_invalid_id_error(fields: list[str]) -> None:
    fields[0] = (fields[0] * 26)[:26] or "-" * 26
    with contextlib.suppress(InvalidIdError):
        decode_xgid(":".join(fields))


# --- XGID: malformed --------------------------------------------------------------

START_BOARD = "-b----E-C---eE---c-e----B-"


def xgid(**changes: str) -> str:
    """START_XGID with some fields replaced."""
    names = ["board", "cube", "owner", "turn", "dice", "bottom", "top", "rules", "length", "max"]
    fields = dict(zip(names, START_XGID.removeprefix("XGID=").split(":"), strict=True))
    fields.update(changes)
    return "XGID=" + ":".join(fields.values())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(START_XGID.rsplit(":", 1)[0], "10 fields separated by colons, not 9", id="nine-fields"),
        pytest.param(START_XGID + ":0", "10 fields separated by colons, not 11", id="eleven-fields"),
        pytest.param("XGID=", "10 fields separated by colons, not 1", id="prefix-only"),
        pytest.param(xgid(board=START_BOARD[:-1]), "26 characters, not 25", id="short-board"),
        pytest.param(xgid(board=START_BOARD + "-"), "26 characters, not 27", id="long-board"),
        pytest.param(xgid(board="-x" + START_BOARD[2:]), "'x' .* is not '-', A-P or a-p", id="bad-letter"),
        pytest.param(xgid(board="-Q" + START_BOARD[2:]), "'Q' .* is not '-', A-P or a-p", id="Q"),
        pytest.param(xgid(board="A" + START_BOARD[1:]), "top player's bar", id="bottom-on-top-bar"),
        pytest.param(xgid(board=START_BOARD[:-1] + "a"), "bottom player's bar", id="top-on-bottom-bar"),
        pytest.param(
            xgid(board="-b----F-C---eE---c-e----B-"), "bottom player has 16 checkers", id="sixteen-bottom"
        ),
        pytest.param(
            xgid(board="-b----E-C---fE---c-e----B-"), "top player has 16 checkers", id="sixteen-top"
        ),
        pytest.param(xgid(cube="x"), "cube .* whole number", id="cube-not-number"),
        pytest.param(xgid(cube="16"), "cube .* 0 to 15, not 16", id="cube-too-big"),
        pytest.param(xgid(cube="-1"), "cube .* 0 to 15, not -1", id="cube-negative"),
        pytest.param(xgid(cube="+1"), "cube .* whole number, not '\\+1'", id="cube-plus-sign"),
        pytest.param(xgid(owner="2"), "cube position is -1 to 1, not 2", id="owner-2"),
        pytest.param(xgid(turn="0"), "player on turn is 1 .* not 0", id="turn-0"),
        pytest.param(xgid(turn="2"), "player on turn is -1 to 1, not 2", id="turn-2"),
        pytest.param(xgid(dice="07"), "dice field", id="die-0-and-7"),
        pytest.param(xgid(dice="71"), "dice field", id="die-7"),
        pytest.param(xgid(dice="5"), "dice field", id="one-die"),
        pytest.param(xgid(dice="123"), "dice field", id="three-dice"),
        pytest.param(xgid(dice="X"), "dice field", id="dice-letter"),
        pytest.param(xgid(dice=""), "dice field", id="dice-empty"),
        pytest.param(xgid(bottom="-1"), "bottom player's score is 0", id="negative-score"),
        pytest.param(xgid(bottom="1 "), "bottom player's score is a whole number", id="score-space"),
        pytest.param(xgid(bottom="9" * 5000), "whole number", id="huge-number"),
        pytest.param(
            xgid(length="7", bottom="7"), "bottom player's score is 0 to 6, not 7", id="score-7-of-7"
        ),
        pytest.param(xgid(length="7", top="9", rules="0"), "top player's score is 0 to 6", id="top-score"),
        pytest.param(xgid(length="7", rules="2"), "Crawford flag in a match is 0 to 1", id="rules-2-match"),
        pytest.param(xgid(rules="4"), "Crawford/Jacoby field is 0 to 3, not 4", id="rules-4"),
        pytest.param(xgid(length="-3"), "match length is 0", id="negative-length"),
        pytest.param(xgid(length="x"), "match length is a whole number", id="length-not-number"),
        pytest.param(xgid(max="16"), "maximum cube .* 0 to 15, not 16", id="max-cube-too-big"),
        pytest.param(xgid(max=""), "maximum cube .* whole number", id="max-cube-empty"),
    ],
)
def test_xgid_malformed_raises_invalid_id_error(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        decode_xgid(text)


def test_xgid_not_text_raises_invalid_id_error() -> None:
    with pytest.raises(InvalidIdError, match="is text"):
        decode_xgid(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"turn": 0}, "player on turn is XgidSide", id="turn-0"),
        pytest.param({"cube_owner": 2}, "cube owner is XgidSide", id="owner-2"),
        pytest.param({"stage": "00"}, "stage is an XgidStage", id="stage-text"),
        pytest.param({"stage": XgidStage.ROLLED}, "rolled exactly when", id="rolled-without-dice"),
        pytest.param({"dice": (3, 1)}, "rolled exactly when", id="dice-without-rolled"),
        pytest.param({"cube_value": 6}, "power of two", id="cube-6"),
        pytest.param({"max_cube": 0}, "maximum cube is 1 to", id="max-cube-0"),
        pytest.param({"match_length": 5, "score_top": 5}, "top player's score is 0 to 4", id="score-5-of-5"),
        pytest.param({"crawford_jacoby": 4}, "Jacoby/beaver field in a money game is 0 to 3", id="rules-4"),
        pytest.param({"position": "4HPwATDgc/ABMA"}, "position is a Position", id="position-text"),
    ],
)
def test_xgid_state_out_of_range_raises_invalid_id_error(fields: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"position": Position.start(), **fields}
    with pytest.raises(InvalidIdError, match=message):
        XgidState(**arguments)  # type: ignore[arg-type]


def test_xgid_encoding_a_non_state_raises_invalid_id_error() -> None:
    with pytest.raises(InvalidIdError, match="only an XgidState"):
        encode_xgid(START_XGID)  # type: ignore[arg-type]


# --- parse_position ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABMA",
        " 4HPwATDgc/ABMA ",
        START_XGID,
        START_XGID.removeprefix("XGID="),
        "4HPwATDgc/ABMA:cAkgAQAAAAAE",  # a gnubg ID, as `show gnubgid` writes it
    ],
)
def test_parse_position_reads_each_format(text: str) -> None:
    assert parse_position(text) == Position.start()


@QUICK
@given(positions(), st.sampled_from(XgidSide))
def test_parse_position_reads_position_ids_and_xgids_from_the_side_on_roll(
    position: Position, turn: XgidSide
) -> None:
    assert parse_position(encode_position_id(position)) == position
    assert parse_position(encode_xgid(XgidState(position, turn=turn))) == position


def test_parse_position_passes_checkers_on() -> None:
    position = Position.from_sides(counts(p24=3), counts(p24=3), checkers=3)
    assert parse_position(encode_position_id(position), checkers=3) == position
    assert parse_position(encode_xgid(XgidState(position)), checkers=3) == position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("start", "neither a gnubg Position ID", id="word"),
        pytest.param("", "neither a gnubg Position ID", id="empty"),
        pytest.param("4HPwATDgc/ABM", "neither a gnubg Position ID", id="short"),
        pytest.param("4HPwATDgc/ABMB", "bits left over", id="bad-position-id"),
        pytest.param("4HPwATDgc/ABMA:cAkgAQAAAAAM", "match ID .* bits left over", id="bad-match-id"),
        pytest.param("XGID=nonsense", "10 fields", id="bad-xgid"),
        pytest.param("-b--:0:0", "10 fields", id="colons"),
    ],
)
def test_parse_position_malformed_raises_invalid_id_error(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        parse_position(text)


# --- against a live gnubg ----------------------------------------------------------

GNUBG_SCRIPT = """
import json, sys
import gnubg
cases = json.load(open(CASES))
gnubg.command('set player 0 human')
gnubg.command('set player 1 human')
gnubg.command('new session')
out = []
for case in cases:
    board = gnubg.positionfromid(case['position_id'])
    gnubg.command('set xgid ' + case['xgid'])
    out.append(dict(board=[list(board[0]), list(board[1])], position_id=gnubg.positionid(),
                    match_id=gnubg.matchid()))
json.dump(out, open(OUT, 'w'))
"""


def _random_xgid_states(count: int) -> list[XgidState]:
    """Seeded random states that gnubg can take whole: no B or R, no cube in the Crawford game."""
    rng = random.Random(20240601)
    states = []
    for _ in range(count):
        mover = [0] * 25
        for _ in range(15):
            place = rng.choice([0, 0, 0, *range(1, 26)])
            if place:
                mover[place - 1] += 1
        free = [0, 0, 0, 25] + [j for j in range(1, 25) if not mover[24 - j]]
        opponent = [0] * 25
        for _ in range(15):
            place = rng.choice(free)
            if place:
                opponent[place - 1] += 1
        length = rng.choice([0, 0, 3, 5, 7, 9, 25])
        stage = rng.choice([XgidStage.TO_ROLL, XgidStage.ROLLED, XgidStage.ROLLED])
        high, low = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        score_bottom = rng.randrange(length) if length else 0
        score_top = rng.randrange(length) if length else 0
        crawford = bool(length) and length - 1 in (score_bottom, score_top) and rng.random() < 0.5
        owner = None if crawford else rng.choice([None, XgidSide.BOTTOM, XgidSide.TOP])
        states.append(
            XgidState(
                Position.from_sides(mover, opponent),
                turn=rng.choice(list(XgidSide)),
                stage=stage,
                dice=(high, low) if stage is XgidStage.ROLLED else (0, 0),
                cube_value=1 if owner is None else 1 << rng.randint(1, 6),
                cube_owner=owner,
                score_bottom=score_bottom,
                score_top=score_top,
                crawford_jacoby=int(crawford) if length else rng.randint(0, 3),
                match_length=length,
            )
        )
    return states


@pytest.mark.gnubg
@pytest.mark.skipif(not os.access(GNUBG, os.X_OK), reason="GNU Backgammon is not installed")
def test_gnubg_reads_our_xgids_and_position_ids_as_we_do(tmp_path: Path) -> None:
    states = _random_xgid_states(60)
    cases = [{"xgid": encode_xgid(s), "position_id": encode_position_id(s.position)} for s in states]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = tmp_path / "check.py"
    out = tmp_path / "out.json"
    script.write_text(f"CASES = {str(tmp_path / 'cases.json')!r}\nOUT = {str(out)!r}\n" + GNUBG_SCRIPT)
    subprocess.run(
        [str(GNUBG), "-t", "-q", "-p", str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    results = json.loads(out.read_text())
    assert len(results) == len(states)
    for state, case, result in zip(states, cases, results, strict=True):
        mover, opponent = state.position.sides()
        # gnubg's board: the opponent first, then the player on roll.
        assert result["board"] == [list(opponent), list(mover)], case
        # After `set xgid` gnubg has the player on turn on roll (as its player
        # 1, swapping players when the XGID had top on turn).
        assert result["position_id"] == case["position_id"], case
        bottom_on_turn = state.turn is XgidSide.BOTTOM
        score = (
            (state.score_top, state.score_bottom) if bottom_on_turn else (state.score_bottom, state.score_top)
        )
        expected = MatchState(
            cube_value=state.cube_value,
            cube_owner=None if state.cube_owner is None else int(state.cube_owner == state.turn),
            player_on_roll=1,
            turn=1,
            crawford=state.crawford,
            dice=state.dice,
            match_length=state.match_length,
            score=score,
            jacoby=state.jacoby,
        )
        assert decode_match_id(result["match_id"]) == expected, case
        assert encode_match_id(expected) == result["match_id"], case


# --- IDs of states no match reaches (P1, P2, C3) ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("MAGgAFAAKAAE", "0 to 4 while a game is played, not 5-5", id="P1-5-5-of-5-in-play"),
        pytest.param(
            "sAGgAAAAAAAE", "at 0-0 in a 5-point match there is no Crawford game", id="P2-crawford-0-0"
        ),
        pytest.param("AAEAAAAAAAAE", "owned only once a double is taken", id="C3-owned-at-1"),
        pytest.param(
            with_match_bits("8ImuAEAAEAAE", 0, 4, 1),
            "no doubling in the Crawford game",
            id="P2-cube-2-crawford",
        ),
        pytest.param(
            with_match_bits("cArgABAAAAAE", 12, 1, 1),
            "double is offered only while",
            id="double-after-the-end",
        ),
        pytest.param(
            with_match_bits(with_match_bits("cArgABAAAAAE", 36, 15, 7), 51, 15, 7),
            "both players cannot have won",
            id="P1-both-won",
        ),
    ],
)
def test_P1_P2_C3_match_ids_of_states_no_match_reaches_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:0:1:5:10",
            "at 3-0 in a 5-point match there is no Crawford game",
            id="P2-crawford-3-0",
        ),
        pytest.param(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:1:1:1:2:10",
            "no Crawford game",
            id="P2-crawford-1-1-of-2",
        ),
        pytest.param(
            "XGID=-b----E-C---eE---c-e----B-:0:1:1:52:0:0:0:5:10", "owned only once", id="C3-owned-at-1"
        ),
        pytest.param(
            "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:4:0:1:5:10",
            "no doubling in the Crawford",
            id="P2-doubled",
        ),
    ],
)
def test_P2_C3_xgids_of_states_no_match_reaches_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        decode_xgid(text)


def test_P5_the_ids_gnubg_writes_once_a_game_is_over_are_read() -> None:
    # 7-point match, player 0 owning a 16-cube, gammoned player 1: gnubg writes 16-0 as won.
    state = decode_match_id("UwrgAAABAAAE")
    assert (state.game_state, state.score, state.match_length) == (GameState.OVER, (16, 0), 7)
    assert encode_match_id(state) == "UwrgAAABAAAE"


def test_a_tavola_id_has_the_checkers_of_the_game_played() -> None:
    hypergammon = "TVL=-aaa------------------AAA-:0:0:3"
    with pytest.raises(InvalidIdError, match="it has 15 checkers a side, not the 3"):
        parse_position("TVL=-b----E-C---eE---c-e----B-:0:0:15", checkers=3)
    with pytest.raises(InvalidIdError, match="it has 20 checkers a side, not the 15"):
        parse_position("TVL=------A------------a------:0:0:20")
    assert parse_position(hypergammon, checkers=3).checkers == 3
