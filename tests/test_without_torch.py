"""Tavola without PyTorch: everything but training imports and runs, and training says what it needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BLOCKER = """
import importlib.abc
import sys


class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NoTorch())
"""


def run_without_torch(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run Python with ``arguments`` where ``import torch`` fails (a sitecustomize blocks it)."""
    (tmp_path / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    paths = [str(tmp_path), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
    return subprocess.run(
        [sys.executable, *arguments],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )


def test_the_blocker_blocks_torch(tmp_path: Path) -> None:
    result = run_without_torch(tmp_path, "-c", "import torch")
    assert result.returncode != 0
    assert "No module named 'torch'" in result.stderr


def test_the_training_modules_import_without_torch(tmp_path: Path) -> None:
    result = run_without_torch(
        tmp_path,
        "-c",
        "import tavola.train.td, tavola.train.distill, tavola.train.calibrate; print('imported')",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported"


@pytest.mark.parametrize("command", ["td", "distill"])
def test_a_training_command_without_torch_says_how_to_install_it(tmp_path: Path, command: str) -> None:
    arguments = (
        ["--games", "1"]
        if command == "td"
        else [
            "--weights",
            "w.npz",
            "--checkpoint",
            "c.pt",
            "--data",
            "d.npz",
            "--out",
            "o.pt",
            "--export",
            "o.npz",
        ]
    )
    result = run_without_torch(tmp_path, "-m", f"tavola.train.{command}", *arguments)
    assert result.returncode == 1
    assert "training needs PyTorch: pip install 'tavola[train]'" in result.stderr
