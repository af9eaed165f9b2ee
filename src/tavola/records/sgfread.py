"""Reading gnubg's SGF by replaying it through the game (see :mod:`tavola.records.sgf`)."""

from __future__ import annotations

import codecs
import dataclasses
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Ending, Game
from tavola.i18n import _
from tavola.match import Match, MoneySession, Series
from tavola.position import WinKind
from tavola.records.gamereplay import (
    Cell,
    GameText,
    Note,
    longest_beaver_chain,
    parse_rules,
    read_stake,
    replay_forfeited,
    replay_games,
)
from tavola.records.outcomes import read_forfeit_tag
from tavola.records.replay import ReplayDice
from tavola.records.sgfformat import FORFEIT, RESIGN, RULES, STAKE, VARIANTS, letter_point
from tavola.records.sgftree import Node, Property, parse_trees
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant

__all__ = ["SgfRecord", "parse_sgf", "parse_sgf_record", "read_sgf", "read_sgf_record"]


@dataclass(frozen=True)
class SgfRecord:
    """What an SGF file holds besides the play: the series, its date (``DT``) and its comments.

    Each comment is a :class:`~tavola.records.gamereplay.Note`: the game, how
    many entries of its log came before it, and the text.
    """

    series: Series
    date: str | None = None
    comments: tuple[Note, ...] = ()


