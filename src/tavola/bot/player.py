"""The bot as one object: plays, hints, evaluations and cube decisions.

:class:`Bot` puts the evaluator, the search and the cube together, for the
Python API and for the ``tavola engine`` protocol (:mod:`tavola.protocol`, which
turns its answers into JSON).
Positions are seen from the player on roll; a match is given as the points
each side still needs.

A bot's level sets how it plays checkers; its cube decisions are judged at
:data:`CUBE_LEVEL`'s depth at every level, so the bot doubles, takes and drops
as every hint says (:meth:`Bot.cube_decision` for a game in progress).

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

from tavola.bot.continuation import kinds_of
from tavola.bot.cube import CubeAction, CubeDecision, game_decision, position_decision
from tavola.bot.evaluate import Evaluator
from tavola.bot.met import table_for
from tavola.bot.search import (
    JudgedPlays,
    Level,
    SharedSearch,
    best_first,
    best_in_groups,
    evaluate_ply,
    judge_plays,
    level,
)
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.game import Game
from tavola.match import MatchScore
from tavola.play import LegalPlays, Play
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Scoring, Variant

CUBE_LEVEL = "world-class"
"""The level whose depth judges cube decisions, whatever level the bot plays checkers at.

Hints are given at this level, and a cube decision seen at another depth can
differ from it: in Dutch backgammon's entering phase (V1) the estimates of
one ply and of two can differ by half a point, so a bot judging its cube at
its own level would double where the hint says no double.
"""


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
        *,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> list[Choice]:
        """Every legal play, best first, as the level's search judged them (without its noise).

        Best first is :func:`~tavola.bot.search.best_first`: the plays searched
        deepest, then by equity; each :class:`Choice` says its depth.

        In a ``match`` the plays are ranked by match winning chances at the
        score and ``cube_value`` (gammons count for what they do to the match),
        their equities given back in money terms (:meth:`MatchEquityTable.to_equity`);
        the search itself looks ahead by money equity. ``legal``, the plays
        of ``position`` and ``dice`` where the caller has them already (a
        :class:`~tavola.turn.Turn`'s), saves generating them again.

        In Acey-Deucey (V2) a play after which its player goes on is judged by
        what follows it (:mod:`tavola.bot.continuation`): a 1-2 played in full
        by the best double to choose next, and, when ``chosen_double`` says
        ``dice`` are the double chosen after a 1-2, a play of all four moves
        with its player on roll again.
        """
        chosen = self._level(level)
        plays = self._legal(position, dice, variant, legal)
        order, judged, equities = self._judge(plays, chosen, match, cube_value, chosen_double)
        return [self._choice(plays[row], row, judged, equities) for row in order.tolist()]

    def play(
        self,
        position: Position,
        dice: Dice,
        variant: Variant = STANDARD,
        level: str | None = None,
        match: MatchScore | None = None,
        cube_value: int = 1,
        *,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> Choice:
        """The play the bot makes at ``level``: the best, or at weak levels the best once noise blurs them.

        The plays are generated once and judged in one search; only the
        chosen one becomes a :class:`~tavola.play.Play`. ``legal`` and
        ``chosen_double`` as for :meth:`hint`.
        """
        chosen = self._level(level)
        plays = self._legal(position, dice, variant, legal)
        order, judged, equities = self._judge(plays, chosen, match, cube_value, chosen_double)
        row = int(order[0])
        if chosen.noise > 0 and len(order) > 1:
            blurred = equities[order] + self.rng.normal(0.0, chosen.noise, len(order))
            row = int(order[int(np.argmax(blurred))])
        return self._choice(plays[row], row, judged, equities)

    def double_hint(self, position: Position, variant: Variant, level: str | None = None) -> list[Choice]:
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
        match: MatchScore | None,
        cube_value: int,
        chosen_double: bool = False,
    ) -> tuple[npt.NDArray[np.int64], JudgedPlays, npt.NDArray[np.float64]]:
        """The rows of ``plays`` best first, the search's judgement, and each row's equity as ranked.

        For money the equity is the search's; in a match, each play's match
        winning chances turned back into money terms, and the rows ranked by
        them within each depth (:func:`~tavola.bot.search.best_first`). Each
        play is judged by what follows it (:func:`~tavola.bot.continuation.kinds_of`).
        """
        judged = judge_plays(
            self.evaluator.for_variant(plays.variant),
            plays.results,
            chosen.plies,
            chosen.filter,
            kinds=kinds_of(plays, chosen_double),
        )
        if match is None:
            return judged.order(), judged, judged.equities
        away, crawford = match.away, match.crawford
        table = table_for(*away)

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
        self,
        position: Position,
        cube: Cube | None = None,
        match: MatchScore | None = None,
        rules: Rules | None = None,
        level: str | None = None,
        variant: Variant = STANDARD,
    ) -> Evaluation:
        """The position judged for its player on roll (player 0 of ``cube``), before the roll.

        At ``level``'s depth, :data:`CUBE_LEVEL`'s unless named. The
        cubeless equity is in ``variant``'s points (checkers in Acey-Deucey).
        """
        probabilities = self.probabilities(position, level or CUBE_LEVEL, variant)
        cubeless = self._cubeless(probabilities, variant)
        if not variant.cube:
            decision = self._without_cube(variant, cubeless)
        else:
            away, crawford = (None, False) if match is None else (match.away, match.crawford)
            decision = position_decision(probabilities, position, cube, rules, away=away, crawford=crawford)
        return Evaluation(tuple(float(p) for p in probabilities), cubeless, decision)

    def probabilities(
        self, position: Position, level: str | None = None, variant: Variant = STANDARD
    ) -> npt.NDArray[np.float32]:
        """The five cubeless probabilities of ``position``'s player on roll, at ``level``'s depth."""
        plies = self._level(level).plies
        evaluator = self.evaluator.for_variant(variant)
        values: npt.NDArray[np.float32] = evaluate_ply(evaluator, position.to_array()[None], plies)[0]
        return values

    def cube(
        self,
        position: Position,
        cube: Cube | None = None,
        match: MatchScore | None = None,
        rules: Rules | None = None,
        level: str | None = None,
        variant: Variant = STANDARD,
    ) -> CubeDecision:
        """The cube decision for the player on roll, and the answer the doubled player should give."""
        return self.evaluate(position, cube, match, rules, level, variant).cube

    def cube_decision(
        self, game: Game, away: tuple[int, int] | None = None, level: str | None = None
    ) -> CubeDecision:
        """The cube decision of ``game`` now, for its player on roll, and the doubled player's answer.

        The one decision behind the bot's doubles, takes, drops and beavers
        (:func:`tavola.bot.actor.choose_action`) and every hint at the table:
        before the roll, or while a double (or its beaver) waits for its
        answer. ``away`` is the match score from the player on roll's side
        (None for money); the position is judged at :data:`CUBE_LEVEL`'s
        depth unless ``level`` names another.

        >>> from tavola.bot.evaluate import Evaluator
        >>> game = Game(position=Position([2] + [0] * 22 + [-2]), player_on_roll=1)
        >>> print(Bot(Evaluator.untrained(hidden=8, seed=1)).cube_decision(game))
        Too good to double, drop (no double +1.000, double/take +2.000, double/pass +1.000)
        """
        probabilities = self.probabilities(game.position, level or CUBE_LEVEL, game.variant)
        if not game.variant.cube:
            return self._without_cube(game.variant, self._cubeless(probabilities, game.variant))
        return game_decision(game, probabilities, away)

    def _cubeless(self, probabilities: npt.NDArray[np.float32], variant: Variant) -> float:
        return float(self.evaluator.for_variant(variant).equity(probabilities[None])[0])

    @staticmethod
    def _without_cube(variant: Variant, cubeless: float) -> CubeDecision:
        """No cube to turn: the equity is the cubeless one (V2)."""
        return CubeDecision(
            CubeAction.NO_DOUBLE, None, cubeless, reason=f"{variant.name} has no doubling cube"
        )
