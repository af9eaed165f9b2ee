"""What a match's length and score may be: the longest match (P1) and when a game is the Crawford game (P2).

The one place these limits live: :class:`~tavola.match.Match`, the engine
protocol, the records, the command line, the IDs and the match equity table
all check a match through here.

>>> MAX_MATCH_LENGTH
64
>>> crawford_possible(5, (4, 2)), crawford_possible(5, (3, 0)), crawford_possible(2, (1, 1))
(True, False, False)
>>> check_match_score(5, (3, 0), crawford=True)
Traceback (most recent call last):
...
tavola.errors.InvalidRulesError: at 3-0 in a 5-point match there is no Crawford game: it follows the \
game in which one player, and only one, reaches 4 points (P2)
"""

from __future__ import annotations

from tavola.errors import InvalidRulesError
from tavola.i18n import _

MAX_MATCH_LENGTH = 64
"""The longest match Tavola plays, reads and writes: 64 points, as GNU Backgammon.

The match equity table (:mod:`tavola.bot.met`) is built up to this length in
well under a second.
"""


def check_match_length(length: object) -> int:
    """``length`` if it is a whole number of points from 1 to :data:`MAX_MATCH_LENGTH` (P1).

    >>> check_match_length(7)
    7
    >>> check_match_length(10**20)
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidRulesError: a match is to 1 to 64 points, not 100000000000000000000
    """
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_MATCH_LENGTH:
        raise InvalidRulesError(
            _("a match is to 1 to {most} points, not {length}").format(
                most=MAX_MATCH_LENGTH, length=_shown(length)
            )
        )
    return length


def crawford_possible(length: int, score: tuple[int, int]) -> bool:
    """Whether a game at ``score`` of a ``length``-point match can be the Crawford game (P2).

    It can when one player, and only one, is one point from winning; neither
    player has won. (At 0-0 of a 1-point match, or 1-1 of a 2-point match,
    both are one point away: there is no Crawford game.)
    """
    first, second = score
    return max(first, second) < length and (first == length - 1) != (second == length - 1)


def check_match_score(
    length: int, score: tuple[int, int], crawford: bool = False, *, finished: bool = False
) -> None:
    """Refuse a score that no match of ``length`` points reaches, or a Crawford flag it cannot have.

    The score is of a game in play, unless ``finished``: then it already
    counts the game just over, so the winner may be at the length or past it
    (gnubg writes the points as won), and ``crawford`` says whether the next
    game is the Crawford game.

    >>> check_match_score(7, (16, 0), finished=True)
    >>> check_match_score(5, (5, 5))
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidRulesError: a score in a 5-point match is 0 to 4 while a game is played, not 5-5
    """
    first, second = score
    text = f"{first}-{second}"
    if min(first, second) < 0 or (not finished and max(first, second) >= length):
        raise InvalidRulesError(
            _("a score in a {length}-point match is 0 to {most} while a game is played, not {score}").format(
                length=length, most=length - 1, score=text
            )
        )
    if min(first, second) >= length:
        raise InvalidRulesError(
            _("both players cannot have won a {length}-point match: {score}").format(
                length=length, score=text
            )
        )
    if crawford and not crawford_possible(length, score):
        raise InvalidRulesError(
            _(
                "at {score} in a {length}-point match there is no Crawford game: it follows the game "
                "in which one player, and only one, reaches {last} points (P2)"
            ).format(score=text, length=length, last=length - 1)
        )


def _shown(value: object) -> str:
    """A value for an error message: a number of many digits as its order of magnitude, text cut short.

    >>> _shown(10**5000 + 7), _shown(-(10**40)), _shown("x" * 50)
    ('~1e5000', '-~1e40', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        size = abs(value)
        power = int((size.bit_length() - 1) * 0.30102999566398120)  # log10(2): digits minus one, or less
        while 10 ** (power + 1) <= size:
            power += 1
        return f"{'-' if value < 0 else ''}~1e{power}"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."
