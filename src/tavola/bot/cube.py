"""Cube decisions: double or not, take, drop or beaver, for money and in matches.

Every decision starts from the five cubeless probabilities of the player on
roll (:mod:`tavola.bot.network`) and turns them into cubeful equities.

Money (:func:`money_decision`) uses Janowski's cube-life model. A won game is
worth ``W`` points on average (gammons and backgammons included) and a lost
one ``L``. With a perfectly live cube the equity is piecewise linear in the
winning chance ``p``: the opponent doubles us out at our take point
``(L - 1/2) / (W + L + 1/2)``, we double them out at our cash point
``(L + 1) / (W + L + 1/2)``, and beyond those points the side that is too good
plays on for its gammons. With a dead cube the equity is the cubeless one. The
cubeful equity takes ``x`` of the first and ``1 - x`` of the second, ``x`` (the
cube efficiency) being :data:`~tavola.bot.measured.CUBE_EFFICIENCY` unless given. Under the Jacoby
rule (M5) gammons count only after the cube is turned, so while it is centred
the too-good regions are worth one point and the dead-cube equity counts every
game single. Money equities are per unit of the cube's current value: a
double that is dropped is worth +1.

In a match (:func:`match_decision`) the same model runs on match winning
chances: the ends of the game are the table's values (:mod:`tavola.bot.met`)
at the scores a single, gammon or backgammon win or loss at the cube's value
leads to, the live-cube value comes from :class:`~tavola.bot.met.CubefulGame`
with the position's own gammon shares, and ``x`` again mixes it with the dead
cube. A cube that cannot help its owner (a win at its value already takes them
to the match) is dead; in the Crawford game nobody doubles (P2); after it the
leader's cube is dead and the trailer doubles at once, and the leader drops
when the trailer's chances are better than a drop's (their free drop at an
even-away score). Match equities are match winning chances.

The answer to a double, and to each immediate redouble after it, is one rule
(:func:`answers`, :func:`answer`; :func:`decide` for many rows): a take
leaves the cube at the offer's value with the player doubled first, so a take
after ``r`` immediate redoubles is worth ``2**r`` times the double's take; a
drop pays the value before the offer; and where the rules allow another
immediate redouble (a beaver, then a raccoon..., M3, M4) it is worth the
offer it makes, answered in turn at best. The side answering picks what is
best for it; on a tie a take, then a drop. Where every take is a beaver (M6)
the take is not open and the answer is a beaver or a drop.

>>> print(money_decision([0.52, 0.15, 0.01, 0.13, 0.01]))
No double, take (no double +0.086, double/take -0.259, double/pass +1.000)
>>> print(money_decision([0.99, 0.0, 0.0, 0.0, 0.0]))
Double, drop (no double +0.996, double/take +1.952, double/pass +1.000)
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tavola.bot.features import in_contact
from tavola.bot.measured import CONTACT_EFFICIENCY, CUBE_EFFICIENCY, RACE_EFFICIENCY
from tavola.bot.met import CubefulGame, GammonRates, MatchEquityTable, Stage, table_for
from tavola.cube import Cube
from tavola.game import Game, Phase
from tavola.position import Position
from tavola.rules import Rules

if TYPE_CHECKING:
    from tavola.bot.context import CubeContext


def position_efficiency(position: Position) -> float:
    """Janowski's ``x`` for ``position``, as measured for its class (:mod:`tavola.bot.measured`).

    :data:`~tavola.bot.measured.CONTACT_EFFICIENCY`, or
    :data:`~tavola.bot.measured.RACE_EFFICIENCY` in a race.

    >>> position_efficiency(Position.start()), position_efficiency(Position([2] + [0] * 22 + [-2]))
    (0.72, 0.68)
    """
    return CONTACT_EFFICIENCY if in_contact(position.to_array()) else RACE_EFFICIENCY


def efficiencies(boards: npt.ArrayLike) -> FloatArray:
    """:func:`position_efficiency` of many positions at once (arrays seen from the player on roll).

    >>> efficiencies([Position.start().to_array(), Position([2] + [0] * 22 + [-2]).to_array()]).tolist()
    [0.72, 0.68]
    """
    from tavola.bot.evaluate import contact  # the evaluator's batched test of contact

    rows = np.asarray(boards, dtype=np.int8).reshape(-1, np.shape(boards)[-1])
    found: FloatArray = np.where(contact(rows), CONTACT_EFFICIENCY, RACE_EFFICIENCY)
    return found


Probabilities = Sequence[float] | npt.NDArray[np.floating]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class CubeAction(enum.Enum):
    """What the player on roll should do with the cube."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TOO_GOOD = "too good to double"


