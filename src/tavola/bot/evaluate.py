"""Cubeless evaluation of whole batches of positions, and the 0-ply choice of a play.

:class:`Evaluator` routes each position by its class, in one pass over the
batch: a finished game gets its exact result (R19), a bear-off (both sides
all home, no contact) the exact one-sided database of
:mod:`tavola.bot.bearoff`, another race the race network, everything else
the contact network. Probabilities are for the player on roll
(see :mod:`tavola.bot.network`).

>>> from tavola.position import Position
>>> evaluator = Evaluator.untrained(seed=1)
>>> finished = Position([0] * 18 + [-15] + [0] * 5, off=(15, 0)).flip()  # on roll, gammoned
>>> [float(p) for p in evaluator.evaluate(finished.to_array()[None])[0]]
[0.0, 0.0, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.bearoff import BearoffDatabase, default_database, is_bearoff
from tavola.bot.encode import INPUTS, RAW_INPUTS, encode
from tavola.bot.features import in_contact
from tavola.bot.network import LOSE_BACKGAMMON, LOSE_GAMMON, OUTPUTS, WIN, Network, equity
from tavola.position import (
    CHECKERS,
    MY_BAR,
    MY_OFF,
    THEIR_OFF,
    flip_array,
)

Boards = npt.NDArray[np.int8]
BATCH = 8_192
"""Positions encoded and evaluated at a time (their inputs take 6.7 MB)."""
SHIPPED_WEIGHTS = Path(__file__).with_name("data") / "tavola.npz"
"""The contact network's weights in the package (the race network's are ``tavola-race.npz``)."""


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


def finished(boards: Boards, checkers: int = CHECKERS) -> npt.NDArray[np.float32] | None:
    """Exact probabilities where the player on roll has lost (the opponent bore off all); NaN elsewhere."""
    lost = boards[:, THEIR_OFF] == checkers
    if not lost.any():
        return None
    out = np.full((len(boards), OUTPUTS), np.nan, dtype=np.float32)
    gammoned = boards[:, MY_OFF] == 0
    caught = (boards[:, MY_BAR] > 0) | (boards[:, 19:25] > 0).any(axis=1)  # in the winner's home board
    out[lost] = 0.0
    out[lost, LOSE_GAMMON] = gammoned[lost]
    out[lost, LOSE_BACKGAMMON] = (gammoned & caught)[lost]
    return out


def route(
    boards: Boards, database: BearoffDatabase | None, out: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Fill ``out`` where the answer is exact: finished games, and bear-offs when there is a ``database``.

    Returns the rows left for the contact network and for the race network.
    """
    exact = finished(boards)
    done = ~np.isnan(exact[:, WIN]) if exact is not None else np.zeros(len(boards), dtype=bool)
    if exact is not None:
        out[done] = exact[done]
    touching = contact(boards)
    exact_race = ~done & is_bearoff(boards) if database is not None else np.zeros_like(done)
    if database is not None and exact_race.any():
        out[exact_race] = database.evaluate_batch(boards[exact_race])
    return ~done & touching, ~done & ~touching & ~exact_race


class Evaluator:
    """A contact network and a race network behind one batched ``evaluate``."""

    def __init__(
        self, contact_net: Network, race_net: Network, bearoff_database: BearoffDatabase | None = None
    ) -> None:
        for name, net in (("contact", contact_net), ("race", race_net)):
            if net.sizes[0] not in (INPUTS, RAW_INPUTS):
                raise ValueError(
                    f"the {name} network takes {net.sizes[0]} inputs, not the encoder's {INPUTS} "
                    f"(or {RAW_INPUTS} without the contact features)"
                )
        self.contact_net = contact_net
        self.race_net = race_net
        self.bearoff_database = bearoff_database

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Evaluator:
        """The networks training exported: the contact net at ``path``, the race net at its ``-race`` twin."""
        contact_path = Path(path)
        race_path = contact_path.with_name(contact_path.stem + "-race" + contact_path.suffix)
        return cls(Network.load(contact_path), Network.load(race_path), default_database())

    @classmethod
    def default(cls) -> Evaluator:
        """The networks that ship with Tavola."""
        return cls.load(SHIPPED_WEIGHTS)

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
        out = np.empty((len(array), OUTPUTS), dtype=np.float32)
        contact_rows, race_rows = route(array, self.bearoff_database, out)
        for mask, net in ((contact_rows, self.contact_net), (race_rows, self.race_net)):
            if mask.any():
                out[mask] = net.probabilities(encode(array[mask], features=net.sizes[0] == INPUTS))
        return out

    def choose(self, before: Boards, results: Boards) -> int:
        """The 0-ply choice: the play whose result is best for the mover (the arena's chooser protocol)."""
        del before  # the results say everything
        opponent_view = self.evaluate(flip_array(results))
        return int(np.argmax(-equity(opponent_view)))
