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

The doubled player's answer: take when the game after the take is worth at
least as much as the drop; with beavers allowed (M3), *beaver* when their
cubeful equity after the take is positive: they then do better at twice the
stake, keeping the cube (the doubler may drop the beaver, so the beaver is
worth at most two points; raccoons are not looked at).

>>> print(money_decision([0.52, 0.15, 0.01, 0.13, 0.01]))
No double, take (no double +0.086, double/take -0.259, double/pass +1.000)
>>> print(money_decision([0.99, 0.0, 0.0, 0.0, 0.0]))
Double, drop (no double +0.996, double/take +1.952, double/pass +1.000)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavola.bot.features import in_contact
from tavola.bot.measured import CONTACT_EFFICIENCY, CUBE_EFFICIENCY, RACE_EFFICIENCY
from tavola.bot.met import CubefulGame, GammonRates, MatchEquityTable, Stage, table_for
from tavola.cube import Cube
from tavola.game import Game, Phase
from tavola.position import Position
from tavola.rules import Rules


def position_efficiency(position: Position) -> float:
    """Janowski's ``x`` for ``position``, as measured for its class (:mod:`tavola.bot.measured`).

    :data:`~tavola.bot.measured.CONTACT_EFFICIENCY`, or
    :data:`~tavola.bot.measured.RACE_EFFICIENCY` in a race.

    >>> position_efficiency(Position.start()), position_efficiency(Position([2] + [0] * 22 + [-2]))
    (0.8, 0.61)
    """
    return CONTACT_EFFICIENCY if in_contact(position.to_array()) else RACE_EFFICIENCY


Probabilities = Sequence[float] | npt.NDArray[np.floating]


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


def _relative(cube: Cube, player: int) -> int | None:
    """The cube's owner seen from ``player``: None centred, 0 ``player``, 1 the opponent."""
    if player not in (0, 1):
        raise ValueError(f"players are 0 and 1, not {player!r}")
    return None if cube.owner is None else int(cube.owner != player)


def _janowski_live(p: float, win: float, lose: float, owner: int | None, jacoby: bool) -> float:
    """The perfectly live cube's equity: straight lines between the take and cash points."""
    take = (lose - 0.5) / (win + lose + 0.5)
    cash = (lose + 1.0) / (win + lose + 0.5)
    if owner != 0 and p < take:  # the opponent may double us out: we are too far behind
        return -1.0 if jacoby and owner is None else -lose + (lose - 1.0) * p / take
    if owner != 1 and p >= cash:  # we may cash: beyond it we play on for the gammons
        return 1.0 if jacoby and owner is None else 1.0 + (win - 1.0) * (p - cash) / (1.0 - cash)
    low, low_value = (0.0, -lose) if owner == 0 else (take, -1.0)
    high, high_value = (1.0, win) if owner == 1 else (cash, 1.0)
    return low_value + (high_value - low_value) * (p - low) / (high - low)


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
    p, win_gammon, win_backgammon, lose_gammon, lose_backgammon = _five(probabilities)
    if not gammons:
        win_gammon = win_backgammon = lose_gammon = lose_backgammon = 0.0
    jacoby = jacoby and owner is None
    dead = 2 * p - 1 + (0.0 if jacoby else win_gammon + win_backgammon - lose_gammon - lose_backgammon)
    if p <= 1e-9 or p >= 1 - 1e-9:
        return dead
    win = 1 + (win_gammon + win_backgammon) / p
    lose = 1 + (lose_gammon + lose_backgammon) / (1 - p)
    live = _janowski_live(p, win, lose, owner, jacoby)
    return efficiency * live + (1 - efficiency) * dead


def _why_no_double(cube: Cube, player: int, rules: Rules, may_double: bool) -> str | None:
    if not rules.cube:
        return "these rules have no doubling cube"
    if not cube.may_double(player):
        return "the cube is the opponent's (C2)"
    if not may_double:
        return "the game does not allow a double now (such as the Holland rule's first two turns, P3)"
    return None


