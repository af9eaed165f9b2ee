"""``tavola play`` driven in a pseudo-terminal: whole games, wrong input, undo, saving and resuming."""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gnubg_oracle import GNUBG
from tavola.console.session import PlaySession, Seat
from tavola.dicesource import RandomDice
from tavola.i18n import _, use_language
from tavola.match import Match
from tavola.records import load, save
from terminal import Terminal, environment

MATCH_WON = {
    "en": r"(Ann|Tavola) wins the match (1-0|0-1)",
    "it": r"(Ann|Tavola) vince il match (1-0|0-1)",
    "es": r"(Ann|Tavola) gana el partido (1-0|0-1)",
}
DATA = Path(__file__).parent / "data"
YOUR_MOVE = {"en": "): your move > ", "it": "): tocca a te > ", "es": "): te toca > "}


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_a_whole_match_against_the_bot_to_its_end_in_each_language(tmp_path: Path, language: str) -> None:
    terminal = Terminal(
        tmp_path, "--match", "1", "--level", "beginner", "--seed", "4", "--name", "Ann", language=language
    )
    transcript = terminal.play_out()
    assert terminal.finish() == 0
    assert re.search(MATCH_WON[language], transcript)
    assert YOUR_MOVE[language] in transcript
    for other, prompt in YOUR_MOVE.items():
        if other != language:
            assert prompt not in transcript
    session = PlaySession.load(tmp_path / "data" / "tavola" / "autosave.json")
    assert isinstance(session.series, Match)
    assert session.series.is_over


