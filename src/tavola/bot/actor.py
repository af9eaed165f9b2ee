"""The bot as a player in a :class:`~tavola.game.Game`: the action it takes, whatever the game waits for.

:func:`choose_action` reads the game's phase and answers with one of the
game's :meth:`~tavola.game.Game.legal_actions`: it rolls or doubles by the
cube decision, takes, drops or beavers a double, answers a resignation by
comparing it with its equity, chooses the Acey-Deucey double that plays
best, and plays checkers at its level. In a match ``away`` is the points
each player still needs, the bot's first.

>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.bot.player import Bot
>>> from tavola.dicesource import RandomDice
>>> from tavola.game import Game
>>> game = Game(dice=RandomDice(seed=3))
>>> bot = Bot(Evaluator.untrained(hidden=8, seed=1))
>>> choose_action(bot, game)
Roll()
"""

from __future__ import annotations

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    DeclineResignation,
    Double,
    Drop,
    Played,
    Roll,
    Take,
)
from tavola.bot.cube import CubeAction, CubeDecision, CubeResponse
from tavola.bot.player import Bot
from tavola.game import Game, Phase
from tavola.match import MatchScore
from tavola.position import WinKind
from tavola.scoring import Ending, score_win
from tavola.variants import Scoring, checkers_left


def choose_action(bot: Bot, game: Game, away: tuple[int, int] | None = None) -> Action:
    """The bot's action in ``game`` as the player to act (``away``: its points to go and its opponent's)."""
    phase = game.phase
    if phase is Phase.OPENING:
        return Roll()
    if phase is Phase.ROLL:
        if game.may_double() and _decision(bot, game, away).action is CubeAction.DOUBLE:
            return Double()
        return Roll()
    if phase is Phase.DOUBLED:
        return _answer_double(bot, game, away)
    if phase is Phase.RESIGNATION:
        return _answer_resignation(bot, game, away)
    if phase is Phase.CHOOSE_DOUBLE:
        return ChooseDouble(_best_double(bot, game))
    if phase is Phase.MOVE:
        turn = game.turn
        assert turn is not None
        match = None if away is None else MatchScore.from_away(away, game.crawford)
        # The turn's own legal plays: generated once, for the bot's choice and for the game that checks it.
        chosen = bot.play(
            turn.start,
            turn.dice,
            game.variant,
            match=match,
            cube_value=game.cube.value,
            legal=turn.legal,
            chosen_double=game.playing_chosen_double,
        )
        return Played(chosen.play)
    raise ValueError("the game is over: there is nothing to do")


def _decision(bot: Bot, game: Game, away: tuple[int, int] | None) -> CubeDecision:
    """The cube decision seen by the player on roll, whoever is to act: the one every hint gives."""
    return bot.cube_decision(game, _from_roller(game, away))


def _from_roller(game: Game, away: tuple[int, int] | None) -> tuple[int, int] | None:
    """``away`` (the acting player's first) turned to the player on roll's side."""
    if away is None or game.player_to_act == game.player_on_roll:
        return away
    return away[1], away[0]


def _answer_double(bot: Bot, game: Game, away: tuple[int, int] | None) -> Action:
    offer = game.offer
    assert offer is not None
    if game.player_to_act != game.player_on_roll:
        # The bot was doubled: the decision's answer is for it.
        response = _decision(bot, game, away).response
        if response is CubeResponse.BEAVER and Beaver() in game.legal_actions():
            return Beaver()
        return Drop() if response is CubeResponse.DROP else Take()
    # The bot doubled and was beavered: it plays on at four times the cube unless that is
    # worse than giving up the doubled stake.
    decision = _decision(bot, game, away)
    beavered = decision.double_beaver if decision.double_beaver is not None else decision.double_take
    if beavered is None or decision.match:
        return Take()
    return Take() if beavered >= -2.0 else Drop()


def _answer_resignation(bot: Bot, game: Game, away: tuple[int, int] | None) -> Action:
    """Accept when the resignation gives at least what the bot expects from playing on (cubeless).

    In a match a resignation that wins the match is always accepted.
    """
    resignation = game.resignation
    assert resignation is not None
    _resigner, kind = resignation
    if away is not None and int(kind) * game.cube.value >= away[0]:
        return AcceptResignation()
    # The resigner is on roll: the bot's expectation is the resigner's equity turned round,
    # in the variant's points (checkers in Acey-Deucey), against what the resignation pays.
    probabilities = bot.probabilities(game.position, level="beginner", variant=game.variant)
    expected = -float(bot.evaluator.for_variant(game.variant).equity(probabilities[None])[0])
    offered = score_win(0, kind, game.cube, game.rules, Ending.RESIGNATION, _checkers_left(game))
    per_cube = offered.points / game.cube.value
    return AcceptResignation() if per_cube >= expected - 1e-9 else DeclineResignation()


def _checkers_left(game: Game) -> int | None:
    """The resigner's checkers not borne off, where the variant pays by them (V2)."""
    return checkers_left(game.position) if game.variant.scoring is Scoring.CHECKERS_LEFT else None


def _best_double(bot: Bot, game: Game) -> int:
    """The double the bot chooses after an Acey-Deucey 1-2 (V2): the first of its hint."""
    return bot.double_hint(game.position, game.variant)[0].play.dice.high


def should_resign(bot: Bot, game: Game) -> WinKind | None:
    """The result the bot offers when the game is lost for certain, or None while it has chances.

    The bot resigns only when the player on roll is itself, no win is left and
    the largest loss is certain: a single game with no gammon chance, a gammon
    with no backgammon chance and no way to save it.
    """
    if game.phase is not Phase.ROLL or game.variant.scoring is not Scoring.STANDARD:
        return None
    win, _, _, lose_gammon, lose_backgammon = (
        float(p) for p in bot.probabilities(game.position, variant=game.variant)
    )
    if win > 0.0 or lose_backgammon > 0.0:
        return None
    if lose_gammon == 0.0:
        return WinKind.SINGLE
    return WinKind.GAMMON if lose_gammon >= 1.0 else None
