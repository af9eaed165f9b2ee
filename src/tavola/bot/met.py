"""Match equity: the chance of winning a match from a score, and the model that computes it.

A score is written as the points each player still needs ("a-away"): at
3-away/5-away the player needs 3 points and the opponent 5. The table holds,
for every score up to :data:`LENGTH`-away, the chance that the first player
wins the match when a game starts there:

* pre-Crawford scores (both players 2-away or more, and 1-away/1-away);
* the Crawford game (one player 1-away for the first time: no doubling, P2);
* post-Crawford games (the cube is back, P2).

How it is computed (:meth:`MatchEquityTable.build`)
---------------------------------------------------

Each game is modelled by the cubeless chance ``p`` that the player on roll
wins it, a quantity that drifts without jumps from 1/2 at the start to 0 or 1
at the end (the continuous model of doubling theory). A won game is a gammon
(backgammons included) a fixed share of the time, :attr:`MetModel.gammon_rate`,
and a backgammon :attr:`MetModel.backgammon_rate` of the time. A game that
ends takes both players to a new score, whose value is already in the table:
the recursion runs over scores with fewer points to go first.

Within a game the cube is played optimally for the match: :class:`CubefulGame`
finds, for every cube value and owner, each player's match winning chance as
a function of ``p``. The player who may double cashes (doubles out) where the
opponent's take and drop are worth the same to the opponent, and the
opponent's answer uses the deeper cube levels, solved the same way; the
functions are piecewise linear and come out exact, from convex and concave
hulls. A redouble that cannot help its owner (their win at the current value
already takes them to the match: the cube is dead) ends the recursion. Real
games jump rather than drift, so a double is seldom made exactly at the
opponent's take point: as in Janowski's cube-life model, each cube level keeps
a share :attr:`MetModel.cube_efficiency` of its live (perfectly timed) value
and the rest of its dead-cube value.

The Crawford game has no cube, so its value is the cubeless one. In a
post-Crawford game the trailer doubles at once (the leader's cube is dead);
the model has the trailer's first double come when the opening rolls have
moved ``p`` to 1/2 plus or minus :attr:`MetModel.opening_swing`, which is what
gives the leader's *free drop* at an even-away score its value: there, a
drop costs the leader nothing, so they drop when the trailer's start was good.
The cube-life share does not apply to post-Crawford games: their one useful
double is made at once.

The gammon share, the backgammon share and the cube efficiency are the
figures measured on Tavola's own games (:mod:`tavola.bot.measured`, which
tells how). The opening swing is still a model's figure, set on a grid so
that the table agrees with the Kazaross-XG2 table (a published table from
rollouts, the default of GNU Backgammon).

With these figures the table is within 1.3 percentage points of
Kazaross-XG2 at every score up to 11-away (the largest gap, 1.24 points, at
2-away/4-away), 1.1 points post-Crawford (1.0 with the trailer 3-away) and
0.5 points at the longer scores compared, the leader's chances being the
higher ones up to 11-away. The published table comes from stronger players
in matches, where the trailer plays for the gammons that count double, and
it has more gammons than Tavola's money games. The Crawford game at
1-away/2-away shows it plainly: the leader wins the match with the game, and
after losing it keeps an even chance if the loss was single and none if it
was a gammon, so their chance is ``1/2 + (1 - gammon_rate) / 4``: 68.75%
here, while Kazaross-XG2's 67.74% means gammons in 29% of won games. The
parameters the grid once fitted to that table, ``MetModel(gammon_rate=0.28,
backgammon_rate=0.01, cube_efficiency=0.8)``, remain within 0.7 points of
it up to 11-away, 0.3 points post-Crawford and 0.15 points at the longer
scores.

>>> round(match_equity(1, 1), 4), round(match_equity(5, 5), 4)
(0.5, 0.5)
>>> round(match_equity(1, 2, crawford=True), 3)  # the leader in the Crawford game: 1/2 + (1 - 0.25) / 4
0.688
>>> round(match_equity(2, 1), 3)  # post-Crawford: the trailer 2-away (the free drop)
0.491
>>> match_equity_after(2, 5, 4)  # a gammon at a 2-cube from 2-away: points past N count for nothing
1.0
"""

from __future__ import annotations

