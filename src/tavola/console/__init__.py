"""Playing at a terminal: the two-player game (:mod:`.app`) and the chouette (:mod:`.chouette`)."""

from __future__ import annotations

import os
from pathlib import Path


def data_file(name: str) -> Path:
    """Where the terminal games keep ``name``: ``$XDG_DATA_HOME/tavola`` (``~/.local/share`` by default).

    >>> data_file("autosave.json").name
    'autosave.json'
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tavola" / name
