"""A chouette analysed cube by cube: every player's decisions judged on their own, with per-player figures.

A chouette game is one board and many cubes (H2-H8): the box and each team
member have a cube of their own, so each decides on their own whether to
double, take or drop, and each decision is judged as the money game of that
one cube, seen by that one player. :func:`analyze_chouette` replays the
record step by step (:func:`tavola.chouette.record.replay`) and, before each
action, reads what the player saw:

* a checker play (the box's or the captain's) is judged with the cube
  between the box and the captain;
* a double is judged on each cube it turns (the box doubling three members
  makes three decisions, one per cube), and so is each cube that could have
  been turned when the side on roll rolled without doubling it;
* every take, drop or beaver is judged for the member who gave it, on their
  own cube: two members answering the same double differently make two
  decisions, and at most one of them is right.

Each judgement is :func:`tavola.analysis.judge.judge_move` or
:func:`~tavola.analysis.judge.judge_cube` on a two-player
:class:`~tavola.game.Game` holding the board and that one cube (the box's
side is player 0, the team's player 1), so a chouette is judged exactly as
a money game is. The decisions are the analysis's own
:class:`~tavola.analysis.model.Decision` values, whose ``player`` is an
index into :attr:`ChouetteAnalysis.names`; every player gets their
:class:`~tavola.analysis.model.PlayerFigures`, their result being their
points in the ledger.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tavola.actions import Action, Double, Drop, OpeningRoll, Played, Roll, Take
from tavola.actions import Beaver as GameBeaver
from tavola.analysis.figures import player_figures
from tavola.analysis.judge import judge_cube, judge_move
from tavola.analysis.model import Decision, PlayerFigures
from tavola.bot.levels import ANALYSIS_LEVEL, Level, analysis_level
from tavola.chouette import Beaver as ChouetteBeaver
from tavola.chouette import Bet, Chouette, ChouetteGame, ChouetteSettings, Offer, Phase, Side
from tavola.chouette import Double as ChouetteDouble
from tavola.chouette import Drop as ChouetteDrop
from tavola.chouette import Take as ChouetteTake
from tavola.chouette.actions import LogEntry, StartGame
from tavola.chouette.record import replay
from tavola.cube import Cube
from tavola.dicesource import ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Game
from tavola.i18n import _
from tavola.play import Play
from tavola.position import Position
from tavola.records import read_json_file

if TYPE_CHECKING:
    from tavola.bot.evaluate import Evaluator

__all__ = ["ChouetteAnalysis", "analyze_chouette", "analyze_chouette_file"]

Progress = Callable[[int, int], None]
"""Told how many steps of the record are judged so far, and how many there are."""


@dataclass(frozen=True)
class ChouetteAnalysis:
    """A chouette session analysed: every player's decisions in order, and each player's figures.

    ``names`` are everyone who played a game, in the order they first sat
    down; a decision's ``player`` and the figures' order follow it. ``games``
    is how many games were judged; ``level`` names the depth of the
    judgements (e.g. "2-ply cubeful"); ``source`` is the file read (empty for a session in play).
    """

    source: str
    level: str
    names: tuple[str, ...]
    games: int
    decisions: tuple[Decision, ...]
    players: tuple[PlayerFigures, ...]

    def of(self, name: str) -> tuple[Decision, ...]:
        """``name``'s decisions, in order."""
        index = self.names.index(name)
        return tuple(decision for decision in self.decisions if decision.player == index)

    def figures(self, name: str) -> PlayerFigures:
        """``name``'s figures."""
        return self.players[self.names.index(name)]


@dataclass(frozen=True)
class _Seen:
    """What a chouette game showed before an action: the board from the side on roll, and the cubes."""

    game: int
    turn: int
    phase: Phase
    position: Position
    side_on_roll: Side
    box: str
    captain: str
    bets: tuple[Bet, ...]
    doubles: dict[str, tuple[str, ...]]
    """Who may double whom now (at the roll): each player and every opponent they could double."""
    offers: tuple[Offer, ...] = ()
    """The doubles waiting for an answer."""


