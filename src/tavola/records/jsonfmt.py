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
      "score": [2, 0],                    # a money session: the net points
      "forfeit": {"player": 1, "reason": "time", "at": "2026-05-01T12:00:00Z"},   # where one ended it
      "dice": {"scheme": "tavola-dice-v1", "commitment": "66687a...", "used": 212,
               "secret": "9f3c..."}       # verifiable dice only; the secret once revealed
    }

The log is the game's own :attr:`~tavola.game.Game.log`, entry for entry:
``opening_roll`` (ties included), ``roll``, ``play``, ``double``, ``take``,
``drop``, ``beaver``, ``resign`` (with its ``kind``), ``accept``,
``decline`` and ``choose_double`` (with its ``number``, after an Acey-Deucey
1-2). An outcome holds ``checkers_left`` where the loser pays per checker
(Acey-Deucey, V2); a record without ``variant`` is of the standard game.
``forfeit`` is there when a player gave the series up (``reason``: out of
``time``, ``absent``, ``left``; ``at``: when, where known): the game in
progress ends with the ``forfeit`` ending and, in a match, the other player
has the match (:meth:`~tavola.match.Match.forfeit`). ``dice`` is there when the dice were
:class:`~tavola.dicesource.VerifiableDice` (a table of ``tavola serve``):
:mod:`tavola.records.verifiable` checks them (:func:`dice_drawn` lists
them), ``tavola verify`` from the command line.

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
from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

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
from tavola.files import write_atomically
from tavola.game import Game, Outcome
from tavola.i18n import N_, _
from tavola.match import FORFEIT_REASONS, Forfeit, Match, MoneySession, Series
from tavola.matchrules import check_match_length
from tavola.position import WinKind
from tavola.records.formats import RECORD, RECORD_FORMAT, TwoDice, check_format, read_json_file
from tavola.records.replay import ReplayDice, play_text
from tavola.records.verifiable import Draw, dice_json
from tavola.rules import Rules, checked_stake
from tavola.schema import RulesShape, Says, Shape, json_text, read_shape
from tavola.variants import STANDARD, Variant, find_variant

__all__ = ["VERSION", "dice_drawn", "from_json", "read_json", "to_json", "write_json"]

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
        f' "games": [{_games_text(value)}]' if key == "games" else f" {json_text(key)}: {json_text(value)}"
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(items) + "\n}\n"


def _games_text(games: list[dict[str, Any]]) -> str:
    texts = []
    for game in games:
        fields = [f"{json_text(key)}: {json_text(value)}" for key, value in game.items() if key != "log"]
        entries = ",\n".join(f"    {json_text(entry)}" for entry in game["log"])
        log = f"[\n{entries}\n  ]" if entries else "[]"
        texts.append("  {" + ", ".join([*fields, f'"log": {log}']) + "}")
    return "\n" + ",\n".join(texts) + "\n " if texts else ""


def to_json(series: Series) -> dict[str, Any]:
    """The JSON record of a match or money session, as plain dicts and lists."""
    data: dict[str, Any] = {"format": RECORD_FORMAT, "version": VERSION}
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
    if series.forfeited is not None:
        forfeit = series.forfeited
        data["forfeit"] = {"player": forfeit.player, "reason": forfeit.reason, "at": forfeit.at}
    verifiable = dice_json(series.dice)
    if verifiable is not None:
        data["dice"] = verifiable
    return data


