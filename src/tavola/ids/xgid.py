"""eXtreme Gammon's XGID: the position and the match state in one line of text."""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tavola.errors import InvalidIdError, InvalidPositionError
from tavola.i18n import N_, _
from tavola.ids._checks import (
    _MAX_FIELD_15,
    _check_cube_state,
    _check_match_state,
    _checked_cube,
    _checked_dice,
    _checked_int,
    _checked_text,
    _refuse_waiting,
    _shown,
)
from tavola.position import CHECKERS, Position


class XgidSide(enum.IntEnum):
    """A player as an XGID names it: the one at the bottom of the board or on top.

    The bottom player's checkers are the capital letters and the 24 points of
    the position field are numbered from its side; gnubg reads the bottom
    player as its player 1 (X) and the top player as its player 0 (O).
    """

    BOTTOM = 1
    TOP = -1


class XgidStage(enum.Enum):
    """Where the player on turn is in its turn: the XGID's dice field."""

    TO_ROLL = "00"
    """To roll or double."""
    ROLLED = "rolled"
    """Has rolled the dice in :attr:`XgidState.dice` and must play them."""
    DOUBLED = "D"
    """Has doubled; the opponent must take or drop."""
    BEAVERED = "B"
    """Has doubled and the opponent has beavered."""
    RACCOONED = "R"
    """Has doubled, the opponent has beavered, and the player has raccooned."""


_XGID_PREFIX = "XGID="
_XGID_FIELDS = 10
_XGID_NUMBER = re.compile(r"-?[0-9]{1,9}")
_XGID_DICE = re.compile(r"[1-6]{2}")
_XGID_MAX_PER_POINT = 16  # "A".."P" and "a".."p"
_MAX_CUBE_POWER = 15


@dataclass(frozen=True)
class XgidState:
    """Everything an XGID holds.

    ``position`` is seen from the player on turn (``turn``): its mover is
    that player. When ``turn`` is :attr:`XgidSide.BOTTOM` the mover's
    checkers are the XGID's capital letters. In a doubled, beavered or
    raccooned state the player on turn is the one who doubled (and who will
    roll): gnubg 1.07 reads ``D`` that way, stepping back to that player's
    cube decision.

    ``cube_value`` and ``max_cube`` are values (1, 2, 4, ...); the XGID writes
    their base-2 logarithms. ``cube_owner`` is ``None`` when the cube is
    centred. ``dice`` is ``(0, 0)`` unless ``stage`` is
    :attr:`XgidStage.ROLLED`, and keeps the order the XGID writes the dice in.
    ``crawford_jacoby`` is the XGID's Crawford/Jacoby field: in a match 1 for
    the Crawford game, else 0; in a money game 1 for the Jacoby rule plus 2
    for beavers. ``match_length`` is 0 for a money game.

    >>> state = decode_xgid('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10')
    >>> state.turn, state.stage, state.dice, state.jacoby, state.beavers, state.max_cube
    (<XgidSide.BOTTOM: 1>, <XgidStage.ROLLED: 'rolled'>, (5, 2), True, True, 1024)
    """

    position: Position
    turn: XgidSide = XgidSide.BOTTOM
    stage: XgidStage = XgidStage.TO_ROLL
    dice: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: XgidSide | None = None
    score_bottom: int = 0
    score_top: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 1 << 10

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise InvalidIdError(f"the position is a Position, not {type(self.position).__name__}")
        mover, opponent = self.position.sides()
        if max(mover + opponent) > _XGID_MAX_PER_POINT:
            raise InvalidIdError(
                _("an XGID holds at most {most} checkers on a point or a bar, not {count}").format(
                    most=_XGID_MAX_PER_POINT, count=max(mover + opponent)
                )
            )
        object.__setattr__(self, "turn", _checked_side(self.turn, "the player on turn"))
        if self.cube_owner is not None:
            object.__setattr__(self, "cube_owner", _checked_side(self.cube_owner, "the cube owner"))
        if not isinstance(self.stage, XgidStage):
            raise InvalidIdError(f"the stage is an XgidStage, not {self.stage!r}")
        dice = _checked_dice(self.dice)
        if (self.stage is XgidStage.ROLLED) != (dice != (0, 0)):
            raise InvalidIdError(
                _("the dice are rolled exactly when the stage is ROLLED, not {stage} with {dice}").format(
                    stage=self.stage, dice=dice
                )
            )
        _checked_cube(self.cube_value, "the cube value", "an XGID")
        _checked_cube(self.max_cube, "the maximum cube")
        length = _checked_int(self.match_length, "the match length (0 for money)", 0, _MAX_FIELD_15)
        top = length - 1 if length else _MAX_FIELD_15
        _checked_int(self.score_bottom, "the bottom player's score", 0, top)
        _checked_int(self.score_top, "the top player's score", 0, top)
        if length:
            _checked_int(self.crawford_jacoby, "the Crawford flag in a match", 0, 1)
        else:
            _checked_int(self.crawford_jacoby, "the Jacoby/beaver field in a money game", 0, 3)
        _check_match_state(length, (self.score_bottom, self.score_top), self.crawford)
        doubled = self.stage in (XgidStage.DOUBLED, XgidStage.BEAVERED, XgidStage.RACCOONED)
        _check_cube_state(self.cube_value, self.cube_owner is not None, doubled, self.crawford)

    @property
    def crawford(self) -> bool:
        """Whether this is the Crawford game of a match."""
        return bool(self.match_length and self.crawford_jacoby)

    @property
    def jacoby(self) -> bool:
        """Whether the Jacoby rule applies (money games only)."""
        return not self.match_length and bool(self.crawford_jacoby & 1)

    @property
    def beavers(self) -> bool:
        """Whether beavers are allowed (money games only)."""
        return not self.match_length and bool(self.crawford_jacoby & 2)


