"""Looking ahead: n-ply evaluation and the choice of a play at n plies.

Plies count the rolls looked at beyond the play being chosen, as GNU
Backgammon counts them:

* **0-ply**: the evaluator on each position;
* **n-ply** (:func:`evaluate_ply`): the average over the 21 rolls (a double
  weighs 1/36, any other roll 2/36) of the value of the best play of the
  player on roll, each play judged by its result's (n-1)-ply value seen from
  the opponent and turned back. A finished game is its exact result.

Choosing a play at n plies judges each play by its result's n-ply value.
Looking at every play of every roll at every depth costs too much, so a
:class:`MoveFilter` narrows the plays step by step: all of them at 0-ply,
the best few at 1-ply, fewer at 2-ply, at the root (the play being chosen)
and, more tightly, for the replies inside the tree.
Each layer of the tree is one call to :func:`~tavola.movegen.generate_batch`
and one call to the evaluator per depth, and positions met more than once
in a search (the same reply found again from another candidate, or by two
orders of play) are evaluated once: a search keeps a table of the positions
it has evaluated at each depth.

:func:`rank_plays` lists the plays of a position and roll best first (what
a hint shows); :class:`SearchChooser` plays the best one, with optional
noise, in the arena's :class:`~tavola.bot.arena.Chooser` protocol, and
:class:`SearchPolicy` does the same for many games at once in the
self-play kernel (:mod:`tavola.selfplay`), its noise keyed; the bot's
levels (:mod:`tavola.bot.levels`) are settings of these. The evaluator's
variant (:attr:`Evaluator.variant`) says when a game is over and what it is
worth, so a search judges a variant's positions in its own points.

>>> from tavola import Dice, Position
>>> from tavola.bot.evaluate import Evaluator
>>> evaluator = Evaluator.untrained(hidden=8, seed=1)
>>> ranked = rank_plays(evaluator, Position.start(), Dice(3, 1), plies=1)
>>> len(ranked), ranked[0].plies, ranked[-1].plies
(16, 1, 0)
>>> evaluate_ply(evaluator, Position.start().to_array()[None], 2).shape  # win, gammon, ... for the mover
(1, 5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.continuation import AGAIN, NEXT, continued
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import OUTPUTS, flip_probabilities
from tavola.dice import ALL_ROLLS, Dice
from tavola.gameover import game_over
from tavola.movegen import board_hash, generate, generate_batch
from tavola.position import ARRAY_SIZE, Position, flip_array
from tavola.selfplay import NOISE, Candidates, keyed_normal

IntArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float32]
Indices = npt.NDArray[np.int64]

_ROLLS = np.array(ALL_ROLLS, dtype=np.int8)
ROLL_WEIGHTS = np.array([1 if roll.is_double else 2 for roll in ALL_ROLLS], dtype=np.float64) / 36
"""The chance of each roll of :data:`tavola.dice.ALL_ROLLS`, in that order."""
MAX_PLIES = 3
"""The deepest search :func:`evaluate_ply` and :func:`rank_plays` accept (3-ply already takes seconds)."""


# --- the move filter ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stage:
    """Which candidates one depth passes on to the next: at most ``limit``, within ``threshold`` of the best.

    ``threshold`` is in cubeless equity (points per game at a stake of 1);
    the best candidate always goes on.
    """

    limit: int
    threshold: float

    def __post_init__(self) -> None:
        if self.limit < 1 or not self.threshold >= 0:
            raise ValueError(f"a stage keeps at least one play within a threshold >= 0, not {self}")


@dataclass(frozen=True)
class MoveFilter:
    """How the plays of one position and roll are narrowed as a search goes deeper.

    At the root (the play being chosen): after the candidates are evaluated
    at ``d`` plies, ``stages[d]`` (the last stage for deeper plies) says
    which go on to ``d + 1`` plies. Inside the tree, where the side on roll
    picks its reply to each roll, ``replies`` does the same (``None``: the
    root's stages).

    The default keeps, at the root, up to 8 plays within 0.16 of the best
    0-ply play for 1-ply and up to 4 within 0.08 of the best 1-ply play for
    2-ply; inside the tree, the best 2 replies within 0.02 at 0-ply, so at
    2 plies each of the opponent's 21 replies is the better at 1-ply of its
    two best at 0-ply when they are that close. Measured on 300 positions
    from random games with a 128-unit network, against a much wider search
    (16 within 0.32 at every step, 6 within 0.12 for 2-ply): a wider root
    filter made better choices, a wider one inside the tree hardly changed
    them, and the default chose plays worth about 0.001 to 0.0015 less a
    move for a sixth of the evaluations. Measured again with the shipped
    networks on 300 moves against a search keeping 12 within 0.24, then 6
    within 0.12, and 3 replies within 0.06: replies within 0.02 lose 0.00012
    a move by the wide search's values, within 0.04 0.00011 for 15% more
    time (and 20% more on the slowest move), and each reply chosen at 0-ply
    (``replies=(Stage(1, 0.0),)``, as GNU Backgammon's 2-ply does) 0.00016.
    ``MoveFilter.exhaustive()`` looks at everything (full expectimax), for
    tests and analysis.

    >>> MoveFilter().stage(0), MoveFilter().stage(5)
    (Stage(limit=8, threshold=0.16), Stage(limit=4, threshold=0.08))
    >>> MoveFilter().stage(0, reply=True)
    Stage(limit=2, threshold=0.02)
    """

    stages: tuple[Stage, ...] = (Stage(8, 0.16), Stage(4, 0.08))
    replies: tuple[Stage, ...] | None = (Stage(2, 0.02),)

    def __post_init__(self) -> None:
        if not self.stages or self.replies == ():
            raise ValueError("a move filter has at least one stage")

    def stage(self, depth: int, *, reply: bool = False) -> Stage:
        """The stage that applies after evaluating at ``depth`` plies (inside the tree when ``reply``)."""
        stages = self.replies if reply and self.replies is not None else self.stages
        return stages[min(depth, len(stages) - 1)]

    @classmethod
    def exhaustive(cls) -> MoveFilter:
        """A filter that keeps every play: the whole expectimax tree."""
        return cls((Stage(1 << 30, math.inf),), None)


DEFAULT_FILTER = MoveFilter()


# --- a table of evaluated positions -------------------------------------------------------------------


@njit(cache=True)
def _find_or_add(keys: IntArray, used: npt.NDArray[np.bool_], rows: IntArray, slots: Indices) -> Indices:
    """Write each row's slot in the table to ``slots``, adding rows not there yet; return the new slots.

    Open addressing with linear probing; the table is at most half full.
    """
    mask = len(used) - 1
    added = np.empty(len(rows), dtype=np.int64)
    count = 0
    for index in range(len(rows)):
        row = rows[index]
        slot = board_hash(row) & mask
        while used[slot]:
            same = True
            for column in range(ARRAY_SIZE):
                if keys[slot, column] != row[column]:
                    same = False
                    break
            if same:
                break
            slot = (slot + 1) & mask
        else:
            used[slot] = True
            keys[slot] = row
            added[count] = slot
            count += 1
        slots[index] = slot
    return added[:count]


class _Table:
    """Positions evaluated at one depth, and their probabilities: a hash table that grows.

    >>> table = _Table(4)
    >>> rows = np.zeros((3, ARRAY_SIZE), dtype=np.int8)
    >>> rows[1, 5] = 1
    >>> slots, added = table.find_or_add(rows)
    >>> len(added), bool(slots[0] == slots[2]), len(table)
    (2, True, 2)
    """

    __slots__ = ("count", "keys", "used", "values")

    def __init__(self, capacity: int = 1024) -> None:
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        self.keys = np.zeros((capacity, ARRAY_SIZE), dtype=np.int8)
        self.used = np.zeros(capacity, dtype=np.bool_)
        self.values = np.zeros((capacity, OUTPUTS), dtype=np.float32)
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def find_or_add(self, rows: IntArray) -> tuple[Indices, Indices]:
        """The slot of each row, and the slots of rows not met before (their values are still to fill)."""
        needed = 2 * (self.count + len(rows))
        if needed > len(self.used):
            self._grow(1 << (needed - 1).bit_length())
        slots = np.empty(len(rows), dtype=np.int64)
        added = _find_or_add(self.keys, self.used, rows, slots)
        self.count += len(added)
        return slots, added

    def _grow(self, capacity: int) -> None:
        old = np.flatnonzero(self.used)
        keys, values = self.keys[old], self.values[old]
        self._allocate(capacity)
        slots, _ = self.find_or_add(keys)
        self.values[slots] = values


# --- the search ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Rolls:
    """The 21 rolls of some positions before the roll, and the best play of each (what n-ply looks at).

    The plays of position ``i`` and roll ``r`` (of :data:`tavola.dice.ALL_ROLLS`) are group ``21 i + r``:
    rows ``offsets[g]:offsets[g + 1]`` of ``probabilities`` (each play's result for its mover, at
    ``plies - 1``), in :func:`~tavola.movegen.generate_batch`'s order for that position and roll;
    ``best`` is each group's best row, ``means`` each position's probabilities at ``plies`` (the
    rolls' best plays averaged, a double weighing 1/36, any other roll 2/36).
    """

    offsets: Indices
    probabilities: FloatArray
    best: Indices
    means: FloatArray


ROLL_INDEX = np.full((7, 7), -1, dtype=np.int64)
"""The index in :data:`tavola.dice.ALL_ROLLS` of the roll of two dice (either order; -1 for a 0)."""
for _index, _roll in enumerate(ALL_ROLLS):
    ROLL_INDEX[_roll.high, _roll.low] = ROLL_INDEX[_roll.low, _roll.high] = _index


@dataclass
class _Search:
    """One search: the evaluator, the filter, and the positions evaluated so far at each depth."""

    evaluator: Evaluator
    filter: MoveFilter = DEFAULT_FILTER
    tables: dict[int, _Table] = field(default_factory=dict)

    @property
    def flags(self) -> int:
        """The move generator's flags: the rules of the variant the evaluator judges."""
        return self.evaluator.variant.flags

    def evaluate(self, boards: IntArray, plies: int) -> FloatArray:
        """Probabilities at ``plies`` for the player on roll, each distinct position evaluated once."""
        table = self.tables.setdefault(plies, _Table())
        slots, added = table.find_or_add(boards)
        if len(added):
            fresh = table.keys[added]
            table.values[added] = self.evaluator.evaluate(fresh) if plies == 0 else self._expand(fresh, plies)
        result: FloatArray = table.values[slots]
        return result

    def _expand(self, boards: IntArray, plies: int) -> FloatArray:
        """The n-ply probabilities of distinct positions: the 21 rolls, the best play of each."""
        out = np.empty((len(boards), OUTPUTS), dtype=np.float32)
        over = game_over(boards)  # the evaluator's result is exact
        if over.any():
            out[over] = self.evaluator.evaluate(boards[over])
        live = boards[~over]
        if len(live):
            out[~over] = self.rolls(live, plies).means
        return out

    def rolls(self, boards: IntArray, plies: int) -> Rolls:
        """The 21 rolls of each of ``boards`` (games going on), each roll's plays judged at ``plies - 1``."""
        offsets, results, _ = generate_batch(
            np.repeat(boards, len(_ROLLS), axis=0), np.tile(_ROLLS, (len(boards), 1)), self.flags
        )
        probabilities, equities, plies_done = self.plays(offsets, results, plies - 1, reply=True)
        best = best_in_groups(offsets, equities, plies_done)
        by_roll = probabilities[best].reshape(len(boards), len(_ROLLS), OUTPUTS).astype(np.float64)
        means = np.tensordot(ROLL_WEIGHTS, by_roll, axes=(0, 1)).astype(np.float32)
        return Rolls(offsets, probabilities, best, means)

    def plays(
        self,
        offsets: Indices,
        results: IntArray,
        plies: int,
        noise: npt.NDArray[np.float64] | None = None,
        *,
        reply: bool = False,
        keep: Indices | None = None,
        kinds: npt.NDArray[np.int8] | None = None,
    ) -> tuple[FloatArray, npt.NDArray[np.float64], npt.NDArray[np.int8]]:
        """Judge the plays of several groups (each a position and roll), narrowing as the search deepens.

        ``results[offsets[g]:offsets[g + 1]]`` are the results of group
        ``g``, seen from its mover. Returns, for every play, the mover's
        probabilities and equity at the deepest ply it reached, and that ply;
        ``noise``, when given, is added to the equities (and so to the
        choices of the filter). The rows in ``keep`` are judged at every
        depth besides those the filter passes, without taking their places.
        ``kinds`` (:func:`tavola.bot.continuation.kinds`, one a row) says
        which plays the mover goes on after (Acey-Deucey, V2): those are
        judged at every depth by what follows them
        (:func:`~tavola.bot.continuation.continued`), not by the opponent's roll.
        """
        count = len(results)
        group = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        opponent_view, on_roll = self._views(results, kinds)
        probabilities = np.empty((count, OUTPUTS), dtype=np.float32)
        equities = np.empty(count, dtype=np.float64)
        reached = np.zeros(count, dtype=np.int8)
        rows = np.arange(count)
        kept = np.zeros(0, dtype=np.int64) if keep is None else np.asarray(keep, dtype=np.int64)
        for depth in range(plies + 1):
            judged = np.union1d(rows, kept) if len(kept) else rows
            every = len(judged) == count  # then judged lists every row in order: no copy needed
            found = self.evaluate(opponent_view if every else opponent_view[judged], depth)
            if on_roll is None:
                found = flip_probabilities(found)
            else:
                turned = ~on_roll[judged]
                found[turned] = flip_probabilities(found[turned])
            probabilities[judged] = found
            equities[judged] = self.evaluator.equity(found)
            if noise is not None:
                equities[judged] += noise[judged]
            reached[judged] = depth
            if depth < plies:
                stage = self.filter.stage(depth, reply=reply)
                rows = rows[keep_in_groups(group[rows], equities[rows], stage.limit, stage.threshold)]
        return probabilities, equities, reached

    def _views(
        self, results: IntArray, kinds: npt.NDArray[np.int8] | None
    ) -> tuple[IntArray, npt.NDArray[np.bool_] | None]:
        """The boards to value for each result, each with its player on roll, and which of them have the
        mover on roll (None: none, every result is the opponent's to roll)."""
        if kinds is None or not (np.asarray(kinds) != NEXT).any():
            return flip_array(results), None
        boards, what = continued(self.evaluator, results, kinds)
        on_roll = what == AGAIN
        boards[~on_roll] = flip_array(boards[~on_roll])
        return boards, on_roll


def keep_in_groups(
    group: npt.NDArray[np.int64], equities: npt.NDArray[np.float64], limit: int, threshold: float
) -> Indices:
    """The rows that pass a filter stage: in each group, at most ``limit`` within ``threshold`` of its best.

    Returns their indices in increasing order; among equal equities the earlier row goes first.

    >>> keep_in_groups(np.array([0, 0, 0, 1]), np.array([0.1, 0.5, 0.45, -1.0]), 2, 0.16).tolist()
    [1, 2, 3]
    """
    order = np.lexsort((-equities, group))
    ordered = group[order]
    position = np.arange(len(order))
    first = np.ones(len(order), dtype=np.bool_)
    first[1:] = ordered[1:] != ordered[:-1]
    start = np.maximum.accumulate(np.where(first, position, 0))
    best = equities[order][start]
    passes = (position - start < limit) & (equities[order] >= best - threshold)
    return np.sort(order[passes])


def best_in_groups(
    offsets: Indices, equities: npt.NDArray[np.float64], plies: npt.NDArray[np.int8] | None = None
) -> Indices:
    """The best row of each group of consecutive rows: the deepest-searched first, then the best equity.

    Group ``g`` is rows ``offsets[g]:offsets[g + 1]``, never empty; among
    equals the earlier row wins.

    >>> best_in_groups(np.array([0, 2, 3]), np.array([0.1, 0.3, -2.0])).tolist()
    [1, 2]
    >>> best_in_groups(np.array([0, 2]), np.array([0.1, 0.3]), np.array([1, 0], dtype=np.int8)).tolist()
    [0]
    """
    depth = np.zeros(len(equities), dtype=np.int8) if plies is None else plies
    return _best_in_groups(np.asarray(offsets, dtype=np.int64), equities, depth)


@njit(cache=True)
def _best_in_groups(
    offsets: Indices, equities: npt.NDArray[np.float64], plies: npt.NDArray[np.int8]
) -> Indices:
    best = np.empty(len(offsets) - 1, dtype=np.int64)
    for group in range(len(offsets) - 1):
        chosen = offsets[group]
        for row in range(offsets[group] + 1, offsets[group + 1]):
            if plies[row] > plies[chosen] or (
                plies[row] == plies[chosen] and equities[row] > equities[chosen]
            ):
                chosen = row
        best[group] = chosen
    return best


def evaluate_ply(
    evaluator: Evaluator,
    boards: npt.ArrayLike,
    plies: int,
    filter: MoveFilter = DEFAULT_FILTER,
) -> FloatArray:
    """(N, 5) probabilities at ``plies`` for each position's player on roll (see the module docstring).

    ``filter`` narrows the replies inside the tree; the replies follow the
    rules of the evaluator's variant (:meth:`Evaluator.for_variant`).

    >>> evaluator = Evaluator.untrained(hidden=8, seed=2)
    >>> over = Position([0] * 18 + [-15] + [0] * 5, off=(15, 0)).flip().to_array()[None]
    >>> evaluate_ply(evaluator, over, 2).tolist()  # a finished game: exact at any depth
    [[0.0, 0.0, 0.0, 1.0, 0.0]]
    """
    _check_plies(plies)
    array = np.ascontiguousarray(boards, dtype=np.int8)
    if array.ndim != 2 or array.shape[1] != ARRAY_SIZE:
        raise ValueError(f"boards must have shape (N, {ARRAY_SIZE}), not {array.shape}")
    return _Search(evaluator, filter).evaluate(array, plies)


def rolls_ahead(evaluator: Evaluator, boards: npt.ArrayLike) -> tuple[Rolls, Indices]:
    """The 21 rolls of each distinct position of ``boards`` (games going on, before the roll) at 1-ply,
    and for each board the index of its position among them.

    ``means`` are :func:`evaluate_ply` at 1; the groups hold every play of every roll at 0-ply, so
    a caller that plays one of the rolls (a rollout's policy) finds its plays judged already.

    >>> evaluator = Evaluator.untrained(hidden=8, seed=2)
    >>> start = Position.start().to_array()
    >>> rolls, position = rolls_ahead(evaluator, np.stack([start, start]))
    >>> same = bool((rolls.means == evaluate_ply(evaluator, start[None], 1)).all())
    >>> position.tolist(), len(rolls.best), same
    ([0, 0], 21, True)
    """
    array = np.ascontiguousarray(boards, dtype=np.int8)
    if array.ndim != 2 or array.shape[1] != ARRAY_SIZE or game_over(array).any():
        raise ValueError(
            f"rolls are looked at for games going on, shape (N, {ARRAY_SIZE}), not {array.shape}"
        )
    distinct, position = np.unique(array, axis=0, return_inverse=True)
    return _Search(evaluator).rolls(distinct, 1), position.reshape(-1)


def _check_noise(noise: float) -> None:
    if not noise >= 0:
        raise ValueError(f"noise is a standard deviation, not {noise}")


def _check_plies(plies: int) -> None:
    if not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies go from 0 to {MAX_PLIES}, not {plies}")


# --- ranking and choosing plays -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RankedPlay:
    """One play as a search judged it.

    ``index`` is the play's row in :func:`~tavola.movegen.generate`'s
    results (the order of :meth:`Position.legal_plays`), ``result`` that
    row (the position after the play, seen from the mover);
    ``probabilities`` and ``equity`` are for the mover, at ``plies``.
    """

    index: int
    result: IntArray
    probabilities: FloatArray
    equity: float
    plies: int


@dataclass(frozen=True, eq=False)
class JudgedPlays:
    """The plays of one position and roll as a search judged them, one row per play in the generator's order.

    ``probabilities`` (N, 5) and ``equities`` are for the mover, at the
    depth in ``plies`` each play reached (the filter stops most plays short
    of the full depth).
    """

    probabilities: FloatArray
    equities: npt.NDArray[np.float64]
    plies: npt.NDArray[np.int8]

    def order(self) -> Indices:
        """The rows best first (:func:`best_first` of their equities and depths)."""
        return best_first(self.equities, self.plies)


def best_first(equities: npt.ArrayLike, plies: npt.ArrayLike) -> Indices:
    """The order of judged plays, best first: those searched deepest, then by equity; among equals the
    earlier. A play the filter dropped at a shallower depth ranks below every play searched deeper,
    whatever its equity (depths' equities are not comparable), so a list in this order shows each
    play's depth.

    >>> best_first([0.1, 0.3, 0.2, -0.5], [0, 1, 0, 1]).tolist()
    [1, 3, 2, 0]
    """
    return np.lexsort((-np.asarray(equities, dtype=np.float64), -np.asarray(plies, dtype=np.int64)))


def judge_plays(
    evaluator: Evaluator,
    results: IntArray,
    plies: int = 0,
    filter: MoveFilter = DEFAULT_FILTER,
    *,
    kinds: npt.NDArray[np.int8] | None = None,
) -> JudgedPlays:
    """Judge the plays of one position and roll from their ``results``, generated once by the caller.

    ``results`` are the generator's rows for one position and roll (as
    :attr:`tavola.play.LegalPlays.results` holds them), so nothing is
    generated again: at 0-ply this is one call of the evaluator. ``kinds``
    (:func:`tavola.bot.continuation.kinds_of` the plays) judges the plays
    of an Acey-Deucey turn that goes on by what follows them (V2), at every
    depth and so in the filter's choices too.

    >>> from tavola import Position
    >>> plays = Position.start().legal_plays(Dice(6, 5))
    >>> judged = judge_plays(Evaluator.untrained(hidden=8, seed=1), plays.results, plies=1)
    >>> judged.plies.tolist(), [str(plays[row]) for row in judged.order()][:2]
    ([1, 1, 1, 1, 1, 1, 1], ['13/8 13/7', '13/2'])
    """
    _check_plies(plies)
    rows = np.ascontiguousarray(results, dtype=np.int8)
    probabilities, equities, reached = _Search(evaluator, filter).plays(
        np.array([0, len(rows)]), rows, plies, kinds=kinds
    )
    return JudgedPlays(probabilities, equities, reached)


class SharedSearch:
    """One search for many judgements: each position is evaluated once at each depth across all of them.

    For analysing a whole match: the plays of every decision are judged in
    big batches (:meth:`plays`), and positions met again (the position after
    a play is the next turn's position before the roll) are found in the
    search's tables (:meth:`evaluate`).

    >>> from tavola import Position
    >>> search = SharedSearch(Evaluator.untrained(hidden=8, seed=1))
    >>> plays = Position.start().legal_plays(Dice(3, 1))
    >>> judged = search.plays(np.array([0, len(plays)]), plays.results, 1, keep=np.array([15]))
    >>> int(judged.plies[15]), search.evaluate(Position.start().to_array()[None], 1).shape
    (1, (1, 5))
    """

    def __init__(self, evaluator: Evaluator, filter: MoveFilter = DEFAULT_FILTER) -> None:
        self._search = _Search(evaluator, filter)

    def evaluate(self, boards: IntArray, plies: int) -> FloatArray:
        """(N, 5) probabilities at ``plies`` for each position's player on roll (as :func:`evaluate_ply`)."""
        _check_plies(plies)
        return self._search.evaluate(np.ascontiguousarray(boards, dtype=np.int8), plies)

    def plays(
        self,
        offsets: Indices,
        results: IntArray,
        plies: int,
        *,
        keep: Indices | None = None,
        kinds: npt.NDArray[np.int8] | None = None,
    ) -> JudgedPlays:
        """The plays of many groups judged at once: group ``g`` is rows ``offsets[g]:offsets[g + 1]`` of
        ``results`` (:func:`~tavola.movegen.generate_batch`'s), each group filtered on its own; the rows in
        ``keep`` (such as the plays made, to be judged in full) reach ``plies`` whatever the filter says;
        ``kinds`` as for :func:`judge_plays`."""
        _check_plies(plies)
        rows = np.ascontiguousarray(results, dtype=np.int8)
        probabilities, equities, reached = self._search.plays(
            np.asarray(offsets, dtype=np.int64), rows, plies, keep=keep, kinds=kinds
        )
        return JudgedPlays(probabilities, equities, reached)


def rank_plays(
    evaluator: Evaluator,
    position: Position | npt.ArrayLike,
    dice: Dice | tuple[int, int],
    plies: int = 0,
    filter: MoveFilter = DEFAULT_FILTER,
) -> list[RankedPlay]:
    """Every legal play of ``dice`` in ``position``, best first: those searched deepest, then by equity.

    Plays the filter dropped keep the value of the last depth they reached.
    This generates the plays; where they are generated already (a
    :class:`~tavola.play.LegalPlays`), :func:`judge_plays` judges their results.

    >>> from tavola import Position
    >>> evaluator = Evaluator.untrained(hidden=8, seed=1)
    >>> ranked = rank_plays(evaluator, Position.start(), Dice(6, 5), plies=2)
    >>> [play.plies for play in ranked]
    [2, 2, 2, 2, 1, 1, 1]
    >>> ranked[0].equity >= ranked[1].equity
    True
    """
    _check_plies(plies)
    board = position.to_array() if isinstance(position, Position) else np.asarray(position, dtype=np.int8)
    if game_over(board):
        raise ValueError("the game is over: a side has borne off all its checkers, so nothing is played")
    results, _ = generate(board, int(dice[0]), int(dice[1]), evaluator.variant.flags)
    judged = judge_plays(evaluator, results, plies, filter)
    return [
        RankedPlay(
            int(row),
            results[row],
            judged.probabilities[row],
            float(judged.equities[row]),
            int(judged.plies[row]),
        )
        for row in judged.order()
    ]


class SearchChooser:
    """Plays the best play at ``plies`` (the arena's :class:`~tavola.bot.arena.Chooser` protocol).

    With ``noise`` > 0 a normal draw with that standard deviation (in
    equity) is added to each play's equity before the filter and the final
    choice, so the chooser errs the more often the closer plays are; the
    draws come from ``rng`` (a generator, or a seed for one).

    >>> from tavola.bot.arena import RandomChooser, duplicate_match
    >>> chooser = SearchChooser(Evaluator.untrained(hidden=8, seed=1), plies=1)
    >>> duplicate_match(chooser, RandomChooser(np.random.default_rng(1)), games=1, seed=1).games
    2
    """

    def __init__(
        self,
        evaluator: Evaluator,
        plies: int = 0,
        filter: MoveFilter = DEFAULT_FILTER,
        noise: float = 0.0,
        rng: np.random.Generator | int | None = None,
    ) -> None:
        _check_plies(plies)
        _check_noise(noise)
        self.evaluator, self.plies, self.filter, self.noise = evaluator, plies, filter, noise
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    def choose(self, before: IntArray, results: IntArray) -> int:
        """The index of the best row of ``results`` at :attr:`plies` (with noise, if any)."""
        del before  # the results say everything
        rows = np.ascontiguousarray(results, dtype=np.int8)
        noise = self.rng.normal(0.0, self.noise, len(rows)) if self.noise > 0 else None
        search = _Search(self.evaluator, self.filter)
        offsets = np.array([0, len(rows)])
        _, equities, reached = search.plays(offsets, rows, self.plies, noise)
        return int(best_in_groups(offsets, equities, reached)[0])

    def __repr__(self) -> str:
        return f"SearchChooser(plies={self.plies}, noise={self.noise})"


class SearchPolicy:
    """The search at ``plies`` as a batched policy of :mod:`tavola.selfplay`: every game's play in one search.

    The noise (see :class:`SearchChooser`) is keyed: the draw for a result
    depends on ``key``, the game's stream, its turn and the result's row
    within the game, so a game is played the same however the games are
    batched. Plays follow the rules of the evaluator's variant.

    >>> from tavola.selfplay import outcomes, play
    >>> policy = SearchPolicy(Evaluator.untrained(hidden=8, seed=1), plies=1, noise=0.1, key=2)
    >>> outcomes(play(policy, games=1, key=5), 1).points.shape
    (1,)
    """

    def __init__(
        self,
        evaluator: Evaluator,
        plies: int = 0,
        filter: MoveFilter = DEFAULT_FILTER,
        noise: float = 0.0,
        key: int = 0,
    ) -> None:
        _check_plies(plies)
        _check_noise(noise)
        self.evaluator, self.plies, self.filter, self.noise, self.key = evaluator, plies, filter, noise, key

    def __call__(self, candidates: Candidates) -> Indices:
        offsets = candidates.offsets
        noise = None
        if self.noise > 0:
            group = candidates.group
            within = np.arange(len(candidates.results)) - offsets[group]
            drawn = keyed_normal(self.key, NOISE, candidates.stream[group], candidates.turn[group], within)
            noise = self.noise * drawn
        search = _Search(self.evaluator, self.filter)
        _, equities, reached = search.plays(offsets, candidates.results, self.plies, noise)
        return best_in_groups(offsets, equities, reached)