def test_R3_board_drawn_from_the_players_side_with_home_on_the_left(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--home", "left", "--seed", "4", "--name", "Ann")
    text = terminal.next_prompt()
    assert "+---+-1--2--3--4--5--6-+---+-7--8--9-10-11-12-+" in text
    assert "Money session" in text
    assert "Ann (X)  pips 167" in text
    terminal.send("quit")
    assert terminal.finish() == 0


def test_wrong_moves_say_why_and_the_game_goes_on(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--seed", "4", "--name", "Ann", "--bot-first")
    text = terminal.next_prompt()
    while "your move" not in text:
        terminal.send("")
        text = terminal.next_prompt()
    terminal.send("24/13 13/1")
    complaint = terminal.next_prompt()
    assert "Not allowed" in complaint
    terminal.send("nonsense")
    assert "cannot read" in terminal.next_prompt()
    terminal.send("moves")
    listing = terminal.next_prompt()
    assert "legal play" in listing
    terminal.send(terminal.first_legal_play(text))
    after = terminal.next_prompt()
    assert "Ann plays" in after
    terminal.send("quit")
    assert terminal.finish() == 0


def test_R20_partial_moves_undo_and_commit(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--seed", "7", "--name", "Ann")
    text = terminal.next_prompt()
    while "your move" not in text:
        terminal.send("")
        text = terminal.next_prompt()
    before = terminal.position_id
    play = terminal.first_legal_play(text)
    first_checker = play.split()[0].split("(")[0]
    first_hop = "/".join(first_checker.split("/")[:2]).rstrip("*")
    terminal.send(first_hop)
    moved = terminal.next_prompt()
    assert terminal.position_id != before
    terminal.send("undo")
    terminal.next_prompt()
    assert terminal.position_id == before
    terminal.send(play)
    assert "Ann plays" in terminal.next_prompt() or "rolls" in terminal.transcript
    terminal.send("quit")
    assert terminal.finish() == 0
    assert moved


def test_saved_after_every_action_and_resumed_after_the_process_is_killed(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--seed", "5", "--name", "Ann", "--match", "3")
    text = terminal.next_prompt()
    moves = 0
    while moves < 3:
        if "your move" in text:
            terminal.send(terminal.first_legal_play(text))
            moves += 1
        else:
            terminal.send("")
        text = terminal.next_prompt()
    seen = terminal.position_id
    terminal.child.kill(signal.SIGKILL)
    terminal.child.close()
    autosave = tmp_path / "data" / "tavola" / "autosave.json"
    saved = json.loads(autosave.read_text())
    assert saved["record"]["length"] == 3
    resumed = Terminal(tmp_path, "--resume")
    again = resumed.next_prompt()
    assert resumed.position_id == seen, again
    resumed.send("quit")
    assert resumed.finish() == 0


def test_a_new_game_keeps_the_unfinished_one(tmp_path: Path) -> None:
    first = Terminal(tmp_path, "--seed", "5")
    first.next_prompt()
    first.send("quit")
    first.finish()
    second = Terminal(tmp_path, "--seed", "6")
    text = second.next_prompt()
    assert "unfinished game was kept" in text
    second.send("quit")
    second.finish()
    kept = list((tmp_path / "data" / "tavola").glob("unfinished-*.json"))
    assert len(kept) == 1
    assert PlaySession.load(kept[0]).series.game is not None


def test_resume_with_nothing_saved_is_a_clear_error(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tavola", "play", "--resume"],
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "there is no saved game here" in completed.stderr


def test_P4_money_options_in_a_match_are_refused(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tavola", "play", "--match", "5", "--jacoby"],
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "money rules" in completed.stderr


@pytest.mark.gnubg
def test_a_match_saved_from_the_terminal_imports_into_gnubg(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--match", "1", "--level", "beginner", "--seed", "9", "--name", "Ann")
    saved = tmp_path / "played.mat"
    terminal.play_out(answers={"The match is over": f"save {saved}"})
    terminal.finish()
    series = load(saved)
    assert isinstance(series, Match)
    assert series.is_over
    commands = [f"import mat {saved}", "show score", "quit"]
    completed = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    outcome = series.games[-1].outcome
    assert outcome is not None
    winner = series.players[outcome.winner]
    shown = re.search(rf"The score \(after 1 game\) is: .*{winner} {outcome.points}\b", completed.stdout)
    assert shown, completed.stdout[-2000:]


def test_load_goes_on_with_a_saved_match(tmp_path: Path) -> None:
    match = Match(3, dice=RandomDice(seed=8), players=("Ann", "Bo"))
    game = match.new_game()
    game.roll()
    assert game.dice is not None
    game.play(game.position.legal_plays(game.dice)[0])
    game.double()
    game.drop()
    save(match, tmp_path / "match.mat")
    terminal = Terminal(tmp_path, "--load", str(tmp_path / "match.mat"), "--seed", "2")
    text = terminal.next_prompt()
    winner = match.players[match.score.index(1)]
    assert re.search(rf"Match to 3 · Ann {match.score[0]}, Bo {match.score[1]}", text)
    assert winner in text
    terminal.send("quit")
    assert terminal.finish() == 0
    again = PlaySession.load(tmp_path / "data" / "tavola" / "autosave.json")
    assert again.seats[1].is_bot
    assert len(again.series.games) == 2


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--seed", "-1"], "--seed takes a whole number from 0 up, not -1"),
        (["--load", "/nonexistent.mat"], "/nonexistent.mat: there is no saved game here"),
        (["--autosave", "."], "--autosave names a file to write"),
    ],
)
def test_bad_options_get_a_one_line_error(tmp_path: Path, options: list[str], said: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tavola", "play", *options],
        env=environment(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stderr.splitlines() == [completed.stderr.strip()]
    assert completed.stderr.startswith("tavola play: ")
    assert said in completed.stderr


def test_a_mistyped_option_leaves_the_unfinished_game_for_resume(tmp_path: Path) -> None:
    first = Terminal(tmp_path, "--seed", "5", "--name", "Ann")
    first.next_prompt()
    first.send("quit")
    first.finish()
    autosave = tmp_path / "data" / "tavola" / "autosave.json"
    saved = autosave.read_text()
    completed = subprocess.run(
        [sys.executable, "-m", "tavola", "play", "--colors", "white"],
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "--colors takes two colours" in completed.stderr
    assert autosave.read_text() == saved
    assert not list(autosave.parent.glob("unfinished-*"))


def test_unfinished_games_kept_in_the_same_second_are_all_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    from tavola.cli.play import keep_unfinished

    monkeypatch.setattr("time.strftime", lambda _format: "20250101-120000")
    autosave = tmp_path / "autosave.json"
    console = Console(file=io.StringIO())
    saved = []
    for length in (3, 5, 7):
        match = Match(length, dice=RandomDice(seed=1), players=("Ann", "Tavola"))
        match.new_game()
        PlaySession(match, (Seat("Ann"), Seat("Tavola", "expert"))).save(autosave)
        saved.append(autosave.read_text())
        keep_unfinished(autosave, console)
    kept = sorted(tmp_path.glob("unfinished-*.json"))
    assert [path.name for path in kept] == [
        "unfinished-20250101-120000-2.json",
        "unfinished-20250101-120000-3.json",
        "unfinished-20250101-120000.json",
    ]
    assert sorted(path.read_text() for path in kept) == sorted(saved)


@pytest.mark.parametrize(("language", "plays"), [("en", "plays"), ("it", "gioca"), ("es", "juega")])
def test_with_no_name_and_no_login_the_person_is_called_by_their_colour(
    tmp_path: Path, language: str, plays: str
) -> None:
    with use_language(language):
        name = _("White")
    terminal = Terminal(tmp_path, "--seed", "4", language=language, without=("USER",))
    text = terminal.next_prompt()
    while "): " not in text.splitlines()[-1]:
        terminal.send("")
        text = terminal.next_prompt()
    assert text.splitlines()[-1].startswith(f"{name} (")
    terminal.send(terminal.first_legal_play(text))
    assert f"{name} {plays} " in terminal.next_prompt()
    terminal.send("quit")
    assert terminal.finish() == 0


def test_argparse_speaks_through_tavolas_catalogue_and_every_option_is_described(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tavola.cli

    monkeypatch.setattr(tavola.cli, "_", lambda text: text.upper())  # as a translation would
    with pytest.raises(SystemExit):
        tavola.cli.build_parser().parse_args(["play", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("USAGE: tavola play")
    assert "\nOPTIONS:\n" in text
    assert "SHOW THIS HELP MESSAGE AND EXIT" in text
    variant = text[text.index("\n  --variant") :].split("\n  --")[1]
    assert "a variant with other starting checkers" in " ".join(variant.split())


def test_level_names_are_shown_in_the_language_in_use_and_accepted_in_any() -> None:
    from tavola.bot.levels import level_title
    from tavola.cli import build_parser

    for language in ("en", "it", "es"):
        with use_language(language):
            translated = level_title("world-class")
            for typed in ("world-class", "World-Class", translated):
                assert build_parser().parse_args(["play", "--level", typed]).level == "world-class"


def test_the_tutor_in_a_terminal_warns_and_a_finished_match_is_analysed(tmp_path: Path) -> None:
    terminal = Terminal(
        tmp_path, "--opponent", "human", "--name", "Ann", "--opponent-name", "Bo", "--dice", "manual",
        "--tutor", "--tutor-level", "0-ply",
    )  # fmt: skip
    assert "Opening roll" in terminal.next_prompt()
    terminal.send("6 1")
    assert "Ann (6-1): your move" in terminal.next_prompt()
    terminal.send("8/2 6/5")
    warned = terminal.next_prompt()
    assert "Tutor: 8/2 6/5 loses" in warned
    assert "Do it anyway?" in warned
    terminal.send("no")
    assert "Ann (6-1): your move" in terminal.next_prompt()
    terminal.send("13/7 8/7")
    assert "Bo: roll (Enter) or double" in terminal.next_prompt()
    terminal.send("quit")
    assert terminal.finish() == 0

    finished = Terminal(tmp_path, "--load", str(DATA / "gnubg-5-point-match.mat"), "--name", "Ann")
    assert "The match is over" in finished.next_prompt()
    finished.send("analyze 0-ply")
    shown = finished.next_prompt()
    assert "The match is over" in shown
    assert re.search(r"\d+\.\d", shown)  # the figures
    finished.send("")
    assert finished.finish() == 0
