"""Tavola's own JSON record of a match or money session: everything, nothing lost.

The record is one JSON object::

    {
      "format": "tavola-record", "version": 1,
      "type": "match",                    # or "money"
      "players": ["Ann", "Ben"],
      "variant": {"name": "standard", "acey_deucey_roll": false},
      "length": 7,                        # a match; a money session has "stake": 2.5
      "rules": {"cube": true, "jacoby": false, ...},   # every field of Rules
      "games": [
        {"crawford": false, "holland": null,
         "log": [
           {"player": 0, "action": "opening_roll", "dice": [3, 5]},   # player 0's die first
           {"player": 1, "action": "play", "play": "8/3 6/3"},
           {"player": 0, "action": "roll", "dice": [6, 2]},
           {"player": 0, "action": "play", "play": "24/18 13/11"},
           {"player": 1, "action": "double"},
           {"player": 0, "action": "resign", "kind": "gammon"},
           ...],
         "outcome": {"winner": 1, "kind": "single", "cube": 2, "points": 2, "ending": "drop",
                     "checkers_left": null}}
      ],
      "score": [2, 0]                     # a money session: the net points
    }

The log is the game's own :attr:`~tavola.game.Game.log`, entry for entry:
``opening_roll`` (ties included), ``roll``, ``play``, ``double``, ``take``,
``drop``, ``beaver``, ``resign`` (with its ``kind``), ``accept``,
``decline`` and ``choose_double`` (with its ``number``, after an Acey-Deucey
1-2). An outcome holds ``checkers_left`` where the loser pays per checker
(Acey-Deucey, V2); a record without ``variant`` is of the standard game.

Reading replays the log through the game API, checking that each action logs
exactly what the record says, and that the outcomes, the Crawford marks and
the score agree; anything else raises
:class:`~tavola.errors.RecordError` naming the field, e.g.
``games[2].log[14].play``.

>>> from tavola.dicesource import RandomDice
>>> match = Match(3, dice=RandomDice(seed=3), players=("Ann", "Ben"))
>>> game = match.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> data = to_json(match)
>>> data["games"][0]["log"][1], data["score"]
({'player': 1, 'action': 'play', 'play': '13/11 13/8'}, [1, 0])
>>> from_json(data).games[0].log == game.log
True
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavola.actions import (
    AcceptResignation,
    Beaver,
    ChooseDouble,
    DeclineResignation,
    Double,
    Drop,
    Entry,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
)
from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Game, Outcome
from tavola.i18n import _
from tavola.match import Match, MoneySession
from tavola.position import WinKind
from tavola.records._common import (
    RECORD,
    ReplayDice,
    Series,
    json_field,
    json_object,
    play_text,
    write_atomically,
)
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant, find_variant

__all__ = ["FORMAT", "VERSION", "from_json", "read_json", "to_json", "write_json"]

FORMAT = "tavola-record"
VERSION = 1

_NAMES: dict[type, str] = {
    OpeningRoll: "opening_roll",
    Roll: "roll",
    Played: "play",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Resign: "resign",
    AcceptResignation: "accept",
    DeclineResignation: "decline",
    ChooseDouble: "choose_double",
}


# --- writing -------------------------------------------------------------------------


def write_json(series: Series, path: str | os.PathLike[str]) -> None:
    """Save ``series`` as Tavola's JSON record, atomically."""
    write_atomically(path, _dumps(to_json(series)))