import argparse
import bisect
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from tavola.bot.measured import BACKGAMMON_RATE, CUBE_EFFICIENCY, GAMMON_RATE
from tavola.matchrules import MAX_MATCH_LENGTH

LENGTH = 25
"""Scores in the default table: up to 25-away for each player."""

Points = list[tuple[float, float]]
FloatArray = npt.NDArray[np.float64]


# --- piecewise-linear functions of the winning chance ------------------------------------


@dataclass(frozen=True)
class Curve:
    """A continuous piecewise-linear function of ``p`` on [0, 1], given by its vertices.

    >>> curve = Curve.line(-1.0, 1.0)
    >>> curve(0.75)
    0.5
    >>> curve.lower(Curve.constant(0.0))(0.75), curve.upper(Curve.constant(0.0))(0.25)
    (0.0, 0.0)
    """

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    @classmethod
    def line(cls, start: float, end: float) -> Curve:
        """The straight line from ``(0, start)`` to ``(1, end)``."""
        return cls((0.0, 1.0), (start, end))

    @classmethod
    def constant(cls, value: float) -> Curve:
        return cls.line(value, value)

    @classmethod
    def through(cls, points: Points) -> Curve:
        """The curve through ``points`` (sorted by ``x``, from 0 to 1)."""
        return cls(tuple(x for x, _ in points), tuple(y for _, y in points))

    def __call__(self, p: float) -> float:
        index = bisect.bisect_right(self.xs, p)
        if index == 0:
            return self.ys[0]
        if index == len(self.xs):
            return self.ys[-1]
        x0, x1, y0, y1 = self.xs[index - 1], self.xs[index], self.ys[index - 1], self.ys[index]
        return y0 + (y1 - y0) * (p - x0) / (x1 - x0)

    def points(self) -> Points:
        return list(zip(self.xs, self.ys, strict=True))

    def lower(self, other: Curve) -> Curve:
        """The pointwise minimum of two curves."""
        return self._pick(other, min)

    def upper(self, other: Curve) -> Curve:
        """The pointwise maximum of two curves."""
        return self._pick(other, max)

    def mix(self, other: Curve, weight: float) -> Curve:
        """``weight`` times this curve plus ``1 - weight`` times ``other``."""
        if other.xs == (0.0, 1.0) and self.xs[0] == 0.0 and self.xs[-1] == 1.0:
            start, slope = other.ys[0], other.ys[1] - other.ys[0]  # a line: no vertices of its own
            rest = 1 - weight
            return Curve(self.xs, tuple(weight * y + rest * (start + slope * x) for x, y in self.points()))
        xs = sorted(set(self.xs) | set(other.xs))
        return Curve.through([(x, weight * self(x) + (1 - weight) * other(x)) for x in xs])

    def _pick(self, other: Curve, choose: Callable[[float, float], float]) -> Curve:
        if other.xs == (0.0, 1.0) and other.ys[0] == other.ys[1] and self.xs[0] == 0.0 and self.xs[-1] == 1.0:
            return self._pick_constant(other.ys[0], choose)
        out: Points = []
        before: tuple[float, float] | None = None
        for x in sorted(set(self.xs) | set(other.xs)):
            mine, theirs = self(x), other(x)
            gap = mine - theirs
            if before is not None and before[1] * gap < 0:  # the curves cross: a new vertex
                crossing = before[0] + (x - before[0]) * before[1] / (before[1] - gap)
                out.append((crossing, self(crossing)))
            out.append((x, choose(mine, theirs)))
            before = (x, gap)
        return Curve.through(out)

    def _pick_constant(self, value: float, choose: Callable[[float, float], float]) -> Curve:
        """:meth:`_pick` against the constant ``value``: the same vertices, found without searching."""
        xs: list[float] = []
        ys: list[float] = []
        before: tuple[float, float, float] | None = None
        for x, y in zip(self.xs, self.ys, strict=True):
            gap = y - value
            if before is not None and before[2] * gap < 0:  # the curve crosses the constant: a new vertex
                x0, y0, gap0 = before
                crossing = x0 + (x - x0) * gap0 / (gap0 - gap)
                xs.append(crossing)
                ys.append(y0 + (y - y0) * (crossing - x0) / (x - x0))
            xs.append(x)
            ys.append(choose(y, value))
            before = (x, y, gap)
        return Curve(tuple(xs), tuple(ys))


