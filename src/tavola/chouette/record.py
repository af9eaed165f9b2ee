"""A chouette session saved as JSON and read back by replaying its log through the rules.

The record is one JSON object::

    {
      "format": "tavola-chouette", "version": 1,
      "settings": {"cubes": "multi", "last_taker_must_drop": false, "mandatory_extras": false,
                   "box_partner_from": null, "consultation": "free", "stake": 1,
                   "join_during_game": true, "variant": "standard",
                   "rules": {"cube": true, "jacoby": false, ...}},     # every field of Rules
      "log": [
        {"player": "Ann", "action": "join"},
        {"player": null, "action": "draw_order", "rounds": [[["Ann", 5], ["Ben", 2], ["Cid", 5]],
                                                             [["Ann", 1], ["Cid", 4]]]},
        {"player": null, "action": "start_game"},
        {"player": "Cid", "action": "opening_roll", "dice": [3, 5]},    # the box's die first
        {"player": "Ann", "action": "play", "play": "8/3 6/3"},
        {"player": "Ann", "action": "double", "against": ["Cid"]},
        {"player": "Cid", "action": "drop", "against": ["Ann"]},
        {"player": "Ben", "action": "new_captain"},
        ...],
      "seating": {"box": "Ann", "queue": ["Cid", "Ben"]},              # null before the draw
      "ledger": [{"game": 0, "points": {"Cid": 2, "Ann": -1, "Ben": -1}}, ...],
      "totals": {"Cid": 2, "Ann": -1, "Ben": -1},
      "dice": {"scheme": "tavola-dice-v1", "commitment": "66687a...", "used": 212,
               "secret": "9f3c..."}                               # verifiable dice only
    }

The log is the session's own :attr:`~tavola.chouette.session.Chouette.log`:
``join``, ``leave``, ``draw_order``, ``start_game`` (with ``position``, a
Tavola ID, and ``side_on_roll`` for a set-up game), ``opening_roll``,
``roll``, ``play``, ``double``, ``take``, ``drop``, ``beaver`` (each with
``against``), ``accept_partnership``, ``decline_partnership``,
``give_extra``, ``decline_extra`` and ``suggest`` (with its ``play``); and
what happens by itself: ``automatic_double`` (with its ``value``),
``automatic_beaver``, ``forced_drop``, ``new_captain`` and
``partner_drawn`` (with its ``dice``). Checker moves not yet committed are
not saved: a game saved in the middle of a turn goes on from the roll.
``dice`` is there when the dice were
:class:`~tavola.dicesource.VerifiableDice` (a table of ``tavola serve``),
with the secret once revealed: :mod:`tavola.records.verifiable` checks
them (:func:`dice_drawn` lists them), ``tavola verify`` from the command
line.

Reading replays each action through the session's API with the recorded
dice, checks that it logs exactly what the record says, then that the
seating, the ledger and the totals agree; anything else raises
:class:`~tavola.errors.RecordError` naming the field, e.g. ``log[14].play``.

>>> from tavola.chouette.session import Chouette
>>> from tavola.dicesource import RandomDice
>>> table = Chouette(dice=RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
>>> game = table.start_game()
>>> game.roll("Cid")
Dice(6, 3)
>>> game.play("Ann", "24/15")
>>> data = to_json(table)
>>> data["log"][-1], data["seating"]
({'player': 'Ann', 'action': 'play', 'play': '24/15'}, {'box': 'Cid', 'queue': ['Ann', 'Ben']})
>>> from_json(data).to_json() == data
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt, StrictStr

from tavola.actions import OpeningRoll, Played, Roll
from tavola.chouette.actions import (
    AcceptPartnership,
    AutomaticBeaver,
    AutomaticDouble,
    Beaver,
    DeclineExtra,
    DeclinePartnership,
    Double,
    DrawOrder,
    Drop,
    ForcedDrop,
    GiveExtra,
    Join,
    Leave,
    LogEntry,
    NewCaptain,
    PartnerDrawn,
    StartGame,
    Suggest,
    Take,
)
from tavola.chouette.bets import Side
from tavola.chouette.game import ChouetteGame
from tavola.chouette.session import Chouette
from tavola.chouette.settings import SettingsShape, settings_json, settings_of
from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.files import write_atomically
from tavola.i18n import N_, _
from tavola.position import Position
from tavola.records import RECORD, ReplayDice, TwoDice, check_format, read_json_file
from tavola.records.formats import CHOUETTE_FORMAT
from tavola.records.verifiable import Draw, dice_json
from tavola.schema import Says, Shape, read_shape

__all__ = ["VERSION", "dice_drawn", "from_json", "load", "replay", "save", "to_json"]

VERSION = 1

_NAMES: dict[type, str] = {
    Join: "join",
    Leave: "leave",
    DrawOrder: "draw_order",
    StartGame: "start_game",
    OpeningRoll: "opening_roll",
    Roll: "roll",
    Played: "play",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    AcceptPartnership: "accept_partnership",
    DeclinePartnership: "decline_partnership",
    GiveExtra: "give_extra",
    DeclineExtra: "decline_extra",
    Suggest: "suggest",
    AutomaticDouble: "automatic_double",
    AutomaticBeaver: "automatic_beaver",
    ForcedDrop: "forced_drop",
    NewCaptain: "new_captain",
    PartnerDrawn: "partner_drawn",
}
_AUTOMATIC = {"automatic_double", "automatic_beaver", "forced_drop", "new_captain", "partner_drawn"}


# --- writing -----------------------------------------------------------------------------------


def save(session: Chouette, path: str | os.PathLike[str]) -> None:
    """Write ``session`` as JSON, atomically: the whole new file or the old one untouched."""
    write_atomically(path, _dumps(to_json(session)))


def _dumps(data: dict[str, Any]) -> str:
    """The record as JSON text, one line per log entry."""
    lines = []
    for key, value in data.items():
        if key == "log" and value:
            entries = ",\n".join(f"  {json.dumps(entry)}" for entry in value)
            lines.append(f' "log": [\n{entries}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def to_json(session: Chouette) -> dict[str, Any]:
    """The record of a chouette session, as plain dicts and lists."""
    seating = session.seating
    ledger = session.ledger
    data = {
        "format": CHOUETTE_FORMAT,
        "version": VERSION,
        "settings": settings_json(session.settings),
        "log": [entry_json(entry) for entry in session.log],
        "seating": None if seating is None else {"box": seating.box, "queue": list(seating.queue)},
        "ledger": [{"game": game.number, "points": game.points} for game in ledger.games],
        "totals": ledger.totals,
    }
    verifiable = dice_json(session.dice)
    if verifiable is not None:
        data["dice"] = verifiable
    return data


def entry_json(entry: LogEntry) -> dict[str, Any]:
    """One log entry as JSON data."""
    action = entry.action
    data: dict[str, Any] = {"player": entry.player, "action": _NAMES[type(action)]}
    match action:
        case DrawOrder(rounds):
            data["rounds"] = [[[name, die] for name, die in round_] for round_ in rounds]
        case StartGame(position, side) if position is not None:
            data.update(position=position, side_on_roll=side)
        case OpeningRoll(dice):
            data["dice"] = list(dice)
        case Roll(dice) if dice is not None:
            data["dice"] = [dice.high, dice.low]
        case Played(play):
            data["play"] = play.notation
        case Suggest(play):
            data["play"] = play if isinstance(play, str) else play.notation
        case Double(against) | Take(against) | Drop(against) | Beaver(against):
            data["against"] = list(against)
        case AutomaticBeaver(against) | ForcedDrop(against):
            data["against"] = list(against)
        case AutomaticDouble(value):
            data["value"] = value
        case PartnerDrawn(dice):
            data["dice"] = list(dice)
    return data


# --- reading -----------------------------------------------------------------------------------


def load(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Chouette:
    """Read a saved session (see :func:`from_json`); errors name the file and the field."""
    data = read_json_file(path)
    try:
        return from_json(data, dice=dice)
    except RecordError as error:
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None


def from_json(data: object, *, dice: DiceSource | None = None) -> Chouette:
    """The session a record holds, replayed through the rules; later rolls come from ``dice``.

    Raises :class:`~tavola.errors.RecordError` naming the field at fault.
    """
    steps = replay(data, dice=dice)
    session, _logged = next(steps)
    for _step in steps:  # the session replays every step
        pass
    return session


def replay(
    data: object, *, dice: DiceSource | None = None
) -> Iterator[tuple[Chouette, tuple[LogEntry, ...]]]:
    """Replay a record through the rules step by step: the session first as it starts, then after each
    action with the entries that action logged (the action's own first, then what followed by itself).

    Between two steps the session stands as it stood before the next action,
    so whoever judges the actions reads what the player saw. The seating,
    ledger and totals are checked once the last step is replayed; every
    error is a :class:`~tavola.errors.RecordError` naming the field.

    >>> from tavola.dicesource import RandomDice
    >>> table = Chouette(dice=RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
    >>> table.start_game().roll("Cid")
    Dice(6, 3)
    >>> [[entry.player for entry in logged] for _session, logged in replay(to_json(table))]
    [[], ['Ann'], ['Ben'], ['Cid'], [None], [None], ['Cid']]
    """
    check_format(data, CHOUETTE_FORMAT, VERSION)
    record: _ChouetteRecord = read_shape(_ChouetteRecord, data, RecordError, RECORD)
    assert isinstance(data, dict)  # as its shape says
    recorded: list[dict[str, Any]] = data["log"]  # each entry as written, to compare with the replay's
    manual = ManualDice()
    session = Chouette(settings_of(record.settings), ReplayDice(manual, dice))
    yield session, ()
    index = 0
    while index < len(record.log):
        before = len(session.log)
        index += _replay(session, manual, record.log, recorded, index)
        yield session, session.log[before:]
    _check_result(session, data)


def dice_drawn(data: object) -> list[Draw]:
    """The dice a chouette record shows were rolled, in the order rolled: the draw for the order (each
    round's dice, in its players' order), each game's opening rolls (the box's die first) and rolls
    (larger die first: either order), and the dice of a partner's draw.

    The record's shape is checked (a :class:`~tavola.errors.RecordError` names the field at fault),
    its play is not replayed: a die changed is for the dice's check to find.

    >>> from tavola.dicesource import VerifiableDice
    >>> table = Chouette(dice=VerifiableDice(bytes(32)), players=["Ann", "Ben", "Cid"])
    >>> table.start_game().roll(table.seating.box)  # Ann and Ben tie on 4, then Ann's 5 makes her the box
    Dice(5, 3)
    >>> [(draw.where, draw.dice) for draw in dice_drawn(to_json(table))]
    [('log[3].rounds[0]', (4, 4, 1)), ('log[3].rounds[1]', (5, 1)), ('log[5].dice', (3, 5))]
    """
    check_format(data, CHOUETTE_FORMAT, VERSION)
    record: _ChouetteRecord = read_shape(_ChouetteRecord, data, RecordError, RECORD)
    drawn: list[Draw] = []
    for index, step in enumerate(record.log):
        if isinstance(step, _DrawOrder):
            for number, round_ in enumerate(step.rounds):
                drawn.append(Draw(f"log[{index}].rounds[{number}]", tuple(die for _name, die in round_)))
        elif isinstance(step, _Rolled | _PartnerDrawn):
            drawn.append(Draw(f"log[{index}].dice", tuple(step.dice), step.action != "roll"))
    return drawn


# --- the shape of a record ---------------------------------------------------------------------


class _Entry(Shape):
    player: Annotated[str | None, Says(N_("{where}.player: a player's name or null, not {player}"), "player")]


class _Plain(_Entry):
    action: Literal[
        "join",
        "leave",
        "accept_partnership",
        "decline_partnership",
        "give_extra",
        "decline_extra",
        "new_captain",
    ]


class _DrawOrder(_Entry):
    action: Literal["draw_order"]
    rounds: list[
        Annotated[
            list[Annotated[tuple[StrictStr, StrictInt], Field(strict=False)]],
            Says(N_("{where}: a list of [player, die] pairs, not {value}")),
        ]
    ]


class _StartGame(_Entry):
    action: Literal["start_game"]
    position: str | None = None
    side_on_roll: int | None = None


class _Rolled(_Entry):
    action: Literal["opening_roll", "roll"]
    dice: TwoDice


class _PartnerDrawn(_Entry):
    action: Literal["partner_drawn"]
    dice: list[int]


class _Moved(_Entry):
    action: Literal["play", "suggest"]
    play: str


class _Against(_Entry):
    action: Literal["double", "take", "drop", "beaver", "automatic_beaver", "forced_drop"]
    against: Annotated[
        list[str], Says(N_("{where}.against: a list of players' names, not {against}"), "against")
    ]


class _AutomaticDouble(_Entry):
    action: Literal["automatic_double"]
    value: int


_Step = _Plain | _DrawOrder | _StartGame | _Rolled | _PartnerDrawn | _Moved | _Against | _AutomaticDouble


class _ChouetteRecord(Shape):
    settings: SettingsShape
    log: list[
        Annotated[
            _Step,
            Field(discriminator="action"),
            Says(
                N_("{where}.action: {action} is not one of {actions}"),
                "action",
                {"actions": ", ".join(_NAMES.values())},
            ),
        ]
    ]
    seating: Any = None  # these three are compared whole with the replay's
    ledger: Any = None
    totals: Any = None


# --- replaying a record ------------------------------------------------------------------------


def _replay(
    session: Chouette, manual: ManualDice, steps: list[_Step], recorded: list[dict[str, Any]], index: int
) -> int:
    """Replay ``steps[index]``; returns how many entries the session logged for it."""
    step, where = steps[index], f"log[{index}]"
    if step.action in _AUTOMATIC:
        raise RecordError(
            _("{where}: {action} happens by itself, and nothing before it here causes it").format(
                where=where, action=repr(step.action)
            )
        )
    before = len(session.log)
    try:
        _enter_dice(manual, steps, index)
        _act(session, step, where)
    except TavolaError as error:
        field = {"play": ".play", "suggest": ".play", "roll": ".dice", "opening_roll": ".dice"}.get(
            step.action, ""
        )
        # TRANSLATORS: a field of a chouette record (log[14].play), kept as written; what is wrong.
        raise RecordError(_("{where}: {error}").format(where=where + field, error=error)) from None
    finally:
        manual.clear()
    logged = session.log[before:]
    for offset, entry in enumerate(logged):
        expected = recorded[index + offset] if index + offset < len(recorded) else None
        if expected != entry_json(entry):
            if expected is None:
                message = _("{where} (after it): the rules log {entry} here")
            else:
                message = _("{where}: the rules log {entry} here")
            shown = f"log[{index + offset}]" if expected is not None else where
            raise RecordError(message.format(where=shown, entry=json.dumps(entry_json(entry))))
    return len(logged)


def _enter_dice(manual: ManualDice, steps: list[_Step], index: int) -> None:
    """Queue the dice the step at ``index`` rolls, and those of the draw that may follow it."""
    step = steps[index]
    if isinstance(step, _DrawOrder):
        for round_ in step.rounds:
            for _name, die in round_:
                manual.enter_die(die)
    elif isinstance(step, _Rolled):
        if step.action == "roll":
            manual.enter(Dice(*step.dice))
        else:
            manual.enter_opening(*step.dice)
    following = steps[index + 1] if index + 1 < len(steps) else None
    if isinstance(following, _PartnerDrawn):
        for die in following.dice:
            manual.enter_die(die)


def _act(session: Chouette, step: _Step, where: str) -> None:
    player, action = step.player, step.action
    if isinstance(step, _DrawOrder):
        session.draw_order()
        return
    if isinstance(step, _StartGame):
        if step.position is None:
            session.start_game()
        elif step.side_on_roll is None:
            raise RecordError(
                _("{where}: the field {name} is missing").format(where=where, name="'side_on_roll'")
            )
        else:
            position = Position.from_tavola_id(step.position)
            session.start_game(position=position, side_on_roll=Side(step.side_on_roll))
        return
    if player is None:
        raise RecordError(
            _("{where}.player: {action} needs the player who did it").format(where=where, action=repr(action))
        )
    if action == "join":
        session.join(player)
        return
    if action == "leave":
        session.leave(player)
        return
    game = session.game_in_progress
    if game is None:
        raise RecordError(
            _("{where}: {action} needs a game in progress, and none is").format(
                where=where, action=repr(action)
            )
        )
    if isinstance(step, _Against):
        _CUBE_ACTIONS[step.action](game, player, tuple(step.against))
    elif isinstance(step, _Moved):
        (game.play if action == "play" else game.suggest)(player, step.play)
    else:
        _SIMPLE_ACTIONS[action](game, player)


_CUBE_ACTIONS: dict[str, Callable[[ChouetteGame, str, tuple[str, ...]], None]] = {
    "double": ChouetteGame.double,
    "take": ChouetteGame.take,
    "drop": ChouetteGame.drop,
    "beaver": ChouetteGame.beaver,
}
_SIMPLE_ACTIONS: dict[str, Callable[[ChouetteGame, str], object]] = {
    "opening_roll": ChouetteGame.roll,
    "roll": ChouetteGame.roll,
    "accept_partnership": ChouetteGame.accept_partnership,
    "decline_partnership": ChouetteGame.decline_partnership,
    "give_extra": ChouetteGame.give_extra,
    "decline_extra": ChouetteGame.decline_extra,
}


def _check_result(session: Chouette, record: dict[str, Any]) -> None:
    """The seating, ledger and totals the record states must be what the replay gives."""
    replayed = to_json(session)
    for name in ("seating", "ledger", "totals"):
        if name in record and record[name] != replayed[name]:
            raise RecordError(
                _("{field}: by the replay, {replayed}; the record says {recorded}").format(
                    field=name, replayed=json.dumps(replayed[name]), recorded=json.dumps(record[name])
                )
            )
