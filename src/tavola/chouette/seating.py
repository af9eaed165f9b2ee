"""Who sits where at a chouette: the box, the captain and the queue (H1, H2, H3, H5).

:class:`Seating` is an immutable value; joining, leaving and the rotation
after a game each give a new one.

>>> from tavola.dicesource import ManualDice
>>> dice = ManualDice()
>>> for die in (4, 6, 4, 2, 5, 3):  # Ann 4, Ben 6, Cid 4, Dee 2; Ann and Cid tie: 5 and 3
...     dice.enter_die(die)
>>> seating, rounds = draw_order(["Ann", "Ben", "Cid", "Dee"], dice)
>>> seating
Seating(box='Ben', queue=('Ann', 'Cid', 'Dee'))
>>> seating.captain, rounds[1]
('Ann', (('Ann', 5), ('Cid', 3)))
>>> seating.after_game(["Ann"], beaten_by=None)  # the box won: the captain to the end (H2)
Seating(box='Ben', queue=('Cid', 'Dee', 'Ann'))
>>> seating.after_game(["Ann"], beaten_by="Ann")  # the captain won: the box to the end (H2)
Seating(box='Ann', queue=('Cid', 'Dee', 'Ben'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.dicesource import DiceSource
from tavola.errors import SeatingError
from tavola.i18n import _

__all__ = ["Seating", "draw_at_random", "draw_order"]

Round = tuple[tuple[str, int], ...]
"""One round of the draw for the order: who rolled what."""


@dataclass(frozen=True)
class Seating:
    """The box and the queue of the team, the captain first.

    The team of a game is the queue at its start (less the box's partner,
    if there is one, H9).
    """

    box: str
    queue: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = (self.box, *self.queue)
        if len(set(names)) != len(names):
            raise SeatingError(
                _("a player sits only once at the table: {players}").format(players=list(names))
            )

    @property
    def captain(self) -> str | None:
        """The captain: first in the queue (H1)."""
        return self.queue[0] if self.queue else None

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone at the table in order: the box, the captain, the rest of the queue."""
        return (self.box, *self.queue)

    def joined(self, name: str) -> Seating:
        """A new player waits at the end of the queue (H3)."""
        return Seating(self.box, (*self.queue, name))

    def left(self, name: str) -> Seating | None:
        """The table without ``name``; if the box leaves, the captain takes the box (``None``: none left)."""
        if name == self.box:
            return Seating(self.queue[0], self.queue[1:]) if self.queue else None
        return Seating(self.box, tuple(player for player in self.queue if player != name))

    def after_game(self, captains: Sequence[str], beaten_by: str | None) -> Seating:
        """The rotation after a game (H2, H5, H8).

        ``captains`` are the game's captains in order: the captain it started
        with, then whoever took over when a captain left the game (H5).
        ``beaten_by`` is the first of them who beat the box, or ``None``.

        If nobody beat the box, the box stays and the starting captain goes
        to the end of the queue; a stand-in captain keeps their place. If a
        captain beat the box, that captain becomes the box, and the captains
        before them (who lost), then the old box, go to the end of the queue.
        Everyone else, the box's partner included (H9), keeps their place.
        """
        if not captains:
            raise SeatingError(_("a game is played by a captain: none was given"))
        if beaten_by is None:
            first = captains[0]
            return Seating(self.box, (*(player for player in self.queue if player != first), first))
        if beaten_by not in captains:
            raise SeatingError(
                _("{player} was not a captain in that game: {captains}").format(
                    player=beaten_by, captains=list(captains)
                )
            )
        losers = tuple(captains[: list(captains).index(beaten_by)])
        staying = tuple(player for player in self.queue if player != beaten_by and player not in losers)
        return Seating(beaten_by, (*staying, *losers, self.box))


def draw_order(players: Sequence[str], dice: DiceSource) -> tuple[Seating, tuple[Round, ...]]:
    """The starting order by die rolls (H1): the highest is the box, the next the captain, and so on.

    Each player rolls one die, in the order given; players who tie roll
    again among themselves to settle their order (the higher group first).
    Returns the seating and every round rolled.
    """
    if len(players) < 1:
        raise SeatingError(_("nobody is at the table to draw the order"))
    rounds: list[Round] = []

    def ranked(group: Sequence[str]) -> list[str]:
        rolled = tuple((player, dice.roll_die()) for player in group)
        rounds.append(rolled)
        order: list[str] = []
        for value in sorted({die for _player, die in rolled}, reverse=True):
            tied = [player for player, die in rolled if die == value]
            order += tied if len(tied) == 1 else ranked(tied)
        return order

    order = ranked(list(players))
    return Seating(order[0], tuple(order[1:])), tuple(rounds)


def draw_at_random(candidates: Sequence[str], dice: DiceSource) -> tuple[str, tuple[int, ...]]:
    """One of ``candidates`` at random, drawn with dice so that every roll can be replayed (H9).

    Up to six candidates: one die, rolled again while it is above their
    number. Up to 36: two dice read as a number 0-35, rolled again when it
    falls in the uneven remainder. Returns the one drawn and the dice rolled.

    >>> from tavola.dicesource import ManualDice
    >>> dice = ManualDice()
    >>> for die in (6, 2):
    ...     dice.enter_die(die)
    >>> draw_at_random(["Ann", "Ben", "Cid"], dice)
    ('Ben', (6, 2))
    """
    count = len(candidates)
    if not 1 <= count <= 36:
        raise SeatingError(_("a draw is among 1 to 36 players, not {count}").format(count=count))
    rolled: list[int] = []
    while True:
        if count <= 6:
            die = dice.roll_die()
            rolled.append(die)
            if die <= count:
                return candidates[die - 1], tuple(rolled)
            continue
        first, second = dice.roll_die(), dice.roll_die()
        rolled += [first, second]
        number = (first - 1) * 6 + (second - 1)
        if number < 36 - 36 % count:
            return candidates[number % count], tuple(rolled)
