"""Jellyfish's ``.pos`` position file, binary, as gnubg exports and imports it.

Little-endian 16-bit words, then the names, then the dice and the board:

==========  ==================================================================
bytes       what they hold
==========  ==================================================================
0-5         126, 0, 0 (read past)
6           1 when the cube is in use
8           1 when the Jacoby rule applies (money)
10          1 when beavers are allowed (money)
12          the cube's value
14          its owner: 0 centred, 1 the first player, 2 the second
16          whose turn: 1 the first player's, rolled; 2 the second's, rolled;
            3 the first player's, to roll; 4 the second's, to roll
18-29       0, 0, 0, then 1 for a match (3 for money), 2, 7 (read past)
30          the match length, 0 for money
32, 34      the first player's score, the second's
36          each player's name, a byte for its length, then its bytes
then        7 bytes: 0, 0, the Crawford state (1 before, 2 in, 3 after the
            Crawford game; 1 for money), 0, 0, 0, 0
then        the dice, two words (0 and 0 before the roll)
then        26 slots of two words each, 20 + the checkers there: slot 0 the
            second player's bar, slots 1-24 the points numbered from the
            first player's side, slot 25 the first player's bar; the first
            player's checkers count negative, the second's positive. gnubg
            writes each slot's count twice and reads the first: so does Tavola.
==========  ==================================================================

The first player is gnubg's player 0 (``PositionRecord.seat`` 0).

>>> record = PositionRecord(Position.start(), dice=(5, 2), names=("Ann", "Ben"), seat=1)
>>> data = encode_jellyfish(record)
>>> len(data), decode_jellyfish(data) == record
(159, True)
"""

from __future__ import annotations

import struct

from tavola.errors import TavolaError
from tavola.i18n import _
from tavola.ids.positionfile import PositionFileError, PositionRecord
from tavola.position import CHECKERS, Position

__all__ = ["decode_jellyfish", "encode_jellyfish"]

_HEADER = struct.Struct("<18H")
_SLOT_BIAS = 20
_SLOTS = 26
_TAIL = struct.Struct(f"<{2 + 2 * _SLOTS}H")
_NAMES_AT = _HEADER.size
_GAP = 7  # bytes between the names and the dice; the third is the Crawford state
_BEFORE, _CRAWFORD_GAME, _AFTER = 1, 2, 3
_MATCH, _MONEY = 1, 3
_SHORTEST = _NAMES_AT + 2 + _GAP + _TAIL.size


def encode_jellyfish(record: PositionRecord) -> bytes:
    """The ``.pos`` bytes of ``record``, as gnubg writes them; a name is 255 bytes of UTF-8 at most."""
    seat = record.seat
    first = record.position if seat == 0 else record.position.flip()
    owner = 0 if record.cube_owner is None else 1 + (seat if record.cube_owner == 0 else 1 - seat)
    turn = 1 + seat + (0 if record.rolled else 2)
    score = record.score if seat == 0 else record.score[::-1]
    names = record.names if seat == 0 else record.names[::-1]
    money = not record.match_length
    header = _HEADER.pack(
        126, 0, 0,
        int(record.cube_used), int(record.jacoby and money), int(record.beavers and money),
        record.cube_value, owner, turn,
        0, 0, 0,
        _MONEY if money else _MATCH, 2, 7,
        record.match_length, *score,
    )  # fmt: skip
    named = b"".join(_name_bytes(name) for name in names)
    gap = bytes([0, 0, _crawford_state(record), 0, 0, 0, 0])
    slots = [first.bar[1], *(-count for count in first.board), -first.bar[0]]
    tail = _TAIL.pack(*record.dice, *(_SLOT_BIAS + count for count in slots for _copy in range(2)))
    return header + named + gap + tail


def _name_bytes(name: str) -> bytes:
    encoded = name.encode("utf-8")
    if len(encoded) > 255:
        raise PositionFileError(
            _("a name in a .pos file is 255 bytes at most: {name}").format(name=repr(name))
        )
    return bytes([len(encoded)]) + encoded


def _crawford_state(record: PositionRecord) -> int:
    if record.crawford:
        return _CRAWFORD_GAME
    if record.match_length and record.match_length - 1 in record.score:
        return _AFTER
    return _BEFORE