def _checked_side(value: object, what: str) -> XgidSide:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (1, -1):
        raise InvalidIdError(f"{what} is XgidSide.BOTTOM (1) or XgidSide.TOP (-1), not {value!r}")
    return XgidSide(value)


def _xgid_letter(count: int, bottom: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if bottom else ord("a")) + count - 1)


def _board_letters(bottom: Sequence[int], top: Sequence[int]) -> str:
    """The 26-letter board of an XGID: index 0 the top player's bar, 1-24 the points numbered
    from the bottom player's side, 25 the bottom player's bar; capitals are the bottom player's."""
    letters = [_xgid_letter(top[24], bottom=False)]
    for point in range(1, 25):
        mine, theirs = bottom[point - 1], top[24 - point]
        letters.append(_xgid_letter(mine, bottom=True) if mine else _xgid_letter(theirs, bottom=False))
    letters.append(_xgid_letter(bottom[24], bottom=True))
    return "".join(letters)


def encode_xgid(state: XgidState) -> str:
    """The XGID of ``state``, with its ``XGID=`` prefix.

    >>> encode_xgid(XgidState(Position.start(), stage=XgidStage.ROLLED, dice=(5, 2), crawford_jacoby=3))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
    """
    if not isinstance(state, XgidState):
        raise InvalidIdError(f"only an XgidState has an XGID, not {type(state).__name__}")
    _refuse_waiting(state.position, "an XGID")
    mover, opponent = state.position.sides()
    bottom, top = (mover, opponent) if state.turn is XgidSide.BOTTOM else (opponent, mover)
    rolled = state.stage is XgidStage.ROLLED
    dice = f"{state.dice[0]}{state.dice[1]}" if rolled else state.stage.value
    fields = [
        _board_letters(bottom, top),
        str(state.cube_value.bit_length() - 1),
        "0" if state.cube_owner is None else str(int(state.cube_owner)),
        str(int(state.turn)),
        dice,
        str(state.score_bottom),
        str(state.score_top),
        str(state.crawford_jacoby),
        str(state.match_length),
        str(state.max_cube.bit_length() - 1),
    ]
    return _XGID_PREFIX + ":".join(fields)