def _choose(no_double: float, double_value: float, double_pass: float) -> CubeAction:
    if double_value > no_double:
        return CubeAction.DOUBLE
    return CubeAction.TOO_GOOD if no_double >= double_pass else CubeAction.NO_DOUBLE


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
    owner = _relative(cube, player)
    jacoby = rules.jacoby and not cube.is_turned  # M5, as the game scores it
    no_double = money_equity(
        probabilities, owner, jacoby=jacoby, gammons=rules.gammons, efficiency=efficiency
    )
    reason = _why_no_double(cube, player, rules, may_double)
    if reason is not None:
        return CubeDecision(CubeAction.NO_DOUBLE, None, no_double, redouble=owner == 0, reason=reason)
    double_take = 2 * money_equity(probabilities, 1, gammons=rules.gammons, efficiency=efficiency)
    response, answered = _money_answer(-double_take, rules)
    beaver = -min(-2 * double_take, 2.0) if rules.beavers else None
    action = _choose(no_double, answered, 1.0)
    return CubeDecision(action, response, no_double, double_take, 1.0, beaver, redouble=owner == 0)


def _money_answer(take: float, rules: Rules) -> tuple[CubeResponse, float]:
    """The doubled player's best answer, and the doubler's equity after it.

    ``take`` is the doubled player's equity after a take, per unit of the cube
    before the double. A beaver doubles it, but the doubler may drop the
    beaver for two units.
    """
    beaver = min(2 * take, 2.0)
    answers = {CubeResponse.TAKE: take, CubeResponse.DROP: -1.0}
    if rules.automatic_beavers:  # every take is a beaver (M6)
        answers = {CubeResponse.BEAVER: beaver, CubeResponse.DROP: -1.0}
    elif rules.beavers:
        answers[CubeResponse.BEAVER] = beaver
    response = max(answers, key=lambda answer: answers[answer])  # on a tie the first: a take
    return response, -answers[response]


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
    p = _five(probabilities)[0]
    live = game.curve(cube.value, _relative(cube, player))(p)
    return efficiency * live + (1 - efficiency) * game.dead(cube.value)(p)


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
    owner = _relative(cube, player)
    game = _match_game(probabilities, away, stage, table, rules)
    p = _five(probabilities)[0]

    def cubeful(value: int, holder: int | None) -> float:
        return efficiency * game.curve(value, holder)(p) + (1 - efficiency) * game.dead(value)(p)

    no_double = cubeful(cube.value, owner)
    reason = _why_no_double(cube, player, rules, True) or _why_no_match_double(cube, away, stage)
    reason = reason or _why_no_double(cube, player, rules, may_double)
    if reason is not None:
        return CubeDecision(
            CubeAction.NO_DOUBLE, None, no_double, redouble=owner == 0, match=True, reason=reason
        )
    double_take = cubeful(2 * cube.value, 1)
    double_pass = table.after(away[0], away[1], cube.value, stage is Stage.CRAWFORD)
    response = CubeResponse.TAKE if double_take <= double_pass else CubeResponse.DROP
    action = _choose(no_double, min(double_take, double_pass), double_pass)
    return CubeDecision(
        action, response, no_double, double_take, double_pass, redouble=owner == 0, match=True
    )


# --- a game in progress ----------------------------------------------------------------------


def game_decision(
    game: Game,
    probabilities: Probabilities,
    away: tuple[int, int] | None = None,
    *,
    table: MatchEquityTable | None = None,
    efficiency: float | None = None,
) -> CubeDecision:
    """The cube decision in ``game``, before the roll or when a double (or its beaver) waits for its answer.

    ``probabilities`` are the player on roll's; ``away`` is the match score
    from their side (None for money). Whether the game allows a double now
    (the Crawford game, the Holland rule, the cube's owner) comes from the game;
    Janowski's ``x`` from its position (:func:`position_efficiency`) unless given.
    """
    if efficiency is None:
        efficiency = position_efficiency(game.position)
    player = game.player_on_roll
    if game.phase is Phase.ROLL:
        may_double = game.may_double(player)
    elif game.phase is Phase.DOUBLED:
        may_double = True  # a double was offered (and perhaps beavered): its answers are the decision's
    else:
        raise ValueError(
            f"cube decisions come before the roll or to answer a double, not in {game.phase.value}"
        )
    if away is None:
        return money_decision(
            probabilities, game.cube, game.rules, player=player, efficiency=efficiency, may_double=may_double
        )
    return match_decision(
        probabilities,
        away,
        game.cube,
        crawford=game.crawford,
        rules=game.rules,
        player=player,
        table=table,
        efficiency=efficiency,
        may_double=may_double,
    )
