"""What happens at a terminal game's table, said and drawn: :class:`TableView` renders the events of a
:class:`~tavola.table.GameTable` (the opening roll, the dice, plays, cube actions, resignations, the end of
a game and of the series) in the language in use, and draws the board where a person will play.

>>> from rich.console import Console
>>> from tavola.console.session import PlaySession, Seat
>>> from tavola.dicesource import RandomDice
>>> from tavola.game import Game
>>> from tavola.match import Match
>>> from tavola.table.events import DoubleOffered
>>> session = PlaySession(Match(5, dice=RandomDice(seed=2), players=("Ann", "Bo")), (Seat("Ann"), Seat("Bo")))
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as captured:
...     TableView(session, console).show(DoubleOffered(1, 2), Game())
>>> captured.get()
'Bo doubles to 2.\\n'
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from tavola.console.session import PlaySession
from tavola.console.view import board, score_line
from tavola.game import Game
from tavola.i18n import _, ngettext
from tavola.match import Match
from tavola.play import Play
from tavola.position import WinKind
from tavola.scoring import Ending
from tavola.table.events import (
    AutomaticBeaver,
    CheckersMoved,
    DiceRolled,
    DoubleBeavered,
    DoubleChosen,
    DoubleDropped,
    DoubleOffered,
    DoubleTaken,
    Event,
    GameOver,
    MoveUndone,
    OpeningRolled,
    OpeningTie,
    PlayMade,
    ResignationAccepted,
    ResignationDeclined,
    ResignationOffered,
    SeriesOver,
)

__all__ = ["TableView"]


class TableView:
    """Says on ``console`` what happens at ``session``'s table and draws its board, each board once."""

    def __init__(self, session: PlaySession, console: Console) -> None:
        self.session = session
        self.console = console
        self.series_announced = False
        self._shown: object = None  # what the board last drawn showed, not to draw it twice

    def show(self, event: Event, game: Game) -> None:
        """Say what ``event`` was, ``game`` being the table's game, and draw the board where a person will
        play."""
        match event:
            case OpeningTie(cube):
                self.console.print(
                    _("Both players rolled the same number: the opening roll is rolled again.")
                )
                if cube > 1:
                    self.console.print(_("Automatic double: the cube is now at {value}.").format(value=cube))
            case OpeningRolled(dice, first):
                self.console.print(
                    _("Opening roll {dice}: {name} plays first.").format(
                        dice=f"{dice.high}-{dice.low}", name=self._name(int(first))
                    )
                )
                self._draw_for_person(game, int(first))
            case DiceRolled(seat):
                self._draw_for_person(game, int(seat))
            case DoubleChosen(seat, number):
                name = self._name(seat)
                self.console.print(_("{name} chooses double {number}s.").format(name=name, number=number))
                self._draw_for_person(game, seat)
            case PlayMade(seat, play, forced):
                self._announce_play(game, int(seat), play, forced)
            case CheckersMoved() | MoveUndone():
                self.draw(game)
            case DoubleOffered(seat, value):
                self.console.print(_("{name} doubles to {value}.").format(name=self._name(seat), value=value))
            case DoubleTaken(seat):
                self.console.print(_("{name} takes.").format(name=self._name(seat)))
            case AutomaticBeaver(_seat, value):
                self.console.print(_("Automatic beaver: the cube goes to {value}.").format(value=value))
            case DoubleBeavered(seat, value):
                self.console.print(
                    _("{name} beavers: the cube is at {value}.").format(name=self._name(seat), value=value)
                )
            case DoubleDropped(seat):
                self.console.print(_("{name} drops.").format(name=self._name(seat)))
            case ResignationOffered(seat, kind):
                self.console.print(_resigns_text(self._name(seat), kind))
            case ResignationAccepted(seat):
                self.console.print(_("{name} accepts the resignation.").format(name=self._name(seat)))
            case ResignationDeclined(seat):
                self.console.print(
                    _("{name} declines the resignation: play goes on.").format(name=self._name(seat))
                )
            case GameOver():
                self._announce_game_end(game)
            case SeriesOver():
                self.announce_series_end()

    def draw(self, game: Game, *, force: bool = False) -> None:
        """The board of ``game`` with the score and the IDs, unless it was the last drawn (``force``:
        again all the same)."""
        state = (id(game), len(game.log), game.position, game.dice, game.phase)
        if state == self._shown and not force:
            return
        self._shown = state
        self.console.print()
        self.console.print(board(self.session, game, self._viewer(game), self._x_seat()))

    def announce_series_end(self) -> None:
        """The winner of a match, once it is over (a money session has none)."""
        self.series_announced = True
        series = self.session.series
        if isinstance(series, Match) and series.winner is not None:
            winner = series.winner
            text = _("{name} wins the match {score}.").format(
                name=self._name(winner), score=f"{series.score[winner]}-{series.score[1 - winner]}"
            )
            self.console.print(Text(text, style="bold"))

    def _name(self, player: int) -> str:
        return self.session.seats[player].name

    def _is_bot(self, player: int) -> bool:
        return self.session.seats[player].is_bot

    def _viewer(self, game: Game) -> int:
        """Whose side the board is drawn from: the person playing against the bot, or the person to act."""
        people = [index for index, seat in enumerate(self.session.seats) if not seat.is_bot]
        acting = game.player_to_act
        if len(people) == 1:
            return people[0]
        return acting if acting is not None else game.player_on_roll

    def _x_seat(self) -> int:
        """Whose checkers are ``X`` on every board: the person playing against the bot, else seat 0."""
        people = [index for index, seat in enumerate(self.session.seats) if not seat.is_bot]
        return people[0] if len(people) == 1 else 0

    def _draw_for_person(self, game: Game, player: int) -> None:
        """The board with the dice just rolled, before a person plays them (or sees their only play)."""
        if not self._is_bot(player):
            self.draw(game)

    def _announce_play(self, game: Game, player: int, play: Play, forced: bool) -> None:
        name = self._name(player)
        dice = f"{play.dice.high}-{play.dice.low}"
        if forced and play.moves:
            text = _("{name} rolls {dice}: the only legal play is {play}").format(
                name=name, dice=dice, play=play.notation
            )
        elif (forced or self._is_bot(player)) and not play.moves:
            text = _("{name} rolls {dice} and cannot move").format(name=name, dice=dice)
        elif self._is_bot(player):
            text = _("{name} rolls {dice} and plays {play}").format(name=name, dice=dice, play=play.notation)
        else:
            text = _("{name} plays {play}").format(name=name, play=play.notation or _("(no move)"))
        self.console.print(text)
        if self._is_bot(player) and not forced:
            self.draw(game)

    def _announce_game_end(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        self.draw(game, force=True)
        name = self._name(outcome.winner)
        how = {
            WinKind.SINGLE: _("a single game"),
            WinKind.GAMMON: _("a gammon"),
            WinKind.BACKGAMMON: _("a backgammon"),
        }[outcome.kind]
        ending = {
            Ending.BEAR_OFF: "",
            Ending.DROP: _(" (double dropped)"),
            Ending.RESIGNATION: _(" (resignation)"),
            Ending.FORFEIT: _(" (forfeit)"),
        }[outcome.ending]
        if outcome.checkers_left is not None:  # the loser pays per checker left (Acey-Deucey)
            left = ngettext("{count} checker left", "{count} checkers left", outcome.checkers_left).format(
                count=outcome.checkers_left
            )
            text = ngettext(
                "{name} wins{ending}: {points} point ({left}).",
                "{name} wins{ending}: {points} points ({left}).",
                outcome.points,
            ).format(name=name, ending=ending, points=outcome.points, left=left)
        else:
            text = ngettext(
                "{name} wins {how}{ending}: {points} point.",
                "{name} wins {how}{ending}: {points} points.",
                outcome.points,
            ).format(name=name, how=how, ending=ending, points=outcome.points)
        self.console.print(Text(text, style="bold"))
        self.console.print(score_line(self.session))


def _resigns_text(name: str, kind: WinKind) -> str:
    return {
        WinKind.SINGLE: _("{name} resigns a single game."),
        WinKind.GAMMON: _("{name} resigns a gammon."),
        WinKind.BACKGAMMON: _("{name} resigns a backgammon."),
    }[kind].format(name=name)
