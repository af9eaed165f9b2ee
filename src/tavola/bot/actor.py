"""The bot as a player in a :class:`~tavola.game.Game`: the action it takes, whatever the game waits for.

:func:`choose_action` reads the game's phase and answers with one of the
game's :meth:`~tavola.game.Game.legal_actions`: it rolls or doubles by the
cube decision, takes, drops, beavers or raccoons a double as its advice
says (:meth:`~tavola.bot.player.Bot.advise`, the same a hint gives), answers
a resignation by comparing it with its equity, chooses the Acey-Deucey double
that plays best, and plays checkers at its level. A match's score comes in the
game's :class:`~tavola.bot.context.CubeContext`.

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
from tavola.bot.advice import Advice, ask
from tavola.bot.context import CubeContext
from tavola.bot.cube import CubeAction, CubeResponse
from tavola.bot.levels import CUBE_LEVEL
from tavola.bot.player import Bot
from tavola.game import Game, Phase
from tavola.position import WinKind
from tavola.scoring import Ending, score_win
from tavola.variants import Scoring, checkers_left


def choose_action(bot: Bot, game: Game, context: CubeContext | None = None) -> Action:
    """The bot's action in ``game`` as the player to act; ``context`` is the game's cube context from
    either side (:meth:`CubeContext.of_game <tavola.bot.context.CubeContext.of_game>`; money when None)."""
    phase = game.phase
    acting = game.player_to_act
    if phase is Phase.OPENING:
        return Roll()
    if phase is Phase.ROLL:
        cube = _advice(bot, game, context).cube if game.may_double() else None
        return Double() if cube is not None and cube.action is CubeAction.DOUBLE else Roll()
    if phase is Phase.DOUBLED:
        response = _advice(bot, game, context).answer
        return _ANSWERS.get(response, Take())
    if phase is Phase.RESIGNATION:
        assert acting is not None
        return _answer_resignation(bot, game, (context or CubeContext.of_game(game)).seen_by(acting))
    if phase is Phase.CHOOSE_DOUBLE:
        return ChooseDouble(_best_double(bot, game))
    if phase is Phase.MOVE:
        turn = game.turn
        assert turn is not None
        # The turn's own legal plays: generated once, for the bot's choice and for the game that checks it.
        chosen = bot.play(
            turn.start,
            turn.dice,
            (context or CubeContext.of_game(game)).seen_by(game.player_on_roll),
            legal=turn.legal,
            chosen_double=game.playing_chosen_double,
        )
        return Played(chosen.play)
    raise ValueError("the game is over: there is nothing to do")


_ANSWERS: dict[CubeResponse | None, Action] = {CubeResponse.DROP: Drop(), CubeResponse.BEAVER: Beaver()}
"""The game's action for each answer but a take (a raccoon is a Beaver too: the next immediate redouble)."""


def _advice(bot: Bot, game: Game, context: CubeContext | None) -> Advice:
    """The advice every hint gives the player to act on the cube (:meth:`Bot.advise`)."""
    acting = game.player_to_act
    assert acting is not None
    return bot.advise(ask(game, acting, context))


def _answer_resignation(bot: Bot, game: Game, context: CubeContext) -> Action:
    """Accept when the resignation gives at least what the bot expects from playing on (cubeless), the
    position judged at the cube's level (:data:`~tavola.bot.levels.CUBE_LEVEL`); ``context`` is the
    bot's.

    In a match a resignation that wins the match is always accepted.
    """
    resignation = game.resignation
    assert resignation is not None
    _resigner, kind = resignation
    if context.away is not None and int(kind) * game.cube.value >= context.away[0]:
        return AcceptResignation()
    # The resigner is on roll: the bot's expectation is the resigner's equity turned round,
    # in the variant's points (checkers in Acey-Deucey), against what the resignation pays.
    probabilities = bot.probabilities(game.position, CUBE_LEVEL, game.variant)
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
