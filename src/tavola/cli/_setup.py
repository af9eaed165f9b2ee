"""What a position typed on the command line brings with it: the position, and from an XGID, a gnubg
ID (``POSITIONID:MATCHID``) or a position file its dice, cube, match score and money rules.

``tavola hint`` and ``tavola moves`` read POSITION the same way: a gnubg
Position ID (``POSITIONID:MATCHID`` too), an XGID, a Tavola ID (``TVL=...``),
a Snowie text position, or the name of a file holding one (Snowie's ``.txt``
or Jellyfish's ``.pos``), the player on roll moving.

>>> from tavola.variants import STANDARD
>>> setup = read_setup("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", STANDARD)
>>> setup.dice, setup.cube, setup.rules
(Dice(5, 2), Cube(1), Rules(jacoby=True, beavers=1))
>>> read_setup("TVL=--------------------------:15:15:15", STANDARD).position.waiting
(15, 15)
>>> setup = read_setup("4HPwATDgc/ABMA:QYkqAQAAAAAE", STANDARD)  # 9-point match, 5-2; theirs: a cube of 2
>>> setup.dice, setup.cube, setup.match
(Dice(5, 2), Cube(2, owner=1), MatchScore(length=9, score=(0, 0), crawford=False))
>>> snowie = "7;0;0;0;1;Ben;Ann;0;3;1;2;1;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;6;4;"
>>> setup = read_setup(snowie, STANDARD)  # Ben on roll at 3-1 to 7, owning a cube of 2, has rolled 6-4
>>> setup.dice, setup.cube, setup.match
(Dice(6, 4), Cube(2, owner=0), MatchScore(length=7, score=(3, 1), crawford=False))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tavola.cube import Cube
from tavola.dice import Dice
from tavola.ids import (
    MatchState,
    PositionRecord,
    XgidSide,
    XgidStage,
    decode_snowie,
    decode_xgid,
    gnubg_match_state,
    is_snowie,
    is_xgid,
    parse_position,
    read_position_file,
)
from tavola.match import MatchScore
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import Variant


@dataclass(frozen=True)
class Setup:
    """A position to judge and what its ID says around it (nothing but the position for a Position ID)."""

    position: Position
    dice: Dice | None = None
    cube: Cube = field(default_factory=Cube)
    match: MatchScore | None = None
    rules: Rules = field(default_factory=Rules)


def read_setup(text: str, variant: Variant) -> Setup:
    """The position in ``text`` (any ID, a Snowie text or a position file's name), with ``variant``'s
    checkers; an XGID, a gnubg ID or a position file adds dice, cube and score."""
    if _is_file(text):
        return _from_record(read_position_file(text, checkers=variant.checkers))
    if is_snowie(text):
        return _from_record(decode_snowie(text, checkers=variant.checkers))
    if not is_xgid(text):
        position = parse_position(text, checkers=variant.checkers)
        match_state = gnubg_match_state(text)
        return Setup(position) if match_state is None else _from_match_id(position, match_state)
    state = decode_xgid(text, checkers=variant.checkers)
    dice = Dice(*state.dice) if state.stage is XgidStage.ROLLED else None
    owner = None if state.cube_owner is None else 0 if state.cube_owner == state.turn else 1
    cube = Cube(state.cube_value, owner)
    if not state.match_length:
        return Setup(state.position, dice, cube, rules=Rules(jacoby=state.jacoby, beavers=int(state.beavers)))
    mine, theirs = state.score_bottom, state.score_top
    if state.turn is XgidSide.TOP:
        mine, theirs = theirs, mine
    return Setup(state.position, dice, cube, MatchScore(state.match_length, (mine, theirs), state.crawford))


def _from_match_id(position: Position, state: MatchState) -> Setup:
    """A gnubg ID's setup: its position is seen by the player on roll, who moves."""
    mover = state.player_on_roll
    dice = Dice(*state.dice) if state.dice != (0, 0) else None
    cube = Cube(state.cube_value, None if state.cube_owner is None else 0 if state.cube_owner == mover else 1)
    if not state.match_length:
        return Setup(position, dice, cube, rules=Rules(jacoby=state.jacoby))
    score = (state.score[mover], state.score[1 - mover])
    return Setup(position, dice, cube, MatchScore(state.match_length, score, state.crawford))


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file (and so is no ID)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def _from_record(record: PositionRecord) -> Setup:
    """A position file's setup: its position is seen by the player on roll, who moves."""
    dice = Dice(*record.dice) if record.rolled else None
    cube = Cube(record.cube_value, record.cube_owner)
    if not record.match_length:
        rules = Rules(cube=record.cube_used, jacoby=record.jacoby, beavers=int(record.beavers))
        return Setup(record.position, dice, cube, rules=rules)
    match = MatchScore(record.match_length, record.score, record.crawford)
    return Setup(record.position, dice, cube, match, Rules(cube=record.cube_used))
