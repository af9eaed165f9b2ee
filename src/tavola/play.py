"""Plays: the :class:`Move` and :class:`Play` values and the :class:`LegalPlays` view.

A play is everything a player does with one roll. Two plays that leave the
same board are the same play: :func:`legal_plays` lists each resulting
position once, under one canonical notation.

>>> from tavola import Dice, Position
>>> plays = Position.start().legal_plays(Dice(6, 5))
>>> len(plays), "24/13" in plays, "24/18 24/19" in plays
(7, True, False)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

import numpy as np
import numpy.typing as npt

from tavola.dice import Dice
from tavola.errors import IllegalPlayError
from tavola.position import BAR, OFF, WAITING, Position, point_name

if TYPE_CHECKING:
    from tavola.variants import Variant


@dataclass(frozen=True, order=True)
class Move:
    """One checker moved by one die, from ``source`` to ``destination``.

    The bar is point 25 and off is point 0, both from the mover's side; a
    checker not yet entered (Acey-Deucey) starts from point 26, ``in``.

    >>> str(Move(25, 22, hit=True)), str(Move(6, 0)), str(Move(26, 20))
    ('bar/22*', '6/off', 'in/20')
    """

    source: int
    destination: int
    hit: bool = False

    def __post_init__(self) -> None:
        if not (1 <= self.source <= WAITING and OFF <= self.destination < min(self.source, BAR)):
            raise IllegalPlayError(
                "a checker moves forward from a point 1-24, the bar or in, "
                f"not {self.source}/{self.destination}"
            )

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.destination)}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        hit = ", hit=True" if self.hit else ""
        return f"Move({self.source}, {self.destination}{hit})"


class Play:
    """A legal play: the position before, the dice, the single-die moves, and the result.

    ``after`` is the resulting position still seen from the player who moved;
    ``after.flip()`` is the position the opponent rolls from. Building a Play
    checks that it is legal.

    >>> from tavola import Dice, Position
    >>> Play(Position.start(), Dice(3, 1), (Move(8, 5), Move(6, 5)))
    Play(Position.from_position_id('4HPwATDgc/ABMA'), Dice(3, 1), (Move(8, 5), Move(6, 5)))
    """

    __slots__ = ("_notation", "after", "before", "dice", "moves", "variant")

    before: Position
    dice: Dice
    moves: tuple[Move, ...]
    after: Position
    variant: Variant
    _notation: str | None

    def __init__(
        self, before: Position, dice: Dice, moves: Sequence[Move], variant: Variant | str | None = None
    ) -> None:
        found = legal_plays(before, dice, variant).find_moves(moves)
        self._set(before, dice, tuple(moves), found.after, found.variant)

    @classmethod
    def _trusted(
        cls, before: Position, dice: Dice, moves: tuple[Move, ...], after: Position, variant: Variant
    ) -> Play:
        play = object.__new__(cls)
        play._set(before, dice, moves, after, variant)
        return play

    def _set(
        self, before: Position, dice: Dice, moves: tuple[Move, ...], after: Position, variant: Variant
    ) -> None:
        setattr_ = object.__setattr__  # an immutable value's fields, set once each (a turn makes many plays)
        setattr_(self, "before", before)
        setattr_(self, "dice", dice)
        setattr_(self, "moves", moves)
        setattr_(self, "after", after)
        setattr_(self, "variant", variant)
        setattr_(self, "_notation", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Play is immutable: {name} cannot be set")

    @property
    def is_pass(self) -> bool:
        """Whether no checker moves (R13)."""
        return not self.moves

    @property
    def notation(self) -> str:
        """The play in standard notation, e.g. ``24/18*/15 13/10``."""
        notation = self._notation
        if notation is None:
            from tavola.notation import format_play

            notation = format_play(self.moves)
            object.__setattr__(self, "_notation", notation)
        return notation

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        variant = "" if self.variant.name == "standard" else f", {self.variant.name!r}"
        return f"Play({self.before!r}, {self.dice!r}, {self.moves!r}{variant})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        mine = (self.before, self.dice, self.after, self.variant.name)
        return mine == (other.before, other.dice, other.after, other.variant.name)

    def __hash__(self) -> int:
        return hash((self.before, self.dice, self.after))

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore_play, (self.before, self.dice, self.moves, self.after, self.variant))

    def __copy__(self) -> Play:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Play:
        return self


def _restore_play(
    before: Position, dice: Dice, moves: tuple[Move, ...], after: Position, variant: Variant
) -> Play:
    """Unpickle a play (it was checked when it was made)."""
    return Play._trusted(before, dice, moves, after, variant)


class LegalPlays(Sequence[Play]):
    """The legal plays of a position and roll: an ordered, immutable view of the move generator's arrays.

    Iterate it, index it, test ``play in plays`` or ``"8/5 6/5" in plays``.
    A roll that cannot be played gives exactly one play, the pass (R13).
    ``results`` and ``moves`` are :func:`~tavola.movegen.generate`'s arrays
    (read-only; row ``k`` is play ``k``), for code that judges every play at
    once, such as the bot; a :class:`Play`, and later its notation, is made
    only for the plays asked for. :func:`legal_plays` makes one.

    >>> from tavola import Dice, Position
    >>> plays = Position.start().legal_plays(Dice(3, 1))
    >>> plays.results.shape, str(plays[0]), plays.by_result(plays[5].after) is plays[5]
    ((16, 30), '24/20', True)
    """

    __slots__ = (
        "_made",
        "_move_rows",
        "_named",
        "_notations",
        "_result_rows",
        "_rows",
        "dice",
        "moves",
        "position",
        "results",
        "variant",
    )

    position: Position
    dice: Dice
    variant: Variant
    results: npt.NDArray[np.int8]
    moves: npt.NDArray[np.int8]
    _made: list[Play | None]
    _result_rows: list[bytes] | None
    _move_rows: list[bytes] | None
    _rows: dict[bytes, int] | None
    _notations: tuple[str, ...] | None
    _named: dict[str, int] | None

    def __init__(
        self,
        position: Position,
        dice: Dice,
        results: npt.NDArray[np.int8],
        moves: npt.NDArray[np.int8],
        variant: Variant,
    ) -> None:
        """Wrap the generator's ``results`` and ``moves`` of ``position`` and ``dice``, trusted."""
        results.setflags(write=False)
        moves.setflags(write=False)
        self.position, self.dice, self.variant = position, dice, variant
        self.results, self.moves = results, moves
        self._made = [None] * len(results)
        self._result_rows = self._move_rows = None
        self._rows = None
        self._notations = None
        self._named = None

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...
    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        if isinstance(index, slice):
            return tuple(self._play(row) for row in range(len(self._made))[index])
        row, count = operator.index(index), len(self._made)
        if not -count <= row < count:
            raise IndexError(f"there are {count} legal plays, not a play {row}")
        return self._play(row % count)

    def _play(self, row: int) -> Play:
        """Play ``row``, made from the arrays the first time it is asked for."""
        play = self._made[row]
        if play is None:
            steps, notation = _steps(self._moves_bytes()[row])
            after = Position._from_trusted_bytes(self._results_bytes()[row], self.position.checkers)
            play = self._made[row] = Play._trusted(self.position, self.dice, steps, after, self.variant)
            object.__setattr__(play, "_notation", notation)
        return play

    def __len__(self) -> int:
        return len(self._made)

    def __iter__(self) -> Iterator[Play]:
        return (self._play(row) for row in range(len(self._made)))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return (
                item.before == self.position
                and item.dice == self.dice
                and self.row_of(item.after) is not None
            )
        if isinstance(item, str):
            from tavola.errors import TavolaError
            from tavola.notation import match_segments, parse_segments

            try:
                match_segments(self, parse_segments(item), typed=item.strip())
            except TavolaError:
                return False
            return True
        return False

    def row_of(self, after: Position) -> int | None:
        """The index of the play that leaves ``after`` (seen from the mover), if one does."""
        if after.checkers != self.position.checkers:
            return None
        return self.rows().get(after.to_array().tobytes())

    def rows(self) -> dict[bytes, int]:
        """Each play's resulting board (its array's bytes) and its index: read it, never change it."""
        rows = self._rows
        if rows is None:
            rows = self._rows = {result: row for row, result in enumerate(self._results_bytes())}
        return rows

    def _results_bytes(self) -> list[bytes]:
        """Each row of ``results`` as bytes (:func:`row_bytes`), made once."""
        rows = self._result_rows
        if rows is None:
            rows = self._result_rows = row_bytes(self.results)
        return rows

    def _moves_bytes(self) -> list[bytes]:
        """Each row of ``moves`` as bytes, made once: the key of its moves and notation."""
        rows = self._move_rows
        if rows is None:
            rows = self._move_rows = row_bytes(self.moves)
        return rows

    def notations(self) -> tuple[str, ...]:
        """Each play's notation, in order, read from the generator's rows without making the plays
        (a page lists every legal play of a roll by its notation).

        >>> from tavola import Dice, Position
        >>> plays = Position.start().legal_plays(Dice(6, 5))
        >>> plays.notations()[:3] == tuple(play.notation for play in plays[:3])
        True
        """
        notations = self._notations
        if notations is None:
            notations = self._notations = tuple(_steps(key)[1] for key in self._moves_bytes())
        return notations

    def by_result(self, after: Position) -> Play | None:
        """The play that leaves ``after`` (seen from the mover), if one does."""
        row = self.row_of(after)
        return None if row is None else self._play(row)

    def by_notation(self, text: str) -> Play | None:
        """The play whose canonical notation is exactly ``text``, if one is (a play read back as it was
        listed); anything else is for :func:`~tavola.notation.parse_play`, which reads every form.

        >>> from tavola import Dice, Position
        >>> plays = Position.start().legal_plays(Dice(3, 1))
        >>> plays.by_notation("8/5 6/5") is plays.by_result(plays.by_notation("8/5 6/5").after)
        True
        >>> plays.by_notation("6/5 8/5") is None
        True
        """
        named = self._named
        if named is None:
            named = self._named = {notation: row for row, notation in enumerate(self.notations())}
        row = named.get(text)
        return None if row is None else self._play(row)

    def find_moves(self, moves: Sequence[Move]) -> Play:
        """The play these single-die moves make, or :class:`IllegalPlayError`."""
        from tavola.notation import Segment, match_segments

        return match_segments(self, [Segment(move.source, move.destination, move.hit) for move in moves])

    def positions(self) -> list[Position]:
        """The resulting positions, seen from the mover, in the order of the plays."""
        return [Position._from_trusted_array(result, self.position.checkers) for result in self.results]

    def __repr__(self) -> str:
        shown = ", ".join(play.notation for play in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalPlays {self.dice} ({len(self)}): {shown}{more}>"


def row_bytes(array: npt.NDArray[np.int8]) -> list[bytes]:
    """Each row of ``array`` as bytes, cut from the bytes of the whole array: far cheaper than asking
    NumPy for each row's.

    >>> row_bytes(np.array([[1, 2], [3, 4]], dtype=np.int8))
    [b'\\x01\\x02', b'\\x03\\x04']
    """
    raw = array.tobytes()
    width = len(raw) // len(array) if len(array) else 0
    return [raw[start : start + width] for start in range(0, len(raw), width)] if width else []


_STEPS: dict[bytes, tuple[tuple[Move, ...], str]] = {}
"""The moves and notation of the generator's rows of moves met so far (the same few thousand plays come
back, in one position after another)."""
_MOST_STEPS = 1 << 16


def _steps(key: bytes) -> tuple[tuple[Move, ...], str]:
    """The single-die moves of a row of the generator's ``moves`` (its bytes), and their notation, made
    once per row."""
    found = _STEPS.get(key)
    if found is None:
        from tavola.notation import format_play

        if len(_STEPS) >= _MOST_STEPS:
            _STEPS.clear()
        row = memoryview(key).cast("b").tolist()  # source, destination, hit; then -1s for no move
        steps = tuple(move_of(*row[at : at + 3]) for at in range(0, len(row), 3) if row[at] >= 0)
        found = _STEPS[key] = (steps, format_play(steps))
    return found


@functools.cache
def move_of(source: int, destination: int, hit: int) -> Move:
    """The one :class:`Move` value for a row of the generator's moves (there are only a few hundred).

    >>> move_of(8, 5, 0) is move_of(8, 5, 0), str(move_of(8, 5, 1))
    (True, '8/5*')
    """
    return Move(source, destination, bool(hit))


def legal_plays(position: Position, dice: Dice, variant: Variant | str | None = None) -> LegalPlays:
    """Every legal play of ``dice`` in ``position`` (R5-R17), each resulting position once.

    ``variant`` (a :class:`~tavola.variants.Variant` or its name) adds its
    movement rules, such as Dutch backgammon's hitting rule; the standard
    game by default. The plays are generated once, in one compiled call.

    >>> from tavola import Position
    >>> [play.notation for play in legal_plays(Position.start(), Dice(2, 1))][:3]
    ['24/21', '24/23 24/22', '24/22 8/7']
    """
    from tavola.gameover import game_over
    from tavola.movegen import generate
    from tavola.variants import STANDARD, find_variant

    rules = STANDARD if variant is None else find_variant(variant) if isinstance(variant, str) else variant
    board = position.to_array()
    if game_over(board):  # R18
        raise IllegalPlayError(
            "the game is over: a side has borne off all its checkers, so nothing is played"
        )
    results, moves = generate(board, dice.high, dice.low, rules.flags)
    return LegalPlays(position, dice, results, moves, rules)
