"""Spreading ordered work: in this process, in spawned processes and on Ray, with the same results."""

from __future__ import annotations

import base64
import builtins
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tavola import Position
from tavola.analysis.rollout import BLOCK, RolloutSettings, rollout_position
from tavola.bot.evaluate import Evaluator
from tavola.cube import Cube
from tavola.distribute import INSTALL_RAY, Spread, SpreadError

TINY = Evaluator.untrained(hidden=8, seed=4)
CUBEFUL = RolloutSettings(trials=3 * BLOCK, truncation=4, seed=21, cubeful=True, cube=Cube(2, 0))


def scaled(shared: int, item: int) -> int:
    """A piece of work that finishes later the earlier it comes: the results must still come in order."""
    time.sleep(0.02 * (5 - item) if item < 5 else 0)
    return shared * item


def test_a_spread_is_checked_and_pastes_back():
    assert Spread() == Spread(workers=1, ray=None)
    assert eval(repr(Spread(workers=3)), {"Spread": Spread}) == Spread(workers=3)
    for workers in (0, -1, 1.5, True):
        with pytest.raises(SpreadError, match="1 process or more"):
            Spread(workers=workers)  # type: ignore[arg-type]
    with pytest.raises(SpreadError, match="an address or 'auto'"):
        Spread(ray="")


def test_results_come_in_the_order_of_the_items_here_and_in_processes():
    items = list(range(8))
    expected = [3 * item for item in items]
    assert list(Spread().map(scaled, 3, items)) == expected
    assert list(Spread(workers=2).map(scaled, 3, items)) == expected


def test_closing_the_iterator_early_cancels_the_rest():
    results = Spread(workers=2).map(scaled, 1, range(50))
    assert [next(results), next(results)] == [0, 1]
    started = time.perf_counter()
    results.close()  # type: ignore[attr-defined]
    assert time.perf_counter() - started < 5  # the 48 items left were not run


def test_a_missing_ray_is_a_clear_error_naming_the_extra(monkeypatch):
    real_import = builtins.__import__

    def without_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_ray)
    monkeypatch.setattr("importlib.import_module", lambda name: without_ray(name))
    with pytest.raises(SpreadError, match="Ray is not installed") as raised:
        next(Spread(ray="auto").map(scaled, 1, [1]))
    assert INSTALL_RAY in str(raised.value)


def test_a_cubeful_rollout_is_bit_identical_in_one_process_and_in_two():
    one = rollout_position(Position.start(), CUBEFUL, TINY, chunk=BLOCK)
    assert one.cubeful is not None
    assert rollout_position(Position.start(), CUBEFUL, TINY, spread=Spread(workers=2), chunk=BLOCK) == one


RAY_RUN = """
import base64, operator, pickle, sys
import ray
from test_distribute import CUBEFUL, TINY
from tavola import Position
from tavola.analysis.rollout import BLOCK, rollout_position
from tavola.distribute import Spread
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
spread = Spread(ray="auto")  # the Ray just started in this process
found = (list(spread.map(operator.mul, 2, range(6))), rollout_position(Position.start(), CUBEFUL, TINY, spread=spread, chunk=BLOCK))
print("RESULT", base64.b64encode(pickle.dumps(found)).decode(), flush=True)
ray.shutdown()
"""


def test_ray_gives_the_results_in_order_and_a_cubeful_rollout_bit_for_bit():
    """Ray runs in a process of its own (a local cluster, two CPUs): whatever Ray does to the process that
    started it when it stops, the test process is not that one."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'tavola[distributed]'")
    tests = str(Path(__file__).resolve().parent)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", RAY_RUN], capture_output=True, text=True, timeout=300, env=environment
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"the Ray run gave no result (exit {run.returncode}): {run.stderr[-2000:]}"
    order, on_ray = pickle.loads(base64.b64decode(lines[-1].split()[1]))
    assert order == [0, 2, 4, 6, 8, 10]  # Ray's workers import the function and keep the order
    assert on_ray == rollout_position(Position.start(), CUBEFUL, TINY, chunk=BLOCK)
