"""Match analysis: every checker play, cube decision and resignation of a record judged, every roll's luck.

:func:`analyze_series` takes a :class:`~tavola.match.Match` or
:class:`~tavola.match.MoneySession` (from :func:`tavola.records.read_series`
or :func:`tavola.records.load`) and gives an :class:`~tavola.analysis.model.Analysis`;
:func:`analyze_file` reads the file first. The work is batched: the record
is replayed once to gather what is to judge, then

* the plays of every turn of a game are judged together, in one call of a
  search shared by the whole analysis (:func:`~tavola.analysis.checkers.judge_spots`),
* every position before a roll where the cube could turn is evaluated in
  one call of the same search (the position after each play made is
  already there: the play was judged at the full depth),
* every roll's luck comes from one generation of all turns' 21 rolls and one
  evaluation (:func:`~tavola.analysis.luck.roll_luck`),

and the record is replayed again to turn the numbers into decisions. The
definitions are in ``docs/analysis.md``.

>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> match = Match(3, dice=RandomDice(seed=3), players=("Ann", "Ben"))
>>> game = match.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> analysis = analyze_series(match, level="0-ply", evaluator=Evaluator.untrained(hidden=8, seed=1))
>>> [(d.move, d.player, d.kind, d.played) for d in analysis.decisions]
[(1, 1, 'move', '13/11 13/8'), (2, 0, 'cube', 'double, take'), (2, 1, 'cube', 'drop')]
>>> analysis.level, analysis.players[1].moves
('0-ply cubeful', 1)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tavola.actions import (
    AcceptResignation,
    Beaver,
    DeclineResignation,
    Double,
    Drop,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
)
from tavola.analysis.checkers import JudgedSpot, PlaySpot, judge_spots
from tavola.analysis.decisions import (
    TINY,
    Luck,
    Resignation,
    answer_decision,
    doubling_decision,
    move_decision,
)
from tavola.analysis.figures import player_figures
from tavola.analysis.luck import LuckSpot, roll_luck
from tavola.analysis.model import Analysis, Decision, GameSummary
from tavola.analysis.replay import Moment, replay
from tavola.bot.context import CubeContext
from tavola.bot.cube import game_decision
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import ANALYSIS_LEVEL, Level, analysis_level
from tavola.bot.met import table_for
from tavola.bot.search import SharedSearch
from tavola.dice import Dice
from tavola.game import Phase
from tavola.match import Match, MoneySession, Series, scores_before
from tavola.position import Position
from tavola.records import read_series

__all__ = ["analyze_file", "analyze_series"]

Progress = Callable[[int, int], None]
"""Told (steps done, steps in all) as an analysis goes on."""


def analyze_file(
    path: str | os.PathLike[str],
    *,
    level: str | Level = ANALYSIS_LEVEL,
    evaluator: Evaluator | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """The analysis of the record or autosave in ``path`` (:func:`~tavola.records.read_series`; see
    :func:`analyze_series`)."""
    series = read_series(path)
    return analyze_series(
        series, level=level, evaluator=evaluator, names=names, progress=progress, source=str(path)
    )


def analyze_series(
    series: Series,
    *,
    level: str | Level = ANALYSIS_LEVEL,
    evaluator: Evaluator | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
    source: str = "",
) -> Analysis:
    """Judge every decision of ``series`` at ``level``, a level without noise or its name ("0-ply", "1-ply",
    "2-ply"; :data:`~tavola.bot.levels.ANALYSIS_LEVEL`, the strongest, by default).

    ``evaluator`` is the shipped networks' unless given; ``names`` replace
    the players' names; ``progress`` is told (done, total) after each step.
    """
    chosen = analysis_level(level)
    evaluator = (evaluator or Evaluator.default()).for_variant(series.variant)
    players = tuple(names) if names else series.players
    work = _Work(series, chosen, evaluator, progress)
    work.gather()
    work.judge()
    decisions, games = work.decide()
    results = _results(series)
    figures = tuple(player_figures(players[p], p, decisions, result=results[p]) for p in (0, 1))
    return Analysis(
        source=source,
        length=series.length if isinstance(series, Match) else 0,
        variant=series.variant.name,
        level=chosen.title,
        players=(figures[0], figures[1]),
        games=tuple(games),
        decisions=tuple(decisions),
    )


def context_of(moment: Moment, player: int) -> CubeContext:
    """The cube context of ``player``'s decision at ``moment``."""
    return moment.context(player)


