"""Standard backgammon notation: writing plays and reading what people type.

Written form (one canonical string per play): checkers' paths from the
furthest back, ``bar`` and ``off`` by name, a ``*`` after each hit,
intermediate points only where a checker hit on its way, repeats as ``(n)``::

    24/18 13/10    24/18*/15    bar/22    6/off    8/5(2)    13/7*/1

Reading is forgiving in form and strict in substance: ``25/22``, ``24-18``,
``6/0``, moves in any order, a path given as separate hops (``24/18 18/15``)
and a missing ``*`` are all accepted, but a play that is not legal raises
:class:`IllegalPlayError` saying why, and one that could mean two different
legal plays raises :class:`AmbiguousPlayError`.

>>> from tavola import Dice, Position
>>> start = Position.start()
>>> str(parse_play(start, Dice(6, 3), "24-18 18-15"))
'24/15'
>>> parse_play(start, Dice(6, 5), "24/18 24/19")
Traceback (most recent call last):
...
tavola.errors.IllegalPlayError: 24/19: point 19 is blocked (R5)
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tavola.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidRulesError,
    NotationError,
)
from tavola.i18n import _, ngettext
from tavola.movegen import HIT_NEEDS_HOME, may_hit
from tavola.position import BAR, MY_BAR, MY_OFF, OFF, THEIR_BAR, WAITING, Position, point_name

if TYPE_CHECKING:
    from tavola.dice import Dice
    from tavola.play import LegalPlays, Move, Play
    from tavola.variants import Variant


# --- writing -----------------------------------------------------------------


def format_play(moves: Sequence[Move]) -> str:
    """The canonical notation of a sequence of single-die moves.

    >>> from tavola.play import Move
    >>> format_play([Move(24, 18, hit=True), Move(18, 15), Move(13, 10)])
    '24/18*/15 13/10'
    >>> format_play([Move(8, 5), Move(8, 5), Move(6, 5), Move(6, 5)])
    '8/5(2) 6/5(2)'
    >>> format_play([])
    ''
    """
    paths: list[list[Any]] = []  # a checker each: its source, the points it hit on its way, its end
    for move in moves:
        for path in paths:
            if path[2] == move.source:  # the same checker moving on
                if path[3]:
                    path[1] += f"/{_POINT_NAMES[path[2]]}*"
                path[2], path[3] = move.destination, move.hit
                break
        else:
            paths.append([move.source, "", move.destination, move.hit])
    if len(paths) > 1:
        paths.sort(key=_farthest_first)
    counts: dict[str, int] = {}
    for source, hits, end, hit in paths:
        text = f"{_POINT_NAMES[source]}{hits}/{_POINT_NAMES[end]}{'*' if hit else ''}"
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if count == 1 else f"{text}({count})" for text, count in counts.items())


_POINT_NAMES = tuple(point_name(point) for point in range(WAITING + 1))


def _farthest_first(path: list[Any]) -> tuple[int, int]:
    return -path[0], -path[2]


# --- reading -----------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """One hop as typed: a checker from ``source`` to ``destination``, maybe marked as hitting."""

    source: int
    destination: int
    marked_hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.destination)}{'*' if self.marked_hit else ''}"


_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")
_NAMED_POINTS = {
    **dict.fromkeys(("bar", "b", "barra"), BAR),  # English and Italian "bar", Spanish "barra"
    **dict.fromkeys(("off", "o", "fuori", "fuera"), OFF),  # Italian "fuori", Spanish "fuera"
    "in": WAITING,
}
_POINT = re.compile(rf"^(?P<point>{'|'.join(_NAMED_POINTS)}|\d{{1,2}})(?P<hit>\*?)$")
_PASS_WORDS = {"", "-", "pass", "none", "nothing", "cannot move", "can't move", "no move"}


def parse_segments(text: str) -> list[Segment]:
    """Split typed notation into hops, without looking at any position.

    >>> [str(segment) for segment in parse_segments("24/18*/15 8/5(2)")]
    ['24/18*', '18/15', '8/5', '8/5']
    >>> [str(segment) for segment in parse_segments("bar-22 6/0")]
    ['bar/22', '6/off']
    >>> [str(segment) for segment in parse_segments("barra/22 6/fuera 5/fuori")]
    ['bar/22', '6/off', '5/off']
    """
    if not isinstance(text, str):
        raise NotationError(f"a play is text, such as '8/5 6/5', not {text!r:.80}")
    cleaned = text.strip().lower()
    if cleaned in _PASS_WORDS:
        return []
    segments: list[Segment] = []
    for token in re.split(r"[\s,]+", cleaned):
        match = _TOKEN.match(token)
        if match is None:
            raise NotationError(
                _("cannot read {token}: write moves such as 24/18, bar/22 or 6/off").format(token=repr(token))
            )
        count = int(match.group("count") or 1)
        if not 1 <= count <= 4:
            raise NotationError(
                _("{token}: a move is repeated 1 to 4 times, not {count}").format(
                    token=repr(token), count=count
                )
            )
        points = re.split(r"[/-]", match.group("path"))
        if len(points) < 2:
            raise NotationError(
                _("cannot read {token}: a move names where a checker starts and ends, e.g. 24/18").format(
                    token=repr(token)
                )
            )
        parsed = [_parse_point(point, token) for point in points]
        if parsed[0][1]:
            raise NotationError(
                _("{token}: '*' marks a hit where a checker lands, not where it starts").format(
                    token=repr(token)
                )
            )
        for _repeat in range(count):
            for (source, _marked), (destination, hit) in itertools.pairwise(parsed):
                if destination >= source:
                    raise NotationError(
                        _(
                            "{token}: checkers move from higher points to lower, "
                            "not {source} to {destination}"
                        ).format(
                            token=repr(token), source=point_name(source), destination=point_name(destination)
                        )
                    )
                segments.append(Segment(source, destination, hit))
    return segments


def _parse_point(text: str, token: str) -> tuple[int, bool]:
    match = _POINT.match(text)
    if match is None:
        raise NotationError(
            _("cannot read point {point} in {token}: use 1-24, bar or off").format(
                point=repr(text), token=repr(token)
            )
        )
    name = match.group("point")
    point = _NAMED_POINTS[name] if name in _NAMED_POINTS else int(name)
    if point > WAITING:
        raise NotationError(
            _("{token}: there is no point {point}; points are 1-24, the bar 25 and off 0").format(
                token=repr(token), point=point
            )
        )
    return point, bool(match.group("hit"))


def parse_play(position: Position, dice: Dice, text: str, variant: Variant | str | None = None) -> Play:
    """The one legal play that ``text`` describes.

    Raises :class:`NotationError` for text that is not notation,
    :class:`IllegalPlayError` (saying why) for a play the rules forbid, and
    :class:`AmbiguousPlayError` when the text fits several legal plays.

    >>> from tavola import Dice, Position
    >>> str(parse_play(Position.start(), Dice(3, 1), "6/5 8/5"))
    '8/5 6/5'
    >>> parse_play(Position.start(), None, "8/5 6/5")  # type: ignore[arg-type]
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidDiceError: a play is read for a roll, Dice(3, 1) say, not None
    """
    from tavola.dice import Dice
    from tavola.variants import Variant

    if not isinstance(position, Position):
        raise IllegalPlayError(f"a play is read for a Position, not {type(position).__name__}")
    if not isinstance(dice, Dice):
        raise InvalidDiceError(f"a play is read for a roll, Dice(3, 1) say, not {dice!r:.80}")
    segments = parse_segments(text)
    if variant is not None and not isinstance(variant, str | Variant):
        raise InvalidRulesError(f"a variant is a Variant or its name, not {variant!r:.80}")
    return match_segments(position.legal_plays(dice, variant), segments, typed=text.strip())


def match_segments(legal: LegalPlays, segments: Sequence[Segment], typed: str | None = None) -> Play:
    """The legal play whose hops are ``segments``, or an error saying why there is none.

    ``typed`` is the text the segments came from, quoted back in errors.
    """
    typed = typed or " ".join(map(str, segments))
    if not segments:
        if legal[0].is_pass:
            return legal[0]
        raise IllegalPlayError(
            _("a move is possible, so you must play: {example} is legal (R11)").format(example=legal[0])
        )
    marked = {segment.destination for segment in segments if segment.marked_hit}
    exact: list[Play] = []
    loose: list[Play] = []
    for after, hits in _outcomes(legal.position, legal.dice, segments):
        play = legal.by_result(after)
        if play is None or not marked <= hits:
            continue
        target = exact if hits == marked else loose
        if play not in target:
            target.append(play)
    found = exact or loose
    if len(found) == 1:
        return found[0]
    if found:
        raise AmbiguousPlayError(ambiguous(typed, found))
    raise IllegalPlayError(_why_illegal(legal, segments, typed))


def ambiguous(typed: str, plays: Sequence[object]) -> str:
    """Why ``typed`` is not enough: it could be any of ``plays`` (at least two).

    >>> ambiguous("24/18", ["24/18", "24/18*", "24/20*/18"])
    '24/18 could be 24/18 or 24/18* or 24/20*/18: mark the hits with *'
    """
    options = str(plays[0])
    for play in plays[1:]:
        # TRANSLATORS: plays that one typed move could mean, e.g. "24/18 or 24/18*";
        # {first} may itself be a list joined this way.
        options = _("{first} or {second}").format(first=options, second=play)
    # TRANSLATORS: {typed} is what the player typed, {options} the plays it could mean.
    return _("{typed} could be {options}: mark the hits with *").format(typed=typed, options=options)


def dice_paths(segment: Segment, dice: list[int]) -> Iterator[tuple[int, ...]]:
    """Orders of some of ``dice`` that carry a checker along ``segment``.

    Every landing point but the last is on the board; the last die may be
    larger than needed only when bearing off.
    """
    distance = min(segment.source, BAR) - segment.destination  # a waiting checker enters like one on the bar
    return _dice_paths(segment.destination == OFF, distance, (), dice, 0)


def _dice_paths(
    off: bool, distance: int, used: tuple[int, ...], remaining: list[int], travelled: int
) -> Iterator[tuple[int, ...]]:
    """:func:`dice_paths` on from ``travelled`` pips with ``used`` dice, ``remaining`` left (a function of
    its own, not a closure calling itself: that would be a reference cycle each time)."""
    tried = set()
    for index, die in enumerate(remaining):
        if die in tried:
            continue
        tried.add(die)
        reach = travelled + die
        if reach == distance or (off and reach > distance):
            yield (*used, die)
        elif reach < distance:
            rest = remaining[:index] + remaining[index + 1 :]
            yield from _dice_paths(off, distance, (*used, die), rest, reach)


def assignments(segments: Sequence[Segment], dice: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to give each segment its own dice."""
    if not segments:
        yield []
        return
    for path in dice_paths(segments[0], dice):
        remaining = list(dice)
        for die in path:
            remaining.remove(die)
        for rest in assignments(segments[1:], remaining):
            yield [path, *rest]


