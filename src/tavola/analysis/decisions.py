"""Decisions made from the judgements: a checker play, a double or not, an answer, a resignation.

Both the whole-match analysis (:mod:`tavola.analysis.analyze`) and the
single judgements for live use (:mod:`tavola.analysis.judge`) make their
:class:`~tavola.analysis.model.Decision` values here, from the numbers the
batched searches found: a :class:`~tavola.analysis.checkers.JudgedSpot`
for a play, the player on roll's probabilities for the cube.

>>> from tavola.game import Game
>>> from tavola.position import Position
>>> game = Game(position=Position.start(), player_on_roll=0)
>>> decision, close = doubling_decision(game, [0.5, 0.1, 0.0, 0.1, 0.0], None, doubled=True, where=(1, 1))
>>> decision.played, decision.best, decision.cube_error, close
('double, take', 'no double', <CubeError.WRONG_DOUBLE: 'wrong double'>, False)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavola.actions import Action, Beaver, Drop, Take
from tavola.analysis.checkers import JudgedSpot
from tavola.analysis.cubes import (
    answer_choices,
    answer_error,
    doubling_choices,
    doubling_error,
    redouble_name,
)
from tavola.analysis.model import CLOSE_CUBE, Alternative, CubeError, Decision, luck_of, skill_of
from tavola.bot.context import CubeContext
from tavola.bot.cube import game_decision
from tavola.cube import CubeOffer
from tavola.game import Ending, Game
from tavola.play import Play
from tavola.position import WinKind
from tavola.scoring import score_win

TINY = 1e-9
"""Losses below this are rounding, not errors."""

Probabilities = npt.NDArray[np.float32] | list[float]
Where = tuple[int, int]
"""A decision's game and move numbers, from 1."""


def mwc_loss(best: Alternative, played: Alternative) -> float | None:
    """The loss in match winning chances (None for money)."""
    if best.mwc is None or played.mwc is None:
        return None
    return max(0.0, best.mwc - played.mwc)


@dataclass(frozen=True)
class Luck:
    """A roll's luck: normalised, and in the terms of the result (points at the cube, or match chances)."""

    normalised: float
    in_result: float


def move_decision(
    where: Where, player: int, play: Play, game: Game, judged: JudgedSpot, luck: Luck | None = None
) -> Decision:
    """The checker play ``play`` of ``player`` (before it is made in ``game``), as ``judged``."""
    assert judged.played is not None
    turn = game.turn
    forced = turn is None or len(turn.legal) <= 1
    loss = max(0.0, judged.best.equity - judged.played.equity)
    return Decision(
        game=where[0],
        move=where[1],
        player=player,
        kind="move",
        position=play.before,
        dice=play.dice,
        cube=game.cube,
        played=judged.played.text,
        best=judged.best.text,
        equity_loss=loss,
        mwc_loss=mwc_loss(judged.best, judged.played),
        skill=skill_of(loss),
        alternatives=judged.alternatives,
        luck=None if luck is None else luck.normalised,
        luck_class=luck_of(0.0 if luck is None else luck.normalised),
        forced=forced,
        luck_result=None if luck is None else luck.in_result,
        obvious=judged.obvious or forced,
    )


def cube_decision(
    where: Where,
    game: Game,
    context: CubeContext,
    choices: list[tuple[str, float]],
    played: str,
    error: CubeError,
    plies: int = 0,
    offer: CubeOffer | None = None,
    open_choices: int | None = None,
) -> Decision:
    """The cube decision of ``context.player`` among ``choices`` (best first; values in the series' terms);
    ``offer`` is the double it answers, if it is an answer. Where ``open_choices`` is given, the choices
    after that many are shown for reference only (a double answered otherwise than at best)."""
    alternatives = tuple(
        Alternative(
            text,
            context.normalised(value),
            context.mwc(value),
            plies,
            reference=open_choices is not None and rank >= open_choices,
        )
        for rank, (text, value) in enumerate(choices)
    )
    best = alternatives[0]
    mine = next(alternative for alternative in alternatives if alternative.text == played)
    loss = max(0.0, best.equity - mine.equity)
    return Decision(
        game=where[0],
        move=where[1],
        player=context.player,
        kind="cube",
        position=game.position_for(context.player),
        dice=None,
        cube=game.cube,
        played=played,
        best=best.text,
        equity_loss=loss,
        mwc_loss=mwc_loss(best, mine),
        skill=skill_of(loss),
        alternatives=alternatives,
        cube_error=error if loss > TINY else None,
        offer=offer,
    )


