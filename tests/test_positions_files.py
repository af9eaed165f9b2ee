"""Snowie's text positions and Jellyfish's ``.pos``: read, written, taken by the commands and the engine.

``tests/data/gnubg-position.txt`` and ``gnubg-position.pos`` come from GNU Backgammon 1.07: ``new match
7``, ``set matchid UYnuACAAIAAE``, ``set board 4Aw+gFngOXgAbA`` (root on roll at 4-2 for root, owning
a cube of 2, 2 checkers on the bar against 1, rolled 5-3), then ``export position snowietxt`` and
``export position pos``. The round trips through gnubg itself are in ``test_positions_gnubg.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import positions
from tavola.bot.bearoff import default_database
from tavola.bot.encode import INPUTS
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import Network
from tavola.bot.player import Bot
from tavola.cli import main
from tavola.errors import InvalidIdError
from tavola.ids import (
    PositionFileError,
    PositionRecord,
    decode_jellyfish,
    decode_snowie,
    encode_jellyfish,
    encode_snowie,
    parse_position,
    read_position_file,
    write_position_file,
)
from tavola.position import Position
from tavola.protocol import answer

DATA = Path(__file__).parent / "data"
SNOWIE = DATA / "gnubg-position.txt"
JELLYFISH = DATA / "gnubg-position.pos"
POSITION_ID = "4Aw+gFngOXgAbA"
FUZZ = settings(
    max_examples=int(os.environ.get("TAVOLA_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def records() -> st.SearchStrategy[PositionRecord]:
    """Any record a position file holds: a position, rolled or not, the cube, a match or money."""

    @st.composite
    def build(draw: st.DrawFn) -> PositionRecord:
        length = draw(st.sampled_from([0, 0, 1, 3, 7, 25]))
        crawford = bool(length > 1 and draw(st.booleans()))
        if crawford:
            score = draw(st.sampled_from([(length - 1, 0), (0, length - 1)]))
        elif length:
            score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        else:
            score = (0, 0)
        cube = 1 if crawford else draw(st.sampled_from([1, 2, 4, 64]))
        rolled = draw(st.booleans())
        name = st.text(
            st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"], exclude_characters=";"),
            max_size=12,
        )
        names = draw(st.tuples(name, name))
        return PositionRecord(
            draw(positions()),
            dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0),
            cube_value=cube,
            cube_owner=draw(st.sampled_from([None, 0, 1])) if cube > 1 else None,
            match_length=length,
            score=score,
            crawford=crawford,
            jacoby=not length and draw(st.booleans()),
            names=(names[0].strip(), names[1].strip()),
            seat=draw(st.integers(0, 1)),
        )

    return build()


# --- files gnubg exported ------------------------------------------------------------------------


@pytest.mark.parametrize("path", [SNOWIE, JELLYFISH], ids=["snowie", "jellyfish"])
def test_a_position_gnubg_exported_reads_with_its_dice_cube_score_and_names(path: Path) -> None:
    record = read_position_file(path)
    assert record.position.position_id() == POSITION_ID
    assert record.position.bar == (2, 1)
    assert (record.dice, record.cube_value, record.cube_owner) == ((5, 3), 2, 0)
    assert (record.match_length, record.score, record.crawford) == (7, (4, 2), False)
    assert (record.names, record.seat) == (("root", "gnubg"), 1)


def test_what_tavola_writes_is_byte_for_byte_what_gnubg_exported() -> None:
    record = read_position_file(JELLYFISH)
    assert encode_snowie(record) == SNOWIE.read_text(encoding="utf-8")
    written, exported = encode_jellyfish(record), JELLYFISH.read_bytes()
    # but bytes 8-11: gnubg writes its own Jacoby and beaver settings there in a match too, Tavola zeros
    assert written[:8] + written[12:] == exported[:8] + exported[12:]


# --- round trips -----------------------------------------------------------------------------------


@FUZZ
@given(records())
def test_every_record_round_trips_through_both_formats(record: PositionRecord) -> None:
    assert decode_jellyfish(encode_jellyfish(record)) == record
    snowie = decode_snowie(encode_snowie(record))
    assert snowie == record  # beavers are not in Snowie's text: none are drawn here


def test_hypergammon_positions_read_with_the_variants_checkers(tmp_path: Path) -> None:
    board = [0] * 24
    board[23], board[0] = 2, -3
    record = PositionRecord(Position(board, checkers=3), dice=(6, 2))
    for name in ("hyper.txt", "hyper.pos"):
        write_position_file(record, tmp_path / name)
        assert read_position_file(tmp_path / name, checkers=3) == record


def test_a_file_is_told_by_its_suffix_else_by_what_it_holds(tmp_path: Path) -> None:
    (tmp_path / "position").write_bytes(SNOWIE.read_bytes())
    (tmp_path / "other").write_bytes(JELLYFISH.read_bytes())
    assert read_position_file(tmp_path / "position") == read_position_file(tmp_path / "other")


def test_a_snowie_line_is_a_position_wherever_an_id_is() -> None:
    line = SNOWIE.read_text(encoding="utf-8")
    assert parse_position(line).position_id() == POSITION_ID


# --- the commands and the engine ----------------------------------------------------------------


def test_tavola_moves_takes_a_position_file_and_its_dice(capsys: pytest.CaptureFixture[str]) -> None:
    for path in (SNOWIE, JELLYFISH):
        assert main(["moves", str(path), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["position"] == POSITION_ID
        assert report["dice"] == [5, 3]
        assert all(entry["play"].startswith("bar/") for entry in report["plays"])


def test_tavola_hint_takes_a_position_file_or_a_snowie_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", str(JELLYFISH), "--level", "0-ply", "--limit", "3"]) == 0
    assert "bar/" in capsys.readouterr().out
    assert main(["hint", SNOWIE.read_text(encoding="utf-8").strip(), "--level", "0-ply"]) == 0
    assert "bar/" in capsys.readouterr().out


def test_a_bad_position_file_is_named_by_the_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.pos").write_bytes(JELLYFISH.read_bytes()[:120])
    assert main(["moves", str(tmp_path / "bad.pos"), "31"]) == 1
    assert f"{tmp_path / 'bad.pos'}: a .pos file is 153 bytes at least, not 120" in capsys.readouterr().err


def test_the_engine_takes_a_snowie_line_or_a_position_file() -> None:
    network = Network.random([INPUTS, 16, 5], seed=1)
    bot = Bot(Evaluator(network, Network.random([INPUTS, 16, 5], seed=2), default_database()), rng=1)
    line = SNOWIE.read_text(encoding="utf-8")
    for request in (
        {"id": 1, "cmd": "play", "position": line, "dice": [5, 3]},
        {"id": 2, "cmd": "play", "position_file": str(JELLYFISH), "dice": [5, 3]},
    ):
        reply = answer(bot, json.dumps(request))
        assert reply["play"].startswith("bar/"), reply
    both = {"id": 3, "cmd": "evaluate", "position": POSITION_ID, "position_file": str(JELLYFISH)}
    assert "not both" in answer(bot, json.dumps(both))["error"]
    missing = {"id": 4, "cmd": "evaluate", "position_file": "/nonexistent.pos"}
    assert answer(bot, json.dumps(missing))["error"].startswith("position_file: /nonexistent.pos")


# --- bad files: PositionFileError naming the field or the byte -------------------------------------

GOOD_SNOWIE = SNOWIE.read_text(encoding="utf-8").strip()


def snowie_with(index: int, value: str) -> str:
    fields = GOOD_SNOWIE.split(";")
    fields[index] = value
    return ";".join(fields)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", r"a Snowie text position is one line, not 0"),
        (GOOD_SNOWIE + "\n" + GOOD_SNOWIE, r"one line, not 2"),
        (GOOD_SNOWIE[:-4], r"has 40 fields ended by ';', not 39"),
        (snowie_with(0, "seven"), r"^field 0 \(the match length\): expected a whole number, not 'seven'"),
        (snowie_with(4, "2"), r"^field 4 \(the player on roll \(0 or 1\)\): expected 0 to 1, not 2"),
        (snowie_with(10, "3"), r"the cube value is a power of two, not 3"),
        (snowie_with(11, "2"), r"^field 11 \(the cube's owner \(1, 0 or -1\)\): expected -1 to 1, not 2"),
        (
            snowie_with(12, "1"),
            r"^field 12 \(the opponent's checkers on the bar \(0 or less\)\): expected -15 to 0",
        ),
        (snowie_with(20, "99"), r"^field 20 \(point 8\): expected -15 to 15, not 99"),
        (snowie_with(20, "5"), r"^fields 12 to 37, the checkers: the mover has 17 checkers"),
        (snowie_with(38, "7"), r"^field 38 \(a die \(0 to 6\)\): expected 0 to 6, not 7"),
        (snowie_with(38, "0"), r"the dice are two numbers 1-6, or \(0, 0\) when not rolled"),
        (snowie_with(8, "9"), r"^a Snowie text position: player 0's score is 0 to 6, not 9"),
    ],
)
def test_a_malformed_snowie_text_names_the_field(text: str, says: str) -> None:
    with pytest.raises(PositionFileError, match=says):
        decode_snowie(text)


def jellyfish_with(offset: int, value: int, size: str = "<H") -> bytes:
    data = bytearray(JELLYFISH.read_bytes())
    struct.pack_into(size, data, offset, value)
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", r"a \.pos file is 153 bytes at least, not 0"),
        (JELLYFISH.read_bytes() + b"\x00", r"a \.pos file with these names is 162 bytes long, not 163"),
        (jellyfish_with(36, 200, "<B"), r"byte 36: the file ends inside a name|is \d+ bytes long"),
        (jellyfish_with(6, 2), r"^byte 6 \(the cube in use\): expected 0, 1, not 2"),
        (jellyfish_with(12, 3), r"^byte 12 \(the cube's value\): expected a power of two"),
        (jellyfish_with(14, 5), r"^byte 14 \(the cube's owner\): expected 0, 1, 2, not 5"),
        (jellyfish_with(16, 0), r"^byte 16 \(whose turn it is\): expected 1, 2, 3, 4, not 0"),
        (jellyfish_with(49, 9, "<B"), r"^byte 49 \(the Crawford state\): expected 1, 2, 3, not 9"),
        (jellyfish_with(54, 9), r"^byte 54 \(the dice, rolled\): expected two dice of 1 to 6, not \(9, 3\)"),
        (
            jellyfish_with(58, 99),
            r"^byte 58 \(a point's checkers, 20 plus the count\): expected 5 to 35, not 99",
        ),
        (jellyfish_with(62, 35), r"^bytes 58 to 161, the checkers: "),
        (jellyfish_with(34, 9), r"^bytes 12 to 35 \(the cube and the score\): player 0's score is 0 to 6"),
    ],
)
def test_a_malformed_jellyfish_file_names_the_byte(data: bytes, says: str) -> None:
    with pytest.raises(PositionFileError, match=says):
        decode_jellyfish(data)


def test_names_a_file_cannot_hold_are_refused() -> None:
    record = PositionRecord(Position.start(), names=("A;B", "C"))
    with pytest.raises(PositionFileError, match="holds no ';'"):
        encode_snowie(record)
    with pytest.raises(PositionFileError, match="255 bytes at most"):
        encode_jellyfish(PositionRecord(Position.start(), names=("A" * 256, "C")))


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_read_as_a_pos_file_or_raise_a_position_file_error(data: bytes) -> None:
    try:
        decode_jellyfish(data)
    except PositionFileError as error:
        message = str(error)
    else:
        return
    assert "byte" in message or ".pos file" in message


@FUZZ
@given(st.data())
def test_a_pos_file_with_bytes_changed_reads_or_raises_a_position_file_error(data: st.DataObject) -> None:
    raw = bytearray(JELLYFISH.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    with contextlib.suppress(PositionFileError):
        decode_jellyfish(bytes(raw))


@FUZZ
@given(st.data())
def test_a_snowie_text_with_fields_changed_reads_or_raises_a_position_file_error(data: st.DataObject) -> None:
    fields = GOOD_SNOWIE.split(";")
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(fields) - 1))
        fields[index] = data.draw(st.one_of(st.integers(-40, 40).map(str), st.text(max_size=8)))
    with contextlib.suppress(PositionFileError):
        decode_snowie(";".join(fields))


def test_a_position_file_error_is_an_id_error() -> None:
    assert issubclass(PositionFileError, InvalidIdError)
