"""The cubes a rollout's trials carry: the bot's cube decisions during a trial, and what each cube pays.

A cubeful trial is one game played by the bot (checker play does not look
at the cube) along which one or more *cube tracks* run: the same game, the
same dice and plays, with a cube each (a value and an owner). For a
position before the roll the tracks are *no double* (the cube as it is)
and *double/take* (twice the value, the opponent's), so both are rolled
out on the same dice and their difference has its own small error.

Before each roll, on each track, the player on roll decides by the cube
model (:func:`tavola.bot.cube.money_decisions` or
:func:`~tavola.bot.cube.match_decisions`, from the evaluator's 0-ply
chances and the position's cube efficiency), and the opponent answers: a
take doubles the cube and gives it to them, a beaver (money, where the
rules allow it) doubles it again (the doubler drops the beaver when that
costs less), a drop ends the track at the cube's value. A track that the
game reaches the end of pays the result at its cube (single under the
Jacoby rule while the cube is centred, M5); a truncated one is judged by
the cube model's cubeful equity there. When every track has ended by a
drop, the game stops.

Results are seen by the rollout's player (``root``): for money in points
per unit of the cube at the start, in a match as match winning chances.
Each result is a linear function of the five outcomes' chances at the
track's cube (:meth:`CubeTerms.outcome_values`), so the luck of each roll
(variance reduction) is taken off it through the same function; it has
mean 0, so the estimate stays unbiased.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from tavola.bot.context import CubeContext
from tavola.bot.cube import (
    CENTRED,
    RESPONSES,
    CubeDecisions,
    answer_codes,
    efficiencies,
    match_decisions,
    money_decisions,
)
from tavola.bot.cube import CubeResponse as Response
from tavola.bot.evaluate import Evaluator
from tavola.bot.met import MatchEquityTable
from tavola.match import MatchScore
from tavola.position import flip_array
from tavola.rules import Rules
from tavola.selfplay import Step

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_TAKE, _DROP, _BEAVER = (RESPONSES.index(answer) for answer in Response)  # the codes of the answers


@dataclass(frozen=True)
class CubeTerms:
    """How a trial's cube is judged: the rollout player's :class:`~tavola.bot.context.CubeContext` at the
    start (the rules, the cube's value, and money or the match score from that player's side).

    >>> from tavola.bot.context import money
    >>> from tavola.cube import Cube
    >>> CubeTerms(money()).outcome_values(np.array([2]), np.array([CENTRED])).tolist()
    [[2.0, 4.0, 6.0, -2.0, -4.0, -6.0]]
    >>> jacoby = CubeContext(0, Cube(), Rules(jacoby=True))
    >>> CubeTerms(jacoby).outcome_values(np.array([1]), np.array([CENTRED])).tolist()
    [[1.0, 1.0, 1.0, -1.0, -1.0, -1.0]]
    """

    context: CubeContext

    @property
    def rules(self) -> Rules:
        return self.context.rules

    @property
    def value(self) -> int:
        """The cube's value at the start: money figures are per unit of it."""
        return self.context.cube.value

    @property
    def match(self) -> MatchScore | None:
        """The match score from the rollout player's side (None for money)."""
        return self.context.score

    @cached_property
    def table(self) -> MatchEquityTable | None:
        """The match equity table for the score (None for money)."""
        return self.context.table if self.context.is_match else None

    def away(self, mine: bool) -> tuple[int, int]:
        """The score seen by the rollout's player (``mine``) or by the opponent."""
        away = (self.context if mine else self.context.other_side()).away
        assert away is not None
        return away

    def outcome_values(self, value: IntArray, owner: IntArray) -> FloatArray:
        """What the game's six ends pay the rollout's player at each cube: (N, 6) array.

        Single, gammon and backgammon wins, then the same losses; in the
        rollout's units (points per unit of the starting cube, or match
        winning chances). ``owner`` is a player or :data:`CENTRED`.
        """
        values = np.asarray(value, dtype=np.int64)
        if self.match is None:
            single = ((owner == CENTRED) & self.rules.jacoby) | (not self.rules.gammons)
            kinds = np.where(single[:, None], 1.0, np.arange(1.0, 4.0)[None, :])
            ratio = (values / self.value)[:, None]
            return np.concatenate([ratio * kinds, -ratio * kinds], axis=1)
        assert self.table is not None
        away = self.match.away
        out = np.empty((len(values), 6))
        for each in np.unique(values):
            ends = self.table.outcomes(away[0], away[1], int(each), self.match.crawford)
            out[values == each] = ends
        if not self.rules.gammons:
            out[:, 1:3] = out[:, [0]]
            out[:, 4:6] = out[:, [3]]
        return out

    def decisions(
        self,
        probabilities: FloatArray,
        value: IntArray,
        owner: IntArray,
        player: IntArray,
        root: int,
        efficiency: FloatArray,
        may_double: bool | BoolArray = True,
    ) -> CubeDecisions:
        """The cube model's decisions for ``player`` on roll with these ``probabilities`` (theirs).

        ``owner`` is a player or :data:`CENTRED`; the equities are per unit
        of each row's cube for money, match winning chances of ``player``
        in a match.
        """
        code = np.where(owner == CENTRED, CENTRED, (owner != player).astype(np.int64))
        if self.match is None:
            return money_decisions(
                probabilities, code, self.rules, turned=owner != CENTRED, efficiency=efficiency,
                may_double=may_double,
            )  # fmt: skip
        allowed = np.broadcast_to(np.asarray(may_double, dtype=bool), (len(value),))
        parts = []
        for mine in (True, False):
            rows = np.flatnonzero((player == root) == mine)
            parts.append(
                (
                    rows,
                    match_decisions(
                        probabilities[rows], self.away(mine), value[rows], code[rows],
                        crawford=self.match.crawford, rules=self.rules, table=self.table,
                        efficiency=efficiency[rows], may_double=allowed[rows],
                    ),
                )
            )  # fmt: skip
        return _joined(len(value), parts)

    def cubeful(
        self,
        probabilities: FloatArray,
        value: IntArray,
        owner: IntArray,
        player: IntArray,
        root: int,
        efficiency: FloatArray,
    ) -> FloatArray:
        """The cube model's cubeful equity of ``player`` on roll, seen by the rollout's player."""
        found = self.decisions(probabilities, value, owner, player, root, efficiency, may_double=False)
        theirs = player != root
        if self.match is None:
            per_unit = found.no_double * value / self.value
            return np.where(theirs, -per_unit, per_unit)
        return np.where(theirs, 1.0 - found.no_double, found.no_double)


