"""The bot as one object: plays, hints, evaluations and cube decisions.

:class:`Bot` puts the evaluator, the search and the cube together, for the
Python API and for the ``tavola engine`` protocol (:mod:`tavola.engine`).
Positions are seen from the player on roll; a match is given as the points
each side still needs.

>>> from tavola import Dice, Position
>>> from tavola.bot.evaluate import Evaluator
>>> bot = Bot(Evaluator.untrained(hidden=8, seed=1), level="advanced")
>>> bot.play(Position.start(), Dice(3, 1)).play.dice
Dice(3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from tavola.bot.cube import CubeDecision, match_decision, money_decision, position_efficiency
from tavola.bot.evaluate import Evaluator
from tavola.bot.met import mwc_to_equity, table_for
from tavola.bot.network import equity
from tavola.bot.search import Level, RankedPlay, evaluate_ply, level, rank_plays
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.engine import MatchScore, Request, RequestError
from tavola.errors import TavolaError
from tavola.play import Play
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant

PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


@dataclass(frozen=True)
class Choice:
    """A play the bot judged: the play, its probabilities and equity for the mover, the search's depth."""

    play: Play
    probabilities: tuple[float, ...]
    equity: float
    plies: int


@dataclass(frozen=True)
class Evaluation:
    """A position judged for its player on roll: cubeless probabilities and equity, and the cube decision."""

    probabilities: tuple[float, ...]
    cubeless_equity: float
    cube: CubeDecision

    @property
    def cubeful_equity(self) -> float:
        """Money: points per unit of the cube with the cube played right; a match: the same in match terms."""
        return self.cube.equity


