"""Playing at a terminal: the two-player game (:mod:`.app`) and the chouette (:mod:`.chouette`)."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path


def data_file(name: str) -> Path:
    """Where the terminal games keep ``name``: ``$XDG_DATA_HOME/tavola`` (``~/.local/share`` by default).

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
