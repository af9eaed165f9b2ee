"""What the record formats share: atomic writing, replay dice, scores, and reading JSON fields.

>>> from tavola.dicesource import RandomDice
>>> dice = ReplayDice(ManualDice(["31"]), RandomDice(seed=7))
>>> dice.roll(), dice.roll()  # the entered roll, then the fallback's
(Dice(3, 1), Dice(3, 2))
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice, default_dice
from tavola.errors import RecordError
from tavola.game import Game
from tavola.i18n import N_, _
from tavola.match import Match, MoneySession

__all__ = [
    "RECORD",
    "ReplayDice",
    "Series",
    "json_field",
    "json_object",
    "play_text",
    "scores_before",
    "write_atomically",
]

Series = Match | MoneySession
"""What a record holds: a match to N points or a money session."""


class ReplayDice:
    """Dice for replaying a record: the dice entered in ``manual`` first, then ``then``'s.

    A record is replayed by entering each roll just before the game asks for
    it; once the record is done, play goes on with ``then`` (OS entropy by
    default).
    """

    def __init__(self, manual: ManualDice, then: DiceSource | None = None) -> None:
        self.manual = manual
        self.then = then or default_dice()

    def _source(self) -> DiceSource:
        return self.manual if self.manual.pending else self.then

    def roll_die(self) -> int:
        return self._source().roll_die()

    def roll(self) -> Dice:
        return self._source().roll()

    def roll_opening(self) -> tuple[int, int]:
        return self._source().roll_opening()


def play_text(game: Game, text: str, player: int) -> None:
    """Make the play ``text`` describes, read under the game's variant.

    (``Game.play`` with text reads it as the standard game's play, so a
    variant's play is parsed here and handed over as a :class:`Play`.)
    """
    turn = game.turn
    if turn is None:
        game.play(text, player)  # not the time to play: the game says why
        return
    game.play(turn.start.parse_play(turn.dice, text, game.variant), player)


def scores_before(series: Series, index: int) -> tuple[int, int]:
    """The score line a record shows before game ``index``.

    For a match, the match score (P1); for a money session, the points each
    player has won so far (not the net).

    >>> scores_before(MoneySession(), 0)
    (0, 0)
    """
    score = [0, 0]
    for game in series.games[:index]:
        if game.outcome is not None:
            score[game.outcome.winner] += game.outcome.points
            if isinstance(series, Match):
                score[game.outcome.winner] = min(series.length, score[game.outcome.winner])
    return score[0], score[1]


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename it.

    Either the whole new file is there or the old one is untouched: a failure
    part way removes the temporary file and leaves ``path`` as it was.
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- reading JSON records ---------------------------------------------------------------------------

RECORD = "the record"
"""The ``where`` of a record's own fields (which are named without a path)."""

_NOT_OF_KIND: dict[tuple[type, ...], str] = {
    # TRANSLATORS: {field} is a field of a JSON record such as games[0].log[3].dice, kept as written.
    (int,): N_("{field}: {value} is not a whole number"),
    (str,): N_("{field}: {value} is not text"),
    (list,): N_("{field}: {value} is not a list"),
    (dict,): N_("{field}: {value} is not an object"),
    (bool,): N_("{field}: {value} is not bool"),
    (int, float): N_("{field}: {value} is not a whole number or a number"),
    (int, type(None)): N_("{field}: {value} is not a whole number or NoneType"),
}
"""What :func:`json_field` says of a value of the wrong kind, for each kind it is asked for."""


def json_object(value: object, where: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else a :class:`RecordError` naming ``where`` it was read.

    >>> json_object([], "games[0]")
    Traceback (most recent call last):
    tavola.errors.RecordError: games[0]: expected a JSON object, not list
    """
    if not isinstance(value, dict):
        if where == RECORD:
            message = _("the record: expected a JSON object, not {kind}")
        else:
            message = _("{where}: expected a JSON object, not {kind}")
        raise RecordError(message.format(where=where, kind=type(value).__name__))
    return value


def json_field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    """The field ``name`` of the object read at ``where``, checked to be of ``kind`` (a bool is no int).

    >>> json_field({"dice": [3, 1]}, "dice", list, "log[2]")
    [3, 1]
    >>> json_field({"cube": True}, "cube", int, "games[0]")
    Traceback (most recent call last):
    tavola.errors.RecordError: games[0].cube: True is not a whole number
    """
    if name not in data:
        if where == RECORD:
            message = _("the record: the field {name} is missing")
        else:
            message = _("{where}: the field {name} is missing")
        raise RecordError(message.format(where=where, name=repr(name)))
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds):
        field = name if where == RECORD else f"{where}.{name}"
        raise RecordError(_(_NOT_OF_KIND[kinds]).format(field=field, value=repr(value)))
    return value