class Bot:
    """Tavola's bot with ``evaluator`` (the shipped networks by default), playing at ``level``."""

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        level: str = "world-class",
        rng: np.random.Generator | int | None = None,
    ) -> None:
        self.evaluator = evaluator or Evaluator.default()
        self.level_name = level
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self._level(level)  # refuse an unknown level at once

    def _level(self, name: str | None) -> Level:
        try:
            return level(name or self.level_name)
        except KeyError as error:
            raise TavolaError(str(error.args[0])) from None

    # --- checker play -------------------------------------------------------------------

    def hint(
        self,
        position: Position,
        dice: Dice,
        variant: Variant = STANDARD,
        level: str | None = None,
        match: MatchScore | None = None,
        cube_value: int = 1,
    ) -> list[Choice]:
        """Every legal play, best first, as the level's search judged them (without its noise).

        In a ``match`` the plays are ranked by match winning chances at the
        score and ``cube_value`` (gammons count for what they do to the match),
        their equities given back in money terms (:meth:`MatchEquityTable.to_equity`);
        the search itself looks ahead by money equity.
        """
        chosen = self._level(level)
        plays = position.legal_plays(dice, variant)
        evaluator = self.evaluator.for_variant(variant)
        ranked = rank_plays(evaluator, position, dice, chosen.plies, chosen.filter, flags=variant.flags)
        choices = [self._choice(plays[item.index], item) for item in ranked]
        if match is None:
            return choices
        away = match.away
        table = table_for(away[0], away[1])
        judged = []
        for choice in choices:
            mwc = table.cubeless(choice.probabilities, away[0], away[1], cube_value, match.crawford)
            judged.append(
                replace(choice, equity=table.to_equity(mwc, away[0], away[1], cube_value, match.crawford))
            )
        return sorted(judged, key=lambda choice: (-choice.plies, -choice.equity))

    def play(
        self,
        position: Position,
        dice: Dice,
        variant: Variant = STANDARD,
        level: str | None = None,
        match: MatchScore | None = None,
        cube_value: int = 1,
    ) -> Choice:
        """The play the bot makes at ``level``: the best, or at weak levels the best once noise blurs them."""
        chosen = self._level(level)
        ranked = self.hint(position, dice, variant, level, match, cube_value)
        if chosen.noise > 0 and len(ranked) > 1:
            blurred = [choice.equity + self.rng.normal(0.0, chosen.noise) for choice in ranked]
            return ranked[int(np.argmax(blurred))]
        return ranked[0]

    @staticmethod
    def _choice(play: Play, item: RankedPlay) -> Choice:
        return Choice(play, tuple(float(p) for p in item.probabilities), float(item.equity), item.plies)

    # --- positions and the cube -----------------------------------------------------------

    def evaluate(
        self,
        position: Position,
        cube: Cube | None = None,
        match: MatchScore | None = None,
        rules: Rules | None = None,
        level: str | None = None,
    ) -> Evaluation:
        """The position judged for its player on roll (player 0 of ``cube``), before the roll."""
        plies = self._level(level).plies
        probabilities = evaluate_ply(self.evaluator, position.to_array()[None], plies)[0]
        decision = self._cube(probabilities, position_efficiency(position), cube, match, rules)
        return Evaluation(
            tuple(float(p) for p in probabilities), float(equity(probabilities[None])[0]), decision
        )

    def probabilities(self, position: Position, level: str | None = None) -> npt.NDArray[np.float32]:
        """The five cubeless probabilities of ``position``'s player on roll, at ``level``'s depth."""
        plies = self._level(level).plies
        values: npt.NDArray[np.float32] = evaluate_ply(self.evaluator, position.to_array()[None], plies)[0]
        return values

    def cube(
        self,
        position: Position,
        cube: Cube | None = None,
        match: MatchScore | None = None,
        rules: Rules | None = None,
        level: str | None = None,
    ) -> CubeDecision:
        """The cube decision for the player on roll, and the answer the doubled player should give."""
        return self.evaluate(position, cube, match, rules, level).cube

    @staticmethod
    def _cube(
        probabilities: np.ndarray,
        efficiency: float,
        cube: Cube | None,
        match: MatchScore | None,
        rules: Rules | None,
    ) -> CubeDecision:
        if match is None:
            return money_decision(probabilities, cube, rules, player=0, efficiency=efficiency)
        return match_decision(
            probabilities,
            match.away,
            cube,
            crawford=match.crawford,
            rules=rules,
            player=0,
            efficiency=efficiency,
        )

    # --- the engine protocol --------------------------------------------------------------

    def answer(self, request: Request) -> dict[str, Any]:
        """The reply fields for an engine request (see :mod:`tavola.engine`)."""
        if request.command in ("play", "hint"):
            if request.dice is None:
                raise RequestError(f"dice: {request.command} needs the dice, such as [6, 5]")
            cube_value = request.cube.value
            if request.command == "play":
                chosen = self.play(
                    request.position, request.dice, request.variant, request.level, request.match, cube_value
                )
                return {
                    "play": chosen.play.notation,
                    "position_id": _id(chosen.play.after),
                    "equity": round(chosen.equity, 4),
                }
            ranked = self.hint(
                request.position, request.dice, request.variant, request.level, request.match, cube_value
            )
            return {"plays": [_choice_json(choice) for choice in ranked]}
        evaluation = self.evaluate(
            request.position, request.cube, request.match, request.rules, request.level
        )
        if request.command == "evaluate":
            return _evaluation_json(evaluation, request.match)
        decision = evaluation.cube
        if request.doubled:
            return {
                "action": decision.response.value if decision.response else "take",
                "decision": str(decision),
            }
        return {"action": decision.title.lower(), "decision": str(decision)}


def _id(position: Position) -> str:
    return position.position_id() if position.waiting == (0, 0) else position.tavola_id()


def _probabilities_json(values: tuple[float, ...]) -> dict[str, float]:
    return {name: round(value, 4) for name, value in zip(PROBABILITY_NAMES, values, strict=True)}


def _choice_json(choice: Choice) -> dict[str, Any]:
    return {
        "play": choice.play.notation,
        "position_id": _id(choice.play.after),
        "equity": round(choice.equity, 4),
        "probabilities": _probabilities_json(choice.probabilities),
        "plies": choice.plies,
    }


def _evaluation_json(evaluation: Evaluation, match: MatchScore | None) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "probabilities": _probabilities_json(evaluation.probabilities),
        "cubeless_equity": round(evaluation.cubeless_equity, 4),
    }
    if match is None:
        reply["cubeful_equity"] = round(evaluation.cubeful_equity, 4)
    else:
        mwc = evaluation.cubeful_equity
        reply["match_winning_chance"] = round(mwc, 4)
        reply["cubeful_equity"] = round(
            mwc_to_equity(mwc, match.away[0], match.away[1], 1, match.crawford), 4
        )
    return reply
