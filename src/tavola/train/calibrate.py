"""The cube model's figures measured on Tavola's own games: gammon rates and Janowski's ``x``.

The money cube (:mod:`tavola.bot.cube`) and the match equity table
(:mod:`tavola.bot.met`) rest on a few figures: how often a won game is a
gammon or a backgammon, and how much of a perfectly live cube's value a real
game keeps (Janowski's cube efficiency ``x``). This module measures them
from cubeless self-play by the bot's own networks, with NumPy alone.

1. **Self-play** (:func:`self_play`): many cubeless money games at once,
   0-ply, through the self-play kernel (:func:`tavola.selfplay.play`): each
   step one call to the move generator and one to the evaluator for every
   game in progress. Before each roll after the opening one (the
   first moment the cube could be turned) the evaluator's five
   probabilities for the player on roll are kept, with whether the position
   has contact and who is on roll; each game's result (1, 2 or 3 points) is
   kept too.
2. **Gammon rates** (:func:`gammon_rates`): the share of won games that are
   gammons (backgammons included) and backgammons, with binomial errors.
3. **Janowski's x** (:func:`measure_efficiency`): every game is replayed
   with a money cube (centred at 1, no Jacoby rule, no beavers), both
   players deciding by the cube model at a trial ``x``
   (:func:`replay_with_cube`): the player on roll doubles when
   :func:`~tavola.bot.cube.money_decision` says DOUBLE (not when too good),
   the opponent takes or drops as it says, and a drop ends the game. At
   each roll the game went on to, the realised result per unit of the cube
   then in play, ``r = points x final cube / cube at the roll`` for the
   player on roll, is set against the model's equity of that state. Money
   cubeful equity is linear in ``x``, ``E(x) = E_dead + x (E_live -
   E_dead)``, from the dead cube at ``x = 0`` to the live one at ``x = 1``
   (:func:`~tavola.bot.cube.money_equity` is exactly that mix), so ``x`` is
   the least-squares slope of ``r - E_dead`` on ``E_live - E_dead``. The
   cube at the roll is the one after that turn's cube action: after a taken
   double it is twice the value and the taker's; the turn of a dropped
   double has no roll (its value, one point, does not depend on ``x``).

   Two baselines for ``r`` are fitted (:data:`Baseline`): the state's own
   ``E_dead``, as above, and the cubeless equity where the game with the
   cube ended, which aims at the same ``x`` when the evaluator is right
   and has errors about half as large; the second gives the figures. The
   games are replayed at new trials until the fit is within 0.01 of the
   trial replayed (:class:`_FixedPoint`), for one ``x`` for all positions
   and for a pair, contact and race positions each decided and fitted with
   their own. Errors are a jackknife over games, so the positions of a game
   count as the one sample they are. The model's decisions come from every
   state's dead- and live-cube equities, worked out once by ``money_equity``
   (:class:`CubeLifeTerms`), and each replay checks a spread of them against
   ``money_decision`` itself.

The gammon rates and the overall ``x`` Tavola ships (:mod:`tavola.bot.measured`, used by
:mod:`tavola.bot.cube` and :class:`tavola.bot.met.MetModel`) were measured with::

    python -m tavola.train.calibrate --games 60000 --seed 1

(about four minutes on one core): gammons 0.246 ± 0.002 of won games,
backgammons 0.0083 ± 0.0004, ``x`` 0.790 ± 0.012 for all positions,
0.797 ± 0.014 in contact and 0.607 ± 0.023 in races (bear-offs included).
The ``x`` of contact positions and of races that ships is fitted to GNU
Backgammon's 2-ply cube decisions instead (see :mod:`tavola.bot.measured`).

>>> from tavola.bot.evaluate import Evaluator
>>> games = self_play(Evaluator.untrained(hidden=8, seed=1), 2, np.random.default_rng(1))
>>> games.games, set(np.abs(games.results).tolist()) <= {1, 2, 3}
(2, True)
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from tavola.bot.cube import CENTRED, CubeAction, CubeResponse, money_decision, money_equity
from tavola.bot.evaluate import Evaluator, contact
from tavola.bot.measured import CUBE_EFFICIENCY
from tavola.bot.network import OUTPUTS
from tavola.bot.policies import GreedyPolicy
from tavola.cube import Cube
from tavola.position import flip_array
from tavola.rules import Rules
from tavola.selfplay import key_of, play

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

TOLERANCE = 0.01
"""The search for ``x`` stops when the fit is within this of the ``x`` replayed."""

MONEY = Rules(jacoby=False, beavers=0)
"""The replay's rules: money, the cube centred at 1, no Jacoby rule, no beavers."""