Vertex = tuple[float, float, bool]
"""A hull's vertex: ``x``, ``y`` and whether it lies on a doubling payoff (where the game stops)."""


def _hull(points: list[Vertex], upper: bool) -> list[Vertex]:
    """The upper (or lower) convex hull of points sorted by ``x``; collinear points are dropped."""
    sign = 1.0 if upper else -1.0
    hull: list[Vertex] = []
    for point in points:
        while len(hull) >= 2:
            (x1, y1, _), (x2, y2, _) = hull[-2], hull[-1]
            turn = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
            if sign * turn < -1e-13:
                break
            hull.pop()
        hull.append(point)
    return hull


# --- one game with the cube ------------------------------------------------------------------

Payoff = Callable[[int], float]
"""The value to the player on roll of the game ending with them winning ``k`` points (``k > 0``)
or losing ``-k`` points (``k < 0``): a match winning chance, or simply ``k`` for money."""


@dataclass(frozen=True)
class GammonRates:
    """Gammons (backgammons included) and backgammons as shares of wins and of losses.

    >>> GammonRates.of([0.5, 0.15, 0.01, 0.1, 0.0])
    GammonRates(win_gammon=0.3, win_backgammon=0.02, lose_gammon=0.2, lose_backgammon=0.0)
    """

    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    @classmethod
    def of(cls, probabilities: Sequence[float] | npt.NDArray[np.floating]) -> GammonRates:
        """The shares from the five cubeless probabilities of :mod:`tavola.bot.network`."""
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(v) for v in probabilities)
        wins = win if win > 1e-9 else 1.0
        losses = 1.0 - win if 1.0 - win > 1e-9 else 1.0
        return cls(
            round(min(1.0, win_gammon / wins), 12),
            round(min(1.0, win_backgammon / wins), 12),
            round(min(1.0, lose_gammon / losses), 12),
            round(min(1.0, lose_backgammon / losses), 12),
        )

    @classmethod
    def symmetric(cls, gammon: float, backgammon: float) -> GammonRates:
        return cls(gammon, backgammon, gammon, backgammon)


class CubefulGame:
    """The cubeful value of one game as a function of the cubeless chance ``p`` of winning it.

    Values are for the player on roll. ``payoff`` gives what a finished game
    is worth (:data:`Payoff`); ``rates`` the gammon shares; ``redouble_helps(value,
    player)`` whether turning a cube of ``value`` can ever help ``player``
    (0, on roll, or 1): where it cannot, that player never doubles it.
    ``efficiency`` is the share of each cube level's live value kept (the
    rest is its dead-cube value); ``jacoby`` counts gammons single while the
    cube is centred (M5).

    Money with no gammons: the take point is 20%, and a player who owns the
    cube cashes at 80%:

    >>> game = CubefulGame(lambda k: float(k), GammonRates(), lambda value, player: value < 2**30)
    >>> centred, owned = game.curve(1, None), game.curve(1, 0)
    >>> round(centred(0.2), 6), round(owned(0.8), 6), round(owned(0.4) + 1e-9, 6)
    (-1.0, 1.0, 0.0)
    """

    def __init__(
        self,
        payoff: Payoff,
        rates: GammonRates,
        redouble_helps: Callable[[int, int], bool],
        efficiency: float = 1.0,
        jacoby: bool = False,
    ) -> None:
        self.payoff = functools.cache(payoff)  # a few values asked for again and again
        self.rates = rates
        self.redouble_helps = redouble_helps
        self.efficiency = efficiency
        self.jacoby = jacoby
        self._curves: dict[tuple[int, int | None], Curve] = {}
        self._ends: dict[tuple[int, bool], tuple[float, float]] = {}

    def ends(self, value: int, centred: bool = False) -> tuple[float, float]:
        """What a loss and a win are worth on average at ``value``: the curve's ends at ``p`` = 0 and 1."""
        key = (value, centred)
        if key not in self._ends:
            self._ends[key] = self._average_ends(value, centred)
        return self._ends[key]

    def _average_ends(self, value: int, centred: bool) -> tuple[float, float]:
        pay, r = self.payoff, self.rates
        if centred and self.jacoby:
            return pay(-value), pay(value)
        win = (1 - r.win_gammon) * pay(value) + (r.win_gammon - r.win_backgammon) * pay(2 * value)
        lose = (1 - r.lose_gammon) * pay(-value) + (r.lose_gammon - r.lose_backgammon) * pay(-2 * value)
        return (
            lose + r.lose_backgammon * pay(-3 * value),
            win + r.win_backgammon * pay(3 * value),
        )

    def dead(self, value: int, centred: bool = False) -> Curve:
        """The value if nobody ever turns the cube again: the cubeless expectation."""
        return Curve.line(*self.ends(value, centred))

    def curve(self, value: int, owner: int | None) -> Curve:
        """The cubeful value with the cube at ``value``, centred (``None``) or owned by player 0 or 1."""
        key = (value, owner)
        if key not in self._curves:
            live = self.live(value, owner)
            if self.efficiency < 1.0:
                live = live.mix(self.dead(value, owner is None), self.efficiency)
            self._curves[key] = live
        return self._curves[key]

    def live(self, value: int, owner: int | None) -> Curve:
        """The value when both players use the cube at the right moment, deeper levels from :meth:`curve`."""
        lose, win = self.ends(value, owner is None)
        mine = owner != 1 and self.redouble_helps(value, 0)
        theirs = owner != 0 and self.redouble_helps(value, 1)
        if not (mine or theirs):
            return Curve.line(lose, win)
        # Doubling out: the opponent answers with the worse for us of a take and a drop...
        doubling = self.curve(2 * value, 1).lower(Curve.constant(self.payoff(value))) if mine else None
        # ...and when the opponent doubles, we answer with the better of the two.
        doubled = self.curve(2 * value, 0).upper(Curve.constant(self.payoff(-value))) if theirs else None
        return _stopping_game(lose, win, doubling, doubled)