class CubeResponse(enum.Enum):
    """What the doubled player should do with a double."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision and the equities behind it, for the player on roll.

    ``no_double``, ``double_take`` and ``double_pass`` are the player on roll's
    equities after no double, a double that is taken and one that is dropped;
    ``double_beaver`` after a double that is beavered (money with beavers
    allowed only). They are points per unit of the cube (money) or match
    winning chances (``match``). Where the player on roll cannot double,
    ``reason`` says why, and the double's equities and the answer are None.
    """

    action: CubeAction
    response: CubeResponse | None
    no_double: float
    double_take: float | None = None
    double_pass: float | None = None
    double_beaver: float | None = None
    redouble: bool = False
    match: bool = False
    reason: str | None = None

    @property
    def equity(self) -> float:
        """The player on roll's equity when both sides decide right."""
        if self.action is not CubeAction.DOUBLE or self.response is None:
            return self.no_double
        value = {
            CubeResponse.TAKE: self.double_take,
            CubeResponse.DROP: self.double_pass,
            CubeResponse.BEAVER: self.double_beaver,
        }[self.response]
        return self.no_double if value is None else value

    @property
    def title(self) -> str:
        """The decision in words: "Double, take", "Too good to redouble, drop", "No double: ..."."""
        verb = "redouble" if self.redouble else "double"
        if self.reason is not None:
            return f"No {verb}: {self.reason}"
        action = {
            CubeAction.NO_DOUBLE: f"No {verb}",
            CubeAction.DOUBLE: verb.capitalize(),
            CubeAction.TOO_GOOD: f"Too good to {verb}",
        }[self.action]
        return f"{action}, {self.response.value}" if self.response else action

    def _show(self, value: float) -> str:
        return f"{100 * value:.1f}%" if self.match else f"{value:+.3f}"

    def __str__(self) -> str:
        parts = [("no double", self.no_double), ("double/take", self.double_take)]
        parts += [("double/pass", self.double_pass), ("double/beaver", self.double_beaver)]
        shown = ", ".join(f"{name} {self._show(value)}" for name, value in parts if value is not None)
        return f"{self.title} ({shown})"


# --- money -----------------------------------------------------------------------------------


def _five(probabilities: Probabilities) -> tuple[float, float, float, float, float]:
    values = np.asarray(probabilities, dtype=np.float64).reshape(-1)
    if values.shape != (5,):
        raise ValueError(
            f"one position's five probabilities, not an array of shape {np.shape(probabilities)}"
        )
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(v) for v in values)
    return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon


CENTRED = -1
"""The owner code of a centred cube in the batched functions (0: the player on roll's, 1: the opponent's)."""


def _janowski_live(
    p: FloatArray, win: FloatArray, lose: FloatArray, owner: IntArray, jacoby: BoolArray
) -> FloatArray:
    """The perfectly live cube's equity: straight lines between the take and cash points (one per row)."""
    take = (lose - 0.5) / (win + lose + 0.5)
    cash = (lose + 1.0) / (win + lose + 0.5)
    centred_jacoby = jacoby & (owner == CENTRED)
    low, low_value = np.where(owner == 0, 0.0, take), np.where(owner == 0, -lose, -1.0)
    high, high_value = np.where(owner == 1, 1.0, cash), np.where(owner == 1, win, 1.0)
    between = low_value + (high_value - low_value) * (p - low) / (high - low)
    doubled_out = np.where(centred_jacoby, -1.0, -lose + (lose - 1.0) * p / take)
    cashing = np.where(centred_jacoby, 1.0, 1.0 + (win - 1.0) * (p - cash) / (1.0 - cash))
    value = np.where((owner != 1) & (p >= cash), cashing, between)  # we may cash: play on for gammons
    live: FloatArray = np.where((owner != 0) & (p < take), doubled_out, value)  # they may double us out
    return live


