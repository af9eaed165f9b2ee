"""A two-player table: a match or money session, two seats, the bot in its seat, and events.

:class:`GameTable` knows nothing of terminals or networks. A view (the
terminal, a server) asks who acts (:attr:`GameTable.seat_to_act`) and what
they may do (:meth:`GameTable.legal_actions`), passes a person's actions to
:meth:`GameTable.act`, and calls :meth:`GameTable.advance` for everything that
needs no person: the bot's actions in its seat, a person's forced rolls, and
forced plays and passes. Everything that happens comes back as events
(:mod:`tavola.table.events`), to listeners and in :attr:`GameTable.events`;
the ``on_action`` hook is told every action done (a person's or not) and the
``autosave`` hook is called after it.

>>> from tavola.dicesource import ManualDice
>>> from tavola.errors import OutOfTurnError
>>> from tavola.match import MoneySession
>>> dice = ManualDice()
>>> dice.enter_opening(3, 1)
>>> dice.enter("66")
>>> table = GameTable(MoneySession(dice=dice), (Seat("Ann"), Seat("Bo")))
>>> table.advance()  # Ann's opening roll: rolling is all she may do
>>> table.seat_to_act, table.events[-1]
(0, OpeningRolled(dice=Dice(3, 1), first=0))
>>> table.act(1, Roll())
Traceback (most recent call last):
...
tavola.errors.OutOfTurnError: it is player 0's turn to act, not player 1's (R21)
>>> try:
...     table.act(1, Roll())
... except OutOfTurnError as error:
...     print(table.refusal(error))
it is Ann's turn to act, not Bo's (R21)
>>> turn = table.game.turn
>>> table.act(0, Played(turn.start.parse_play(turn.dice, "8/5 6/5")))
>>> table.legal_actions(1)
[Roll(), Double(), Resign(WinKind.SINGLE), Resign(WinKind.GAMMON), Resign(WinKind.BACKGAMMON)]
>>> table.act(1, Roll())
>>> [type(event).__name__ for event in table.events]
['GameStarted', 'OpeningRolled', 'PlayMade', 'DiceRolled']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    DeclineResignation,
    Double,
    Drop,
    Entry,
    MoveCheckers,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.bot.actor import choose_action, should_resign
from tavola.bot.advice import Question, ask
from tavola.bot.context import CubeContext
from tavola.bot.player import Bot
from tavola.dice import Dice
from tavola.errors import IllegalActionError, TavolaError
from tavola.game import Game, Phase
from tavola.hooks import weak_hook
from tavola.i18n import _
from tavola.match import Forfeit, Match, MoneySession
from tavola.play import LegalPlays, Play
from tavola.records import to_json
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
    Forfeited,
    GameOver,
    GameStarted,
    MoveUndone,
    OpeningRolled,
    OpeningTie,
    PlayMade,
    ResignationAccepted,
    ResignationDeclined,
    ResignationOffered,
    SeriesOver,
)
from tavola.table.protocol import ActionHook, Listener
from tavola.table.seats import Seat
from tavola.turn import Turn

__all__ = ["BeforeRoll", "GameTable", "forced_play"]

BeforeRoll = Callable[[int, bool], None]
"""Called with the seat and whether it is the opening roll just before the table rolls the dice."""


class GameTable:
    """``series`` played by ``seats`` (0 and 1, as in the series' games): a
    :class:`~tavola.table.protocol.Table` of two-player actions.

    ``bots`` is the :class:`~tavola.bot.player.Bot` of each bot seat;
    ``on_action`` is told every action done, then ``autosave`` is called;
    ``before_roll`` is called just before every roll (where typed dice are
    asked for). The series' first game is
    started at once if it has none.
    """

    def __init__(
        self,
        series: Match | MoneySession,
        seats: tuple[Seat, Seat],
        *,
        bots: Mapping[int, Bot] | None = None,
        autosave: Callable[[], None] | None = None,
        before_roll: BeforeRoll | None = None,
        on_action: ActionHook[Action] | None = None,
    ) -> None:
        self.series = series
        self.seats = seats
        self.bots = dict(bots or {})
        missing = [index for index, seat in enumerate(seats) if seat.is_bot and index not in self.bots]
        if missing:
            raise ValueError(f"seats {missing} are the bot's: give their Bot in bots")
        self.autosave = autosave
        self.before_roll = before_roll
        self.on_action = on_action
        self._listeners: list[Listener] = []
        self._events: list[Event] = []
        self._forcing = False  # a forced play is being made
        self._no_bot_resignation: set[int] = set()  # games where a resignation was declined
        self._watched: Game | None = None
        if series.game is None:
            self.start_game()

    # --- reading ------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game in progress, or the last one played."""
        game = self.series.game
        assert game is not None
        self._watch(game)
        return game

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything announced so far, in order."""
        return tuple(self._events)

    @property
    def seat_to_act(self) -> int | None:
        """The seat that must act now; None between games and after the series."""
        return self.game.player_to_act

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat that must act now, if any."""
        seat = self.seat_to_act
        return () if seat is None else (seat,)

    @property
    def in_game(self) -> bool:
        """Whether the game is being played (not over)."""
        return not self.game.is_over

    @property
    def is_over(self) -> bool:
        """Whether the match is won (a money session goes on while its players want)."""
        return self.series.is_over

    @property
    def next_game_due(self) -> bool:
        """Whether a game of a match is over and the match goes on."""
        return isinstance(self.series, Match) and self.game.is_over and not self.series.is_over

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (nothing when it is the other seat's turn)."""
        game = self.game
        return game.legal_actions() if game.player_to_act == seat else []

    def legal_actions_split(self, seat: int) -> tuple[LegalPlays | None, list[Action]]:
        """:meth:`legal_actions` as the whole plays and the others
        (:meth:`Game.legal_actions_split <tavola.game.Game.legal_actions_split>`)."""
        game = self.game
        return game.legal_actions_split() if game.player_to_act == seat else (None, [])

    def away(self, seat: int) -> tuple[int, int] | None:
        """In a match, the points ``seat`` and the opponent still need; None for money."""
        if not isinstance(self.series, Match):
            return None
        score, length = self.series.score, self.series.length
        return length - score[seat], length - score[1 - seat]

    def cube_context(self, seat: int) -> CubeContext:
        """The game's cube context from ``seat``'s side: the cube, the rules, the variant and, in a match,
        the score (:class:`~tavola.bot.context.CubeContext`), for the bot's advice and the tutor."""
        return CubeContext.of_game(self.game, seat, self.away(seat))

    def question(self, seat: int) -> Question:
        """What ``seat`` may ask the bot now: the decision it faces (:func:`tavola.bot.advice.ask`)."""
        return ask(self.game, seat, self.cube_context(seat))

    def refusal(self, error: TavolaError) -> str:
        """What a refused action's ``error`` says, naming the seats it speaks of by who sits there.

        >>> from tavola.errors import OutOfTurnError, SeatedText
        >>> table = GameTable(MoneySession(), (Seat("Ann"), Seat("Bo")))
        >>> table.refusal(OutOfTurnError(SeatedText("player {seat} waits", "{seat} waits", {"seat": 1})))
        'Bo waits'
        """
        if isinstance(error, IllegalActionError):
            return error.naming([seat.name for seat in self.seats])
        return str(error)

    def side(self, seat: int) -> tuple[int, ...]:
        """None: a side of a two-player table is one player."""
        return ()

    def listen(self, listener: Listener) -> None:
        """Hand every event from now on to ``listener``."""
        self._listeners.append(listener)

    def record(self) -> dict[str, Any]:
        """The series as Tavola's JSON record (:func:`tavola.records.to_json`)."""
        return to_json(self.series)

    # --- acting -------------------------------------------------------------------------------

    def start_game(self) -> Game:
        """Start the series' next game (the one before must be over, and the series go on)."""
        game = self.series.new_game()
        self._watch(game)
        self._announce(GameStarted(len(self.series.games)))
        return game

    def act(self, seat: int, action: Action) -> None:
        """Do ``action`` for the person in ``seat``: one of :meth:`legal_actions`, or refused with a
        :class:`~tavola.errors.TavolaError` (out of turn: :class:`~tavola.errors.OutOfTurnError`), the
        game untouched."""
        self._apply(seat, action)

    def forfeit(self, forfeit: Forfeit) -> None:
        """End the series by ``forfeit`` (:meth:`Match.forfeit <tavola.match.Match.forfeit>`), whoever is
        to act: :class:`~tavola.table.events.Forfeited` is announced, then the game's end and the
        match's. Refused once the series is over.

        >>> table = GameTable(Match(3), (Seat("Ann"), Seat("Bo")))
        >>> table.forfeit(Forfeit(1, "time"))
        >>> [type(event).__name__ for event in table.events], table.seat_to_act, table.is_over
        (['GameStarted', 'Forfeited', 'GameOver', 'SeriesOver'], None, True)
        """
        if self.series.is_over:
            raise IllegalActionError(_("the match is over"))
        between_games = self.game.is_over  # the game is listened to: its end is announced
        self._announce(Forfeited(forfeit.player, forfeit.reason))
        self.series.forfeit(forfeit)
        if between_games and isinstance(self.series, Match):  # no game ended to announce the match's end
            self._announce(SeriesOver(1 - forfeit.player, self.series.score))

    def advance(self) -> None:
        """Make every action that needs no person's decision, until a person must act or the game ends:
        the bot's, and a person's forced rolls (before the opening roll, or when they may not double)
        and forced plays and passes (R11)."""
        game = self.game
        while not game.is_over:
            seat = game.player_to_act
            assert seat is not None
            if self.seats[seat].is_bot:
                self._bot_acts(game, seat)
            elif game.phase is Phase.OPENING or (game.phase is Phase.ROLL and not game.may_double()):
                self._apply(seat, Roll())
            elif game.phase is Phase.MOVE and (forced := forced_play(game.turn)) is not None:
                self._forcing = True
                try:
                    self._apply(seat, Played(forced))
                finally:
                    self._forcing = False
            else:
                return

    def _bot_acts(self, game: Game, seat: int) -> None:
        bot = self.bots[seat]
        if game.phase is Phase.ROLL and len(self.series.games) not in self._no_bot_resignation:
            kind = should_resign(bot, game)
            if kind is not None:
                self._apply(seat, Resign(kind))
                return
        self._apply(seat, choose_action(bot, game, self.cube_context(seat)))

    def _apply(self, seat: int, action: Action) -> None:
        game = self.game
        rolling = isinstance(action, Roll) and game.phase in (Phase.OPENING, Phase.ROLL)
        if rolling and self.before_roll is not None and game.player_to_act == seat:
            self.before_roll(seat, game.phase is Phase.OPENING)
        moved = len(game.turn.moves) if game.turn is not None else 0
        game.apply(action, seat)
        if isinstance(action, MoveCheckers) and game.turn is not None:
            self._announce(CheckersMoved(seat, game.turn.moves[moved:]))
        elif isinstance(action, Undo):
            self._announce(MoveUndone(seat))
        if self.on_action is not None:
            self.on_action(seat, action)
        if self.autosave is not None:
            self.autosave()

    # --- what the game says -------------------------------------------------------------------

    def _watch(self, game: Game) -> None:
        """Listen to ``game`` (one started here, or put into the series from outside)."""
        if game is not self._watched:
            game.record, game.on_over = weak_hook(self._heard), weak_hook(self._over)
            self._watched = game

    def _heard(self, entry: Entry) -> None:
        game = self.game
        seat, action = entry.player, entry.action
        event: Event | None = None
        match action:
            case OpeningRoll((first, second)) if first == second:
                event = OpeningTie(game.cube.value)
            case OpeningRoll((first, second)):
                event = OpeningRolled(Dice(first, second), game.player_on_roll)
            case Roll(dice) if dice is not None:
                event = DiceRolled(seat, dice)
            case Played(play):
                event = PlayMade(seat, play, self._forcing)
            case Double():
                event = DoubleOffered(seat, _offered(game))
            case Take():
                event = DoubleTaken(seat, game.cube)
            case Beaver() if _last_two_by(game, seat, Take, Beaver):
                event = AutomaticBeaver(seat, _offered(game))
            case Beaver():
                event = DoubleBeavered(seat, _offered(game))
            case Drop():
                event = DoubleDropped(seat)
            case Resign(kind):
                event = ResignationOffered(seat, kind)
            case DeclineResignation():
                self._no_bot_resignation.add(len(self.series.games))
                event = ResignationDeclined(seat)
            case ChooseDouble(number):
                event = DoubleChosen(seat, number)
            case AcceptResignation():
                event = ResignationAccepted(seat)
        if event is not None:
            self._announce(event)

    def _over(self, game: Game) -> None:
        assert game.outcome is not None
        self._announce(GameOver(len(self.series.games), game.outcome))
        if isinstance(self.series, Match) and self.series.winner is not None:
            self._announce(SeriesOver(self.series.winner, self.series.score))

    def _announce(self, event: Event) -> None:
        self._events.append(event)
        for listener in self._listeners:
            listener(event)


def forced_play(turn: Turn | None) -> Play | None:
    """The play to make when the dice leave only one (a pass included, R11), before any checker moved.

    >>> from tavola.dice import Dice
    >>> from tavola.position import Position
    >>> forced_play(Turn(Position.start(), Dice(6, 5))) is None
    True
    """
    if turn is None or turn.moves or len(turn.legal) != 1:
        return None
    return next(iter(turn.legal))


def _offered(game: Game) -> int:
    offer = game.offer
    assert offer is not None
    return offer[0]


def _last_two_by(game: Game, seat: int, *kinds: type) -> bool:
    """Whether ``seat`` made the game's last two entries, of these kinds: a take that was a beaver (M6)."""
    last = game.log[-2:]
    return len(last) == 2 and all(
        entry.player == seat and isinstance(entry.action, kind)
        for entry, kind in zip(last, kinds, strict=True)
    )
