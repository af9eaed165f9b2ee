"""The :class:`Position` value: a board seen from the player on roll.

Points are numbered from the side to move: its home board is 1-6, it moves
from high numbers to low, its bar is point 25 and "off" is point 0. The
opponent's checkers are negative numbers on the same points.

>>> start = Position.start()
>>> start[24], start[6], start[19]
(2, 5, -5)
>>> start.pip_counts()
(167, 167)
>>> start.flip() == start
True
>>> start.kind
<PositionKind.CONTACT: 'contact'>
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tavola.errors import InvalidPositionError
from tavola.i18n import N_, _

if TYPE_CHECKING:
    from tavola.dice import Dice
    from tavola.play import LegalPlays, Play
    from tavola.variants import Variant

CHECKERS = 15
"""Checkers per side in the standard game."""

# The layout of a position as a NumPy int8 array, shared with the compiled
# move generator (movegen.py): everything is seen from the side to move.
MY_OFF = 0  # the mover's borne-off checkers
# indices 1..24: the points; > 0 the mover's checkers, < 0 the opponent's
MY_BAR = 25  # the mover's checkers on the bar
MY_WAITING = 26  # the mover's checkers not yet entered (Acey-Deucey)
THEIR_BAR = 27  # the opponent's checkers on the bar
THEIR_OFF = 28  # the opponent's borne-off checkers
THEIR_WAITING = 29  # the opponent's checkers not yet entered
ARRAY_SIZE = 30

BAR = 25
"""The bar as a point number, in notation and moves."""
WAITING = 26
"""Where checkers not yet entered start from, as a point number in moves (Acey-Deucey)."""
OFF = 0
"""Off the board as a point number, in notation and moves."""


def point_name(point: int) -> str:
    """A point as notation writes it: ``bar``, ``in``, ``off`` or its number.

    >>> point_name(25), point_name(0), point_name(13)
    ('bar', 'off', '13')
    """
    return {BAR: "bar", WAITING: "in", OFF: "off"}.get(point, str(point))


START_BOARD: tuple[int, ...] = (
    -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,
)  # fmt: skip


class PositionKind(enum.Enum):
    """How far a game has gone, as the bot and the rules see it."""

    CONTACT = "contact"  # some checkers still have to pass opposing ones
    RACE = "race"  # no more contact
    BEAROFF = "bearoff"  # no contact and every checker is in its home board
    OVER = "over"  # one side has borne off all its checkers


class WinKind(enum.IntEnum):
    """How big a win is (R19); the value is the multiple of the stake."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class GameResult:
    """The result of a finished game (R19), seen from the position's mover."""

    mover_wins: bool
    kind: WinKind

    @property
    def points(self) -> int:
        """Points for the mover at cube 1: positive when the mover won."""
        return int(self.kind) if self.mover_wins else -int(self.kind)


