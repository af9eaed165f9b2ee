"""Writing ``.mat`` files (see :mod:`tavola.records.mat` for the format and its limits)."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from tavola.actions import (
    AcceptResignation,
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
from tavola.game import Game
from tavola.i18n import _
from tavola.match import Match, Series, scores_before
from tavola.play import Play
from tavola.position import WinKind
from tavola.records.gamereplay import rules_text
from tavola.records.matformat import RIGHT_START, VARIATIONS
from tavola.records.outcomes import forfeit_points, forfeit_tag, is_tie, raw_win_kind
from tavola.rules import Rules
from tavola.variants import STANDARD

__all__ = ["mat_text", "unwritable_in_mat", "write_mat"]


# --- writing -----------------------------------------------------------------------


def write_mat(series: Series, path: str | os.PathLike[str]) -> None:
    """Save ``series`` as a ``.mat`` file, atomically (see :func:`mat_text`)."""
    write_atomically(path, mat_text(series))


def mat_text(series: Series) -> str:
    """The ``.mat`` text of a match or money session.

    Raises :class:`RecordError` for what the format cannot hold (see the
    module documentation) rather than writing something other programs
    would read differently.
    """
    _check_writable(series)
    lines = _header(series)
    for index, game in enumerate(series.games):
        lines += ["", f" Game {index + 1}", _score_line(series, index)]
        lines += _layout(_cells(series, index, game))
    return "\n".join(lines) + "\n"


_UNWRITABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Kinds of character a name in a ``.mat`` file never holds: controls (tabs, NUL, U+001C, U+0085, which
end a line as Python reads one), lone surrogates, and line and paragraph separators."""


def unwritable_in_mat(character: str) -> bool:
    """Whether a player's name holding ``character`` cannot be written to a ``.mat`` file and read back:
    ``:`` (which ends a name there), a control, a line break, a lone surrogate.

    >>> unwritable_in_mat(":"), unwritable_in_mat("\u2028"), unwritable_in_mat("é")
    (True, True, False)
    """
    return character == ":" or unicodedata.category(character) in _UNWRITABLE


def _check_writable(series: Series) -> None:
    if series.variant not in VARIATIONS.values():
        message = _(
            "a .mat file holds standard backgammon, nackgammon or hypergammon, not {variant}: save it as JSON"
        )
        raise RecordError(message.format(variant=series.variant.name))
    for name in series.players:
        if name != name.strip() or any(unwritable_in_mat(char) for char in name):
            message = _(
                "player name {name} cannot be written to a .mat file: "
                "no ':', control characters, line breaks, or spaces at either end"
            )
            raise RecordError(message.format(name=repr(name)))
    for number, game in enumerate(series.games, start=1):
        _check_game_writable(series.rules, number, game)


def _check_game_writable(rules: Rules, number: int, game: Game) -> None:
    ties = sum(1 for entry in game.log if isinstance(entry.action, OpeningRoll) and is_tie(entry.action))
    if ties and rules.cube and rules.automatic_doubles:
        message = _(
            "game {number}: a tied opening roll doubled the cube (automatic doubles, M2), which a .mat "
            "file cannot show (other programs would start the game at 1): save it as JSON"
        )
        raise RecordError(message.format(number=number))
    if not rules.gammons and game.outcome is not None and raw_win_kind(game) is not WinKind.SINGLE:
        if raw_win_kind(game) is WinKind.GAMMON:
            message = _(
                "game {number}: a gammon counted single because these rules have no gammons, "
                "which other programs reading a .mat file would not know: save it as JSON"
            )
        else:
            message = _(
                "game {number}: a backgammon counted single because these rules have no gammons, "
                "which other programs reading a .mat file would not know: save it as JSON"
            )
        raise RecordError(message.format(number=number))


