"""A chouette table: players joining and leaving, the order, the games one after another, the ledger.

:class:`Chouette` seats the players (H3), draws the order (H1), starts each
game with the seating of the moment, rotates the seats after it (H2, H5,
H8) and keeps the ledger (H10). It logs everything, so that a session can
be saved and replayed through the rules (:mod:`tavola.chouette.record`).

>>> from tavola.dicesource import RandomDice
>>> table = Chouette(dice=RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
>>> table.draw_order()  # one die each; ties would roll again (H1)
((('Ann', 5), ('Ben', 3), ('Cid', 6)),)
>>> table.seating
Seating(box='Cid', queue=('Ann', 'Ben'))
>>> table.join("Dee")  # at the end of the queue (H3)
>>> game = table.start_game()
>>> game.team, table.can_start()
(('Ann', 'Ben', 'Dee'), False)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from tavola.chouette.actions import DrawOrder, Join, Leave, LogEntry, StartGame
from tavola.chouette.bets import Side
from tavola.chouette.game import ChouetteGame
from tavola.chouette.ledger import GameSettlement, Ledger
from tavola.chouette.seating import Round, Seating, draw_order
from tavola.chouette.settings import MAX_PLAYERS, MIN_PLAYERS, ChouetteSettings
from tavola.dicesource import DiceSource, default_dice
from tavola.errors import IllegalActionError, SeatingError
from tavola.hooks import weak_hook
from tavola.i18n import _
from tavola.position import Position

__all__ = ["Chouette"]


class Chouette:
    """A chouette session of 3 to 8 players.

    ``settings`` are the table's rules; ``dice`` is where every roll comes
    from (the order, the partner's draw, the games), OS entropy by default;
    ``players`` join at once, in order.

    Whoever follows the session listens with two hooks: :attr:`record` gets
    every entry of the log as it is made (the games' included), and
    :attr:`on_game_over` each game once it is settled and the seats rotated.
    """

    def __init__(
        self,
        settings: ChouetteSettings | None = None,
        dice: DiceSource | None = None,
        *,
        players: Iterable[str] = (),
    ) -> None:
        self.settings = settings or ChouetteSettings()
        self.dice = dice or default_dice()
        self._waiting: list[str] = []  # players who joined before the order was drawn
        self._seating: Seating | None = None
        self._games: list[ChouetteGame] = []
        self._settlements: list[GameSettlement] = []
        self._log: list[LogEntry] = []
        self.record: Callable[[LogEntry], None] | None = None
        """Called with every entry of the log as it is made."""
        self.on_game_over: Callable[[ChouetteGame], None] | None = None
        """Called with each game once it is settled and the seats rotated."""
        for name in players:
            self.join(name)

    def __getstate__(self) -> dict[str, object]:
        """A copy or a pickle of a chouette has its state, not its listeners: they follow this one only."""
        state = self.__dict__.copy()
        state["record"] = state["on_game_over"] = None
        return state

    # --- the table -------------------------------------------------------------------------

    @property
    def seating(self) -> Seating | None:
        """The box and the queue, once the order is drawn."""
        return self._seating

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone at the table: the box, then the queue (before the draw, in the order they joined)."""
        return self._seating.players if self._seating else tuple(self._waiting)

    @property
    def box(self) -> str | None:
        return self._seating.box if self._seating else None

    @property
    def captain(self) -> str | None:
        """The captain of the next game (the one in progress has its own, :attr:`ChouetteGame.captain`)."""
        return self._seating.captain if self._seating else None

    @property
    def games(self) -> tuple[ChouetteGame, ...]:
        return tuple(self._games)

    @property
    def game(self) -> ChouetteGame | None:
        """The game in progress, or the last one played."""
        return self._games[-1] if self._games else None

    @property
    def game_in_progress(self) -> ChouetteGame | None:
        game = self.game
        return game if game is not None and not game.is_over else None

    @property
    def ledger(self) -> Ledger:
        """What every player won or paid, game by game, and the totals (H10)."""
        return Ledger(self._settlements, self.settings.stake)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Everything that happened at the table, the games' actions included, in order."""
        return tuple(self._log)

    def can_start(self) -> bool:
        """Whether :meth:`start_game` may be called now."""
        return self.game_in_progress is None and len(self.players) >= MIN_PLAYERS

    # --- joining and leaving (H3) ------------------------------------------------------------

    def join(self, name: str) -> None:
        """Sit down at the end of the queue (H3); during a game only if the settings allow it."""
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise SeatingError(
                _("a player's name is text without spaces around it, not {name}").format(name=repr(name))
            )
        if name in self.players:
            raise SeatingError(_("{player} is at the table already").format(player=name))
        if len(self.players) >= MAX_PLAYERS:
            raise SeatingError(
                _("the table is full: a chouette has at most {most} players").format(most=MAX_PLAYERS)
            )
        game = self.game_in_progress
        if game is not None and not self.settings.join_during_game:
            raise SeatingError(
                _("{player} may join when game {number} is over: this table seats between games").format(
                    player=name, number=game.number
                )
            )
        self._record(LogEntry(name, Join()))
        if self._seating is None:
            self._waiting.append(name)
        else:
            self._seating = self._seating.joined(name)

    def leave(self, name: str) -> None:
        """Leave the table between games (H3); a player not in the game in progress may leave at any time.

        When the box leaves, the captain takes the box.
        """
        if name not in self.players:
            raise SeatingError(_("{player} is not at the table").format(player=name))
        game = self.game_in_progress
        if game is not None and name in game.players:
            raise SeatingError(
                _("{player} plays game {number}: leave when it is over (H3)").format(
                    player=name, number=game.number
                )
            )
        self._record(LogEntry(name, Leave()))
        if self._seating is None:
            self._waiting.remove(name)
        else:
            self._seating = self._seating.left(name)

    # --- the order and the games -------------------------------------------------------------

    def draw_order(self) -> tuple[Round, ...]:
        """Every player rolls a die; ties roll again (H1). Returns the rounds rolled."""
        if self._seating is not None:
            raise SeatingError(_("the order is drawn already: {seating}").format(seating=self._seating))
        if len(self._waiting) < MIN_PLAYERS:
            raise SeatingError(
                _("a chouette needs {least} players or more, not {count}").format(
                    least=MIN_PLAYERS, count=len(self._waiting)
                )
            )
        seating, rounds = draw_order(self._waiting, self.dice)
        self._seating, self._waiting = seating, []
        self._record(LogEntry(None, DrawOrder(rounds)))
        return rounds

    def start_game(
        self, *, position: Position | None = None, side_on_roll: Side | None = None
    ) -> ChouetteGame:
        """Start the next game, drawing the order first if it is not drawn yet.

        ``position`` and ``side_on_roll`` set up a position instead of the
        opening roll (the box's side is 0, the team's 1).
        """
        game = self.game_in_progress
        if game is not None:
            raise IllegalActionError(
                _("game {number} is not over: finish it first").format(number=game.number)
            )
        if len(self.players) < MIN_PLAYERS:
            raise SeatingError(
                _("a chouette needs {least} players or more, not {count}").format(
                    least=MIN_PLAYERS, count=len(self.players)
                )
            )
        if (position is None) != (side_on_roll is None):
            raise IllegalActionError(_("a set-up game needs both the position and the side on roll"))
        if self._seating is None:
            self.draw_order()
        assert self._seating is not None
        side = None if side_on_roll is None else Side(side_on_roll)
        game = ChouetteGame(
            self.settings,
            self._seating,
            self.dice,
            number=len(self._games),
            record=weak_hook(self._record),
            on_over=weak_hook(self._game_over),
            position=position,
            side_on_roll=side,
        )
        start = (
            StartGame() if position is None or side is None else StartGame(position.tavola_id(), int(side))
        )
        self._games.append(game)
        self._record(LogEntry(None, start))
        return game

    def _game_over(self, game: ChouetteGame) -> None:
        settlement = game.settlement
        assert settlement is not None
        assert self._seating is not None
        Ledger([*self._settlements, settlement])  # refuses a game that does not sum to zero
        self._settlements.append(settlement)
        self._seating = self._seating.after_game(game.captains, game.beaten_by)
        if self.on_game_over is not None:
            self.on_game_over(game)

    def _record(self, entry: LogEntry) -> None:
        self._log.append(entry)
        if self.record is not None:
            self.record(entry)

    # --- saving ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole session as plain JSON data (see :mod:`tavola.chouette.record`)."""
        from tavola.chouette.record import to_json

        return to_json(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the session to ``path`` as JSON, atomically."""
        from tavola.chouette.record import save

        save(self, path)

    @classmethod
    def from_json(cls, data: object, *, dice: DiceSource | None = None) -> Chouette:
        """The session JSON data holds, replayed through the rules; later rolls come from ``dice``."""
        from tavola.chouette.record import from_json

        return from_json(data, dice=dice)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Chouette:
        """Read a session saved with :meth:`save`; later rolls come from ``dice``."""
        from tavola.chouette.record import load

        return load(path, dice=dice)

    def __repr__(self) -> str:
        seating = self._seating or f"waiting {self._waiting}"
        return f"<Chouette {len(self._games)} games, {seating}>"