def doubling_decision(
    game: Game,
    probabilities: Probabilities,
    context: CubeContext | None,
    *,
    doubled: bool,
    where: Where,
    plies: int = 0,
) -> tuple[Decision, bool] | None:
    """The player on roll's double (``doubled``) or no double in ``game`` (before the roll), and whether it
    was close (:data:`~tavola.analysis.model.CLOSE_CUBE`); None where the cube cannot turn. ``context`` is
    the game's cube context from either side (money when None)."""
    context = (context or CubeContext.of_game(game)).seen_by(game.player_on_roll)
    decision = game_decision(game, probabilities, context)
    if decision.reason is not None or decision.double_take is None:
        return None
    choices = doubling_choices(decision, game.rules)
    double = next(text for text, _ in choices[:2] if text != "no double")
    played = double if doubled else "no double"
    values = dict(choices)
    close = context.normalised(values[double]) >= context.normalised(values["no double"]) - CLOSE_CUBE
    error = doubling_error(played)
    return cube_decision(where, game, context, choices, played, error, plies, open_choices=2), close


def answer_decision(
    game: Game,
    probabilities: Probabilities,
    context: CubeContext | None,
    action: Action,
    *,
    where: Where,
    plies: int = 0,
) -> Decision | None:
    """The answer ``action`` (a take, a drop, a beaver or raccoon) to the double waiting in ``game``;
    ``probabilities`` are the player on roll's (the doubler's), ``context`` the game's cube context from
    either side (money when None). None where the cube model has no take to judge (a double with a dead
    cube in a match)."""
    assert game.offer is not None
    context = context or CubeContext.of_game(game)
    decision = game_decision(game, probabilities, context)
    if decision.double_take is None:
        return None
    assert game.cube_offer is not None
    redoubles = game.cube_offer.redoubles
    choices = sorted(answer_choices(decision, game.rules, redoubles), key=lambda choice: -choice[1])
    if isinstance(action, Take) and not (game.rules.automatic_beavers and redoubles == 0):
        played = "take"
    elif isinstance(action, Drop):
        played = "drop"
    elif isinstance(action, Beaver | Take):  # where every take is a beaver, a take is one (M6)
        played = redouble_name(redoubles)
    else:
        raise ValueError(f"an answer to a double is a take, a drop or a beaver, not {action!r}")
    offer = game.cube_offer
    answering = offer.answering
    context = context.seen_by(answering)
    error = answer_error(played, choices[0][0])
    return cube_decision(where, game, context, choices, played, error, plies, offer)


@dataclass(frozen=True)
class Resignation:
    """A resignation offered, valued for the resigner: resigning, and playing on."""

    context: CubeContext
    resigning: float
    playing_on: float

    @classmethod
    def of(cls, game: Game, context: CubeContext, kind: int, playing_on: float) -> Resignation:
        """The resignation of ``kind`` (a :class:`~tavola.position.WinKind`) by ``context.player``."""
        won = score_win(1 - context.player, WinKind(kind), game.cube, game.rules, Ending.RESIGNATION).points
        if context.away is None:
            return cls(context, -won / game.cube.value, playing_on)
        return cls(context, context.table.after(*context.away, -won, game.crawford), playing_on)

    def offered(self, where: Where, game: Game, plies: int = 0) -> Decision:
        """The resigner's decision."""
        choices = sorted([("resign", self.resigning), ("play on", self.playing_on)], key=lambda c: -c[1])
        return cube_decision(where, game, self.context, choices, "resign", CubeError.WRONG_RESIGNATION, plies)

    def answered(self, where: Where, game: Game, accepted: bool, plies: int = 0) -> Decision:
        """The answer's decision."""
        context = self.context
        accept, decline = context.seen_by_opponent(self.resigning), context.seen_by_opponent(self.playing_on)
        choices = sorted([("accept", accept), ("decline", decline)], key=lambda choice: -choice[1])
        played = "accept" if accepted else "decline"
        error = CubeError.WRONG_RESIGNATION
        return cube_decision(where, game, context.other_side(), choices, played, error, plies)