def _cash_side(
    start: tuple[float, float], win: float, doubling: Curve | None
) -> tuple[list[Vertex], tuple[float, float]]:
    """Our doubling region: the least concave curve from ``start`` to ``(1, win)`` above ``doubling``.

    Also where it first meets ``doubling``: our lowest doubling point.
    """
    inside = [(x, y, True) for x, y in doubling.points() if start[0] < x < 1.0] if doubling else []
    hull = _hull([(*start, False), *inside, (1.0, win, False)], upper=True)
    touching = [(x, y) for x, y, stops in hull if stops]
    return hull, touching[0] if touching else (1.0, win)


def _their_side(
    lose: float, end: tuple[float, float], doubled: Curve | None
) -> tuple[list[Vertex], tuple[float, float]]:
    """Their doubling region: the greatest convex curve from ``(0, lose)`` to ``end`` below ``doubled``.

    Also where it last meets ``doubled``: the opponent's highest doubling point.
    """
    inside = [(x, y, True) for x, y in doubled.points() if 0.0 < x < end[0]] if doubled else []
    hull = _hull([(0.0, lose, False), *inside, (*end, False)], upper=False)
    touching = [(x, y) for x, y, stops in hull if stops]
    return hull, touching[-1] if touching else (0.0, lose)


def _stopping_game(lose: float, win: float, doubling: Curve | None, doubled: Curve | None) -> Curve:
    """The value of a game that either player may end on their terms.

    The player on roll may stop to get ``doubling(p)``; the opponent may stop
    to give ``doubled(p)``; otherwise the game ends at ``lose`` or ``win``. A
    drifting ``p`` makes the value the least concave curve above the
    doubling payoff where we double, and the greatest convex curve below the
    opponent's where they do. The opponent doubles below some ``p``, we above
    it, and the value is a straight line in between: each boundary is found
    from the other until they settle.
    """
    start = (0.0, lose)
    high, end = _cash_side(start, win, doubling)
    for _ in range(100):
        low, new_start = _their_side(lose, end, doubled)
        if new_start == start:
            break  # our side was found from this start: both sides agree
        start = new_start
        high, new_end = _cash_side(start, win, doubling)
        if new_end == end:
            break  # their side was found from this end: both sides agree
        end = new_end
    else:  # pragma: no cover - the boundaries settle in a few rounds
        raise RuntimeError("the doubling boundaries did not settle")
    return Curve.through([(x, y) for x, y, _ in low if x < start[0]] + [(x, y) for x, y, _ in high])


# --- the table -----------------------------------------------------------------------------


