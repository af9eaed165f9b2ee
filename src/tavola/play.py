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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from tavola.dice import Dice
from tavola.errors import IllegalPlayError
from tavola.position import BAR, OFF, WAITING, Position, PositionKind, point_name

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
        fields = (
            ("before", before),
            ("dice", dice),
            ("moves", moves),
            ("after", after),
            ("variant", variant),
        )
        for name, value in fields:
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_notation", None)

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


class LegalPlays(Sequence[Play]):
    """The legal plays of a position and roll: a light, ordered, immutable view.

    Iterate it, index it, test ``play in plays`` or ``"8/5 6/5" in plays``.
    A roll that cannot be played gives exactly one play, the pass (R13).
    """

    __slots__ = ("_by_after", "_plays", "dice", "position", "variant")

    def __init__(self, position: Position, dice: Dice, plays: tuple[Play, ...], variant: Variant) -> None:
        self.position, self.dice, self._plays, self.variant = position, dice, plays, variant
        self._by_after = {play.after: play for play in plays}

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...
    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        return self._plays[index]

    def __len__(self) -> int:
        return len(self._plays)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._plays)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return item.before == self.position and item.dice == self.dice and item.after in self._by_after
        if isinstance(item, str):
            from tavola.errors import TavolaError

            try:
                self.position.parse_play(self.dice, item, self.variant)
            except TavolaError:
                return False
            return True
        return False

    def by_result(self, after: Position) -> Play | None:
        """The play that leaves ``after`` (seen from the mover), if one does."""
        return self._by_after.get(after)

    def find_moves(self, moves: Sequence[Move]) -> Play:
        """The play these single-die moves make, or :class:`IllegalPlayError`."""
        from tavola.notation import Segment, match_segments

        return match_segments(self, [Segment(move.source, move.destination, move.hit) for move in moves])

    def positions(self) -> list[Position]:
        """The resulting positions, seen from the mover, in the order of the plays."""
        return [play.after for play in self._plays]

    def __repr__(self) -> str:
        shown = ", ".join(play.notation for play in self._plays[:8])
        more = ", ..." if len(self._plays) > 8 else ""
        return f"<LegalPlays {self.dice} ({len(self._plays)}): {shown}{more}>"


def legal_plays(position: Position, dice: Dice, variant: Variant | str | None = None) -> LegalPlays:
    """Every legal play of ``dice`` in ``position`` (R5-R17), each resulting position once.

    ``variant`` (a :class:`~tavola.variants.Variant` or its name) adds its
    movement rules, such as Dutch backgammon's hitting rule; the standard
    game by default.

    >>> from tavola import Position
    >>> [play.notation for play in legal_plays(Position.start(), Dice(2, 1))][:3]
    ['24/21', '24/23 24/22', '24/22 8/7']
    """
    from tavola.movegen import generate
    from tavola.variants import STANDARD, find_variant

    rules = STANDARD if variant is None else find_variant(variant) if isinstance(variant, str) else variant
    if position.kind is PositionKind.OVER:  # R18
        raise IllegalPlayError(
            "the game is over: a side has borne off all its checkers, so nothing is played"
        )
    results, moves = generate(position.to_array(), dice.high, dice.low, rules.flags)
    plays = []
    for after_array, move_row in zip(results, moves, strict=True):
        steps = tuple(
            Move(int(source), int(destination), bool(hit))
            for source, destination, hit in move_row
            if source >= 0
        )
        after = Position._from_trusted_array(after_array, position.checkers)
        plays.append(Play._trusted(position, dice, steps, after, rules))
    return LegalPlays(position, dice, tuple(plays), rules)
