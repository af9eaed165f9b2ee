"""The one self-play kernel: many games played in lockstep, each step one move-generator call.

:func:`play` advances up to ``parallel`` games at once. At each step every
game in progress rolls, :func:`~tavola.movegen.generate_batch` lists the
legal results of all of them in one call, and a batched :data:`Policy`
picks one result per game; :func:`play` then yields the :class:`Step` (the
positions, the results, the choices, the points of the games that ended)
and moves on. Training, the arena, calibration and the position sampler
are thin callers: each reads what it needs from the steps.

**Keys.** Every random number comes from a counter-based hash
(SplitMix64 over uint64 arrays) of the run's ``key``, the game's dice
``stream`` and its turn: a game's dice never depend on how many games run
beside it, in which batch or in which process, so a run split in any way
gives the same games. The opening roll follows R4: each seat rolls a die,
ties roll again, and the higher die's player moves first with both dice.
A caller can give the dice of the first turns itself (``dice``), e.g. to
rotate a rollout's first roll over all 36.

**Players.** A policy is a batched callable shown a :class:`Candidates`
(the games to move, their positions before the play and every legal result,
seen from the mover) that returns the chosen row of ``results`` for each
game. One policy can play both sides, or two can sit at the table; a
game's ``seating`` says which one sits in seat 0, so duplicate dice are one
stream played twice, the players swapped. :class:`RandomPolicy` plays
uniformly at random (keyed like the dice) and :class:`ChooserPolicy` asks a
one-position chooser game by game; the bots' policies are in
:mod:`tavola.bot.policies`.

**Variants.** The variant gives the start, the move generator's flags, the
scoring and, for Acey-Deucey, its 1-2 roll (V2): after a 1-2 whose both
dice were played, the same player plays a double of their choice (one
step whose candidates are the results of all six doubles, its dice shown
as 0-0), then rolls again if all four moves were played. The game is over
when :func:`tavola.gameover.game_points` says so.

>>> steps = list(play(RandomPolicy(7), games=3, key=1))
>>> outcome = outcomes(steps, 3)
>>> set(np.abs(outcome.points).tolist()) <= {1, 2, 3}, bool((outcome.turns > 0).all())
(True, True)
>>> again = outcomes(play(RandomPolicy(7), games=3, key=1, parallel=1), 3)  # one game at a time
>>> bool((again.points == outcome.points).all() and (again.turns == outcome.turns).all())
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.gameover import game_points
from tavola.movegen import generate_batch
from tavola.position import ARRAY_SIZE, flip_array
from tavola.variants import STANDARD, Variant

IntArray = npt.NDArray[np.int8]
Indices = npt.NDArray[np.int64]
Keys = npt.NDArray[np.uint64]

MAX_TURNS = 10_000
"""A game still going after this many plays means a broken policy or move generator."""

# What a hash is drawn for, so that no two uses of one key meet.
DICE, CHOICE, NOISE, EXPLORE, SUBKEY = range(5)

_MASK = (1 << 64) - 1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


# --- keys --------------------------------------------------------------------------------------------


def key_of(seed: int | np.random.Generator | None) -> int:
    """A run's key: a seed as it is, 64 bits drawn from a generator, or from the OS when ``None``.

    >>> key_of(5), key_of(np.random.default_rng(1)) == key_of(np.random.default_rng(1))
    (5, True)
    """
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 1 << 63)) | (int(seed.integers(0, 2)) << 63)
    return int(seed) & _MASK


@njit(cache=True, inline="always")
def _mix(value: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijection of uint64 that scatters every input bit (wrapping products)."""
    value = value ^ (value >> np.uint64(30))
    value = value * _MIX1
    value = value ^ (value >> np.uint64(27))
    value = value * _MIX2
    return value ^ (value >> np.uint64(31))


@njit(cache=True)
def _hash_columns(key: np.uint64, words: Keys) -> Keys:
    """:func:`keyed` of ``key`` and each column of ``words`` (one row per word), compiled."""
    start = _mix(key + _GOLDEN)
    out = np.empty(words.shape[1], dtype=np.uint64)
    for column in range(words.shape[1]):
        value = start
        for word in range(words.shape[0]):
            value = _mix(value ^ (words[word, column] + _GOLDEN))
        out[column] = value
    return out


