"""Actions as JSON: what a browser sends, what the server lists as legal and what it stores.

An action is an object named by its ``action`` field, as Tavola's records
name the entries of a log (:mod:`tavola.records.jsonfmt`,
:mod:`tavola.chouette.record`), with what a turn in progress adds:
``{"action": "move", "moves": "24/18"}``, ``{"action": "undo"}`` and
``{"action": "commit"}``. At a chouette the cube actions name the opponents
they are about (``{"action": "double", "against": ["Ben"]}``). Between games
the table itself takes ``start_game`` and ``end_session``
(:data:`TABLE_ACTIONS`).

Reading checks the shape only; whether an action is legal is for the table
to say when it is done. A play is read against the turn in progress.

>>> from tavola.actions import Resign
>>> from tavola.position import WinKind
>>> action_json(Resign(WinKind.GAMMON))
{'action': 'resign', 'kind': 'gammon'}
>>> read_game_action({"action": "resign", "kind": "gammon"}, None)
Resign(WinKind.GAMMON)
>>> read_game_action({"action": "fly"}, None)
Traceback (most recent call last):
...
tavola.web.actions.ActionError: action: one of roll, double, take, drop, beaver, resign, accept, \
decline, choose_double, play, move, undo, commit, start_game, end_session, not 'fly'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeGuard

from pydantic import Field

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Commit,
    DeclineResignation,
    Double,
    Drop,
    MoveCheckers,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.chouette import actions as chouette
from tavola.chouette.actions import ChouetteAction
from tavola.errors import TavolaError
from tavola.play import Move
from tavola.position import WinKind
from tavola.schema import Says, Shape, read_shape
from tavola.turn import Turn

__all__ = [
    "TABLE_ACTIONS",
    "ActionError",
    "TableAction",
    "action_json",
    "chouette_action_json",
    "is_table_action",
    "played_json",
    "read_chouette_action",
    "read_game_action",
]

TableAction = Literal["start_game", "end_session"]

TABLE_ACTIONS: tuple[TableAction, ...] = ("start_game", "end_session")
"""What a seat asks of the table between games of a money session or a chouette: the next game, or the
end of the session (which reveals the dice's secret)."""


class ActionError(TavolaError):
    """An action whose JSON does not have the shape of one: it names the field at fault."""


_PLAIN_GAME: dict[str, Action] = {
    "roll": Roll(),
    "double": Double(),
    "take": Take(),
    "drop": Drop(),
    "beaver": Beaver(),
    "accept": AcceptResignation(),
    "decline": DeclineResignation(),
    "undo": Undo(),
    "commit": Commit(),
}
_PLAIN_CHOUETTE: dict[str, ChouetteAction] = {
    "roll": Roll(),
    "undo": Undo(),
    "commit": Commit(),
    "accept_partnership": chouette.AcceptPartnership(),
    "decline_partnership": chouette.DeclinePartnership(),
    "give_extra": chouette.GiveExtra(),
    "decline_extra": chouette.DeclineExtra(),
}
_AGAINST: dict[str, type[chouette.Double | chouette.Take | chouette.Drop | chouette.Beaver]] = {
    "double": chouette.Double,
    "take": chouette.Take,
    "drop": chouette.Drop,
    "beaver": chouette.Beaver,
}
_GAME_NAMES = (
    "roll, double, take, drop, beaver, resign, accept, decline, choose_double, play, move, undo, commit, "
    + ", ".join(TABLE_ACTIONS)
)
_CHOUETTE_NAMES = (
    "roll, double, take, drop, beaver, play, move, undo, commit, accept_partnership, decline_partnership, "
    "give_extra, decline_extra, suggest, " + ", ".join(TABLE_ACTIONS)
)


def is_table_action(action: object) -> TypeGuard[TableAction]:
    """Whether ``action``, as read, is one the table itself takes (:data:`TABLE_ACTIONS`).

    >>> is_table_action(read_game_action({"action": "start_game"}, None)), is_table_action(Roll())
    (True, False)
    """
    return isinstance(action, str) and action in TABLE_ACTIONS


# --- writing ----------------------------------------------------------------------------------


def played_json(notation: str) -> dict[str, Any]:
    """A whole play, by its notation, as JSON data.

    >>> played_json("8/5 6/5")
    {'action': 'play', 'play': '8/5 6/5'}
    """
    return {"action": "play", "play": notation}


def action_json(action: Action | TableAction) -> dict[str, Any]:
    """A two-player action (or a table's) as JSON data."""
    match action:  # the plays and moves first: a turn lists many
        case str():
            return {"action": action}
        case Played(play):
            return played_json(play.notation)
        case MoveCheckers(moves):
            return {"action": "move", "moves": _moves_text(moves)}
        case Resign(kind):
            return {"action": "resign", "kind": kind.name.lower()}
        case ChooseDouble(number):
            return {"action": "choose_double", "number": number}
    for name, plain in _PLAIN_GAME.items():
        if action == plain:
            return {"action": name}
    raise TypeError(f"not an action of a two-player game: {action!r}")


def chouette_action_json(action: ChouetteAction | TableAction) -> dict[str, Any]:
    """A chouette player's action (or a table's) as JSON data."""
    match action:  # the plays and moves first: a turn lists many
        case str():
            return {"action": action}
        case Played(play):
            return played_json(play.notation)
        case MoveCheckers(moves):
            return {"action": "move", "moves": _moves_text(moves)}
        case (
            chouette.Double(against)
            | chouette.Take(against)
            | chouette.Drop(against)
            | chouette.Beaver(against)
        ):
            return {"action": type(action).__name__.lower(), "against": list(against)}
        case chouette.Suggest(play):
            return {"action": "suggest", "play": play if isinstance(play, str) else play.notation}
    for name, plain in _PLAIN_CHOUETTE.items():
        if action == plain:
            return {"action": name}
    raise TypeError(f"not an action of a chouette player: {action!r}")


def _moves_text(moves: str | tuple[Move, ...]) -> str:
    return moves if isinstance(moves, str) else " ".join(str(move) for move in moves)


# --- reading ----------------------------------------------------------------------------------


class _Plain(Shape):
    action: Literal["roll", "double", "take", "drop", "beaver", "accept", "decline", "undo", "commit"]


class _Table(Shape):
    action: TableAction


class _Resign(Shape):
    action: Literal["resign"]
    kind: Literal["single", "gammon", "backgammon"] = "single"


class _ChooseDouble(Shape):
    action: Literal["choose_double"]
    number: int


class _Play(Shape):
    action: Literal["play", "suggest"]
    play: Annotated[str, Field(max_length=200)]


class _Move(Shape):
    action: Literal["move"]
    moves: Annotated[str, Field(max_length=200)]


class _ChouettePlain(Shape):
    action: Literal[
        "roll", "undo", "commit", "accept_partnership", "decline_partnership", "give_extra", "decline_extra"
    ]


class _Against(Shape):
    action: Literal["double", "take", "drop", "beaver"]
    against: Annotated[list[str], Field(max_length=8, default_factory=list)]


_GameShape = Annotated[
    _Plain | _Table | _Resign | _ChooseDouble | _Play | _Move,
    Field(discriminator="action"),
    Says("action: one of " + _GAME_NAMES + ", not {value}"),
]
_ChouetteShape = Annotated[
    _ChouettePlain | _Table | _Against | _Play | _Move,
    Field(discriminator="action"),
    Says("action: one of " + _CHOUETTE_NAMES + ", not {value}"),
]


def read_game_action(data: object, turn: Turn | None) -> Action | TableAction:
    """The two-player action ``data`` stands for; a play is read against ``turn`` (the turn in progress).

    A play typed with no turn in progress is passed on as checkers to move,
    for the game to refuse it saying why.
    """
    shape = read_shape(_GameShape, data, ActionError, "the action")
    match shape:
        case _Plain(action=name):
            return _PLAIN_GAME[name]
        case _Table(action=name):
            return name
        case _Resign(kind=kind):
            return Resign(WinKind[kind.upper()])
        case _ChooseDouble(number=number):
            return ChooseDouble(number)
        case _Play(action="play", play=text):
            if turn is None:
                return MoveCheckers(text)
            return Played(turn.parse_play(text))
        case _Move(moves=text):
            return MoveCheckers(text)
    raise ActionError(f"action: not an action of a two-player game: {data!r:.80}")


def read_chouette_action(data: object, turn: Turn | None) -> ChouetteAction | TableAction:
    """The chouette player's action ``data`` stands for; a play is read against ``turn``."""
    shape = read_shape(_ChouetteShape, data, ActionError, "the action")
    match shape:
        case _ChouettePlain(action=name):
            return _PLAIN_CHOUETTE[name]
        case _Table(action=name):
            return name
        case _Against(action=name, against=against):
            return _AGAINST[name](tuple(against))
        case _Play(action="suggest", play=text):
            return chouette.Suggest(text)
        case _Play(play=text):
            if turn is None:
                return MoveCheckers(text)
            return Played(turn.parse_play(text))
        case _Move(moves=text):
            return MoveCheckers(text)
    raise ActionError(f"action: not an action of a chouette player: {data!r:.80}")