def money_equities(
    probabilities: npt.ArrayLike,
    owner: npt.ArrayLike = CENTRED,
    *,
    jacoby: npt.ArrayLike = False,
    gammons: bool = True,
    efficiency: npt.ArrayLike = CUBE_EFFICIENCY,
) -> FloatArray:
    """:func:`money_equity` of many positions at once: one row of five probabilities each.

    ``owner`` (one code, or one per row) is :data:`CENTRED`, 0 (the player
    on roll's) or 1 (the opponent's); ``jacoby`` and ``efficiency`` are one
    value or one per row.

    >>> money_equities([[0.6, 0, 0, 0, 0], [0.8, 0, 0, 0, 0]], [CENTRED, 0], efficiency=1.0).round(6).tolist()
    [0.333333, 1.0]
    """
    table = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
    rows = len(table)
    codes = np.broadcast_to(np.asarray(owner, dtype=np.int64), (rows,))
    x = np.broadcast_to(np.asarray(efficiency, dtype=np.float64), (rows,))
    p = table[:, 0]
    gained = table[:, 1] + table[:, 2] if gammons else np.zeros(rows)
    lost = table[:, 3] + table[:, 4] if gammons else np.zeros(rows)
    centred_jacoby = np.broadcast_to(np.asarray(jacoby, dtype=bool), (rows,)) & (codes == CENTRED)
    dead = 2 * p - 1 + np.where(centred_jacoby, 0.0, gained - lost)
    with np.errstate(divide="ignore", invalid="ignore"):  # the rows at p = 0 or 1 take the dead cube
        win = 1 + gained / p
        lose = 1 + lost / (1 - p)
        live = _janowski_live(p, win, lose, codes, centred_jacoby)
    certain = (p <= 1e-9) | (p >= 1 - 1e-9)
    equities: FloatArray = np.where(certain, dead, x * live + (1 - x) * dead)
    return equities


def money_equity(
    probabilities: Probabilities,
    owner: int | None = None,
    *,
    jacoby: bool = False,
    gammons: bool = True,
    efficiency: float = CUBE_EFFICIENCY,
) -> float:
    """The cubeful money equity of the player on roll, per unit of the cube.

    ``owner`` is the cube's owner seen from the player on roll: None (centred),
    0 (theirs) or 1 (the opponent's). ``jacoby`` applies the Jacoby rule to a
    centred cube (M5); ``gammons=False`` counts every game single (M6).

    >>> round(money_equity([0.6, 0.0, 0.0, 0.0, 0.0]), 3)  # centred: x of 1/3 and 1 - x of 0.2
    0.305
    >>> round(money_equity([0.8, 0.0, 0.0, 0.0, 0.0], owner=0, efficiency=1.0), 6)  # the cash point
    1.0
    """
    chances = _five(probabilities)
    code = CENTRED if owner is None else owner
    return float(money_equities(chances, code, jacoby=jacoby, gammons=gammons, efficiency=efficiency)[0])


def _why_no_double(cube: Cube, player: int, rules: Rules, may_double: bool) -> str | None:
    if not rules.cube:
        return "these rules have no doubling cube"
    if not cube.may_double(player):
        return "the cube is the opponent's (C2)"
    if not may_double:
        return "the game does not allow a double now (such as the Holland rule's first two turns, P3)"
    return None


ACTIONS = (CubeAction.NO_DOUBLE, CubeAction.DOUBLE, CubeAction.TOO_GOOD)
"""The actions in the order of :attr:`CubeDecisions.action`'s codes."""
RESPONSES = (CubeResponse.TAKE, CubeResponse.DROP, CubeResponse.BEAVER)
"""The answers in the order of :attr:`CubeDecisions.response`'s codes (-1: no double to answer)."""
_NO_DOUBLE, _DOUBLE, _TOO_GOOD = range(3)
_TAKE, _DROP, _BEAVER = range(3)


