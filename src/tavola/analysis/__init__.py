"""Analysis by playing out: rollouts of positions and plays (:mod:`tavola.analysis.rollout`), and the
exact statistics they gather (:mod:`tavola.analysis.stats`)."""

from __future__ import annotations

from tavola.analysis.rollout import (
    Cubeful,
    PlayRollout,
    RolloutError,
    RolloutResult,
    RolloutSettings,
    rollout_plays,
    rollout_position,
    rollout_positions,
)
from tavola.analysis.stats import Estimate, Moments, merge

__all__ = [
    "Cubeful",
    "Estimate",
    "Moments",
    "PlayRollout",
    "RolloutError",
    "RolloutResult",
    "RolloutSettings",
    "merge",
    "rollout_plays",
    "rollout_position",
    "rollout_positions",
]
