"""Tavola's own ID, which holds every position of every variant (checkers waiting to enter too)."""

from __future__ import annotations

import re

from tavola.errors import InvalidIdError, InvalidPositionError
from tavola.i18n import _
from tavola.ids._checks import _checked_int, _checked_text, _shown
from tavola.ids.xgid import _board_letters, _xgid_sides
from tavola.position import Position

_TAVOLA_PREFIX = "TVL="
_TAVOLA_ID = re.compile(r"(?P<board>[^:]*):(?P<mine>\d{1,3}):(?P<theirs>\d{1,3}):(?P<checkers>\d{1,3})")


def encode_tavola_id(position: Position) -> str:
    """Tavola's own ID, which holds every position of every variant.

    ``TVL=`` then the 26-letter board of an XGID with the mover as the
    bottom player (capitals), then the mover's and the opponent's checkers
    waiting to enter (Acey-Deucey), then the checkers per side; the
    checkers borne off are the rest.

    >>> encode_tavola_id(Position.start())
    'TVL=-b----E-C---eE---c-e----B-:0:0:15'
    >>> encode_tavola_id(Position([0] * 24, waiting=(15, 15)))
    'TVL=--------------------------:15:15:15'
    """
    if not isinstance(position, Position):
        raise InvalidIdError(f"only a Position has a Tavola ID, not {type(position).__name__}")
    mover, opponent = position.sides()
    mine, theirs = position.waiting
    return f"{_TAVOLA_PREFIX}{_board_letters(mover, opponent)}:{mine}:{theirs}:{position.checkers}"


def decode_tavola_id(text: str, *, checkers: int | None = None) -> Position:
    """The position a Tavola ID describes, seen from the mover.

    The ID says how many checkers each side has; ``checkers``, where given, is
    the number the game is played with, and an ID with another is refused.

    >>> decode_tavola_id('TVL=-b----E-C---eE---c-e----B-:0:0:15') == Position.start()
    True
    >>> decode_tavola_id('TVL=-b----E-C---eE---c-e----B-:0:0:15', checkers=3)
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: Tavola ID 'TVL=-b----E-C---eE---c-e----B-:0:0:15': it has 15 checkers a \
side, not the 3 of the game played
    """
    text = _checked_text(text, "a Tavola ID")
    if checkers is not None:
        _checked_int(checkers, "the number of checkers per side", 1, 127)
    body = text[len(_TAVOLA_PREFIX) :] if text[: len(_TAVOLA_PREFIX)].upper() == _TAVOLA_PREFIX else text
    match = _TAVOLA_ID.fullmatch(body)
    if match is None:
        raise InvalidIdError(
            _("Tavola ID {id}: write TVL= then 26 board letters and three numbers, such as {example}").format(
                id=_shown(text), example="TVL=-b----E-C---eE---c-e----B-:0:0:15"
            )
        )
    mover, opponent = _xgid_sides(text, match.group("board"), "Tavola ID")
    count = _checked_int(int(match.group("checkers")), "the number of checkers per side", 1, 127)
    if checkers is not None and count != checkers:
        raise InvalidIdError(
            _("Tavola ID {id}: it has {count} checkers a side, not the {checkers} of the game played").format(
                id=_shown(text), count=count, checkers=checkers
            )
        )
    waiting = (int(match.group("mine")), int(match.group("theirs")))
    try:
        return Position.from_sides(mover, opponent, waiting=waiting, checkers=count)
    except InvalidPositionError as error:
        raise InvalidIdError(_("Tavola ID {id}: {error}").format(id=_shown(text), error=error)) from error