def analyze_chouette_file(
    path: str | os.PathLike[str],
    *,
    level: str | Level | None = None,
    evaluator: Evaluator | None = None,
    progress: Progress | None = None,
) -> ChouetteAnalysis:
    """The chouette record in ``path`` (see :mod:`tavola.chouette.record`) analysed."""
    data = read_json_file(path)
    try:
        return _analyze(data, str(path), level, evaluator, progress)
    except RecordError as error:
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None


def analyze_chouette(
    chouette: Chouette,
    *,
    level: str | Level | None = None,
    evaluator: Evaluator | None = None,
    progress: Progress | None = None,
) -> ChouetteAnalysis:
    """``chouette``'s games analysed (a game still in play too, up to its last action).

    ``level`` is a level without noise or its name (:func:`~tavola.bot.levels.analysis_level`;
    :data:`~tavola.bot.levels.ANALYSIS_LEVEL` by default),
    ``evaluator`` the network (the shipped one by default); ``progress`` is
    told how far the analysis is.
    """
    return _analyze(chouette.to_json(), "", level, evaluator, progress)


def _analyze(
    data: object,
    source: str,
    level: str | Level | None,
    evaluator: Evaluator | None,
    progress: Progress | None,
) -> ChouetteAnalysis:
    chosen = analysis_level(level or ANALYSIS_LEVEL)
    steps = len(data["log"]) if isinstance(data, dict) and isinstance(data.get("log"), list) else 0
    names: dict[str, None] = {}  # everyone who played, in the order they first did
    made: list[tuple[str, Decision]] = []
    judge: _Judge | None = None
    seen: _Seen | None = None
    session: Chouette | None = None
    rolls = 0
    for done, (session, logged) in enumerate(replay(data)):
        if judge is None:
            judge = _Judge(session.settings, chosen, evaluator)
        if logged and seen is not None:
            made += judge.step(seen, logged[0])
        if logged and isinstance(logged[0].action, StartGame):
            rolls = 0
        rolls += sum(isinstance(entry.action, Roll | OpeningRoll) for entry in logged)
        game = session.game_in_progress
        seen = None if game is None else _seen(game, rolls)
        if game is not None:
            names.update(dict.fromkeys(game.players))
        if progress is not None and steps:
            progress(min(done, steps), steps)
    assert session is not None
    assert judge is not None
    order = tuple(names)
    decisions = tuple(dataclasses.replace(decision, player=order.index(name)) for name, decision in made)
    totals = session.ledger.totals
    figures = tuple(
        player_figures(name, index, decisions, result=float(totals.get(name, 0)))
        for index, name in enumerate(order)
    )
    return ChouetteAnalysis(source, chosen.title, order, len(session.games), decisions, figures)


def _seen(game: ChouetteGame, rolls: int) -> _Seen:
    """What ``game`` shows now, ``rolls`` rolls into it (the opening one included)."""
    doubles: dict[str, tuple[str, ...]] = {}
    if game.phase is Phase.ROLL:
        for item in game.legal_actions():
            if isinstance(item.action, ChouetteDouble):
                known = doubles.get(item.player, ())
                doubles[item.player] = known + tuple(n for n in item.action.against if n not in known)
    return _Seen(
        game.number + 1,
        rolls if game.phase is Phase.MOVE else rolls + 1,  # a cube action belongs to the turn it begins
        game.phase,
        game.position,
        game.side_on_roll,
        game.box,
        game.captain,
        game.bets,
        doubles,
        game.offers,
    )


