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
from typing import IO, Any

from tavola.bot.met import mwc_to_equity
from tavola.bot.player import Bot, Choice, Evaluation
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.ids import parse_position
from tavola.match import MatchScore
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant, find_variant

COMMANDS = ("play", "hint", "evaluate", "cube")
PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The names of the five probabilities in replies, in the order of the bot's outputs."""


class RequestError(TavolaError):
    """A request the engine cannot read: it names the field that is wrong."""


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
    tavola.protocol.RequestError: cmd: one of play, hint, evaluate, cube, not 'fly'
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


def serve(bot: Bot, lines: Iterable[str], output: IO[str]) -> int:
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


def answer(bot: Bot, text: str) -> dict[str, Any]:
    """The reply to one request line; errors become ``{"id": ..., "error": ...}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return {"id": None, "error": f"not JSON: {error}"}
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        request = read_request(data)
        return {"id": ident, **reply(bot, request)}
    except TavolaError as error:
        return {"id": ident, "error": str(error)}


def reply(bot: Bot, request: Request) -> dict[str, Any]:
    """The reply fields for a request: the bot's answer as JSON data."""
    if request.command in ("play", "hint"):
        if request.dice is None:
            raise RequestError(f"dice: {request.command} needs the dice, such as [6, 5]")
        cube_value = request.cube.value
        if request.command == "play":
            chosen = bot.play(
                request.position, request.dice, request.variant, request.level, request.match, cube_value
            )
            return {
                "play": chosen.play.notation,
                "position_id": _id(chosen.play.after),
                "equity": round(chosen.equity, 4),
            }
        ranked = bot.hint(
            request.position, request.dice, request.variant, request.level, request.match, cube_value
        )
        return {"plays": [_choice_json(choice) for choice in ranked]}
    evaluation = bot.evaluate(request.position, request.cube, request.match, request.rules, request.level)
    if request.command == "evaluate":
        return _evaluation_json(evaluation, request.match)
    decision = evaluation.cube
    if request.doubled:
        return {
            "action": decision.response.value if decision.response else "take",
            "decision": str(decision),
        }
    return {"action": decision.title.lower(), "decision": str(decision)}


def _id(position: Position) -> str:
    return position.position_id() if position.waiting == (0, 0) else position.tavola_id()


def _probabilities_json(values: tuple[float, ...]) -> dict[str, float]:
    return {name: round(value, 4) for name, value in zip(PROBABILITY_NAMES, values, strict=True)}


def _choice_json(choice: Choice) -> dict[str, Any]:
    return {
        "play": choice.play.notation,
        "position_id": _id(choice.play.after),
        "equity": round(choice.equity, 4),
        "probabilities": _probabilities_json(choice.probabilities),
        "plies": choice.plies,
    }


def _evaluation_json(evaluation: Evaluation, match: MatchScore | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "probabilities": _probabilities_json(evaluation.probabilities),
        "cubeless_equity": round(evaluation.cubeless_equity, 4),
    }
    if match is None:
        data["cubeful_equity"] = round(evaluation.cubeful_equity, 4)
    else:
        mwc = evaluation.cubeful_equity
        data["match_winning_chance"] = round(mwc, 4)
        data["cubeful_equity"] = round(mwc_to_equity(mwc, match.away[0], match.away[1], 1, match.crawford), 4)
    return data


def main(bot: Bot) -> int:
    """Serve standard input to standard output."""
    serve(bot, sys.stdin, sys.stdout)
    return 0