def _game_json(game: Game) -> dict[str, Any]:
    return {
        "crawford": game.crawford,
        "holland": game.holland,
        "log": [_entry_json(entry) for entry in game.log],
        "outcome": outcome_json(game.outcome),
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


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """How a game ended, as JSON data (None while it goes on): the one shape of an outcome, in records
    and in the server's state."""
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
    data = read_json_file(path)
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
    check_format(data, RECORD_FORMAT, VERSION)
    record: _MatchRecord | _MoneyRecord = read_shape(_RECORD, data, RecordError, RECORD)
    manual = ManualDice()
    series = _series(record, ReplayDice(manual, dice))
    forfeit = _forfeit(record.forfeit)
    for index, game in enumerate(record.games):
        _replay_game(series, manual, game, index, forfeit if index == len(record.games) - 1 else None)
    if forfeit is not None and not record.games:
        _forfeit_series(series, forfeit)
    if record.score is not None:
        score = series.score if isinstance(series, Match) else series.score.points
        if record.score != list(score):
            raise RecordError(
                _("score: the games give {score}, not {recorded}").format(
                    score=list(score), recorded=repr(record.score)
                )
            )
    return series


def dice_drawn(data: object) -> list[Draw]:
    """The dice a JSON record shows were rolled, in the order rolled: each game's opening rolls (ties
    included) as rolled, player 0's die first, and its rolls, larger die first (either order).

    The record's shape is checked (a :class:`~tavola.errors.RecordError` names the field at fault),
    its play is not replayed: a die changed is for the dice's check to find.

    >>> from tavola.dicesource import ManualDice
    >>> dice = ManualDice()
    >>> dice.enter_opening(3, 3)
    >>> dice.enter_opening(3, 5)
    >>> dice.enter("2-6")
    >>> match = Match(3, dice=dice)
    >>> game = match.new_game()
    >>> game.roll(), game.roll(), game.play("8/3 6/3"), game.roll()
    (None, Dice(5, 3), None, Dice(6, 2))
    >>> [(draw.where, draw.dice, draw.in_order) for draw in dice_drawn(to_json(match))][1:]
    [('games[0].log[1].dice', (3, 5), True), ('games[0].log[3].dice', (6, 2), False)]
    """
    check_format(data, RECORD_FORMAT, VERSION)
    record: _MatchRecord | _MoneyRecord = read_shape(_RECORD, data, RecordError, RECORD)
    return [
        Draw(f"games[{number}].log[{index}].dice", tuple(step.dice), step.action == "opening_roll")
        for number, game in enumerate(record.games)
        for index, step in enumerate(game.log)
        if isinstance(step, _Rolled)
    ]


# --- the shape of a record ---------------------------------------------------------------------


class _VariantShape(Shape):
    model_config = ConfigDict(extra="forbid")
    unknown: ClassVar[str] = N_("{field}: there is no such variant option")

    name: str
    acey_deucey_roll: bool | None = None


class _Entry(Shape):
    player: Annotated[
        int, Field(ge=0, le=1), Says(N_("{where}.player: players are 0 and 1, not {player}"), "player")
    ]


class _Rolled(_Entry):
    action: Literal["opening_roll", "roll"]
    dice: TwoDice


class _Moved(_Entry):
    action: Literal["play"]
    play: str


class _Resigned(_Entry):
    action: Literal["resign"]
    kind: Annotated[
        Literal["single", "gammon", "backgammon"],
        Says(N_("{where}.kind: single, gammon or backgammon, not {kind}"), "kind"),
    ]


class _ChoseDouble(_Entry):
    action: Literal["choose_double"]
    number: int


class _Acted(_Entry):
    action: Literal["double", "take", "drop", "beaver", "accept", "decline"]


_Step = Annotated[
    _Rolled | _Moved | _Resigned | _ChoseDouble | _Acted,
    Field(discriminator="action"),
    Says(
        N_("{where}.action: {action} is not one of {actions}"),
        "action",
        {"actions": ", ".join(_NAMES.values())},
    ),
]


class _ForfeitRecord(Shape):
    player: Annotated[
        int, Field(ge=0, le=1), Says(N_("forfeit.player: players are 0 and 1, not {player}"), "player")
    ]
    reason: Literal[FORFEIT_REASONS]  # type: ignore[valid-type]
    at: Annotated[str, Field(max_length=40)] | None = None


class _GameRecord(Shape):
    crawford: bool | None = None
    log: list[_Step]
    outcome: Any = None  # compared whole with the replay's


class _SeriesRecord(Shape):
    players: Annotated[
        list[str], Field(min_length=2, max_length=2), Says(N_("players: two names, not {players}"), "players")
    ]
    variant: _VariantShape | None = None
    rules: RulesShape
    games: list[_GameRecord]
    score: list[int | float] | None = None
    forfeit: _ForfeitRecord | None = None


class _MatchRecord(_SeriesRecord):
    type: Literal["match"]
    length: int


class _MoneyRecord(_SeriesRecord):
    type: Literal["money"]
    stake: int | float


_RECORD = Annotated[
    _MatchRecord | _MoneyRecord,
    Field(discriminator="type"),
    Says(N_("type: 'match' or 'money', not {kind}"), "kind"),
]


# --- replaying a record ------------------------------------------------------------------------


def _series(record: _MatchRecord | _MoneyRecord, dice: ReplayDice) -> Series:
    rules = _rules(record.rules)
    variant = _variant(record.variant)
    names = (record.players[0], record.players[1])
    try:
        if isinstance(record, _MatchRecord):
            check_match_length(record.length)
        else:
            checked_stake(record.stake)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where=_FIELD[record.type], error=error)) from None
    try:
        if isinstance(record, _MatchRecord):
            return Match(record.length, rules, dice, players=names, variant=variant)
        return MoneySession(rules, dice, stake=record.stake, players=names, variant=variant)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where=record.type, error=error)) from None


