"""A chouette table: the players, the bot in the seats it fills, whose turn it is, and events.

:class:`ChouetteTable` runs a :class:`~tavola.chouette.Chouette` for a view
as :class:`~tavola.table.GameTable` runs a two-player series, through the
same interface (:class:`~tavola.table.protocol.Table`): the view passes
each person's actions to :meth:`ChouetteTable.act`, calls
:meth:`ChouetteTable.advance` for the bots' actions and forced plays, and
renders the events. Its seats are numbered in the order the players first
sat down, and keep their number when a player leaves and comes back.
Several players may act at once (members answering a double), so every
action names its seat.

>>> from tavola.chouette import Chouette
>>> from tavola.dicesource import RandomDice
>>> table = ChouetteTable(Chouette(dice=RandomDice(seed=5), players=["Ann", "Ben", "Cid"]))
>>> game = table.start_game()
>>> table.events[-1]
ChouetteGameStarted(number=1, box='Cid', team=('Ann', 'Ben'), captain='Ann')
>>> table.to_act, table.legal_actions(1)
((2, 0), [])
>>> table.act(table.seat_of("Ann"), Roll())
>>> table.events[-1]
ChouetteActed(player='Ann', action=OpeningRoll(dice=(3, 6)))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tavola.actions import MoveCheckers, Played, Roll, Undo
from tavola.bot.advice import NoAdviceError, Question, ask_chouette
from tavola.bot.player import Bot
from tavola.chouette import Chouette, ChouetteGame, Phase
from tavola.chouette import record as chouette_record
from tavola.chouette.actions import ChouetteAction, DrawOrder, LogEntry, StartGame
from tavola.errors import IllegalActionError, SeatingError, TavolaError
from tavola.hooks import weak_hook
from tavola.i18n import _
from tavola.table.chouette_bot import choose_chouette_action
from tavola.table.events import (
    CheckersMoved,
    ChouetteActed,
    ChouetteGameOver,
    ChouetteGameStarted,
    Event,
    MoveUndone,
    OrderDrawn,
    PlayMade,
)
from tavola.table.game_table import forced_play
from tavola.table.protocol import ActionHook, Listener
from tavola.table.seats import Seat

__all__ = ["ChouetteTable"]


class ChouetteTable:
    """``chouette`` at a table, a :class:`~tavola.table.protocol.Table` of chouette players' actions;
    ``bots`` plays for the players it names; ``on_action`` is told every action done in a game, with
    its seat; ``autosave`` is called after every action."""

    def __init__(
        self,
        chouette: Chouette,
        *,
        bots: Mapping[str, Bot] | None = None,
        autosave: Callable[[], None] | None = None,
        on_action: ActionHook[ChouetteAction] | None = None,
    ) -> None:
        self.chouette = chouette
        self.bots = dict(bots or {})
        self._seats: list[Seat] = []
        for player in chouette.players:
            self._seat_down(player)
        self.autosave = autosave
        self.on_action = on_action
        self._listeners: list[Listener] = []
        self._events: list[Event] = []
        self._forcing = False
        chouette.record, chouette.on_game_over = weak_hook(self._heard), weak_hook(self._over)

    # --- reading ------------------------------------------------------------------------------

    @property
    def game(self) -> ChouetteGame | None:
        """The game in progress, if any."""
        return self.chouette.game_in_progress

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything announced so far, in order."""
        return tuple(self._events)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Everyone who has sat at the table, in the order they first sat down."""
        return tuple(self._seats)

    def seat_of(self, player: str) -> int:
        """The seat of ``player``, who sits at the table or sat at it before."""
        for index, seat in enumerate(self._seats):
            if seat.name == player:
                return index
        raise SeatingError(_("{player} is not at the table").format(player=player))

    def question(self, seat: int) -> Question:
        """What the player in ``seat`` may ask the bot now: the decision they face in the game in progress
        (:func:`tavola.bot.advice.ask_chouette`)."""
        game = self.game
        if game is None:
            raise NoAdviceError(_("there is no game in progress: nothing to decide"))
        return ask_chouette(game, self._seats[seat].name)

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may do something now."""
        game = self.game
        return tuple(self.seat_of(player) for player in game.to_act) if game is not None else ()

    @property
    def in_game(self) -> bool:
        """Whether a game is in progress."""
        return self.game is not None

    @property
    def is_over(self) -> bool:
        """Never: a chouette goes on while its players want."""
        return False

    @property
    def next_game_due(self) -> bool:
        """Never: the players start each game."""
        return False

    def legal_actions(self, seat: int) -> list[ChouetteAction]:
        """What ``seat`` may do now (suggestions aside, see :meth:`ChouetteGame.may_suggest`)."""
        game = self.game
        player = self._player(seat)
        return [item.action for item in game.legal_actions(player)] if game is not None else []

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s side in the game in play: the box and its partner, or the team."""
        game = self.chouette.game
        if game is None or game.is_over:
            return ()
        player = self._player(seat)
        sides: tuple[list[str | None], ...] = ([game.box, game.partner], list(game.team))
        for members in sides:
            if player in members:
                return tuple(index for index, other in enumerate(self._seats) if other.name in members)
        return ()

    def refusal(self, error: TavolaError) -> str:
        """What a refused action's ``error`` says; a refusal of the checker game, which names its two
        sides by number, names the box and the captain instead."""
        game = self.game
        if isinstance(error, IllegalActionError) and game is not None:
            return error.naming([game.box, game.captain])
        return str(error)

    def listen(self, listener: Listener) -> None:
        """Hand every event from now on to ``listener``."""
        self._listeners.append(listener)

    def record(self) -> dict[str, Any]:
        """The chouette as Tavola's JSON record (:func:`tavola.chouette.record.to_json`)."""
        return chouette_record.to_json(self.chouette)

    # --- acting -------------------------------------------------------------------------------

    def join(self, name: str) -> None:
        """``name`` sits down at the end of the queue (H3), in a seat of their own (the one they had, if
        they sat here before)."""
        self.chouette.join(name)
        self._seat_down(name)
        self._saved()

    def leave(self, name: str) -> None:
        """``name`` leaves the table (H3)."""
        self.chouette.leave(name)
        self._saved()

    def start_game(self) -> ChouetteGame:
        """Start the next game, drawing the order first if it is not drawn yet (H1)."""
        game = self.chouette.start_game()
        self._saved()
        return game

    def act(self, seat: int, action: ChouetteAction) -> None:
        """Do ``action`` for the player in ``seat``, or refuse it with a :class:`~tavola.errors.TavolaError`
        naming what was wrong, the game untouched."""
        player = self._player(seat)
        game = self.chouette.game  # the last one refuses everything once it is over
        if game is None:
            raise IllegalActionError(_("no chouette game has started yet"))
        moved = len(game.turn.moves) if game.turn is not None else 0
        game.apply(player, action)
        if isinstance(action, MoveCheckers) and game.turn is not None:
            self._announce(CheckersMoved(player, game.turn.moves[moved:]))
        elif isinstance(action, Undo):
            self._announce(MoveUndone(player))
        if self.on_action is not None:
            self.on_action(seat, action)
        self._saved()

    def advance(self) -> None:
        """Make the bots' actions and the forced plays (R11) until a person must act or the game ends.

        The bots double before their side rolls; a bot that rolls does so once
        no bot wants to double.
        """
        while (game := self.game) is not None:
            found = self._automatic(game)
            if found is None:
                return
            player, action, forced = found
            self._forcing = forced
            try:
                self.act(self.seat_of(player), action)
            finally:
                self._forcing = False

    def _automatic(self, game: ChouetteGame) -> tuple[str, ChouetteAction, bool] | None:
        """The next action that needs no person: a bot's, or a forced play; None when none is due."""
        if game.phase is Phase.MOVE:
            roller = game.roller
            turn = game.turn
            assert roller is not None
            if roller not in self.bots:
                forced = forced_play(turn)
                return None if forced is None else (roller, Played(forced), True)
        rolling: str | None = None
        for player in game.to_act:
            bot = self.bots.get(player)
            if bot is None:
                continue
            action = choose_chouette_action(bot, game, player)
            if isinstance(action, Roll) and game.phase is Phase.ROLL:
                rolling = rolling or player  # once no bot doubles
            elif action is not None:
                return player, action, False
        return None if rolling is None else (rolling, Roll(), False)

    def _saved(self) -> None:
        if self.autosave is not None:
            self.autosave()

    def _seat_down(self, name: str) -> None:
        if all(seat.name != name for seat in self._seats):
            bot = self.bots.get(name)
            self._seats.append(Seat(name, bot.level.name if bot is not None else None))

    def _player(self, seat: int) -> str:
        if not 0 <= seat < len(self._seats):
            raise SeatingError(_("there is no seat {seat} at this table").format(seat=seat))
        return self._seats[seat].name

    # --- what the chouette says ---------------------------------------------------------------

    def _heard(self, entry: LogEntry) -> None:
        action = entry.action
        if isinstance(action, Played):
            assert entry.player is not None
            self._announce(PlayMade(entry.player, action.play, self._forcing))
        elif isinstance(action, DrawOrder):
            self._announce(OrderDrawn(action.rounds))
        elif isinstance(action, StartGame):
            game = self.chouette.game
            assert game is not None
            self._announce(ChouetteGameStarted(len(self.chouette.games), game.box, game.team, game.captain))
        else:
            self._announce(ChouetteActed(entry.player, action))

    def _over(self, game: ChouetteGame) -> None:
        assert game.settlement is not None
        self._announce(ChouetteGameOver(game.number + 1, game.settlement, self.chouette.seating))

    def _announce(self, event: Event) -> None:
        self._events.append(event)
        for listener in self._listeners:
            listener(event)
