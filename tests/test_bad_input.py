"""Fuzzing what reads input from outside: the engine protocol, ``tavola moves --stdin`` and the records.

Whatever a line or a file holds, the answer is an error line (the engine, ``moves --stdin``) or a
:class:`~tavola.errors.RecordError` (the record loaders), and whoever serves lines goes on serving:
the next good line is answered.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import positions
from tavola.bot.bearoff import default_database
from tavola.bot.encode import INPUTS
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import Network
from tavola.bot.player import Bot
from tavola.cli import moves
from tavola.dicesource import RandomDice
from tavola.errors import RecordError
from tavola.match import Match, MoneySession
from tavola.protocol import serve
from tavola.records import from_json, load, mat_text, parse_mat, to_json
from tavola.rules import Rules

START = "4HPwATDgc/ABMA"
FUZZ = settings(
    max_examples=int(os.environ.get("TAVOLA_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def strict_json(text: str) -> Any:
    """``text`` read as strict JSON: ``NaN`` and ``Infinity`` are not JSON."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} written in {text[:80]!r}")

    return json.loads(text, parse_constant=refuse)


# --- values a request or record may hold, good and bad -----------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**25), 10**25)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)

position_texts = st.one_of(
    st.sampled_from(
        [
            START,
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:0:1:5:10",  # a Crawford game at 3-0 of 5
            "TVL=-b----E-C---eE---c-e----B-:0:0:15",
            "TVL=-aaa------------------AAA-:0:0:3",
            "TVL=-----A-B-AAAA-AA-ACABBACC-:3:1:28",
            "TVL=------A------------a------:0:0:20",
            "4HPwATDgc/ABMA:cAkgAQAAAAAE",
            "4HPwATDgc/ABMA:MAGgAFAAKAAE",  # a 5-point match at 5-5 with a game in play
            "nonsense",
            "",
        ]
    ),
    positions().map(lambda position: position.position_id()),
    st.text(max_size=30),
    json_values,
)

matches = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"length": st.one_of(st.integers(-2, 70), st.just(10**20), st.just(1_000_000), json_values)},
        optional={
            "score": st.one_of(st.lists(st.integers(-1, 70), max_size=3), json_values),
            "crawford": st.one_of(st.booleans(), json_values),
        },
    ),
    json_values,
)

requests = st.fixed_dictionaries(
    {
        "cmd": st.one_of(st.sampled_from(["play", "hint", "evaluate", "cube", "fly"]), json_values),
        "position": position_texts,
    },
    optional={
        "id": json_values,
        "dice": st.one_of(st.lists(st.integers(-1, 8), max_size=3), json_values),
        "variant": st.one_of(
            st.sampled_from(["standard", "hypergammon", "acey-deucey", "chess"]), json_values
        ),
        "match": matches,
        "cube": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "value": st.one_of(st.sampled_from([1, 2, 3, 64, 1 << 20]), json_values),
                    "owner": st.one_of(st.sampled_from(["center", "me", "opponent", "nobody"]), json_values),
                },
            ),
            json_values,
        ),
        "rules": st.one_of(
            st.dictionaries(
                st.sampled_from(["jacoby", "beavers", "crawford", "otters"]), json_values, max_size=2
            ),
            json_values,
        ),
        "level": st.one_of(st.sampled_from(["beginner", "advanced", "godlike"]), json_values),
        "doubled": st.one_of(st.booleans(), json_values),
    },
)


def request_line(data: object) -> str:
    """A request as a line of text, non-finite floats as Python writes them (``NaN``)."""
    return json.dumps(data)


lines = st.one_of(
    requests.map(request_line),
    json_values.map(request_line),
    st.text(max_size=40),
    st.sampled_from(["[" * 5000 + "]" * 5000, '{"id": ' + "9" * 5000 + "}", "{", "null", '"play"']),
)


# --- the engine protocol -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bot() -> Bot:
    network = Network.random([INPUTS, 8, 5], seed=1)
    race = Network.random([INPUTS, 8, 5], seed=2)
    return Bot(Evaluator(network, race, default_database()), level="advanced", rng=1)


GOOD_REQUEST = json.dumps({"id": "good", "cmd": "evaluate", "position": START})


@FUZZ
@given(st.lists(lines, min_size=1, max_size=4))
def test_the_engine_answers_every_line_with_one_line_of_json_and_serves_on(bot: Bot, sent: list[str]) -> None:
    output = io.StringIO()
    failures = serve(bot, [*sent, GOOD_REQUEST], output)
    replies = [strict_json(line) for line in output.getvalue().splitlines()]
    assert len(replies) == len([line for line in sent if line.strip()]) + 1
    assert all(isinstance(reply, dict) and "id" in reply for reply in replies)
    assert failures == sum("error" in reply for reply in replies)
    assert replies[-1]["id"] == "good"
    assert "error" not in replies[-1]


