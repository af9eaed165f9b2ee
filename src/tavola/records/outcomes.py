"""What the writers of other programs' formats ask of a game: a tied opening roll, the win before the rules.

>>> from tavola.actions import OpeningRoll
>>> is_tie(OpeningRoll((4, 4))), is_tie(OpeningRoll((5, 2)))
(True, False)
"""

from __future__ import annotations

from tavola.actions import AcceptResignation, OpeningRoll, Played, Resign
from tavola.game import Game
from tavola.position import WinKind

__all__ = ["is_tie", "raw_win_kind"]


def is_tie(action: OpeningRoll) -> bool:
    """Whether an opening roll is a tie (both dice the same), which is rolled again (R4)."""
    return action.dice[0] == action.dice[1]


def raw_win_kind(game: Game) -> WinKind:
    """How big a finished game's win was before the rules' counting (M5, M6)."""
    last = game.log[-1].action
    if isinstance(last, Played):
        result = last.play.after.result()
        return result.kind if result else WinKind.SINGLE
    if isinstance(last, AcceptResignation):
        offered = game.log[-2].action
        assert isinstance(offered, Resign)
        return offered.kind
    return WinKind.SINGLE
