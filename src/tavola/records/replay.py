"""Replaying a record through the game: its dice entered roll by roll, its plays read under the variant.

>>> from tavola.dicesource import ManualDice, RandomDice
>>> dice = ReplayDice(ManualDice(["31"]), RandomDice(seed=7))
>>> dice.roll(), dice.roll()  # the entered roll, then the fallback's
(Dice(3, 1), Dice(3, 2))
"""

from __future__ import annotations

from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice, default_dice
from tavola.game import Game

__all__ = ["ReplayDice", "play_text"]


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
    variant's play is parsed here and handed over as a :class:`~tavola.play.Play`.)
    """
    turn = game.turn
    if turn is None:
        game.play(text, player)  # not the time to play: the game says why
        return
    game.play(turn.parse_play(text), player)