@dataclass(frozen=True)
class CubeDecisions:
    """The cube decisions of many positions, one entry per row (the batched :class:`CubeDecision`).

    ``action`` and ``response`` are codes into :data:`ACTIONS` and
    :data:`RESPONSES` (``response`` -1 where the player on roll may not
    double); the equities are as in :class:`CubeDecision`, NaN where there
    is none. :meth:`row` gives one row as a :class:`CubeDecision`.
    """

    action: IntArray
    response: IntArray
    no_double: FloatArray
    double_take: FloatArray
    double_pass: FloatArray
    double_beaver: FloatArray

    def __len__(self) -> int:
        return len(self.action)

    @property
    def doubles(self) -> BoolArray:
        """Where the player on roll doubles (not where too good)."""
        doubles: BoolArray = self.action == _DOUBLE
        return doubles

    def row(self, index: int, *, redouble: bool = False, match: bool = False) -> CubeDecision:
        """Row ``index`` as a :class:`CubeDecision`."""
        response = int(self.response[index])

        def value(column: FloatArray) -> float | None:
            number = float(column[index])
            return None if np.isnan(number) else number

        return CubeDecision(
            ACTIONS[int(self.action[index])],
            None if response < 0 else RESPONSES[response],
            float(self.no_double[index]),
            value(self.double_take),
            value(self.double_pass),
            value(self.double_beaver),
            redouble=redouble,
            match=match,
        )


def _offer_answers(take: FloatArray, passed: FloatArray, rules: Rules, redoubles: int) -> FloatArray:
    """Each row's answers to an offer after ``redoubles`` immediate redoubles, valued for the first doubler.

    Columns in :data:`RESPONSES`' order (a take, a drop, the next immediate
    redouble); NaN where an answer is not open. ``take`` and ``passed`` are
    the first double's take and drop for the doubler.
    """
    rows = len(take)
    scale = float(2**redoubles)
    values = np.full((rows, len(RESPONSES)), np.nan)
    values[:, _TAKE] = scale * take
    values[:, _DROP] = passed if redoubles == 0 else (-scale if redoubles % 2 else scale)
    if redoubles < rules.beavers:
        deeper = _offer_answers(take, passed, rules, redoubles + 1)
        values[:, _BEAVER] = _answered(deeper, redoubles + 1)
        if rules.automatic_beavers and redoubles == 0:  # every take is a beaver (M6)
            values[:, _TAKE] = np.nan
    return values


def _chosen(values: FloatArray, redoubles: int) -> IntArray:
    """The answer each row's side answering picks: its best, on a tie the first open (take, drop, redouble).

    The doubled player answers after an even number of immediate redoubles,
    the first doubler after an odd number; ``values`` are the doubler's.
    """
    own = values if redoubles % 2 else -values
    chosen: IntArray = np.argmax(np.where(np.isnan(own), -np.inf, own), axis=1)
    return chosen


def answer_codes(
    double_take: npt.ArrayLike, double_pass: npt.ArrayLike, rules: Rules, redoubles: int
) -> IntArray:
    """:func:`answer` of many rows at once, as codes into :data:`RESPONSES`: the answer to an offer after
    ``redoubles`` immediate redoubles, from each row's take and drop for the first doubler.

    >>> [RESPONSES[code].value for code in answer_codes([-0.2, -1.2], 1.0, Rules(beavers=2), 1)]
    ['take', 'drop']
    """
    take = np.atleast_1d(np.asarray(double_take, dtype=np.float64))
    passed = np.broadcast_to(np.asarray(double_pass, dtype=np.float64), take.shape)
    return _chosen(_offer_answers(take, passed, rules, redoubles), redoubles)


def _answered(values: FloatArray, redoubles: int) -> FloatArray:
    """The doubler's value of each row's offer, answered at best."""
    found: FloatArray = values[np.arange(len(values)), _chosen(values, redoubles)]
    return found