class _Judge:
    """Judges the actions of a replayed chouette, each on its own cube, judging each position once."""

    def __init__(self, settings: ChouetteSettings, level: Level, evaluator: Evaluator | None) -> None:
        self.rules = dataclasses.replace(settings.rules, cube=True)
        self.variant = settings.variant
        self.level = level
        self.evaluator = evaluator
        self._judged: dict[tuple[object, ...], Decision | None] = {}

    def step(self, seen: _Seen, entry: LogEntry) -> list[tuple[str, Decision]]:
        """The decisions ``entry`` (an action replayed from what ``seen`` shows) made, with who made them."""
        player, action = entry.player, entry.action
        if player is None:
            return []
        found: list[tuple[str, Decision | None]] = []
        match action:
            case Played(play):
                found.append((player, self._play(seen, player, play)))
            case Roll() if seen.phase is Phase.ROLL:
                for doubler, against in seen.doubles.items():
                    for opponent in against:
                        decision = self._cube(seen, doubler, opponent, None)
                        if decision is not None and (decision.equity_loss > 0 or not decision.forced):
                            found.append((doubler, decision))
            case ChouetteDouble(against):
                for opponent in against or seen.doubles.get(player, ()):
                    found.append((player, self._cube(seen, player, opponent, Double())))
            case ChouetteTake(against) | ChouetteDrop(against) | ChouetteBeaver(against):
                answer = _ANSWERS[type(action)]
                for opponent in against:
                    found.append((player, self._cube(seen, player, opponent, answer)))
        return [
            (name, dataclasses.replace(decision, game=seen.game, move=seen.turn))
            for name, decision in found
            if decision is not None
        ]

    def _play(self, seen: _Seen, player: str, play: Play) -> Decision | None:
        """A checker play judged with the cube between the box and the captain."""
        side = Side.BOX if player == seen.box else Side.TEAM
        bet = _bet(seen.bets, seen.box, seen.captain)
        cube = bet.cube if bet is not None else Cube(1)
        key = ("move", play.before, play.dice, play.after, cube)
        if key not in self._judged:
            game = self._game(play.before, side, cube, ManualDice([play.dice]))
            game.roll()
            self._judged[key] = judge_move(game, play, level=self.level, evaluator=self.evaluator)
        return self._judged[key]

    def _cube(self, seen: _Seen, player: str, opponent: str, action: Action | None) -> Decision | None:
        """``player``'s cube action against ``opponent`` (None: no double) judged on their one cube."""
        bet = _bet(seen.bets, player, opponent)
        if bet is None:
            return None
        doubler, redoubles = bet.side_of(player), 0
        answering = action is not None and not isinstance(action, Double)
        if answering:  # an answer to the double on this cube, or to a beaver or raccoon after it (M3, M4)
            offer = next((offer for offer in seen.offers if offer.bet == bet.key), None)
            if offer is None:
                return None
            doubler, redoubles = offer.doubler, offer.redoubles
        if doubler is not seen.side_on_roll:
            return None
        key = ("cube", seen.position, doubler, bet.cube, type(action), redoubles)
        if key not in self._judged:
            game = self._game(seen.position, doubler, bet.cube, ManualDice())
            try:
                if answering:
                    game.double()
                for _ in range(redoubles):
                    game.beaver()
                decision = judge_cube(game, action, level=self.level, evaluator=self.evaluator)
            except TavolaError:
                decision = None  # a cube the two-player game cannot turn here
            self._judged[key] = decision
        return self._judged[key]

    def _game(self, position: Position, on_roll: Side, cube: Cube, dice: ManualDice) -> Game:
        """A money game of the board with one cube; the box's side is player 0."""
        return Game(
            self.rules, dice, position=position, player_on_roll=int(on_roll), cube=cube, variant=self.variant
        )


_ANSWERS: dict[type, Action] = {ChouetteTake: Take(), ChouetteDrop: Drop(), ChouetteBeaver: GameBeaver()}
"""The two-player game's answer for each chouette answer."""


def _bet(bets: Iterable[Bet], player: str, opponent: str) -> Bet | None:
    """The live main cube (not an extra) between two players, if any."""
    for bet in bets:
        if bet.is_live and not bet.extra and {bet.box_side, bet.team_side} == {player, opponent}:
            return bet
    return None
