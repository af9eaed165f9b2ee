"""A throwaway PostgreSQL cluster on a free loopback port, for a run of the server or a test.

    with throwaway_postgresql() as url:  # postgresql://tavola@127.0.0.1:PORT/tavola
        ...

The cluster is made with Debian's tools (``initdb``, ``pg_ctl``, ``createdb``:
on the ``PATH`` or under /usr/lib/postgresql/VERSION/bin) in a temporary
folder, listens on 127.0.0.1 only, trusts the user ``tavola`` without a
password and holds an empty database ``tavola``; on leaving it is stopped
and the folder removed. PostgreSQL refuses to run as root: run by root, the
cluster is the user ``postgres``'s (through ``runuser``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

POSTGRES_BIN = Path("/usr/lib/postgresql")
"""Where Debian installs each version's tools."""
SYSTEM_USER = "postgres"
"""Whom the cluster runs as when root starts it."""
TIMEOUT = 60
"""Seconds each of PostgreSQL's tools may take."""


def postgres_tools() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``createdb``: the ``PATH``'s, else Debian's newest."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(POSTGRES_BIN.glob("*/bin/initdb"))
    return versions[-1].parent if versions else None


def unavailable() -> str | None:
    """Why a cluster cannot be started here (None: it can)."""
    if postgres_tools() is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root without runuser to start PostgreSQL as another user"
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            return f"running as root with no user {SYSTEM_USER} to start PostgreSQL as"
    return None


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run(command: Sequence[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")


@contextmanager
def throwaway_postgresql() -> Iterator[str]:
    """A new PostgreSQL cluster, running: the URL of its database ``tavola``; stopped and removed after."""
    reason = unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    tools = postgres_tools()
    assert tools is not None
    as_user = ["runuser", "-u", SYSTEM_USER, "--"] if os.geteuid() == 0 else []
    # root's temporary folder may be closed to the cluster's user, and the socket's path must stay short
    folder = Path(tempfile.mkdtemp(prefix="tavola-pg-", dir="/tmp" if as_user else None))
    if as_user:
        shutil.chown(folder, SYSTEM_USER)
    data = folder / "data"
    port = free_port()
    try:
        _run([*as_user, str(tools / "initdb"), "-D", str(data), "-U", "tavola", "--auth=trust"])
        listen = f"-h 127.0.0.1 -p {port} -k {folder}"
        _run(
            [
                *as_user,
                str(tools / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(folder / "log"),
                "-o",
                listen,
                "-w",
                "start",
            ]
        )
        _run(
            [*as_user, str(tools / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "tavola", "tavola"]
        )
        yield f"postgresql://tavola@127.0.0.1:{port}/tavola"
    finally:
        subprocess.run(
            [*as_user, str(tools / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


def another_database(url: str, name: str) -> str:
    """A new empty database ``name`` in the cluster of ``url``'s: its URL (needs psycopg)."""
    import psycopg

    scheme, rest = url.split("://", 1)
    with psycopg.connect(f"{scheme.split('+')[0]}://{rest}", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{url.rsplit('/', 1)[0]}/{name}"
