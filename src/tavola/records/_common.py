"""What the record formats share: replay dice, scores, and the format of a JSON record.

>>> from tavola.dicesource import RandomDice
>>> dice = ReplayDice(ManualDice(["31"]), RandomDice(seed=7))
>>> dice.roll(), dice.roll()  # the entered roll, then the fallback's
(Dice(3, 1), Dice(3, 2))
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice, default_dice
from tavola.errors import RecordError
from tavola.game import Game
from tavola.i18n import N_, _
from tavola.match import Match, MoneySession
from tavola.schema import Says

__all__ = [
    "RECORD",
    "ReplayDice",
    "Series",
    "TwoDice",
    "check_format",
    "play_text",
    "scores_before",
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


# --- reading JSON records ---------------------------------------------------------------------------

TwoDice = Annotated[
    list[Annotated[int, Field(ge=1, le=6)]],
    Field(min_length=2, max_length=2),
    Says(N_("{where}.dice: two dice of 1 to 6, not {dice}"), "dice"),
]
"""The shape of a roll in a JSON record: ``[6, 2]``."""

RECORD = N_("the record")
"""What a JSON record is called where there is no field to name (translated where it is said)."""


def check_format(data: object, format: str, version: int) -> None:
    """Refuse a JSON object that says it is not of ``format`` and ``version``.

    Checked before any other field, since the other fields' shape depends on
    them; data that is no JSON object is left for its shape to refuse.

    >>> check_format({"format": "x", "version": 1}, "tavola-record", 1)
    Traceback (most recent call last):
    tavola.errors.RecordError: format/version: expected 'tavola-record' version 1, not 'x' version 1
    """
    if isinstance(data, dict) and (data.get("format") != format or data.get("version") != version):
        raise RecordError(
            _(
                "format/version: expected {format} version {version}, not {found} version {found_version}"
            ).format(
                format=repr(format),
                version=version,
                found=repr(data.get("format")),
                found_version=repr(data.get("version")),
            )
        )
