"""What the bot may advise a seat: the one question every front end asks, and the advice it gets.

A :class:`Question` is read from a game (:func:`ask`) or a chouette
(:func:`ask_chouette`) for one seat, and says what that seat decides now:
the plays of the roll being played, the double to choose after an
Acey-Deucey 1-2 (V2), the cube before the roll, or the answer to a double,
a beaver or a raccoon (C3, M3, M4), with the position and the
:class:`~tavola.bot.context.CubeContext` it depends on. A seat with nothing
to decide gets a :class:`NoAdviceError` saying why. A question is small and
holds no game, so a search pool can take it to another process; there
:meth:`tavola.bot.player.Bot.advise` answers it with an :class:`Advice`.
:func:`choice_json` and :func:`advice_json` are the one JSON shape of
advice, for the engine protocol and the server alike.

>>> from tavola.game import Game
>>> from tavola.position import Position
>>> game = Game(position=Position.start(), player_on_roll=0)
>>> ask(game, 0).kind, ask(game, 0).may_double
(<Asked.CUBE: 'cube'>, True)
>>> ask(game, 1)
Traceback (most recent call last):
...
tavola.bot.advice.NoAdviceError: a hint is for your own side's decision, not the other side's
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tavola.bot.context import CubeContext
from tavola.bot.cube import CubeDecision, CubeResponse, answering_values
from tavola.chouette import ChouetteGame, Side
from tavola.chouette import Phase as ChouettePhase
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.game import Game, Phase
from tavola.i18n import _
from tavola.ids import position_text
from tavola.position import Position

if TYPE_CHECKING:
    from tavola.bot.player import Choice

PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The names of the five probabilities of a position, in the evaluator's order."""


class NoAdviceError(TavolaError):
    """The seat has nothing to decide now, so there is nothing to advise."""


class Asked(enum.Enum):
    """What a seat decides now."""

    PLAYS = "plays"  # the play of the roll being played
    DOUBLES = "doubles"  # the double to choose after an Acey-Deucey 1-2 (V2)
    CUBE = "cube"  # double or not, before the roll (C2)
    ANSWER = "answer"  # take, drop, beaver or raccoon (C3, M3, M4)


@dataclass(frozen=True)
class Question:
    """One seat's decision: what is asked, the position seen from the player on roll (the turn's start for
    a play), the cube context from the player on roll's side, the dice of a play, whether those dice are
    the double chosen after a 1-2 (V2), whether the player on roll may double now, and how many immediate
    redoubles (beavers, raccoons) the double being answered has had."""

    kind: Asked
    position: Position
    context: CubeContext
    dice: Dice | None = None
    chosen_double: bool = False
    may_double: bool = True
    redoubles: int = 0


@dataclass(frozen=True)
class Advice:
    """The bot's answer to ``question``: ``plays`` ranked best first (a roll's plays, or each double's best
    play while a double is chosen); ``cube``, the cube decision of the player on roll (before the roll or
    for a double waiting for its answer); ``answer``, what the side answering a double should do."""

    question: Question
    plays: tuple[Choice, ...] = ()
    cube: CubeDecision | None = None
    answer: CubeResponse | None = None


def _nothing() -> NoAdviceError:
    return NoAdviceError(_("there is nothing to decide now: no roll to play and no cube decision"))


def _not_yours() -> NoAdviceError:
    return NoAdviceError(_("a hint is for your own side's decision, not the other side's"))