# --- self-play --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SelfPlayGames:
    """Cubeless games: every position before a roll after the opening one, and each game's result.

    States of one game are consecutive and in the order they were played.
    ``player`` is who is on roll, 0 being the player who made the opening
    move; ``probabilities`` are the evaluator's five for the player on roll
    (:mod:`tavola.bot.network`); ``boards`` the positions as that player sees
    them. ``results`` are the points each game gave player 0: +1, +2 or +3
    when they won a single game, a gammon or a backgammon, negative when
    they lost.
    """

    probabilities: npt.NDArray[np.float32]
    contact: BoolArray
    player: npt.NDArray[np.int8]
    game: IntArray
    boards: npt.NDArray[np.int8]
    results: npt.NDArray[np.int8]

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def states(self) -> int:
        return len(self.game)

    @property
    def starts(self) -> IntArray:
        """Where each game's states begin, and (last) where the last one's end: ``games + 1`` offsets."""
        return np.searchsorted(self.game, np.arange(self.games + 1)).astype(np.int64)


def self_play(
    evaluator: Evaluator,
    games: int,
    rng: np.random.Generator,
    parallel: int = 512,
    progress: Callable[[int], None] | None = None,
) -> SelfPlayGames:
    """Play ``games`` cubeless games of the evaluator against itself, ``parallel`` at a time.

    Each play is the 0-ply best for the mover. ``progress`` is called with
    the number of games finished after each step that finishes some.
    """
    if games < 1 or parallel < 1:
        raise ValueError(f"at least one game, played at least one at a time, not {games} and {parallel}")
    policy = GreedyPolicy.of(evaluator)
    results = np.zeros(games, dtype=np.int8)
    kept: dict[str, list[npt.NDArray[np.generic]]] = {
        name: [] for name in ("probabilities", "boards", "game", "turn")
    }
    ended = 0
    for step in play(policy, games, key_of(rng), parallel=parallel):
        over = step.over
        going_on = ~over
        if going_on.any():
            # The evaluator's probabilities of each chosen result for the opponent, on roll next.
            kept["probabilities"].append(policy.evaluations[step.chosen[going_on]])
            kept["boards"].append(flip_array(step.after[going_on]))
            kept["game"].append(step.game[going_on])
            kept["turn"].append(step.turn[going_on] + 1)
        if over.any():
            winner_is_first = step.turn[over] % 2 == 0
            points = step.points[over]
            results[step.game[over]] = np.where(winner_is_first, points, -points).astype(np.int8)
            ended += int(over.sum())
            if progress is not None:
                progress(ended)
    return _collect(kept, results)


def _collect(kept: dict[str, list[npt.NDArray[np.generic]]], results: npt.NDArray[np.int8]) -> SelfPlayGames:
    """The states in order of game, then of play (no game ends with its opening move)."""
    game = np.concatenate(kept["game"]).astype(np.int64)
    turn = np.concatenate(kept["turn"]).astype(np.int64)
    order = np.lexsort((turn, game))
    boards = np.concatenate(kept["boards"])[order]
    return SelfPlayGames(
        probabilities=np.concatenate(kept["probabilities"])[order].astype(np.float32),
        contact=contact(boards),
        player=(turn[order] % 2).astype(np.int8),
        game=game[order],
        boards=boards,
        results=results,
    )