_FIELD = {"match": "length", "money": "stake"}
"""The field of a record of each type that says what its games are played for."""


def _variant(shape: _VariantShape | None) -> Variant:
    if shape is None:
        return STANDARD
    try:
        variant = find_variant(shape.name)
        roll = variant.acey_deucey_roll if shape.acey_deucey_roll is None else shape.acey_deucey_roll
        return variant if roll == variant.acey_deucey_roll else variant.with_options(acey_deucey_roll=roll)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="variant", error=error)) from None


def _rules(shape: RulesShape) -> Rules:
    try:
        return shape.rules()
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="rules", error=error)) from None


@dataclass(frozen=True)
class _Replayed:
    """One log entry as recorded, and where: who, what, and the dice, play or kind it carries."""

    where: str
    player: int
    action: str
    dice: tuple[int, int] | None = None
    play: str | None = None
    kind: WinKind | None = None
    number: int | None = None

    @classmethod
    def of(cls, entry: _Rolled | _Moved | _Resigned | _ChoseDouble | _Acted, where: str) -> _Replayed:
        if isinstance(entry, _Rolled):
            return cls(where, entry.player, entry.action, dice=(entry.dice[0], entry.dice[1]))
        if isinstance(entry, _Moved):
            return cls(where, entry.player, entry.action, play=entry.play)
        if isinstance(entry, _Resigned):
            return cls(where, entry.player, entry.action, kind=WinKind[entry.kind.upper()])
        if isinstance(entry, _ChoseDouble):
            return cls(where, entry.player, entry.action, number=entry.number)
        return cls(where, entry.player, entry.action)

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


def _forfeit(record: _ForfeitRecord | None) -> Forfeit | None:
    return None if record is None else Forfeit(record.player, record.reason, record.at)


def _forfeit_series(series: Series, forfeit: Forfeit) -> None:
    try:
        series.forfeit(forfeit)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="forfeit", error=error)) from None


def _replay_game(
    series: Series, manual: ManualDice, record: _GameRecord, index: int, forfeit: Forfeit | None = None
) -> None:
    """Replay game ``index``, ended by ``forfeit`` where given (the series' last game)."""
    where = f"games[{index}]"
    try:
        game = series.new_game()
    except TavolaError as error:
        raise RecordError(
            _("{where}: the game cannot start: {error}").format(where=where, error=error)
        ) from None
    if record.crawford is not None and record.crawford != game.crawford:
        if game.crawford:
            message = _("{where}.crawford: this game is the Crawford game (P2)")
        else:
            message = _("{where}.crawford: this game is not the Crawford game (P2)")
        raise RecordError(message.format(where=where))
    steps = [_Replayed.of(entry, f"{where}.log[{number}]") for number, entry in enumerate(record.log)]
    position = 0
    while position < len(steps):
        position += _apply(game, manual, steps, position)
    if forfeit is not None:
        _forfeit_series(series, forfeit)
    _check_outcome(game, record.outcome, where)


def _apply(game: Game, manual: ManualDice, steps: list[_Replayed], position: int) -> int:
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


def _act(game: Game, manual: ManualDice, step: _Replayed) -> None:
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


def _shown(value: object) -> str:
    """A recorded value as JSON for a message (cut short), or as Python writes it where JSON cannot."""
    try:
        text = json.dumps(value)
    except (ValueError, RecursionError):
        text = "..." if isinstance(value, list | dict) else repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _check_outcome(game: Game, recorded: object, where: str) -> None:
    actual = outcome_json(game.outcome)
    if recorded != actual:
        if actual is None:
            message = _("{where}.outcome: by the replay, the game is not over; the record says {recorded}")
        else:
            message = _("{where}.outcome: by the replay, {outcome}; the record says {recorded}")
        raise RecordError(message.format(where=where, outcome=json_text(actual), recorded=_shown(recorded)))
