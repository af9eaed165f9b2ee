"""A turn in progress: the checkers moved so far, undoable until the player commits (R20).

A :class:`Turn` is immutable; each move gives a new one. Every move is
checked at once: it must be legal by itself and leave a way to finish the
roll as the rules require (R11, R12), so a player can never build a play
that cannot be committed.

>>> from tavola import Dice, Position
>>> turn = Turn(Position.start(), Dice(3, 1))
>>> turn = turn.add("8/5")
>>> turn.remaining, turn.is_complete
((1,), False)
>>> turn = turn.add("6/5")
>>> turn.is_complete, str(turn.play)
(True, '8/5 6/5')
>>> Turn(Position.start(), Dice(6, 5)).add("24/19")
Traceback (most recent call last):
...
tavola.errors.IllegalPlayError: 24/19: point 19 is blocked (R5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from tavola.dice import Dice
from tavola.errors import AmbiguousPlayError, IllegalPlayError, NotationError
from tavola.i18n import _
from tavola.movegen import (
    destination,
    highest_checker,
    may_hit,
    move_checker,
    next_moves,
)
from tavola.notation import (
    Segment,
    ambiguous,
    assignments,
    explain_segments,
    format_play,
    parse_segments,
)
from tavola.play import LegalPlays, Move, Play, move_of
from tavola.position import BAR, OFF, Position
from tavola.variants import STANDARD, Variant

_Value = TypeVar("_Value")


class _Kept(Generic[_Value]):
    """A turn's property made once and kept in its ``__dict__``: :func:`functools.cached_property`
    without the lock that, before Python 3.12, makes a thread wait on another making the property
    of any turn at all (a server's threads list many turns' legal moves at once). A turn never
    changes, so two threads making the same value at once make equal ones."""

    def __init__(self, make: Callable[[Any], _Value]) -> None:
        self.make = make
        self.name = make.__name__
        self.__doc__ = make.__doc__

    @overload
    def __get__(self, turn: None, owner: type | None = None) -> _Kept[_Value]: ...
    @overload
    def __get__(self, turn: object, owner: type | None = None) -> _Value: ...
    def __get__(self, turn: object, owner: type | None = None) -> _Value | _Kept[_Value]:
        if turn is None:
            return self
        value = turn.__dict__[self.name] = self.make(turn)  # found there from now on, before this
        return value


@dataclass(frozen=True)
class Turn:
    """The position and dice a turn started with, and the single-die moves made so far."""

    start: Position
    dice: Dice
    moves: tuple[Move, ...] = ()
    used: tuple[int, ...] = field(default=(), repr=False)  # the die each move used
    variant: Variant = STANDARD

    @_Kept
    def legal(self) -> LegalPlays:
        """The legal plays of the whole roll."""
        return self.start.legal_plays(self.dice, self.variant)

    @_Kept
    def current(self) -> Position:
        """The board after the moves so far, still seen from the mover."""
        board = self.start.to_array().copy()
        for move in self.moves:
            move_checker(board, move.source, move.destination)
        return Position._from_trusted_array(board, self.start.checkers)

    @property
    def remaining(self) -> tuple[int, ...]:
        """The dice not used yet."""
        left = list(self.dice.moves)
        for die in self.used:
            left.remove(die)
        return tuple(left)

    @property
    def is_complete(self) -> bool:
        """Whether the moves so far make a whole legal play, ready to commit."""
        return self.legal.by_result(self.current) is not None

    @property
    def play(self) -> Play:
        """The legal play the moves make, once they are complete."""
        play = self.legal.by_result(self.current)
        if play is None:
            left = "-".join(map(str, self.remaining))
            raise IllegalPlayError(
                _("the play is not finished: {dice} still to play ({example} is legal)").format(
                    dice=left, example=self.legal[0]
                )
            )
        return play

    def parse_play(self, text: str) -> Play:
        """The legal play of the whole roll that ``text`` describes: a play's own notation, as listed,
        found at once; any other form read by :meth:`Position.parse_play`, which says what is wrong.

        >>> Turn(Position.start(), Dice(3, 1)).parse_play("6/5 8/5").notation
        '8/5 6/5'
        """
        listed = self.legal.by_notation(text)
        return listed if listed is not None else self.start.parse_play(self.dice, text, self.variant)

    @property
    def notation(self) -> str:
        """The moves so far in standard notation."""
        return format_play(self.moves)

    def add(self, moves: str | Move | Sequence[Move]) -> Turn:
        """The turn after one or more moves, typed (``"24/18"``, ``"bar/22 6/off"``) or as :class:`Move`.

        Raises :class:`IllegalPlayError` saying why the moves are not
        allowed, :class:`AmbiguousPlayError` when they could be made in
        different ways, and :class:`~tavola.errors.NotationError` for text
        that is not notation.
        """
        if isinstance(moves, str):
            segments, typed = parse_segments(moves), moves.strip()
        else:
            steps = [moves] if isinstance(moves, Move) else moves
            if not isinstance(steps, Sequence) or not all(isinstance(move, Move) for move in steps):
                raise NotationError(
                    _("moves are notation such as 24/18 or Move values, not {moves}").format(
                        moves=repr(moves)
                    )
                )
            segments = [Segment(move.source, move.destination, move.hit) for move in steps]
            typed = " ".join(map(str, segments))
        if not segments:
            raise IllegalPlayError(
                _("no move given: name a checker's move such as 24/18, or commit the play")
            )
        marked = {segment.destination for segment in segments if segment.marked_hit}
        exact: dict[Position, Turn] = {}
        loose: dict[Position, Turn] = {}
        playable_alone = False
        for assignment in assignments(segments, list(self.remaining)):
            found = self._follow(segments, assignment)
            if found is None:
                continue
            playable_alone = True
            after, hits = found
            if not marked <= hits or not after._can_finish():
                continue
            chosen = exact if hits == marked else loose
            best = chosen.get(after.current)
            if best is None or sorted(after.remaining) > sorted(best.remaining):
                chosen[after.current] = after  # keep the larger dice for later (a bear-off by the exact die)
        found_turns = list((exact or loose).values())
        if len(found_turns) == 1:
            return found_turns[0]
        if found_turns:
            raise AmbiguousPlayError(ambiguous(typed, [turn.notation for turn in found_turns]))
        reason = explain_segments(self.current, list(self.remaining), segments, typed, self.variant)
        if reason is None and playable_alone:
            reason = _(
                "{typed}: after that the rest of the roll cannot be played as the rules require "
                "(R11, R12); {example} is legal"
            ).format(typed=typed, example=self.legal[0])
        raise IllegalPlayError(
            reason or _("{typed} is not legal now; {example} is").format(typed=typed, example=self.legal[0])
        )

    def _follow(
        self, segments: Sequence[Segment], dice: list[tuple[int, ...]]
    ) -> tuple[Turn, set[int]] | None:
        """Play each segment with its dice, one legal single-die move at a time, or ``None``."""
        board = self.current.to_array().copy()
        moves, used, hits = list(self.moves), list(self.used), set()
        for segment, path in zip(segments, dice, strict=True):
            point = segment.source
            for die in path:
                target = destination(
                    board, point, die, highest_checker(board, BAR), may_hit(board, self.variant.flags)
                )
                if target < 0 or target != max(min(point, BAR) - die, OFF):
                    return None
                hit = bool(move_checker(board, point, target))
                if hit:
                    hits.add(target)
                moves.append(Move(point, target, hit))
                used.append(die)
                point = target
        return self._continued(tuple(moves), tuple(used)), hits

    def _continued(self, moves: tuple[Move, ...], used: tuple[int, ...]) -> Turn:
        """The same turn with ``moves`` made: the same roll from the same start, so the same legal plays."""
        turn = Turn(self.start, self.dice, moves, used, self.variant)
        turn.__dict__["legal"] = self.legal  # kept at once: generated once per roll
        return turn

    def _can_finish(self) -> bool:
        """Whether some way to play the dice left ends in a legal play: the moves so far make one, or a next
        move leads to one (found once, and listed from then on)."""
        return self.is_complete or bool(self._next_moves)

    def next_moves(self) -> list[Move]:
        """The single-die moves that may come next, each leaving a way to finish the roll."""
        return list(self._next_moves)

    @_Kept
    def _next_moves(self) -> tuple[Move, ...]:
        """:meth:`next_moves`, found once per turn (a turn never changes; a page lists them after every
        change, and a table asks them again to see who may act), in one compiled call
        (:func:`~tavola.movegen.next_moves`): a candidate stays where some way on ends in one of the roll's
        legal plays."""
        found = next_moves(self.current.to_array(), self.remaining, self.legal.results, self.variant.flags)
        return tuple(move_of(*row) for row in found.tolist())

    def __str__(self) -> str:
        moves = self.notation or _("(no moves yet)")
        return f"{self.dice}: {moves}"