def _header(series: Series) -> list[str]:
    rules = series.rules
    tags = [("Player 1", series.players[0]), ("Player 2", series.players[1])]
    if series.variant is not STANDARD:
        tags.append(("Variation", next(key for key, value in VARIATIONS.items() if value == series.variant)))
    if isinstance(series, Match):
        tags.append(("Crawford", _on(rules.crawford)))
        plain = Rules(crawford=rules.crawford)
        length = series.length
    else:
        tags += [("Jacoby", _on(rules.jacoby)), ("Beaver", _on(bool(rules.beavers)))]
        tags.append(("Stake", repr(series.stake)))
        plain = Rules(jacoby=rules.jacoby, beavers=min(rules.beavers, 1))
        length = 0
    if rules != plain:
        tags.append(("Rules", rules_text(rules)))
    if series.forfeited is not None:
        tags.append(("Forfeit", forfeit_tag(series.forfeited)))
    return [*(f'; [{key} "{value}"]' for key, value in tags), "", f" {length} point match"]


def _on(value: bool) -> str:
    return "On" if value else "Off"


def _score_line(series: Series, index: int) -> str:
    score = scores_before(series, index)
    left = f"{series.players[0]} : {score[0]}"
    left = left.ljust(31) if len(left) < 30 else left + "  "
    crawford = isinstance(series, Match) and series.is_crawford_game(index)
    return f" {left}{series.players[1]} : {score[1]}" + (" (Crawford)" if crawford else "")


@dataclass(frozen=True)
class _Cell:
    """One entry in a player's column: a roll and its play, a cube action, a resignation or a win."""

    player: int
    text: str
    wins: bool = False


def _cells(series: Series, index: int, game: Game) -> list[_Cell]:
    cells = _GameWriter(game).cells()
    outcome = game.outcome
    if outcome is not None:
        points = outcome.points
        if series.forfeited is not None and index == len(series.games) - 1:
            points = forfeit_points(series)
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        if isinstance(series, Match) and series.is_over and index == len(series.games) - 1:
            text += " and the match"
        cells.append(_Cell(outcome.winner, text, wins=True))
    return cells