def decide(
    no_double: npt.ArrayLike,
    double_take: npt.ArrayLike,
    double_pass: npt.ArrayLike,
    rules: Rules,
    *,
    match: bool = False,
    may_double: npt.ArrayLike = True,
) -> CubeDecisions:
    """The action and the answer from the three equities of the player on roll, row by row.

    The one rule of every cube decision, of the model's equities and of
    rolled-out ones alike. The doubled player answers as :func:`answers`
    values the answers (every immediate redouble the rules allow looked
    at); ``double_beaver`` is the doubler's value after a beaver answered
    at best. The player on roll doubles when the answer leaves them more
    than not doubling, and is too good to double when not doubling is worth
    at least a drop. Where ``may_double`` is False the action is no double
    and the double's equities are NaN.

    >>> print(decide(0.6, 1.2, 1.0, Rules()).row(0))
    Double, drop (no double +0.600, double/take +1.200, double/pass +1.000)
    >>> print(decide(0.3, -0.2, 1.0, Rules(beavers=2)).row(0))  # beavered; a raccoon would lose more
    No double, beaver (no double +0.300, double/take -0.200, double/pass +1.000, double/beaver -0.400)
    """
    nd = np.atleast_1d(np.asarray(no_double, dtype=np.float64))
    rows = len(nd)
    dt = np.broadcast_to(np.asarray(double_take, dtype=np.float64), (rows,))
    dp = np.broadcast_to(np.asarray(double_pass, dtype=np.float64), (rows,))
    allowed = np.broadcast_to(np.asarray(may_double, dtype=bool), (rows,))
    chain = rules if not match else Rules()  # no beavers in a match (P4)
    values = _offer_answers(dt, dp, chain, 0)
    response = _chosen(values, 0)
    answered = values[np.arange(rows), response]
    beaver = values[:, _BEAVER]
    action = np.where(answered > nd, _DOUBLE, np.where(nd >= dp, _TOO_GOOD, _NO_DOUBLE))
    nowhere = np.full(rows, np.nan)
    return CubeDecisions(
        np.where(allowed, action, _NO_DOUBLE).astype(np.int64),
        np.where(allowed, response, -1).astype(np.int64),
        nd.copy(),
        np.where(allowed, dt, nowhere),
        np.where(allowed, dp, nowhere),
        np.where(allowed, beaver, nowhere),
    )


def answers(decision: CubeDecision, rules: Rules, redoubles: int = 0) -> dict[CubeResponse, float]:
    """The answers open to the side answering an offer after ``redoubles`` immediate redoubles (0: the
    double itself, answered by the doubled player; 1: a beaver, answered by the doubler; 2: a raccoon...),
    each valued for the doubler, the player on roll of ``decision``, in its terms (points per unit of the
    cube before the double, or match winning chances). :data:`CubeResponse.BEAVER` is the next immediate
    redouble, where the rules allow one (M3, M4). None where the decision has no double to value (a
    double of a dead cube in a match: the model values no take of it).

    >>> decision = money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=2))
    >>> {answer.value: round(value, 3) for answer, value in answers(decision, Rules(beavers=2), 1).items()}
    {'take': -0.518, 'drop': -2.0, 'beaver': -1.037}
    """
    if decision.double_take is None or decision.double_pass is None:
        return {}  # a double the model does not value: a dead cube in a match
    chain = Rules() if decision.match else rules
    if redoubles < 0 or redoubles > chain.beavers:
        raise ValueError(f"these rules allow {chain.beavers} immediate redoubles, not {redoubles}")
    values = _offer_answers(
        np.array([decision.double_take]), np.array([decision.double_pass]), chain, redoubles
    )[0]
    return {RESPONSES[code]: float(value) for code, value in enumerate(values) if not np.isnan(value)}


def answering_values(decision: CubeDecision, rules: Rules, redoubles: int = 0) -> dict[CubeResponse, float]:
    """:func:`answers` valued for the side answering rather than the first doubler: the negative for money,
    the complement in match winning chances, where the doubled side answers.

    >>> decision = money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=1))
    >>> found = answering_values(decision, Rules(beavers=1))
    >>> {answer.value: round(value, 3) for answer, value in found.items()}
    {'take': 0.259, 'drop': -1.0, 'beaver': 0.518}
    """
    found = answers(decision, rules, redoubles)
    if redoubles % 2:  # the first doubler answers a beaver, and every odd redouble after it
        return found
    return {response: (1.0 - value) if decision.match else -value for response, value in found.items()}


def answer(decision: CubeDecision, rules: Rules, redoubles: int = 0) -> CubeResponse:
    """The answer the side answering an offer after ``redoubles`` immediate redoubles gives: the one rule
    of every take, drop, beaver and raccoon (:func:`answers`; on a tie a take, then a drop). A double
    of a dead cube in a match, which the model does not value, is taken: it gains the doubler nothing.

    >>> decision = money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=2))
    >>> answer(decision, Rules(beavers=2)), answer(decision, Rules(beavers=2), 1)
    (<CubeResponse.BEAVER: 'beaver'>, <CubeResponse.TAKE: 'take'>)
    """
    found = answering_values(decision, rules, redoubles)
    if not found:  # a double of a dead cube gains the doubler nothing: it is taken
        return CubeResponse.TAKE
    return max(found, key=found.__getitem__)


