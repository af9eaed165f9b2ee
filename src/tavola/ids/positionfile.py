"""Position files players exchange: Snowie's text position (``.txt``) and Jellyfish's ``.pos``.

Each holds one position and what goes with it: whose turn, the dice, the
cube, the match score (or money and its rules) and the players' names, which
:class:`PositionRecord` keeps, seen from the player on roll as every ID is.
:func:`read_position_file` reads either (by its suffix, else by what it
holds), :func:`write_position_file` writes either; a file that cannot be read
raises :class:`PositionFileError` naming the field or the byte.

>>> import tempfile
>>> from pathlib import Path
>>> record = PositionRecord(Position.start(), dice=(3, 1), match_length=7, score=(2, 4), names=("Ann", "Ben"))
>>> with tempfile.TemporaryDirectory() as folder:
...     write_position_file(record, Path(folder) / "start.pos")
...     read_position_file(Path(folder) / "start.pos") == record
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tavola.errors import InvalidIdError
from tavola.files import write_atomically
from tavola.i18n import _
from tavola.ids._checks import (
    _MAX_FIELD_15,
    _check_cube_state,
    _check_match_state,
    _checked_cube,
    _checked_dice,
    _checked_int,
    _refuse_waiting,
)
from tavola.position import CHECKERS, Position

__all__ = ["PositionFileError", "PositionRecord", "read_position_file", "write_position_file"]


class PositionFileError(InvalidIdError):
    """A Snowie or Jellyfish position file that cannot be read: the message names the field or the byte
    and what was expected there."""


@dataclass(frozen=True)
class PositionRecord:
    """A position as a position file holds it, seen from the player on roll.

    ``dice`` is ``(0, 0)`` before the roll and keeps the file's order;
    ``cube_owner`` is 0 for the player on roll, 1 for the opponent, None
    when centred; ``score`` and ``names`` put the player on roll first;
    ``match_length`` is 0 for money, where ``jacoby`` and ``beavers`` say the
    rules; ``seat`` is which of the file's two players (gnubg's 0 or 1) is
    on roll. Only what a game reaches is accepted:

    >>> PositionRecord(Position.start(), cube_value=2, match_length=5, score=(4, 0), crawford=True)
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: no doubling in the Crawford game (P2): the cube stays at 1 in the middle
    """

    position: Position
    dice: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_used: bool = True
    names: tuple[str, str] = ("", "")
    seat: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise InvalidIdError(f"the position is a Position, not {type(self.position).__name__}")
        _refuse_waiting(self.position, "a gnubg Position ID")
        _checked_dice(self.dice)
        _checked_cube(self.cube_value, "the cube value")
        if self.cube_owner is not None:
            _checked_int(self.cube_owner, "the cube owner (None when centred)", 0, 1)
        length = _checked_int(self.match_length, "the match length (0 for money)", 0, _MAX_FIELD_15)
        top = length - 1 if length else _MAX_FIELD_15
        _checked_int(self.score[0], "player 0's score", 0, top)
        _checked_int(self.score[1], "player 1's score", 0, top)
        _check_match_state(length, self.score, self.crawford)
        _check_cube_state(self.cube_value, self.cube_owner is not None, False, self.crawford)
        _checked_int(self.seat, "the player on roll", 0, 1)

    @property
    def rolled(self) -> bool:
        """Whether the player on roll has rolled the dice."""
        return self.dice != (0, 0)


def read_position_file(path: str | os.PathLike[str], *, checkers: int = CHECKERS) -> PositionRecord:
    """The position in a Snowie text file or a Jellyfish ``.pos`` file: ``.pos`` by its suffix, a Snowie
    text by its suffix ``.txt`` or by holding one line of fields between ``;``; errors name the file."""
    from tavola.ids.jellyfish import decode_jellyfish
    from tavola.ids.snowie import decode_snowie, is_snowie

    raw = Path(path).read_bytes()
    try:
        if Path(path).suffix.lower() == ".pos":
            return decode_jellyfish(raw, checkers=checkers)
        text = _text(raw)
        if Path(path).suffix.lower() == ".txt" or (text is not None and is_snowie(text)):
            if text is None:
                raise PositionFileError(_("a Snowie text position is text, not binary data"))
            return decode_snowie(text, checkers=checkers)
        return decode_jellyfish(raw, checkers=checkers)
    except PositionFileError as error:
        raise PositionFileError(_("{path}: {error}").format(path=path, error=error)) from None


def write_position_file(record: PositionRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path``, atomically: Jellyfish's ``.pos`` for that suffix, Snowie's text else."""
    from tavola.ids.jellyfish import encode_jellyfish
    from tavola.ids.snowie import encode_snowie

    if Path(path).suffix.lower() == ".pos":
        write_atomically(path, encode_jellyfish(record))
    else:
        write_atomically(path, encode_snowie(record))


def _text(raw: bytes) -> str | None:
    """``raw`` as text (UTF-8, else Latin-1), or None if it holds bytes no text file holds."""
    if any(byte < 0x20 and byte not in b"\t\r\n" for byte in raw):
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
