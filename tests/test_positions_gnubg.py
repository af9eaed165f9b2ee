"""Positions round-trip through GNU Backgammon: what gnubg exports (``export position snowietxt``,
``export position pos``) Tavola reads as the position, dice, cube and score gnubg holds, and what Tavola
writes gnubg imports (``import snowietxt``, ``import pos``) as the same.

One gnubg process runs a script in gnubg's own Python (``gnubg -t -r -p``) for every case: it sets the
position and the match state by their gnubg IDs, exports both files, then imports Tavola's and says the
IDs it then holds. The tests are marked ``gnubg``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from typing import Any

import pytest

from gnubg_oracle import GNUBG, gnubg_available
from tavola.ids import (
    GameState,
    MatchState,
    PositionRecord,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    read_position_file,
    write_position_file,
)
from tavola.position import Position

CASES = 40

SCRIPT = """
import gnubg, json
cases = json.load(open("cases.json"))
held = []
for index, (position_id, match_id) in enumerate(cases):
    gnubg.command("set matchid %s" % match_id)
    gnubg.command("set board %s" % position_id)
    gnubg.command("export position snowietxt gnubg-%d.txt" % index)
    gnubg.command("export position pos gnubg-%d.pos" % index)
    row = [gnubg.positionid(), gnubg.matchid()]
    for kind, name in (("snowietxt", "tavola-%d.txt" % index), ("pos", "tavola-%d.pos" % index)):
        gnubg.command("new match 7")
        gnubg.command("import %s %s" % (kind, name))
        row += [gnubg.positionid(), gnubg.matchid()]
    held.append(row)
json.dump(held, open("held.json", "w"))
"""


def random_record(rng: random.Random) -> PositionRecord:
    """A position with checkers anywhere (the bar too), a match or money, a cube, rolled or not."""
    mine = [rng.randint(0, 25) for _ in range(15)]
    taken = {slot for slot in mine if 1 <= slot <= 24}
    theirs = [
        rng.choice([0, 25, *(point for point in range(1, 25) if point not in taken)]) for _ in range(15)
    ]
    if set(mine) == {0} or set(theirs) == {0}:
        return random_record(rng)
    board = [0] * 24
    for slot in (slot for slot in mine if 1 <= slot <= 24):
        board[slot - 1] += 1
    for slot in (slot for slot in theirs if 1 <= slot <= 24):
        board[slot - 1] -= 1
    position = Position(board, bar=(mine.count(25), theirs.count(25)))
    length = rng.choice([0, 0, 1, 3, 5, 7, 11])
    crawford = length > 1 and rng.random() < 0.3
    score = (length - 1, rng.randint(0, length - 2)) if crawford else (0, 0)
    if length and not crawford:
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1))
    cube = 1 if crawford else 1 << rng.randint(0, 4)
    return PositionRecord(
        position,
        dice=(rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.6 else (0, 0),
        cube_value=cube,
        cube_owner=rng.choice([None, 0, 1]) if cube > 1 else None,
        match_length=length,
        score=score[:: rng.choice([1, -1])],
        crawford=crawford,
        seat=rng.randint(0, 1),
    )


def gnubg_ids(record: PositionRecord) -> tuple[str, str]:
    """The gnubg Position ID and Match ID of ``record``."""
    seat = record.seat
    owner = None if record.cube_owner is None else seat if record.cube_owner == 0 else 1 - seat
    state = MatchState(
        cube_value=record.cube_value,
        cube_owner=owner,
        player_on_roll=seat,
        crawford=record.crawford,
        game_state=GameState.PLAYING,
        turn=seat,
        dice=record.dice,
        match_length=record.match_length,
        score=record.score if seat == 0 else record.score[::-1],
    )
    return record.position.position_id(), encode_match_id(state)


def held(position_id: str, match_id: str) -> tuple[object, ...]:
    """What gnubg's IDs say of a position file: the position, the dice (in any order), cube, score, seat."""
    state, position = decode_match_id(match_id), decode_position_id(position_id)
    seat = state.player_on_roll
    owner = None if state.cube_owner is None else int(state.cube_owner != seat)
    score = state.score if seat == 0 else state.score[::-1]
    dice = tuple(sorted(state.dice))
    return position, dice, state.cube_value, owner, state.match_length, score, state.crawford, seat


def kept(record: PositionRecord) -> tuple[object, ...]:
    return held(*gnubg_ids(record))


@pytest.fixture(scope="module")
def gnubg_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any] | None:
    if not gnubg_available():
        return None  # the gnubg marker skips (or fails in CI)
    folder = tmp_path_factory.mktemp("gnubg")
    rng = random.Random(31)
    records = [random_record(rng) for _ in range(CASES)]
    for index, record in enumerate(records):
        write_position_file(record, folder / f"tavola-{index}.txt")
        write_position_file(record, folder / f"tavola-{index}.pos")
    (folder / "cases.json").write_text(json.dumps([gnubg_ids(record) for record in records]))
    (folder / "script.py").write_text(SCRIPT)
    completed = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(folder / "script.py")],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(folder)},
        cwd=folder,
        timeout=120,
        check=False,
    )
    assert (folder / "held.json").exists(), completed.stdout[-3000:] + completed.stderr[-3000:]
    return {"folder": folder, "records": records, "held": json.loads((folder / "held.json").read_text())}


@pytest.mark.gnubg
@pytest.mark.parametrize("suffix", [".txt", ".pos"])
def test_a_position_gnubg_exports_reads_as_the_position_and_state_gnubg_holds(
    gnubg_run: dict, suffix: str
) -> None:
    for index, (record, row) in enumerate(zip(gnubg_run["records"], gnubg_run["held"], strict=True)):
        assert held(row[0], row[1]) == kept(record)  # gnubg holds the case as it was set
        read = read_position_file(gnubg_run["folder"] / f"gnubg-{index}{suffix}")
        assert kept(read) == kept(record), index


@pytest.mark.gnubg
@pytest.mark.parametrize(("suffix", "column"), [(".txt", 2), (".pos", 4)])
def test_a_position_tavola_writes_imports_into_gnubg_as_the_same(
    gnubg_run: dict, suffix: str, column: int
) -> None:
    for index, (record, row) in enumerate(zip(gnubg_run["records"], gnubg_run["held"], strict=True)):
        assert held(row[column], row[column + 1]) == kept(record), (index, suffix)
