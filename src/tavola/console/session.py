"""A game at the terminal as data: the match or session, who sits where, how the board looks.

:class:`PlaySession` holds everything ``tavola play`` needs to carry on after
a crash: the series (a :class:`~tavola.match.Match` or
:class:`~tavola.match.MoneySession`, saved as Tavola's JSON record, every
action replayed through the rules on load), the two seats (a person, or the
bot at a level), the view settings, the dice source's kind and the checkers
moved so far in a turn not yet committed (the series and that turn are read by
:mod:`tavola.records.autosave`). :meth:`PlaySession.save` writes it
atomically, so an interrupted write never spoils the last good save.

>>> import tempfile
>>> from tavola.match import Match
>>> from tavola.dicesource import RandomDice
>>> session = PlaySession(Match(3, dice=RandomDice(seed=3), players=("Ann", "Tavola")),
...                       (Seat("Ann"), Seat("Tavola", bot_level="advanced")))
>>> session.series.new_game().roll()
Dice(5, 2)
>>> with tempfile.TemporaryDirectory() as folder:
...     session.save(Path(folder) / "play.json")
...     again = PlaySession.load(Path(folder) / "play.json")
>>> again.series.game.dice, again.seats[1]
(Dice(5, 2), Seat(name='Tavola', bot_level='advanced'))
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from tavola.dicesource import DiceSource, ManualDice, RandomDice
from tavola.errors import RecordError, TavolaError
from tavola.files import write_atomically
from tavola.i18n import _
from tavola.match import Series
from tavola.records import to_json
from tavola.records.autosave import VERSION, autosave_series, check_autosave
from tavola.records.formats import AUTOSAVE_FORMAT, read_json_file
from tavola.render import Home
from tavola.table.seats import Seat

__all__ = ["PlaySession", "Seat", "View"]

DiceKind = Literal["random", "manual"]


@dataclass(frozen=True)
class View:
    """How the board is drawn (R3): where the home board is, and the two sides' colours."""

    home: Home = "right"
    colors: tuple[str, str] = ("white", "red")
    """The colours of seat 0's and seat 1's checkers."""


@dataclass
class PlaySession:
    """A match or money session with its seats, view and dice, ready to save and resume."""

    series: Series
    seats: tuple[Seat, Seat]
    view: View = field(default_factory=View)
    dice_kind: DiceKind = "random"
    manual_dice: ManualDice | None = None
    """Where typed dice go when ``dice_kind`` is manual (the series rolls from it)."""

    def __post_init__(self) -> None:
        if len(self.seats) != 2:
            raise TavolaError(_("a game has two seats, not {count}").format(count=len(self.seats)))

    # --- saving ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The session as one JSON object (the series as Tavola's JSON record)."""
        game = self.series.game
        turn = game.turn if game is not None else None
        return {
            "format": AUTOSAVE_FORMAT,
            "version": VERSION,
            "seats": [asdict(seat) for seat in self.seats],
            "view": {"home": self.view.home, "colors": list(self.view.colors)},
            "dice": self.dice_kind,
            "turn": [str(move) for move in turn.moves] if turn is not None else [],
            "record": to_json(self.series),
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the session to ``path`` atomically (a temporary file renamed over it)."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, seed: int | None = None) -> PlaySession:
        """Read a saved session; later rolls come from OS entropy, or ``seed``, or typed dice."""
        try:
            data = read_json_file(path)
        except FileNotFoundError:
            raise RecordError(_("{path}: there is no saved game here").format(path=path)) from None
        try:
            return cls.from_json(data, seed=seed)
        except RecordError as error:
            raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None

    @classmethod
    def from_json(cls, data: object, *, seed: int | None = None) -> PlaySession:
        """The session a JSON object holds (see :meth:`to_json`); errors name the field."""
        check_autosave(data)
        assert isinstance(data, dict)  # as check_autosave says
        seats = _seats(data.get("seats"))
        view = _view(data.get("view"))
        dice_kind = data.get("dice")
        if dice_kind not in ("random", "manual"):
            raise RecordError(_("dice: 'random' or 'manual', not {dice}").format(dice=repr(dice_kind)))
        manual = ManualDice() if dice_kind == "manual" else None
        source: DiceSource = manual if manual is not None else RandomDice(seed)
        return cls(autosave_series(data, dice=source), seats, view, dice_kind, manual)


def _seats(data: object) -> tuple[Seat, Seat]:
    if not isinstance(data, list) or len(data) != 2:
        raise RecordError(_("seats: a list of two seats, not {seats}").format(seats=repr(data)))
    seats = []
    for index, seat in enumerate(data):
        if (
            not isinstance(seat, dict)
            or not isinstance(seat.get("name"), str)
            or not isinstance(seat.get("bot_level"), str | None)
        ):
            raise RecordError(
                # TRANSLATORS: the JSON names stay as written; {{ and }} are single braces.
                _("seats[{index}]: {{'name': str, 'bot_level': str or null}}, not {seat}").format(
                    index=index, seat=repr(seat)
                )
            )
        seats.append(Seat(seat["name"], seat["bot_level"]))
    return seats[0], seats[1]


def _view(data: object) -> View:
    if not isinstance(data, dict):
        raise RecordError(_("view: an object with home and colors, not {view}").format(view=repr(data)))
    home, colors = data.get("home"), data.get("colors")
    if home not in ("right", "left"):
        raise RecordError(_("view.home: 'right' or 'left', not {home}").format(home=repr(home)))
    if not isinstance(colors, list) or len(colors) != 2 or not all(isinstance(c, str) for c in colors):
        raise RecordError(_("view.colors: two colour names, not {colors}").format(colors=repr(colors)))
    return View(home, (colors[0], colors[1]))
