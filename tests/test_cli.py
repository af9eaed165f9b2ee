"""The ``tavola`` command, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


def tavola(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tavola", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_moves_lists_the_plays_in_a_table():
    result = tavola("moves", START, "31")
    assert result.returncode == 0
    assert "16 legal plays" in result.stdout
    assert "8/5 6/5" in result.stdout


def test_moves_json_for_every_way_of_writing_the_dice():
    answers = [
        json.loads(tavola("moves", START, *dice, "--json").stdout) for dice in (["31"], ["3-1"], ["3", "1"])
    ]
    assert answers[0] == answers[1] == answers[2]
    answer = answers[0]
    assert answer["position"] == START
    assert answer["dice"] == [3, 1]
    assert len(answer["plays"]) == 16
    eight_five = next(entry for entry in answer["plays"] if entry["play"] == "8/5 6/5")
    assert eight_five["position_id"] == "4HPwATCwZ/ABMA"


def test_moves_reads_an_xgid():
    answer = json.loads(tavola("moves", START_XGID, "66", "--json").stdout)
    assert answer["position"] == START
    assert len(answer["plays"]) == 11


def test_moves_bad_input_names_the_problem_and_fails():
    bad_dice = tavola("moves", START, "71")
    assert bad_dice.returncode != 0
    assert "dice" in bad_dice.stderr
    bad_id = tavola("moves", "4HPwATDgc/ABM", "31")
    assert bad_id.returncode != 0
    assert "14 characters" in bad_id.stderr
    assert tavola("moves", START).returncode != 0


def test_moves_stdin_answers_line_by_line_and_keeps_going_after_errors():
    lines = f"{START} 31\nnot-an-id 31\n{START} 9-9\n\n{START} 6 5\n"
    result = tavola("moves", "--stdin", stdin=lines)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 4
    assert len(answers[0]["plays"]) == 16
    assert "error" in answers[1]
    assert answers[1]["input"] == "not-an-id 31"
    assert "dice" in answers[2]["error"]
    assert answers[3]["dice"] == [6, 5]
    assert len(answers[3]["plays"]) == 7
    assert result.returncode == 1


def test_moves_stdin_answers_lines_that_killed_it_and_the_lines_after_them():
    killers = [
        "TVL=-----A-B-AAAA-AA-ACABBACC-:3:1:28 11",  # 28 checkers a side: more plays than the generator holds
        "TVL=------A------------a------:0:0:20 31",  # 20 checkers a side, once answered with a 15-checker ID
        "4HPwATDgc/ABMA " + "3" * 5000,
    ]
    stdin = (
        "".join(f"{line}\n{START} 31\n" for line in killers).encode()
        + b"\xff\xfe 31\n"
        + f"{START} 31\n".encode()
    )
    result = subprocess.run(
        [sys.executable, "-m", "tavola", "moves", "--stdin"], input=stdin, capture_output=True, timeout=120
    )
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == 2 * len(killers) + 2
    assert ["error" in answer for answer in answers] == [True, False] * (len(killers) + 1)
    assert all(len(answer["plays"]) == 16 for answer in answers[1::2])
    assert "28 checkers a side, not the 15" in answers[0]["error"]
    assert "20 checkers a side, not the 15" in answers[2]["error"]
    assert result.returncode == 1
    assert not result.stderr


def test_moves_stdin_all_good_exits_zero():
    result = tavola("moves", "--stdin", stdin=f"{START} 21\n{START} 11\n")
    assert result.returncode == 0
    assert [len(json.loads(line)["plays"]) for line in result.stdout.splitlines()] == [15, 42]


def test_R13_a_pass_is_listed_as_the_one_empty_play():
    closed_board = "27YBADjg/wcAQA"  # the mover on the bar against a closed board
    answer = json.loads(tavola("moves", "--json", closed_board, "64").stdout)
    assert answer["plays"] == [{"play": "", "position_id": closed_board}]


def test_moves_takes_the_dice_an_xgid_holds():
    """The XGID's 5-2 is the roll when no dice are typed; typed dice still win."""
    own = json.loads(tavola("moves", START_XGID, "--json").stdout)
    assert own["dice"] == [5, 2]
    assert len(own["plays"]) == 8
    typed = json.loads(tavola("moves", START_XGID, "31", "--json").stdout)
    assert typed["dice"] == [3, 1]


def test_moves_help_shows_no_markup():
    assert "``" not in tavola("moves", "--help").stdout


def test_help_shows_no_markup_and_the_engine_lists_its_levels():
    assert "``" not in tavola("match", "--help").stdout
    engine = tavola("engine", "--help").stdout
    assert "beginner" in engine
    assert "world-class" in engine
    refused = tavola("engine", "--level", "grandmaster")
    assert refused.returncode == 2
    assert "tavola engine: no level called 'grandmaster'; known: beginner" in refused.stderr
