"""The shapes of the JSON Tavola reads, checked with pydantic, and errors that name the field at fault.

Every JSON object Tavola reads (the engine protocol's requests, the game
record, the chouette record) is described by a :class:`Shape`: strict types
(text is not a number, a boolean is not a whole number), and for a field
that needs it, what to say when it is wrong (:class:`Says`).
:func:`read_shape` checks decoded JSON against a shape and raises the
caller's :class:`~tavola.errors.TavolaError` for the first thing wrong,
naming it by its path (``games[0].log[3].dice``).

Shapes check shapes and types only: whether a play is legal, or a score
fits its match, is for the rules to say once the data has its shape.

>>> from typing import Annotated
>>> from tavola.errors import RecordError
>>> class Entry(Shape):
...     players: Annotated[list[str], Says("players: two names, not {players}", "players")]
...     dice: list[int]
>>> read_shape(Entry, {"players": ["Ann", "Ben"], "dice": [3, 1]}, RecordError, "the record")
Entry(players=['Ann', 'Ben'], dice=[3, 1])
>>> read_shape(Entry, {"players": ["Ann", "Ben"], "dice": "31"}, RecordError, "the record")
Traceback (most recent call last):
tavola.errors.RecordError: dice: '31' is not a list
>>> read_shape(Entry, {"players": ["Ann", 2], "dice": [3, 1]}, RecordError, "the record")
Traceback (most recent call last):
tavola.errors.RecordError: players: two names, not ['Ann', 2]
>>> read_shape(Entry, {"players": ["Ann", "Ben"]}, RecordError, "the record")
Traceback (most recent call last):
tavola.errors.RecordError: the record: the field 'dice' is missing
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, create_model
from pydantic_core import ErrorDetails

from tavola.errors import TavolaError
from tavola.i18n import N_, _
from tavola.rules import Rules

__all__ = ["JsonTextError", "RulesShape", "Says", "Shape", "json_text", "parse_json", "read_shape"]


class JsonTextError(TavolaError):
    """Text that is not JSON: ``reason`` says why, ``line`` where the JSON parser stopped (where it says)."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


def parse_json(text: str) -> Any:
    """The data in ``text``, or :class:`JsonTextError` saying why not; never another error.

    Refused as well as what the JSON grammar refuses: whole numbers longer
    than Python reads (4300 digits) and nesting deeper than Python's
    recursion allows, and strings holding half of a UTF-16 surrogate pair
    alone (``"\\ud800"``). ``NaN`` and ``Infinity`` are read as Python reads them,
    for the shapes to refuse in the field that holds them (a :class:`Shape`
    takes finite numbers only).

    >>> parse_json('{"stake": 2.5}')
    {'stake': 2.5}
    >>> parse_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    tavola.schema.JsonTextError: nested too deeply
    >>> parse_json('{"name": "\\\\ud800x"}')
    Traceback (most recent call last):
    ...
    tavola.schema.JsonTextError: a string holds U+D800 alone, which is no Unicode character
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonTextError(error.msg, error.lineno) from None
    except RecursionError:
        raise JsonTextError("nested too deeply") from None
    except ValueError:  # the one other error json.loads raises: a whole number of too many digits
        raise JsonTextError(f"a whole number of more than {sys.get_int_max_str_digits()} digits") from None
    if _SURROGATE_ESCAPE.search(text) is not None:
        _refuse_lone_surrogates(data)
    return data


_SURROGATE_ESCAPE = re.compile("\\\\u[dD][89a-fA-F]|[\ud800-\udfff]")
"""A UTF-16 surrogate, escaped or not: a pair of escapes is one character, one alone is none."""


def _refuse_lone_surrogates(data: object) -> None:
    """Raise :class:`JsonTextError` for a string of ``data`` holding a surrogate alone (``"\\ud800"``),
    which is no Unicode character and which no file or database can hold."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                code = f"U+{ord(item[error.start]):04X}"
                raise JsonTextError(f"a string holds {code} alone, which is no Unicode character") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def json_text(data: object) -> str:
    """``data`` as strict JSON text on one line: ``NaN`` and infinities raise ``ValueError`` (never written).

    >>> json_text({"id": 1, "equity": 0.5})
    '{"id": 1, "equity": 0.5}'
    """
    return json.dumps(data, allow_nan=False)


class Shape(BaseModel):
    """A JSON object of a known shape: strict types, finite numbers, values that do not change once read.

    A shape that refuses unknown fields (``extra="forbid"``) says so with
    :attr:`unknown`, formatted with ``field`` (the unknown field's path) and
    ``name`` (its name).
    """

    model_config = ConfigDict(strict=True, frozen=True, allow_inf_nan=False)
    unknown: ClassVar[str] = ""


