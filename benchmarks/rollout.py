"""Rollout speed: trials per second of a cubeless rollout of the opening position at 0-ply, on one core.

Run: python benchmarks/rollout.py [--trials 1296] [--seed 2026]

Tavola rolls out the opening position (the player on roll before the roll,
doubles allowed) with the shipped networks, its checker play at 0-ply,
quasi-random dice, played to the end, without and with variance reduction
(:mod:`tavola.analysis.rollout`). Where GNU Backgammon is installed
(``/usr/games/gnubg``), it rolls out the same position with the same
settings in the same run (``gnubg -t -q`` reading a command script:
``set rollout trials``, ``set rollout chequerplay plies 0``, ``set rollout
varredn off|on``, ``set rollout cubeful off``, then ``rollout``); its time
less that of the same script without the ``rollout`` command (its start-up)
counts. The process, and gnubg, are pinned to one core and BLAS to one thread.
Both the wall-clock rate and the rate by CPU time are shown (gnubg's CPU time
is its process's, from ``getrusage``): on a busy machine the CPU time is the
fairer measure.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # before NumPy loads its BLAS: one thread

import argparse  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import NamedTuple  # noqa: E402

from tavola.analysis.rollout import RolloutSettings, rollout_position  # noqa: E402
from tavola.bot.evaluate import Evaluator  # noqa: E402
from tavola.position import Position  # noqa: E402

GNUBG = Path("/usr/games/gnubg")
OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"  # X on roll, no dice yet


class Seconds(NamedTuple):
    """Time taken: wall-clock and CPU seconds."""

    wall: float
    cpu: float

    def __sub__(self, other: tuple[float, ...]) -> Seconds:
        return Seconds(self.wall - other[0], self.cpu - other[1])

    def rates(self, trials: int) -> str:
        """Trials per second by the wall clock and by CPU time, as a text."""
        return f"{trials / self.wall:8.1f} trials/s wall, {trials / self.cpu:8.1f} trials/s CPU"


def tavola_rate(trials: int, variance_reduction: bool, seed: int) -> tuple[Seconds, str]:
    """Seconds of Tavola's rollout, and its equity as a text."""
    settings = RolloutSettings(trials=trials, variance_reduction=variance_reduction, seed=seed)
    evaluator = Evaluator.default()
    rollout_position(Position.start(), RolloutSettings(trials=4, seed=seed), evaluator)  # compile, load
    began = Seconds(time.perf_counter(), time.process_time())
    result = rollout_position(Position.start(), settings, evaluator)
    elapsed = Seconds(time.perf_counter(), time.process_time()) - began
    equity = f"{result.equity.mean:+.4f} ± {result.equity.standard_error:.4f}"
    return elapsed, equity


def gnubg_seconds(trials: int, variance_reduction: bool, roll_out: bool) -> Seconds:
    """Seconds of one ``gnubg -t -q`` run of the rollout's command script (without ``rollout``: start-up)."""
    script = [
        "set player 0 human",
        "set player 1 human",
        f"set xgid {OPENING_XGID}",
        f"set rollout trials {trials}",
        "set rollout chequerplay plies 0",
        f"set rollout varredn {'on' if variance_reduction else 'off'}",
        "set rollout cubeful off",
        "set rollout quasirandom on",
    ] + (["rollout"] if roll_out else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        [str(GNUBG), "-t", "-q"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Seconds(wall, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1296, help="trials per rollout (default 1296)")
    parser.add_argument("--seed", type=int, default=2026, help="the dice's seed (default 2026)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # gnubg, started from here, inherits it
    print(f"cubeless rollout of the opening position, 0-ply, {args.trials} trials, one core")
    for variance_reduction in (False, True):
        label = "with variance reduction" if variance_reduction else "without variance reduction"
        seconds, equity = tavola_rate(args.trials, variance_reduction, args.seed)
        print(f"  tavola {label}: {seconds.rates(args.trials)}  (equity {equity})")
        if GNUBG.exists():
            startups = [gnubg_seconds(args.trials, variance_reduction, False) for _ in range(3)]
            startup = Seconds(min(run.wall for run in startups), min(run.cpu for run in startups))
            seconds = gnubg_seconds(args.trials, variance_reduction, True) - startup
            print(f"  gnubg  {label}: {seconds.rates(args.trials)}")
    if not GNUBG.exists():
        print(f"  gnubg: not installed at {GNUBG}")


if __name__ == "__main__":
    main()
