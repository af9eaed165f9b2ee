"""Writing gnubg's SGF (see :mod:`tavola.records.sgf` for the format and its limits)."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tavola.actions import (
    Beaver,
    DeclineResignation,
    Double,
    Drop,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
)
from tavola.dice import Dice
from tavola.errors import RecordError
from tavola.files import write_atomically
from tavola.game import Ending, Game
from tavola.i18n import _
from tavola.match import Match, Series, scores_before
from tavola.play import Play
from tavola.position import WinKind
from tavola.records.gamereplay import Note, rules_text
from tavola.records.outcomes import forfeit_points, forfeit_tag, is_tie, raw_win_kind
from tavola.records.sgfformat import FORFEIT, RESIGN, RULES, STAKE, VARIANTS, point_letter
from tavola.records.sgftree import value_text
from tavola.rules import Rules
from tavola.variants import STANDARD

__all__ = ["sgf_text", "write_sgf"]

_COLOURS = ("W", "B")


def write_sgf(
    series: Series, path: str | os.PathLike[str], *, date: str | None = None, comments: Sequence[Note] = ()
) -> None:
    """Save ``series`` as an SGF file, atomically (see :func:`sgf_text`)."""
    write_atomically(path, sgf_text(series, date=date, comments=comments))


def sgf_text(series: Series, *, date: str | None = None, comments: Sequence[Note] = ()) -> str:
    """The SGF text of a match or money session, one game tree a game, as gnubg writes and loads it.

    ``date`` (``DT``) goes in the first game; each comment goes on the node
    after which its game's log holds as many entries as it says (or the
    first node after that). Raises :class:`~tavola.errors.RecordError` for
    what gnubg would read differently (see the module documentation).
    """
    _check_writable(series)
    games: list[Game | None] = [game for game in series.games if _begun(game) or game.is_over] or [None]
    trees = []
    for index, game in enumerate(games):
        notes = [note for note in comments if note.game == index]
        root = _Node(_root(series, index, game, date if index == 0 else None), 0)
        nodes = [root] if game is None else [root, *_GameNodes(game).nodes()]
        trees.append("(" + _with_notes(nodes, notes) + ")")
    return "\n".join(trees) + "\n"


def _begun(game: Game) -> bool:
    """Whether a game has begun: its opening roll is not (only) ties."""
    return any(not (isinstance(entry.action, OpeningRoll) and is_tie(entry.action)) for entry in game.log)


_UNWRITABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _check_writable(series: Series) -> None:
    if series.variant is not STANDARD and series.variant not in VARIANTS.values():
        message = _(
            "an SGF file holds standard backgammon, nackgammon or hypergammon, not {variant}: save it as JSON"
        )
        raise RecordError(message.format(variant=series.variant.name))
    for name in series.players:
        if name != name.strip() or any(unicodedata.category(char) in _UNWRITABLE for char in name):
            message = _(
                "player name {name} cannot be written to an SGF file: "
                "no control characters, line breaks, or spaces at either end"
            )
            raise RecordError(message.format(name=repr(name)))
    rules = series.rules
    for number, game in enumerate(series.games, start=1):
        ties = any(isinstance(entry.action, OpeningRoll) and is_tie(entry.action) for entry in game.log)
        if ties and rules.cube and rules.automatic_doubles:
            message = _(
                "game {number}: a tied opening roll doubled the cube (automatic doubles, M2), which gnubg "
                "would not know reading an SGF file: save it as JSON"
            )
            raise RecordError(message.format(number=number))
        if not rules.gammons and game.outcome is not None and raw_win_kind(game) is not WinKind.SINGLE:
            message = _(
                "game {number}: a gammon or backgammon counted single because these rules have no gammons, "
                "which gnubg would count reading an SGF file: save it as JSON"
            )
            raise RecordError(message.format(number=number))


def _root(series: Series, index: int, game: Game | None, date: str | None) -> str:
    score = scores_before(series, index)
    length = series.length if isinstance(series, Match) else 0
    properties = [
        "FF[4]GM[6]CA[UTF-8]AP[Tavola]",
        f"MI[length:{length}][game:{index}][ws:{score[0]}][bs:{score[1]}]",
        f"PW[{value_text(series.players[0])}]PB[{value_text(series.players[1])}]",
    ]
    if date:
        properties.append(f"DT[{value_text(date)}]")
    rules = _rule_names(series, index)
    if rules:
        properties.append(f"RU[{':'.join(rules)}]")
    if series.rules != _rules_named(series):
        properties.append(f"{RULES}[{rules_text(series.rules)}]")
    if not isinstance(series, Match) and series.stake != 1:
        properties.append(f"{STAKE}[{series.stake!r}]")
    outcome = game.outcome if game is not None else None
    if outcome is not None:
        resigned = "R" if outcome.ending is Ending.RESIGNATION else ""
        points = outcome.points
        if series.forfeited is not None and index == len(series.games) - 1:
            properties.append(f"{FORFEIT}[{value_text(forfeit_tag(series.forfeited))}]")
            points = forfeit_points(series)  # in a match, every point missing: the match ends there too
        properties.append(f"RE[{_COLOURS[outcome.winner]}+{points}{resigned}]")
    return ";" + "".join(properties)


def _rule_names(series: Series, index: int) -> list[str]:
    """The rules as gnubg names them in ``RU``: ``Crawford``, ``CrawfordGame``, ``Jacoby``, the variant."""
    rules, names = series.rules, []
    if isinstance(series, Match):
        names += ["Crawford"] if rules.crawford else []
        names += ["CrawfordGame"] if series.is_crawford_game(index) else []
    elif rules.jacoby:
        names.append("Jacoby")
    names += [] if rules.cube else ["NoCube"]
    names += [name for name, variant in VARIANTS.items() if variant is series.variant]
    return names


def _rules_named(series: Series) -> Rules:
    """The rules a reader gets from ``RU`` alone (money: with no beavers)."""
    rules = series.rules
    if isinstance(series, Match):
        return Rules(cube=rules.cube, crawford=rules.crawford)
    return Rules(cube=rules.cube, jacoby=rules.jacoby)


@dataclass(frozen=True)
class _Node:
    """A node's text, and how many entries of the game's log are done once it is."""

    text: str
    after: int


def _with_notes(nodes: Sequence[_Node], notes: Sequence[Note]) -> str:
    """The nodes, the root first, each note a comment (``C``) on the first node after which its entries
    are done (the last node for those after them all)."""
    waiting = sorted(notes, key=lambda note: note.after)
    texts = []
    for number, node in enumerate(nodes, start=1):
        here = [note for note in waiting if number == len(nodes) or note.after <= node.after]
        waiting = waiting[len(here) :]
        comment = "\n".join(note.text for note in here)
        texts.append(node.text + (f"C[{value_text(comment)}]" if here else ""))
    return "\n".join(texts)


class _GameNodes:
    """Turns a game's log into nodes: a roll and its play, a cube action, a resignation and its answer."""

    def __init__(self, game: Game) -> None:
        self.log = game.log
        self.unplayed: Dice | None = None  # a roll whose play comes after a declined resignation

    def nodes(self) -> Iterator[_Node]:
        index = 0
        while index < len(self.log):
            node, index = self._node(index)
            if node is not None:
                yield node

    def _node(self, index: int) -> tuple[_Node | None, int]:
        """The node of the entry at ``index`` (None for a tied opening roll), and the next entry's index."""
        action, player = self.log[index].action, self.log[index].player or 0
        colour = _COLOURS[player]
        if isinstance(action, OpeningRoll):
            if is_tie(action):
                return None, index + 1
            return self._roll(0 if action.dice[0] > action.dice[1] else 1, Dice(*action.dice), index)
        if isinstance(action, Roll):
            assert action.dice is not None
            return self._roll(player, action.dice, index)
        if isinstance(action, Played):
            assert self.unplayed is not None
            return _Node(f";{colour}[{_play(player, self.unplayed, action.play)}]", index + 1), index + 1
        if isinstance(action, Double | Beaver) or self._beavers_automatically(index):
            done = index + 1 if isinstance(action, Double | Beaver) else index + 2
            return _Node(f";{colour}[double]", done), done
        if isinstance(action, Take | Drop):
            return _Node(f";{colour}[{'take' if isinstance(action, Take) else 'drop'}]", index + 1), index + 1
        if isinstance(action, Resign):
            answer = self.log[index + 1].action if index + 1 < len(self.log) else None
            declined = ":declined" if isinstance(answer, DeclineResignation) else ""
            done = index + 1 if answer is None else index + 2
            return _Node(f";{RESIGN}[{colour}:{action.kind.name.lower()}{declined}]", done), done
        raise AssertionError(f"unexpected {action!r} in a game's log")  # pragma: no cover

    def _roll(self, player: int, dice: Dice, index: int) -> tuple[_Node, int]:
        """A roll and its play, or ``PL`` and ``DI`` for a roll not played (yet)."""
        following = self.log[index + 1].action if index + 1 < len(self.log) else None
        if isinstance(following, Played):
            return _Node(f";{_COLOURS[player]}[{_play(player, dice, following.play)}]", index + 2), index + 2
        self.unplayed = dice
        return _Node(f";PL[{_COLOURS[player]}]DI[{dice.high}{dice.low}]", index + 1), index + 1

    def _beavers_automatically(self, index: int) -> bool:
        """Whether the entry at ``index`` is a take that beavers (M6): written as the beaver it is."""
        entry = self.log[index]
        after = self.log[index + 1] if index + 1 < len(self.log) else None
        return (
            isinstance(entry.action, Take)
            and after is not None
            and isinstance(after.action, Beaver)
            and after.player == entry.player
        )


def _play(player: int, dice: Dice, play: Play) -> str:
    """A roll and its play as gnubg writes them: the dice, then each die's move as two letters.

    >>> from tavola import Position
    >>> _play(0, Dice(3, 1), Position.start().parse_play(Dice(3, 1), "8/5 6/5"))
    '31hefe'
    """
    return f"{dice.high}{dice.low}" + "".join(
        point_letter(player, move.source) + point_letter(player, move.destination) for move in play.moves
    )
