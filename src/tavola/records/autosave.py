"""The match or session in ``tavola play``'s autosave.

The autosave is one JSON object: its ``format`` and ``version``, the seats,
the view and the kind of dice (which the terminal reads:
:class:`~tavola.console.session.PlaySession`), the series as Tavola's JSON
record (``record``, :mod:`tavola.records.jsonfmt`) and the checkers moved in
the turn not yet committed (``turn``). Reading the series replays the record
and makes those moves.

>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> from tavola.records.jsonfmt import to_json
>>> match = Match(3, dice=RandomDice(seed=3))
>>> match.new_game().roll()
Dice(5, 2)
>>> saved = {"format": "tavola-play", "version": 1, "record": to_json(match), "turn": ["13/8"]}
>>> series = autosave_series(saved)
>>> [str(move) for move in series.game.turn.moves]
['13/8']
"""

from __future__ import annotations

from tavola.dicesource import DiceSource
from tavola.errors import RecordError, TavolaError
from tavola.i18n import _
from tavola.match import Series
from tavola.records.formats import AUTOSAVE_FORMAT
from tavola.records.jsonfmt import from_json

__all__ = ["VERSION", "autosave_series", "check_autosave"]

VERSION = 1
"""The version of the autosave's format."""


def check_autosave(data: object) -> None:
    """Refuse data that is not an autosave of this version (before any other field is read)."""
    if not isinstance(data, dict) or data.get("format") != AUTOSAVE_FORMAT or data.get("version") != VERSION:
        raise RecordError(
            # TRANSLATORS: format/version, seats, dice, turn, view: fields of a saved game, as written.
            _("format/version: not a saved {format} version {version} game").format(
                format=repr(AUTOSAVE_FORMAT), version=VERSION
            )
        )


def autosave_series(data: object, *, dice: DiceSource | None = None) -> Series:
    """The series an autosave holds, with the moves of the turn in progress made; later rolls come from
    ``dice``. Raises :class:`~tavola.errors.RecordError` naming the field at fault."""
    check_autosave(data)
    assert isinstance(data, dict)  # as check_autosave says
    series = from_json(data.get("record"), dice=dice)
    moves = data.get("turn", [])
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise RecordError(_("turn: a list of moves such as '24/18', not {moves}").format(moves=repr(moves)))
    game = series.game
    for move in moves:
        if game is None:
            raise RecordError(_("turn: moves saved with no game in progress"))
        try:
            game.move(move)
        except TavolaError as error:
            raise RecordError(_("turn: {move}: {error}").format(move=move, error=error)) from None
    return series
