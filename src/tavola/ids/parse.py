"""Any ID of a position: reading one (Position ID, gnubg ID, XGID, Tavola ID, a Snowie text position),
writing the one that fits."""

from __future__ import annotations

import re

from tavola.errors import InvalidIdError
from tavola.i18n import _
from tavola.ids._checks import POSITION_ID_LENGTH, _checked_text, _shown
from tavola.ids.match_id import MatchState, decode_match_id
from tavola.ids.position_id import decode_position_id
from tavola.ids.snowie import decode_snowie, is_snowie
from tavola.ids.tavola_id import _TAVOLA_PREFIX, decode_tavola_id
from tavola.ids.xgid import _XGID_PREFIX, decode_xgid
from tavola.position import CHECKERS, Position

_GNUBG_ID = re.compile(r"([A-Za-z0-9+/]{14}):([A-Za-z0-9+/]{12})")


def parse_position(text: str, *, checkers: int = CHECKERS) -> Position:
    """The position in a gnubg Position ID, an XGID or a Tavola ID, seen from the player on roll.

    A gnubg ID (``POSITIONID:MATCHID``, as ``show gnubgid`` writes it) and a
    Snowie text position (:mod:`tavola.ids.snowie`) are also read; what they
    hold besides the position is checked but otherwise ignored. For an XGID the
    mover is the player on turn (see :class:`XgidState`). ``checkers`` is the
    number of checkers a side of the game played: the others are borne off in
    a Position ID or an XGID, and a Tavola ID must have that many.

    >>> parse_position('4HPwATDgc/ABMA') == Position.start()
    True
    >>> parse_position('-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10') == Position.start()
    True
    >>> parse_position('start')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: 'start' is neither a gnubg Position ID (14 characters) nor an XGID
    """
    text = _checked_text(text, "a position ID or XGID")
    if text[: len(_TAVOLA_PREFIX)].upper() == _TAVOLA_PREFIX:
        return decode_tavola_id(text, checkers=checkers)
    if is_snowie(text):
        return decode_snowie(text, checkers=checkers).position
    if is_xgid(text):
        return decode_xgid(text, checkers=checkers).position
    gnubg_id = _GNUBG_ID.fullmatch(text)
    if gnubg_id is not None:
        decode_match_id(gnubg_id.group(2))
        return decode_position_id(gnubg_id.group(1), checkers=checkers)
    if len(text) == POSITION_ID_LENGTH:
        return decode_position_id(text, checkers=checkers)
    raise InvalidIdError(
        _("{id} is neither a gnubg Position ID ({length} characters) nor an XGID").format(
            id=_shown(text), length=POSITION_ID_LENGTH
        )
    )


def gnubg_match_state(text: str) -> MatchState | None:
    """The Match ID's state of a gnubg ID (``POSITIONID:MATCHID``); None for any other ID.

    >>> gnubg_match_state("4HPwATDgc/ABMA:cAkgAQAAAAAE").match_length
    9
    >>> gnubg_match_state("4HPwATDgc/ABMA") is None
    True
    """
    found = _GNUBG_ID.fullmatch(text.strip())
    return None if found is None else decode_match_id(found.group(2))


def is_xgid(text: str) -> bool:
    """Whether ``text`` is written as an XGID (``XGID=`` or fields between colons), not another ID.

    >>> is_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"), is_xgid("4HPwATDgc/ABMA")
    (True, False)
    >>> is_xgid("TVL=--------------------------:15:15:15")
    False
    """
    text = text.strip().upper()
    if text.startswith(_TAVOLA_PREFIX):
        return False
    return text.startswith(_XGID_PREFIX) or text.count(":") >= 2


def position_text(position: Position) -> str:
    """The ID to write for ``position``: its gnubg Position ID, or its Tavola ID where it has none.

    (Checkers waiting to enter, in Acey-Deucey, have no place in a Position ID.)

    >>> position_text(Position.start())
    '4HPwATDgc/ABMA'
    >>> position_text(Position([0] * 24, waiting=(15, 15)))
    'TVL=--------------------------:15:15:15'
    """
    return position.position_id() if position.waiting == (0, 0) else position.tavola_id()
