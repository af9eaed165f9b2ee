"""``tavola engine``: the bot behind a JSON-lines protocol any program can speak.

One request per line on standard input, one reply per line on standard
output, flushed at once, in order. Every request is an object with an ``id``
(echoed back) and a ``cmd``:

``play``
    ``{"id": 1, "cmd": "play", "position": POSID, "dice": [6, 5]}`` →
    ``{"id": 1, "play": "24/13", "position_id": ID, "equity": 0.12}``: the
    bot's play and the Position ID it leads to, seen by the player who moved.
``hint``
    The same request → ``{"id": 1, "plays": [{"play", "position_id",
    "equity", "probabilities", "plies"}, ...]}``, every legal play, best first.
``evaluate``
    ``{"id": 1, "cmd": "evaluate", "position": POSID}`` → the probabilities
    for the player on roll (``win``, ``win_gammon``, ``win_backgammon``,
    ``lose_gammon``, ``lose_backgammon``), the cubeless equity and the cubeful
    equity.
``cube``
    ``{"id": 1, "cmd": "cube", "position": POSID}`` → the cube action for the
    player on roll (``"no double"``, ``"double, take"``, ...), or with
    ``"doubled": true`` the answer of the player just doubled (``"take"``,
    ``"drop"``, ``"beaver"``), with the equities behind it.

``position`` is a gnubg Position ID (or an XGID, or a Tavola ID) with the
player to act on roll. Optional fields: ``variant`` (a variant's name),
``match`` (``{"length": 7, "score": [2, 4], "crawford": false}``, the player
on roll's score first), ``cube`` (``{"value": 2, "owner": "center" | "me" |
"opponent"}``), ``rules`` (``{"jacoby": true, "beavers": 1}``) and ``level``
(see :data:`tavola.bot.search.LEVELS`). A request that cannot be answered
gets ``{"id": ..., "error": "..."}`` and the engine goes on serving.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.ids import parse_position
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant, find_variant

COMMANDS = ("play", "hint", "evaluate", "cube")


class Responder(Protocol):
    """What answers requests: :class:`tavola.bot.Bot`."""

    def answer(self, request: Request) -> dict[str, Any]: ...


class RequestError(TavolaError):
    """A request the engine cannot read: it names the field that is wrong."""


@dataclass(frozen=True)
class MatchScore:
    """A match seen by the player on roll: the length, both scores (its own first), the Crawford flag."""

    length: int
    score: tuple[int, int]
    crawford: bool = False

    @property
    def away(self) -> tuple[int, int]:
        """Points each player still needs: (player on roll, opponent)."""
        return self.length - self.score[0], self.length - self.score[1]

    @classmethod
    def from_away(cls, away: tuple[int, int], crawford: bool = False) -> MatchScore:
        """The score from the points each player still needs (the match as long as the larger).

        >>> MatchScore.from_away((2, 5)).away
        (2, 5)
        """
        length = max(away)
        return cls(length, (length - away[0], length - away[1]), crawford)


@dataclass(frozen=True)
class Request:
    """A request, read and checked."""

    id: Any
    command: str
    position: Position
    dice: Dice | None = None
    variant: Variant = STANDARD
    match: MatchScore | None = None
    cube: Cube = field(default_factory=Cube)
    rules: Rules = field(default_factory=Rules)
    level: str | None = None
    doubled: bool = False


def read_request(data: object) -> Request:
    """Check a decoded JSON request and turn it into a :class:`Request`.

    >>> read_request({"id": 7, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [3, 1]}).dice
    Dice(3, 1)
    >>> read_request({"id": 7, "cmd": "fly"})
    Traceback (most recent call last):
    ...
    tavola.engine.RequestError: cmd: one of play, hint, evaluate, cube, not 'fly'
    """
    if not isinstance(data, dict):
        raise RequestError(f"a request is a JSON object, not {type(data).__name__}")
    command = data.get("cmd")
    if command not in COMMANDS:
        raise RequestError(f"cmd: one of {', '.join(COMMANDS)}, not {command!r}")
    variant = _variant(data.get("variant", "standard"))
    position = _position(data.get("position"), variant)
    dice = _dice(data.get("dice")) if command in ("play", "hint") else None
    level = data.get("level")
    if level is not None and not isinstance(level, str):
        raise RequestError(f"level: a level's name, not {level!r}")
    doubled = data.get("doubled", False)
    if not isinstance(doubled, bool):
        raise RequestError(f"doubled: true or false, not {doubled!r}")
    return Request(
        id=data.get("id"),
        command=command,
        position=position,
        dice=dice,
        variant=variant,
        match=_match(data.get("match")),
        cube=_cube(data.get("cube")),
        rules=_rules(data.get("rules")),
        level=level,
        doubled=doubled,
    )


def _variant(value: object) -> Variant:
    if not isinstance(value, str):
        raise RequestError(f"variant: a variant's name, not {value!r}")
    try:
        return find_variant(value)
    except TavolaError as error:
        raise RequestError(f"variant: {error}") from None


def _position(value: object, variant: Variant) -> Position:
    if not isinstance(value, str):
        raise RequestError(f"position: a gnubg Position ID (or XGID), not {value!r}")
    try:
        return parse_position(value, checkers=variant.checkers)
    except TavolaError as error:
        raise RequestError(f"position: {error}") from None


def _dice(value: object) -> Dice:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(die, int) for die in value)):
        raise RequestError(f"dice: two numbers such as [6, 5], not {value!r}")
    try:
        return Dice(value[0], value[1])
    except TavolaError as error:
        raise RequestError(f"dice: {error}") from None


def _match(value: object) -> MatchScore | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RequestError(f"match: an object such as {{'length': 7, 'score': [2, 4]}}, not {value!r}")
    length, score, crawford = value.get("length"), value.get("score", [0, 0]), value.get("crawford", False)
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise RequestError(f"match.length: a whole number from 1 up, not {length!r}")
    if not (
        isinstance(score, list)
        and len(score) == 2
        and all(isinstance(s, int) and 0 <= s < length for s in score)
    ):
        raise RequestError(f"match.score: two scores below the length {length}, not {score!r}")
    if not isinstance(crawford, bool) or (crawford and length - 1 not in score):
        raise RequestError(f"match.crawford: true only when a player is 1 away, not {crawford!r}")
    return MatchScore(length, (score[0], score[1]), crawford)


def _cube(value: object) -> Cube:
    if value is None:
        return Cube()
    if not isinstance(value, dict):
        raise RequestError(f"cube: an object such as {{'value': 2, 'owner': 'me'}}, not {value!r}")
    owners = {"center": None, "me": 0, "opponent": 1}
    owner = value.get("owner", "center")
    if owner not in owners:
        raise RequestError(f"cube.owner: 'center', 'me' or 'opponent', not {owner!r}")
    try:
        return Cube(value.get("value", 1), owners[owner])
    except TavolaError as error:
        raise RequestError(f"cube: {error}") from None


def _rules(value: object) -> Rules:
    if value is None:
        return Rules()
    if not isinstance(value, dict):
        raise RequestError(f"rules: an object such as {{'jacoby': true}}, not {value!r}")
    try:
        return Rules(**value)
    except TypeError as error:
        raise RequestError(f"rules: {error}") from None
    except TavolaError as error:
        raise RequestError(f"rules: {error}") from None


def serve(bot: Responder, lines: Iterable[str], output: IO[str]) -> int:
    """Answer each request line on ``output``, flushing every reply; returns how many requests failed."""
    failures = 0
    for line in lines:
        text = line.strip()
        if not text:
            continue
        reply = answer(bot, text)
        failures += "error" in reply
        output.write(json.dumps(reply) + "\n")
        output.flush()
    return failures


def answer(bot: Responder, text: str) -> dict[str, Any]:
    """The reply to one request line; errors become ``{"id": ..., "error": ...}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return {"id": None, "error": f"not JSON: {error}"}
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        request = read_request(data)
        return {"id": ident, **bot.answer(request)}
    except TavolaError as error:
        return {"id": ident, "error": str(error)}


def main(bot: Responder) -> int:
    """Serve standard input to standard output."""
    serve(bot, sys.stdin, sys.stdout)
    return 0
