"""A chouette table: the players, the bot in the seats it fills, whose turn it is, and events.

:class:`ChouetteTable` runs a :class:`~tavola.chouette.Chouette` for a view
as :class:`~tavola.table.GameTable` runs a two-player series: the view passes
each person's actions to :meth:`ChouetteTable.act`, calls
:meth:`ChouetteTable.advance` for the bots' actions and forced plays, and
renders the events. Several players may act at once (members answering a
double), so every action names its player.

>>> from tavola.chouette import Chouette
>>> from tavola.dicesource import RandomDice
>>> table = ChouetteTable(Chouette(dice=RandomDice(seed=5), players=["Ann", "Ben", "Cid"]))
>>> game = table.start_game()
>>> table.events[-1]
ChouetteGameStarted(number=1, box='Cid', team=('Ann', 'Ben'), captain='Ann')
>>> table.legal_actions("Ben")
[]
>>> table.act("Ann", Roll())
>>> table.events[-1]
ChouetteActed(player='Ann', action=OpeningRoll(dice=(3, 6)))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tavola.actions import MoveCheckers, Played, Roll, Undo
from tavola.bot.player import Bot
from tavola.chouette import Chouette, ChouetteGame, Phase
from tavola.chouette.actions import ChouetteAction, DrawOrder, LogEntry, StartGame
from tavola.errors import IllegalActionError, TavolaError
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
from tavola.table.game_table import Listener, forced_play

__all__ = ["ChouetteHook", "ChouetteTable"]


ChouetteHook = Callable[[str, ChouetteAction], None]
"""Called with the player and the action as given after every action :meth:`ChouetteTable.act` does
(a person's or a bot's): replaying them in order on a table with the same dice gives the same game."""


class ChouetteTable:
    """``chouette`` at a table; ``bots`` plays for the players it names; ``on_action`` is told every
    action done in a game; ``autosave`` is called after every action."""

    def __init__(
        self,
        chouette: Chouette,
        *,
        bots: Mapping[str, Bot] | None = None,
        autosave: Callable[[], None] | None = None,
        on_action: ChouetteHook | None = None,
    ) -> None:
        self.chouette = chouette
        self.bots = dict(bots or {})
        self.autosave = autosave
        self.on_action = on_action
        self._listeners: list[Listener] = []
        self._events: list[Event] = []
        self._forcing = False
        chouette.record, chouette.on_game_over = self._heard, self._over

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
    def to_act(self) -> tuple[str, ...]:
        """The players who may do something now."""
        game = self.game
        return game.to_act if game is not None else ()

    def legal_actions(self, player: str) -> list[ChouetteAction]:
        """What ``player`` may do now (suggestions aside, see :meth:`ChouetteGame.may_suggest`)."""
        game = self.game
        return [item.action for item in game.legal_actions(player)] if game is not None else []

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

    # --- acting -------------------------------------------------------------------------------

    def join(self, name: str) -> None:
        """``name`` sits down at the end of the queue (H3)."""
        self.chouette.join(name)
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

    def act(self, player: str, action: ChouetteAction) -> None:
        """Do ``action`` for ``player``, or refuse it with a :class:`~tavola.errors.TavolaError` naming
        what was wrong, the game untouched."""
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
            self.on_action(player, action)
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
                self.act(player, action)
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
