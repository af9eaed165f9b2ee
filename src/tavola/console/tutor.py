"""The tutor: a person's play or cube action judged before it is made, with a warning when it loses much.

:class:`Tutor` asks :mod:`tavola.analysis.judge` about a decision the
person is about to make (:meth:`Tutor.check_move`, :meth:`Tutor.check_cube`)
and returns the judged :class:`~tavola.analysis.model.Decision` when its
class is the tutor's threshold or worse (by default *bad*: a normalised
loss of 0.06 or more), else None. The terminal then shows the warning
(:func:`tavola.console.view.tutor_warning`) and asks whether to go on; the
action is made only once confirmed.

The tutor judges with the analysis engine's functions unless others are
given to it (a test's, say), at :data:`~tavola.bot.levels.LIVE_ANALYSIS_LEVEL`
unless told: any level without noise (:func:`~tavola.bot.levels.analysis_level`).

>>> tutor = Tutor(threshold="doubtful", level="0-ply")
>>> tutor.threshold, tutor.level.title, tutor.on
(<Skill.DOUBTFUL: 'doubtful'>, '0-ply cubeful', True)
>>> Tutor(threshold="awful")
Traceback (most recent call last):
...
tavola.errors.TavolaError: the tutor warns from doubtful, bad or very-bad errors, not 'awful'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from tavola.actions import Action
from tavola.analysis.judge import judge_cube, judge_move
from tavola.analysis.model import Decision, Skill
from tavola.bot.levels import LIVE_ANALYSIS_LEVEL, Level, analysis_level
from tavola.errors import TavolaError
from tavola.game import Game
from tavola.i18n import _
from tavola.play import Play

if TYPE_CHECKING:
    from tavola.bot.context import CubeContext
    from tavola.bot.evaluate import Evaluator

__all__ = [
    "TUTOR_THRESHOLDS",
    "CubeJudge",
    "MoveJudge",
    "Tutor",
    "worse_or_as_bad",
]

TUTOR_THRESHOLDS: dict[str, Skill] = {
    "doubtful": Skill.DOUBTFUL,
    "bad": Skill.BAD,
    "very-bad": Skill.VERY_BAD,
}
"""The option words of ``--tutor-threshold`` and the class of error the tutor warns from."""


class MoveJudge(Protocol):
    """:func:`tavola.analysis.judge.judge_move`'s signature."""

    def __call__(
        self,
        game: Game,
        play: Play,
        *,
        level: str | Level,
        evaluator: Evaluator | None,
        context: CubeContext | None,
    ) -> Decision: ...


class CubeJudge(Protocol):
    """:func:`tavola.analysis.judge.judge_cube`'s signature."""

    def __call__(
        self,
        game: Game,
        action: Action | None,
        *,
        level: str | Level,
        evaluator: Evaluator | None,
        context: CubeContext | None,
    ) -> Decision: ...


def worse_or_as_bad(skill: Skill, threshold: Skill) -> bool:
    """Whether ``skill`` is ``threshold``'s class or a worse one.

    >>> worse_or_as_bad(Skill.VERY_BAD, Skill.BAD), worse_or_as_bad(Skill.DOUBTFUL, Skill.BAD)
    (True, False)
    """
    order = list(Skill)
    return order.index(skill) >= order.index(threshold)


@dataclass
class Tutor:
    """Judges a person's decisions before they are made; ``on`` turns it on and off during a game.

    ``threshold`` is a :class:`~tavola.analysis.model.Skill` or its option
    word (``doubtful``, ``bad``, ``very-bad``); ``level`` a level without
    noise or its name (a level with noise raises
    :class:`~tavola.bot.levels.NoisyLevelError`); ``evaluator`` the network to judge with (the
    shipped one if None).
    """

    level: str | Level = LIVE_ANALYSIS_LEVEL
    threshold: Skill | str = Skill.BAD
    on: bool = True
    evaluator: Evaluator | None = None
    judge_move: MoveJudge | None = field(default=None, repr=False)
    """How a play is judged: :func:`tavola.analysis.judge.judge_move` unless given."""
    judge_cube: CubeJudge | None = field(default=None, repr=False)
    """How a cube action is judged: :func:`tavola.analysis.judge.judge_cube` unless given."""

    def __post_init__(self) -> None:
        if isinstance(self.threshold, str):
            found = TUTOR_THRESHOLDS.get(self.threshold)
            if found is None:
                raise TavolaError(
                    _("the tutor warns from doubtful, bad or very-bad errors, not {threshold!r}").format(
                        threshold=self.threshold
                    )
                )
            self.threshold = found
        self.level = analysis_level(self.level)

    @property
    def warns_from(self) -> Skill:
        """The least bad class of error the tutor warns about."""
        assert isinstance(self.threshold, Skill)
        return self.threshold

    def check_move(self, game: Game, play: Play, context: CubeContext | None = None) -> Decision | None:
        """``play`` judged, when the tutor is on and it is as bad as the threshold or worse; else None.

        ``game`` is in its move phase, ``play`` one of the turn's legal plays, not made yet.
        """
        if not self.on:
            return None
        judge = self.judge_move or judge_move
        decision = judge(game, play, level=self.level, evaluator=self.evaluator, context=context)
        return self._warned(decision)

    def check_cube(
        self, game: Game, action: Action | None, context: CubeContext | None = None
    ) -> Decision | None:
        """A cube action (a double, take, drop or beaver; None: rolling without doubling) judged, when
        the tutor is on and it is as bad as the threshold or worse; else None."""
        if not self.on:
            return None
        judge = self.judge_cube or judge_cube
        decision = judge(game, action, level=self.level, evaluator=self.evaluator, context=context)
        return self._warned(decision)

    def _warned(self, decision: Decision) -> Decision | None:
        if decision.forced or decision.equity_loss <= 0:
            return None
        return decision if worse_or_as_bad(decision.skill, self.warns_from) else None
