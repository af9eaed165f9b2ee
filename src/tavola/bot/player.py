"""The bot as one object: plays, hints, evaluations and cube decisions.

:class:`Bot` puts the evaluator, the search and the cube together, for the
Python API and for the ``tavola engine`` protocol (:mod:`tavola.protocol`, which
turns its answers into JSON).
Positions are seen from the player on roll; a match is given as the points
each side still needs.

A bot's level (:mod:`tavola.bot.levels`) sets how it plays checkers; its cube
decisions are judged at :data:`~tavola.bot.levels.CUBE_LEVEL`'s depth at every
level, so the bot doubles, takes and drops as every hint says
(:meth:`Bot.advise`).

>>> from tavola import Dice, Position
>>> from tavola.bot.evaluate import Evaluator
>>> bot = Bot(Evaluator.untrained(hidden=8, seed=1), level="advanced")
>>> bot.play(Position.start(), Dice(3, 1)).play.dice
Dice(3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavola.bot.advice import Advice, Asked, Question
from tavola.bot.context import MONEY, CubeContext
from tavola.bot.continuation import kinds_of
from tavola.bot.cube import CubeAction, CubeDecision, answer, position_decision
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import BOT_LEVEL, CUBE_LEVEL, Level, level
from tavola.bot.search import JudgedPlays, SharedSearch, best_first, best_in_groups, evaluate_ply, judge_plays
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.play import LegalPlays, Play
from tavola.position import Position
from tavola.variants import STANDARD, Scoring, Variant


@dataclass(frozen=True)
class Choice:
    """A play the bot judged: the play, its probabilities and equity for the mover, the search's depth."""

    play: Play
    probabilities: tuple[float, ...]
    equity: float
    plies: int

    @property
    def expected_checkers(self) -> tuple[float, float] | None:
        """Where the loser pays per checker left (Acey-Deucey, V2): the checkers the mover expects to win
        and to lose, whose difference is the equity; None in a variant scored by gammons.

        The gammon columns hold the expected share of the loser's checkers beyond the first
        (:func:`tavola.bot.evaluate.points_equity`).

        >>> from tavola import Dice
        >>> from tavola.variants import ACEY_DEUCEY
        >>> play = ACEY_DEUCEY.start.legal_plays(Dice(6, 5), ACEY_DEUCEY)[0]
        >>> Choice(play, (0.5, 0.25, 0.0, 0.125, 0.0), 1.75, 0).expected_checkers
        (4.0, 2.25)
        >>> standard = Position.start().legal_plays(Dice(6, 5))[0]
        >>> Choice(standard, (0.5, 0.25, 0.0, 0.125, 0.0), 0.125, 0).expected_checkers is None
        True
        """
        variant = self.play.variant
        if variant.scoring is not Scoring.CHECKERS_LEFT:
            return None
        win, win_share, _, lose_share, _ = self.probabilities
        beyond_first = max(variant.checkers - 1, 1)
        return win + beyond_first * win_share, 1 - win + beyond_first * lose_share


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
    """Tavola's bot with ``evaluator`` (the shipped networks by default), playing at ``level`` (a
    :class:`~tavola.bot.levels.Level` or its name; an unknown name raises
    :class:`~tavola.bot.levels.UnknownLevelError`).

    Each method's ``level``, where given, replaces the bot's own for that call.
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        level: str | Level = BOT_LEVEL,
        rng: np.random.Generator | int | None = None,
    ) -> None:
        self.level = self._level(level)  # an unknown level is refused before the networks load
        self.evaluator = evaluator or Evaluator.default()
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    def _level(self, name: str | Level | None) -> Level:
        return self.level if name is None else level(name)

    # --- checker play -------------------------------------------------------------------

    def hint(
        self,
        position: Position,
        dice: Dice,
        context: CubeContext | None = None,
        *,
        level: str | Level | None = None,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> list[Choice]:
        """Every legal play, best first, as the level's search judged them (without its noise).

        Best first is :func:`~tavola.bot.search.best_first`: the plays searched
        deepest, then by equity; each :class:`Choice` says its depth.

        ``context`` is the mover's cube context (:class:`~tavola.bot.context.CubeContext`:
        the variant, the cube and the match score; money in the standard game
        when None). In a match the plays are ranked by match winning chances at
        the score and the cube's value (gammons count for what they do to the
        match), their equities given back in money terms
        (:meth:`MatchEquityTable.to_equity`); the search itself looks ahead by
        money equity. ``legal``, the plays
        of ``position`` and ``dice`` where the caller has them already (a
        :class:`~tavola.turn.Turn`'s), saves generating them again.

        In Acey-Deucey (V2) a play after which its player goes on is judged by
        what follows it (:mod:`tavola.bot.continuation`): a 1-2 played in full
        by the best double to choose next, and, when ``chosen_double`` says
        ``dice`` are the double chosen after a 1-2, a play of all four moves
        with its player on roll again.
        """
        chosen, context = self._level(level), context or MONEY
        plays = self._legal(position, dice, context.variant, legal)
        order, judged, equities = self._judge(plays, chosen, context, chosen_double)
        return [self._choice(plays[row], row, judged, equities) for row in order.tolist()]

    def play(
        self,
        position: Position,
        dice: Dice,
        context: CubeContext | None = None,
        *,
        level: str | Level | None = None,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> Choice:
        """The play the bot makes at ``level``: the best, or at weak levels the best once noise blurs them.

        The plays are generated once and judged in one search; only the
        chosen one becomes a :class:`~tavola.play.Play`. ``context``, ``legal``
        and ``chosen_double`` as for :meth:`hint`.
        """
        chosen, context = self._level(level), context or MONEY
        plays = self._legal(position, dice, context.variant, legal)
        order, judged, equities = self._judge(plays, chosen, context, chosen_double)
        row = int(order[0])
        if chosen.noise > 0 and len(order) > 1:
            blurred = equities[order] + self.rng.normal(0.0, chosen.noise, len(order))
            row = int(order[int(np.argmax(blurred))])
        return self._choice(plays[row], row, judged, equities)

    def double_hint(
        self, position: Position, variant: Variant, level: str | Level | None = None
    ) -> list[Choice]:
        """The six doubles to choose from after an Acey-Deucey 1-2 (V2), best first, each by its best play.

        ``position`` is seen from the player choosing. Each :class:`Choice`
        is the best play of one double (its ``play.dice``), with that play's
        probabilities and equity for the mover: a play of all four moves
        judged with the mover on roll again, any other by the opponent's
        roll. The six doubles' plays are judged in one search at the
        level's depth, each double's plays filtered on their own as
        :meth:`hint` filters a roll's; the doubles are ranked as
        :func:`~tavola.bot.search.best_first` ranks plays. The bot chooses
        the first.

        >>> from tavola.bot.evaluate import Evaluator
        >>> from tavola.variants import ACEY_DEUCEY
        >>> bot = Bot(Evaluator.untrained(hidden=8, seed=1), level="expert")
        >>> doubles = bot.double_hint(ACEY_DEUCEY.start, ACEY_DEUCEY)
        >>> sorted(choice.play.dice.high for choice in doubles), doubles[0].plies
        ([1, 2, 3, 4, 5, 6], 1)
        """
        if not variant.acey_deucey_roll:
            raise TavolaError(
                f"{variant.name} has no double to choose: only Acey-Deucey's 1-2 gives one (V2)"
            )
        chosen = self._level(level)
        doubles = [position.legal_plays(Dice(number, number), variant) for number in range(1, 7)]
        offsets = np.cumsum([0, *(len(plays) for plays in doubles)])
        judged = SharedSearch(self.evaluator.for_variant(variant), chosen.filter).plays(
            offsets,
            np.concatenate([plays.results for plays in doubles]),
            chosen.plies,
            kinds=np.concatenate([kinds_of(plays, chosen_double=True) for plays in doubles]),
        )
        best = best_in_groups(offsets, judged.equities, judged.plies)
        ranked = best_first(judged.equities[best], judged.plies[best]).tolist()
        return [
            self._choice(
                doubles[double][best[double] - offsets[double]], best[double], judged, judged.equities
            )
            for double in ranked
        ]

    @staticmethod
    def _legal(position: Position, dice: Dice, variant: Variant, legal: LegalPlays | None) -> LegalPlays:
        """The legal plays to choose from: ``legal`` when given (it must be these), else generated now."""
        if legal is None:
            return position.legal_plays(dice, variant)
        if (legal.position, legal.dice, legal.variant.name) != (position, dice, variant.name):
            raise TavolaError(
                f"the legal plays given are those of {legal.dice} in {legal.position!r} "
                f"({legal.variant.name}), not of {dice} in {position!r} ({variant.name})"
            )
        return legal

    def _judge(
        self,
        plays: LegalPlays,
        chosen: Level,
        context: CubeContext,
        chosen_double: bool = False,
    ) -> tuple[npt.NDArray[np.int64], JudgedPlays, npt.NDArray[np.float64]]:
        """The rows of ``plays`` best first, the search's judgement, and each row's equity as ranked.

        For money (or a level that is not cubeful) the equity is the search's;
        in a match, each play's match winning chances at the cube's value
        turned back into money terms, and the rows ranked by them within each
        depth (:func:`~tavola.bot.search.best_first`). Each play is judged by
        what follows it (:func:`~tavola.bot.continuation.kinds_of`).
        """
        judged = judge_plays(
            self.evaluator.for_variant(plays.variant),
            plays.results,
            chosen.plies,
            chosen.filter,
            kinds=kinds_of(plays, chosen_double),
        )
        if context.away is None or not chosen.cubeful:
            return judged.order(), judged, judged.equities
        away, crawford, cube_value, table = context.away, context.crawford, context.cube.value, context.table

        def in_money_terms(probabilities: npt.NDArray[np.float32]) -> float:
            mwc = table.cubeless(probabilities, *away, cube_value, crawford)
            return table.to_equity(mwc, *away, cube_value, crawford)

        equities = np.array([in_money_terms(row) for row in judged.probabilities])
        return best_first(equities, judged.plies), judged, equities

    @staticmethod
    def _choice(play: Play, row: int, judged: JudgedPlays, equities: npt.NDArray[np.float64]) -> Choice:
        """``play`` as row ``row`` of ``judged`` and ``equities`` values it."""
        probabilities = tuple(float(p) for p in judged.probabilities[row])
        return Choice(play, probabilities, float(equities[row]), int(judged.plies[row]))

    # --- positions and the cube -----------------------------------------------------------

    def evaluate(
        self, position: Position, context: CubeContext | None = None, *, level: str | Level | None = None
    ) -> Evaluation:
        """The position judged for its player on roll, whose side ``context`` is from (money in the
        standard game with a centred cube when None), before the roll.

        At ``level``'s depth, :data:`~tavola.bot.levels.CUBE_LEVEL`'s unless named. The
        cubeless equity is in the variant's points (checkers in Acey-Deucey).

        >>> from tavola.bot.evaluate import Evaluator
        >>> found = Bot(Evaluator.untrained(hidden=8, seed=1)).evaluate(Position([2] + [0] * 22 + [-2]))
        >>> found.cube.action
        <CubeAction.TOO_GOOD: 'too good to double'>
        """
        context = context or MONEY
        probabilities = self.probabilities(position, level or CUBE_LEVEL, context.variant)
        cubeless = self._cubeless(probabilities, context.variant)
        decision = self._decision(probabilities, position, context)
        return Evaluation(tuple(float(p) for p in probabilities), cubeless, decision)

    def _decision(
        self,
        probabilities: npt.NDArray[np.float32],
        position: Position,
        context: CubeContext,
        may_double: bool = True,
    ) -> CubeDecision:
        """The cube decision of the player on roll (``context``'s player) from its probabilities."""
        if not context.variant.cube:
            return self._without_cube(context.variant, self._cubeless(probabilities, context.variant))
        return position_decision(probabilities, position, context, may_double=may_double)

    def probabilities(
        self, position: Position, level: str | Level | None = None, variant: Variant = STANDARD
    ) -> npt.NDArray[np.float32]:
        """The five cubeless probabilities of ``position``'s player on roll, at ``level``'s depth."""
        plies = self._level(level).plies
        evaluator = self.evaluator.for_variant(variant)
        values: npt.NDArray[np.float32] = evaluate_ply(evaluator, position.to_array()[None], plies)[0]
        return values

    def advise(self, question: Question, *, level: str | Level | None = None) -> Advice:
        """The bot's advice on ``question`` (:func:`tavola.bot.advice.ask` reads one from a game,
        :func:`~tavola.bot.advice.ask_chouette` from a chouette): the one entry every front end asks.

        Plays and doubles are ranked at ``level`` (the bot's own unless named);
        the cube decision and the answer to a double are judged at
        :data:`~tavola.bot.levels.CUBE_LEVEL`, whatever the level, and the
        answer follows :func:`tavola.bot.cube.answer`, the one rule of every
        take, drop, beaver and raccoon.

        >>> from tavola.bot.advice import ask
        >>> from tavola.bot.evaluate import Evaluator
        >>> from tavola.game import Game
        >>> game = Game(position=Position([2] + [0] * 22 + [-2]), player_on_roll=1)
        >>> print(Bot(Evaluator.untrained(hidden=8, seed=1)).advise(ask(game, 1)).cube)
        Too good to double, drop (no double +1.000, double/take +2.000, double/pass +1.000)
        """
        context = question.context
        if question.kind is Asked.PLAYS:
            assert question.dice is not None
            plays = self.hint(
                question.position, question.dice, context, level=level, chosen_double=question.chosen_double
            )
            return Advice(question, plays=tuple(plays))
        if question.kind is Asked.DOUBLES:
            return Advice(question, plays=tuple(self.double_hint(question.position, context.variant, level)))
        probabilities = self.probabilities(question.position, CUBE_LEVEL, context.variant)
        decision = self._decision(probabilities, question.position, context, question.may_double)
        if question.kind is Asked.CUBE:
            return Advice(question, cube=decision)
        return Advice(question, cube=decision, answer=answer(decision, context.rules, question.redoubles))

    def _cubeless(self, probabilities: npt.NDArray[np.float32], variant: Variant) -> float:
        return float(self.evaluator.for_variant(variant).equity(probabilities[None])[0])

    @staticmethod
    def _without_cube(variant: Variant, cubeless: float) -> CubeDecision:
        """No cube to turn: the equity is the cubeless one (V2)."""
        return CubeDecision(
            CubeAction.NO_DOUBLE, None, cubeless, reason=f"{variant.name} has no doubling cube"
        )
