"""Saved files: written whole or not at all, keeping their permissions."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavola import records
from tavola.dicesource import RandomDice
from tavola.files import write_atomically
from tavola.match import Match


@pytest.fixture
def umask() -> Iterator[None]:
    """Tests set the umask they need; it is put back afterwards."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
@pytest.mark.parametrize("kept", [0o644, 0o600, 0o664])
def test_overwriting_a_save_keeps_its_permissions(tmp_path: Path, kept: int) -> None:
    path = tmp_path / "match.json"
    path.write_text("{}")
    path.chmod(kept)
    records.save(Match(3, dice=RandomDice(seed=1)), path)
    assert mode(path) == kept
    assert records.load(path).length == 3


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_save_gets_what_the_umask_allows(tmp_path: Path, mask: int, expected: int) -> None:
    old = os.umask(mask)
    try:
        records.save(Match(3, dice=RandomDice(seed=1)), tmp_path / "match.mat")
    finally:
        os.umask(old)
    assert mode(tmp_path / "match.mat") == expected


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "weights.npz"
    path.write_bytes(b"old")

    def broken(file: object) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, broken)
    assert path.read_bytes() == b"old"
    assert [entry.name for entry in tmp_path.iterdir()] == ["weights.npz"]
