"""Hints asked at some tables against the requests of another: does a search hold up other tables?

Run: python benchmarks/server_hints.py [--clients 12] [--seconds 10] [--search-workers N]

``tavola serve`` runs in a process of its own on 127.0.0.1 (a SQLite file in a
temporary folder). Each of ``--clients`` people sits at a table of their own
created with hints, and asks for the hint of their roll again and again, as
fast as the server answers, for ``--seconds``; each from a loopback address of
their own (127.1.0.x), as people's browsers are. Meanwhile another table is
read every 50 ms. It prints how long that table's reads took (median, 99th
percentile, worst) and how the hints were answered: given, or refused for
asking too often (429). A search that held a lock another table needs, or the
server's interpreter, would show in the other table's reads.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from server_load import ServerProcess, free_port

HINTS = {"kind": "game", "series": "single", "hints": True, "seats": [{}, {}]}
"""Each table: one game between two people, hints allowed."""


def seated(url: str, address: str) -> tuple[str, str]:
    """A new table of :data:`HINTS` with both seats taken, from ``address``: its id and the token of the
    seat whose roll is being played."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=url, timeout=60, transport=transport) as client:
        table = client.post("/api/tables", json=HINTS).json()["id"]
        tokens = [
            client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name}).json()["token"]
            for seat, name in enumerate(("Ann", "Bob"))
        ]
        mover = client.get(f"/api/tables/{table}").json()["to_act"][0]
        return table, tokens[mover]


_counting = threading.Lock()


def ask(url: str, address: str, table: str, token: str, until: float, answers: Counter[int]) -> None:
    """Ask for the hint until ``until``, counting the answers' statuses."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=url, timeout=60, transport=transport) as client:
        while time.monotonic() < until:
            status = client.get(f"/api/tables/{table}/hint", headers={"Authorization": f"Bearer {token}"})
            with _counting:
                answers[status.status_code] += 1


def measure(url: str, clients: int, seconds: float) -> tuple[list[float], Counter[int]]:
    """The other table's reads, in milliseconds, and the hints' statuses."""
    asking = [seated(url, f"127.1.0.{index + 1}") for index in range(clients)]
    other, _token = seated(url, "127.1.1.1")
    until = time.monotonic() + seconds
    answers: Counter[int] = Counter()
    threads = [
        threading.Thread(target=ask, args=(url, f"127.1.0.{index + 1}", table, token, until, answers))
        for index, (table, token) in enumerate(asking)
    ]
    for thread in threads:
        thread.start()
    reads = []
    with httpx.Client(base_url=url, timeout=60) as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            client.get(f"/api/tables/{other}")
            reads.append((time.perf_counter() - started) * 1000)
            time.sleep(0.05)
    for thread in threads:
        thread.join()
    return sorted(reads), answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=12, help="people asking for hints (default 12)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long they ask (default 10)")
    parser.add_argument("--search-workers", type=int, help="tavola serve's --search-workers (its default)")
    args = parser.parse_args()
    options = () if args.search_workers is None else ("--search-workers", str(args.search_workers))
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(
            f"sqlite:///{Path(folder) / 'server.sqlite3'}", free_port(), Path(folder) / "server.log", options
        )
        server.start()
        try:
            asyncio.run(server.ready())
            reads, answers = measure(server.url, args.clients, args.seconds)
        finally:
            server.stop()
    figures = Table(title=f"{args.clients} people asking for hints for {args.seconds:.0f} s")
    figures.add_column("measure")
    figures.add_column("value", justify="right")
    figures.add_row("another table's reads", f"{len(reads)}")
    figures.add_row("  median", f"{statistics.median(reads):.1f} ms")
    figures.add_row("  99th percentile", f"{reads[int(0.99 * (len(reads) - 1))]:.1f} ms")
    figures.add_row("  worst", f"{reads[-1]:.1f} ms")
    figures.add_row("hints given", f"{answers[200]}")
    figures.add_row("hints refused, too many (429)", f"{answers[429]}")
    others = sum(count for status, count in answers.items() if status not in (200, 429))
    figures.add_row("other answers", f"{others}")
    Console().print(figures)


if __name__ == "__main__":
    main()