def money_decisions(
    probabilities: npt.ArrayLike,
    owner: npt.ArrayLike,
    rules: Rules,
    *,
    turned: npt.ArrayLike = False,
    efficiency: npt.ArrayLike = CUBE_EFFICIENCY,
    may_double: npt.ArrayLike = True,
) -> CubeDecisions:
    """:func:`money_decision` of many positions at once, equities per unit of each one's cube.

    ``owner`` is each cube's owner code (:data:`CENTRED`, 0 the player on
    roll, 1 the opponent), ``turned`` whether a double of it was taken (the
    Jacoby rule counts until then, M5); a row may double where ``may_double``
    and the cube is not the opponent's.

    >>> found = money_decisions([[0.52, 0.15, 0.01, 0.13, 0.01], [0.99, 0, 0, 0, 0]], CENTRED, Rules())
    >>> [ACTIONS[code].value for code in found.action], [RESPONSES[code].value for code in found.response]
    (['no double', 'double'], ['take', 'drop'])
    """
    table = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
    codes = np.broadcast_to(np.asarray(owner, dtype=np.int64), (len(table),))
    jacoby = rules.jacoby & ~np.broadcast_to(np.asarray(turned, dtype=bool), (len(table),))
    no_double = money_equities(table, codes, jacoby=jacoby, gammons=rules.gammons, efficiency=efficiency)
    double_take = 2 * money_equities(table, 1, gammons=rules.gammons, efficiency=efficiency)
    allowed = np.asarray(may_double, dtype=bool) & (codes != 1) & rules.cube
    return decide(no_double, double_take, 1.0, rules, may_double=allowed)


def money_decision(
    probabilities: Probabilities,
    cube: Cube | None = None,
    rules: Rules | None = None,
    *,
    player: int = 0,
    efficiency: float = CUBE_EFFICIENCY,
    may_double: bool = True,
) -> CubeDecision:
    """The money cube decision for ``player``, on roll, and the doubled player's answer.

    ``may_double=False`` says the game forbids a double now for a reason the
    cube and rules do not show.

    >>> print(money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=1)))
    No double, beaver (no double +0.086, double/take -0.259, double/pass +1.000, double/beaver -0.518)
    """
    cube, rules = cube or Cube(), rules or Rules()
    owner = cube.owner_seen_by(player)
    code = CENTRED if owner is None else owner
    found = money_decisions(
        _five(probabilities), code, rules, turned=cube.is_turned, efficiency=efficiency, may_double=True
    )
    reason = _why_no_double(cube, player, rules, may_double)
    if reason is not None:
        return CubeDecision(
            CubeAction.NO_DOUBLE, None, float(found.no_double[0]), redouble=owner == 0, reason=reason
        )
    return found.row(0, redouble=owner == 0)


# --- match play ------------------------------------------------------------------------------


def _match_game(
    probabilities: Probabilities, away: tuple[int, int], stage: Stage, table: MatchEquityTable, rules: Rules
) -> CubefulGame:
    """The live-cube model of this game at this score."""
    me, opponent = away
    rates = GammonRates.of(probabilities) if rules.gammons else GammonRates()

    def helps(value: int, player: int) -> bool:
        return rules.cube and stage is not Stage.CRAWFORD and value < away[player]

    crawford = stage is Stage.CRAWFORD
    return CubefulGame(lambda points: table.after(me, opponent, points, crawford), rates, helps)


def _match_setup(
    away: tuple[int, int], crawford: bool, rules: Rules | None, table: MatchEquityTable | None
) -> tuple[Rules, MatchEquityTable, Stage]:
    if len(away) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in away):
        raise ValueError(f"a score is the points each player still needs, 1 or more, not {away!r}")
    rules = rules or Rules()
    rules.check_for_match()
    table = table or table_for(away[0], away[1], rules.crawford)
    return rules, table, table.stage(away[0], away[1], crawford)


