"""GNU Backgammon's Position ID: 14 base64 characters for the checkers of both sides."""

from __future__ import annotations

from tavola.errors import InvalidIdError, InvalidPositionError
from tavola.i18n import N_, _
from tavola.ids._base64 import _base64_from_key, _key_from_base64
from tavola.ids._checks import POSITION_ID_LENGTH, _checked_int, _checked_text, _refuse_waiting, _shown
from tavola.position import CHECKERS, Position

_POSITION_KEY_BYTES = 10


def encode_position_id(position: Position) -> str:
    """The gnubg Position ID of ``position``, its mover being the player on roll.

    The key is a bit string: for each side, for each of its points 1 to 24
    and then its bar, as many 1s as it has checkers there followed by a 0;
    padded with 0s to 80 bits. The side **not** on roll comes first. (gnubg's
    manual says the player on roll comes first, but gnubg 1.07 itself puts
    the opponent first: ``set board AAAAAQAAAgAAAA`` leaves the player on
    roll with a checker on its 24-point and the opponent with one on the bar,
    and so does this module.)

    >>> encode_position_id(Position.start())
    '4HPwATDgc/ABMA'
    >>> encode_position_id(Position([0] * 23 + [1], bar=(0, 1)))
    'AAAAAQAAAgAAAA'
    """
    if not isinstance(position, Position):
        raise InvalidIdError(f"only a Position has a position ID, not {type(position).__name__}")
    _refuse_waiting(position, "a gnubg Position ID")
    mover, opponent = position.sides()
    key = 0
    bit = 0
    for count in opponent + mover:
        key |= ((1 << count) - 1) << bit
        bit += count + 1
    if bit > 8 * _POSITION_KEY_BYTES:
        raise InvalidIdError(
            _(
                "a position ID holds at most 30 checkers on the board and bars; this position has {count}"
            ).format(count=bit - 50)
        )
    return _base64_from_key(key, _POSITION_KEY_BYTES, POSITION_ID_LENGTH)


def decode_position_id(text: str, *, checkers: int = CHECKERS) -> Position:
    """The position a gnubg Position ID describes, seen from the player on roll.

    ``checkers`` is the number of checkers per side (15, or 3 in
    Hypergammon); checkers missing from the board are borne off. White space
    around the ID is ignored.

    >>> decode_position_id('4HPwATDgc/ABMA') == Position.start()
    True
    >>> decode_position_id('4HPwATDgc/ABM')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: a position ID has 14 characters, not 13: '4HPwATDgc/ABM'
    """
    text = _checked_text(text, "a position ID")
    _checked_int(checkers, "the number of checkers per side", 1, 127)
    if len(text) != POSITION_ID_LENGTH:
        raise InvalidIdError(
            _("a position ID has {length} characters, not {count}: {id}").format(
                length=POSITION_ID_LENGTH, count=len(text), id=_shown(text)
            )
        )
    key = _key_from_base64(text, _POSITION_KEY_BYTES, "position ID")
    counts: list[int] = []
    run = 0
    bit = 0
    while len(counts) < 50:
        if bit == 8 * _POSITION_KEY_BYTES:
            raise InvalidIdError(
                _(
                    "position ID {id}: its bits run out after {count} of the 50 points and bars "
                    "(more than 30 checkers on the board)"
                ).format(id=_shown(text), count=len(counts))
            )
        if key >> bit & 1:
            run += 1
        else:
            counts.append(run)
            run = 0
        bit += 1
    if key >> bit:
        raise InvalidIdError(
            _(
                "position ID {id}: bits left over after both sides' points and bars "
                "(bits {first} to 80 must be zero)"
            ).format(id=_shown(text), first=bit + 1)
        )
    opponent, mover = counts[:25], counts[25:]
    for side_counts, too_many in (
        (
            mover,
            N_(
                "position ID {id}: the player on roll has {count} checkers on the board, more than {checkers}"
            ),
        ),
        (
            opponent,
            N_("position ID {id}: the opponent has {count} checkers on the board, more than {checkers}"),
        ),
    ):
        if sum(side_counts) > checkers:
            raise InvalidIdError(
                _(too_many).format(id=_shown(text), count=sum(side_counts), checkers=checkers)
            )
    try:
        return Position.from_sides(mover, opponent, checkers=checkers)
    except InvalidPositionError as error:
        raise InvalidIdError(_("position ID {id}: {error}").format(id=_shown(text), error=error)) from error