_XGID_FIELD_ERRORS: dict[str, tuple[str, str]] = {
    "the cube (a power of two)": (
        N_("XGID {id}: the cube (a power of two) is a whole number, not {field}"),
        N_("XGID {id}: the cube (a power of two) is {low} to {high}, not {value}"),
    ),
    "the cube position": (
        N_("XGID {id}: the cube position is a whole number, not {field}"),
        N_("XGID {id}: the cube position is {low} to {high}, not {value}"),
    ),
    "the player on turn": (
        N_("XGID {id}: the player on turn is a whole number, not {field}"),
        N_("XGID {id}: the player on turn is {low} to {high}, not {value}"),
    ),
    "the bottom player's score": (
        N_("XGID {id}: the bottom player's score is a whole number, not {field}"),
        N_("XGID {id}: the bottom player's score is {low} to {high}, not {value}"),
    ),
    "the top player's score": (
        N_("XGID {id}: the top player's score is a whole number, not {field}"),
        N_("XGID {id}: the top player's score is {low} to {high}, not {value}"),
    ),
    "the Crawford/Jacoby field": (
        N_("XGID {id}: the Crawford/Jacoby field is a whole number, not {field}"),
        N_("XGID {id}: the Crawford/Jacoby field is {low} to {high}, not {value}"),
    ),
    "the match length": (
        N_("XGID {id}: the match length is a whole number, not {field}"),
        N_("XGID {id}: the match length is {low} to {high}, not {value}"),
    ),
    "the maximum cube (power of two)": (
        N_("XGID {id}: the maximum cube (power of two) is a whole number, not {field}"),
        N_("XGID {id}: the maximum cube (power of two) is {low} to {high}, not {value}"),
    ),
}
"""What is wrong with a numeric field of an XGID, by the field: not a number, out of range."""


def _xgid_number(text: str, field: str, what: str, low: int, high: int) -> int:
    """The number in a field of an XGID; ``what`` names the field, a key of :data:`_XGID_FIELD_ERRORS`."""
    not_a_number, out_of_range = _XGID_FIELD_ERRORS[what]
    if not _XGID_NUMBER.fullmatch(field):
        raise InvalidIdError(_(not_a_number).format(id=_shown(text), field=repr(field)))
    value = int(field)
    if not low <= value <= high:
        raise InvalidIdError(_(out_of_range).format(id=_shown(text), low=low, high=high, value=value))
    return value


_BOARD_ERRORS: dict[str, tuple[str, str, str, str]] = {
    "XGID": (
        N_("XGID {id}: its position field has 26 characters, not {count}"),
        N_(
            "XGID {id}: the first character is the top player's bar, "
            "so it cannot hold the bottom player's {char}"
        ),
        N_(
            "XGID {id}: the last character is the bottom player's bar, "
            "so it cannot hold the top player's {char}"
        ),
        N_("XGID {id}: {char} (character {index} of the position) is not '-', A-P or a-p"),
    ),
    "Tavola ID": (
        N_("Tavola ID {id}: its position field has 26 characters, not {count}"),
        N_(
            "Tavola ID {id}: the first character is the top player's bar, "
            "so it cannot hold the bottom player's {char}"
        ),
        N_(
            "Tavola ID {id}: the last character is the bottom player's bar, "
            "so it cannot hold the top player's {char}"
        ),
        N_("Tavola ID {id}: {char} (character {index} of the position) is not '-', A-P or a-p"),
    ),
}
"""What is wrong with the 26-letter board of an XGID or a Tavola ID: its length, a checker on the
wrong bar (top, then bottom), a stray character."""


