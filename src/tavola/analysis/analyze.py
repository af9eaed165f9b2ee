"""Match analysis: every checker play, cube decision and resignation of a record judged, every roll's luck.

:func:`analyze_series` takes a :class:`~tavola.match.Match` or
:class:`~tavola.match.MoneySession` (from :func:`read_series` or
:func:`tavola.records.load`) and gives an :class:`~tavola.analysis.model.Analysis`;
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
[(1, 1, 'move', '13/11 13/8'), (2, 0, 'cube', 'double, take'), (2, 1, 'cube', 'pass')]
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
from tavola.analysis.cubes import (
    answer_choices,
    answer_error,
    doubling_choices,
    doubling_error,
    redouble_name,
)
from tavola.analysis.figures import player_figures
from tavola.analysis.levels import DEFAULT_LEVEL, AnalysisLevel, analysis_level
from tavola.analysis.luck import LuckSpot, roll_luck
from tavola.analysis.model import (
    CLOSE_CUBE,
    Alternative,
    Analysis,
    CubeError,
    Decision,
    GameSummary,
    luck_of,
    skill_of,
)
from tavola.analysis.replay import Moment, replay
from tavola.analysis.stakes import Stakes
from tavola.bot.cube import game_decision
from tavola.bot.evaluate import Evaluator
from tavola.bot.met import table_for
from tavola.bot.search import SharedSearch
from tavola.dice import Dice
from tavola.errors import RecordError
from tavola.game import Ending, Phase
from tavola.match import Match, MoneySession
from tavola.position import Position
from tavola.records import load
from tavola.records._common import scores_before
from tavola.scoring import score_win

__all__ = ["DEFAULT_LEVEL", "analyze_file", "analyze_series", "read_series"]

Series = Match | MoneySession
Progress = Callable[[int, int], None]
"""Told (steps done, steps in all) as an analysis goes on."""

_TINY = 1e-9
"""Losses below this are rounding, not errors."""


def read_series(path: str | os.PathLike[str]) -> Series:
    """The match or session in a ``.mat`` file, a Tavola JSON record, or the terminal game's autosave."""
    try:
        return load(path)
    except RecordError as error:
        if not str(path).lower().endswith(".json"):
            raise
        from tavola.console.session import PlaySession

        try:
            return PlaySession.load(path).series  # tavola play's autosave holds a record
        except RecordError:
            raise error from None


