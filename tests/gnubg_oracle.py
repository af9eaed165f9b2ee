"""GNU Backgammon as an independent oracle of legal plays (a helper for tests).

Example::

    from gnubg_oracle import legal_results

    [start] = legal_results([("4HPwATDgc/ABMA", 3, 1)])
    assert len(start) == 16  # the 16 distinct plays of an opening 3-1

``legal_results`` answers a whole batch of ``(position_id, die1, die2)`` queries
in ONE gnubg process.  The position ID is gnubg's, with the player on roll as
gnubg's player on roll.  For each query it returns the set of the Position IDs
of every position a legal play can lead to, each written from the side of the
player who moved (the same player is still "on roll" in the ID: it is not
swapped to the opponent).  When there is no legal play the set holds just the
input ID (the pass).

How the moves come out of gnubg
-------------------------------
gnubg 1.07's Python API has no "list the legal moves" function, so this module
runs this very file inside gnubg (``gnubg -t -q -r -p gnubg_oracle.py``), where
``_serve`` does, for each query::

    set board <id>; set dice <d1> <d2>; gnubg.hint(<huge>)

with chequer play set to 0-ply.  At 0-ply ``hint`` scores and lists EVERY move
of gnubg's move generator (``GenerateMoves``), one entry per distinct resulting
position (the generator already merges plays that lead to the same position).
Each entry carries the move as text (``"13/7*/5 6/5"``); ``gnubg.parsemove``
turns it into (from, to) pairs, ``apply_move`` below (plain Python) plays them
on the board, and ``gnubg.positionid`` encodes the result.  Every query checks
that gnubg really holds the asked position and dice, and that the number of
distinct results equals the number of moves gnubg listed; anything else raises
``GnubgError`` with gnubg's output.

gnubg's boards (``gnubg.board()``, ``gnubg.positionfromid``) are a pair of
25-tuples ``(not_on_roll, on_roll)``: index ``i`` is that player's own point
``i + 1``, index 24 its bar, and the Position ID encodes ``board[0]`` first.

Speed: every ``hint`` runs as an asynchronous gnubg task, and gnubg's main
thread polls for its end with ``g_usleep(10000)``, so each query costs at least
10 ms of wall time for 0.2 ms of work.  With ``fast=True`` (the default) the
driver points gnubg's ``g_usleep`` import at libc's ``sched_yield`` (a GOT
patch done with ctypes inside the gnubg process), so the poll yields instead of
sleeping; the results are the same, only the wait is shorter.  If the patch
cannot be applied the driver carries on at the slow speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

GNUBG = "/usr/games/gnubg"

Query = tuple[str, int, int]
#: A gnubg board: ``(not_on_roll, on_roll)``, each 25 counts (points 1..24, then the bar).
Board = tuple[list[int], list[int]]

_ENV_IN = "GNUBG_ORACLE_IN"
_ENV_OUT = "GNUBG_ORACLE_OUT"
_ENV_FAST = "GNUBG_ORACLE_FAST"
_MAX_HINTS = 1_000_000  # far above the most legal plays any position has (a few thousand)


class GnubgError(RuntimeError):
    """gnubg failed or answered something this module does not understand."""


def gnubg_available() -> bool:
    """Whether the gnubg executable is installed at ``GNUBG``."""
    return os.path.isfile(GNUBG) and os.access(GNUBG, os.X_OK)


def legal_results(queries: Sequence[Query], *, timeout: float = 600.0, fast: bool = True) -> list[set[str]]:
    """The Position IDs every legal play leads to, one set per query (see the module doc)."""
    return [set(plays) for plays in legal_plays(queries, timeout=timeout, fast=fast)]


def legal_plays(
    queries: Sequence[Query], *, timeout: float = 600.0, fast: bool = True
) -> list[dict[str, str]]:
    """Like ``legal_results``, but maps each resulting Position ID to gnubg's text of the play.

    The pass is ``{position_id: ""}``.  Handy for reporting a disagreement.
    """
    checked = [_checked_query(query) for query in queries]
    if not checked:
        return []
    if not gnubg_available():
        raise GnubgError(f"gnubg is not installed at {GNUBG}")
    with tempfile.TemporaryDirectory(prefix="gnubg-oracle-") as tmp:
        work = Path(tmp)
        in_path, out_path = work / "queries.json", work / "results.json"
        stdout_path, stderr_path = work / "stdout.txt", work / "stderr.txt"
        prefs = work / "prefs"
        prefs.mkdir()
        in_path.write_text(json.dumps(checked))
        env = dict(os.environ)
        env.update(
            {
                _ENV_IN: str(in_path),
                _ENV_OUT: str(out_path),
                _ENV_FAST: "1" if fast else "0",
                "HOME": str(work),  # keep the user's gnubg settings out, and gnubg's files in tmp
            }
        )
        command = [GNUBG, "-t", "-q", "-r", "-s", str(prefs), "-p", str(Path(__file__).resolve())]
        with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
            try:
                completed = subprocess.run(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    env=env,
                    cwd=work,
                    timeout=timeout,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise GnubgError(
                    f"gnubg took more than {timeout} s on {len(checked)} queries"
                    + _outputs(stdout_path, stderr_path)
                ) from None
        if not out_path.exists():
            raise GnubgError(
                f"gnubg (exit status {completed.returncode}) wrote no answer"
                + _outputs(stdout_path, stderr_path)
            )
        answer = json.loads(out_path.read_text())
        if not answer.get("ok"):
            raise GnubgError(
                "the driver inside gnubg failed:\n"
                + str(answer.get("error"))
                + _outputs(stdout_path, stderr_path)
            )
        results = answer["results"]
        if len(results) != len(checked):
            raise GnubgError(f"gnubg answered {len(results)} of {len(checked)} queries")
        return [{str(pid): str(text) for pid, text in plays} for plays in results]


def apply_move(board: Board, move: Sequence[tuple[int, int]]) -> Board:
    """Play ``move`` for the player on roll (``board[1]``); return the new board, not swapped.

    ``move`` is ``gnubg.parsemove``'s form: (from, to) pairs in the mover's own
    numbering, 25 the bar and 0 off.  A checker landing on a point holding one
    opposing checker sends it to the opponent's bar; landing on two or more is
    an error, as is moving a checker that is not there.
    """
    opponent, mover = list(board[0]), list(board[1])
    for source, target in move:
        if not (1 <= source <= 25 and 0 <= target <= 24 and target < source):
            raise ValueError(f"bad step {source}/{target} in {move}")
        if mover[source - 1] == 0:
            raise ValueError(f"no checker on {source} to move in {move}")
        mover[source - 1] -= 1
        if target == 0:
            continue  # borne off
        mover[target - 1] += 1
        facing = 24 - target  # the same point in the opponent's numbering is 25 - target
        if opponent[facing] == 1:
            opponent[facing] = 0
            opponent[24] += 1
        elif opponent[facing] > 1:
            raise ValueError(f"point {target} is blocked in {move}")
    return opponent, mover


def _checked_query(query: Query) -> tuple[str, int, int]:
    position_id, die1, die2 = query
    if not isinstance(position_id, str) or not position_id.isascii() or len(position_id) != 14:
        raise ValueError(f"not a gnubg Position ID: {position_id!r}")
    for die in (die1, die2):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"bad die {die!r} in {query!r}")
    return position_id, die1, die2


def _outputs(stdout_path: Path, stderr_path: Path, limit: int = 4000) -> str:
    parts = []
    for name, path in (("stderr", stderr_path), ("stdout", stdout_path)):
        text = path.read_text(errors="replace") if path.exists() else ""
        if len(text) > limit:
            text = "[...]\n" + text[-limit:]
        parts.append(f"\n--- gnubg {name} ---\n{text}")
    return "".join(parts)


# ---------------------------------------------------------------------------
# What runs inside gnubg (``gnubg -p`` runs this file as __main__).


def _serve() -> None:
    out_path = os.environ[_ENV_OUT]
    try:
        with open(os.environ[_ENV_IN]) as f:
            queries = json.load(f)
        fast = os.environ.get(_ENV_FAST) == "1" and _speed_up_gnubg()
        answer: dict[str, Any] = {"ok": True, "fast": fast, "results": _answer_all(queries)}
    except Exception:
        answer = {"ok": False, "error": traceback.format_exc()}
    tmp = out_path + ".part"
    with open(tmp, "w") as f:
        json.dump(answer, f)
    os.replace(tmp, out_path)


def _answer_all(queries: list[list[Any]]) -> list[list[tuple[str, str]]]:
    import gnubg  # type: ignore[import-not-found]  # only exists inside gnubg

    for command in (
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set automatic move off",
        "set automatic bearoff off",
        "set automatic game off",
        "set variation standard",
        "set evaluation chequerplay evaluation plies 0",
        "new game",
    ):
        gnubg.command(command)
    if gnubg.posinfo()["gamestate"] != 1:
        raise GnubgError(f"gnubg did not start a game: {gnubg.posinfo()}")

    results = []
    for index, (position_id, die1, die2) in enumerate(queries):
        where = f"query {index}: position {position_id} dice {die1}-{die2}"
        try:
            board = gnubg.positionfromid(position_id)
        except ValueError as error:  # not an ID, or an impossible position (overlap, >15 checkers)
            raise GnubgError(f"gnubg rejects {where}: {error}") from None
        if gnubg.positionid(board) != position_id:
            raise GnubgError(f"gnubg rejects {where}: canonical form is {gnubg.positionid(board)}")
        gnubg.command(f"set board {position_id}")
        gnubg.command(f"set dice {die1} {die2}")
        if gnubg.positionid(gnubg.board()) != position_id:
            raise GnubgError(f"gnubg rejects {where} (see its output: illegal position?)")
        info = gnubg.posinfo()
        if sorted(info["dice"]) != sorted((die1, die2)) or info["gamestate"] != 1:
            raise GnubgError(f"gnubg did not take {where}: {info}")
        hint = gnubg.hint(_MAX_HINTS)
        if hint.get("hinttype") != "chequer" or str(hint.get("gnubgid", "")).split(":")[0] != position_id:
            raise GnubgError(f"unexpected hint for {where}: {hint.get('hinttype')} {hint.get('gnubgid')}")
        plays: dict[str, str] = {}
        for entry in hint["hint"]:
            text = entry["move"]
            after = gnubg.positionid(apply_move(board, gnubg.parsemove(text)))
            if after in plays:
                raise GnubgError(f"{where}: {text!r} and {plays[after]!r} give the same position")
            plays[after] = text
        if not plays:
            plays[position_id] = ""  # no legal play: the pass
        results.append(list(plays.items()))
    return results


def _speed_up_gnubg() -> bool:
    """Point gnubg's ``g_usleep`` import at libc's ``sched_yield``; True if done.

    gnubg waits for each asynchronous task (every ``hint``) by polling with
    ``g_usleep(10000)``; yielding instead turns ~10 ms per query into ~0.2 ms.
    Only the executable's own GOT slot is changed, and only in this process.
    """
    import ctypes
    import struct

    try:
        exe = os.path.realpath("/proc/self/exe")
        with open(exe, "rb") as f:
            elf = f.read()
        if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:  # 64-bit little-endian only
            return False
        (shoff,) = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
        slot = None
        for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
            if kind != 4 or not entsize:  # SHT_RELA
                continue
            symtab = sections[link]
            strtab = sections[symtab[6]]
            for k in range(size // entsize):
                r_offset, r_info = struct.unpack_from("<QQ", elf, offset + k * entsize)
                (st_name,) = struct.unpack_from("<I", elf, symtab[4] + (r_info >> 32) * symtab[9])
                start = strtab[4] + st_name
                if elf[start : elf.index(b"\0", start)] == b"g_usleep":
                    slot = r_offset
        if slot is None:
            return False
        base = None
        with open("/proc/self/maps") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 6 and fields[5] == exe and int(fields[2], 16) == 0:
                    base = int(fields[0].split("-")[0], 16)
                    break
        if base is None:
            return False
        libc = ctypes.CDLL(None)
        libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        address = base + slot
        page_size = os.sysconf("SC_PAGE_SIZE")
        page = address & ~(page_size - 1)
        if libc.mprotect(page, page_size, 3) != 0:  # PROT_READ | PROT_WRITE (the GOT is RELRO)
            return False
        ctypes.c_void_p.from_address(address).value = ctypes.cast(libc.sched_yield, ctypes.c_void_p).value
        libc.mprotect(page, page_size, 1)  # PROT_READ again
        return True
    except Exception:
        print("gnubg_oracle: could not speed up gnubg:\n" + traceback.format_exc(), file=sys.stderr)
        return False


if __name__ == "__main__" and _ENV_OUT in os.environ:
    _serve()