def _dumps(data: dict[str, Any]) -> str:
    """The record as JSON text, one line per log entry."""
    items = [
        f' "games": [{_games_text(value)}]' if key == "games" else f" {json.dumps(key)}: {json.dumps(value)}"
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(items) + "\n}\n"


def _games_text(games: list[dict[str, Any]]) -> str:
    texts = []
    for game in games:
        fields = [f"{json.dumps(key)}: {json.dumps(value)}" for key, value in game.items() if key != "log"]
        entries = ",\n".join(f"    {json.dumps(entry)}" for entry in game["log"])
        log = f"[\n{entries}\n  ]" if entries else "[]"
        texts.append("  {" + ", ".join([*fields, f'"log": {log}']) + "}")
    return "\n" + ",\n".join(texts) + "\n " if texts else ""


def to_json(series: Series) -> dict[str, Any]:
    """The JSON record of a match or money session, as plain dicts and lists."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if isinstance(series, Match):
        data.update(type="match", players=list(series.players), length=series.length)
        score = list(series.score)
    else:
        data.update(type="money", players=list(series.players), stake=series.stake)
        score = list(series.score.points)
    data["variant"] = {"name": series.variant.name, "acey_deucey_roll": series.variant.acey_deucey_roll}
    data["rules"] = {item.name: getattr(series.rules, item.name) for item in dataclasses.fields(Rules)}
    data["games"] = [_game_json(game) for game in series.games]
    data["score"] = score
    return data


def _game_json(game: Game) -> dict[str, Any]:
    return {
        "crawford": game.crawford,
        "holland": game.holland,
        "log": [_entry_json(entry) for entry in game.log],
        "outcome": _outcome_json(game.outcome),
    }


def _entry_json(entry: Entry) -> dict[str, Any]:
    action = entry.action
    data: dict[str, Any] = {"player": entry.player, "action": _NAMES[type(action)]}
    if isinstance(action, OpeningRoll):
        data["dice"] = list(action.dice)
    elif isinstance(action, Roll):
        assert action.dice is not None
        data["dice"] = [action.dice.high, action.dice.low]
    elif isinstance(action, Played):
        data["play"] = action.play.notation
    elif isinstance(action, Resign):
        data["kind"] = action.kind.name.lower()
    elif isinstance(action, ChooseDouble):
        data["number"] = action.number
    return data


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "kind": outcome.kind.name.lower(),
        "cube": outcome.cube,
        "points": outcome.points,
        "ending": outcome.ending.value,
        "checkers_left": outcome.checkers_left,
    }


# --- reading -------------------------------------------------------------------------


def read_json(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """Read a JSON record (see :func:`from_json`); errors name the file and the field."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        message = _("{path}: not valid JSON: line {line}: {error}")
        raise RecordError(
            message.format(path=path, line=error.lineno, error=error.msg), error.lineno
        ) from None
    except UnicodeDecodeError as error:
        message = _("{path}: not a JSON record (not UTF-8 text: {reason})")
        raise RecordError(message.format(path=path, reason=error.reason)) from None
    try:
        return from_json(data, dice=dice)
    except RecordError as error:
        # TRANSLATORS: a file name, then what is wrong in it (an error message already translated).
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None


def from_json(data: object, *, dice: DiceSource | None = None) -> Series:
    """The match or session a JSON record holds, replayed through the game API.

    Later rolls (an unfinished game, new games) come from ``dice``, OS
    entropy by default. Raises :class:`RecordError` naming the field at fault.
    """
    record = json_object(data, RECORD)
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise RecordError(
            _(
                "format/version: expected {format} version {version}, not {found} version {found_version}"
            ).format(
                format=repr(FORMAT),
                version=VERSION,
                found=repr(record.get("format")),
                found_version=repr(record.get("version")),
            )
        )
    manual = ManualDice()
    series = _series(record, ReplayDice(manual, dice))
    games = json_field(record, "games", list, RECORD)
    for index, game_data in enumerate(games):
        _replay_game(series, manual, json_object(game_data, f"games[{index}]"), index)
    if "score" in record:
        score = series.score if isinstance(series, Match) else series.score.points
        if record["score"] != list(score):
            raise RecordError(
                _("score: the games give {score}, not {recorded}").format(
                    score=list(score), recorded=repr(record["score"])
                )
            )
    return series


def _series(record: dict[str, Any], dice: ReplayDice) -> Series:
    kind = json_field(record, "type", str, RECORD)
    players = json_field(record, "players", list, RECORD)
    if len(players) != 2 or not all(isinstance(name, str) for name in players):
        raise RecordError(_("players: two names, not {players}").format(players=repr(players)))
    rules = _rules(json_object(json_field(record, "rules", dict, RECORD), "rules"))
    variant = _variant(record.get("variant"))
    names = (players[0], players[1])
    try:
        if kind == "match":
            length = json_field(record, "length", int, RECORD)
            return Match(length, rules, dice, players=names, variant=variant)
        if kind == "money":
            stake = json_field(record, "stake", (int, float), RECORD)
            return MoneySession(rules, dice, stake=stake, players=names, variant=variant)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where=kind, error=error)) from None
    raise RecordError(_("type: 'match' or 'money', not {kind}").format(kind=repr(kind)))


def _variant(data: object) -> Variant:
    if data is None:
        return STANDARD
    record = json_object(data, "variant")
    name = json_field(record, "name", str, "variant")
    try:
        variant = find_variant(name)
        roll = record.get("acey_deucey_roll", variant.acey_deucey_roll)
        return variant if roll == variant.acey_deucey_roll else variant.with_options(acey_deucey_roll=roll)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="variant", error=error)) from None


def _rules(data: dict[str, Any]) -> Rules:
    known = {item.name for item in dataclasses.fields(Rules)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(_("rules.{name}: there is no such rule").format(name=unknown[0]))
    try:
        return Rules(**data)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="rules", error=error)) from None


@dataclass(frozen=True)
class _Step:
    """One log entry as recorded: who, what, and the dice, play or kind it carries."""

    where: str
    player: int
    action: str
    dice: tuple[int, int] | None = None
    play: str | None = None
    kind: WinKind | None = None
    number: int | None = None

    def matches(self, entry: Entry) -> bool:
        action = entry.action
        if entry.player != self.player or _NAMES[type(action)] != self.action:
            return False
        if isinstance(action, OpeningRoll):
            return action.dice == self.dice
        if isinstance(action, Roll):
            return action.dice == (Dice(*self.dice) if self.dice else None)
        if isinstance(action, Resign):
            return action.kind is self.kind
        if isinstance(action, ChooseDouble):
            return action.number == self.number
        return True