def keyed(key: int, *words: npt.ArrayLike) -> Keys:
    """A 64-bit hash of ``key`` and ``words`` (integers or arrays of them, broadcast together).

    The same key and words give the same value on any machine, in any batch.

    >>> int(keyed(1, 2, 3)) == int(keyed(1, [2, 5], 3)[0])
    True
    """
    arrays = [np.asarray(word).astype(np.uint64) for word in words]
    shape = np.broadcast_shapes(*(array.shape for array in arrays))
    columns = np.empty((len(arrays), int(np.prod(shape))), dtype=np.uint64)
    for row, array in enumerate(arrays):
        columns[row] = array if array.ndim == 0 else np.broadcast_to(array, shape).ravel()
    return _hash_columns(np.uint64(key & _MASK), columns).reshape(shape)


def subkey(key: int, *words: int) -> int:
    """A key of its own for one use of a run's key (a player's choices, say), as a Python int."""
    return int(keyed(key, SUBKEY, *words))


def keyed_uniform(key: int, *words: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Uniform numbers in [0, 1) from :func:`keyed` (53 bits each)."""
    return (keyed(key, *words) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def keyed_below(key: int, bound: npt.ArrayLike, *words: npt.ArrayLike) -> Indices:
    """Integers from 0 to ``bound - 1`` (any bound up to 2**32: the bias is below 2**-32)."""
    return (keyed(key, *words) % np.asarray(bound).astype(np.uint64)).astype(np.int64)


def keyed_normal(key: int, *words: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Standard normal numbers from :func:`keyed` (Box-Muller on two keyed uniforms)."""
    first = keyed_uniform(key, *words, 0)
    second = keyed_uniform(key, *words, 1)
    return np.sqrt(-2.0 * np.log1p(-first)) * np.cos(2 * np.pi * second)


_DIE_INDEX = np.arange(2)[None, :]  # the last word of a die's hash: which of the two dice


def roll(key: int, stream: npt.ArrayLike, turn: npt.ArrayLike) -> IntArray:
    """Two dice for each (stream, turn): an (N, 2) int8 array.

    >>> roll(3, [0, 1, 0], [4, 4, 4]).tolist()[0] == roll(3, [0], [4]).tolist()[0]
    True
    """
    streams = np.atleast_1d(np.asarray(stream))
    turns = np.broadcast_to(np.asarray(turn), streams.shape)
    dice = keyed_below(key, 6, DICE, streams[:, None], turns[:, None], 0, _DIE_INDEX) + 1
    return dice.astype(np.int8)


def opening_roll(key: int, stream: npt.ArrayLike) -> IntArray:
    """Each stream's opening roll (R4): seat 0's die, then seat 1's, rolled again while they tie.

    >>> dice = opening_roll(9, np.arange(500))
    >>> bool((dice[:, 0] != dice[:, 1]).all()), set(dice.ravel().tolist()) == set(range(1, 7))
    (True, True)
    """
    streams = np.atleast_1d(np.asarray(stream))
    dice = np.zeros((len(streams), 2), dtype=np.int8)
    tied = np.arange(len(streams))
    attempt = 0
    while len(tied):
        for die in (0, 1):
            dice[tied, die] = keyed_below(key, 6, DICE, streams[tied], 0, attempt, die) + 1
        tied = tied[dice[tied, 0] == dice[tied, 1]]
        attempt += 1
    return dice


# --- what a policy sees, and what a step gives --------------------------------------------------------


@dataclass(frozen=True)
class Candidates:
    """The games that move at one step, and every legal result of each.

    Per game (one entry each): ``game``, its index in the run; ``stream``,
    its dice stream; ``turn``, the plays made in it so far; ``seat``, the
    seat to move (seat 0 rolls the first opening die); ``player``, the
    policy that moves (0 or 1); ``dice``, the roll (0-0 where an
    Acey-Deucey player chooses a double); ``boards``, the position before
    the play, seen from the mover. The results of game ``i`` are rows
    ``offsets[i]:offsets[i + 1]`` of ``results``, seen from the mover, in
    :func:`~tavola.movegen.generate_batch`'s order; never empty (a pass is
    one row). ``made`` says, for each row of ``results``, how many
    single-die moves its play made (0 for a pass): whether an Acey-Deucey
    player goes on after it (:mod:`tavola.bot.continuation`).
    """

    game: Indices
    stream: npt.NDArray[np.int64]
    turn: Indices
    seat: IntArray
    player: IntArray
    dice: IntArray
    boards: IntArray
    offsets: Indices
    results: IntArray
    made: Indices

    def __len__(self) -> int:
        return len(self.game)

    @property
    def counts(self) -> Indices:
        """How many results each game has."""
        return np.diff(self.offsets)

    @property
    def group(self) -> Indices:
        """For each row of ``results``, the position in this batch of the game it belongs to."""
        return np.repeat(np.arange(len(self.game)), self.counts)

    def take(self, which: Indices) -> Candidates:
        """The candidates of the games at positions ``which`` of this batch, their rows renumbered."""
        counts = self.counts[which]
        offsets = np.zeros(len(which) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        rows = np.repeat(self.offsets[which] - offsets[:-1], counts) + np.arange(offsets[-1])
        return Candidates(
            self.game[which],
            self.stream[which],
            self.turn[which],
            self.seat[which],
            self.player[which],
            self.dice[which],
            self.boards[which],
            offsets,
            self.results[rows],
            self.made[rows],
        )


@dataclass(frozen=True)
class Step(Candidates):
    """One step of :func:`play`: the candidates, the row each game chose and what the game paid.

    ``chosen`` are rows of ``results``; ``points`` what the game paid the
    mover at a stake of 1 where this play ended it (0 where it goes on).
    """

    chosen: Indices
    points: Indices

    @property
    def moves(self) -> Indices:
        """How many single-die moves each chosen play made."""
        return self.made[self.chosen]

    @property
    def after(self) -> IntArray:
        """The chosen results, seen from the mover."""
        return self.results[self.chosen]

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        """Which games this step ended."""
        over: npt.NDArray[np.bool_] = self.points != 0
        return over


class Policy(Protocol):
    """Chooses one result for each game: returns rows of ``candidates.results``, one per game."""

    def __call__(self, candidates: Candidates) -> Indices: ...


class RandomPolicy:
    """Plays a uniformly random legal result, keyed by the game's stream and turn.

    >>> from tavola.position import Position
    >>> start = Position.start().to_array()
    >>> offsets, results, _ = generate_batch(np.stack([start, start]), [[3, 1], [6, 5]])
    >>> zeros = np.zeros(2, np.int8)
    >>> one = Candidates(np.arange(2), np.arange(2), np.zeros(2, np.int64), zeros, zeros,
    ...     np.array([[3, 1], [6, 5]], np.int8), np.stack([start, start]), offsets, results,
    ...     np.full(len(results), 2))
    >>> rows = RandomPolicy(4)(one)
    >>> bool(((rows >= offsets[:-1]) & (rows < offsets[1:])).all())
    True
    """

    __slots__ = ("key",)

    def __init__(self, key: int) -> None:
        self.key = key

    def __call__(self, candidates: Candidates) -> Indices:
        pick = keyed_below(self.key, candidates.counts, CHOICE, candidates.stream, candidates.turn)
        return candidates.offsets[:-1] + pick

    def __repr__(self) -> str:
        return f"RandomPolicy({self.key})"


class OneChooser(Protocol):
    """A chooser of one position's play (the arena's :class:`~tavola.bot.arena.Chooser`)."""

    def choose(self, before: IntArray, results: IntArray) -> int: ...


class ChooserPolicy:
    """A one-position chooser asked game by game: the slow path, for choosers with no batched policy.

    The chooser is asked only where there are at least two results.
    """

    __slots__ = ("chooser",)

    def __init__(self, chooser: OneChooser) -> None:
        self.chooser = chooser

    def __call__(self, candidates: Candidates) -> Indices:
        rows = candidates.offsets[:-1].copy()
        for index in np.flatnonzero(candidates.counts > 1):
            begin, end = candidates.offsets[index], candidates.offsets[index + 1]
            rows[index] += self.chooser.choose(candidates.boards[index], candidates.results[begin:end])
        return rows


# --- the kernel ----------------------------------------------------------------------------------------

_NORMAL, _CHOOSE_DOUBLE = 0, 1  # what a game does next: roll, or choose a double after a 1-2 (V2)
_DOUBLES = np.array([[die, die] for die in range(1, 7)], dtype=np.int8)


def play(
    players: Policy | Sequence[Policy],
    games: int,
    key: int,
    *,
    variant: Variant = STANDARD,
    start: npt.ArrayLike | None = None,
    opening: bool = True,
    streams: npt.ArrayLike | None = None,
    seating: npt.ArrayLike | None = None,
    dice: npt.ArrayLike | None = None,
    gammons: bool = True,
    stop_after: int | None = None,
    halt: npt.NDArray[np.bool_] | None = None,
    parallel: int = 512,
) -> Iterator[Step]:
    """Play ``games`` games to the end, ``parallel`` at a time, yielding every :class:`Step`.

    ``players`` is one policy for both sides or a pair (player 0, player
    1). ``start`` is the starting position (one, or one per game; the
    variant's by default), seen from seat 0. With ``opening`` the first
    turn is the opening roll (R4); without it seat 0 is on roll at
    ``start`` and rolls as on any turn. ``streams`` are the games' dice
    streams (``0 .. games - 1`` by default): the dice of a game depend only
    on ``key``, its stream and its turn. ``seating`` gives, per game, the
    player in seat 0 (0 by default; 1 swaps the players). ``dice`` of shape
    ``(games, T, 2)`` fixes the roll of the first ``T`` turns where a row
    is not 0-0 (an opening roll seat 0's die first, never a tie).
    ``gammons=False`` scores every win single (M6). With ``stop_after`` a
    game stops unfinished after that many plays (a truncated rollout): its
    last step is the one at turn ``stop_after - 1``, its ``points`` 0.
    ``halt`` is a boolean array, one entry per game, that the caller may
    set while the games run: a game whose entry is True once its step has
    been seen stops there unfinished (a rollout's trial that a dropped
    double has ended).

    A game that reaches :data:`MAX_TURNS` plays is an error.
    """
    if games < 0 or parallel < 1:
        raise ValueError(f"games is a count and parallel at least 1, not {games} and {parallel}")
    if stop_after is not None and stop_after < 1:
        raise ValueError(f"a game stops after at least one play, not {stop_after}")
    if halt is not None and np.shape(halt) != (games,):
        raise ValueError(f"halt has one entry per game, not shape {np.shape(halt)}")
    policies = (players, players) if callable(players) else tuple(players)
    if len(policies) != 2:
        raise ValueError(f"one policy, or one for each of two players, not {len(policies)}")
    starts = np.asarray(variant.start.to_array() if start is None else start, dtype=np.int8)
    if starts.shape not in ((ARRAY_SIZE,), (games, ARRAY_SIZE)):
        raise ValueError(f"start is one position or one per game, not shape {starts.shape}")
    starts = np.broadcast_to(starts, (games, ARRAY_SIZE))
    stream_of = np.arange(games, dtype=np.int64) if streams is None else np.asarray(streams, dtype=np.int64)
    seat0_player = np.zeros(games, np.int8) if seating is None else np.asarray(seating, dtype=np.int8)
    fixed = np.zeros((games, 0, 2), np.int8) if dice is None else np.asarray(dice, dtype=np.int8)
    if stream_of.shape != (games,) or seat0_player.shape != (games,) or fixed.shape[::2] != (games, 2):
        raise ValueError("streams and seating have one entry per game, dice one (T, 2) array per game")
    if opening and fixed.shape[1] and ((fixed[:, 0, 0] == fixed[:, 0, 1]) & (fixed[:, 0, 0] > 0)).any():
        raise ValueError("an opening roll given is never a tie (R4)")

    slots = min(parallel, games)
    game = np.arange(slots, dtype=np.int64)
    board = starts[:slots].copy()
    turn = np.zeros(slots, dtype=np.int64)
    seat = np.zeros(slots, dtype=np.int8)
    phase = np.full(slots, _NORMAL, dtype=np.int8)
    playing = np.ones(slots, dtype=bool)
    begun = slots
    while playing.any():
        active = np.flatnonzero(playing)
        on = game[active]
        opening_now = (turn[active] == 0) & opening
        rolled = _dice(key, stream_of[on], turn[active], opening_now, fixed[on])
        if opening_now.any():
            # R4: the higher die moves first; the start is seen from seat 0.
            openers = np.flatnonzero(opening_now)
            second = openers[rolled[openers, 1] > rolled[openers, 0]]
            seat[active[second]] = 1
            board[active[second]] = flip_array(board[active[second]])
        choosing = phase[active] == _CHOOSE_DOUBLE
        rolled[choosing] = 0
        offsets, results, moves = _generate(board[active], rolled, choosing, variant.flags)
        player = (seat[active] ^ seat0_player[on]).astype(np.int8)
        candidates = Candidates(
            on, stream_of[on], turn[active].copy(), seat[active].copy(), player, rolled, board[active].copy(),
            offsets, results, (moves[:, :, 0] >= 0).sum(axis=1).astype(np.int64),
        )  # fmt: skip
        chosen = _choose(policies, candidates)
        made = candidates.made[chosen]
        after = results[chosen]
        points = game_points(after, variant.scoring, gammons=gammons)
        yield Step(**{name: getattr(candidates, name) for name in _FIELDS}, chosen=chosen, points=points)

        going_on = points == 0
        keep = np.zeros(len(active), dtype=bool)  # the same player plays again (V2)
        if variant.acey_deucey_roll:
            one_two = (np.sort(rolled, axis=1) == (1, 2)).all(axis=1) & (made == 2)
            all_four = choosing & (made == 4)
            phase[active] = np.where(one_two & going_on, _CHOOSE_DOUBLE, _NORMAL)
            keep = (one_two | all_four) & going_on
        onward = active[going_on & ~keep]
        board[onward] = flip_array(after[going_on & ~keep])
        seat[onward] ^= 1
        board[active[keep]] = after[keep]
        turn[active[going_on]] += 1
        if (turn[active] >= MAX_TURNS).any():
            raise RuntimeError(f"a game went on for {MAX_TURNS} plays without ending")
        if stop_after is not None:
            going_on &= turn[active] < stop_after
        if halt is not None:
            going_on &= ~halt[game[active]]
        for slot in active[~going_on]:
            if begun < games:
                game[slot], board[slot], turn[slot], seat[slot], phase[slot] = begun, starts[begun], 0, 0, 0
                begun += 1
            else:
                playing[slot] = False


_FIELDS = ("game", "stream", "turn", "seat", "player", "dice", "boards", "offsets", "results", "made")


def _dice(
    key: int, stream: npt.NDArray[np.int64], turn: Indices, opening: npt.NDArray[np.bool_], fixed: IntArray
) -> IntArray:
    """This step's roll for each game: given, an opening roll (R4), or an ordinary one."""
    rolled = roll(key, stream, turn)
    if opening.any():
        rolled[opening] = opening_roll(key, stream[opening])
    if fixed.shape[1]:
        inside = np.flatnonzero(turn < fixed.shape[1])
        given = fixed[inside, turn[inside]]
        use = (given > 0).all(axis=1)
        rolled[inside[use]] = given[use]
    return rolled


def _generate(
    boards: IntArray, rolled: IntArray, choosing: npt.NDArray[np.bool_], flags: int
) -> tuple[Indices, IntArray, IntArray]:
    """:func:`generate_batch` for a step; a game choosing a double gets the plays of all six as one group."""
    if not choosing.any():
        return generate_batch(boards, rolled, flags)
    repeats = np.where(choosing, len(_DOUBLES), 1)
    rows = np.repeat(np.arange(len(boards)), repeats)
    dice = np.repeat(rolled, repeats, axis=0)
    dice[np.repeat(choosing, repeats)] = np.tile(_DOUBLES, (int(choosing.sum()), 1))
    offsets, results, moves = generate_batch(boards[rows], dice, flags)
    ends = np.cumsum(repeats)
    grouped = np.zeros(len(boards) + 1, dtype=np.int64)
    grouped[1:] = offsets[ends]
    return grouped, results, moves


def _choose(policies: tuple[Policy, Policy], candidates: Candidates) -> Indices:
    """Each game's chosen row: one call when one policy plays both sides, else one per player."""
    if policies[0] is policies[1]:
        chosen = np.asarray(policies[0](candidates), dtype=np.int64)
    else:
        chosen = np.empty(len(candidates), dtype=np.int64)
        for player, policy in enumerate(policies):
            which = np.flatnonzero(candidates.player == player)
            if len(which):
                part = candidates.take(which)
                local = np.asarray(policy(part), dtype=np.int64)
                chosen[which] = candidates.offsets[which] + (local - part.offsets[:-1])
    if (
        chosen.shape != (len(candidates),)
        or not ((chosen >= candidates.offsets[:-1]) & (chosen < candidates.offsets[1:])).all()
    ):
        raise RuntimeError("a policy chose a row outside its game's results")
    return chosen


# --- summaries -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcomes:
    """What each game of a run paid player 0 at a stake of 1 (negative: player 1 won), and its plays."""

    points: Indices
    turns: Indices


def outcomes(steps: Iterable[Step], games: int, observe: Callable[[Step], None] | None = None) -> Outcomes:
    """Play ``steps`` out and gather each game's result; ``observe`` sees every step on the way."""
    points = np.zeros(games, dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    for step in steps:
        if observe is not None:
            observe(step)
        over = step.over
        ended = step.game[over]
        points[ended] = np.where(step.player[over] == 0, step.points[over], -step.points[over])
        turns[ended] = step.turn[over] + 1
    return Outcomes(points, turns)
