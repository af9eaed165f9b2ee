"""Analysis by playing out: rollouts of positions and plays (:mod:`tavola.analysis.rollout`), and the
exact statistics they gather (:mod:`tavola.analysis.stats`)."""

from __future__ import annotations

from tavola.analysis.rollout import (
    PlayRollout,
    RolloutError,
    RolloutResult,
    RolloutSettings,
    rollout_plays,
    rollout_position,
)
from tavola.analysis.stats import Estimate, Moments, merge

__all__ = [
    "Estimate",
    "Moments",
    "PlayRollout",
    "RolloutError",
    "RolloutResult",
    "RolloutSettings",
    "merge",
    "rollout_plays",
    "rollout_position",
]