def ask(game: Game, seat: int, context: CubeContext | None = None) -> Question:
    """What ``seat`` (0 or 1) of ``game`` decides now; ``context`` is the game's cube context from either
    side (:meth:`CubeContext.of_game <tavola.bot.context.CubeContext.of_game>`: money when None, else
    the match score). :class:`NoAdviceError` when the seat has nothing to decide."""
    phase = game.phase
    if phase not in (Phase.MOVE, Phase.CHOOSE_DOUBLE, Phase.ROLL, Phase.DOUBLED):
        raise _nothing()
    if game.player_to_act != seat:
        raise _not_yours()
    seen = (context or CubeContext.of_game(game)).seen_by(game.player_on_roll)
    if phase is Phase.MOVE:
        turn = game.turn
        assert turn is not None
        return Question(Asked.PLAYS, turn.start, seen, turn.dice, chosen_double=game.playing_chosen_double)
    if phase is Phase.CHOOSE_DOUBLE:
        return Question(Asked.DOUBLES, game.position, seen)
    if not (game.rules.cube and game.variant.cube):
        raise NoAdviceError(_("there is no doubling cube in this game: nothing to decide before the roll"))
    if phase is Phase.ROLL:
        return Question(Asked.CUBE, game.position, seen, may_double=game.may_double(game.player_on_roll))
    offer = game.cube_offer
    assert offer is not None
    return Question(Asked.ANSWER, game.position, seen, redoubles=offer.redoubles)


def ask_chouette(game: ChouetteGame, player: str, opponent: str | None = None) -> Question:
    """What ``player`` of a chouette game decides now, on the cube it concerns: the roll's play for the
    side on roll (a team member other than the captain only where consultation lets them suggest plays
    now, H4), the double on the player's own cube with the other side before the roll, or the answer to
    the double waiting for the player on their cube with ``opponent`` (the first waiting, if None).
    :class:`NoAdviceError` when the player has nothing to decide."""
    if player not in game.players:
        raise NoAdviceError(_("{player} is not playing this game").format(player=player))
    settings, side, phase = game.settings, game.side_of(player), game.phase
    if phase not in (ChouettePhase.ANSWER, ChouettePhase.MOVE, ChouettePhase.ROLL):
        raise _nothing()
    if phase is ChouettePhase.ANSWER:
        for offer in game.offers:
            box_side, team_side = offer.bet
            answering, other = (box_side, team_side) if offer.answering is Side.BOX else (team_side, box_side)
            if answering == player and opponent in (None, other):
                bet = next(bet for bet in game.bets if bet.key == offer.bet)
                context = CubeContext(int(offer.doubler), bet.cube, settings.rules, settings.variant)
                return Question(Asked.ANSWER, game.position, context, redoubles=offer.redoubles)
        raise _not_yours()
    if side is not game.side_on_roll:
        raise _not_yours()
    if phase is ChouettePhase.MOVE:
        turn = game.turn
        assert turn is not None
        if side is Side.TEAM and player != game.captain and not game.may_suggest(player):
            raise NoAdviceError(
                _("at this table a team member consults only when the consultation setting allows it (H4)")
            )
        context = CubeContext(int(side), _own_cube(game, player), settings.rules, settings.variant)
        return Question(Asked.PLAYS, turn.start, context, turn.dice)
    if phase is ChouettePhase.ROLL and settings.rules.cube and settings.variant.cube:
        cube = _own_cube(game, player)
        context = CubeContext(int(side), cube, settings.rules, settings.variant)
        return Question(Asked.CUBE, game.position, context, may_double=cube.may_double(int(side)))
    raise _nothing()


def _own_cube(game: ChouetteGame, player: str) -> Cube:
    """The cube of ``player``'s main bet with the other side's leader (the box's with the captain), or of
    their first live bet; the cube in the middle where they have none."""
    live = [bet for bet in game.bets if bet.is_live and not bet.extra and player in bet.key]
    leading = [bet for bet in live if {game.box, game.captain} == set(bet.key)]
    chosen = leading or live
    return chosen[0].cube if chosen else Cube()