def _outcomes(
    position: Position, dice: Dice, segments: Sequence[Segment]
) -> Iterator[tuple[Position, frozenset[int]]]:
    """The positions (and points hit) that the segments can leave, before legality."""
    start = position.to_array()
    for assignment in assignments(segments, list(dice.moves)):
        board = start.astype(np.int16)
        hits: set[int] = set()
        possible = True
        for segment, path in zip(segments, assignment, strict=True):
            board[segment.source] -= 1
            point = min(segment.source, BAR)
            for die in path:
                point = max(point - die, OFF)
                if point == OFF:
                    board[MY_OFF] += 1
                elif start[point] < -1:
                    possible = False
                elif start[point] == -1 and point not in hits:
                    hits.add(point)
                    board[point] = 0
                    board[THEIR_BAR] += 1
            if point > OFF:
                board[point] += 1
        if possible and all(board[segment.source] >= 0 for segment in segments):
            try:
                after = Position.from_array(board, checkers=position.checkers)
            except ValueError:
                continue
            yield after, frozenset(hits)


def _why_illegal(legal: LegalPlays, segments: Sequence[Segment], typed: str) -> str:
    """A player-facing reason why ``segments`` is not a legal play, checked rule by rule."""
    position, dice = legal.position, legal.dice
    example = legal[0]
    if example.is_pass:
        return _("no move is possible with {high}-{low}: the turn passes (R13)").format(
            high=dice.high, low=dice.low
        )
    reason = explain_segments(position, list(dice.moves), segments, typed, legal.variant)
    if reason:
        return reason
    used = min(
        sum(len(path) for path in assignment) for assignment in assignments(segments, list(dice.moves))
    )
    needed = len(example.moves)
    if used < needed and dice.is_double:
        return ngettext(
            "{typed}: {count} move of {die} can be played, so {count} move of {die} must be: "
            "{example} is legal (R11)",
            "{typed}: {count} moves of {die} can be played, so {count} moves of {die} must be: "
            "{example} is legal (R11)",
            needed,
        ).format(typed=typed, count=needed, die=dice.high, example=example)
    if used < needed:
        return _("{typed}: both dice can be played, so both dice must be: {example} is legal (R11)").format(
            typed=typed, example=example
        )
    larger_alone = needed == 1 and not dice.is_double
    if larger_alone and example.moves[0].source - example.moves[0].destination != dice.low:
        return _(
            "{typed}: only one die can be played, so it must be the larger, {die}: {example} is legal (R12)"
        ).format(typed=typed, die=dice.high, example=example)
    if any(segment.destination == OFF for segment in segments):
        return _(
            "{typed}: a larger die bears off only from the highest point (R15); {example} is legal"
        ).format(typed=typed, example=example)
    return _("{typed} is not legal with {high}-{low}; {example} is").format(
        typed=typed, high=dice.high, low=dice.low, example=example
    )


