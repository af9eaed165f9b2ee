"""Single decisions judged as they are made, for live use (a tutor), on the analysis' own batched core.

:func:`judge_move` judges a checker play before it is made, :func:`judge_cube`
a double, a no double (``None`` at the roll), a take, a drop or a beaver
before it is made; both give the :class:`~tavola.analysis.model.Decision`
a whole-match analysis would (:mod:`tavola.analysis.decisions`), at any
analysis level. A match's score comes in the game's
:class:`~tavola.bot.context.CubeContext`; none is money.

>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.dicesource import ManualDice
>>> from tavola.game import Game
>>> from tavola.position import Position
>>> dice = ManualDice(["31"])
>>> game = Game(dice=dice, position=Position.start(), player_on_roll=0)
>>> evaluator = Evaluator.untrained(hidden=8, seed=1)
>>> judge_cube(game, None, level="0-ply", evaluator=evaluator).played
'no double'
>>> game.roll()
Dice(3, 1)
>>> decision = judge_move(game, "24/20", level="0-ply", evaluator=evaluator)
>>> decision.played, decision.kind, decision.equity_loss >= 0
('24/20', 'move', True)
"""

from __future__ import annotations

from tavola.actions import Action, Beaver, Double, Drop, OpeningRoll, Roll, Take
from tavola.analysis.checkers import PlaySpot, judge_spots
from tavola.analysis.decisions import answer_decision, doubling_decision, move_decision
from tavola.analysis.model import Decision
from tavola.bot.advice import Asked, NoAdviceError, ask
from tavola.bot.context import CubeContext
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import ANALYSIS_LEVEL, Level, analysis_level
from tavola.bot.search import SharedSearch
from tavola.errors import IllegalActionError, IllegalPlayError
from tavola.game import Game, Phase
from tavola.i18n import _
from tavola.play import Play

__all__ = ["judge_cube", "judge_move"]


def _search(game: Game, level: Level, evaluator: Evaluator | None) -> SharedSearch:
    return SharedSearch((evaluator or Evaluator.default()).for_variant(game.variant), level.filter)


def _where(game: Game) -> tuple[int, int]:
    """Game 1, and the turn being played (or about to be) as its move number."""
    turns = sum(1 for entry in game.log if isinstance(entry.action, Roll | OpeningRoll))
    return 1, max(1, turns if game.phase is Phase.MOVE else turns + 1)


def judge_move(
    game: Game,
    play: Play | str,
    *,
    level: str | Level = ANALYSIS_LEVEL,
    evaluator: Evaluator | None = None,
    context: CubeContext | None = None,
) -> Decision:
    """The checker play ``play`` (a :class:`Play` or its notation) judged before it is made in ``game``,
    which waits for it (dice rolled, no checker moved yet). ``context`` is the game's cube context from
    either side (money when None)."""
    turn = game.turn
    if game.phase is not Phase.MOVE or turn is None:
        raise IllegalActionError(_("a play is judged once the dice are rolled, before it is made"))
    chosen = turn.parse_play(play) if isinstance(play, str) else play
    if turn.legal.by_result(chosen.after) is None or chosen.before != turn.start:
        raise IllegalPlayError(
            _("{play} is not one of this turn's legal plays with {dice}").format(play=chosen, dice=turn.dice)
        )
    chosen_level = analysis_level(level)
    player = game.player_on_roll
    context = (context or CubeContext.of_game(game)).seen_by(player)
    spot = PlaySpot(turn.legal, context, chosen, game.playing_chosen_double)
    [judged] = judge_spots(_search(game, chosen_level, evaluator), [spot], chosen_level.plies)
    return move_decision(_where(game), player, chosen, game, judged)


def judge_cube(
    game: Game,
    action: Action | None,
    *,
    level: str | Level = ANALYSIS_LEVEL,
    evaluator: Evaluator | None = None,
    context: CubeContext | None = None,
) -> Decision:
    """The cube action ``action`` judged before it is made in ``game``: a :class:`Double` or ``None`` (no
    double) by the player on roll before the roll, or a :class:`Take`, :class:`Drop` or :class:`Beaver` by
    the player answering a double. ``context`` is the game's cube context from either side (money when
    None)."""
    chosen_level = analysis_level(level)
    asked = _asked(game, context)
    search = _search(game, chosen_level, evaluator)
    probabilities = search.evaluate(game.position.to_array()[None], chosen_level.plies)[0]
    where = _where(game)
    if asked is Asked.CUBE and (action is None or isinstance(action, Double)):
        found = doubling_decision(
            game, probabilities, context, doubled=action is not None, where=where, plies=chosen_level.plies
        )
        if found is None:
            raise IllegalActionError(_("the player on roll cannot double now: there is no cube decision"))
        return found[0]
    if asked is Asked.ANSWER and isinstance(action, Take | Drop | Beaver):
        answer = answer_decision(game, probabilities, context, action, where=where, plies=chosen_level.plies)
        if answer is None:
            raise IllegalActionError(_("this double has no take to judge: the cube is dead"))
        return answer
    raise IllegalActionError(
        _(
            "a cube decision is a double or none before the roll, or an answer to a double, not {action}"
        ).format(action=repr(action))
    )


def _asked(game: Game, context: CubeContext | None) -> Asked | None:
    """What the player to act decides now, as the bot's advice asks it (:func:`tavola.bot.advice.ask`)."""
    acting = game.player_to_act
    try:
        return None if acting is None else ask(game, acting, context).kind
    except NoAdviceError:
        return None
