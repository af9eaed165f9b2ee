"""The figures Tavola measured on its own games, each written once, with the command that measured it.

All of them come from one run of the calibration (:mod:`tavola.bot.train.calibrate`)::

    python -m tavola.bot.train.calibrate --games 60000 --seed 1

(about four minutes on one core). 60,000 cubeless games of 0-ply self-play
by the shipped networks give the gammon and backgammon shares of won games;
the same games, replayed with a money cube that both players turn by the cube
model (:func:`tavola.bot.cube.money_decision`), give Janowski's ``x`` fitted
so that the model's cubeful equity best predicts the results, with new
replays until the fitted ``x`` agrees with the one played to within 0.01.
Errors are standard errors from a jackknife over games.

>>> GAMMON_RATE, BACKGAMMON_RATE, CUBE_EFFICIENCY
(0.25, 0.008, 0.79)
"""

from __future__ import annotations

GAMMON_RATE = 0.25
"""The share of won games that are gammons, backgammons included: measured 0.246 ± 0.002."""

BACKGAMMON_RATE = 0.008
"""The share of won games that are backgammons: measured 0.0083 ± 0.0004."""

CUBE_EFFICIENCY = 0.79
"""Janowski's ``x`` over all positions, the share of the live cube's value a real game keeps: 0.790 ± 0.012.

It serves where only the probabilities are known, and in the match table
(:class:`tavola.bot.met.MetModel`); decisions that know the position use the
figure of its class (:func:`tavola.bot.cube.position_efficiency`).
"""

CONTACT_EFFICIENCY = 0.80
"""Janowski's ``x`` for positions with contact: measured 0.797 ± 0.014."""

RACE_EFFICIENCY = 0.61
"""Janowski's ``x`` for races and bear-offs, which keep clearly less of the cube: measured 0.607 ± 0.023.

Both class figures come from one fit in which contact positions were
decided with :data:`CONTACT_EFFICIENCY` and races with this one, so each is
measured where the other is in force.
"""