class _GameWriter:
    """Turns a game's log into cells, following the cube as it goes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.log = game.log
        self.out: list[_Cell] = []
        self.cube = 1
        self.unplayed: Dice | None = None  # a roll whose play comes after a declined resignation

    def cells(self) -> list[_Cell]:
        index = 0
        while index < len(self.log):
            index = self._entry(index)
        return self.out

    def _entry(self, index: int) -> int:
        entry = self.log[index]
        action = entry.action
        if isinstance(action, OpeningRoll):
            if is_tie(action):
                return index + 1
            mover = 0 if action.dice[0] > action.dice[1] else 1
            return self._roll(mover, Dice(*action.dice), index + 1)
        if isinstance(action, Roll):
            assert action.dice is not None
            return self._roll(entry.player, action.dice, index + 1)
        if isinstance(action, Double):
            return self._cube_action(entry.player, index)
        if isinstance(action, Resign):
            return self._resignation(entry.player, action.kind, index)
        if isinstance(action, Played) and self.unplayed is not None:
            if _is_forced(action.play) and index + 1 < len(self.log):
                self.unplayed = None
                return index + 1  # played when the other player acts: gnubg reads "53:" so
            return self._roll(entry.player, self.unplayed, index)
        raise AssertionError(f"unexpected {action!r} in a game's log")  # pragma: no cover

    def _roll(self, player: int, dice: Dice, index: int) -> int:
        following = self.log[index].action if index < len(self.log) else None
        if isinstance(following, Played):
            self.out.append(_Cell(player, f"{dice}: {_moves_text(following.play)}".rstrip()))
            self.unplayed = None
            return index + 1
        self.unplayed = dice
        turn = self.game.turn
        unplayable = following is None and turn is not None and turn.legal[0].is_pass
        self.out.append(_Cell(player, f"{dice}: ???" if unplayable else f"{dice}:"))
        return index

    def _cube_action(self, player: int, index: int) -> int:
        """A double, the redoubles after it (beavers, raccoons) and the answer, as gnubg reads them."""
        offer = self.cube * 2
        self.out.append(_Cell(player, f" Doubles => {offer}"))
        redoublers, index = self._redoubles(index + 1)
        offer *= 2 ** len(redoublers)
        answer = self.log[index] if index < len(self.log) else None
        implied_take = (
            answer is not None
            and isinstance(answer.action, Take)
            and index + 1 < len(self.log)
            and isinstance(self.log[index + 1].action, Roll)
        )
        for number, redoubler in enumerate(redoublers, start=1):
            name = "Beavers" if implied_take or number < len(redoublers) else "Raccoons"
            self.out.append(_Cell(redoubler, f" {name} => {offer >> (len(redoublers) - number)}"))
        if answer is None:
            return index
        if isinstance(answer.action, Take):
            self.cube = offer
            if not (redoublers and implied_take):
                self.out.append(_Cell(answer.player, " Takes"))
        else:
            assert isinstance(answer.action, Drop), answer
            self.out.append(_Cell(answer.player, " Drops"))
        return index + 1

    def _redoubles(self, index: int) -> tuple[list[int], int]:
        """Who redoubled, in turn, from ``index`` on, and the index after the last redouble."""
        redoublers: list[int] = []
        while index < len(self.log):
            step = self._redouble_at(index)
            if step is None:
                break
            redoublers.append(self.log[index].player)
            index += step
        return redoublers, index

    def _redouble_at(self, index: int) -> int | None:
        """How many log entries the redouble at ``index`` takes (a beaver 1, an automatic one 2), if any."""
        entry = self.log[index]
        if isinstance(entry.action, Beaver):
            return 1
        after = self.log[index + 1] if index + 1 < len(self.log) else None
        if isinstance(entry.action, Take) and after and isinstance(after.action, Beaver):
            return 2 if after.player == entry.player else None  # an automatic beaver (M6)
        return None

    def _resignation(self, player: int, kind: WinKind, index: int) -> int:
        answer = self.log[index + 1].action if index + 1 < len(self.log) else None
        name = kind.name.lower()
        if isinstance(answer, DeclineResignation):
            self.out.append(_Cell(player, f" Resigns {name} (declined)"))
            return index + 2
        if answer is None:
            self.out.append(_Cell(player, f" Resigns {name}"))
            return index + 1
        assert isinstance(answer, AcceptResignation)
        outcome = self.game.outcome
        if outcome is not None and outcome.kind is not kind:  # the points would not tell what was offered
            self.out.append(_Cell(player, f" Resigns {name}"))
        return index + 2


def _is_forced(play: Play) -> bool:
    """Whether ``play`` was the only legal play of its roll (the pass included)."""
    return len(play.before.legal_plays(play.dice)) == 1


def _moves_text(play: Play) -> str:
    """A play as gnubg writes it in .mat files: every die's move, bar 25, off 0.

    >>> from tavola import Position
    >>> _moves_text(Position.start().parse_play(Dice(6, 4), "24/14"))
    '24/18 18/14'
    """
    return " ".join(f"{move.source}/{move.destination}{'*' if move.hit else ''}" for move in play.moves)


def _layout(cells: Sequence[_Cell]) -> list[str]:
    """Lay the cells out in numbered lines, player 0 on the left, as gnubg does."""
    lines: list[str] = []
    row: list[str | None] = [None, None]

    def flush() -> None:
        if row != [None, None]:
            lines.append(_row_text(len([line for line in lines if ")" in line[:5]]) + 1, row[0], row[1]))
            row[:] = [None, None]

    for cell in cells:
        if cell.wins and not (cell.player == 1 and row[0] is not None):
            flush()
            lines.append(" " * (6 if cell.player == 0 else RIGHT_START + 1) + cell.text)
        elif cell.player == 0:
            flush()
            row[0] = cell.text
        else:
            row[1] = cell.text
            flush()
    flush()
    return lines


def _row_text(number: int, left: str | None, right: str | None) -> str:
    text = f"{number:3d}) {left or ''}"
    if right is not None:
        text = text + "  " if len(text) >= RIGHT_START - 1 else text.ljust(RIGHT_START)
        text += right
    return text.rstrip()