def match_cubeful(
    probabilities: Probabilities,
    away: tuple[int, int],
    cube: Cube | None = None,
    *,
    crawford: bool = False,
    rules: Rules | None = None,
    player: int = 0,
    table: MatchEquityTable | None = None,
    efficiency: float = CUBE_EFFICIENCY,
) -> float:
    """The cubeful match winning chance of ``player``, on roll, who needs ``away[0]`` points to ``away[1]``.

    >>> round(match_cubeful([0.5, 0.0, 0.0, 0.0, 0.0], (3, 3)), 3)
    0.5
    """
    cube = cube or Cube()
    rules, table, stage = _match_setup(away, crawford, rules, table)
    game = _match_game(probabilities, away, stage, table, rules)
    return _cubeful(game, _five(probabilities)[0], cube.value, cube.owner_seen_by(player), efficiency)


def _cubeful(game: CubefulGame, p: float, value: int, owner: int | None, efficiency: float) -> float:
    """The model's cubeful match winning chance: ``x`` of the live cube's, the rest the dead cube's."""
    return efficiency * game.curve(value, owner)(p) + (1 - efficiency) * game.dead(value)(p)


def match_decisions(
    probabilities: npt.ArrayLike,
    away: tuple[int, int],
    value: npt.ArrayLike,
    owner: npt.ArrayLike,
    *,
    crawford: bool = False,
    rules: Rules | None = None,
    table: MatchEquityTable | None = None,
    efficiency: npt.ArrayLike = CUBE_EFFICIENCY,
    may_double: npt.ArrayLike = True,
) -> CubeDecisions:
    """:func:`match_decision` of many positions at one score, in match winning chances.

    Each row has its cube's ``value`` and ``owner`` code (:data:`CENTRED`,
    0 the player on roll, 1 the opponent); ``away`` is seen from the player
    on roll of every row. The live cube's model depends on each position's
    own gammon shares, so it is worked out row by row (the same row once);
    the decision is :func:`decide`'s for all rows at once.

    >>> found = match_decisions([[0.5, 0.14, 0.005, 0.14, 0.005]] * 2, (3, 1), [1, 1], [CENTRED, 1])
    >>> print(found.row(0, match=True))
    Double, take (no double 30.5%, double/take 32.0%, double/pass 49.1%)
    >>> found.doubles.tolist()  # the second row's cube is the opponent's
    [True, False]
    """
    rules, table, stage = _match_setup(away, crawford, rules, table)
    chances = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
    rows = len(chances)
    values = np.broadcast_to(np.asarray(value, dtype=np.int64), (rows,))
    codes = np.broadcast_to(np.asarray(owner, dtype=np.int64), (rows,))
    x = np.broadcast_to(np.asarray(efficiency, dtype=np.float64), (rows,))
    allowed = np.asarray(may_double, dtype=bool) & (codes != 1) & (values < away[0])
    allowed = allowed & rules.cube & (stage is not Stage.CRAWFORD)
    no_double, double_take, double_pass = np.empty(rows), np.full(rows, np.nan), np.full(rows, np.nan)
    seen: dict[tuple[bytes, int, int, float, bool], tuple[float, float, float]] = {}
    for row in range(rows):
        cube_value, code, share = int(values[row]), int(codes[row]), float(x[row])
        doubling = bool(allowed[row])
        key = (chances[row].tobytes(), cube_value, code, share, doubling)
        if key not in seen:
            game = _match_game(chances[row], away, stage, table, rules)
            p, held = float(chances[row, 0]), None if code == CENTRED else code
            figures = (_cubeful(game, p, cube_value, held, share), math.nan, math.nan)
            if doubling:
                dropped = table.after(away[0], away[1], cube_value, stage is Stage.CRAWFORD)
                figures = (figures[0], _cubeful(game, p, 2 * cube_value, 1, share), dropped)
            seen[key] = figures
        no_double[row], double_take[row], double_pass[row] = seen[key]
    return decide(no_double, double_take, double_pass, rules, match=True, may_double=allowed)


def _why_no_match_double(cube: Cube, away: tuple[int, int], stage: Stage) -> str | None:
    if stage is Stage.CRAWFORD:
        return "the Crawford game, nobody doubles (P2)"
    if cube.value >= away[0]:
        if away[0] == 1:
            return "1-away, a double gains nothing (the cube is dead)"
        return f"a win at {cube.value} already takes the player on roll to the match (the cube is dead)"
    return None