class Stage(Enum):
    """Where a game stands with respect to the Crawford rule (P2)."""

    PRE = "pre-Crawford"
    CRAWFORD = "Crawford"
    POST = "post-Crawford"


@dataclass(frozen=True)
class MetModel:
    """The parameters of the match equity model (see the module's docstring).

    The first three default to the figures measured on Tavola's own games (:mod:`tavola.bot.measured`).

    - ``gammon_rate``: the share of won games that are gammons, backgammons included.
    - ``backgammon_rate``: the share of won games that are backgammons.
    - ``cube_efficiency``: the share of each cube level's live value kept (Janowski's ``x``).
    - ``opening_swing``: how far from 1/2 the opening rolls have moved the trailer's
      chances by their first post-Crawford double.
    - ``crawford``: whether the Crawford rule is played (P2); without it no game is
      a Crawford game, and a 1-away score is played with the cube.
    """

    gammon_rate: float = GAMMON_RATE
    backgammon_rate: float = BACKGAMMON_RATE
    cube_efficiency: float = CUBE_EFFICIENCY
    opening_swing: float = 0.025
    crawford: bool = True


def _game_value(model: MetModel, rows: dict[Stage, list[list[float]]], a: int, b: int, stage: Stage) -> float:
    """The value of a game starting at ``a``-away/``b``-away, from the scores after it, already in ``rows``.

    What a finished game is worth is :meth:`MatchEquityTable.after`, read straight from the rows.
    """
    crawford_next = rows[Stage.CRAWFORD if stage is Stage.PRE and model.crawford else Stage.POST]
    pre = rows[Stage.PRE]

    def payoff(points: int) -> float:
        me, opponent = (a - points, b) if points > 0 else (a, b + points)
        if me <= 0 or opponent <= 0:
            return 1.0 if me <= 0 else 0.0
        return pre[me][opponent] if min(me, opponent) > 1 or me == opponent else crawford_next[me][opponent]

    def helps(value: int, player: int) -> bool:
        return stage is not Stage.CRAWFORD and value < (a, b)[player]

    rates = GammonRates.symmetric(model.gammon_rate, model.backgammon_rate)
    efficiency = model.cube_efficiency if stage is Stage.PRE else 1.0
    curve = CubefulGame(payoff, rates, helps, efficiency).curve(1, None)
    swing = model.opening_swing if stage is Stage.POST else 0.0
    return 0.5 * (curve(0.5 + swing) + curve(0.5 - swing))


