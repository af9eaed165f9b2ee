"""``tavola match``: summaries of saved matches and sessions, and conversion between .mat and JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tavola.cli import main
from tavola.records import load

DATA = Path(__file__).parent / "data"
GNUBG_MATCH = DATA / "gnubg-5-point-match.mat"
GNUBG_SESSION = DATA / "gnubg-money-beavers.mat"


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def tavola(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run the command in this process (the subprocess test below runs it as a user does)."""

    def run(*args: str | Path) -> Result:
        status = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run


def test_the_command_runs_as_a_user_runs_it() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tavola", "match", str(GNUBG_MATCH)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Score: gnubg 3, root 5 (root wins the match)" in result.stdout


def test_match_summary_table(tavola: Callable[..., Result]) -> None:
    result = tavola("match", GNUBG_MATCH)
    assert result.returncode == 0, result.stderr
    assert "gnubg vs root: 5-point match" in result.stdout
    assert "resignation" in result.stdout
    assert "drop" in result.stdout
    assert "Score: gnubg 3, root 5 (root wins the match)" in result.stdout


def test_P1_match_json_summary(tavola: Callable[..., Result]) -> None:
    result = tavola("match", GNUBG_MATCH, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "players": ["gnubg", "root"],
        "length": 5,
        "games": [
            {"winner": 1, "points": 1},
            {"winner": 0, "points": 2},
            {"winner": 0, "points": 1},
            {"winner": 1, "points": 1},
            {"winner": 1, "points": 2},
            {"winner": 1, "points": 1},
        ],
        "score": [3, 5],
    }


def test_M1_money_session_json_summary_has_length_0_and_net_points(tavola: Callable[..., Result]) -> None:
    summary = json.loads(tavola("match", GNUBG_SESSION, "--json").stdout)
    assert summary["length"] == 0
    assert summary["score"] == [18, -18]
    assert summary["stake"] == 1
    assert summary["games"][-1] == {"winner": None, "points": None}  # the last game is unfinished
    table = tavola("match", GNUBG_SESSION).stdout
    assert "money session" in table
    assert "(in progress)" in table
    assert "Net: Ann +18" in table


@pytest.mark.parametrize(("first", "second"), [(".json", ".mat"), (".mat", ".json")])
def test_to_converts_by_the_suffix_and_back(
    tavola: Callable[..., Result], tmp_path: Path, first: str, second: str
) -> None:
    there = tmp_path / f"there{first}"
    back = tmp_path / f"back{second}"
    assert tavola("match", GNUBG_MATCH, "--to", there).returncode == 0
    assert tavola("match", there, "--to", back).returncode == 0
    original, converted = load(GNUBG_MATCH), load(back)
    assert [game.outcome for game in converted.games] == [game.outcome for game in original.games]
    assert converted.score == original.score
    if first == ".json":
        assert json.loads(there.read_text())["format"] == "tavola-record"


def test_bad_files_name_the_problem_and_fail(tavola: Callable[..., Result], tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(GNUBG_MATCH.read_text().replace("63: 24/18 18/15", "63: 24/18 18/14"))
    result = tavola("match", bad)
    assert result.returncode != 0
    assert "line 7" in result.stderr
    assert "24/18 18/14" in result.stderr
    missing = tavola("match", tmp_path / "none.mat")
    assert missing.returncode != 0
    assert "none.mat" in missing.stderr
    unknown = tavola("match", GNUBG_MATCH, "--to", tmp_path / "out.txt")
    assert unknown.returncode != 0
    assert "use .mat, .sgf or .json" in unknown.stderr
    assert not (tmp_path / "out.txt").exists()


def test_match_reads_the_terminal_games_autosave(tavola: Callable[..., Result], tmp_path: Path) -> None:
    """A finished match that tavola play saved is summarised and converted like any record."""
    from tavola.console.session import PlaySession, Seat
    from tavola.dicesource import RandomDice
    from tavola.match import Match

    series = Match(1, dice=RandomDice(seed=4), players=("Ann", "Bo"))
    game = series.new_game()
    while not game.is_over:
        if game.phase.name in ("OPENING", "ROLL"):
            game.roll()
        else:
            game.play(game.turn.legal[0])
    autosave = tmp_path / "autosave.json"
    PlaySession(series, (Seat("Ann"), Seat("Bo"))).save(autosave)
    result = tavola("match", autosave, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"] == ["Ann", "Bo"]
    assert tavola("match", autosave, "--to", tmp_path / "out.mat").returncode == 0
    assert load(tmp_path / "out.mat").length == 1
