"""Tavola's own files: where they live, and saving them so that they are never lost or half-written.

:func:`data_file` says where the games at the terminal, the server's
default database and the solved hypergammon tables are kept;
:func:`keep_aside` moves a file out of the way without losing it.
:func:`write_atomically` is how Tavola writes every file it saves (records,
autosaves, networks, the bear-off database, training checkpoints): the new
content goes to a temporary file in the same folder, is flushed to the disk,
and is renamed over the old file in one step. A crash at any moment leaves
either the old file or the new one, never a mixture. The file keeps its
permissions when it is overwritten; a new file gets the usual ones, as the
umask says.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "note.txt", "first\\n")
>>> (folder / "note.txt").chmod(0o640)
>>> write_atomically(folder / "note.txt", "second\\n")
>>> (folder / "note.txt").read_text(), oct((folder / "note.txt").stat().st_mode & 0o777)
('second\\n', '0o640')
"""

from __future__ import annotations

import itertools
import os
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

Content = str | bytes | Callable[[BinaryIO], None]
"""What to write: text (written as UTF-8), bytes, or a function that writes into an open binary file."""


def write_atomically(path: str | os.PathLike[str], content: Content) -> None:
    """Replace ``path`` with ``content`` in one step, keeping its permissions; the folder must exist.

    A failure part way removes the temporary file and leaves ``path`` as it was.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None  # a new file: what the umask leaves of rw-rw-rw-
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            if isinstance(content, str):
                stream.write(content.encode("utf-8"))
            elif isinstance(content, bytes):
                stream.write(content)
            else:
                content(stream)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def data_file(name: str) -> Path:
    """Where Tavola keeps ``name``: ``$XDG_DATA_HOME/tavola`` (``~/.local/share`` by default).

    >>> data_file("autosave.json").name
    'autosave.json'
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tavola" / name


def keep_aside(path: Path, prefix: str) -> Path:
    """Move ``path`` to ``PREFIX-DATE-TIME.json`` beside it, never over a file kept before; the new path.

    Two kept in the same second get ``-2``, ``-3``... after the time.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     saved = Path(folder) / "autosave.json"
    ...     kept = []
    ...     for text in ("one", "two"):
    ...         _ = saved.write_text(text)
    ...         kept.append(keep_aside(saved, "unfinished"))
    ...     [path.read_text() for path in kept], kept[1].stem.endswith("-2"), saved.exists()
    (['one', 'two'], True, False)
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for number in itertools.count(1):
        kept = path.with_name(f"{prefix}-{stamp}{'' if number == 1 else f'-{number}'}{path.suffix}")
        try:
            os.link(path, kept)  # fails where a file of that name is kept already
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links
            if kept.exists():
                continue
            path.replace(kept)
            return kept
        path.unlink()
        return kept
    raise AssertionError("unreachable")
