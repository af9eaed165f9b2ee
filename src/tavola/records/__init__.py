"""Saved matches and money sessions: the ``.mat`` format other programs read, gnubg's SGF, Tavola's JSON.

:func:`save` and :func:`load` choose the format by the file's suffix
(``.mat``, ``.sgf`` or ``.json``); :func:`read_series` reads ``tavola play``'s
autosave as well, and :func:`record_kind` says what a saved file is (a
chouette's record too: :mod:`tavola.chouette.record`). Every format replays
every game through the game API when read, so a file that breaks the rules
raises :class:`~tavola.errors.RecordError` naming where.

>>> import tempfile
>>> from pathlib import Path
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

from tavola.dicesource import DiceSource
from tavola.errors import RecordError
from tavola.i18n import _
from tavola.match import Series
from tavola.records.autosave import autosave_series
from tavola.records.formats import (
    RECORD,
    RecordKind,
    TwoDice,
    check_format,
    json_kind,
    read_json_file,
    record_kind,
    suffix_format,
)
from tavola.records.jsonfmt import from_json, read_json, to_json, write_json
from tavola.records.mat import mat_text, parse_mat, read_mat, write_mat
from tavola.records.replay import ReplayDice, play_text
from tavola.records.sgf import SgfRecord, parse_sgf, read_sgf, read_sgf_record, sgf_text, write_sgf

__all__ = [
    "RECORD",
    "RecordError",
    "RecordKind",
    "ReplayDice",
    "SgfRecord",
    "TwoDice",
    "autosave_series",
    "check_format",
    "from_json",
    "json_kind",
    "load",
    "mat_text",
    "parse_mat",
    "parse_sgf",
    "play_text",
    "read_json",
    "read_json_file",
    "read_mat",
    "read_series",
    "read_sgf",
    "read_sgf_record",
    "record_kind",
    "save",
    "sgf_text",
    "suffix_format",
    "to_json",
    "write_json",
    "write_mat",
    "write_sgf",
]


def load(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """Read a match or session from a ``.mat``, ``.sgf`` or ``.json`` file; later rolls come from ``dice``."""
    suffix = suffix_format(path)
    if suffix == "mat":
        return read_mat(path, dice=dice)
    if suffix == "sgf":
        return read_sgf(path, dice=dice)
    return read_json(path, dice=dice)


def save(series: Series, path: str | os.PathLike[str]) -> None:
    """Write a match or session to a ``.mat``, ``.sgf`` or ``.json`` file, atomically."""
    suffix = suffix_format(path)
    if suffix == "mat":
        write_mat(series, path)
    elif suffix == "sgf":
        write_sgf(series, path)
    else:
        write_json(series, path)


def read_series(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """The match or session in a record (a ``.mat`` or SGF file, Tavola's JSON) or ``tavola play``'s autosave.

    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from tavola.match import MoneySession
    >>> saved = {"format": "tavola-play", "version": 1, "record": to_json(MoneySession(stake=2))}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "play.json").write_text(json.dumps(saved))
    ...     read_series(Path(folder) / "play.json").stake
    2
    """
    if record_kind(path) != "autosave":
        return load(path, dice=dice)
    try:
        return autosave_series(read_json_file(path), dice=dice)
    except RecordError as error:
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None