@dataclass(frozen=True)
class Says:
    """What to say of any error inside the field (or list item) it annotates.

    ``message`` is formatted with ``where`` (the path of the object that
    holds the field, or the name of the whole), ``field`` (the field's path),
    the field's value (its ``repr``) as ``value_as``, and ``names``.
    """

    message: str
    value_as: str = "value"
    names: dict[str, str] = field(default_factory=dict)


class _RulesFields(Shape):
    model_config = ConfigDict(extra="forbid")
    unknown: ClassVar[str] = N_("{field}: there is no such rule")

    def rules(self) -> Rules:
        """The :class:`~tavola.rules.Rules` these fields give (which checks their values)."""
        return Rules(**self.model_dump())


if TYPE_CHECKING:
    RulesShape = _RulesFields
else:
    RulesShape = create_model(  # one field for each of Rules', of its type and default
        "RulesShape",
        __base__=_RulesFields,
        __doc__="The rules of a game as JSON: each field of :class:`~tavola.rules.Rules`, of its type.",
        **{item.name: (get_type_hints(Rules)[item.name], item.default) for item in dataclasses.fields(Rules)},
    )


_NOT_OF_KIND: dict[tuple[type, ...], str] = {
    # TRANSLATORS: {field} is a field of a JSON record such as games[0].log[3].dice, kept as written.
    (int,): N_("{field}: {value} is not a whole number"),
    (str,): N_("{field}: {value} is not text"),
    (list,): N_("{field}: {value} is not a list"),
    (bool,): N_("{field}: {value} is not bool"),
    (int, float): N_("{field}: {value} is not a whole number or a number"),
    (int, type(None)): N_("{field}: {value} is not a whole number or NoneType"),
}
"""What is said of a value of the wrong kind, by the kinds the field takes (a JSON object apart)."""

_NOT_AN_OBJECT = ("model_type", "model_attributes_type", "dict_type")

_adapters: dict[int, tuple[Any, TypeAdapter[Any]]] = {}
"""The validator of each shape read so far, by the shape's id (with the shape, so the id stays its own)."""


def read_shape(kind: Any, data: object, error: type[TavolaError], whole: str) -> Any:
    """``data`` read as ``kind`` (a :class:`Shape`, or a union of shapes told apart by one field).

    Raises ``error`` for the first thing wrong, its path starting from the
    fields of the whole; ``whole`` names the whole (``"the record"``) where
    there is no field to name.
    """
    cached = _adapters.get(id(kind))
    if cached is None or cached[0] is not kind:
        cached = _adapters[id(kind)] = (kind, TypeAdapter(kind))
    adapter = cached[1]
    try:
        return adapter.validate_python(data)
    except ValidationError as problem:
        raise error(_message(kind, data, problem.errors()[0], whole)) from None


@dataclass
class _Place:
    """Where an error's location leads in the shape and in the data."""

    path: str = ""
    value: object = None
    kind: Any = Any
    owner: type[Shape] | None = None
    says: Says | None = None
    says_where: str = ""
    says_path: str = ""
    says_value: object = None
    discriminator: str | None = None


def _message(kind: Any, data: object, error: ErrorDetails, whole: str) -> str:
    """What to say of one of pydantic's errors: the message of its kind, or its field's :class:`Says`."""
    place = _follow(kind, data, error["loc"])
    path = place.path
    parent, _dot, name = path.rpartition(".")
    missing = _missing_field(error)
    if missing is not None:
        holder = path if error["type"] == "union_tag_not_found" else parent
        return _("{where}: the field {name} is missing").format(where=holder or _(whole), name=repr(missing))
    if error["type"] == "extra_forbidden" and place.owner is not None and place.owner.unknown:
        return _(place.owner.unknown).format(where=parent or _(whole), field=path, name=name)
    if error["type"] in _NOT_AN_OBJECT:
        return _("{where}: expected a JSON object, not {kind}").format(
            where=path or _(whole), kind=type(error["input"]).__name__
        )
    if place.says is not None:
        says = place.says
        value = place.says_value
        if error["type"] == "union_tag_invalid" and isinstance(value, dict) and place.discriminator:
            value = value.get(place.discriminator)
        where = place.says_where or _(whole)
        names = {
            "where": where,
            "field": place.says_path or _(whole),
            says.value_as: repr(value),
            **says.names,
        }
        return _(says.message).format(**names)
    if error["type"] == "value_error":
        reason = str(error.get("ctx", {}).get("error", error["msg"]))
        return _("{where}: {error}").format(where=path or _(whole), error=reason)
    kinds = _kinds(place.kind)
    if kinds not in _NOT_OF_KIND:
        kinds = tuple(kind for kind in kinds if kind is not type(None))
    if error["type"].endswith("_type") and kinds in _NOT_OF_KIND:
        return _(_NOT_OF_KIND[kinds]).format(field=path or _(whole), value=repr(error["input"]))
    return _("{where}: {error}").format(where=path or _(whole), error=error["msg"])


