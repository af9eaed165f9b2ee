"""Variants of backgammon as named rule sets (V1-V5), found by name.

A :class:`Variant` says how a game starts, how many checkers each side has,
which movement rules apply (through the move generator's flags), whether the
cube is used, how a win is scored and whether the Acey-Deucey roll applies.
Every part of Tavola takes a variant where the standard game is the default:
legal plays, the game, sessions, matches, records and ``tavola moves``.

>>> [variant.name for variant in VARIANTS]
['standard', 'dutch', 'acey-deucey', 'nackgammon', 'hypergammon']
>>> find_variant("Hypergammon").start.pip_counts()
(69, 69)
>>> find_variant("chess")
Traceback (most recent call last):
...
tavola.errors.InvalidRulesError: no variant 'chess': standard, dutch, acey-deucey, nackgammon, hypergammon
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavola.errors import InvalidRulesError
from tavola.gameover import Scoring as Scoring
from tavola.gameover import game_points, in_play
from tavola.i18n import _
from tavola.movegen import HIT_NEEDS_HOME
from tavola.position import START_BOARD, Position


@dataclass(frozen=True)
class Variant:
    """A named rule set. ``summary`` is its rules in one line, for people."""

    name: str
    summary: str
    start: Position
    flags: int = 0
    cube: bool = True
    scoring: Scoring = Scoring.STANDARD
    acey_deucey_roll: bool = False

    @property
    def checkers(self) -> int:
        """Checkers per side."""
        return self.start.checkers

    def points(self, position: Position) -> int | None:
        """What a finished game is worth to ``position``'s mover at a stake of 1, ``None`` while it goes on.

        Positive when the mover has won: single, gammon or backgammon (R19),
        or the loser's checkers not borne off (V2).

        >>> finished = Position([-15] + [0] * 23, off=(15, 0))
        >>> STANDARD.points(finished), ACEY_DEUCEY.points(finished)
        (3, 15)
        """
        points = int(game_points(position.to_array(), self.scoring))
        return points or None

    def with_options(self, *, acey_deucey_roll: bool | None = None) -> Variant:
        """The variant with a setting changed, e.g. Acey-Deucey without its 1-2 roll."""
        if acey_deucey_roll is not None and self.scoring is not Scoring.CHECKERS_LEFT:
            raise InvalidRulesError(
                _("the 1-2 roll is a setting of Acey-Deucey, not of {variant}").format(variant=self.name)
            )
        return replace(
            self, acey_deucey_roll=self.acey_deucey_roll if acey_deucey_roll is None else acey_deucey_roll
        )

    def __repr__(self) -> str:
        extra = (
            ""
            if self == find_variant(self.name)
            else f".with_options(acey_deucey_roll={self.acey_deucey_roll})"
        )
        return f"find_variant({self.name!r}){extra}"


def checkers_left(side: Position) -> int:
    """The checkers ``side``'s mover has not borne off: what it pays per stake when it loses (V2)."""
    return int(in_play(side.to_array())[0])


def _mirrored(mine: dict[int, int], checkers: int = 15) -> Position:
    """A start where both sides have ``mine`` (point: checkers), each from its own side."""
    board = [0] * 24
    for point, count in mine.items():
        board[point - 1] += count
        board[24 - point] -= count
    return Position(board, checkers=checkers)


STANDARD = Variant(
    "standard",
    "the standard game: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6 (R1-R21)",
    Position(START_BOARD),
)
DUTCH = Variant(
    "dutch",
    "all checkers start off the board and enter like bar checkers, all before any moves on; "
    "no hitting until one of your checkers has reached your home board (V1)",
    Position([0] * 24, bar=(15, 15)),
    flags=HIT_NEEDS_HOME,
)
ACEY_DEUCEY = Variant(
    "acey-deucey",
    "all checkers start off the board and enter whenever you like; after a 1-2 play the 1 and 2, "
    "then any double you choose, then roll again; no cube; the loser pays per checker not borne off (V2)",
    Position([0] * 24, waiting=(15, 15)),
    cube=False,
    scoring=Scoring.CHECKERS_LEFT,
    acey_deucey_roll=True,
)
NACKGAMMON = Variant(
    "nackgammon",
    "2 on the 24-point, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6 (V4)",
    _mirrored({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
)
HYPERGAMMON = Variant(
    "hypergammon",
    "3 checkers each, on the 24-, 23- and 22-points (V5)",
    _mirrored({24: 1, 23: 1, 22: 1}, checkers=3),
)

VARIANTS: tuple[Variant, ...] = (STANDARD, DUTCH, ACEY_DEUCEY, NACKGAMMON, HYPERGAMMON)


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (any case; spaces or underscores for dashes)."""
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for variant in VARIANTS:
        if variant.name == wanted:
            return variant
    known = ", ".join(variant.name for variant in VARIANTS)
    raise InvalidRulesError(_("no variant {name}: {known}").format(name=repr(name), known=known))
