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
    "equity", "loss", "probabilities", "plies"}, ...]}``, every legal play,
    best first, each with its loss against the first (the shape of every
    hint, :func:`tavola.bot.advice.choice_json`).
``doubles``
    ``{"id": 1, "cmd": "doubles", "position": TVLID, "variant": "acey-deucey"}``
    → ``{"id": 1, "doubles": [{"double", "play", "position_id", "equity",
    "loss", "probabilities", "plies"}, ...]}``: after an Acey-Deucey 1-2 (V2), the six
    doubles to choose from, best first, each with its best play (the bot
    chooses the first).
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

``position`` is a gnubg Position ID (or an XGID, a Tavola ID or a Snowie text
position) with the player to act on roll; ``position_file`` instead names a
file to read it from, Snowie's text or Jellyfish's ``.pos`` (as with an XGID,
only the position is taken: the request says the rest). Optional fields: ``variant`` (a variant's name),
``match`` (``{"length": 7, "score": [2, 4], "crawford": false}``, the player
on roll's score first; a match is to 64 points at most,
:data:`tavola.matchrules.MAX_MATCH_LENGTH`), ``cube`` (``{"value": 2, "owner": "center" | "me" |
"opponent"}``), ``rules`` (``{"jacoby": true, "beavers": 1}``) and ``level``
(a name of :func:`tavola.bot.levels.level`; ``evaluate`` and ``cube`` judge at
:data:`tavola.bot.levels.CUBE_LEVEL`, the depth of every cube decision of the
bot, unless the request names a level); for ``play`` and ``hint`` in
Acey-Deucey, ``"chosen_double": true`` says the dice are the double chosen
after a 1-2, so a play of all four moves is followed by the same player's
roll (V2). In Acey-Deucey, where the loser pays per checker left, the equity
is in checkers and each play of a hint also has its ``expected_checkers``
(``{"won": ..., "lost": ...}``, their difference the equity); the
probabilities' gammon fields then hold the share of checkers beyond the
first. Every field of a request is checked
before the bot starts work (its shape by :mod:`tavola.schema`, then its
values); a request that cannot be answered gets one line,
``{"id": ..., "error": "..."}`` naming the field at fault, and the engine
goes on serving; so does a line that is no JSON, and a request the bot fails
on. Every reply is one line of strict JSON. The bot itself (:class:`tavola.bot.player.Bot`) knows
nothing of JSON: the replies are built here.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Annotated, Any, Literal

from pydantic import Field

from tavola.bot.advice import doubles_json, plays_json, probabilities_json
from tavola.bot.context import CubeContext
from tavola.bot.cube import answer as cube_answer
from tavola.bot.levels import Level, UnknownLevelError, level
from tavola.bot.met import mwc_to_equity
from tavola.bot.player import Bot, Evaluation
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.ids import parse_position, position_text, read_position_file
from tavola.match import MatchScore
from tavola.matchrules import MAX_MATCH_LENGTH, check_match_score
from tavola.position import Position
from tavola.rules import Rules
from tavola.schema import JsonTextError, RulesShape, Says, Shape, json_text, parse_json, read_shape
from tavola.variants import STANDARD, Variant, find_variant

COMMANDS = ("play", "hint", "doubles", "evaluate", "cube")
"""The commands a request may name."""


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
    level: Level | None = None
    doubled: bool = False
    chosen_double: bool = False

    @property
    def context(self) -> CubeContext:
        """The cube context of the request, from the player on roll's side."""
        return CubeContext.at_score(self.match, self.cube, self.rules, self.variant)


def read_request(data: object) -> Request:
    """Check a decoded JSON request, every field of it, and turn it into a :class:`Request`.

    Its shape first (:data:`_REQUEST`: the fields and their types), then what
    the domain says of the values (a position ID that reads, dice from 1 to 6,
    a score below the match length...); the first thing wrong raises
    :class:`RequestError` naming the field.

    >>> read_request({"id": 7, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [3, 1]}).dice
    Dice(3, 1)
    >>> read_request({"id": 7, "cmd": "fly"})
    Traceback (most recent call last):
    ...
    tavola.protocol.RequestError: cmd: one of play, hint, doubles, evaluate, cube, not 'fly'
    >>> read_request({"id": 7, "cmd": "evaluate", "position": "4HPwATDgc/ABMA", "match": {"length": "7"}})
    Traceback (most recent call last):
    ...
    tavola.protocol.RequestError: match.length: a whole number from 1 to 64, not '7'
    """
    shape: _CheckerRequest | _PositionRequest = read_shape(_REQUEST, data, RequestError, _WHOLE)
    variant = _variant(shape.variant)
    chosen_double = isinstance(shape, _CheckerRequest) and shape.chosen_double
    if (shape.cmd == "doubles" or chosen_double) and not variant.acey_deucey_roll:
        raise RequestError(
            f"variant: a double is chosen only after Acey-Deucey's 1-2 (V2), not in {variant.name}"
        )
    return Request(
        id=shape.id,
        command=shape.cmd,
        position=_position(shape.position, shape.position_file, variant),
        dice=_dice(shape.dice) if isinstance(shape, _CheckerRequest) else None,
        variant=variant,
        match=_match(shape.match),
        cube=_cube(shape.cube),
        rules=_rules(shape.rules),
        level=_level(shape.level),
        doubled=shape.doubled,
        chosen_double=chosen_double,
    )


# --- the shape of a request --------------------------------------------------------------------

_WHOLE = "the request"
"""What a request is called where there is no field to name."""


class _MatchShape(Shape):
    length: Annotated[
        int,
        Field(ge=1, le=MAX_MATCH_LENGTH),
        Says(f"match.length: a whole number from 1 to {MAX_MATCH_LENGTH}, not {{value}}"),
    ]
    score: Annotated[
        list[int], Field(min_length=2, max_length=2), Says("match.score: two whole numbers, not {value}")
    ] = Field(default_factory=lambda: [0, 0])
    crawford: bool = False


class _CubeShape(Shape):
    value: int = 1
    owner: Annotated[
        Literal["center", "me", "opponent"], Says("cube.owner: 'center', 'me' or 'opponent', not {value}")
    ] = "center"


class _RequestShape(Shape):
    """What every request holds: the position, and how it is played."""

    id: Any = None
    position: Annotated[str | None, Says("position: a gnubg Position ID (or XGID), not {value}")] = None
    position_file: Annotated[str | None, Says("position_file: a file's name, not {value}")] = None
    variant: Annotated[str, Says("variant: a variant's name, not {value}")] = "standard"
    match: _MatchShape | None = None
    cube: _CubeShape | None = None
    rules: RulesShape | None = None
    level: Annotated[str | None, Says("level: a level's name, not {value}")] = None
    doubled: Annotated[bool, Says("doubled: true or false, not {value}")] = False


class _PositionRequest(_RequestShape):
    """A request about a position before the roll."""

    cmd: Literal["evaluate", "cube", "doubles"]


class _CheckerRequest(_RequestShape):
    """A request about a roll to play: the dice too."""

    cmd: Literal["play", "hint"]
    dice: Annotated[
        list[int], Field(min_length=2, max_length=2), Says("dice: two numbers such as [6, 5], not {value}")
    ]
    chosen_double: Annotated[bool, Says("chosen_double: true or false, not {value}")] = False


_REQUEST = Annotated[
    _CheckerRequest | _PositionRequest,
    Field(discriminator="cmd"),
    Says(f"cmd: one of {', '.join(COMMANDS)}, not {{value}}"),
]
"""The shape of a request: the fields of its command."""


# --- what the values mean ----------------------------------------------------------------------


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except TavolaError as error:
        raise RequestError(f"variant: {error}") from None


def _position(text: str | None, file: str | None, variant: Variant) -> Position:
    """The position of ``position`` or, instead, of the file ``position_file`` names."""
    if text is None and file is None:
        raise RequestError(f"{_WHOLE}: the field 'position' is missing (or give 'position_file')")
    if text is not None and file is not None:
        raise RequestError("position_file: give 'position' or 'position_file', not both")
    if file is None:
        assert text is not None
        try:
            return parse_position(text, checkers=variant.checkers)
        except TavolaError as error:
            raise RequestError(f"position: {error}") from None
    try:
        return read_position_file(file, checkers=variant.checkers).position
    except OSError as error:
        raise RequestError(f"position_file: {file}: {error.strerror or error}") from None
    except TavolaError as error:
        raise RequestError(f"position_file: {error}") from None


def _dice(values: list[int]) -> Dice:
    try:
        return Dice(values[0], values[1])
    except TavolaError as error:
        raise RequestError(f"dice: {error}") from None


def _match(shape: _MatchShape | None) -> MatchScore | None:
    if shape is None:
        return None
    score = (shape.score[0], shape.score[1])
    try:
        check_match_score(shape.length, score)
    except TavolaError as error:
        raise RequestError(f"match.score: {error}") from None
    try:
        return MatchScore(shape.length, score, shape.crawford)
    except TavolaError as error:
        raise RequestError(f"match.crawford: {error}") from None


_OWNERS = {"center": None, "me": 0, "opponent": 1}


def _cube(shape: _CubeShape | None) -> Cube:
    if shape is None:
        return Cube()
    try:
        return Cube(shape.value, _OWNERS[shape.owner])
    except TavolaError as error:
        raise RequestError(f"cube: {error}") from None


def _rules(shape: RulesShape | None) -> Rules:
    if shape is None:
        return Rules()
    try:
        return shape.rules()
    except TavolaError as error:
        raise RequestError(f"rules: {error}") from None


def _level(name: str | None) -> Level | None:
    if name is None:
        return None
    try:
        return level(name)
    except UnknownLevelError as error:
        raise RequestError(f"level: {error}") from None


def serve(bot: Bot, lines: Iterable[str], output: IO[str]) -> int:
    """Answer each request line on ``output``, flushing every reply; returns how many requests failed.

    Every line gets one reply, whatever it holds, and the next line is answered after it.
    """
    failures = 0
    for line in lines:
        text = line.strip()
        if not text:
            continue
        reply = answer(bot, text)
        failures += "error" in reply
        output.write(json_text(reply) + "\n")
        output.flush()
    return failures


def answer(bot: Bot, text: str) -> dict[str, Any]:
    """The reply to one request line; errors become ``{"id": ..., "error": ...}``.

    Never raises, and the reply can always be written as strict JSON: a line
    that is no JSON (too deep, a number of too many digits), a request that
    does not read, a failure while the bot works and an ``id`` that cannot be
    written back (``NaN``) each get their error reply.

    >>> answer(None, "[" * 100_000 + "]" * 100_000)["error"][:9]  # type: ignore[arg-type]
    'not JSON:'
    """
    try:
        data = parse_json(text)
    except JsonTextError as error:
        return {"id": None, "error": f"not JSON: {error}"}
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        request = read_request(data)
    except TavolaError as error:
        return _writable({"id": ident, "error": str(error)})
    try:
        return _writable({"id": ident, **reply(bot, request)})
    except Exception as error:  # a failure of the bot itself: this request fails, the engine goes on
        return _writable({"id": ident, "error": f"internal error: {type(error).__name__}: {error}"})


def _writable(reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` if it can be written as strict JSON, else an error saying why (an ``id`` that is NaN)."""
    try:
        json_text(reply)
    except (ValueError, RecursionError) as error:
        return {"id": None, "error": f"the reply cannot be written as JSON: {error}"}
    return reply


def reply(bot: Bot, request: Request) -> dict[str, Any]:
    """The reply fields for a request: the bot's answer as JSON data, each judged play written as the
    server's hints write it (:func:`tavola.bot.advice.choice_json`)."""
    context = request.context
    if request.command in ("play", "hint"):
        assert request.dice is not None  # read_request asks for the dice of these commands
        if request.command == "play":
            chosen = bot.play(
                request.position,
                request.dice,
                context,
                level=request.level,
                chosen_double=request.chosen_double,
            )
            return {
                "play": chosen.play.notation,
                "position_id": position_text(chosen.play.after),
                "equity": round(chosen.equity, 4),
            }
        ranked = bot.hint(
            request.position, request.dice, context, level=request.level, chosen_double=request.chosen_double
        )
        return {"plays": plays_json(ranked)}
    if request.command == "doubles":
        doubles = bot.double_hint(request.position, request.variant, request.level)
        return {"doubles": doubles_json(doubles)}
    evaluation = bot.evaluate(request.position, context, level=request.level)
    if request.command == "evaluate":
        return _evaluation_json(evaluation, request.match)
    decision = evaluation.cube
    if request.doubled:
        return {"action": cube_answer(decision, request.rules).value, "decision": str(decision)}
    return {"action": decision.title.lower(), "decision": str(decision)}


def _evaluation_json(evaluation: Evaluation, match: MatchScore | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "probabilities": probabilities_json(evaluation.probabilities),
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
    """Serve standard input to standard output (bytes that are not UTF-8 read as U+FFFD)."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    serve(bot, sys.stdin, sys.stdout)
    return 0