def _results(series: Series) -> tuple[float, float]:
    """What each player won: net points (money), or the chance of winning the match as it stands less the
    50% each had at the start (+0.5 for the winner, as GNU Backgammon counts it)."""
    if isinstance(series, MoneySession):
        points = series.score.points
        return float(points[0]), float(points[1])
    score = series.score
    if series.is_over:
        return (0.5, -0.5) if score[0] == series.length else (-0.5, 0.5)
    last = series.games[-1] if series.games else None
    crawford = (
        last.crawford if last is not None and not last.is_over else series.is_crawford_game(len(series.games))
    )
    away = (series.length - score[0], series.length - score[1])
    mine = table_for(*away, series.rules.crawford).equity(*away, crawford=crawford) - 0.5
    return mine, -mine


@dataclass
class _Work:
    """One analysis: what the first replay gathers, what the searches find, what the second replay makes."""

    series: Series
    level: Level
    evaluator: Evaluator
    progress: Progress | None
    spots: list[PlaySpot] = field(default_factory=list)
    spot_games: list[int] = field(default_factory=list)
    boards: list[np.ndarray] = field(default_factory=list)
    rolls: list[LuckSpot] = field(default_factory=list)
    judged: list[JudgedSpot] = field(default_factory=list)
    probabilities: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), np.float32))
    luck: list[tuple[float, float]] = field(default_factory=list)
    done: int = 0

    @property
    def steps(self) -> int:
        return len(self.series.games) + 3

    def _step(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.steps)

    # --- the first replay: what to judge ------------------------------------------------------

    def gather(self) -> None:
        for moment in replay(self.series):
            game, entry = moment.game, moment.entry
            action = entry.action
            if isinstance(action, Played):
                assert game.turn is not None
                self._spot(
                    moment,
                    PlaySpot(
                        game.turn.legal,
                        context_of(moment, entry.player),
                        action.play,
                        game.playing_chosen_double,
                    ),
                )
            elif isinstance(action, OpeningRoll) and _opening(action):
                roller = 0 if action.dice[0] > action.dice[1] else 1
                self._roll(moment, roller, game.position_for(roller), action.dice)
            elif isinstance(action, Roll):
                assert action.dice is not None
                self._roll(moment, entry.player, game.position, action.dice)
            if _cube_moment(moment):
                self.boards.append(game.position.to_array())
            if isinstance(action, Resign) and game.phase is Phase.MOVE:
                assert game.turn is not None
                self._spot(
                    moment,
                    PlaySpot(
                        game.turn.legal,
                        context_of(moment, entry.player),
                        chosen_double=game.playing_chosen_double,
                    ),
                )
        self._step()

    def _spot(self, moment: Moment, spot: PlaySpot) -> None:
        self.spots.append(spot)
        self.spot_games.append(moment.number)

    def _roll(self, moment: Moment, roller: int, position: Position, dice: tuple[int, int]) -> None:
        self.rolls.append(LuckSpot(position, Dice(*dice), context_of(moment, roller)))

    # --- the searches -----------------------------------------------------------------------------

    def judge(self) -> None:
        search = SharedSearch(self.evaluator, self.level.filter)
        games = np.array(self.spot_games, dtype=np.int64)
        for number in range(1, len(self.series.games) + 1):
            chosen = np.flatnonzero(games == number)
            self.judged += judge_spots(search, [self.spots[index] for index in chosen], self.level.plies)
            self._step()
        if self.boards:
            self.probabilities = search.evaluate(np.stack(self.boards), self.level.plies)
        self._step()
        self.luck = roll_luck(self.evaluator, self.rolls)
        self._step()

    # --- the second replay: the decisions ---------------------------------------------------------

    def decide(self) -> tuple[list[Decision], list[GameSummary]]:
        maker = _Decisions(self)
        for moment in replay(self.series):
            maker.take(moment)
        return maker.decisions, maker.summaries()


