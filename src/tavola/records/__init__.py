"""Saved matches and money sessions: the ``.mat`` format other programs read, and Tavola's JSON.

:func:`save` and :func:`load` choose the format by the file's suffix
(``.mat`` or ``.json``); both formats replay every game through the game API
when read, so a file that breaks the rules raises
:class:`~tavola.errors.RecordError` naming where.

>>> import tempfile
>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> match = Match(3, dice=RandomDice(seed=3))
>>> game = match.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> with tempfile.TemporaryDirectory() as folder:
...     save(match, Path(folder) / "match.mat")
...     read = load(Path(folder) / "match.mat")
>>> read.score, read.games[0].log == game.log
((1, 0), True)
"""

from __future__ import annotations

import os
from pathlib import Path

from tavola.dicesource import DiceSource
from tavola.errors import RecordError
from tavola.i18n import _
from tavola.records._common import Series
from tavola.records.jsonfmt import from_json, read_json, to_json, write_json
from tavola.records.mat import mat_text, parse_mat, read_mat, write_mat

__all__ = [
    "RecordError",
    "Series",
    "from_json",
    "load",
    "mat_text",
    "parse_mat",
    "read_json",
    "read_mat",
    "save",
    "to_json",
    "write_json",
    "write_mat",
]

_FORMATS = (".mat", ".json")


def _suffix(path: str | os.PathLike[str]) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in _FORMATS:
        raise RecordError(
            _("{path}: cannot tell the format from the suffix {suffix}: use .mat or .json").format(
                path=path, suffix=repr(suffix)
            )
        )
    return suffix


def load(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """Read a match or session from a ``.mat`` or ``.json`` file; later rolls come from ``dice``."""
    if _suffix(path) == ".mat":
        return read_mat(path, dice=dice)
    return read_json(path, dice=dice)


def save(series: Series, path: str | os.PathLike[str]) -> None:
    """Write a match or session to a ``.mat`` or ``.json`` file, atomically."""
    if _suffix(path) == ".mat":
        write_mat(series, path)
    else:
        write_json(series, path)