def explain_segments(
    position: Position, dice: list[int], segments: Sequence[Segment], typed: str, variant: Variant
) -> str | None:
    """Why ``segments`` cannot be played with ``dice`` move by move, if a simple rule says so.

    Checks the checkers are there, hits are where marked, the bar comes
    first (R9), each hop has dice that fit and open points (R5, R6), the
    ``variant``'s hitting rule (V1: no hit before a checker is home), bearing
    off waits for all checkers to be home (R14), and the dice suffice.
    ``None`` means the moves are possible one by one; the forced-play rules
    may still forbid them.

    >>> from tavola.variants import DUTCH
    >>> before_home = Position([0] * 2 + [-1] + [0] * 16 + [2] + [0, -1, 0, 0], bar=(13, 13))
    >>> explain_segments(before_home, [3, 1], parse_segments("bar/22*"), "bar/22*", DUTCH)
    'bar/22*: you may not hit until one of your checkers has reached your home board (V1)'
    """
    array = position.to_array()
    net = Counter[int]()
    for segment in segments:
        net[segment.source] -= 1
        net[segment.destination] += 1
    for point in sorted(net, reverse=True):
        if point != OFF and max(int(array[point]), 0) + net[point] < 0:
            if point == BAR:
                message = _("{typed}: you do not have enough checkers on the bar")
            elif point == WAITING:
                message = _("{typed}: you do not have enough checkers waiting to enter")
            else:
                message = _("{typed}: you do not have enough checkers on point {point}")
            return message.format(typed=typed, point=point)
    for segment in segments:
        if segment.marked_hit and array[segment.destination] != -1:
            return _("{move}: there is no single opposing checker on {point} to hit").format(
                move=segment, point=segment.destination
            )
    bar_moves = sum(1 for segment in segments if segment.source == BAR)
    if array[MY_BAR] > bar_moves and any(segment.source != BAR for segment in segments):
        on_bar = int(array[MY_BAR])
        return ngettext(
            "{typed}: enter your checker from the bar first (R9)",
            "{typed}: enter your checkers from the bar first (R9)",
            on_bar,
        ).format(typed=typed)
    for segment in segments:
        reason = _why_segment_fails(segment, dice, array)
        if reason:
            return reason
    reason = _why_no_hit_yet(segments, dice, array, variant)
    if reason:
        return reason
    bearing_off = [segment for segment in segments if segment.destination == OFF]
    if bearing_off and not _all_home_after(array, segments):
        return _("{move}: you can bear off only when all your checkers are in your home board (R14)").format(
            move=bearing_off[0]
        )
    if next(assignments(segments, dice), None) is None:
        shown = "-".join(map(str, dice))
        return _("{typed}: {dice} cannot make all of these moves (each die moves one checker once)").format(
            typed=typed, dice=shown
        )
    return None


