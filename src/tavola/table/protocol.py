"""What every table is to a view: :class:`Table`, the one interface of a two-player table and a chouette.

A view (the terminal, the server) plays any table the same way: it reads
the seats (numbered from 0, each with the name of who sits there), asks who
may act (:attr:`Table.to_act`) and what (:meth:`Table.legal_actions`),
passes a person's action in (:meth:`Table.act`), lets the table make what
needs nobody (:meth:`Table.advance`), starts the next game when the players
say so, and renders the events the table announces. What differs is the
actions themselves: a two-player game's (:data:`tavola.actions.Action`) or a
chouette player's (:data:`tavola.chouette.actions.ChouetteAction`), the
type parameter of :class:`Table`.

>>> from tavola.chouette import Chouette
>>> from tavola.match import MoneySession
>>> from tavola.table import ChouetteTable, GameTable, Seat
>>> tables: list[Table[Any]] = [
...     GameTable(MoneySession(), (Seat("Ann"), Seat("Bo"))),
...     ChouetteTable(Chouette(players=["Ann", "Bo", "Cy"])),
... ]
>>> [[seat.name for seat in table.seats] for table in tables]
[['Ann', 'Bo'], ['Ann', 'Bo', 'Cy']]
>>> [(table.in_game, table.is_over) for table in tables]
[(True, False), (False, False)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from tavola.errors import TavolaError
from tavola.table.events import Event
from tavola.table.seats import Seat

if TYPE_CHECKING:
    from tavola.bot.advice import Question

__all__ = ["ActionHook", "Listener", "Table"]

A = TypeVar("A")

Listener = Callable[[Event], None]
"""Told every event a table announces."""

ActionHook = Callable[[int, A], None]
"""Called with the seat and the action as given after every action a table does (a person's, a bot's or
a forced one): replaying them in order through :meth:`Table.act` on a table with the same dice gives
the same play."""


class Table(Protocol[A]):
    """A table of seats playing games of backgammon, whose actions are of type ``A``."""

    @property
    def seats(self) -> Sequence[Seat]:
        """Who sits in each seat, by number: a person, or the bot at its level."""
        ...

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything announced so far, in order."""
        ...

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (at a chouette, several may); none between games."""
        ...

    @property
    def in_game(self) -> bool:
        """Whether a game is being played: none before the first, and none once the last is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the play is over for good: a match won. A money session and a chouette go on while
        their players want."""
        ...

    @property
    def next_game_due(self) -> bool:
        """Whether a game is over and the next must start whatever the players say (a match)."""
        ...

    def legal_actions(self, seat: int) -> list[A]:
        """What ``seat`` may do now (nothing when it is not its turn)."""
        ...

    def act(self, seat: int, action: A) -> None:
        """Do ``action`` for the person in ``seat``, or refuse it with a
        :class:`~tavola.errors.TavolaError`, the game untouched."""
        ...

    def advance(self) -> None:
        """Make every action that needs no person's decision (the bots', forced rolls and plays), until
        a person must act or the game ends."""
        ...

    def start_game(self) -> object:
        """Start the next game (the one before must be over); the game started."""
        ...

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats playing on ``seat``'s side of a game in play where a side is a team of players (a
        chouette's box and its partner, or its team), ``seat`` among them; none at a two-player table."""
        ...

    def refusal(self, error: TavolaError) -> str:
        """What a refused action's ``error`` says, naming the sides it speaks of by who plays them."""
        ...

    def question(self, seat: int) -> Question:
        """What ``seat`` may ask the bot now (:meth:`tavola.bot.player.Bot.advise` answers it), or a
        :class:`~tavola.bot.advice.NoAdviceError` saying why it has nothing to decide."""
        ...

    def listen(self, listener: Listener) -> None:
        """Hand every event from now on to ``listener``."""
        ...

    def record(self) -> dict[str, Any]:
        """Tavola's JSON record of the play so far (:mod:`tavola.records.jsonfmt`,
        :mod:`tavola.chouette.record`)."""
        ...