# --- gammon rates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    """A measured figure, its standard error and the number of items (games or positions) behind it.

    Shown to three decimals, or to the error's first significant digit where that comes later:

    >>> print(Measured(0.25, 0.0031, 1000), Measured(0.009, 0.00038, 60000))
    0.250 ± 0.003 0.0090 ± 0.0004
    """

    value: float
    error: float
    count: int

    def __str__(self) -> str:
        digits = 3
        if math.isfinite(self.error) and 0 < self.error < 0.001:
            digits = -math.floor(math.log10(self.error))
        return f"{self.value:.{digits}f} ± {self.error:.{digits}f}"


@dataclass(frozen=True)
class MeasuredGammonRates:
    """Shares of won games that were gammons (backgammons included) and backgammons.

    >>> rates = gammon_rates(np.array([1, -1, 2, -2, 3, 1, -1, 1]))
    >>> rates.gammon.value, rates.backgammon.value
    (0.375, 0.125)
    """

    gammon: Measured
    backgammon: Measured
    first_player_wins: Measured


def _share(hits: int, total: int) -> Measured:
    share = hits / total
    return Measured(share, float(np.sqrt(share * (1 - share) / total)), total)


def gammon_rates(results: npt.ArrayLike) -> MeasuredGammonRates:
    """The gammon and backgammon shares of ``results`` (signed points, ±1, ±2 or ±3), binomial errors.

    Each game has one winner, so every game is a won game; the shares are the
    same whichever side won it.
    """
    points = np.asarray(results, dtype=np.int64)
    if not len(points) or not np.isin(np.abs(points), (1, 2, 3)).all():
        raise ValueError("game results are ±1, ±2 or ±3 points, and there must be some")
    total = len(points)
    return MeasuredGammonRates(
        gammon=_share(int((np.abs(points) >= 2).sum()), total),
        backgammon=_share(int((np.abs(points) == 3).sum()), total),
        first_player_wins=_share(int((points > 0).sum()), total),
    )


# --- the cube model of every state -------------------------------------------------------------


@dataclass(frozen=True)
class CubeLifeTerms:
    """Every state's money equity with a dead cube (``x = 0``) and a live one (``x = 1``), for each owner.

    ``dead[s, k]`` and ``live[s, k]`` are :func:`~tavola.bot.cube.money_equity`
    at efficiency 0 and 1 for state ``s`` with the cube centred (``k = 0``),
    the player on roll's (1) or the opponent's (2). ``money_equity`` at any
    other ``x`` is ``x * live + (1 - x) * dead``, the very expression it
    evaluates, so :meth:`equity` gives its values exactly.

    >>> terms = CubeLifeTerms.of(np.array([[0.7, 0.0, 0.0, 0.0, 0.0]]))  # no gammons: cash at 80%
    >>> terms.dead.round(3).tolist(), terms.live.round(3).tolist()
    ([[0.4, 0.4, 0.4]], [[0.667, 0.75, 0.25]])
    """

    dead: FloatArray
    live: FloatArray

    @classmethod
    def of(cls, probabilities: npt.ArrayLike) -> CubeLifeTerms:
        """The terms of each row of ``probabilities`` (each distinct row worked out once)."""
        rows = np.asarray(probabilities, dtype=np.float64).reshape(-1, OUTPUTS)
        distinct, index = np.unique(rows, axis=0, return_inverse=True)
        dead = np.empty((len(distinct), 3))
        live = np.empty((len(distinct), 3))
        for column, owner in enumerate((None, 0, 1)):
            for row, chances in enumerate(distinct):
                dead[row, column] = money_equity(chances, owner, efficiency=0.0)
                live[row, column] = money_equity(chances, owner, efficiency=1.0)
        return cls(dead[index.reshape(-1)], live[index.reshape(-1)])

    def equity(self, efficiency: FloatArray, column: IntArray) -> FloatArray:
        """Each state's cubeful equity at its own ``x`` with the cube's owner in ``column`` (0, 1 or 2)."""
        rows = np.arange(len(self.dead))
        return efficiency * self.live[rows, column] + (1 - efficiency) * self.dead[rows, column]

    def decisions(self, efficiency: FloatArray) -> tuple[BoolArray, BoolArray]:
        """Whether the player on roll doubles, cube centred and cube theirs, and whether the opponent takes.

        The rule is :func:`~tavola.bot.cube.money_decision`'s without beavers:
        the opponent takes when the doubler's equity after a take is at most
        one point (a drop's), and the player on roll doubles when the better
        of those for the opponent beats not doubling. Returns an ``(S, 2)``
        array (columns: centred, theirs) and an ``(S,)`` one.
        """
        x = efficiency[:, None]
        no_double = x * self.live[:, :2] + (1 - x) * self.dead[:, :2]
        double_take = 2 * (efficiency * self.live[:, 2] + (1 - efficiency) * self.dead[:, 2])
        takes = double_take <= 1.0
        answered = np.where(takes, double_take, 1.0)
        return answered[:, None] > no_double, takes


def check_decisions(
    probabilities: npt.ArrayLike, efficiency: FloatArray, doubles: BoolArray, takes: BoolArray
) -> None:
    """Raise if the decisions of :meth:`CubeLifeTerms.decisions` are not :func:`money_decision`'s own."""
    for row, chances in enumerate(np.asarray(probabilities, dtype=np.float64).reshape(-1, OUTPUTS)):
        for column, cube in enumerate((Cube(), Cube(2, 0))):
            decision = money_decision(chances, cube, MONEY, efficiency=float(efficiency[row]))
            doubled = decision.action is CubeAction.DOUBLE
            taken = decision.response is CubeResponse.TAKE
            if doubled != doubles[row, column] or taken != takes[row]:
                raise RuntimeError(
                    f"the replay's decision for {chances.tolist()} with {cube} at x = {efficiency[row]} "
                    f"is not the cube model's: {decision}"
                )


# --- the cube replay -----------------------------------------------------------------------------


Efficiency = float | tuple[float, float]
"""One ``x`` for every position, or ``(contact, race)``."""

CHECKED = 64
"""States of each replay whose decisions are checked against :func:`money_decision` itself."""


@dataclass(frozen=True)
class CubeReplay:
    """The games replayed with a money cube, both players deciding by the cube model.

    For each state: ``rolled`` says whether the game went on to its roll (it
    did not after a dropped double, at that state or before); ``turned``
    (the doubles taken so far) and ``owner`` are the cube when the dice were
    rolled, after that turn's cube action (``owner``: :data:`CENTRED`, 0 the
    player on roll, 1 the opponent); ``outcome`` is the realised result per
    unit of that cube for the player on roll (NaN where not rolled). For
    each game: ``points`` won by player 0 with the cube, ``doubles`` taken
    and ``dropped_at``, the state where a double was dropped (-1 where the
    game was played out). Points are floats: in a game that swings back and
    forth without end the cube can outgrow any integer type.
    """

    efficiency: tuple[float, float]
    rolled: BoolArray
    turned: IntArray
    owner: npt.NDArray[np.int8]
    outcome: FloatArray
    points: FloatArray
    doubles: IntArray
    dropped_at: IntArray

    @property
    def value(self) -> FloatArray:
        """The cube's value at each state's roll."""
        return np.ldexp(1.0, self.turned)

    @property
    def dropped(self) -> BoolArray:
        """Whether each game ended with a dropped double."""
        return self.dropped_at >= 0


def _efficiencies(efficiency: Efficiency) -> tuple[float, float]:
    if isinstance(efficiency, tuple):
        return float(efficiency[0]), float(efficiency[1])
    return float(efficiency), float(efficiency)


def replay_with_cube(
    games: SelfPlayGames, efficiency: Efficiency, terms: CubeLifeTerms | None = None
) -> CubeReplay:
    """Replay ``games`` with a money cube, both players deciding by the cube model at ``efficiency``.

    At each state the player on roll doubles when the model says DOUBLE (not
    when it says too good), and the opponent takes or drops as the model says;
    a drop ends the game, the doubler winning the cube's value before the
    double. ``terms`` are the games' :class:`CubeLifeTerms`, worked out here
    if not given; a spread of states has its decisions checked against
    :func:`~tavola.bot.cube.money_decision` itself.

    >>> games = SelfPlayGames(  # one game: player 0 even, then player 1 on roll at 75%, and player 0 wins
    ...     np.array([[0.5, 0, 0, 0, 0], [0.75, 0, 0, 0, 0]], np.float32), np.zeros(2, bool),
    ...     np.array([0, 1], np.int8), np.array([0, 0]), np.zeros((2, 30), np.int8), np.array([1], np.int8))
    >>> replay = replay_with_cube(games, 0.7)  # player 1 doubles, player 0 takes
    >>> replay.value.tolist(), replay.owner.tolist(), replay.points.tolist(), replay.outcome.tolist()
    ([1.0, 2.0], [-1, 1], [2.0], [2.0, -1.0])
    """
    efficiencies = _efficiencies(efficiency)
    terms = terms or CubeLifeTerms.of(games.probabilities)
    x = np.where(games.contact, *efficiencies)
    doubles_at, takes_at = terms.decisions(x)
    sample = np.unique(np.linspace(0, games.states - 1, min(CHECKED, games.states)).astype(np.int64))
    check_decisions(games.probabilities[sample], x[sample], doubles_at[sample], takes_at[sample])
    centred_doubles, owned_doubles = doubles_at[:, 0].tolist(), doubles_at[:, 1].tolist()
    takes = takes_at.tolist()
    players = games.player.tolist()
    starts = games.starts.tolist()
    rolled = np.zeros(games.states, dtype=bool)
    turned = np.zeros(games.states, dtype=np.int64)
    owner = np.full(games.states, CENTRED, dtype=np.int8)
    single = games.results.astype(np.float64)  # player 0's points per unit of the final cube
    doubles = np.zeros(games.games, dtype=np.int64)
    dropped_at = np.full(games.games, -1, dtype=np.int64)
    for game in range(games.games):
        taken, cube_owner = 0, None  # the owner as a player, 0 or 1
        for state in range(starts[game], starts[game + 1]):
            mover = players[state]
            doubling = (cube_owner is None and centred_doubles[state]) or (
                cube_owner == mover and owned_doubles[state]
            )
            if doubling:
                if not takes[state]:
                    single[game] = 1.0 if mover == 0 else -1.0
                    dropped_at[game] = state
                    break
                taken, cube_owner = taken + 1, 1 - mover
            rolled[state] = True
            turned[state] = taken
            owner[state] = CENTRED if cube_owner is None else int(cube_owner != mover)
        doubles[game] = taken
    sign = np.where(games.player == 0, 1.0, -1.0)
    with np.errstate(over="ignore"):
        points = np.ldexp(single, doubles)
        per_unit = np.ldexp(single[games.game], doubles[games.game] - turned)
    outcome = np.where(rolled, sign * per_unit, np.nan)
    return CubeReplay(efficiencies, rolled, turned, owner, outcome, points, doubles, dropped_at)


# --- the cube-life fit -----------------------------------------------------------------------------


Baseline = Literal["dead", "cubeless"]
"""What the realised result is measured from before it is set against ``E_live - E_dead``.

``"dead"``: the dead cube's equity ``E_dead`` of the state, the fit exactly
as the model states it. ``"cubeless"``: the cubeless equity for the player on
roll where the game with the cube ended: the game's result where it was
played out, ``E_dead`` of the position where a double was dropped. When the
evaluator's probabilities are right its cubeless equity is a fair bet on the
result, so this baseline averages ``E_dead`` of the state and both fits aim
at the same ``x``; the second leaves out the luck the dice would have
brought the cubeless game as well, and its errors are smaller.
"""


def fit_efficiency(
    outcome: FloatArray, dead: FloatArray, live: FloatArray, game: IntArray, games: int, mask: BoolArray
) -> Measured:
    """The least-squares ``x`` in ``outcome ≈ dead + x (live - dead)`` over the states in ``mask``.

    The error is a jackknife over the ``games`` games (each left out in
    turn), so positions of the same game count as the one sample they are.
    States where the live and the dead cube agree (``|live - dead|`` under
    1e-9) say nothing about ``x`` and are left out; where none is left,
    ``x`` is NaN.

    >>> dead, live = np.array([0.0, 0.2, -0.2, 0.4]), np.array([0.5, 0.6, -0.6, 0.9])
    >>> outcome = dead + 0.75 * (live - dead)
    >>> fit_efficiency(outcome, dead, live, np.array([0, 0, 1, 1]), 2, np.ones(4, bool)).value
    0.75
    """
    used = mask & (np.abs(live - dead) > 1e-9)
    count = int(used.sum())
    if not count:
        return Measured(float("nan"), float("nan"), 0)
    slope = live[used] - dead[used]
    excess = outcome[used] - dead[used]
    per_game_cross = np.bincount(game[used], weights=slope * excess, minlength=games)
    per_game_square = np.bincount(game[used], weights=slope * slope, minlength=games)
    cross, square = per_game_cross.sum(), per_game_square.sum()
    value = float(cross / square)
    if games < 2:
        return Measured(value, float("nan"), count)
    with np.errstate(divide="ignore", invalid="ignore"):
        left_out = (cross - per_game_cross) / (square - per_game_square)
    left_out = np.where(np.isfinite(left_out), left_out, value)
    error = float(np.sqrt((games - 1) / games * ((left_out - left_out.mean()) ** 2).sum()))
    return Measured(value, error, count)


def cubeless_baseline(games: SelfPlayGames, terms: CubeLifeTerms, replay: CubeReplay) -> FloatArray:
    """For each state, the cubeless equity of the player on roll where the game with the cube ended.

    That is the game's result where it was played out, and the dead cube's
    equity of the position where a double was dropped (see :data:`Baseline`).
    """
    ended = games.results.astype(np.float64)  # for player 0
    where = replay.dropped_at[replay.dropped]
    side = np.where(games.player[where] == 0, 1.0, -1.0)
    ended[replay.dropped] = side * terms.dead[where, 0]  # the dead cube's equity is the owner's or not
    return np.where(games.player == 0, 1.0, -1.0) * ended[games.game]


@dataclass(frozen=True)
class EfficiencyFit:
    """Janowski's ``x`` fitted for all positions, and for contact and race positions each with their own.

    ``rounds`` are the ``(trial, fitted)`` pairs in order, for the single
    ``x``; ``class_rounds`` the same for the ``(contact, race)`` pair.
    ``settled`` says whether both searches ended with the fit within the
    tolerance of its trial. ``replay`` is the last replay at the single ``x``.
    """

    all: Measured
    contact: Measured
    race: Measured
    rounds: list[tuple[float, float]]
    class_rounds: list[tuple[tuple[float, float], tuple[float, float]]]
    settled: bool
    replay: CubeReplay


def _fit_replay(
    games: SelfPlayGames, terms: CubeLifeTerms, replay: CubeReplay, baseline: Baseline
) -> tuple[Measured, Measured, Measured]:
    """``x`` from one replay: all, contact and race states."""
    column = replay.owner.astype(np.int64) + 1
    dead = terms.equity(np.zeros(games.states), column)
    live = terms.equity(np.ones(games.states), column)
    outcome = replay.outcome
    if baseline == "cubeless":
        outcome = outcome - cubeless_baseline(games, terms, replay) + dead
    fits = [
        fit_efficiency(outcome, dead, live, games.game, games.games, replay.rolled & mask)
        for mask in (np.ones(games.states, bool), games.contact, ~games.contact)
    ]
    return fits[0], fits[1], fits[2]


HIGHEST_TRIAL = 0.99
"""The highest ``x`` replayed. At ``x = 1`` doubling at the cash point only ties with playing on,
the model never says DOUBLE, and nobody would ever double."""


@dataclass
class _FixedPoint:
    """The search for one ``x`` whose replay fits ``x`` again (to within ``tolerance``).

    The fit falls as the trial rises (later doubles make a cube look less
    alive), steeply enough that replaying at the fit itself jumps past the
    fixed point and back. So the first trials follow the fit until two lie on
    either side of the fixed point; then the search halves the gap between
    the last trial whose fit was above it and the last whose fit was below.
    It is ``stuck`` where the fit jumps over the trial between two trials
    closer than a quarter of the tolerance, or lies beyond 0 or
    :data:`HIGHEST_TRIAL`.
    """

    trial: float
    tolerance: float
    fit_above: float | None = None
    fit_below: float | None = None
    settled: bool = False
    stuck: bool = False

    def update(self, fitted: float) -> None:
        """Take the fit at the current trial and choose the next trial."""
        if math.isnan(fitted) or abs(fitted - self.trial) < self.tolerance:
            self.settled = True  # nothing to fit, or the trial fits itself
            return
        self.settled = False
        if fitted > self.trial:
            self.fit_above = self.trial
        else:
            self.fit_below = self.trial
        if self.fit_above is None or self.fit_below is None:
            following = min(HIGHEST_TRIAL, max(0.0, fitted))
            self.stuck = following == self.trial  # the fit lies past the highest or lowest trial
            self.trial = following
        elif abs(self.fit_above - self.fit_below) < self.tolerance / 4:
            self.stuck = True  # the fit jumps over the trial here
        else:
            self.trial = (self.fit_above + self.fit_below) / 2

    @property
    def finished(self) -> bool:
        return self.settled or self.stuck


def measure_efficiency(
    games: SelfPlayGames,
    start: float = CUBE_EFFICIENCY,
    baseline: Baseline = "cubeless",
    tolerance: float = TOLERANCE,
    rounds: int = 20,
    terms: CubeLifeTerms | None = None,
    report: Callable[[str], None] | None = None,
) -> EfficiencyFit:
    """Fit ``x`` on replays of ``games`` until the fit is within ``tolerance`` of the ``x`` replayed.

    Two fixed points are sought, from ``start``: one ``x`` for every
    position, and a pair with contact and race positions each decided and
    fitted with their own (see :class:`_FixedPoint`). At most ``rounds``
    replays each; ``report`` is told of every one.
    """
    terms = terms or CubeLifeTerms.of(games.probabilities)
    single = _FixedPoint(start, tolerance)
    history: list[tuple[float, float]] = []
    for _ in range(rounds):
        trial = single.trial
        replay = replay_with_cube(games, trial, terms)
        overall = _fit_replay(games, terms, replay, baseline)[0]
        history.append((trial, overall.value))
        if report is not None:
            report(f"one x: replayed at {trial:.3f}, fitted {overall}")
        single.update(overall.value)
        if single.finished:
            break
    pair = (_FixedPoint(start, tolerance), _FixedPoint(start, tolerance))
    pair_history: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for _ in range(rounds):
        trials = (pair[0].trial, pair[1].trial)
        _, in_contact, in_race = _fit_replay(games, terms, replay_with_cube(games, trials, terms), baseline)
        pair_history.append((trials, (in_contact.value, in_race.value)))
        if report is not None:
            report(
                f"contact and race: replayed at {trials[0]:.3f} and {trials[1]:.3f}, "
                f"fitted {in_contact} and {in_race}"
            )
        pair[0].update(in_contact.value)
        pair[1].update(in_race.value)
        if all(search.finished for search in pair):
            break
    settled = single.settled and pair[0].settled and pair[1].settled
    return EfficiencyFit(overall, in_contact, in_race, history, pair_history, settled, replay)


def drop_bias(games: SelfPlayGames, terms: CubeLifeTerms, replay: CubeReplay) -> Measured:
    """Where a double was dropped: the doubler's cubeless result minus the evaluator's cubeless equity there.

    The games were played on without the cube, so each dropped double's
    position has its cubeless result. Near zero, the evaluator is as right
    there as the ``"cubeless"`` baseline (:data:`Baseline`) assumes.
    """
    where = replay.dropped_at[replay.dropped]
    if not len(where):
        return Measured(float("nan"), float("nan"), 0)
    side = np.where(games.player[where] == 0, 1.0, -1.0)
    residual = side * games.results[games.game[where]] - terms.dead[where, 0]
    error = float(residual.std(ddof=1) / np.sqrt(len(residual))) if len(residual) > 1 else float("nan")
    return Measured(float(residual.mean()), error, len(residual))


# --- the command -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """``python -m tavola.train.calibrate --games 20000 --seed 1``: measure and print the figures."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    parser = argparse.ArgumentParser(
        prog="python -m tavola.train.calibrate",
        description="Measure gammon rates and Janowski's cube efficiency on Tavola's own self-play.",
    )
    parser.add_argument("--games", type=int, default=20_000, help="cubeless self-play games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=512, help="games played at once")
    parser.add_argument("--weights", type=Path, help="the contact network (default: the shipped ones)")
    parser.add_argument("--start", type=float, default=CUBE_EFFICIENCY, help="the first trial x")
    parser.add_argument("--quiet", action="store_true", help="no line for each replay")
    args = parser.parse_args(argv)
    console = Console()
    evaluator = Evaluator.load(args.weights) if args.weights else Evaluator.default()

    began = time.perf_counter()
    columns = (TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("self-play", total=args.games)
        games = self_play(
            evaluator,
            args.games,
            np.random.default_rng(args.seed),
            args.parallel,
            lambda done: bar.update(task, completed=done),
        )
    played = time.perf_counter() - began
    console.print(
        f"{games.games} games, {games.states} positions before a roll "
        f"({int(games.contact.sum())} contact, {int((~games.contact).sum())} race) in {played:.0f} s"
    )

    fitting = time.perf_counter()
    terms = CubeLifeTerms.of(games.probabilities)
    report = None if args.quiet else (lambda line: console.print(f"  {line}"))
    fits = {
        baseline: measure_efficiency(games, args.start, baseline, terms=terms, report=report)
        for baseline in ("cubeless", "dead")
    }
    fitted = time.perf_counter() - fitting

    rates = gammon_rates(games.results)
    shares = Table(title=f"Cubeless self-play, {games.games} games (seed {args.seed})")
    shares.add_column("share of won games")
    shares.add_column("measured", justify="right")
    shares.add_row("gammons (backgammons included)", str(rates.gammon))
    shares.add_row("backgammons", str(rates.backgammon))
    shares.add_row("won by the first to move", str(rates.first_player_wins))
    console.print(shares)

    main_fit, check_fit = fits["cubeless"], fits["dead"]
    janowski = Table(
        title="Janowski's x",
        caption="x: each result measured from the cubeless equity where the game with the cube ended;\n"
        "check: from the dead cube's equity of the position. Errors: a jackknife over games.",
    )
    janowski.add_column("positions")
    janowski.add_column("x", justify="right")
    janowski.add_column("check", justify="right")
    janowski.add_column("fitted", justify="right")
    for name in ("all", "contact", "race"):
        measured, check = getattr(main_fit, name), getattr(check_fit, name)
        janowski.add_row(name, str(measured), str(check), str(measured.count))
    console.print(janowski)
    for label, fit in (("first", main_fit), ("second", check_fit)):
        if not fit.settled:
            console.print(f"(the {label} fit: a search stopped short of the tolerance, {TOLERANCE})")

    replay = main_fit.replay
    bias = drop_bias(games, terms, replay)
    x = main_fit.all.value
    cube = Table(title=f"The games replayed with the cube at x = {x:.3f}")
    cube.add_column("per game")
    cube.add_column("measured", justify="right")
    cube.add_row("doubles taken", f"{replay.doubles.mean():.3f}")
    cube.add_row("ended by a dropped double", f"{replay.dropped.mean():.3f}")
    cube.add_row("points won (either side)", f"{np.abs(replay.points).mean():.3f}")
    cube.add_row(
        f"at a drop ({bias.count}): cubeless result - equity", f"{bias.value:+.3f} ± {bias.error:.3f}"
    )
    console.print(cube)
    console.print(f"self-play {played:.0f} s, cube fits {fitted:.0f} s")


if __name__ == "__main__":
    main()