def decode_jellyfish(data: bytes, *, checkers: int = CHECKERS) -> PositionRecord:
    """The position in a ``.pos`` file's bytes; :class:`PositionFileError` names the byte that is wrong."""
    if len(data) < _SHORTEST:
        message = _("a .pos file is {least} bytes at least, not {count}")
        raise PositionFileError(message.format(least=_SHORTEST, count=len(data)))
    words = _HEADER.unpack_from(data)
    names, at = _names(data)
    expected = at + _GAP + _TAIL.size
    if len(data) != expected:
        message = _("a .pos file with these names is {expected} bytes long, not {count}")
        raise PositionFileError(message.format(expected=expected, count=len(data)))
    crawford_state = _allowed(
        data[at + 2], at + 2, (_BEFORE, _CRAWFORD_GAME, _AFTER), _("the Crawford state")
    )
    tail = _TAIL.unpack_from(data, at + _GAP)
    slots_at = at + _GAP + 4
    counts = [_slot(tail[2 + 2 * slot], slots_at + 4 * slot) for slot in range(_SLOTS)]
    for offset, what in ((6, _("the cube in use")), (8, _("the Jacoby rule")), (10, _("beavers"))):
        _allowed(words[offset // 2], offset, (0, 1), what)
    if words[6] not in [1 << power for power in range(16)]:
        message = _("byte 12 (the cube's value): expected a power of two from 1 to 32768, not {value}")
        raise PositionFileError(message.format(value=words[6]))
    owner = _allowed(words[7], 14, (0, 1, 2), _("the cube's owner"))
    turn = _allowed(words[8], 16, (1, 2, 3, 4), _("whose turn it is"))
    seat = (turn - 1) % 2
    dice = (tail[0], tail[1]) if turn <= 2 else (0, 0)
    if not all(1 <= die <= 6 for die in dice) and dice != (0, 0):
        message = _("byte {offset} (the dice, rolled): expected two dice of 1 to 6, not {dice}")
        raise PositionFileError(message.format(offset=at + _GAP, dice=dice))
    if turn <= 2 and dice == (0, 0):
        message = _("byte 16 (whose turn it is): {turn} says the dice are rolled, but they are 0 and 0")
        raise PositionFileError(message.format(turn=turn))
    try:
        first = Position([-count for count in counts[1:25]], bar=(-counts[25], counts[0]), checkers=checkers)
    except TavolaError as error:
        message = _("bytes {start} to {end}, the checkers: {error}")
        raise PositionFileError(message.format(start=slots_at, end=len(data) - 1, error=error)) from None
    length, score = words[15], (words[16], words[17])
    if seat:
        score, names = score[::-1], names[::-1]
    try:
        return PositionRecord(
            first if seat == 0 else first.flip(),
            dice=dice,
            cube_value=words[6],
            cube_owner=None if owner == 0 else int(owner - 1 != seat),
            match_length=length,
            score=score,
            crawford=crawford_state == _CRAWFORD_GAME,
            jacoby=bool(words[4]) and not length,
            beavers=bool(words[5]) and not length,
            cube_used=bool(words[3]),
            names=names,
            seat=seat,
        )
    except TavolaError as error:
        raise PositionFileError(
            _("bytes 12 to 35 (the cube and the score): {error}").format(error=error)
        ) from None


def _names(data: bytes) -> tuple[tuple[str, str], int]:
    """The two names from byte 36 on, and the byte after them."""
    at, names = _NAMES_AT, []
    for _player in range(2):
        if at >= len(data):
            raise PositionFileError(_("byte {at}: the file ends before a name's length").format(at=at))
        length = data[at]
        raw = data[at + 1 : at + 1 + length]
        if len(raw) != length:
            raise PositionFileError(_("byte {at}: the file ends inside a name").format(at=at))
        try:
            names.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            names.append(raw.decode("latin-1"))
        at += 1 + length
    return (names[0], names[1]), at


def _allowed(value: int, offset: int, allowed: tuple[int, ...], what: str) -> int:
    """``value``, read at byte ``offset``, if it is one of ``allowed``."""
    if value not in allowed:
        message = _("byte {offset} ({what}): expected {allowed}, not {value}")
        shown = ", ".join(map(str, allowed))
        raise PositionFileError(message.format(offset=offset, what=what, allowed=shown, value=value))
    return value


def _slot(word: int, offset: int) -> int:
    count = word - _SLOT_BIAS
    if not -CHECKERS <= count <= CHECKERS:
        message = _("byte {offset} (a point's checkers, 20 plus the count): expected 5 to 35, not {value}")
        raise PositionFileError(message.format(offset=offset, value=word))
    return count
