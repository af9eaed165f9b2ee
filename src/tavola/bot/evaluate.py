"""Cubeless evaluation of whole batches of positions, and the 0-ply choice of a play.

:class:`Evaluator` routes each position by its class, in one pass over the
batch: a finished game gets its exact result (R19), a bear-off (both sides
all home, no contact) the exact one-sided database of
:mod:`tavola.bot.bearoff`, another race the race network, everything else
the contact network. Probabilities are for the player on roll
(see :mod:`tavola.bot.network`). Hypergammon (and any variant of standard
rules with at most 3 checkers a side) is judged by its exact table instead
(:mod:`tavola.bot.hypergammon`): :attr:`Evaluator.exact_checkers` says so.
Where that table is not built and may not be solved now (anywhere but at a
terminal, unless asked: :func:`tavola.bot.hypergammon.may_solve`), the
networks judge those positions, with a warning naming the command that builds it.

An evaluator judges positions of one variant (:attr:`Evaluator.variant`,
the standard game unless :meth:`Evaluator.for_variant` says otherwise): its
checkers say when a game is over, and its scoring what a finished game is
worth (:func:`tavola.gameover.game_points`). Checkers not yet entered
(Acey-Deucey) are shown to the standard networks as checkers on the bar, the
nearest thing they know, never as borne off (:mod:`tavola.bot.encode`).

The shipped evaluator (:meth:`Evaluator.default`) judges each variant with
networks trained on that variant's own self-play where Tavola ships them
(``tavola-<variant>.npz`` beside the standard ``tavola.npz``): they take the
encoder's extra inputs (:data:`~tavola.bot.encode.VARIANT_INPUTS`), which
tell waiting checkers from those on the bar and say who may not hit yet.
:meth:`Evaluator.for_variant` of the shipped evaluator picks them; any other
evaluator keeps its own networks for every variant. Where the loser pays per checker left
(Acey-Deucey, V2) the five numbers keep their shape with one change of
meaning: the gammon columns hold the expected share of the loser's checkers
beyond the first that are paid (a gammon, every checker paid, counts 1),
the backgammon columns are 0, and :meth:`Evaluator.equity` is in checkers:
``2 win - 1 + (checkers - 1) (win gammon - lose gammon)``. Finished games are
exact; elsewhere the variant's networks estimate that share (the standard
networks' gammon chances stand in for it where no variant networks judge).
The one-sided bear-off database knows gammons, not checkers left, so it
judges no bear-off of such a variant.

>>> from tavola.position import Position
>>> evaluator = Evaluator.untrained(seed=1)
>>> finished = Position([0] * 18 + [-15] + [0] * 5, off=(15, 0)).flip()  # on roll, gammoned
>>> [float(p) for p in evaluator.evaluate(finished.to_array()[None])[0]]
[0.0, 0.0, 0.0, 1.0, 0.0]
>>> from tavola.variants import ACEY_DEUCEY
>>> acey_deucey = evaluator.for_variant(ACEY_DEUCEY)
>>> float(acey_deucey.equity(acey_deucey.evaluate(finished.to_array()[None]))[0])  # 15 checkers left
-15.0
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.bearoff import BearoffDatabase, default_database, is_bearoff
from tavola.bot.encode import INPUTS, RAW_INPUTS, VARIANT_INPUTS
from tavola.bot.features import in_contact
from tavola.bot.hypergammon import covers, ready_table
from tavola.bot.network import (
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    OUTPUTS,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
    Network,
    equity,
)
from tavola.gameover import Scoring, game_over, game_points
from tavola.position import MY_BAR, MY_WAITING, THEIR_BAR, THEIR_WAITING, flip_array
from tavola.variants import STANDARD, Variant

Boards = npt.NDArray[np.int8]
BATCH = 8_192
"""Positions encoded and evaluated at a time (their inputs take 6.7 MB)."""
SHIPPED_WEIGHTS = Path(__file__).with_name("data") / "tavola.npz"
"""The contact network's weights in the package (the race network's are ``tavola-race.npz``)."""


def shipped_weights(variant: Variant = STANDARD) -> Path:
    """Where the package keeps the contact network of ``variant`` (its race network: the ``-race`` twin).

    The file may be missing: a variant without networks of its own is judged by the standard ones.

    >>> from tavola.variants import DUTCH
    >>> shipped_weights().name, shipped_weights(DUTCH).name
    ('tavola.npz', 'tavola-dutch.npz')
    """
    return (
        SHIPPED_WEIGHTS
        if variant.name == STANDARD.name
        else SHIPPED_WEIGHTS.with_stem(f"tavola-{variant.name}")
    )


def race_twin(path: Path) -> Path:
    """The race network's file beside the contact network's ``path``: ``name-race.npz`` for ``name.npz``."""
    return path.with_name(path.stem + "-race" + path.suffix)


def contact(boards: Boards) -> npt.NDArray[np.bool_]:
    """Whether each position still has contact: some checker must pass an opposing one.

    >>> from tavola.position import Position
    >>> contact(np.stack([Position.start().to_array(), Position([2] + [0] * 22 + [-2]).to_array()])).tolist()
    [True, False]
    """
    out = np.empty(len(boards), dtype=np.bool_)
    _contact_rows(np.ascontiguousarray(boards), out)
    return out


@njit(cache=True)
def _contact_rows(boards: npt.NDArray[np.generic], out: npt.NDArray[np.bool_]) -> None:
    for row in range(boards.shape[0]):
        out[row] = in_contact(boards[row])


def exact_probabilities(points: npt.ArrayLike, variant: Variant = STANDARD) -> npt.NDArray[np.float32]:
    """The five outputs of finished games worth ``points`` to the player on roll (see the module docstring).

    >>> exact_probabilities([2, -3, -7]).tolist()
    [[1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0, 1.0]]
    >>> from tavola.variants import ACEY_DEUCEY
    >>> exact_probabilities([8], ACEY_DEUCEY).tolist()  # 8 of 15 checkers paid: 7 of the 14 beyond the first
    [[1.0, 0.5, 0.0, 0.0, 0.0]]
    """
    won = np.asarray(points, dtype=np.int64)
    out = np.zeros((len(won), OUTPUTS), dtype=np.float32)
    out[:, WIN] = won > 0
    if variant.scoring is Scoring.CHECKERS_LEFT:
        share = (np.abs(won) - 1) / max(variant.checkers - 1, 1)
        out[:, WIN_GAMMON] = np.where(won > 0, share, 0.0)
        out[:, LOSE_GAMMON] = np.where(won < 0, share, 0.0)
        return out
    out[:, WIN_GAMMON] = won >= 2
    out[:, WIN_BACKGAMMON] = won >= 3
    out[:, LOSE_GAMMON] = won <= -2
    out[:, LOSE_BACKGAMMON] = won <= -3
    return out


def points_equity(probabilities: npt.ArrayLike, variant: Variant = STANDARD) -> npt.NDArray[np.float32]:
    """The player on roll's cubeless equity in ``variant``'s points at a stake of 1 (checkers in Acey-Deucey).

    >>> from tavola.variants import ACEY_DEUCEY
    >>> chances = np.array([[0.5, 0.25, 0.0, 0.125, 0.0]], np.float32)
    >>> float(points_equity(chances)[0]), float(points_equity(chances, ACEY_DEUCEY)[0])
    (0.125, 1.75)
    """
    p = np.asarray(probabilities, dtype=np.float32)
    if variant.scoring is not Scoring.CHECKERS_LEFT:
        return equity(p)
    extra = np.float32(max(variant.checkers - 1, 1))
    return (2 * p[:, WIN] - 1 + extra * (p[:, WIN_GAMMON] - p[:, LOSE_GAMMON])).astype(np.float32)


def finished(boards: Boards, variant: Variant = STANDARD) -> npt.NDArray[np.float32] | None:
    """Exact probabilities where the game is over (:func:`tavola.gameover.game_points`); NaN elsewhere.

    ``None`` when no game in ``boards`` is over.
    """
    over = game_over(boards)
    if not over.any():
        return None
    out = np.full((len(boards), OUTPUTS), np.nan, dtype=np.float32)
    out[over] = exact_probabilities(game_points(boards[over], variant.scoring), variant)
    return out


def entered_view(boards: Boards) -> Boards:
    """``boards`` with checkers not yet entered (Acey-Deucey) moved to the bar: how they are routed.

    A checker waiting to enter starts from where a bar checker does, so it
    still has contact with every opposing checker; left as it is, it would
    be taken for borne off. Boards without waiting checkers come back as
    they are.
    """
    waiting = boards[:, [MY_WAITING, THEIR_WAITING]]
    if not waiting.any():
        return boards
    view = boards.copy()
    view[:, MY_BAR] += view[:, MY_WAITING]
    view[:, THEIR_BAR] += view[:, THEIR_WAITING]
    view[:, [MY_WAITING, THEIR_WAITING]] = 0
    return view


def route(
    boards: Boards,
    database: BearoffDatabase | None,
    out: npt.NDArray[np.float32],
    variant: Variant = STANDARD,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Fill ``out`` where the answer is exact: finished games, and bear-offs when there is a ``database``.

    Returns the rows left for the contact network and for the race network.
    """
    exact = finished(boards, variant)
    done = ~np.isnan(exact[:, WIN]) if exact is not None else np.zeros(len(boards), dtype=bool)
    if exact is not None:
        out[done] = exact[done]
    touching = contact(boards)
    exact_race = np.zeros_like(done)
    race = np.flatnonzero(~done & ~touching)  # a bear-off has no contact: the others are not looked at
    if database is not None and len(race):
        exact_race[race] = is_bearoff(boards[race])
        if exact_race.any():
            out[exact_race] = database.evaluate_batch(boards[exact_race])
    return ~done & touching, ~done & ~touching & ~exact_race