class MatchEquityTable:
    """Match winning chances at every score up to ``length``-away, from :class:`MetModel`.

    >>> table = MatchEquityTable.build(5)
    >>> round(table.equity(3, 5), 3), round(table.equity(5, 3), 3)
    (0.655, 0.345)
    """

    def __init__(self, length: int, model: MetModel, equities: dict[Stage, FloatArray]) -> None:
        self.length = length
        self.model = model
        self._equities = equities

    @classmethod
    def build(cls, length: int = LENGTH, model: MetModel | None = None) -> MatchEquityTable:
        """Compute the table (about 0.05 s at 25 points, 0.4 s at 64)."""
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise ValueError(f"a table covers 1-away or more, not {length!r}")
        model = model or MetModel()
        # Filled as plain lists (read back thousands of times while building), then kept as arrays.
        rows = {stage: [[math.nan] * (length + 1) for _ in range(length + 1)] for stage in Stage}
        rows[Stage.PRE][1][1] = 0.5
        scores = sorted(
            ((a, b) for a in range(1, length + 1) for b in range(1, length + 1) if (a, b) != (1, 1)),
            key=sum,
        )
        for a, b in scores:
            if min(a, b) > 1:
                stages = [Stage.PRE]
            else:
                stages = [Stage.CRAWFORD, Stage.POST] if model.crawford else [Stage.POST]
            for stage in stages:
                rows[stage][a][b] = _game_value(model, rows, a, b, stage)
        return cls(length, model, {stage: np.array(rows[stage]) for stage in Stage})

    @staticmethod
    def stage(away_me: int, away_opponent: int, crawford: bool = False) -> Stage:
        """The stage of a game at this score: ``crawford`` says whether it is the Crawford game."""
        one_away = (away_me == 1) != (away_opponent == 1)
        if crawford and not one_away:
            raise ValueError(
                f"the Crawford game has one player 1-away, not {away_me}-away/{away_opponent}-away"
            )
        if not one_away:
            return Stage.PRE
        return Stage.CRAWFORD if crawford else Stage.POST

    def equity(
        self, away_me: int, away_opponent: int, crawford: bool = False, post_crawford: bool | None = None
    ) -> float:
        """The chance that the player needing ``away_me`` wins the match, a game starting now.

        A score at or below 0 is a finished match (1 or 0). At a 1-away score,
        ``crawford`` picks the Crawford game; otherwise it is post-Crawford
        (``post_crawford`` may say so, and must not contradict it).
        """
        if away_me <= 0 or away_opponent <= 0:
            if away_me <= 0 and away_opponent <= 0:
                raise ValueError("both players cannot have won the match")
            return 1.0 if away_me <= 0 else 0.0
        if post_crawford and (crawford or (away_me == 1) == (away_opponent == 1)):
            raise ValueError(
                f"{away_me}-away/{away_opponent}-away{' in the Crawford game' if crawford else ''}"
                " is not post-Crawford"
            )
        stage = self.stage(away_me, away_opponent, crawford)
        if max(away_me, away_opponent) > self.length:
            raise ValueError(f"this table stops at {self.length}-away")
        if stage is Stage.CRAWFORD and not self.model.crawford:
            raise ValueError("this table is for matches without the Crawford rule")
        return float(self._equities[stage][away_me, away_opponent])

    def after(self, away_me: int, away_opponent: int, points: int, crawford: bool = False) -> float:
        """The match winning chance once the game at this score ends with ``points`` won (or lost, < 0).

        Points past the match length count for nothing (P1); the next game's
        stage follows the Crawford rule (P2): ``crawford`` says whether this
        game is the Crawford game.
        """
        return self._after(away_me, away_opponent, points, self.stage(away_me, away_opponent, crawford))

    def _after(self, away_me: int, away_opponent: int, points: int, stage: Stage) -> float:
        me, opponent = (away_me - points, away_opponent) if points > 0 else (away_me, away_opponent + points)
        if me <= 0 or opponent <= 0:
            return 1.0 if me <= 0 else 0.0
        if min(me, opponent) > 1 or me == opponent:
            return self.equity(me, opponent)
        crawford = stage is Stage.PRE and self.model.crawford
        return self.equity(me, opponent, crawford=crawford)

    def outcomes(
        self, away_me: int, away_opponent: int, cube_value: int = 1, crawford: bool = False
    ) -> tuple[float, float, float, float, float, float]:
        """Match winning chances after a single win, gammon, backgammon, single loss, gammon, backgammon.

        >>> [round(mwc, 3) for mwc in default_table().outcomes(3, 3, 2)]
        [0.752, 1.0, 1.0, 0.248, 0.0, 0.0]
        """
        stage = self.stage(away_me, away_opponent, crawford)
        wins = [self._after(away_me, away_opponent, kind * cube_value, stage) for kind in (1, 2, 3)]
        losses = [self._after(away_me, away_opponent, -kind * cube_value, stage) for kind in (1, 2, 3)]
        return wins[0], wins[1], wins[2], losses[0], losses[1], losses[2]

    def cubeless(
        self,
        probabilities: Sequence[float] | npt.NDArray[np.floating],
        away_me: int,
        away_opponent: int,
        cube_value: int = 1,
        crawford: bool = False,
    ) -> float:
        """The match winning chance if this game is played out at ``cube_value`` with no more doubles.

        >>> round(default_table().cubeless([0.5, 0.0, 0.0, 0.0, 0.0], 3, 3, 2), 3)
        0.5
        """
        win, gammon, backgammon, lost_gammon, lost_backgammon = (float(v) for v in probabilities)
        shares = (
            win - gammon,
            gammon - backgammon,
            backgammon,
            1 - win - lost_gammon,
            lost_gammon - lost_backgammon,
            lost_backgammon,
        )
        values = self.outcomes(away_me, away_opponent, cube_value, crawford)
        return sum(share * value for share, value in zip(shares, values, strict=True))

    def to_equity(
        self, mwc: float, away_me: int, away_opponent: int, cube_value: int = 1, crawford: bool = False
    ) -> float:
        """A match winning chance as a money-like equity: +1 is a single win at the cube, -1 a single loss.

        >>> table = default_table()
        >>> table.to_equity(table.after(4, 6, 2), 4, 6, 2), table.to_equity(table.after(4, 6, -2), 4, 6, 2)
        (1.0, -1.0)
        """
        win, _, _, lose, _, _ = self.outcomes(away_me, away_opponent, cube_value, crawford)
        return 2 * (mwc - lose) / (win - lose) - 1

    def from_equity(
        self, equity: float, away_me: int, away_opponent: int, cube_value: int = 1, crawford: bool = False
    ) -> float:
        """The inverse of :meth:`to_equity`."""
        win, _, _, lose, _, _ = self.outcomes(away_me, away_opponent, cube_value, crawford)
        return lose + (win - lose) * (equity + 1) / 2

    def format(self, size: int = 11) -> str:
        """The pre-Crawford table (the Crawford game in the 1-away row and column) and post-Crawford row."""
        size = min(size, self.length)
        lines = ["away " + "".join(f"{b:>7}" for b in range(1, size + 1))]
        for a in range(1, size + 1):
            row = [
                self.equity(a, b, crawford=self.model.crawford and (a == 1) != (b == 1))
                for b in range(1, size + 1)
            ]
            lines.append(f"{a:>4} " + "".join(f"{100 * v:7.2f}" for v in row))
        post = [self.equity(a, 1) for a in range(1, size + 1)]
        lines.append("post " + "".join(f"{100 * v:7.2f}" for v in post))
        return "\n".join(lines)


