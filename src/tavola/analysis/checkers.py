"""Checker plays judged in batches: every decision's plays through one shared search.

A :class:`PlaySpot` is a position and roll with its legal plays (as the
game generated them), the cube context, and the play made, if any. :func:`judge_spots`
judges the plays of all the spots it is given at once: their results go
through :meth:`SharedSearch.plays <tavola.bot.search.SharedSearch.plays>`
together, narrowed by the move filter group by group, the play made kept to
the full depth whatever the filter says; the plays that reach the full depth
are then ranked by their cubeful value (:meth:`CubeContext.after_play
<tavola.bot.context.CubeContext.after_play>`).

>>> from tavola import Dice, Position
>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.bot.search import SharedSearch, best_first
>>> from tavola.bot.context import CubeContext
>>> from tavola.cube import Cube
>>> from tavola.rules import Rules
>>> legal = Position.start().legal_plays(Dice(3, 1))
>>> spot = PlaySpot(legal, CubeContext(0, Cube(), Rules()), legal[0])
>>> [judged] = judge_spots(SharedSearch(Evaluator.untrained(hidden=8, seed=1)), [spot], 1)
>>> judged.played is not None and judged.best.equity >= judged.played.equity
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tavola.analysis.model import OBVIOUS, Alternative
from tavola.bot.context import CubeContext
from tavola.bot.continuation import NEXT, kinds_of
from tavola.bot.search import SharedSearch, best_first
from tavola.play import LegalPlays, Play

SHOWN = 5
"""How many of the best plays a judged move keeps as alternatives (the play made is kept besides)."""


@dataclass(frozen=True)
class PlaySpot:
    """A position and roll to judge: its legal plays, the cube context, and the play made (None: only valued);
    ``chosen_double`` when the roll is the double an Acey-Deucey player chose after a 1-2 (V2)."""

    legal: LegalPlays
    context: CubeContext
    played: Play | None = None
    chosen_double: bool = False


@dataclass(frozen=True)
class JudgedSpot:
    """A spot's plays judged: the alternatives (best first, the play made among them), the best, the
    play made, and their values in the series' terms (points per unit of the cube, or match winning
    chances); ``obvious`` when every other play is :data:`~tavola.analysis.model.OBVIOUS` worse."""

    alternatives: tuple[Alternative, ...]
    best: Alternative
    played: Alternative | None
    best_value: float
    played_value: float | None
    obvious: bool


def judge_spots(search: SharedSearch, spots: Sequence[PlaySpot], plies: int) -> list[JudgedSpot]:
    """Judge the plays of every spot at ``plies``, all in one search call; in Acey-Deucey a play its
    player goes on after (a 1-2 or a chosen double played in full) by what follows it, as the bot
    judges it (:func:`tavola.bot.continuation.kinds`)."""
    if not spots:
        return []
    sizes = np.array([len(spot.legal) for spot in spots], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    results = np.concatenate([spot.legal.results for spot in spots])
    played_rows = [None if spot.played is None else spot.legal.row_of(spot.played.after) for spot in spots]
    keep = np.array(
        [offsets[group] + row for group, row in enumerate(played_rows) if row is not None], dtype=np.int64
    )
    kinds = np.concatenate([kinds_of(spot.legal, spot.chosen_double) for spot in spots])
    going_on = bool((kinds != NEXT).any())  # Acey-Deucey plays its mover follows with another (V2)
    judged = search.plays(offsets, results, plies, keep=keep, kinds=kinds if going_on else None)
    out = []
    for group, spot in enumerate(spots):
        rows = slice(int(offsets[group]), int(offsets[group + 1]))
        out.append(
            _judged(
                spot,
                played_rows[group],
                judged.probabilities[rows],
                judged.equities[rows],
                judged.plies[rows],
            )
        )
    return out


def _judged(
    spot: PlaySpot,
    played_row: int | None,
    probabilities: np.ndarray,
    equities: np.ndarray,
    plies: np.ndarray,
) -> JudgedSpot:
    deepest = int(plies.max())
    rows = np.flatnonzero(plies == deepest)
    if played_row is not None and played_row not in rows:
        rows = np.append(rows, played_row)
    context = spot.context
    values = context.after_play(probabilities[rows], spot.legal.results[rows])
    normalised = np.array([context.normalised(float(value)) for value in values])
    order = np.argsort(-normalised, kind="stable")
    alternatives: list[Alternative] = []
    best_value, played_value = float(values[order[0]]), None
    played_alternative = None
    for rank, index in enumerate(order.tolist()):
        row = int(rows[index])
        chances = probabilities[row].tolist()
        alternative = Alternative(
            spot.legal[row].notation,
            float(normalised[index]),
            context.mwc(float(values[index])),
            int(plies[row]),
            (chances[0], chances[1], chances[2], chances[3], chances[4]),
        )
        if row == played_row:
            played_alternative, played_value = alternative, float(values[index])
        if rank < SHOWN or row == played_row:
            alternatives.append(alternative)
    ranked = best_first(equities, plies)  # the search's own order, each play at the depth it reached
    obvious = len(ranked) > 1 and float(equities[ranked[0]] - equities[ranked[1:]].max()) >= OBVIOUS
    return JudgedSpot(
        tuple(alternatives), alternatives[0], played_alternative, best_value, played_value, obvious
    )
