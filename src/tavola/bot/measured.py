"""The figures Tavola measured, each written once, with the command that measured it.

The gammon rates and the overall cube efficiency come from one run of the
calibration (:mod:`tavola.train.calibrate`)::

    python -m tavola.train.calibrate --games 60000 --seed 1

(about four minutes on one core). 60,000 cubeless games of 0-ply self-play
by the shipped networks give the gammon and backgammon shares of won games;
the same games, replayed with a money cube that both players turn by the cube
model (:func:`tavola.bot.cube.money_decision`), give Janowski's ``x`` fitted
so that the model's cubeful equity best predicts the results, with new
replays until the fitted ``x`` agrees with the one played to within 0.01.
Errors are standard errors from a jackknife over games.

The efficiencies of contact positions and races, which the money and match
decisions of known positions use, are fitted to GNU Backgammon's 2-ply cube
hints instead (the cube agreement benchmark)::

    python benchmarks/cube_agreement.py --fit

On positions from Tavola's games against gnubg near the double, take or
pass points, the cube model is run on gnubg's own 2-ply cubeless
probabilities, and ``x`` is the one whose money decisions (action and
answer) agree most often with gnubg's, fitted on the positions of half the
games and checked on the other half.

>>> GAMMON_RATE, BACKGAMMON_RATE, CUBE_EFFICIENCY, CONTACT_EFFICIENCY, RACE_EFFICIENCY
(0.25, 0.008, 0.79, 0.72, 0.68)
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

CONTACT_EFFICIENCY = 0.72
"""Janowski's ``x`` for positions with contact, fitted to gnubg's 2-ply cube decisions.

With 0.72 the model on gnubg's probabilities agrees with gnubg on 91% of
the contact positions of either half of the games, against 85% at 0.80,
the figure the calibration fits on Tavola's own games (0.797 ± 0.014).
"""

RACE_EFFICIENCY = 0.68
"""Janowski's ``x`` for races and bear-offs, which keep less of the cube, fitted to gnubg's 2-ply cube
decisions.

With 0.68 the model on gnubg's probabilities agrees with gnubg on 95% and
96% of the race positions of the two halves, against 94% and 91% at 0.61
(the calibration on Tavola's own games: 0.607 ± 0.023).
"""
