"""What a saved file is: the kinds of file Tavola reads, told apart in one place, and what their JSON shares.

A ``.mat`` file is a match or session in the format other programs read, an
``.sgf`` file one as GNU Backgammon saves it; a
``.json`` file says what it is in its ``format`` field: a match or session
(``tavola-record``), ``tavola play``'s autosave (``tavola-play``) or a
chouette (``tavola-chouette``). :func:`record_kind` tells them apart,
:func:`read_json_file` reads a JSON file with errors that name the file and
the line, and :func:`check_format` refuses JSON of another format.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     saved = Path(folder) / "table.json"
...     _ = saved.write_text('{"format": "tavola-chouette", "version": 1}')
...     record_kind(saved), record_kind(Path(folder) / "match.MAT")
('chouette', 'mat')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from tavola.errors import RecordError
from tavola.i18n import N_, _
from tavola.schema import JsonTextError, Says, parse_json

__all__ = [
    "AUTOSAVE_FORMAT",
    "CHOUETTE_FORMAT",
    "RECORD",
    "RECORD_FORMAT",
    "RecordKind",
    "TwoDice",
    "check_format",
    "json_kind",
    "read_json_file",
    "record_kind",
    "suffix_format",
]

RECORD_FORMAT = "tavola-record"
"""The ``format`` of Tavola's JSON record of a match or money session (:mod:`tavola.records.jsonfmt`)."""
AUTOSAVE_FORMAT = "tavola-play"
"""The ``format`` of ``tavola play``'s autosave (:mod:`tavola.records.autosave`)."""
CHOUETTE_FORMAT = "tavola-chouette"
"""The ``format`` of a chouette's record (:mod:`tavola.chouette.record`)."""

RecordKind = Literal["mat", "sgf", "record", "autosave", "chouette"]
"""What a saved file holds: a ``.mat`` or SGF file, a JSON record, an autosave or a chouette's record."""

_KINDS: dict[object, RecordKind] = {
    RECORD_FORMAT: "record",
    AUTOSAVE_FORMAT: "autosave",
    CHOUETTE_FORMAT: "chouette",
}


def suffix_format(path: str | os.PathLike[str]) -> Literal["mat", "sgf", "json"]:
    """The format a file's suffix names, ``.mat``, ``.sgf`` or ``.json`` in any case; another is refused.

    >>> suffix_format("match.mat"), suffix_format("match.SGF"), suffix_format("play.JSON")
    ('mat', 'sgf', 'json')
    >>> suffix_format("match.txt")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    tavola.errors.RecordError: match.txt: cannot tell the format from the suffix '.txt':
    use .mat, .sgf or .json
    """
    suffix = Path(path).suffix.lower()
    if suffix in (".mat", ".sgf", ".json"):
        return "mat" if suffix == ".mat" else "sgf" if suffix == ".sgf" else "json"
    raise RecordError(
        _("{path}: cannot tell the format from the suffix {suffix}: use .mat, .sgf or .json").format(
            path=path, suffix=repr(suffix)
        )
    )


def json_kind(data: object) -> RecordKind | None:
    """What JSON data says it is by its ``format`` field; None for any other data.

    >>> json_kind({"format": "tavola-play", "version": 1}), json_kind({"commitment": "..."})
    ('autosave', None)
    """
    return _KINDS.get(data.get("format")) if isinstance(data, dict) else None


def record_kind(path: str | os.PathLike[str]) -> RecordKind:
    """What the file at ``path`` holds: by its suffix, and for JSON by its ``format`` field.

    A JSON file that cannot be read, or says no known format, is taken for a
    JSON record, whose reader then says what is wrong with it; a suffix other
    than ``.mat``, ``.sgf`` and ``.json`` is refused (:func:`suffix_format`).
    """
    suffix = suffix_format(path)
    if suffix != "json":
        return suffix
    try:
        data = read_json_file(path)
    except (OSError, RecordError):
        return "record"
    return json_kind(data) or "record"


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """The JSON data in the file at ``path``; :class:`~tavola.errors.RecordError` naming the file (and
    the line) where it is not JSON text in UTF-8. An :class:`OSError` is left to the caller.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     broken = Path(folder) / "broken.json"
    ...     _ = broken.write_text('{"format":\\n')
    ...     try:
    ...         read_json_file(broken)
    ...     except RecordError as error:
    ...         print(str(error).removeprefix(f"{broken}: "))
    not valid JSON: line 2: Expecting value
    """
    try:
        return parse_json(Path(path).read_text(encoding="utf-8"))
    except JsonTextError as error:
        if error.line is None:
            message = _("{path}: not valid JSON: {error}")
        else:
            message = _("{path}: not valid JSON: line {line}: {error}")
        raise RecordError(
            message.format(path=path, line=error.line, error=error.reason), error.line
        ) from None
    except UnicodeDecodeError as error:
        message = _("{path}: not a JSON record (not UTF-8 text: {reason})")
        raise RecordError(message.format(path=path, reason=error.reason)) from None


TwoDice = Annotated[
    list[Annotated[int, Field(ge=1, le=6)]],
    Field(min_length=2, max_length=2),
    Says(N_("{where}.dice: two dice of 1 to 6, not {dice}"), "dice"),
]
"""The shape of a roll in a JSON record: ``[6, 2]``."""

RECORD = N_("the record")
"""What a JSON record is called where there is no field to name (translated where it is said)."""


def check_format(data: object, format: str, version: int) -> None:
    """Refuse a JSON object that says it is not of ``format`` and ``version``.

    Checked before any other field, since the other fields' shape depends on
    them; data that is no JSON object is left for its shape to refuse.

    >>> check_format({"format": "x", "version": 1}, "tavola-record", 1)
    Traceback (most recent call last):
    tavola.errors.RecordError: format/version: expected 'tavola-record' version 1, not 'x' version 1
    """
    if isinstance(data, dict) and (data.get("format") != format or data.get("version") != version):
        raise RecordError(
            _(
                "format/version: expected {format} version {version}, not {found} version {found_version}"
            ).format(
                format=repr(format),
                version=version,
                found=repr(data.get("format")),
                found_version=repr(data.get("version")),
            )
        )