def test_the_engine_process_serves_good_lines_between_bad_ones(tmp_path: Path) -> None:
    Network.random([INPUTS, 8, 5], seed=1).save(tmp_path / "w.npz")
    Network.random([INPUTS, 8, 5], seed=2).save(tmp_path / "w-race.npz")
    bad = [
        "[" * 100_000 + "]" * 100_000,
        '{"id": ' + "7" * 5000 + "}",
        json.dumps({"id": "x", "cmd": "evaluate", "position": START, "match": {"length": 10**20}}),
        json.dumps(
            {"id": "y", "cmd": "play", "position": "TVL=-----A-B-AAAA-AA-ACABBACC-:3:1:28", "dice": [1, 1]}
        ),
        '{"id": NaN, "cmd": "evaluate", "position": "4HPwATDgc/ABMA"}',
    ]
    good = [json.dumps({"id": index, "cmd": "play", "position": START, "dice": [3, 1]}) for index in range(6)]
    stdin = "".join(f"{good[index]}\n{line}\n" for index, line in enumerate(bad)) + good[-1] + "\n"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tavola",
            "engine",
            "--weights",
            str(tmp_path / "w.npz"),
            "--level",
            "advanced",
        ],
        input=stdin.encode() + b"\xff\xfe\n" + good[0].encode() + b"\n",
        capture_output=True,
        timeout=120,
        check=False,
    )
    replies = [strict_json(line) for line in result.stdout.decode().splitlines()]
    assert len(replies) == 2 * len(bad) + 3
    assert ["error" in reply for reply in replies] == [False, True] * len(bad) + [False, True, False]
    assert [reply["id"] for reply in replies[0::2]] == [*range(6), 0]
    assert result.returncode == 0
    assert not result.stderr


# --- tavola moves --stdin ------------------------------------------------------------------------------

move_lines = st.one_of(
    st.tuples(position_texts.filter(lambda text: isinstance(text, str)), st.text(max_size=8)).map(" ".join),
    st.text(max_size=40),
)


@FUZZ
@given(st.lists(move_lines, min_size=1, max_size=5))
def test_moves_stdin_answers_every_line_with_one_line_of_json_and_serves_on(sent: list[str]) -> None:
    text = "".join(" ".join(line.splitlines()) + "\n" for line in sent) + f"{START} 31\n"
    output = io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(text)), mock.patch.object(sys, "stdout", output):
        moves._serve_lines(moves.find_variant("standard"))
    answers = [strict_json(line) for line in output.getvalue().splitlines()]
    assert len(answers) == len([line for line in text.splitlines() if line.strip()])
    assert all("error" in answer or "plays" in answer for answer in answers)
    assert len(answers[-1]["plays"]) == 16


# --- the record loaders --------------------------------------------------------------------------------


def played(series: Match | MoneySession, seed: int, games: int) -> Match | MoneySession:
    """``series`` after a few games played at random, doubles and resignations included."""
    rng = random.Random(seed)
    for _ in range(games):
        if series.is_over:
            break
        game = series.new_game()
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(rng.choice(actions))
    return series


@pytest.fixture(scope="module")
def records() -> list[Match | MoneySession]:
    return [
        played(Match(5, dice=RandomDice(seed=1)), 1, 3),
        played(MoneySession(Rules(jacoby=True, beavers=1), RandomDice(seed=2), stake=2.5), 2, 2),
    ]


def mutated_lines(text: str, data: st.DataObject) -> str:
    """``text`` with a few lines replaced, cut, doubled or stuffed with numbers of many digits."""
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["replace", "cut", "double", "digits", "truncate"]))
        if kind == "replace":
            lines[index] = data.draw(st.text(max_size=40))
        elif kind == "cut":
            del lines[index:]
            lines = lines or [""]
        elif kind == "double":
            lines.insert(index, lines[index])
        elif kind == "digits":
            digits = "9" * data.draw(st.sampled_from([3, 20, 700, 5000]))
            lines[index] = re.sub(r"\d+", digits, lines[index])  # each number, however often mutated
        else:
            lines[index] = lines[index][: data.draw(st.integers(0, len(lines[index])))]
    return "\n".join(lines) + "\n"


@FUZZ
@given(st.data())
def test_a_mat_file_however_broken_reads_or_raises_a_record_error(
    records: list[Match | MoneySession], data: st.DataObject
) -> None:
    text = mutated_lines(mat_text(data.draw(st.sampled_from(records))), data)
    try:
        parse_mat(text)
    except RecordError as error:
        message = str(error)
    else:
        return
    assert message.startswith("line ")


def mutated(value: Any, data: st.DataObject) -> Any:
    """``value`` (decoded JSON) with one value somewhere inside it replaced by any JSON value."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutated(value[key], data)}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        return [*value[:index], mutated(value[index], data), *value[index + 1 :]]
    return data.draw(json_values)


@FUZZ
@given(st.data())
def test_a_json_record_however_broken_reads_or_raises_a_record_error(
    records: list[Match | MoneySession], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    record = mutated(to_json(data.draw(st.sampled_from(records))), data)
    with contextlib.suppress(RecordError):
        from_json(record)
    path = tmp_path_factory.mktemp("records") / "record.json"
    path.write_text(json.dumps(record))
    try:
        load(path)
    except RecordError as error:
        message = str(error)
    else:
        return
    assert message.startswith(str(path))


@FUZZ
@given(
    st.one_of(st.text(max_size=60), st.binary(max_size=60).map(lambda raw: raw.decode("latin-1"))), st.data()
)
def test_any_text_as_a_record_file_reads_or_raises_a_record_error(
    tmp_path_factory: pytest.TempPathFactory, text: str, data: st.DataObject
) -> None:
    suffix = data.draw(st.sampled_from([".mat", ".json"]))
    path = tmp_path_factory.mktemp("records") / f"record{suffix}"
    path.write_bytes(
        text.encode(data.draw(st.sampled_from(["utf-8", "utf-16", "latin-1"])), errors="replace")
    )
    with contextlib.suppress(RecordError):
        load(path)