def _why_segment_fails(segment: Segment, dice: list[int], array: npt.NDArray[np.int8]) -> str | None:
    """Why no die left can carry a checker along ``segment``, if none can."""
    paths = list(dice_paths(segment, dice))
    if not paths:
        shown = "-".join(map(str, sorted(set(dice), reverse=True)))
        return _("{move}: no die of {dice} moves a checker from {source} to {destination}").format(
            move=segment,
            dice=shown,
            source=point_name(segment.source),
            destination=point_name(segment.destination),
        )
    blocked: set[int] = set()
    for path in paths:
        point = min(segment.source, BAR)
        for die in path:
            point = max(point - die, OFF)
            if point != OFF and array[point] < -1:
                blocked.add(point)
                break
        else:
            return None  # this way is open
    names = [str(point) for point in sorted(blocked, reverse=True)]
    points = names[0]
    for name in names[1:]:
        # TRANSLATORS: blocked points, e.g. "19 and 18"; {first} may itself be a list joined this way.
        points = _("{first} and {second}").format(first=points, second=name)
    return ngettext(
        "{move}: point {points} is blocked (R5)", "{move}: points {points} are blocked (R5)", len(names)
    ).format(move=segment, points=points)


_HOME_TOP = 6
"""The highest point of the mover's home board."""