def _step(data: object, where: str) -> _Step:
    entry = json_object(data, where)
    player = json_field(entry, "player", int, where)
    if player not in (0, 1):
        raise RecordError(
            _("{where}.player: players are 0 and 1, not {player}").format(where=where, player=repr(player))
        )
    action = json_field(entry, "action", str, where)
    if action not in _NAMES.values():
        raise RecordError(
            _("{where}.action: {action} is not one of {actions}").format(
                where=where, action=repr(action), actions=", ".join(_NAMES.values())
            )
        )
    if action in ("opening_roll", "roll"):
        return _Step(where, player, action, dice=_dice(entry, where))
    if action == "play":
        return _Step(where, player, action, play=json_field(entry, "play", str, where))
    if action == "resign":
        kind = json_field(entry, "kind", str, where)
        if kind.upper() not in WinKind.__members__:
            raise RecordError(
                _("{where}.kind: single, gammon or backgammon, not {kind}").format(
                    where=where, kind=repr(kind)
                )
            )
        return _Step(where, player, action, kind=WinKind[kind.upper()])
    if action == "choose_double":
        return _Step(where, player, action, number=json_field(entry, "number", int, where))
    return _Step(where, player, action)


def _dice(entry: dict[str, Any], where: str) -> tuple[int, int]:
    dice = json_field(entry, "dice", list, where)
    if len(dice) != 2 or not all(type(die) is int and 1 <= die <= 6 for die in dice):
        raise RecordError(
            _("{where}.dice: two dice of 1 to 6, not {dice}").format(where=where, dice=repr(dice))
        )
    return dice[0], dice[1]


def _replay_game(series: Series, manual: ManualDice, data: dict[str, Any], index: int) -> None:
    where = f"games[{index}]"
    try:
        game = series.new_game()
    except TavolaError as error:
        raise RecordError(
            _("{where}: the game cannot start: {error}").format(where=where, error=error)
        ) from None
    if "crawford" in data and data["crawford"] != game.crawford:
        if game.crawford:
            message = _("{where}.crawford: this game is the Crawford game (P2)")
        else:
            message = _("{where}.crawford: this game is not the Crawford game (P2)")
        raise RecordError(message.format(where=where))
    steps = [
        _step(entry, f"{where}.log[{number}]")
        for number, entry in enumerate(json_field(data, "log", list, where))
    ]
    position = 0
    while position < len(steps):
        position += _apply(game, manual, steps, position)
    _check_outcome(game, data.get("outcome"), where)


def _apply(game: Game, manual: ManualDice, steps: list[_Step], position: int) -> int:
    """Replay ``steps[position]``; returns how many steps the game logged for it."""
    step = steps[position]
    before = len(game.log)
    try:
        _act(game, manual, step)
    except TavolaError as error:
        field = {"opening_roll": "dice", "roll": "dice", "play": "play"}.get(step.action)
        where = f"{step.where}.{field}" if field else step.where
        # TRANSLATORS: a field of a JSON record (games[0].log[3].play), kept as written; what is wrong.
        raise RecordError(_("{where}: {error}").format(where=where, error=error)) from None
    finally:
        manual.clear()
    logged = game.log[before:]
    for offset, entry in enumerate(logged):
        expected = steps[position + offset] if position + offset < len(steps) else None
        if expected is None or not expected.matches(entry):
            if expected is None:
                message = _("{where} (after it): the game logs {entry} here")
            else:
                message = _("{where}: the game logs {entry} here")
            where = expected.where if expected else step.where
            raise RecordError(message.format(where=where, entry=_describe(entry)))
    return len(logged)


def _act(game: Game, manual: ManualDice, step: _Step) -> None:
    player = step.player
    if step.action == "opening_roll":
        assert step.dice is not None
        manual.enter_opening(*step.dice)
        game.roll()
    elif step.action == "roll":
        assert step.dice is not None
        manual.enter(Dice(*step.dice))
        game.roll(player)
    elif step.action == "play":
        assert step.play is not None
        play_text(game, step.play, player)
    elif step.action == "resign":
        assert step.kind is not None
        game.resign(step.kind, player)
    elif step.action == "choose_double":
        assert step.number is not None
        game.choose_double(step.number, player)
    else:
        _ACTIONS[step.action](game, player)


_ACTIONS: dict[str, Any] = {
    "double": Game.double,
    "take": Game.take,
    "drop": Game.drop,
    "beaver": Game.beaver,
    "accept": Game.accept_resignation,
    "decline": Game.decline_resignation,
}


def _describe(entry: Entry) -> str:
    data = _entry_json(entry)
    return json.dumps(data)


def _check_outcome(game: Game, recorded: object, where: str) -> None:
    actual = _outcome_json(game.outcome)
    if recorded != actual:
        if actual is None:
            message = _("{where}.outcome: by the replay, the game is not over; the record says {recorded}")
        else:
            message = _("{where}.outcome: by the replay, {outcome}; the record says {recorded}")
        raise RecordError(
            message.format(where=where, outcome=json.dumps(actual), recorded=json.dumps(recorded))
        )