def _xgid_sides(text: str, board: str, what: str = "XGID") -> tuple[list[int], list[int]]:
    """Each side's counts from its own side, (bottom, top), from the 26-letter position field.

    ``what`` is the kind of ID, a key of :data:`_BOARD_ERRORS`.
    """
    wrong_length, bottom_on_top_bar, top_on_bottom_bar, stray = _BOARD_ERRORS[what]
    if len(board) != 26:
        raise InvalidIdError(_(wrong_length).format(id=_shown(text), count=len(board)))
    bottom = [0] * 25
    top = [0] * 25
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "P":
            if index == 0:
                raise InvalidIdError(_(bottom_on_top_bar).format(id=_shown(text), char=repr(char)))
            bottom[index - 1] = ord(char) - ord("A") + 1  # index 25 is bottom[24], its bar
        elif "a" <= char <= "p":
            if index == 25:
                raise InvalidIdError(_(top_on_bottom_bar).format(id=_shown(text), char=repr(char)))
            top[24 if index == 0 else 24 - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidIdError(_(stray).format(id=_shown(text), char=repr(char), index=index + 1))
    return bottom, top


def decode_xgid(text: str, *, checkers: int = CHECKERS) -> XgidState:
    """The :class:`XgidState` an XGID describes; the ``XGID=`` prefix is optional.

    The ten fields, separated by colons, are: the position (26 characters:
    the top player's bar, the points 1-24 numbered from the bottom player's
    side, the bottom player's bar; ``-`` empty, ``A``-``P`` one to sixteen of
    the bottom player's checkers, ``a``-``p`` the top player's), the cube as
    a power of two, the cube's position (1 bottom, 0 centred, -1 top), the
    player on turn (1 bottom, -1 top), the dice (two digits, ``00`` to roll,
    ``D`` doubled, ``B`` beavered, ``R`` raccooned), the bottom and the top
    player's scores, the Crawford/Jacoby field, the match length and the
    maximum cube as a power of two. Checkers missing from the board are
    borne off (``checkers`` per side).

    >>> decode_xgid('-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10').position == Position.start()
    True
    >>> decode_xgid('-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: XGID '-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7': it has 10 fields \
separated by colons, not 9
    """
    text = _checked_text(text, "an XGID")
    _checked_int(checkers, "the number of checkers per side", 1, 127)
    body = text[len(_XGID_PREFIX) :] if text[: len(_XGID_PREFIX)].upper() == _XGID_PREFIX else text
    fields = body.split(":")
    if len(fields) != _XGID_FIELDS:
        raise InvalidIdError(
            _("XGID {id}: it has {fields} fields separated by colons, not {count}").format(
                id=_shown(text), fields=_XGID_FIELDS, count=len(fields)
            )
        )
    board, cube, owner, turn, dice_text, score_bottom, score_top, rules, length, max_cube = fields
    bottom, top = _xgid_sides(text, board)
    cube_power = _xgid_number(text, cube, "the cube (a power of two)", 0, _MAX_CUBE_POWER)
    owner_value = _xgid_number(text, owner, "the cube position", -1, 1)
    turn_value = _xgid_number(text, turn, "the player on turn", -1, 1)
    if turn_value == 0:
        raise InvalidIdError(
            _("XGID {id}: the player on turn is 1 (bottom) or -1 (top), not 0").format(id=_shown(text))
        )
    dice = (0, 0)
    if dice_text == "00":
        stage = XgidStage.TO_ROLL
    elif dice_text in ("D", "B", "R"):
        stage = XgidStage(dice_text)
    elif _XGID_DICE.fullmatch(dice_text):
        stage = XgidStage.ROLLED
        dice = (int(dice_text[0]), int(dice_text[1]))
    else:
        raise InvalidIdError(
            _("XGID {id}: the dice field is two dice 1-6, 00, D, B or R, not {dice}").format(
                id=_shown(text), dice=repr(dice_text)
            )
        )
    side = XgidSide(turn_value)
    mover, opponent = (bottom, top) if side is XgidSide.BOTTOM else (top, bottom)
    for counts, too_many in (
        (bottom, N_("XGID {id}: the bottom player has {count} checkers on the board, more than {checkers}")),
        (top, N_("XGID {id}: the top player has {count} checkers on the board, more than {checkers}")),
    ):
        if sum(counts) > checkers:
            raise InvalidIdError(_(too_many).format(id=_shown(text), count=sum(counts), checkers=checkers))
    try:
        position = Position.from_sides(mover, opponent, checkers=checkers)
    except InvalidPositionError as error:
        raise InvalidIdError(_("XGID {id}: {error}").format(id=_shown(text), error=error)) from error
    bottom_score = _xgid_number(text, score_bottom, "the bottom player's score", 0, _MAX_FIELD_15)
    top_score = _xgid_number(text, score_top, "the top player's score", 0, _MAX_FIELD_15)
    crawford_jacoby = _xgid_number(text, rules, "the Crawford/Jacoby field", 0, 3)
    match_length = _xgid_number(text, length, "the match length", 0, _MAX_FIELD_15)
    max_power = _xgid_number(text, max_cube, "the maximum cube (power of two)", 0, _MAX_CUBE_POWER)
    try:
        return XgidState(
            position=position,
            turn=side,
            stage=stage,
            dice=dice,
            cube_value=1 << cube_power,
            cube_owner=None if owner_value == 0 else XgidSide(owner_value),
            score_bottom=bottom_score,
            score_top=top_score,
            crawford_jacoby=crawford_jacoby,
            match_length=match_length,
            max_cube=1 << max_power,
        )
    except InvalidIdError as error:
        raise InvalidIdError(_("XGID {id}: {error}").format(id=_shown(text), error=error)) from None
