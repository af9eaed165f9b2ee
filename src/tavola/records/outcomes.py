"""What the writers of other programs' formats ask of a game: a tied opening roll, the win before the rules,
a forfeit as their tags write it.

>>> from tavola.actions import OpeningRoll
>>> is_tie(OpeningRoll((4, 4))), is_tie(OpeningRoll((5, 2)))
(True, False)
"""

from __future__ import annotations

import re

from tavola.actions import AcceptResignation, OpeningRoll, Played, Resign
from tavola.errors import RecordError
from tavola.game import Game
from tavola.i18n import _
from tavola.match import FORFEIT_REASONS, Forfeit, Match, Series, scores_before
from tavola.position import WinKind

__all__ = ["forfeit_points", "forfeit_tag", "is_tie", "raw_win_kind", "read_forfeit_tag"]

_FORFEIT = re.compile(
    r"^Player (?P<player>[12]) (?P<reason>" + "|".join(FORFEIT_REASONS) + r")(?: (?P<at>\S{1,40}))?$"
)


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


def forfeit_tag(forfeit: Forfeit) -> str:
    """A forfeit as the ``.mat`` file's ``[Forfeit]`` tag and the SGF's ``XF`` write it: the player as a
    ``.mat`` header names them, why, and when where known (:func:`read_forfeit_tag` reads it).

    >>> forfeit_tag(Forfeit(1, "time", "2026-05-01T12:00:00Z"))
    'Player 2 time 2026-05-01T12:00:00Z'
    >>> read_forfeit_tag("Player 2 time 2026-05-01T12:00:00Z", 3)
    Forfeit(player=1, reason='time', at='2026-05-01T12:00:00Z')
    """
    return " ".join(
        part for part in (f"Player {forfeit.player + 1}", forfeit.reason, forfeit.at) if part is not None
    )


def read_forfeit_tag(text: str, line: int) -> Forfeit:
    """The forfeit :func:`forfeit_tag` wrote; anything else is refused naming ``line``."""
    found = _FORFEIT.match(text)
    if found is None:
        message = _("line {line}: a forfeit names the player, why ({reasons}) and when, not {value}")
        reasons = ", ".join(FORFEIT_REASONS)
        raise RecordError(message.format(line=line, reasons=reasons, value=repr(text)), line)
    return Forfeit(int(found.group("player")) - 1, found.group("reason"), found.group("at"))


def forfeit_points(series: Series) -> int:
    """What the result of a forfeited series' last game shows (a ``.mat`` file's ``Wins``, an SGF's ``RE``):
    in a match every point the winner still needed, which ends the match in every program reading it; in
    a money session the game's points."""
    outcome = series.games[-1].outcome
    assert outcome is not None
    if isinstance(series, Match):
        return series.length - scores_before(series, len(series.games) - 1)[outcome.winner]
    return outcome.points