def _missing_field(error: ErrorDetails) -> str | None:
    """The name of the field ``error`` finds missing (the one that tells a union's shapes apart too)."""
    if error["type"] == "union_tag_not_found":
        return str(ast.literal_eval(error.get("ctx", {})["discriminator"]))
    last = error["loc"][-1] if error["loc"] else None
    return last if error["type"] == "missing" and isinstance(last, str) else None


def _follow(kind: Any, data: object, loc: Sequence[int | str]) -> _Place:
    """Follow ``loc`` through the shape ``kind`` and through ``data``, noting the innermost :class:`Says`."""
    place = _Place(value=data)
    kind = _enter(kind, place)
    for part in loc:
        kind = _without_none(kind)
        if isinstance(part, int):
            place.path += f"[{part}]"
            value = place.value
            place.value = (
                value[part] if isinstance(value, list) and -len(value) <= part < len(value) else None
            )
            arguments = get_args(kind)
            kind = _enter(arguments[0] if get_origin(kind) is list and arguments else Any, place, place.path)
        elif isinstance(kind, type) and issubclass(kind, Shape):
            place.owner, place.says = kind, None  # a field says for itself
            holder = place.path
            place.path = f"{place.path}.{part}" if place.path else part
            place.value = place.value.get(part) if isinstance(place.value, dict) else None
            found = kind.model_fields.get(part)
            if found is None:
                kind = Any
            else:
                inner = found.annotation
                kind = _enter(Annotated[inner, *found.metadata] if found.metadata else inner, place, holder)
        elif _is_union(kind):
            members = [member for member in get_args(kind) if _tags(member, place.discriminator) & {part}]
            if members:
                kind = _enter(members[0], place, place.path)
            # otherwise the part names one member of a union of plain kinds: the union stays the kind
        else:
            kind = Any
    place.kind = kind
    return place


def _enter(kind: Any, place: _Place, where: str = "") -> Any:
    """``kind`` without ``Annotated`` around it, noting any :class:`Says` on the way.

    ``where`` is what the :class:`Says` calls ``where``: the path of the
    object holding a field, or a list item's own path.
    """
    while True:
        if get_origin(kind) is Annotated:
            arguments = get_args(kind)
            for item in arguments[1:]:
                if isinstance(item, Says):
                    place.says, place.says_where = item, where
                    place.says_path, place.says_value = place.path, place.value
                discriminator = getattr(item, "discriminator", None)
                if isinstance(discriminator, str):
                    place.discriminator = discriminator
            kind = arguments[0]
        else:
            return kind


def _without_none(kind: Any) -> Any:
    """The other kind of an optional one (``X | None``), to follow a path into; else ``kind``."""
    if _is_union(kind) and type(None) in get_args(kind) and len(get_args(kind)) == 2:
        other = next(member for member in get_args(kind) if member is not type(None))
        return _enter(other, _Place()) if get_origin(other) is Annotated else other
    return kind


def _is_union(kind: Any) -> bool:
    return get_origin(kind) in (Union, types.UnionType)


def _tags(member: Any, discriminator: str | None) -> set[object]:
    """The values of ``discriminator`` that choose ``member`` of a union of shapes."""
    if discriminator is None or not (isinstance(member, type) and issubclass(member, Shape)):
        return set()
    found = member.model_fields.get(discriminator)
    return set(get_args(found.annotation)) if found is not None else set()


def _kinds(kind: Any) -> tuple[type, ...]:
    """The JSON kinds a field takes: ``(int,)``, ``(int, float)``, ``(int, NoneType)``..."""
    members = get_args(kind) if _is_union(kind) else (kind,)
    kinds: list[type] = []
    for member in members:
        while get_origin(member) is Annotated:
            member = get_args(member)[0]
        origin = get_origin(member)
        if origin is Literal:
            found: type = type(get_args(member)[0])
        elif origin is not None:
            found = origin
        elif isinstance(member, type) and issubclass(member, Shape):
            found = dict
        elif member is None:
            found = type(None)
        else:
            found = member
        if found not in kinds:
            kinds.append(found)
    return tuple(kinds)
