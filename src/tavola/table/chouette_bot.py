"""The bot as a chouette player: the action it takes as one player of a :class:`ChouetteGame`.

It rolls when it is the roller, plays the checkers at its level, doubles a
cube and answers a double by the money cube decision of that cube (the
position judged for the side on roll), declines the box's partnership (H9)
and gives no extras (H7). It takes a beavered double back, as the two-player
bot does at money, rather than dropping at the lower stake.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavola.actions import Played, Roll
from tavola.bot.cube import CubeAction, CubeResponse, position_decision
from tavola.bot.player import CUBE_LEVEL, Bot
from tavola.chouette import (
    Beaver,
    ChouetteGame,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    Offer,
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
        return Played(bot.play(turn.start, turn.dice, game.settings.variant, legal=turn.legal).play)
    if phase is Phase.ROLL:
        double = _double(bot, game, player, actions)
        if double is not None:
            return double
    return Roll() if Roll() in actions else None


def _probabilities(bot: Bot, game: ChouetteGame) -> npt.NDArray[np.float32]:
    """The side on roll's probabilities, judged as every cube decision is (:data:`CUBE_LEVEL`)."""
    return bot.probabilities(game.position, CUBE_LEVEL, game.settings.variant)


def _decision_for(
    game: ChouetteGame, probabilities: npt.NDArray[np.float32], cube: Cube, doubler: Side
) -> tuple[CubeAction, CubeResponse]:
    """The money cube decision on ``cube`` for ``doubler``, the side on roll, and the answer to it."""
    rules = game.settings.rules
    decision = position_decision(probabilities, game.position, cube, rules, player=int(doubler))
    return decision.action, decision.response or CubeResponse.TAKE


def _double(bot: Bot, game: ChouetteGame, player: str, actions: list[ChouetteAction]) -> Double | None:
    """The double the bot makes: the legal one naming just the opponents whose cube it should double."""
    doubles = [action for action in actions if isinstance(action, Double)]
    if not doubles:
        return None
    side, probabilities = game.side_of(player), _probabilities(bot, game)
    wanted = {
        bet.opponent(player)
        for bet in game.bets
        if bet.is_live
        and player in bet.key
        and _decision_for(game, probabilities, bet.cube, side)[0] is CubeAction.DOUBLE
    }
    exact = [double for double in doubles if set(double.against) == wanted]
    covering = [double for double in doubles if wanted <= set(double.against)]
    chosen = exact or covering
    return chosen[0] if wanted and chosen else None


def _answer(bot: Bot, game: ChouetteGame, player: str, actions: list[ChouetteAction]) -> ChouetteAction:
    """Take, drop or beaver the first group of doubles waiting for ``player``, by the first cube of it."""
    first = actions[0]
    assert isinstance(first, Take)
    names = first.against
    offer = next(offer for offer in game.offers if _answered_by(game, offer, player) in names)
    if offer.answering is offer.doubler:  # a beaver comes back to the bot: it plays on
        return Take(names)
    bets = {bet.key: bet for bet in game.bets}
    _action, response = _decision_for(game, _probabilities(bot, game), bets[offer.bet].cube, offer.doubler)
    if response is CubeResponse.DROP:
        return Drop(names)
    if response is CubeResponse.BEAVER and Beaver(names) in actions:
        return Beaver(names)
    return Take(names)


def _answered_by(game: ChouetteGame, offer: Offer, player: str) -> str | None:
    """The opponent whose double ``player`` answers in ``offer``, if ``player`` is the one answering."""
    box_side, team_side = offer.bet
    answering = box_side if offer.answering is Side.BOX else team_side
    if answering != player:
        return None
    return team_side if answering == box_side else box_side
