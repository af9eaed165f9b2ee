r"""The syntax of SGF, the Smart Game Format: a collection of game trees, each a sequence of nodes.

A node is ``;`` and its properties, each an upper-case name and one or
more ``[values]`` (``\`` escapes the next character; ``\`` before a line
break joins the lines). A game tree is ``(`` its nodes, then its variations
as game trees, then ``)``. :func:`parse_trees` reads each tree's main line
(the first variation wherever there are several) and says where any error
is, by line and column; :func:`value_text` writes a value back.

>>> [main_line] = parse_trees("(;GM[6];W[31hefe](;B[double])(;B[66]))")
>>> [(found.name, found.values) for node in main_line for found in node.properties]
[('GM', ('6',)), ('W', ('31hefe',)), ('B', ('double',))]
>>> parse_trees("(;GM[6];W[31hefe")
Traceback (most recent call last):
tavola.errors.RecordError: line 1, column 10: a value in [ ] is not closed
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from tavola.errors import RecordError
from tavola.i18n import _

__all__ = ["Node", "Property", "parse_trees", "value_text"]


@dataclass(frozen=True)
class Property:
    """A property of a node: its name, its values (unescaped) and the line it starts on."""

    name: str
    values: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Node:
    """A node: the line of its ``;`` and its properties in order, each name at most once."""

    line: int
    properties: tuple[Property, ...]

    def get(self, name: str) -> Property | None:
        """The property called ``name``, if the node has it."""
        return next((found for found in self.properties if found.name == name), None)

    def values(self, name: str) -> tuple[str, ...]:
        """The values of the property called ``name``; none if the node does not have it."""
        found = self.get(name)
        return () if found is None else found.values


_TOKEN = re.compile(
    r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)|(?P<name>[A-Z]+)|(?P<value>\[)|(?P<end>\Z))"
)
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|.)", re.DOTALL)
_LINE_END = re.compile(r"\r\n|\r|\n")
"""A line's end: CR, LF or CRLF, each one line."""


def parse_trees(text: str) -> list[list[Node]]:
    """The main line of each game tree of an SGF collection: its nodes, from the root on.

    Raises :class:`~tavola.errors.RecordError` naming the line and column of
    what does not follow the syntax.
    """
    return _Parser(text).collection()


def value_text(value: str) -> str:
    r"""``value`` written between ``[`` and ``]``: ``]`` and ``\`` escaped.

    >>> value_text("a]b\\c")
    'a\\]b\\\\c'
    """
    return value.replace("\\", "\\\\").replace("]", "\\]")


@dataclass
class _Open:
    """A game tree being read: where its ``(`` is, whether it is on the main line, its variations so far."""

    at: int
    on_main: bool
    children: int = 0


def _unescaped(raw: str) -> str:
    return _ESCAPE.sub(
        lambda found: "" if found.group(1) in ("\n", "\r", "\r\n", "\n\r") else found.group(1), raw
    )


class _Parser:
    """Reads the tokens one after another, the trees nested by a stack rather than by recursion."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.breaks = [found.end() - 1 for found in _LINE_END.finditer(text)]
        """Where each line ends: its LF, its CR or a CRLF's LF (so a CRLF is one line end)."""

    def where(self, at: int) -> str:
        line = bisect.bisect_left(self.breaks, at) + 1
        column = at - (self.breaks[line - 2] if line > 1 else -1)
        return _("line {line}, column {column}").format(line=line, column=column)

    def line(self, at: int) -> int:
        return bisect.bisect_left(self.breaks, at) + 1

    def fail(self, at: int, what: str) -> RecordError:
        return RecordError(f"{self.where(at)}: {what}", self.line(at))

    def token(self) -> tuple[str, int]:
        found = _TOKEN.match(self.text, self.at)
        if found is None:
            at = self.at + len(self.text[self.at :]) - len(self.text[self.at :].lstrip())
            shown = self.text[at : at + 10]
            message = _("expected '(', ';', ')', a property's name in capitals or '[', not {text}")
            raise self.fail(at, message.format(text=repr(shown)))
        kind = found.lastgroup
        assert kind is not None
        start = found.start(kind)
        self.at = found.end()
        return kind, start

    def collection(self) -> list[list[Node]]:
        kind, at = self.token()
        if kind != "open":
            raise self.fail(at, _("an SGF file starts with '(' (a game tree)"))
        lines: list[list[Node]] = []
        while kind == "open":
            lines.append(self.tree(at))
            kind, at = self.token()
        if kind != "end":
            raise self.fail(at, _("expected '(' starting the next game tree, or the end of the file"))
        return lines

    def tree(self, opened: int) -> list[Node]:
        """The main line of the game tree whose ``(`` is at ``opened``; its variations are read past."""
        main: list[Node] = []
        stack = [_Open(opened, on_main=True)]
        kind, at = self.token()
        while True:
            if kind != "node":
                raise self.fail(at, _("a game tree starts with a node (';')"))
            while kind == "node":
                node, (kind, at) = self.node(at)
                if stack[-1].on_main:
                    main.append(node)
            while kind == "close":
                stack.pop()
                if not stack:
                    return main
                kind, at = self.token()
            if kind == "end":
                raise self.fail(stack[-1].at, _("this game tree is not closed by ')'"))
            if kind != "open":
                raise self.fail(at, _("expected '(' or ')' after a game tree's nodes"))
            parent = stack[-1]
            stack.append(_Open(at, on_main=parent.on_main and not parent.children))
            parent.children += 1
            kind, at = self.token()

    def node(self, at: int) -> tuple[Node, tuple[str, int]]:
        properties: list[Property] = []
        kind, start = self.token()
        while kind == "name":
            name = self.text[start : self.at]
            if any(found.name == name for found in properties):
                raise self.fail(start, _("the property {name} appears twice in one node").format(name=name))
            values: list[str] = []
            kind, value_at = self.token()
            if kind != "value":
                raise self.fail(value_at, _("the property {name} has no value in [ ]").format(name=name))
            while kind == "value":
                found = _VALUE.match(self.text, value_at)
                if found is None:
                    raise self.fail(value_at, _("a value in [ ] is not closed"))
                values.append(_unescaped(found.group(1)))
                self.at = found.end()
                kind, value_at = self.token()
            properties.append(Property(name, tuple(values), self.line(start)))
            kind, start = kind, value_at
        if kind == "value":
            raise self.fail(start, _("a value in [ ] follows no property's name"))
        return Node(self.line(at), tuple(properties)), (kind, start)