_SHIPPED: dict[Variant, Evaluator] = {}
"""The shipped evaluator of each variant, once loaded (:meth:`Evaluator.default`)."""


class Evaluator:
    """A contact network and a race network behind one batched ``evaluate``, for one variant's positions.

    Where an exact table covers the variant (:func:`tavola.bot.hypergammon.covers`:
    hypergammon), ``evaluate`` gives the table's chances instead of the
    networks', and :attr:`exact_checkers` is its number of checkers a side.
    The table is read when a position first needs it. Where it has not been
    built, it is solved then (minutes) only where a person waits at a
    terminal or ``TAVOLA_SOLVE_TABLES=1`` asks for it
    (:func:`tavola.bot.hypergammon.may_solve`); elsewhere (the web server,
    ``tavola engine``, worker processes) the networks judge those positions
    as they judge any other, and a warning (once) names the command that
    builds the table.
    """

    def __init__(
        self,
        contact_net: Network,
        race_net: Network,
        bearoff_database: BearoffDatabase | None = None,
        variant: Variant = STANDARD,
    ) -> None:
        for name, net in (("contact", contact_net), ("race", race_net)):
            if net.sizes[0] not in (INPUTS, RAW_INPUTS, VARIANT_INPUTS):
                raise ValueError(
                    f"the {name} network takes {net.sizes[0]} inputs, not the encoder's {INPUTS} "
                    f"(or {RAW_INPUTS} without the contact features, {VARIANT_INPUTS} for a variant)"
                )
        self.contact_net = contact_net
        self.race_net = race_net
        self.bearoff_database = bearoff_database
        self.variant = variant
        self.exact_checkers = variant.checkers if covers(variant) else None
        self.shipped = False
        """Whether these are the package's networks: then each variant is judged by its own."""

    def for_variant(self, variant: Variant) -> Evaluator:
        """This evaluator's networks judging ``variant``'s positions and scoring (itself if it is the same).

        The shipped evaluator gives the variant's own networks where the
        package has them (:meth:`default`).

        >>> from tavola.variants import HYPERGAMMON
        >>> hypergammon = Evaluator.untrained(hidden=8, seed=1).for_variant(HYPERGAMMON)
        >>> hypergammon.variant, hypergammon.exact_checkers  # judged by the exact table of 3 checkers a side
        (find_variant('hypergammon'), 3)
        """
        if variant == self.variant:
            return self
        if self.shipped:
            return Evaluator.default(variant)
        return Evaluator(self.contact_net, self.race_net, self.bearoff_database, variant)

    def equity(self, probabilities: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The player on roll's cubeless equity in the variant's points (:func:`points_equity`)."""
        return points_equity(probabilities, self.variant)

    @classmethod
    def load(cls, path: str | os.PathLike[str], variant: Variant = STANDARD) -> Evaluator:
        """The networks training exported: the contact net at ``path``, the race net at its ``-race`` twin."""
        contact_path = Path(path)
        return cls(
            Network.load(contact_path), Network.load(race_twin(contact_path)), default_database(), variant
        )

    @classmethod
    def default(cls, variant: Variant = STANDARD) -> Evaluator:
        """The networks that ship with Tavola, for ``variant``: its own where the package has them.

        Loaded once per variant and kept (the networks are only read).

        >>> from tavola.variants import ACEY_DEUCEY
        >>> acey_deucey = Evaluator.default().for_variant(ACEY_DEUCEY)
        >>> acey_deucey is Evaluator.default(ACEY_DEUCEY), acey_deucey.variant
        (True, find_variant('acey-deucey'))
        """
        found = _SHIPPED.get(variant)
        if found is None:
            own = shipped_weights(variant)
            if own.exists() or variant.name == STANDARD.name:
                found = cls.load(own, variant)
            else:
                standard = cls.default()
                found = Evaluator(standard.contact_net, standard.race_net, standard.bearoff_database, variant)
            found.shipped = True
            found = _SHIPPED.setdefault(variant, found)
        return found

    @classmethod
    def untrained(cls, hidden: int = 64, seed: int | None = None) -> Evaluator:
        """Random networks: a starting point for training, and for tests."""
        return cls(
            Network.random([INPUTS, hidden, OUTPUTS], seed), Network.random([INPUTS, hidden, OUTPUTS], seed)
        )

    def evaluate(self, boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """(N, 5) probabilities for each position's player on roll.

        Large batches are taken :data:`BATCH` positions at a time, so the
        network inputs stay small enough to be reused from call to call
        rather than fetched anew from the system.
        """
        array = np.asarray(boards, dtype=np.int8)
        if len(array) <= BATCH:
            return self._evaluate(array)
        return np.concatenate(
            [self._evaluate(array[start : start + BATCH]) for start in range(0, len(array), BATCH)]
        )

    def _evaluate(self, array: Boards) -> npt.NDArray[np.float32]:
        if self.exact_checkers is not None:
            exact = self._exact(array, self.exact_checkers)
            if exact is not None:
                return exact
        out = np.empty((len(array), OUTPUTS), dtype=np.float32)
        database = None if self.variant.scoring is Scoring.CHECKERS_LEFT else self.bearoff_database
        contact_rows, race_rows = route(entered_view(array), database, out, self.variant)
        for mask, net in ((contact_rows, self.contact_net), (race_rows, self.race_net)):
            if mask.any():
                out[mask] = net.of_boards(array[mask])
        if self.variant.scoring is Scoring.CHECKERS_LEFT:
            out[:, [WIN_BACKGAMMON, LOSE_BACKGAMMON]] = 0.0  # no backgammons: the loser pays per checker
        return out

    def _exact(self, array: Boards, checkers: int) -> npt.NDArray[np.float32] | None:
        """The exact table's chances (None where the table is not ready); finished games alone are judged
        without reading the table."""
        over = finished(array, self.variant)
        if over is not None and not np.isnan(over[:, WIN]).any():
            return over
        table = ready_table(checkers)
        return None if table is None else table.evaluate(array)

    def choose(self, before: Boards, results: Boards) -> int:
        """The 0-ply choice: the play whose result is best for the mover (the arena's chooser protocol)."""
        del before  # the results say everything
        opponent_view = self.evaluate(flip_array(results))
        return int(np.argmax(-self.equity(opponent_view)))
