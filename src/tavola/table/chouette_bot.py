"""The bot as a chouette player: the action it takes as one player of a :class:`ChouetteGame`.

It rolls when it is the roller, plays the checkers at its level, doubles a
cube by the money cube decision of that cube (the position judged for the
side on roll), answers a double, a beaver or a raccoon as its advice says
(:meth:`~tavola.bot.player.Bot.advise` on :func:`~tavola.bot.advice.ask_chouette`,
what a hint gives the same player), declines the box's partnership (H9) and
gives no extras (H7).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavola.actions import Played, Roll
from tavola.bot.advice import ask_chouette
from tavola.bot.context import CubeContext
from tavola.bot.cube import CubeAction, CubeResponse, position_decision
from tavola.bot.levels import CUBE_LEVEL
from tavola.bot.player import Bot
from tavola.chouette import (
    Beaver,
    ChouetteGame,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    Phase,
    Side,
    Take,
)
from tavola.chouette.actions import ChouetteAction
from tavola.cube import Cube

__all__ = ["choose_chouette_action"]


def choose_chouette_action(bot: Bot, game: ChouetteGame, player: str) -> ChouetteAction | None:
    """What the bot does now as ``player``; None when it has nothing to do or does nothing (no double)."""
    actions = [item.action for item in game.legal_actions(player)]
    if not actions:
        return None
    phase = game.phase
    if phase is Phase.PARTNER:
        return DeclinePartnership()
    if phase is Phase.EXTRAS:
        return DeclineExtra()
    if phase is Phase.ANSWER:
        return _answer(bot, game, player, actions)
    if phase is Phase.MOVE:
        turn = game.turn
        assert turn is not None
        context = _context(game, Cube(), game.side_on_roll)
        return Played(bot.play(turn.start, turn.dice, context, legal=turn.legal).play)
    if phase is Phase.ROLL:
        double = _double(bot, game, player, actions)
        if double is not None:
            return double
    return Roll() if Roll() in actions else None


def _probabilities(bot: Bot, game: ChouetteGame) -> npt.NDArray[np.float32]:
    """The side on roll's probabilities, judged as every cube decision is (at ``CUBE_LEVEL``)."""
    return bot.probabilities(game.position, CUBE_LEVEL, game.settings.variant)


def _context(game: ChouetteGame, cube: Cube, side: Side) -> CubeContext:
    """The money cube context of ``cube`` from ``side``'s point of view."""
    return CubeContext(int(side), cube, game.settings.rules, game.settings.variant)


def _double(bot: Bot, game: ChouetteGame, player: str, actions: list[ChouetteAction]) -> Double | None:
    """The double the bot makes: the legal one naming just the opponents whose cube it should double."""
    doubles = [action for action in actions if isinstance(action, Double)]
    if not doubles:
        return None
    side, probabilities = game.side_of(player), _probabilities(bot, game)

    def doubles_on(cube: Cube) -> bool:
        decision = position_decision(probabilities, game.position, _context(game, cube, side))
        return decision.action is CubeAction.DOUBLE

    live = [bet for bet in game.bets if bet.is_live and player in bet.key]
    wanted = {bet.opponent(player) for bet in live if doubles_on(bet.cube)}
    exact = [double for double in doubles if set(double.against) == wanted]
    covering = [double for double in doubles if wanted <= set(double.against)]
    chosen = exact or covering
    return chosen[0] if wanted and chosen else None


def _answer(bot: Bot, game: ChouetteGame, player: str, actions: list[ChouetteAction]) -> ChouetteAction:
    """Take, drop, beaver or raccoon the first group of doubles waiting for ``player``, as the advice on
    the cube of its first opponent says (the one rule of every answer, :func:`tavola.bot.cube.answer`)."""
    first = actions[0]
    assert isinstance(first, Take)
    names = first.against
    response = bot.advise(ask_chouette(game, player, names[0] if names else None)).answer
    if response is CubeResponse.DROP:
        return Drop(names)
    if response is CubeResponse.BEAVER and Beaver(names) in actions:
        return Beaver(names)
    return Take(names)
