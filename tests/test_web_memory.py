"""The serving process's memory: tables freed by reference counting, no cyclic garbage from play, and the
garbage collector's schedule while serving (tavola.web.memory)."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavola.notation import Segment, dice_paths
from tavola.web import memory
from tavola.web.hub import Connection, Hub
from tavola.web.live import LiveTable
from tavola.web.options import read_options
from tavola.web.storage import Store, open_database
from web_helpers import DroppingLoop

pytestmark = pytest.mark.timeout(120)

KINDS = {
    "match": {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]},
    "money": {"kind": "game", "series": "money", "seats": [{}, {}]},
    "chouette": {"kind": "chouette", "seats": [{}, {}, {}]},
}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    made = Hub(Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")), make_bot=lambda level: None)
    yield made
    made.stop()


@pytest.fixture
def without_collector() -> Iterator[None]:
    """Only reference counting frees anything meanwhile."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _seated(hub: Hub, options: dict[str, Any]) -> LiveTable:
    table = hub.create(read_options(options))
    for index in range(len(options["seats"])):
        table.take_seat(index, f"P{index}")
    return table


def _play(table: LiveTable, actions: int, rng: np.random.Generator) -> None:
    """Up to ``actions`` actions at random (the cube and resignations left alone, so that play goes on)."""
    for _ in range(actions):
        to_act = table.to_act()
        if not to_act:
            return
        seat = to_act[0]
        legal = table.legal_actions(seat)
        plain = [action for action in legal if action["action"] not in ("double", "resign", "end_session")]
        pool = plain or legal
        table.act(seat, pool[int(rng.integers(len(pool)))], len(table.actions))


def _watch(hub: Hub, table: LiveTable) -> list[Connection]:
    connections = []
    for viewer in [*range(len(table.seats)), None]:
        connection = Connection(DroppingLoop())  # type: ignore[arg-type]
        connection.viewer = viewer
        hub.watch(table.id, connection)
        connections.append(connection)
    return connections


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_the_hub_lets_go_is_freed_at_once_without_the_cyclic_collector(
    hub: Hub, kind: str, without_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _seated(hub, KINDS[kind])
    connections = _watch(hub, table)
    _play(table, 150, np.random.default_rng(3))
    for connection in connections:
        hub.unwatch(table.id, connection)
    assert table.served is not None
    freed = [weakref.ref(table), weakref.ref(table.served.table)]  # the engine's table and its games too
    table_id = table.id
    del table
    later = time.monotonic() + 10**6
    monkeypatch.setattr(time, "monotonic", lambda: later)  # long unused: the sweep lets it go
    hub.sweep()
    assert table_id not in hub.tables
    assert [reference() for reference in freed] == [None, None]


def test_playing_leaves_no_cyclic_garbage(hub: Hub) -> None:
    tables = [_seated(hub, options) for options in KINDS.values()]
    for table in tables:
        _watch(hub, table)
    rng = np.random.default_rng(5)
    gc.collect()
    flags = gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept, to be looked at
    try:
        for _ in range(60):
            for table in tables:
                _play(table, 1, rng)
        list(dice_paths(Segment(24, 13), [6, 5]))  # a play typed as a path is read this way
        gc.collect()
        ours = [found for found in gc.garbage if _made_by_tavola(found)]
    finally:
        gc.garbage.clear()
        gc.set_debug(flags)
        gc.enable()
    assert ours == []


def _made_by_tavola(found: object) -> bool:
    """Whether ``found`` is an object of a Tavola class, or a function of Tavola's."""
    module = found.__module__ if callable(found) and hasattr(found, "__code__") else type(found).__module__
    return str(module).startswith("tavola")


def test_serving_collects_the_young_often_and_everything_on_a_schedule() -> None:
    thresholds = gc.get_threshold()
    try:
        memory.settle()
        youngest, middle, oldest = gc.get_threshold()
        assert (youngest, middle) == memory.THRESHOLDS[:2]
        assert oldest >= 1 << 20  # never started by allocation
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_full_collections_free_the_cycles_that_grew_old(without_collector: None) -> None:
    class Node:
        other: Node | None = None

    first, second = Node(), Node()
    first.other, second.other = second, first
    freed = weakref.ref(first)
    del first, second
    assert freed() is not None  # a cycle: reference counting alone keeps it
    collections = memory.FullCollections(seconds=0.05)
    collections.start()
    try:
        deadline = time.monotonic() + 10
        while freed() is not None and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        collections.stop()
    assert freed() is None
    assert collections.done >= 1
