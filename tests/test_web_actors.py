"""The threads doing the event loop's blocking work: results and errors come back to the awaiting
coroutine, work runs at once up to the threads' number, a cancelled wait leaves the threads serving."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tavola.web.actors import Actors


def test_the_work_s_result_and_error_come_back_where_it_is_awaited() -> None:
    actors = Actors(2, "test")

    def fail() -> None:
        raise LookupError("no such table")

    async def both() -> tuple[int, str]:
        result = await actors.call(pow, 2, 10)
        with pytest.raises(LookupError, match="no such table"):
            await actors.call(fail)
        return result, await actors.call(lambda: threading.current_thread().name)

    try:
        result, name = asyncio.run(both())
        assert result == 1024
        assert name.startswith("test-")
    finally:
        actors.stop()


def test_work_runs_side_by_side_up_to_the_threads_number_and_no_more() -> None:
    actors = Actors(3, "test")
    running, most, lock = [0], [0], threading.Lock()
    release = threading.Event()

    def hold() -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(5)
        with lock:
            running[0] -= 1
        return threading.current_thread().name

    async def many() -> list[str]:
        tasks = [asyncio.ensure_future(actors.call(hold)) for _ in range(8)]
        while most[0] < 3:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # a fourth would have started by now
        release.set()
        return list(await asyncio.gather(*tasks))

    try:
        names = asyncio.run(many())
        assert most[0] == 3
        assert set(names) == {"test-1", "test-2", "test-3"}
    finally:
        actors.stop()


def test_a_wait_cancelled_leaves_the_work_done_and_the_threads_serving() -> None:
    actors = Actors(1, "test")
    done = threading.Event()
    started = threading.Event()

    def slow() -> None:
        started.set()
        done.wait(5)

    async def cancel_then_call() -> int:
        waiting = asyncio.ensure_future(actors.call(slow))
        while not started.is_set():
            await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        done.set()
        return await actors.call(len, "four")

    try:
        assert asyncio.run(cancel_then_call()) == 4
    finally:
        actors.stop()


def test_stopped_actors_take_no_more_work() -> None:
    actors = Actors(1, "test")
    assert asyncio.run(actors.call(abs, -3)) == 3
    actors.stop()
    with pytest.raises(RuntimeError, match="stopping"):
        asyncio.run(actors.call(abs, -3))