class Position:
    """An immutable, hashable backgammon position seen from the side to move.

    ``board`` gives the 24 points, point 1 first, from the mover's side:
    positive numbers are the mover's checkers, negative the opponent's.
    ``bar``, ``off`` and ``waiting`` are pairs (mover, opponent); ``off`` is
    worked out from ``checkers`` when left out. ``waiting`` counts checkers
    that have not entered the board yet and are not on the bar (Acey-Deucey,
    V2); gnubg's and XG's IDs cannot hold them, Tavola's own ID can.

    >>> Position([0] * 23 + [1], off=(14, 14), bar=(0, 1))
    Position.from_position_id('AAAAAQAAAgAAAA')
    >>> Position([3] * 6 + [0] * 18)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidPositionError: the mover has 18 checkers in play (...); a side has 15
    """

    __slots__ = ("_checkers", "_raw")

    _raw: bytes
    _checkers: int

    def __init__(
        self,
        board: Sequence[int],
        bar: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        *,
        waiting: tuple[int, int] = (0, 0),
        checkers: int = CHECKERS,
    ) -> None:
        if len(board) != 24:
            raise InvalidPositionError(_("a board has 24 points, not {count}").format(count=len(board)))
        values = [_checked_int(value, "a point") for value in board]
        for name, pair in (("bar", bar), ("off", off), ("waiting", waiting)):
            if pair is not None and len(pair) != 2:
                raise InvalidPositionError(
                    _("{name} is a pair (mover, opponent), not {pair}").format(name=name, pair=repr(pair))
                )
        mine_bar, theirs_bar = (_checked_count(value, "the bar") for value in bar)
        mine_wait, theirs_wait = (_checked_count(value, "the checkers waiting to enter") for value in waiting)
        mine_on = sum(value for value in values if value > 0) + mine_bar + mine_wait
        theirs_on = -sum(value for value in values if value < 0) + theirs_bar + theirs_wait
        if off is None:
            off = (checkers - mine_on, checkers - theirs_on)
        mine_off, theirs_off = (_checked_int(value, "off") for value in off)
        for (too_many, wrong_total), on, borne, barred in (
            (_MOVER_COUNTS, mine_on, mine_off, mine_bar + mine_wait),
            (_OPPONENT_COUNTS, theirs_on, theirs_off, theirs_bar + theirs_wait),
        ):
            if on > checkers:
                raise InvalidPositionError(_(too_many).format(count=on, checkers=checkers))
            if borne < 0 or on + borne != checkers:
                raise InvalidPositionError(
                    _(wrong_total).format(
                        board=on - barred, bar=barred, off=borne, total=on + borne, checkers=checkers
                    )
                )
        if mine_off == theirs_off == checkers:
            raise InvalidPositionError(_("both sides cannot have borne off all their checkers"))
        array = np.zeros(ARRAY_SIZE, dtype=np.int8)
        array[1:25] = values
        array[[MY_OFF, MY_BAR, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING]] = (
            mine_off, mine_bar, mine_wait, theirs_bar, theirs_off, theirs_wait,
        )  # fmt: skip
        object.__setattr__(self, "_raw", array.tobytes())
        object.__setattr__(self, "_checkers", checkers)

    # --- other constructors ---------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The starting position of the standard game (R2)."""
        return cls(START_BOARD)

    @classmethod
    def from_array(cls, array: npt.ArrayLike, *, checkers: int = CHECKERS) -> Position:
        """Build from the int8 layout that :meth:`to_array` returns, validating it."""
        values = np.asarray(array)
        if values.shape != (ARRAY_SIZE,):
            raise InvalidPositionError(
                _("a position array has {size} values, not shape {shape}").format(
                    size=ARRAY_SIZE, shape=values.shape
                )
            )
        ints = [int(v) for v in values]
        return cls(
            ints[1:25],
            bar=(ints[MY_BAR], ints[THEIR_BAR]),
            off=(ints[MY_OFF], ints[THEIR_OFF]),
            waiting=(ints[MY_WAITING], ints[THEIR_WAITING]),
            checkers=checkers,
        )

    @classmethod
    def _from_trusted_array(cls, array: npt.NDArray[np.int8], checkers: int = CHECKERS) -> Position:
        """Wrap an array the move generator produced, skipping validation."""
        return cls._from_trusted_bytes(array.astype(np.int8, copy=False).tobytes(), checkers)

    @classmethod
    def _from_trusted_bytes(cls, raw: bytes, checkers: int = CHECKERS) -> Position:
        """Wrap the bytes of an int8 array the move generator produced (:meth:`to_array`'s layout),
        skipping validation."""
        position = object.__new__(cls)
        object.__setattr__(position, "_raw", raw)
        object.__setattr__(position, "_checkers", checkers)
        return position

    @classmethod
    def from_sides(
        cls,
        mover: Sequence[int],
        opponent: Sequence[int],
        *,
        waiting: tuple[int, int] = (0, 0),
        checkers: int = CHECKERS,
    ) -> Position:
        """Build from each side's checker counts, each seen from its own side.

        ``mover[i]`` and ``opponent[i]`` count checkers on that side's own
        point ``i + 1``; index 24 is its bar (the layout of gnubg's boards).

        >>> Position.from_sides([0] * 5 + [15] + [0] * 19, [0] * 5 + [15] + [0] * 19).kind
        <PositionKind.BEAROFF: 'bearoff'>
        """
        for side, counts, wrong_length in (
            ("mover", mover, N_("the mover's counts are 24 points and the bar, not {count} values")),
            ("opponent", opponent, N_("the opponent's counts are 24 points and the bar, not {count} values")),
        ):
            if len(counts) != 25:
                raise InvalidPositionError(_(wrong_length).format(count=len(counts)))
            for value in counts:
                _checked_count(value, f"the {side}'s points")
        board = []
        for point in range(1, 25):
            mine, theirs = mover[point - 1], opponent[24 - point]
            if mine and theirs:
                raise InvalidPositionError(
                    _("point {point} is held by both sides ({mine} and {theirs} checkers)").format(
                        point=point, mine=mine, theirs=theirs
                    )
                )
            board.append(mine - theirs)
        return cls(board, bar=(mover[24], opponent[24]), waiting=waiting, checkers=checkers)

    @classmethod
    def from_position_id(cls, position_id: str, *, checkers: int = CHECKERS) -> Position:
        """Decode a gnubg Position ID (the player on roll is the mover).

        >>> Position.from_position_id('4HPwATDgc/ABMA') == Position.start()
        True
        """
        from tavola.ids import decode_position_id

        return decode_position_id(position_id, checkers=checkers)

    # --- reading it -------------------------------------------------------

    @property
    def checkers(self) -> int:
        """Checkers per side (15 in the standard game)."""
        return self._checkers

    @property
    def board(self) -> tuple[int, ...]:
        """The 24 points, point 1 first: the mover's checkers positive, the opponent's negative."""
        return tuple(self.to_array()[1:25].tolist())

    @property
    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (mover, opponent)."""
        array = self.to_array()
        return int(array[MY_BAR]), int(array[THEIR_BAR])

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (mover, opponent)."""
        array = self.to_array()
        return int(array[MY_OFF]), int(array[THEIR_OFF])

    def __getitem__(self, point: int) -> int:
        """Checkers on ``point`` (1-24): positive the mover's, negative the opponent's."""
        if not 1 <= point <= 24:
            raise IndexError(f"points are numbered 1 to 24, not {point}")
        return int(self.to_array()[point])

    def to_array(self) -> npt.NDArray[np.int8]:
        """The position as a read-only int8 array in the move generator's layout."""
        return np.frombuffer(self._raw, dtype=np.int8)

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each side's counts from its own side, the inverse of :meth:`from_sides`."""
        array = self.to_array()
        mover = (*np.maximum(array[1:25], 0).tolist(), int(array[MY_BAR]))
        opponent = (*np.maximum(-array[24:0:-1], 0).tolist(), int(array[THEIR_BAR]))
        return mover, opponent

    def flip(self) -> Position:
        """The same position seen from the other side.

        >>> position = Position([0] * 23 + [1], off=(14, 14), bar=(0, 1))
        >>> position.flip().flip() == position
        True
        """
        return Position._from_trusted_array(flip_array(self.to_array()), self._checkers)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side needs to bear everything off: (mover, opponent); bar and waiting count 25."""
        mover, opponent = self.sides()
        mine_wait, theirs_wait = self.waiting
        return (
            sum(count * (index + 1) for index, count in enumerate(mover)) + 25 * mine_wait,
            sum(count * (index + 1) for index, count in enumerate(opponent)) + 25 * theirs_wait,
        )

    @property
    def waiting(self) -> tuple[int, int]:
        """Checkers not yet entered and not on the bar: (mover, opponent); Acey-Deucey only."""
        array = self.to_array()
        return int(array[MY_WAITING]), int(array[THEIR_WAITING])

    def _extremes(self) -> tuple[int, int]:
        """The mover's highest occupied point and the opponent's lowest (bar 25 and 0)."""
        array = self.to_array()
        mine = [p for p in range(1, 25) if array[p] > 0]
        theirs = [p for p in range(1, 25) if array[p] < 0]
        highest = 25 if array[MY_BAR] or array[MY_WAITING] else max(mine, default=0)
        lowest = 0 if array[THEIR_BAR] or array[THEIR_WAITING] else min(theirs, default=25)
        return highest, lowest

    @property
    def kind(self) -> PositionKind:
        """Contact, race, bear-off, or over."""
        from tavola.gameover import game_over

        if game_over(self.to_array()):
            return PositionKind.OVER
        highest, lowest = self._extremes()
        if highest > lowest:
            return PositionKind.CONTACT
        if highest <= 6 and lowest >= 19:
            return PositionKind.BEAROFF
        return PositionKind.RACE

    def result(self) -> GameResult | None:
        """The result once a side has borne off all its checkers (R19), else ``None``.

        >>> Position([-15] + [0] * 23, off=(15, 0)).result()  # all in the winner's home board
        GameResult(mover_wins=True, kind=<WinKind.BACKGAMMON: 3>)
        """
        from tavola.gameover import game_points

        points = int(game_points(self.to_array()))
        return GameResult(points > 0, WinKind(abs(points))) if points else None

    # --- plays -------------------------------------------------------------

    def legal_plays(self, dice: Dice, variant: Variant | str | None = None) -> LegalPlays:
        """Every legal play for ``dice`` (R5-R17), one per resulting position.

        ``variant`` adds a variant's movement rules (the standard game by default).

        >>> from tavola.dice import Dice
        >>> Position.start().legal_plays(Dice(3, 1))[0]
        Play(Position.from_position_id('4HPwATDgc/ABMA'), Dice(3, 1), (Move(24, 21), Move(21, 20)))
        """
        from tavola.play import legal_plays

        return legal_plays(self, dice, variant)

    def parse_play(self, dice: Dice, text: str, variant: Variant | str | None = None) -> Play:
        """The legal play that ``text`` describes, or an error saying why there is none."""
        from tavola.notation import parse_play

        return parse_play(self, dice, text, variant)

    # --- text forms ----------------------------------------------------------

    def position_id(self) -> str:
        """The gnubg Position ID, the mover being the player on roll."""
        from tavola.ids import encode_position_id

        return encode_position_id(self)

    def tavola_id(self) -> str:
        """Tavola's own ID, which holds any position of any variant (see :mod:`tavola.ids`)."""
        from tavola.ids import encode_tavola_id

        return encode_tavola_id(self)

    @classmethod
    def from_tavola_id(cls, tavola_id: str) -> Position:
        """Decode a Tavola ID.

        >>> Position.from_tavola_id(Position.start().tavola_id()) == Position.start()
        True
        """
        from tavola.ids import decode_tavola_id

        return decode_tavola_id(tavola_id)

    def __repr__(self) -> str:
        if self.waiting != (0, 0):
            return f"Position.from_tavola_id({self.tavola_id()!r})"
        extra = "" if self._checkers == CHECKERS else f", checkers={self._checkers}"
        return f"Position.from_position_id({self.position_id()!r}{extra})"

    def __str__(self) -> str:
        """A plain-text board, the mover at the bottom."""
        from tavola.render import ascii_board

        return ascii_board(self)

    def _repr_svg_(self) -> str:
        """An SVG board, which Jupyter shows in place of the repr."""
        from tavola.render import svg_board

        return svg_board(self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Position is immutable: {name} cannot be set")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._raw == other._raw and self._checkers == other._checkers

    def __hash__(self) -> int:
        return hash(self._raw)

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self._raw, self._checkers))

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self