def _why_no_hit_yet(
    segments: Sequence[Segment], dice: list[int], array: npt.NDArray[np.int8], variant: Variant
) -> str | None:
    """Why a hop cannot be played under the variant's hitting rule (V1), if it is sure to break it.

    It is sure when no checker of the mover's is home or off, no other hop
    brings one home first, and every open way along the hop hits before
    its checker is home.
    """
    if not variant.flags & HIT_NEEDS_HOME or may_hit(array, variant.flags):
        return None
    for index, segment in enumerate(segments):
        others_reach_home = any(
            other.destination <= _HOME_TOP for place, other in enumerate(segments) if place != index
        )
        if not others_reach_home and _hits_before_home_every_way(segment, dice, array):
            return _(
                "{move}: you may not hit until one of your checkers has reached your home board (V1)"
            ).format(move=segment)
    return None


def _hits_before_home_every_way(segment: Segment, dice: list[int], array: npt.NDArray[np.int8]) -> bool:
    """Whether each open way of carrying a checker along ``segment`` hits before the checker is home."""
    open_ways = 0
    for path in dice_paths(segment, dice):
        point = min(segment.source, BAR)
        home = hits_early = False
        for die in path:
            point = max(point - die, OFF)
            if point != OFF and array[point] < -1:
                break  # blocked: not a way (R5)
            hits_early = hits_early or (point != OFF and array[point] == -1 and not home)
            home = point <= _HOME_TOP
        else:
            if not hits_early:
                return False
            open_ways += 1
    return open_ways > 0


def _all_home_after(array: npt.NDArray[np.int8], segments: Sequence[Segment]) -> bool:
    """Whether the mover would have every checker home once the non-bear-off hops are made."""
    board = array.astype(np.int16)
    for segment in segments:
        board[segment.source] -= 1
        if segment.destination != OFF:
            board[segment.destination] += 1
    return bool(board[MY_BAR] <= 0 and (board[7:MY_BAR] <= 0).all())
