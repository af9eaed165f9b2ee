"""A recorded match or session played again, entry by entry, with each game as it stood before each entry.

The games of a :class:`~tavola.match.Match` or
:class:`~tavola.match.MoneySession` keep their logs; :func:`replay` makes
each game again through the game API from its log, and stops before every
entry to show the game as it was then: the position, the cube, the dice,
whose turn, the turn's legal plays. Entries the game logs by itself (a take
that is an automatic beaver, M6) are applied with the action that made them.

>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> match = Match(3, dice=RandomDice(seed=3))
>>> game = match.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> [(moment.number, moment.move, type(moment.entry.action).__name__) for moment in replay(match)]
[(1, 1, 'OpeningRoll'), (1, 1, 'Played'), (1, 2, 'Double'), (1, 2, 'Drop')]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tavola.actions import Entry, OpeningRoll, Played, Roll
from tavola.bot.context import CubeContext
from tavola.dicesource import ManualDice
from tavola.game import Game, Phase
from tavola.match import Match, Series, scores_before


@dataclass(frozen=True)
class Moment:
    """One entry of a game's log, and the game just before it was made.

    ``number`` is the game's (from 1); ``move`` the turn the entry belongs
    to, from 1 (a cube action or a resignation before the roll belongs to
    the turn it comes before); ``away`` the points players 0 and 1 still
    need (None for money). ``game`` is live: it changes as the replay goes
    on, so read it before asking for the next moment.
    """

    number: int
    move: int
    entry: Entry
    game: Game
    away: tuple[int, int] | None

    def context(self, player: int) -> CubeContext:
        """The game's cube context from ``player``'s side (``away`` is player 0's)."""
        return CubeContext.of_game(self.game, 0, self.away).seen_by(player)


def away_before(series: Series, index: int) -> tuple[int, int] | None:
    """The points players 0 and 1 need before game ``index`` of a match (None for money)."""
    if not isinstance(series, Match):
        return None
    score = scores_before(series, index)
    return series.length - score[0], series.length - score[1]


def replay(series: Series) -> Iterator[Moment]:
    """Every entry of every game of ``series``, in order, each with the game as it stood before it."""
    for index, recorded in enumerate(series.games):
        dice = ManualDice()
        game = Game(
            series.rules,
            dice,
            crawford=recorded.crawford,
            holland=recorded.holland,
            variant=series.variant,
        )
        away = away_before(series, index)
        log = recorded.log
        turns = 0
        move = 1
        done = 0
        while done < len(log):
            entry = log[done]
            action = entry.action
            if game.phase is not Phase.RESIGNATION:  # an answer belongs to the resignation's turn
                move = turns if game.phase in (Phase.MOVE, Phase.CHOOSE_DOUBLE) else turns + 1
            yield Moment(index + 1, move, entry, game, away)
            if isinstance(action, OpeningRoll):
                dice.enter_opening(*action.dice)
                if game.roll() is not None:
                    turns += 1
            elif isinstance(action, Roll):
                assert action.dice is not None
                dice.enter(action.dice)
                game.roll(entry.player)
                turns += 1
            elif isinstance(action, Played):
                game.play(action.play, entry.player)
            else:
                game.apply(action, entry.player)
            done = len(game.log)
