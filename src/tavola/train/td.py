"""Self-play training with TD(lambda), resumable from checkpoints.

Many games are played at once by the networks being trained, through the
self-play kernel (:func:`tavola.selfplay.play`): each step rolls for every
game in progress (the opening roll by R4), generates every legal play in
one call, evaluates all the results in one pass and plays the best for
each game (0-ply, greedy: :class:`~tavola.bot.policies.GreedyPolicy`).
When a game ends, the lambda-return of every position in it is worked out
backwards from its result (for a position ``s_t`` with the mover on roll and
``V'`` the value the net gave the position its play led to, seen by the same
player)::

    G_t = (1 - lambda) * V'_t + lambda * G_{t+1}    (G of the last play = the result)

and the networks are fitted to those targets (cross-entropy on the five
outputs), the contact network on contact positions and the race network on
races. This is TD(lambda) in its forward view, which batches well on a CPU
and on a GPU alike.

Run (PyTorch needed: ``pip install 'tavola[train]'``; ``pip install
torch==2.13.0`` on machines with a local CPU wheel)::

    python -m tavola.train.td --games 200000 --checkpoint checkpoints/td.pt \\
        --export src/tavola/bot/data/tavola.npz

The checkpoint is written every ``--save-every`` games (atomically), and a
run given an existing checkpoint carries on from it. ``--export`` writes the
networks as the NumPy weights the bot ships.

**Variants.** ``--variant dutch`` (or ``acey-deucey``, ``nackgammon``) plays
the games of that variant, from its start, by its rules and scoring; the
networks take the encoder's variant inputs
(:data:`~tavola.bot.encode.VARIANT_INPUTS`: waiting checkers, who may not
hit yet). ``--init`` starts them from exported networks (the standard ones,
say: their weights are copied and the extra inputs start at 0, so they play
as those did until training teaches them the variant). In Acey-Deucey a
player may move twice or more in a row (V2): a return is turned round only
where the turn passes to the other player, and self-play judges such plays
by the rest of the turn (:mod:`tavola.bot.continuation`)::

    python -m tavola.train.td --variant acey-deucey --init src/tavola/bot/data/tavola.npz \
        --hidden 128 --games 40000 --checkpoint checkpoints/acey-deucey.pt \
        --export src/tavola/bot/data/tavola-acey-deucey.npz
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tavola.bot.encode import INPUTS, VARIANT_INPUTS, encode
from tavola.bot.evaluate import Evaluator, contact, entered_view, race_twin, route
from tavola.bot.hypergammon import covers
from tavola.bot.network import OUTPUTS, Network, flip_probabilities
from tavola.bot.policies import GreedyPolicy
from tavola.errors import TavolaError
from tavola.files import write_atomically
from tavola.selfplay import key_of, play
from tavola.train import require_torch
from tavola.variants import STANDARD, find_variant

if TYPE_CHECKING:
    from torch import nn


def build_net(hidden: int, inputs: int = INPUTS) -> nn.Sequential:
    """The trained form of a :class:`Network`: inputs, one hidden sigmoid layer, five logits."""
    from torch import nn

    return nn.Sequential(nn.Linear(inputs, hidden), nn.Sigmoid(), nn.Linear(hidden, OUTPUTS))


def to_numpy(net: nn.Sequential) -> Network:
    """The NumPy network with ``net``'s weights (the sigmoid on the logits is the Network's own)."""
    from torch import nn

    linears = [module for module in net if isinstance(module, nn.Linear)]
    return Network(
        [(layer.weight.detach().cpu().numpy().T, layer.bias.detach().cpu().numpy()) for layer in linears]
    )


@dataclass
class Settings:
    games: int = 100_000
    parallel: int = 128
    hidden: int = 96
    lam: float = 0.7
    learning_rate: float = 1e-3
    batch_size: int = 512
    epochs: int = 1
    seed: int = 1
    save_every: int = 5_000
    threads: int = 1
    warmup_positions: int = 20_000
    variant: str = STANDARD.name
    init: str = ""


@dataclass
class _Trajectory:
    """One game in progress: each position before a play, and the value its play was judged at."""

    inputs: list[npt.NDArray[np.float32]] = field(default_factory=list)
    contact: list[bool] = field(default_factory=list)
    next_values: list[npt.NDArray[np.float32]] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    """The seat that made each play (the other player's returns are turned round); empty: they alternate."""


class Trainer:
    """The networks, the optimiser and the count of games played: everything a checkpoint holds."""

    def __init__(self, settings: Settings, device: str | None = None) -> None:
        import torch

        self.settings = settings
        self.variant = find_variant(settings.variant)
        if covers(self.variant):
            raise TavolaError(
                f"{self.variant.name} is solved exactly (tavola.bot.hypergammon): no networks to train"
            )
        self.extras = self.variant.name != STANDARD.name
        self.inputs = VARIANT_INPUTS if self.extras else INPUTS
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        torch.manual_seed(settings.seed)
        torch.set_num_threads(settings.threads)
        self.nets = {
            name: build_net(settings.hidden, self.inputs).to(self.device) for name in ("contact", "race")
        }
        parameters = [p for net in self.nets.values() for p in net.parameters()]
        self.optimizer = torch.optim.Adam(parameters, lr=settings.learning_rate)
        self.games_played = 0
        self.rng = np.random.default_rng(settings.seed)

    # --- checkpoints ----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return {
            "settings": self.settings.__dict__,
            "nets": {name: net.state_dict() for name, net in self.nets.items()},
            "optimizer": self.optimizer.state_dict(),
            "games_played": self.games_played,
            "rng": self.rng.bit_generator.state,
        }

    def save(self, path: Path) -> None:
        """Write a checkpoint atomically."""
        import torch

        path.parent.mkdir(parents=True, exist_ok=True)
        state = self.state()
        write_atomically(path, lambda file: torch.save(state, file))

    def load(self, path: Path) -> None:
        """Carry on from a checkpoint."""
        import torch

        state = torch.load(path, map_location=self.device, weights_only=False)
        widened = self._load_nets(state["nets"])
        if not widened:
            self.optimizer.load_state_dict(state["optimizer"])
            for group in self.optimizer.param_groups:
                group["lr"] = self.settings.learning_rate  # the rate asked for now, not the saved one
        self.games_played = int(state["games_played"])
        self.rng.bit_generator.state = state["rng"]

    def _load_nets(self, nets: dict[str, dict[str, Any]]) -> bool:
        """Put ``nets``' weights in the networks; whether they had to be widened to more inputs.

        A network from before the contact features, or a standard one
        starting a variant's, gets the inputs it lacks with zero weights:
        it plays as it did, and training teaches it to use them.
        """
        import torch

        widened = False
        for name, net in self.nets.items():
            weights = nets[name]
            first = weights["0.weight"]
            if first.shape[1] < self.inputs:
                extra = torch.zeros(first.shape[0], self.inputs - first.shape[1], dtype=first.dtype)
                weights = {**weights, "0.weight": torch.cat([first, extra.to(first.device)], dim=1)}
                widened = True
            net.load_state_dict(weights)
        return widened

    def start_from(self, path: Path) -> None:
        """Start from exported networks (``path`` and its ``-race`` twin); a fresh optimiser."""
        import torch

        nets = {}
        for name, file in (("contact", path), ("race", race_twin(path))):
            network = Network.load(file)
            if len(network.layers) != 2 or network.sizes[1] != self.settings.hidden:
                raise TavolaError(
                    f"{file} has layers {network.sizes}: "
                    f"--hidden {self.settings.hidden} needs one hidden layer of as many units"
                )
            (first, first_bias), (last, last_bias) = network.layers
            nets[name] = {
                "0.weight": torch.from_numpy(first.T.copy()),
                "0.bias": torch.from_numpy(first_bias.copy()),
                "2.weight": torch.from_numpy(last.T.copy()),
                "2.bias": torch.from_numpy(last_bias.copy()),
            }
        self._load_nets(nets)

    def evaluator(self) -> Evaluator:
        """The networks as they stand, as the bot's evaluator of the variant (no bear-off database)."""
        return Evaluator(to_numpy(self.nets["contact"]), to_numpy(self.nets["race"]), None, self.variant)

    def export(self, path: Path) -> None:
        """Write the two networks as the NumPy weights the bot loads (``<path>`` and its ``-race`` twin)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        to_numpy(self.nets["contact"]).save(path)
        to_numpy(self.nets["race"]).save(race_twin(path))

    # --- playing --------------------------------------------------------------------

    def probabilities(self, boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        """(N, 5) probabilities for each position's player on roll, exact where the game is over."""
        import torch

        out = np.empty((len(boards), OUTPUTS), dtype=np.float32)
        contact_rows, race_rows = route(entered_view(boards), None, out, self.variant)
        with torch.no_grad():
            for mask, name in ((contact_rows, "contact"), (race_rows, "race")):
                if mask.any():
                    inputs = torch.from_numpy(encode(boards[mask], extras=self.extras)).to(self.device)
                    out[mask] = torch.sigmoid(self.nets[name](inputs)).cpu().numpy()
        return out

    def play_games(self, count: int) -> list[tuple[_Trajectory, npt.NDArray[np.float32]]]:
        """Play ``count`` games at once (:func:`tavola.selfplay.play`); each trajectory with its λ-returns.

        The games' dice come from a key drawn from the trainer's generator;
        the plays are chosen by the networks as they stand, run as the bot
        runs them (:meth:`evaluator`).
        """
        policy = GreedyPolicy.of(self.evaluator())
        trajectories = [_Trajectory() for _ in range(count)]
        finished_games: list[tuple[_Trajectory, npt.NDArray[np.float32]]] = []
        for step in play(policy, count, key_of(self.rng), variant=self.variant, parallel=max(count, 1)):
            inputs = encode(step.boards, extras=self.extras)
            touching = contact(entered_view(step.boards))
            # The value of each chosen result for the player who moved (by the rest of the turn, where
            # the same player goes on).
            values = policy.mover_probabilities(step.chosen)
            for slot, game in enumerate(step.game.tolist()):
                trajectory = trajectories[game]
                trajectory.inputs.append(inputs[slot])
                trajectory.contact.append(bool(touching[slot]))
                trajectory.next_values.append(values[slot])
                trajectory.seats.append(int(step.seat[slot]))
                if step.points[slot]:
                    finished_games.append((trajectory, self._returns(trajectory)))
        return finished_games

    def _returns(self, trajectory: _Trajectory) -> npt.NDArray[np.float32]:
        """λ-returns, from the last play (whose value is the exact result) back to the first."""
        lam = self.settings.lam
        values = np.stack(trajectory.next_values)
        returns = np.empty_like(values)
        following = values[-1]
        returns[-1] = following
        seats = trajectory.seats
        for index in range(len(values) - 2, -1, -1):
            # The next position's return is seen by its own player: turned round where that is the other.
            passed = not seats or seats[index] != seats[index + 1]
            seen = flip_probabilities(following[None])[0] if passed else following
            following = (1 - lam) * values[index] + lam * seen
            returns[index] = following
        return returns

    # --- learning -------------------------------------------------------------------

    def warm_up(self) -> float:
        """Fit fresh networks to a crude race estimate, so the first self-play games move forward.

        Random networks choose plays almost at random, and their games can
        run to a thousand plays. A few seconds of fitting to "the side ahead
        in the race wins" (by pip count, with no gammons) gives them a sense
        of direction; self-play does the rest.
        """
        from tavola.sampling import random_positions

        positions = random_positions(self.settings.warmup_positions, seed=self.rng)
        boards = np.stack([position.to_array() for position in positions])
        mine, theirs = (
            np.array(pips, dtype=np.float32)
            for pips in zip(*(p.pip_counts() for p in positions), strict=True)
        )
        targets = np.zeros((len(boards), OUTPUTS), dtype=np.float32)
        targets[:, 0] = 1 / (
            1 + np.exp(-(theirs - mine + 8) / 15)
        )  # the player on roll is worth about 8 pips
        trajectory = _Trajectory(list(encode(boards, extras=self.extras)), list(contact(boards)))
        return [self.fit([(trajectory, targets)]) for _ in range(5)][-1]

    def fit(self, games: list[tuple[_Trajectory, npt.NDArray[np.float32]]]) -> float:
        """One pass of minibatch updates over the positions of ``games``; returns the mean loss."""
        inputs = np.concatenate([np.stack(t.inputs) for t, _ in games])
        targets = np.concatenate([returns for _, returns in games])
        touching = np.concatenate([np.array(t.contact) for t, _ in games])
        return self.fit_arrays(inputs, targets, touching)

    def fit_arrays(
        self,
        inputs: npt.NDArray[np.float32],
        targets: npt.NDArray[np.float32],
        touching: npt.NDArray[np.bool_],
    ) -> float:
        """:meth:`fit` on encoded positions, their targets and whether each has contact."""
        import torch
        from torch import nn

        loss_fn = nn.BCEWithLogitsLoss()
        losses: list[float] = []
        for _ in range(self.settings.epochs):
            order = self.rng.permutation(len(inputs))
            for start in range(0, len(order), self.settings.batch_size):
                batch = order[start : start + self.settings.batch_size]
                self.optimizer.zero_grad()
                total = torch.zeros((), device=self.device)
                for mask, name in ((touching[batch], "contact"), (~touching[batch], "race")):
                    rows = batch[mask]
                    if len(rows):
                        x = torch.from_numpy(inputs[rows]).to(self.device)
                        y = torch.from_numpy(targets[rows]).to(self.device)
                        total = total + loss_fn(self.nets[name](x), y) * len(rows) / len(batch)
                total.backward()  # type: ignore[no-untyped-call]
                self.optimizer.step()
                losses.append(float(total.detach()))
        return float(np.mean(losses)) if losses else 0.0


