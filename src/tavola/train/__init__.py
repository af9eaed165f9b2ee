"""Training Tavola's networks (needs PyTorch: ``pip install 'tavola[train]'``).

PyTorch is imported only where training runs, so the rest of Tavola (and its
tests) works without it; the training commands call :func:`require_torch`
first, to say how to install it.
"""

from __future__ import annotations


def require_torch() -> None:
    """Import PyTorch, or raise a :class:`SystemExit` saying how to install it where it is missing."""
    try:
        import torch  # noqa: F401
    except ImportError as error:
        raise SystemExit("training needs PyTorch: pip install 'tavola[train]' (or torch==2.13.0)") from error