@functools.cache
def default_table(length: int = LENGTH, crawford: bool = True) -> MatchEquityTable:
    """The table from the default :class:`MetModel`, computed once and kept."""
    return MatchEquityTable.build(length, MetModel(crawford=crawford))


def table_for(away_me: int, away_opponent: int, crawford_rule: bool = True) -> MatchEquityTable:
    """A default table long enough for this score: :data:`LENGTH`-away, or the longest match's.

    Every match Tavola plays fits the second (:data:`~tavola.matchrules.MAX_MATCH_LENGTH`, built
    in well under a second); a longer score gets a table of its own length.
    """
    needed = max(away_me, away_opponent, 1)
    return default_table(LENGTH if needed <= LENGTH else max(needed, MAX_MATCH_LENGTH), crawford_rule)


def match_equity(
    away_me: int, away_opponent: int, crawford: bool = False, post_crawford: bool | None = None
) -> float:
    """The chance that the player needing ``away_me`` points wins the match (:meth:`MatchEquityTable.equity`).

    >>> round(match_equity(2, 2), 3), round(match_equity(4, 2), 3)
    (0.5, 0.319)
    """
    return table_for(away_me, away_opponent).equity(away_me, away_opponent, crawford, post_crawford)


def match_equity_after(away_me: int, away_opponent: int, points: int, crawford: bool = False) -> float:
    """The chance once the current game ends with ``points`` won (negative: lost).

    See :meth:`MatchEquityTable.after`.
    """
    return table_for(away_me, away_opponent).after(away_me, away_opponent, points, crawford)


def mwc_to_equity(
    mwc: float, away_me: int, away_opponent: int, cube_value: int = 1, crawford: bool = False
) -> float:
    """A match winning chance as a money-like equity at this score and cube (see ``to_equity``).

    >>> round(mwc_to_equity(0.5, 7, 7), 6)
    0.0
    """
    return table_for(away_me, away_opponent).to_equity(mwc, away_me, away_opponent, cube_value, crawford)


def equity_to_mwc(
    equity: float, away_me: int, away_opponent: int, cube_value: int = 1, crawford: bool = False
) -> float:
    """A money-like equity as a match winning chance (:meth:`~MatchEquityTable.from_equity`).

    >>> equity_to_mwc(1.0, 2, 2, 2)
    1.0
    """
    return table_for(away_me, away_opponent).from_equity(equity, away_me, away_opponent, cube_value, crawford)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the default table: ``python -m tavola.bot.met [--size 11] [--no-crawford]``."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--no-crawford", action="store_true", help="matches without the Crawford rule")
    args = parser.parse_args(argv)
    print(default_table(max(LENGTH, args.size), not args.no_crawford).format(args.size))


if __name__ == "__main__":
    main()