@dataclass
class _Decisions:
    """Turns the searches' numbers into decisions, moment by moment, in the order of the first replay."""

    work: _Work
    decisions: list[Decision] = field(default_factory=list)
    traces: dict[int, list[float]] = field(default_factory=dict)
    spot: int = 0
    board: int = 0
    roll: int = 0
    luck: Luck | None = None
    resigned: Resignation | None = None

    def take(self, moment: Moment) -> None:
        game, entry = moment.game, moment.entry
        action = entry.action
        where = (moment.number, moment.move)
        plies = self.work.level.plies
        probabilities = None
        if _cube_moment(moment):
            probabilities = self.work.probabilities[self.board]
            self.board += 1
        if isinstance(action, Played):
            self._add(
                moment, move_decision(where, entry.player, action.play, game, self._judged(), self.luck)
            )
            self.luck = None
        elif isinstance(action, Roll) or _opening(action):
            self.luck = Luck(*self.work.luck[self.roll])
            self.roll += 1
        if probabilities is not None and isinstance(action, Roll | Double):
            found = doubling_decision(
                game,
                probabilities,
                context_of(moment, entry.player),
                doubled=isinstance(action, Double),
                where=where,
                plies=plies,
            )
            if found is not None and (found[1] or isinstance(action, Double) or found[0].equity_loss > TINY):
                self._add(moment, found[0])
        elif probabilities is not None and isinstance(action, Take | Drop | Beaver):
            answer = answer_decision(
                game, probabilities, context_of(moment, entry.player), action, where=where, plies=plies
            )
            if answer is not None:
                self._add(moment, answer)
        elif isinstance(action, Resign) and game.phase in (Phase.ROLL, Phase.MOVE):
            context = context_of(moment, entry.player)
            if probabilities is not None:
                playing_on = game_decision(game, probabilities, context).equity
            else:
                playing_on = self._judged().best_value
            self.resigned = Resignation.of(game, context, action.kind, playing_on)
            self._add(moment, self.resigned.offered(where, game, plies))
        elif isinstance(action, AcceptResignation | DeclineResignation) and self.resigned is not None:
            accepted = isinstance(action, AcceptResignation)
            self._add(moment, self.resigned.answered(where, game, accepted, plies))
            self.resigned = None

    def _judged(self) -> JudgedSpot:
        judged = self.work.judged[self.spot]
        self.spot += 1
        return judged

    def _add(self, moment: Moment, decision: Decision) -> None:
        """Add ``decision``; the trace gets player 0's value before it (from the best choice's value)."""
        self.decisions.append(decision)
        best = decision.alternatives[0]
        value = best.equity if best.mwc is None else best.mwc
        if decision.player == 1:
            value = 1.0 - value if best.mwc is not None else -value
        self.traces.setdefault(moment.number, []).append(value)

    def summaries(self) -> list[GameSummary]:
        series = self.work.series
        out = []
        for index, game in enumerate(series.games):
            outcome = game.outcome
            out.append(
                GameSummary(
                    number=index + 1,
                    score_before=scores_before(series, index),
                    winner=None if outcome is None else outcome.winner,
                    points=0 if outcome is None else outcome.points,
                    trace=tuple(self.traces.get(index + 1, ())),
                )
            )
        return out


def _opening(action: object) -> bool:
    """Whether ``action`` is an opening roll that starts the game (not a tie)."""
    return isinstance(action, OpeningRoll) and action.dice[0] != action.dice[1]


def _cube_moment(moment: Moment) -> bool:
    """Whether the cube is judged at ``moment`` (so the position before the roll is evaluated): a double
    or a roll where the player on roll may double, an answer to a double, a resignation before the roll."""
    game, action = moment.game, moment.entry.action
    if isinstance(action, Roll | Double):
        return game.phase is Phase.ROLL and game.may_double(moment.entry.player)
    if isinstance(action, Take | Drop | Beaver):
        return game.phase is Phase.DOUBLED
    return isinstance(action, Resign) and game.phase is Phase.ROLL