def flip_array(array: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """A position array seen from the other side (works on one array or a batch of them)."""
    flipped = np.empty_like(array)
    flipped[..., MY_OFF] = array[..., THEIR_OFF]
    flipped[..., THEIR_OFF] = array[..., MY_OFF]
    flipped[..., MY_BAR] = array[..., THEIR_BAR]
    flipped[..., THEIR_BAR] = array[..., MY_BAR]
    flipped[..., MY_WAITING] = array[..., THEIR_WAITING]
    flipped[..., THEIR_WAITING] = array[..., MY_WAITING]
    flipped[..., 1:25] = -array[..., 24:0:-1]
    return flipped


def _restore(raw: bytes, checkers: int) -> Position:
    """Unpickle a position."""
    return Position._from_trusted_array(np.frombuffer(raw, dtype=np.int8), checkers)


_MOVER_COUNTS = (
    N_(
        "the mover has {count} checkers in play (on the board, the bar or waiting to enter); "
        "a side has {checkers}"
    ),
    N_(
        "the mover has {board} checkers on the board, {bar} on the bar or waiting and {off} off: "
        "{total}, not {checkers}"
    ),
)
_OPPONENT_COUNTS = (
    N_(
        "the opponent has {count} checkers in play (on the board, the bar or waiting to enter); "
        "a side has {checkers}"
    ),
    N_(
        "the opponent has {board} checkers on the board, {bar} on the bar or waiting and {off} off: "
        "{total}, not {checkers}"
    ),
)
"""For each side, what :class:`Position` says when it has too many checkers in play, and when its
checkers do not add up."""

_WRONG_COUNTS: dict[str, tuple[str, str, str]] = {
    "a point": (
        N_("a point holds a whole number of checkers, not {value}"),
        N_("a point cannot hold {value} checkers"),
        N_("a point cannot hold a negative number of checkers ({value})"),
    ),
    "off": (
        N_("off holds a whole number of checkers, not {value}"),
        N_("off cannot hold {value} checkers"),
        N_("off cannot hold a negative number of checkers ({value})"),
    ),
    "the bar": (
        N_("the bar holds a whole number of checkers, not {value}"),
        N_("the bar cannot hold {value} checkers"),
        N_("the bar cannot hold a negative number of checkers ({value})"),
    ),
    "the checkers waiting to enter": (
        N_("the checkers waiting to enter holds a whole number of checkers, not {value}"),
        N_("the checkers waiting to enter cannot hold {value} checkers"),
        N_("the checkers waiting to enter cannot hold a negative number of checkers ({value})"),
    ),
    "the mover's points": (
        N_("the mover's points holds a whole number of checkers, not {value}"),
        N_("the mover's points cannot hold {value} checkers"),
        N_("the mover's points cannot hold a negative number of checkers ({value})"),
    ),
    "the opponent's points": (
        N_("the opponent's points holds a whole number of checkers, not {value}"),
        N_("the opponent's points cannot hold {value} checkers"),
        N_("the opponent's points cannot hold a negative number of checkers ({value})"),
    ),
}
"""What is wrong with a count of checkers, by the place it counts: not a whole number, too many, negative."""


def _checked_int(value: object, what: str) -> int:
    """``value``, checkers (negative: the opponent's) at ``what``, a key of :data:`_WRONG_COUNTS`."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidPositionError(_(_WRONG_COUNTS[what][0]).format(value=repr(value)))
    if not -127 <= int(value) <= 127:
        raise InvalidPositionError(_(_WRONG_COUNTS[what][1]).format(value=value))
    return int(value)


def _checked_count(value: object, what: str) -> int:
    count = _checked_int(value, what)
    if count < 0:
        raise InvalidPositionError(_(_WRONG_COUNTS[what][2]).format(value=count))
    return count
