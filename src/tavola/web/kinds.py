"""The two kinds of table the server plays: what it does differently at a two-player table and a chouette.

The server plays every table of the engine through one interface
(:class:`~tavola.table.Table`). What depends on the kind is here, in a
:class:`ServedTable` made by :func:`serve` from a table's options: reading
an action's JSON against the turn in progress and writing one
(:mod:`tavola.web.actions`), and the game as the page draws it, the board
from seat 0's side at a two-player table and from the box's at a chouette
(positive numbers that side's checkers, negative the other's).

>>> from tavola.table import Seat
>>> from tavola.web.options import read_options
>>> options = read_options({"kind": "game", "series": "single", "seats": [{}, {}]})
>>> served = serve(options, [Seat("Ann"), Seat("Bo")], None, {}, lambda seat, data: None)
>>> served.one_game, served.read({"action": "roll"}), served.game_json()["phase"]
(True, Roll(), 'opening')
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from tavola.actions import Action, Played
from tavola.bot.player import Bot
from tavola.chouette.actions import ChouetteAction
from tavola.chouette.bets import Side
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.dicesource import DiceSource
from tavola.ids import position_text
from tavola.match import Match, match_id_text
from tavola.position import Position
from tavola.records.jsonfmt import outcome_json
from tavola.table import ChouetteTable, GameTable, Seat, Table
from tavola.turn import Turn
from tavola.web.actions import (
    TableAction,
    action_json,
    chouette_action_json,
    played_json,
    read_chouette_action,
    read_game_action,
)
from tavola.web.options import ChouetteOptions, GameOptions, build_chouette, build_series

__all__ = ["ServedTable", "Stored", "position_json", "serve"]

A = TypeVar("A")

Stored = Callable[[int, dict[str, Any]], None]
"""Told every action a table does, with its seat, as JSON."""


class ServedTable(ABC, Generic[A]):
    """A table of the engine as the server plays it, whose actions are of type ``A``."""

    one_game = False
    """Whether the table plays a single game, and is finished when it is over."""

    @property
    @abstractmethod
    def table(self) -> Table[A]:
        """The engine's table."""

    @abstractmethod
    def read(self, data: object) -> A | TableAction:
        """The action ``data`` stands for, a play read against the turn in progress."""

    @abstractmethod
    def write(self, action: A) -> dict[str, Any]:
        """``action`` as JSON."""

    def legal_json(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now (the engine's :meth:`~tavola.table.Table.legal_actions`), as JSON."""
        return [self.write(action) for action in self.table.legal_actions(seat)]

    @abstractmethod
    def game_json(self) -> dict[str, Any]:
        """The game as it stands, as the page draws it."""


def serve(
    options: GameOptions | ChouetteOptions,
    seats: Sequence[Seat],
    dice: DiceSource | None,
    bots: Mapping[int, Bot],
    stored: Stored,
) -> ServedTable[Any]:
    """The table ``options`` ask for, ``seats`` sitting down (``bots`` playing for the seats they
    number), its first game started; ``stored`` is told every action it does."""
    names = [seat.name for seat in seats]
    if isinstance(options, GameOptions):
        return _ServedGame(
            GameTable(
                build_series(options, (names[0], names[1]), dice),
                (seats[0], seats[1]),
                bots=bots,
                on_action=lambda seat, action: stored(seat, action_json(action)),
            ),
            one_game=options.series == "single",
        )
    chouette = ChouetteTable(
        build_chouette(options, names, dice),
        bots={names[index]: bot for index, bot in bots.items()},
        on_action=lambda seat, action: stored(seat, chouette_action_json(action)),
    )
    chouette.start_game()
    return _ServedChouette(chouette)


class _ServedGame(ServedTable[Action]):
    def __init__(self, table: GameTable, *, one_game: bool) -> None:
        self._table = table
        self.one_game = one_game

    @property
    def table(self) -> GameTable:
        return self._table

    def read(self, data: object) -> Action | TableAction:
        game = self._table.game
        return read_game_action(data, game.turn)

    def write(self, action: Action) -> dict[str, Any]:
        return action_json(action)

    def legal_json(self, seat: int) -> list[dict[str, Any]]:
        """The whole plays listed by their notation, without making each play: a roll has dozens."""
        plays, others = self._table.legal_actions_split(seat)
        listed = [played_json(notation) for notation in plays.notations()] if plays is not None else []
        return listed + [action_json(action) for action in others]

    def game_json(self) -> dict[str, Any]:
        return _game_json(self._table)


class _ServedChouette(ServedTable[ChouetteAction]):
    def __init__(self, table: ChouetteTable) -> None:
        self._table = table

    @property
    def table(self) -> ChouetteTable:
        return self._table

    def read(self, data: object) -> ChouetteAction | TableAction:
        chouette = self._table.chouette
        turn = chouette.game.turn if chouette.game is not None else None
        return read_chouette_action(data, turn)

    def write(self, action: ChouetteAction) -> dict[str, Any]:
        return chouette_action_json(action)

    def game_json(self) -> dict[str, Any]:
        return _chouette_json(self._table)


# --- the game as the page draws it --------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def position_json(position: Position) -> dict[str, Any]:
    """A board as a page draws it, from the side of the player it is seen by (``position``'s mover).

    Made once for a board met again (the roll, the cube and the answers leave it as it was), and shared:
    read it, never change it.

    >>> position_json(Position.start())["points"][:6]
    [-2, 0, 0, 0, 0, 5]
    """
    return {
        "points": list(position.board),
        "bar": list(position.bar),
        "off": list(position.off),
        "waiting": list(position.waiting),  # Acey-Deucey's checkers still to enter (V2)
        "pips": list(position.pip_counts()),
        "position_id": position_text(position),  # a Tavola ID where checkers wait to enter (V2)
    }


def _dice(dice: Dice | None) -> list[int] | None:
    return None if dice is None else [dice.high, dice.low]


def _cube(cube: Cube) -> dict[str, Any]:
    return {"value": cube.value, "owner": cube.owner}


def _moves(turn: Turn | None) -> list[str]:
    return [str(move) for move in turn.moves] if turn is not None else []


def _game_json(table: GameTable) -> dict[str, Any]:
    game = table.game
    series = table.series
    offer = game.offer
    resignation = game.resignation
    score: dict[str, Any]
    if isinstance(series, Match):
        score = {"length": series.length, "points": list(series.score), "crawford": game.crawford}
    else:
        settlement = series.score
        score = {"stake": series.stake, "points": list(settlement.points), "money": list(settlement.money)}
    return {
        "number": len(series.games),
        "phase": game.phase.value,
        "player_on_roll": game.player_on_roll,
        "player_to_act": game.player_to_act,
        "position": position_json(game.position_for(0)),
        "dice": _dice(game.dice),
        "moves": _moves(game.turn),
        "cube": _cube(game.cube),
        "offer": None if offer is None else {"value": offer[0], "answering": offer[1]},
        "resignation": (
            None if resignation is None else {"seat": resignation[0], "kind": resignation[1].name.lower()}
        ),
        "outcome": outcome_json(game.outcome),
        "score": score,
        "series_over": series.is_over,
        "match_id": match_id_text(series),
        "last_play": _last_play(game.log, lambda seat: table.seats[seat].name),
    }


def _chouette_json(table: ChouetteTable) -> dict[str, Any]:
    chouette = table.chouette
    seating = chouette.seating
    in_progress = chouette.game_in_progress
    data: dict[str, Any] = {
        "seating": None if seating is None else {"box": seating.box, "queue": list(seating.queue)},
        "totals": chouette.ledger.totals,
        "to_act": list(in_progress.to_act) if in_progress is not None else [],
    }
    game = chouette.game
    if game is None:
        return data
    data.update(
        number=game.number + 1,
        phase=game.phase.value,
        box=game.box,
        captain=game.captain,
        team=list(game.team),
        partner=game.partner,
        side_on_roll=int(game.side_on_roll),
        roller=game.roller,
        position=position_json(game.position_for(Side.BOX)),
        dice=_dice(game.dice),
        moves=_moves(game.turn),
        bets=[
            {
                "box_side": bet.box_side,
                "team_side": bet.team_side,
                "cube": _cube(bet.cube),
                "live": bet.is_live,
            }
            for bet in game.bets
        ],
        is_over=game.is_over,
        last_play=_last_play(game.log, lambda player: player),
    )
    return data


def _last_play(log: Sequence[Any], name: Callable[[Any], str | None]) -> dict[str, Any] | None:
    """The last play of a game's log (entries with ``player`` and ``action``), read from its end: who
    played it (``name`` of the entry's player), the dice, the play.

    >>> from tavola.actions import Entry, Played
    >>> from tavola.position import Position
    >>> play = Position.start().parse_play(Dice(3, 1), "8/5 6/5")
    >>> _last_play([Entry(0, Played(play))], {0: "Ann"}.get)
    {'name': 'Ann', 'dice': [3, 1], 'play': '8/5 6/5'}
    """
    for entry in reversed(log):
        if isinstance(entry.action, Played):
            play = entry.action.play
            return {
                "name": name(entry.player),
                "dice": [play.dice.high, play.dice.low],
                "play": play.notation,
            }
    return None