def _joined(rows: int, parts: list[tuple[IntArray, CubeDecisions]]) -> CubeDecisions:
    """Decisions of some rows each, put back in the order of the rows."""
    names = ("action", "response", "no_double", "double_take", "double_pass", "double_beaver")
    columns = {name: np.empty(rows, dtype=getattr(parts[0][1], name).dtype) for name in names}
    for which, found in parts:
        for name in names:
            columns[name][which] = getattr(found, name)
    return CubeDecisions(**columns)


def outcome_value(chances: npt.ArrayLike, values: FloatArray) -> FloatArray:
    """What the five outcomes' ``chances`` (win, gammon, backgammon, lose gammon, lose backgammon) pay.

    ``values`` are :meth:`CubeTerms.outcome_values`, one row each.

    >>> outcome_value([[1, 1, 0, 0, 0], [0, 0, 0, 1, 1]], np.array([[1.0, 2, 3, -1, -2, -3]] * 2)).tolist()
    [2.0, -3.0]
    """
    paid: FloatArray = values[:, 3] + (np.asarray(chances, dtype=np.float64) * _slopes(values)).sum(axis=1)
    return paid


def _slopes(values: FloatArray) -> FloatArray:
    """How the value moves with each outcome's chance (the rest of the chances held)."""
    win, gammon, backgammon, loss, lost_gammon, lost_backgammon = values.T
    return np.stack(
        [win - loss, gammon - win, backgammon - gammon, lost_gammon - loss, lost_backgammon - lost_gammon],
        axis=1,
    )


