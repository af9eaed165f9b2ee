"""Snowie's text position: one line of 40 fields, each ended by ``;``, as gnubg exports and imports it.

=========  =====================================================================
field      what it holds
=========  =====================================================================
0          the match length, 0 for money
1          1 when the Jacoby rule applies (money)
2          0 (what else it may hold is not known: it is read past)
3          1 for money, 0 for a match (read past)
4          which of the two players is on roll, 0 or 1
5, 6       the names: the player on roll's, then the opponent's
7          1 in the Crawford game
8, 9       the scores: the player on roll's, then the opponent's
10         the cube's value
11         its owner: 1 the player on roll, -1 the opponent, 0 centred
12         the opponent's checkers on the bar, as a negative number
13-36      the points 1 to 24, numbered from the player on roll's side:
           its checkers positive, the opponent's negative
37         the player on roll's checkers on the bar
38, 39     the dice, 0 and 0 before the roll
=========  =====================================================================

Snowie's text does not say whether beavers are allowed: Tavola writes field
2 as gnubg does and reads beavers as not allowed.

>>> text = "0;1;0;1;1;Ben;Ann;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;6;4;"
>>> record = decode_snowie(text)
>>> record.position == Position.start(), record.dice, record.names, record.jacoby, record.seat
(True, (6, 4), ('Ben', 'Ann'), True, 1)
>>> encode_snowie(record) == text + "\\n"
True
"""

from __future__ import annotations

import re

from tavola.errors import TavolaError
from tavola.i18n import N_, _
from tavola.ids._checks import _MAX_FIELD_15
from tavola.ids.positionfile import PositionFileError, PositionRecord
from tavola.position import CHECKERS, Position

__all__ = ["decode_snowie", "encode_snowie", "is_snowie"]

_FIELDS = 40
_NUMBER = re.compile(r"-?\d{1,6}")

_WHAT: dict[int, str] = {
    0: N_("the match length"),
    1: N_("the Jacoby rule (1 or 0)"),
    2: N_("field 2 (a number)"),
    3: N_("money (1) or a match (0)"),
    4: N_("the player on roll (0 or 1)"),
    7: N_("the Crawford game (1 or 0)"),
    8: N_("the score of the player on roll"),
    9: N_("the opponent's score"),
    10: N_("the cube's value"),
    11: N_("the cube's owner (1, 0 or -1)"),
    12: N_("the opponent's checkers on the bar (0 or less)"),
    37: N_("the checkers on the bar of the player on roll (0 or more)"),
    38: N_("a die (0 to 6)"),
    39: N_("a die (0 to 6)"),
}
"""What each numeric field holds, said in its error; fields 13-36 are the points."""

_RANGES: dict[int, tuple[int, int]] = {
    1: (0, 1),
    2: (-_MAX_FIELD_15, _MAX_FIELD_15),
    3: (0, 1),
    4: (0, 1),
    7: (0, 1),
    10: (1, 1 << 15),
    11: (-1, 1),
    12: (-CHECKERS, 0),
    37: (0, CHECKERS),
    38: (0, 6),
    39: (0, 6),
}
"""The numbers each field may hold: the points -15 to 15, the others not listed 0 to 32767."""


def is_snowie(text: str) -> bool:
    """Whether ``text`` is written as a Snowie text position: one line of 40 fields, each ended by ``;``.

    >>> is_snowie("7;0;0;0;1;" + "0;" * 35), is_snowie("4HPwATDgc/ABMA")
    (True, False)
    """
    lines = text.strip().splitlines()
    return len(lines) == 1 and lines[0].count(";") in (_FIELDS - 1, _FIELDS)


def decode_snowie(text: str, *, checkers: int = CHECKERS) -> PositionRecord:
    """The position a Snowie text holds; :class:`PositionFileError` names the field that is wrong."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) != 1:
        raise PositionFileError(_("a Snowie text position is one line, not {count}").format(count=len(lines)))
    fields = lines[0].strip().split(";")
    if fields[-1].strip() == "" and len(fields) == _FIELDS + 1:
        fields.pop()
    if len(fields) != _FIELDS:
        message = _("a Snowie text position has {expected} fields ended by ';', not {count}")
        raise PositionFileError(message.format(expected=_FIELDS, count=len(fields)))
    numbers = {index: _number(fields, index) for index in range(_FIELDS) if index not in (5, 6)}
    board = [numbers[point + 12] for point in range(1, 25)]
    dice = (numbers[38], numbers[39])
    owner = {1: 0, -1: 1, 0: None}[numbers[11]]
    try:
        position = Position(board, bar=(numbers[37], -numbers[12]), checkers=checkers)
    except TavolaError as error:
        raise PositionFileError(_("fields 12 to 37, the checkers: {error}").format(error=error)) from None
    try:
        return PositionRecord(
            position,
            dice=dice,
            cube_value=numbers[10],
            cube_owner=owner,
            match_length=numbers[0],
            score=(numbers[8], numbers[9]),
            crawford=bool(numbers[7]),
            jacoby=bool(numbers[1]) and not numbers[0],
            names=(fields[5].strip(), fields[6].strip()),
            seat=numbers[4],
        )
    except TavolaError as error:
        raise PositionFileError(_("a Snowie text position: {error}").format(error=error)) from None


def _number(fields: list[str], index: int) -> int:
    text = fields[index].strip()
    what = _(_WHAT[index]) if index in _WHAT else _("point {point}").format(point=index - 12)
    if _NUMBER.fullmatch(text) is None:
        message = _("field {index} ({what}): expected a whole number, not {text}")
        raise PositionFileError(message.format(index=index, what=what, text=repr(text[:20])))
    value = int(text)
    low, high = (-CHECKERS, CHECKERS) if 13 <= index <= 36 else _RANGES.get(index, (0, _MAX_FIELD_15))
    if not low <= value <= high:
        message = _("field {index} ({what}): expected {low} to {high}, not {value}")
        raise PositionFileError(message.format(index=index, what=what, low=low, high=high, value=value))
    return value


def encode_snowie(record: PositionRecord) -> str:
    """The Snowie text of ``record``, one line as gnubg writes it; a name holds no ``;``, no line break
    and no space at either end."""
    for name in record.names:
        if ";" in name or len(f"{name}.".splitlines()) > 1 or name != name.strip():
            message = _(
                "a name in a Snowie text position holds no ';', no line break, no space at an end: {name}"
            )
            raise PositionFileError(message.format(name=repr(name)))
    position = record.position
    owner = {None: 0, 0: 1, 1: -1}[record.cube_owner]
    fields: list[object] = [
        record.match_length,
        int(record.jacoby and not record.match_length),
        0,
        int(not record.match_length),
        record.seat,
        *record.names,
        int(record.crawford),
        *record.score,
        record.cube_value,
        owner,
        -position.bar[1],
        *position.board,
        position.bar[0],
        *record.dice,
    ]
    return "".join(f"{field};" for field in fields) + "\n"
