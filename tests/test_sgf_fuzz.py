"""Fuzzing the SGF reader: whatever a file holds, it reads or raises a RecordError naming where.

As the ``.mat`` reader is fuzzed (``test_bad_input.py``): SGF texts Tavola and
gnubg wrote, with lines replaced, cut or doubled, characters put in or taken
out (brackets, parentheses and backslashes among them), and any bytes at all
saved as an ``.sgf`` file.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.dicesource import RandomDice
from tavola.errors import RecordError
from tavola.match import Match, MoneySession
from tavola.records import load, parse_sgf, sgf_text
from tavola.rules import Rules
from test_bad_input import mutated_lines, played

FUZZ = settings(
    max_examples=int(os.environ.get("TAVOLA_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
GNUBG_SGF = Path(__file__).parent / "data" / "gnubg-5-point-match.sgf"


@pytest.fixture(scope="module")
def texts() -> list[str]:
    series = [
        played(Match(5, dice=RandomDice(seed=1)), 1, 3),
        played(MoneySession(Rules(jacoby=True, beavers=1), RandomDice(seed=2), stake=2.5), 2, 2),
    ]
    return [*(sgf_text(one) for one in series), GNUBG_SGF.read_text(encoding="utf-8")]


def reads_or_names_the_line(text: str) -> None:
    try:
        parse_sgf(text)
    except RecordError as error:
        message, line = str(error), error.line
    else:
        return
    assert message.startswith("line "), message
    assert line is not None


@FUZZ
@given(st.data())
def test_an_sgf_file_with_lines_broken_reads_or_raises_a_record_error(
    texts: list[str], data: st.DataObject
) -> None:
    reads_or_names_the_line(mutated_lines(data.draw(st.sampled_from(texts)), data))


@FUZZ
@given(st.data())
def test_an_sgf_file_with_characters_put_in_or_taken_out_reads_or_raises_a_record_error(
    texts: list[str], data: st.DataObject
) -> None:
    text = data.draw(st.sampled_from(texts))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        put = data.draw(st.one_of(st.sampled_from(list("()[];\\:WBz\n")), st.text(max_size=3)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + put + text[at + cut :]
    reads_or_names_the_line(text)


@FUZZ
@given(st.binary(max_size=80), st.sampled_from(["", "(;GM[6]", "(;FF[4]GM[6]MI[length:3]PW[A]PB[B];W["]))
def test_any_bytes_as_an_sgf_file_read_or_raise_a_record_error_naming_the_file(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes, start: str
) -> None:
    path = tmp_path_factory.mktemp("records") / "record.sgf"
    path.write_bytes(start.encode() + raw)
    with contextlib.suppress(RecordError):
        load(path)
