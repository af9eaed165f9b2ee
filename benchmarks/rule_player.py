"""A rule-based player of any variant, for benchmarks: hand-written rules score every legal result at once.

:class:`RulePlayer` is a batched policy of the self-play kernel
(:mod:`tavola.selfplay`) and a chooser of the arena
(:mod:`tavola.bot.arena`): it scores every legal result of every game in a
handful of NumPy operations and plays each game's best (the earlier result on
a tie), so it is deterministic. A result, seen from the mover, scores:

* **the race**: the opponent's pips less the mover's (checkers on the bar or
  not yet entered count 25), one point a pip; so hitting gains what the hit
  checker had travelled;
* **checkers on the bar**: the opponent's gain ``bar`` each, the mover's cost it;
* **points made** (two or more checkers), while there is contact: each
  point's value in :data:`POINT_VALUES` times ``points``, the home board's inner points and the
  bar point most, anchors in the opponent's home board next;
* **blots exposed to direct shots**, while there is contact: for each
  single checker, the chance that one of the opponent's checkers (or the bar)
  within six points of it hits it, ``1 - (25/36) ** shooters`` for its
  number of distances that hold a shooter, times what a hit costs: the pips
  it had travelled plus ``hit_tempo``, times ``exposure``;
* **stacks**: ``stack`` for each checker beyond the third on a point;
* **bearing off**: ``off`` for each checker borne off;
* **Dutch backgammon** (V1, no hitting until a checker of one's own has come
  home): a blot is exposed only by ``no_hit_exposure`` of the usual while
  the opponent has no checker home nor off, and bringing the mover's first
  checker home (the right to hit) gains ``first_home``;
* **Acey-Deucey** (V2, checkers enter when their player likes): each checker
  entered this turn gains ``enter``, and ``behind_enter`` more while the
  mover had more checkers waiting than the opponent (behind in development).

>>> from tavola.bot.arena import RandomChooser, duplicate_match
>>> random_play = RandomChooser(np.random.default_rng(1))
>>> duplicate_match(RulePlayer(), random_play, games=4, seed=2).points_per_game > 0
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavola.bot.search import best_in_groups
from tavola.movegen import HIT_NEEDS_HOME
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING
from tavola.selfplay import Candidates, Policy
from tavola.variants import STANDARD, Variant

IntArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]

POINTS = np.arange(1, 25)
"""The points 1 to 24, seen from the mover: columns 1 to 24 of a board."""
POINT_VALUES = np.array(
    [
        *(1.0, 1.5, 2.5, 3.5, 4.0, 3.5),  # the home board
        *(3.0, 1.5, 0.8, 0.5, 0.5, 0.5),  # the bar point and the outfield
        *(0.3, 0.3, 0.3, 0.3, 0.3, 1.2),  # the opponent's outer board, their bar point last
        *(2.0, 3.0, 2.5, 1.5, 1.0, 1.0),  # anchors in the opponent's home board, their 6- to 1-point
    ]
)
"""What a point made is worth, for the mover's points 1 to 24."""
HIT_CHANCE_MISSED = 25 / 36
"""The chance that one distance within six points is not rolled (11 of 36 rolls hit directly)."""


@dataclass(frozen=True)
class RuleWeights:
    """The weight of each rule of :class:`RulePlayer` (see the module's docstring), in pips."""

    bar: float = 6.0
    points: float = 1.0
    exposure: float = 1.5
    hit_tempo: float = 4.0
    stack: float = 0.7
    off: float = 2.0
    no_hit_exposure: float = 0.15
    first_home: float = 4.0
    enter: float = 1.5
    behind_enter: float = 3.0