def match_decision(
    probabilities: Probabilities,
    away: tuple[int, int],
    cube: Cube | None = None,
    *,
    crawford: bool = False,
    rules: Rules | None = None,
    player: int = 0,
    table: MatchEquityTable | None = None,
    efficiency: float = CUBE_EFFICIENCY,
    may_double: bool = True,
) -> CubeDecision:
    """The cube decision at a match score for ``player``, on roll, and the doubled player's answer.

    ``away`` is (the points the player on roll still needs, the points the
    opponent needs); ``crawford`` says whether this is the Crawford game; a
    1-away score that is not is post-Crawford. Equities are match winning
    chances.

    >>> print(match_decision([0.5, 0.14, 0.005, 0.14, 0.005], (3, 1)))  # post-Crawford: the trailer doubles
    Double, take (no double 30.5%, double/take 32.0%, double/pass 49.1%)
    """
    cube = cube or Cube()
    rules, table, stage = _match_setup(away, crawford, rules, table)
    owner = cube.owner_seen_by(player)
    code = CENTRED if owner is None else owner
    found = match_decisions(
        _five(probabilities), away, cube.value, code, crawford=crawford, rules=rules, table=table,
        efficiency=efficiency,
    )  # fmt: skip
    reason = _why_no_double(cube, player, rules, True) or _why_no_match_double(cube, away, stage)
    reason = reason or _why_no_double(cube, player, rules, may_double)
    if reason is not None:
        no_double = float(found.no_double[0])
        return CubeDecision(
            CubeAction.NO_DOUBLE, None, no_double, redouble=owner == 0, match=True, reason=reason
        )
    return found.row(0, redouble=owner == 0, match=True)


# --- a game in progress ----------------------------------------------------------------------


def game_decision(
    game: Game,
    probabilities: Probabilities,
    context: CubeContext | None = None,
    *,
    table: MatchEquityTable | None = None,
    efficiency: float | None = None,
) -> CubeDecision:
    """The cube decision in ``game``, before the roll or when a double (or its beaver) waits for its answer.

    ``probabilities`` are the player on roll's; ``context`` the game's cube
    context from any side (:meth:`CubeContext.of_game
    <tavola.bot.context.CubeContext.of_game>`, money when None), turned here
    to the player on roll's. Whether the game allows a double now (the
    Crawford game, the Holland rule, the cube's owner) comes from the game;
    Janowski's ``x`` from its position (:func:`position_efficiency`) unless given.
    """
    from tavola.bot.context import CubeContext  # the context values positions with this module's model

    player = game.player_on_roll
    if game.phase is Phase.ROLL:
        may_double = game.may_double(player)
    elif game.phase is Phase.DOUBLED:
        may_double = True  # a double was offered (and perhaps beavered): its answers are the decision's
    else:
        raise ValueError(
            f"cube decisions come before the roll or to answer a double, not in {game.phase.value}"
        )
    seen = (context or CubeContext.of_game(game)).seen_by(player)
    return position_decision(
        probabilities, game.position, seen, table=table, efficiency=efficiency, may_double=may_double
    )


def position_decision(
    probabilities: Probabilities,
    position: Position,
    context: CubeContext | None = None,
    *,
    table: MatchEquityTable | None = None,
    efficiency: float | None = None,
    may_double: bool = True,
) -> CubeDecision:
    """The cube decision of ``position``'s player on roll, whose side ``context`` is from (money with a
    centred cube when None), for money or in a match.

    The one computation behind :func:`game_decision` and
    :meth:`tavola.bot.player.Bot.evaluate`: :func:`money_decision` for money,
    else :func:`match_decision` at the context's score, Janowski's ``x``
    from the position (:func:`position_efficiency`) unless given.

    >>> print(position_decision([0.99, 0.0, 0.0, 0.0, 0.0], Position([2] + [0] * 22 + [-2])))
    Double, drop (no double +0.994, double/take +1.953, double/pass +1.000)
    """
    if efficiency is None:
        efficiency = position_efficiency(position)
    cube, rules, player = Cube(), Rules(), 0
    if context is not None:
        cube, rules, player = context.cube, context.rules, context.player
    if context is None or context.away is None:
        return money_decision(
            probabilities, cube, rules, player=player, efficiency=efficiency, may_double=may_double
        )
    return match_decision(
        probabilities,
        context.away,
        cube,
        crawford=context.crawford,
        rules=rules,
        player=player,
        table=table,
        efficiency=efficiency,
        may_double=may_double,
    )