def choice_json(choice: Choice, best: Choice | None = None) -> dict[str, Any]:
    """One judged play as JSON: its notation, the Position ID after it (seen by the mover), its equity,
    its loss against ``best`` (the first of its list), its probabilities and depth; in Acey-Deucey the
    checkers the mover expects to win and to lose."""
    data: dict[str, Any] = {
        "play": choice.play.notation,
        "position_id": position_text(choice.play.after),
        "equity": round(choice.equity, 4),
        "loss": round(choice.equity - (best or choice).equity, 4),
        "probabilities": probabilities_json(choice.probabilities),
        "plies": choice.plies,
    }
    checkers = choice.expected_checkers
    if checkers is not None:
        data["expected_checkers"] = {"won": round(checkers[0], 4), "lost": round(checkers[1], 4)}
    return data


def probabilities_json(values: tuple[float, ...]) -> dict[str, float]:
    """A position's five probabilities as JSON, by name (:data:`PROBABILITY_NAMES`)."""
    return {name: round(value, 4) for name, value in zip(PROBABILITY_NAMES, values, strict=True)}


def plays_json(choices: tuple[Choice, ...] | list[Choice], most: int | None = None) -> list[dict[str, Any]]:
    """Ranked plays as JSON, each with its loss against the first; the first ``most`` where given."""
    first = choices[0] if choices else None
    return [choice_json(choice, first) for choice in list(choices)[:most]]


def doubles_json(choices: tuple[Choice, ...] | list[Choice]) -> list[dict[str, Any]]:
    """The doubles to choose after an Acey-Deucey 1-2 (V2) as JSON, best first: each double's number and
    its best play, with its loss against the first."""
    first = choices[0] if choices else None
    return [{"double": choice.play.dice.high, **choice_json(choice, first)} for choice in choices]


def decision_json(decision: CubeDecision) -> dict[str, Any]:
    """A cube decision as JSON: the action, the answer, the equities (null where there is none), why no
    double where the player on roll cannot double, and the decision in words."""

    def figure(value: float | None) -> float | None:
        return None if value is None else round(value, 4)

    return {
        "action": decision.action.value,
        "response": None if decision.response is None else decision.response.value,
        "no_double": figure(decision.no_double),
        "double_take": figure(decision.double_take),
        "double_pass": figure(decision.double_pass),
        "double_beaver": figure(decision.double_beaver),
        "match": decision.match,
        "reason": decision.reason,
        "text": str(decision),
    }


def advice_json(advice: Advice, most: int | None = None) -> dict[str, Any]:
    """The advice as JSON: ``kind``, and by kind the ranked ``plays`` with their ``dice``, the six
    ``doubles``, or the ``cube`` decision (the player on roll's), with, to a double, the ``answer``, the
    immediate ``redoubles`` it follows and the ``answers`` valued for the side answering.

    >>> from tavola.bot.cube import money_decision
    >>> from tavola.bot.context import MONEY
    >>> advice = Advice(Question(Asked.CUBE, Position.start(), MONEY), cube=money_decision([0.5] + [0.0] * 4))
    >>> advice_json(advice)["cube"]["action"]
    'no double'
    """
    question = advice.question
    data: dict[str, Any] = {"kind": question.kind.value}
    if question.kind is Asked.PLAYS:
        assert question.dice is not None
        data["dice"] = [question.dice.high, question.dice.low]
        data["plays"] = plays_json(advice.plays, most)
    elif question.kind is Asked.DOUBLES:
        data["doubles"] = doubles_json(advice.plays)
    else:
        assert advice.cube is not None
        data["cube"] = decision_json(advice.cube)
        if advice.answer is not None:
            data["answer"] = advice.answer.value
            data["redoubles"] = question.redoubles
            data["answers"] = answers_json(advice.cube, question)
    return data


def answers_json(decision: CubeDecision, question: Question) -> dict[str, float]:
    """The answers open to the side answering ``question``'s offer (``take``, ``drop``, and ``beaver`` for
    the next immediate redouble where the rules allow one), each valued for that side: points per unit of
    the cube before the double, or match winning chances."""
    found = answering_values(decision, question.context.rules, question.redoubles)
    return {response.value: round(value, 4) for response, value in found.items()}