def analyze_file(
    path: str | os.PathLike[str],
    *,
    level: str | AnalysisLevel = DEFAULT_LEVEL,
    evaluator: Evaluator | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """The analysis of the record in ``path`` (see :func:`read_series` and :func:`analyze_series`)."""
    series = read_series(path)
    return analyze_series(
        series, level=level, evaluator=evaluator, names=names, progress=progress, source=str(path)
    )


def analyze_series(
    series: Series,
    *,
    level: str | AnalysisLevel = DEFAULT_LEVEL,
    evaluator: Evaluator | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
    source: str = "",
) -> Analysis:
    """Judge every decision of ``series`` at ``level`` ("0-ply", "1-ply", "2-ply"; the strongest by default).

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


def stakes_of(moment: Moment, player: int) -> Stakes:
    """The stakes of ``player``'s decision at ``moment``."""
    game = moment.game
    return Stakes(player, game.cube, game.rules, game.variant, moment.away_for(player), game.crawford)


def _results(series: Series) -> tuple[float, float]:
    """What each player won: net points (money), or the chance of winning the match as it stands."""
    if isinstance(series, MoneySession):
        points = series.score.points
        return float(points[0]), float(points[1])
    score = series.score
    if series.is_over:
        return (1.0, 0.0) if score[0] == series.length else (0.0, 1.0)
    last = series.games[-1] if series.games else None
    crawford = (
        last.crawford if last is not None and not last.is_over else series.is_crawford_game(len(series.games))
    )
    away = (series.length - score[0], series.length - score[1])
    mine = table_for(*away, series.rules.crawford).equity(*away, crawford=crawford)
    return mine, 1.0 - mine


@dataclass
class _Work:
    """One analysis: what the first replay gathers, what the searches find, what the second replay makes."""

    series: Series
    level: AnalysisLevel
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
                self._spot(moment, PlaySpot(game.turn.legal, stakes_of(moment, entry.player), action.play))
            elif isinstance(action, OpeningRoll) and action.dice[0] != action.dice[1]:
                roller = 0 if action.dice[0] > action.dice[1] else 1
                self._roll(moment, roller, game.position_for(roller), action.dice)
            elif isinstance(action, Roll):
                assert action.dice is not None
                self._roll(moment, entry.player, game.position, action.dice)
            if _cube_moment(moment):
                self.boards.append(game.position.to_array())
            if isinstance(action, Resign) and game.phase is Phase.MOVE:
                assert game.turn is not None
                self._spot(moment, PlaySpot(game.turn.legal, stakes_of(moment, entry.player)))
        self._step()

    def _spot(self, moment: Moment, spot: PlaySpot) -> None:
        self.spots.append(spot)
        self.spot_games.append(moment.number)

    def _roll(self, moment: Moment, roller: int, position: Position, dice: tuple[int, int]) -> None:
        self.rolls.append(LuckSpot(position, Dice(*dice), stakes_of(moment, roller)))

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
    luck: tuple[float, float] | None = None
    resigned: tuple[float, float, Stakes] | None = None  # resigning and playing on, for the resigner

    def take(self, moment: Moment) -> None:
        game, entry = moment.game, moment.entry
        action = entry.action
        probabilities = None
        if _cube_moment(moment):
            probabilities = self.work.probabilities[self.board]
            self.board += 1
        if isinstance(action, Played):
            self._move(moment, self._judged())
        elif isinstance(action, Roll) or (
            isinstance(action, OpeningRoll) and action.dice[0] != action.dice[1]
        ):
            self.luck = self.work.luck[self.roll]
            self.roll += 1
        if probabilities is None:
            pass
        elif isinstance(action, Roll | Double):
            self._doubling(moment, probabilities)
        elif isinstance(action, Take | Drop | Beaver):
            self._answer(moment, probabilities)
        elif isinstance(action, Resign):
            self._resign(moment, game_decision(game, probabilities, moment.away_for(entry.player)).equity)
        if isinstance(action, Resign) and game.phase is Phase.MOVE:
            self._resign(moment, self._judged().best_value)
        elif isinstance(action, AcceptResignation | DeclineResignation):
            self._answer_resignation(moment)

    def _judged(self) -> JudgedSpot:
        judged = self.work.judged[self.spot]
        self.spot += 1
        return judged

    def _add(self, moment: Moment, decision: Decision, stakes: Stakes, best_value: float) -> None:
        """Add ``decision``; the trace gets player 0's value before it (from the best choice's value)."""
        self.decisions.append(decision)
        value = best_value if stakes.is_match else stakes.normalised(best_value)
        if decision.player == 1:
            value = stakes.seen_by_opponent(value)
        self.traces.setdefault(moment.number, []).append(value)

    def _move(self, moment: Moment, judged: JudgedSpot) -> None:
        entry = moment.entry
        assert isinstance(entry.action, Played)
        assert judged.played is not None
        play = entry.action.play
        stakes = stakes_of(moment, entry.player)
        forced = len(moment.game.turn.legal) <= 1 if moment.game.turn else True
        loss = max(0.0, judged.best.equity - judged.played.equity)
        luck = self.luck
        self.luck = None
        decision = Decision(
            game=moment.number,
            move=moment.move,
            player=entry.player,
            kind="move",
            position=play.before,
            dice=play.dice,
            cube=moment.game.cube,
            played=judged.played.text,
            best=judged.best.text,
            equity_loss=loss,
            mwc_loss=_mwc_loss(judged.best, judged.played),
            skill=skill_of(loss),
            alternatives=judged.alternatives,
            luck=None if luck is None else luck[0],
            luck_class=luck_of(luck[0]) if luck is not None else luck_of(0.0),
            forced=forced,
            luck_result=None if luck is None else luck[1],
            obvious=judged.obvious or forced,
        )
        self._add(moment, decision, stakes, judged.best_value)

    def _cube(
        self,
        moment: Moment,
        player: int,
        choices: list[tuple[str, float]],
        played: str,
        error: CubeError | None,
    ) -> None:
        """Add the cube decision of ``player`` among ``choices`` (texts, values in the series' terms)."""
        game = moment.game
        stakes = stakes_of(moment, player)
        alternatives = tuple(
            Alternative(text, stakes.normalised(value), stakes.mwc(value), self.work.level.plies)
            for text, value in choices
        )
        best = alternatives[0]
        mine = next(alternative for alternative in alternatives if alternative.text == played)
        loss = max(0.0, best.equity - mine.equity)
        decision = Decision(
            game=moment.number,
            move=moment.move,
            player=player,
            kind="cube",
            position=game.position_for(player),
            dice=None,
            cube=game.cube,
            played=played,
            best=best.text,
            equity_loss=loss,
            mwc_loss=_mwc_loss(best, mine),
            skill=skill_of(loss),
            alternatives=alternatives,
            cube_error=error if loss > _TINY else None,
        )
        self._add(moment, decision, stakes, choices[0][1])

    def _doubling(self, moment: Moment, probabilities: np.ndarray) -> None:
        game, player = moment.game, moment.entry.player
        decision = game_decision(game, probabilities, moment.away_for(player))
        if decision.reason is not None or decision.double_take is None:
            return
        choices = doubling_choices(decision, game.rules)
        doubled = next(text for text, _ in choices[:2] if text != "no double")
        played = doubled if isinstance(moment.entry.action, Double) else "no double"
        stakes = stakes_of(moment, player)
        values = dict(choices)
        close = stakes.normalised(values[doubled]) >= stakes.normalised(values["no double"]) - CLOSE_CUBE
        if played == "no double" and not close:
            return
        self._cube(moment, player, choices, played, doubling_error(played, choices[0][0]))

    def _answer(self, moment: Moment, probabilities: np.ndarray) -> None:
        game, entry = moment.game, moment.entry
        assert game.offer is not None
        decision = game_decision(game, probabilities, moment.away_for(game.player_on_roll))
        if decision.double_take is None:
            return  # a double the cube model has no take for (a dead cube in a match): nothing to judge
        redoubles = (game.offer[0] // game.cube.value).bit_length() - 2
        choices = answer_choices(decision, game.rules, redoubles)
        action = entry.action
        played = (
            "take"
            if isinstance(action, Take)
            else "pass"
            if isinstance(action, Drop)
            else redouble_name(redoubles)
        )
        ordered = sorted(choices, key=lambda choice: -choice[1])
        self._cube(moment, entry.player, ordered, played, answer_error(played, ordered[0][0]))

    def _resign(self, moment: Moment, playing_on: float) -> None:
        """The resignation offered at ``moment``, against ``playing_on``: the resigner's value of the game."""
        game, entry = moment.game, moment.entry
        assert isinstance(entry.action, Resign)
        stakes = stakes_of(moment, entry.player)
        points = score_win(
            1 - entry.player, entry.action.kind, game.cube, game.rules, Ending.RESIGNATION
        ).points
        if stakes.away is None:
            resigning = -points / game.cube.value
        else:
            resigning = stakes.table.after(*stakes.away, -points, game.crawford)
        self.resigned = (resigning, playing_on, stakes)
        choices = sorted([("resign", resigning), ("play on", playing_on)], key=lambda choice: -choice[1])
        self._cube(moment, entry.player, choices, "resign", CubeError.WRONG_RESIGNATION)

    def _answer_resignation(self, moment: Moment) -> None:
        if self.resigned is None:
            return
        resigning, playing_on, stakes = self.resigned
        accept, decline = stakes.seen_by_opponent(resigning), stakes.seen_by_opponent(playing_on)
        choices = sorted([("accept", accept), ("decline", decline)], key=lambda choice: -choice[1])
        played = "accept" if isinstance(moment.entry.action, AcceptResignation) else "decline"
        self._cube(moment, moment.entry.player, choices, played, CubeError.WRONG_RESIGNATION)
        self.resigned = None

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


def _cube_moment(moment: Moment) -> bool:
    """Whether the cube is judged at ``moment`` (so the position before the roll is evaluated): a double
    or a roll where the player on roll may double, an answer to a double, a resignation before the roll."""
    game, action = moment.game, moment.entry.action
    if isinstance(action, Roll | Double):
        return game.phase is Phase.ROLL and game.may_double(moment.entry.player)
    if isinstance(action, Take | Drop | Beaver):
        return game.phase is Phase.DOUBLED
    return isinstance(action, Resign) and game.phase is Phase.ROLL


def _mwc_loss(best: Alternative, played: Alternative) -> float | None:
    if best.mwc is None or played.mwc is None:
        return None
    return max(0.0, best.mwc - played.mwc)