def train(
    settings: Settings, checkpoint: Path | None, export: Path | None, device: str | None = None
) -> Trainer:
    """Train up to ``settings.games`` games in all, carrying on from ``checkpoint`` if it exists."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    trainer = Trainer(settings, device)
    if checkpoint is not None and checkpoint.exists():
        trainer.load(checkpoint)
    elif settings.init:
        trainer.start_from(Path(settings.init))
    elif settings.warmup_positions:
        trainer.warm_up()
    last_save = trainer.games_played
    columns = (
        TextColumn(f"{trainer.variant.name} TD({{task.fields[lam]}})"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, TextColumn("loss {task.fields[loss]:.4f}  {task.fields[rate]:.0f} games/s")
    ) as bar:
        task = bar.add_task(
            "train",
            total=settings.games,
            completed=trainer.games_played,
            lam=settings.lam,
            loss=0.0,
            rate=0.0,
        )
        while trainer.games_played < settings.games:
            began = time.perf_counter()
            count = min(settings.parallel, settings.games - trainer.games_played)
            games = trainer.play_games(count)
            loss = trainer.fit(games)
            trainer.games_played += count
            rate = count / (time.perf_counter() - began)
            bar.update(task, completed=trainer.games_played, loss=loss, rate=rate)
            if checkpoint is not None and trainer.games_played - last_save >= settings.save_every:
                trainer.save(checkpoint)
                if export is not None:
                    trainer.export(export)
                last_save = trainer.games_played
    if checkpoint is not None:
        trainer.save(checkpoint)
    if export is not None:
        trainer.export(export)
    return trainer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Train Tavola's networks by TD(lambda) self-play.")
    defaults = Settings()
    for name, value in defaults.__dict__.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    parser.add_argument(
        "--checkpoint", type=Path, help="checkpoint file: read if it exists, written as it goes"
    )
    parser.add_argument("--export", type=Path, help="write the NumPy weights here (and its -race twin)")
    parser.add_argument("--device", help="cpu or cuda (default: cuda when there is one)")
    args = parser.parse_args(argv)
    require_torch()
    settings = Settings(**{name: getattr(args, name) for name in defaults.__dict__})
    train(settings, args.checkpoint, args.export, args.device)


if __name__ == "__main__":
    main()