class Tracks:
    """The cube tracks of a block of games, ``len(starts)`` of them per game (see the module docstring).

    ``starts`` are the tracks' cubes at the start, (value, owner) with the
    owner a player or :data:`CENTRED`; with ``first_decision=False`` nobody
    touches the cube at the first turn (the decision the rollout judges).
    """

    def __init__(
        self,
        terms: CubeTerms,
        games: int,
        starts: list[tuple[int, int]],
        root: int,
        *,
        first_decision: bool,
    ) -> None:
        self.terms = terms
        self.root = root
        self.first_decision = first_decision
        self.value = np.tile(np.array([value for value, _ in starts], dtype=np.int64), (games, 1))
        self.owner = np.tile(np.array([owner for _, owner in starts], dtype=np.int64), (games, 1))
        self.alive = np.ones((games, len(starts)), dtype=bool)
        self.result = np.zeros((games, len(starts)))
        self.luck = np.zeros((games, len(starts)))

    def before_roll(self, step: Step, evaluator: Evaluator) -> tuple[BoolArray, FloatArray]:
        """The cube actions before each game's roll at ``step``; which games every track has left.

        Returns a mask over the step's games that ended (all their tracks
        dropped) before the roll, and the 0-ply chances of the player on
        roll there, one row per game that ended.
        """
        games, mover = step.game, step.player.astype(np.int64)
        owner = self.owner[games]
        may = self.alive[games] & ((owner == CENTRED) | (owner == mover[:, None]))
        if not self.first_decision:
            may &= (step.turn != 0)[:, None]
        rows = np.flatnonzero(may.any(axis=1))
        stopped = np.zeros(len(step), dtype=bool)
        if not len(rows):
            return stopped, np.empty((0, 5))
        chances = evaluator.evaluate(step.boards[rows]).astype(np.float64)
        at, track = np.nonzero(may[rows])
        game = games[rows][at]
        who = mover[rows][at]
        found = self.terms.decisions(
            chances[at], self.value[game, track], self.owner[game, track], who, self.root,
            efficiencies(step.boards[rows])[at],
        )  # fmt: skip
        self._answer(found, game, track, who)
        stopped[rows] = ~self.alive[games[rows]].any(axis=1)
        return stopped, chances[stopped[rows]]

    def _answer(self, found: CubeDecisions, game: IntArray, track: IntArray, doubler: IntArray) -> None:
        """The doubles made and their answers, by the one rule of every answer (:func:`answer_codes`):
        a take turns the cube to the player doubled first at the offer's value, a drop ends the track,
        and each immediate redouble (a beaver, a raccoon) is answered in turn by the other side."""
        answering = found.doubles.copy()
        codes = found.response
        redoubles = 0
        while answering.any():
            dropped, taken = answering & (codes == _DROP), answering & (codes == _TAKE)
            winner = doubler if redoubles % 2 == 0 else 1 - doubler  # the side not answering wins a drop
            self._end(game[dropped], track[dropped], winner[dropped], 2**redoubles)
            self.value[game[taken], track[taken]] *= 2 ** (redoubles + 1)
            self.owner[game[taken], track[taken]] = 1 - doubler[taken]
            answering &= codes == _BEAVER
            redoubles += 1
            codes = answer_codes(found.double_take, found.double_pass, self.terms.rules, redoubles)

    def _end(self, game: IntArray, track: IntArray, winner: IntArray, factor: int) -> None:
        """Tracks ended by a drop: ``winner`` wins ``factor`` times the cube's value, single."""
        values = self.terms.outcome_values(self.value[game, track] * factor, self.owner[game, track])
        self.result[game, track] = np.where(winner == self.root, values[:, 0], values[:, 3])
        self.alive[game, track] = False

    def after_roll(
        self,
        step: Step,
        rolled: BoolArray,
        luck: FloatArray,
        over: BoolArray,
        final: FloatArray,
        cut: BoolArray,
        judged: npt.NDArray[np.floating],
    ) -> None:
        """The roll's luck, and the end of the tracks of the games that ended or were cut at ``step``.

        ``rolled``: the step's games that went on to roll; ``luck``: their
        roll's luck (five chances seen by the rollout's player, one row
        per game of the step); ``final``: the chances that pay the games
        that ``over`` says ended (seen by the rollout's player);
        ``judged``: the 0-ply chances of the player on roll next of the
        games ``cut`` (truncated) here.
        """
        games = step.game[rolled]
        at, track = np.nonzero(self.alive[games])
        game = games[at]
        values = self.terms.outcome_values(self.value[game, track], self.owner[game, track])
        self.luck[game, track] += (luck[rolled][at] * _slopes(values)).sum(axis=1)

        ended = step.game[over]
        at, track = np.nonzero(self.alive[ended])
        game = ended[at]
        values = self.terms.outcome_values(self.value[game, track], self.owner[game, track])
        self.result[game, track] = outcome_value(final[at], values)
        self.alive[game, track] = False

        stopped = step.game[cut]
        at, track = np.nonzero(self.alive[stopped])
        game = stopped[at]
        after = step.after[cut][at]
        next_player = 1 - step.player[cut][at].astype(np.int64)
        self.result[game, track] = self.terms.cubeful(
            judged[at].astype(np.float64), self.value[game, track], self.owner[game, track], next_player,
            self.root, efficiencies(flip_array(after)),
        )  # fmt: skip
        self.alive[game, track] = False

    def results(self) -> FloatArray:
        """Each game's result on each track, its luck taken off: (games, tracks)."""
        return self.result - self.luck