class RulePlayer:
    """Plays the legal result that the rules of :mod:`rule_player` score best, in ``variant``.

    >>> from tavola.position import Position
    >>> from tavola.dice import Dice
    >>> plays = Position.start().legal_plays(Dice(3, 1))
    >>> results = np.stack([play.after.to_array() for play in plays])
    >>> str(plays[RulePlayer().choose(Position.start().to_array(), results)])  # makes the 5-point
    '8/5 6/5'
    """

    __slots__ = ("dutch", "variant", "weights")

    def __init__(self, variant: Variant = STANDARD, weights: RuleWeights | None = None) -> None:
        self.variant = variant
        self.weights = weights or RuleWeights()
        self.dutch = bool(variant.flags & HIT_NEEDS_HOME)

    def __repr__(self) -> str:
        return f"RulePlayer({self.variant!r})"

    def __call__(self, candidates: Candidates) -> Indices:
        """Each game's best result: one row of ``candidates.results`` per game."""
        before = candidates.boards[candidates.group]
        return best_in_groups(candidates.offsets, self.scores(before, candidates.results))

    def choose(self, before: IntArray, results: IntArray) -> int:
        """The arena's chooser: the index of the best of ``results`` after ``before``."""
        boards = np.broadcast_to(np.asarray(before, dtype=np.int8), (len(results), ARRAY_SIZE))
        return int(best_in_groups(np.array([0, len(results)]), self.scores(boards, results))[0])

    def as_policy(self) -> Policy:
        """Itself: it scores many games' results in one call."""
        return self

    def scores(self, before: npt.ArrayLike, results: npt.ArrayLike) -> FloatArray:
        """The rules' score of each row of ``results`` (seen from the mover), played from ``before``'s row.

        >>> from tavola.position import Position
        >>> start = Position.start().to_array()
        >>> RulePlayer().scores(start[None], start[None]).round(2).tolist()  # even: 4 points made, 2 stacks
        [3.5]
        """
        weights = self.weights
        was = np.asarray(before, dtype=np.int64).reshape(-1, ARRAY_SIZE)
        now = np.asarray(results, dtype=np.int64).reshape(-1, ARRAY_SIZE)
        mine, theirs = np.maximum(now[:, 1:25], 0), np.maximum(-now[:, 1:25], 0)
        my_outside = now[:, MY_BAR] + now[:, MY_WAITING]
        their_outside = now[:, THEIR_BAR] + now[:, THEIR_WAITING]
        my_pips = mine @ POINTS + 25 * my_outside
        their_pips = theirs @ (25 - POINTS) + 25 * their_outside
        score = (their_pips - my_pips).astype(np.float64)
        score += weights.bar * (now[:, THEIR_BAR] - now[:, MY_BAR]) + weights.off * now[:, MY_OFF]
        score -= weights.stack * np.maximum(mine - 3, 0).sum(axis=1)
        contact = _contact(mine, theirs, my_outside, their_outside)
        made = weights.points * ((mine >= 2) @ POINT_VALUES)
        exposed = self._exposure(mine, theirs, their_outside, now[:, THEIR_OFF])
        score += np.where(contact, made - weights.exposure * exposed, 0.0)
        if self.dutch:
            home_now = (mine[:, :6].sum(axis=1) + now[:, MY_OFF]) > 0
            home_before = (np.maximum(was[:, 1:7], 0).sum(axis=1) + was[:, MY_OFF]) > 0
            score += weights.first_home * (home_now & ~home_before)
        entered = was[:, MY_WAITING] - now[:, MY_WAITING]
        if entered.any():
            behind = was[:, MY_WAITING] > was[:, THEIR_WAITING]
            score += entered * (weights.enter + weights.behind_enter * behind)
        return score

    def _exposure(
        self,
        mine: npt.NDArray[np.int64],
        theirs: npt.NDArray[np.int64],
        their_outside: npt.NDArray[np.int64],
        their_off: npt.NDArray[np.int64],
    ) -> FloatArray:
        """Each row's blots' chances of being hit directly times the pips and tempo a hit costs, summed."""
        # shooters[:, j]: an opposing checker on the mover's point j (0: on the bar or waiting to enter,
        # entering on the mover's points 1 to 6); the opponent moves from low points to high.
        shooters = np.concatenate([(their_outside > 0)[:, None], theirs > 0], axis=1)
        distances = np.zeros(mine.shape, dtype=np.int64)
        for distance in range(1, 7):
            distances[:, distance - 1 :] += shooters[:, : 25 - distance]
        hit = 1.0 - HIT_CHANCE_MISSED**distances
        cost = (25 - POINTS) + self.weights.hit_tempo
        exposed: FloatArray = ((mine == 1) * hit) @ cost
        if self.dutch:  # no hitting until one of their checkers has come home (V1)
            may_hit = (theirs[:, 18:].sum(axis=1) + their_off) > 0
            exposed = np.where(may_hit, exposed, self.weights.no_hit_exposure * exposed)
        return exposed


def _contact(
    mine: npt.NDArray[np.int64],
    theirs: npt.NDArray[np.int64],
    my_outside: npt.NDArray[np.int64],
    their_outside: npt.NDArray[np.int64],
) -> npt.NDArray[np.bool_]:
    """Whether some checker of the mover must still pass one of the opponent's, row by row."""
    my_back = np.where(my_outside > 0, 25, np.where(mine > 0, POINTS, 0).max(axis=1))
    their_back = np.where(their_outside > 0, 0, np.where(theirs > 0, POINTS, 25).min(axis=1))
    contact: npt.NDArray[np.bool_] = my_back > their_back
    return contact