def read_sgf(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """The match or session in an SGF file (see :func:`parse_sgf`); errors name the file and the line."""
    return read_sgf_record(path, dice=dice).series


def read_sgf_record(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> SgfRecord:
    """The record in an SGF file, with its date and comments; errors name the file and the line."""
    try:
        return parse_sgf_record(_decoded(Path(path).read_bytes()), dice=dice)
    except RecordError as error:
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None


def parse_sgf(text: str, *, dice: DiceSource | None = None) -> Series:
    """The match or money session an SGF text records, replayed through the game API.

    Each game tree is a game; every move, cube action and resignation is made
    with the game's own methods and every result and score is checked
    against the replay, so a file that breaks the rules raises
    :class:`~tavola.errors.RecordError` naming the line. Once replayed, the
    series rolls with ``dice``.
    """
    return parse_sgf_record(text, dice=dice).series


def parse_sgf_record(text: str, *, dice: DiceSource | None = None) -> SgfRecord:
    """The record an SGF text holds: the series (see :func:`parse_sgf`), its date and its comments."""
    trees = parse_trees(text.removeprefix("\ufeff"))
    roots = [_Root(tree[0]) for tree in trees]
    first = roots[0]
    games = [
        _game_text(index, tree, root, first)
        for index, (tree, root) in enumerate(zip(trees, roots, strict=True))
    ]
    if games and not games[-1].cells:
        games.pop()  # a game not begun: no roll yet
    manual = ManualDice()
    series = _series(first, games, ReplayDice(manual, dice))
    forfeited = roots[len(games) - 1] if games and roots[len(games) - 1].forfeit is not None else None
    if forfeited is not None:
        assert forfeited.forfeit is not None
        comments = replay_forfeited(series, manual, games, forfeited.forfeit, forfeited.node.line)
    else:
        comments = replay_games(series, manual, games)
    for game, root in zip(series.games, roots, strict=False):
        root.check_result(game)
    notes = [Note(index, 0, root.comment) for index, root in enumerate(roots[: len(games)]) if root.comment]
    return SgfRecord(series, first.date, tuple(sorted([*notes, *comments], key=lambda note: note.game)))


def _decoded(raw: bytes) -> str:
    """The text of an SGF file, in the character set its ``CA`` names (UTF-8 or Latin-1 without one)."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in raw[:200]:
        raise RecordError(_("the file is UTF-16 text (or not text at all): save it as UTF-8 to read it"))
    charset = re.search(rb"CA\s*\[([-\w.:]{1,40})\]", raw[:4000])
    if charset is not None:
        name = charset.group(1).decode("ascii")
        try:
            return raw.decode(name)
        except LookupError:
            raise RecordError(_("CA[{name}]: no character set Tavola knows").format(name=name)) from None
        except UnicodeDecodeError as error:
            message = _("byte {offset}: not {name} text, as CA[{name}] says")
            raise RecordError(message.format(offset=error.start, name=name)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_NUMBER = re.compile(r"\d{1,18}")
_RESULT = re.compile(r"(?P<winner>[WB])\+(?P<points>\d{1,18})(?P<resigned>R?)")
_ROLL = re.compile(r"(?P<dice>[1-6]{2})(?P<moves>(?:[a-z][a-z]){0,4})")
_RESIGNATION = re.compile(r"(?P<player>[WB]):(?P<kind>single|gammon|backgammon)(?P<declined>:declined)?")
_SETUP = ("AB", "AW", "AE", "CP", "CV")
"""Properties that set up a position rather than play to it: the checkers, the cube's owner and value."""
_PLAYERS = {"W": 0, "B": 1}
_RULES = frozenset({"Crawford", "CrawfordGame", "Jacoby", "NoCube", *VARIANTS})
"""The rules gnubg names in ``RU``."""


@dataclass(frozen=True)
class _Result:
    """A game's ``RE``: the winner, the points, whether by a resignation, and its line."""

    winner: int
    points: int
    resigned: bool
    line: int


class _Root:
    """What a game tree's root says of its game: match, score, players, rules, result."""

    def __init__(self, node: Node) -> None:
        self.node = node
        game = node.get("GM")
        if game is None or game.values != ("6",):
            shown = "" if game is None else "GM[" + "][".join(game.values) + "]"
            message = _("line {line}: {found}: expected GM[6], a game of backgammon")
            found = shown or _("no GM property")
            raise RecordError(message.format(line=node.line, found=found), node.line)
        info = {
            key.lower(): value for key, _sep, value in (item.partition(":") for item in node.values("MI"))
        }
        self.length = self._number(node.get("MI"), info.get("length", "0"))
        white, black = info.get("ws"), info.get("bs")
        self.score: tuple[int, int] | None = None
        if white is not None and black is not None:
            self.score = (self._number(node.get("MI"), white), self._number(node.get("MI"), black))
        self.names = (self._name("PW"), self._name("PB"))
        self.date = self._text("DT") or None
        self.comment = self._text("C") or None
        named = [token for token in self._text("RU").split(":") if token]
        self.rules = set(named)
        self._check_rules()
        self._variant = self._named_variant(named)
        self._check_cube()
        self.result = self._result()
        forfeited = node.get(FORFEIT)
        self.forfeit = None if forfeited is None else read_forfeit_tag(forfeited.values[0], forfeited.line)
        """The forfeit that ended the series, in its last game's root (``XF``)."""

    def _name(self, name: str) -> str | None:
        return _simple(self._text(name)) if self.node.get(name) else None

    def _text(self, name: str) -> str:
        values = self.node.values(name)
        return values[0] if values else ""

    def _number(self, found: Property | None, text: str) -> int:
        if _NUMBER.fullmatch(text.strip()) is None:
            line = found.line if found else self.node.line
            message = _("line {line}: MI: expected a whole number, not {text}")
            raise RecordError(message.format(line=line, text=repr(text)), line)
        return int(text)

    def _result(self) -> _Result | None:
        found = self.node.get("RE")
        if found is None:
            return None
        result = _RESULT.fullmatch(found.values[0].strip())
        if result is None:
            message = _("line {line}: RE[{text}]: expected the winner and the points, such as W+2 or B+1R")
            raise RecordError(message.format(line=found.line, text=found.values[0]), found.line)
        winner, points = _PLAYERS[result.group("winner")], int(result.group("points"))
        return _Result(winner, points, bool(result.group("resigned")), found.line)

    def variant(self) -> Variant:
        return self._variant

    def _named_variant(self, named: Sequence[str]) -> Variant:
        """The variant ``RU`` names (the standard game where it names none); two are refused."""
        variants = list(dict.fromkeys(token for token in named if token in VARIANTS))
        if len(variants) > 1:
            found = self.node.get("RU")
            assert found is not None
            message = _("line {line}: RU names two variants, {first} and {second}: a game is played as one")
            raise RecordError(
                message.format(line=found.line, first=variants[0], second=variants[1]), found.line
            )
        return VARIANTS[variants[0]] if variants else STANDARD

    def _check_cube(self) -> None:
        """Refuse a root's ``CV`` above 1: gnubg's automatic doubles, a cube Tavola cannot start a game at."""
        found = self.node.get("CV")
        if found is None or found.values[0].strip() == "1":
            return
        value = found.values[0]
        message = _(
            "line {line}: CV[{value}]: the game starts with the cube at {value} (gnubg's automatic "
            "doubles), which Tavola cannot replay a game from"
        )
        raise RecordError(message.format(line=found.line, value=value), found.line)

    def _check_rules(self) -> None:
        unknown = sorted(self.rules - _RULES)
        if unknown:
            found = self.node.get("RU")
            assert found is not None
            message = _("line {line}: RU: Tavola does not know the rule {rule} (it knows {known})")
            rule, names = repr(unknown[0]), ", ".join(sorted(_RULES))
            raise RecordError(message.format(line=found.line, rule=rule, known=names), found.line)

    def check_result(self, game: Game) -> None:
        """Check that the result says how the game ended: ``R`` after a resignation, and only then."""
        outcome = game.outcome
        if self.result is None or outcome is None:
            return
        line = self.result.line
        if self.result.resigned != (outcome.ending is Ending.RESIGNATION):
            if self.result.resigned:
                message = _(
                    "line {line}: RE: the result says a resignation (R), but the game ended otherwise"
                )
            else:
                message = _(
                    "line {line}: RE: the game ended by a resignation, which the result writes with R"
                )
            raise RecordError(message.format(line=line), line)


def _simple(text: str) -> str:
    """SGF simple text: every line break and tab is a space."""
    return re.sub(r"[\r\n\t\v\f]", " ", text)


def _series(first: _Root, games: Sequence[GameText], dice: ReplayDice) -> Series:
    names = (first.names[0] or "Player 0", first.names[1] or "Player 1")
    line = first.node.line
    try:
        rules = _rules(first, games)
        if first.length:
            return Match(first.length, rules, dice, players=names, variant=first.variant())
        return MoneySession(rules, dice, stake=_stake(first), players=names, variant=first.variant())
    except RecordError:
        raise
    except TavolaError as error:
        raise RecordError(_("line {line}: {error}").format(line=line, error=error), line) from None


def _rules(first: _Root, games: Sequence[GameText]) -> Rules:
    """The rules: Tavola's ``XR`` where the file has it, else gnubg's ``RU`` (money: the beavers played)."""
    written = first.node.get(RULES)
    if written is not None:
        return parse_rules(written.line, written.values[0])
    cube = "NoCube" not in first.rules
    if first.length:
        return Rules(cube=cube, crawford="Crawford" in first.rules)
    return Rules(cube=cube, jacoby="Jacoby" in first.rules, beavers=longest_beaver_chain(games))


def _stake(first: _Root) -> float:
    written = first.node.get(STAKE)
    if written is None:
        return 1.0
    return read_stake(written.values[0].strip(), written.line)


def _game_text(index: int, nodes: Sequence[Node], root: _Root, first: _Root) -> GameText:
    if index and (root.length, root.variant()) != (first.length, first.variant()):
        message = _("line {line}: game {number} is not played as game 1 is (match length and variant)")
        raise RecordError(message.format(line=root.node.line, number=index + 1), root.node.line)
    names = (root.names[0] or first.names[0] or "Player 0", root.names[1] or first.names[1] or "Player 1")
    crawford = "CrawfordGame" in root.rules
    cells = _Cells().read(nodes[1:])
    if root.result is not None:
        text = f"RE[{root.node.values('RE')[0]}]"
        cells.append(Cell(root.result.line, root.result.winner, text, "wins", value=root.result.points))
    return GameText(
        index + 1, root.node.line, root.node.line, names, root.score, crawford, cells, result_required=False
    )


class _Cells:
    """Turns a game's nodes into cells: a ``double`` while a double waits is a beaver."""

    def __init__(self) -> None:
        self.offered = False

    def read(self, nodes: Sequence[Node]) -> list[Cell]:
        cells: list[Cell] = []
        for node in nodes:
            cell = self._cell(node)
            note = next(iter(node.values("C")), None)
            if cell is None and note is not None:
                cell = Cell(node.line, 0, "C[...]", "note")
            if cell is not None:
                cells.append(dataclasses.replace(cell, note=note))
        return cells

    def _cell(self, node: Node) -> Cell | None:
        for name in _SETUP:
            found = node.get(name)
            if found is not None:
                message = _(
                    "line {line}: {name}[...] sets up a position, which Tavola cannot replay a game to"
                )
                raise RecordError(message.format(line=found.line, name=name), found.line)
        moves = [found for found in (node.get("W"), node.get("B")) if found is not None]
        if len(moves) > 1:
            message = _("line {line}: a node holds one player's move, not both W and B")
            raise RecordError(message.format(line=node.line), node.line)
        if moves:
            return self._move(moves[0])
        resigned = node.get(RESIGN)
        if resigned is not None:
            return self._resignation(resigned)
        rolled = node.get("DI")
        if rolled is not None:
            return self._rolled(node, rolled)
        return None

    def _move(self, found: Property) -> Cell:
        player, value = _PLAYERS[found.name], found.values[0].strip()
        text = f"{found.name}[{value}]"
        if value in ("double", "take", "drop"):
            kind = "beaver" if value == "double" and self.offered else value
            self.offered = value == "double"
            return Cell(found.line, player, text, kind)
        roll = _ROLL.fullmatch(value)
        if roll is None:
            message = _(
                "line {line}: {text}: expected a roll and its moves (W[31hefe]), double, take or drop"
            )
            raise RecordError(message.format(line=found.line, text=text), found.line)
        self.offered = False
        letters = roll.group("moves")
        moves = " ".join(
            f"{letter_point(player, letters[at])}/{letter_point(player, letters[at + 1])}"
            for at in range(0, len(letters), 2)
        )
        return Cell(found.line, player, text, "roll", _dice(roll.group("dice")), moves)

    def _resignation(self, found: Property) -> Cell:
        offered = _RESIGNATION.fullmatch(found.values[0].strip())
        text = f"{found.name}[{found.values[0]}]"
        if offered is None:
            message = _("line {line}: {text}: expected who resigns and what, such as {example}")
            raise RecordError(message.format(line=found.line, text=text, example="XO[W:gammon]"), found.line)
        kind = WinKind[offered.group("kind").upper()]
        player = _PLAYERS[offered.group("player")]
        return Cell(found.line, player, text, "resign", win_kind=kind, flag=bool(offered.group("declined")))

    def _rolled(self, node: Node, found: Property) -> Cell:
        """Dice set with ``DI`` and ``PL``: a roll not played (yet)."""
        value = found.values[0].strip()
        player = node.get("PL")
        text = f"DI[{value}]"
        if player is None or player.values[0].strip() not in _PLAYERS or not re.fullmatch(r"[1-6]{2}", value):
            message = _(
                "line {line}: {text}: expected dice such as DI[52] with the player who rolled, PL[W] or PL[B]"
            )
            raise RecordError(message.format(line=found.line, text=text), found.line)
        self.offered = False
        return Cell(found.line, _PLAYERS[player.values[0].strip()], text, "roll", _dice(value), None)


def _dice(text: str) -> Dice:
    return Dice(int(text[0]), int(text[1]))
