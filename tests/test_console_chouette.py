"""``tavola chouette``: a table of players at one terminal, scripted in-process and driven in a pty."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pexpect
from rich.console import Console

from tavola.actions import OpeningRoll, Roll
from tavola.chouette import Chouette, ChouetteSettings, CubeMode, Drop, Phase, Take
from tavola.console.chouette import ChouetteConsole
from tavola.dicesource import RandomDice
from terminal import START, environment


class TablePlayer:
    """Types for every player at the table: the roll, takes, the middle legal play; then ``after``."""

    def __init__(self, table: Chouette, after: list[str], games: int = 1) -> None:
        self.table = table
        self.after = after
        self.games = games
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        game = self.table.game_in_progress
        if game is None:
            if len(self.table.games) < self.games:
                return ""
            if self.after:
                return self.after.pop(0)
            raise EOFError
        if game.phase is Phase.MOVE:
            assert game.turn is not None
            plays = list(game.turn.legal)
            return plays[len(plays) // 2].notation
        actions = game.legal_actions()
        for wanted in (Take, Roll):
            for number, item in enumerate(actions, start=1):
                if isinstance(item.action, wanted):
                    return str(number)
        return "1"


def run(table: Chouette, reader: TablePlayer, autosave: Path | None = None) -> str:
    output = io.StringIO()
    ChouetteConsole(table, Console(file=output, width=120), reader, autosave=autosave).run()
    return output.getvalue()


def test_H1_H2_H10_a_game_from_the_draw_to_the_ledger(tmp_path: Path) -> None:
    table = Chouette(ChouetteSettings(stake=2), RandomDice(seed=4), players=["Ann", "Ben", "Cid", "Dee"])
    text = run(table, TablePlayer(table, []), tmp_path / "chouette.json")
    assert "Roll 1 for the order" in text
    assert "is the box against" in text
    assert len(table.games) == 1
    assert table.games[0].is_over
    assert sum(table.ledger.totals.values()) == 0
    assert "Ledger after 1 game" in text
    assert "Next:" in text  # the rotation is announced
    again = Chouette.load(tmp_path / "chouette.json")
    assert again.ledger.totals == table.ledger.totals


def test_H3_players_join_and_leave_between_games() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
    text = run(table, TablePlayer(table, ["join Eve", "leave Ann", "ledger"]))
    assert "Eve joins the table." in text
    assert "Ann leaves the table." in text
    assert "Eve" in table.players
    assert "Ann" not in table.players


def test_H8_the_box_doubles_one_member_by_name_and_that_member_drops() -> None:
    table = Chouette(
        ChouetteSettings(cubes=CubeMode.MULTI), RandomDice(seed=6), players=["Ann", "Ben", "Cid"]
    )
    typed: list[str] = []

    def reader(prompt: str) -> str:
        game = table.game_in_progress
        assert game is not None
        if game.phase is Phase.ROLL and game.to_act == (game.box,) and not typed:
            member = game.team[0]
            typed.append(f"{game.box} double {member}")
            return typed[-1]
        if game.phase is Phase.ANSWER and len(typed) == 1:
            typed.append(f"{game.to_act[0]} drop")
            return typed[-1]
        if typed and len(typed) == 2:
            raise EOFError
        return TablePlayer(table, [])(prompt)

    output = io.StringIO()
    ChouetteConsole(table, Console(file=output, width=120), reader).run()
    game = table.games[0]
    dropped = [bet for bet in game.bets if bet.outcome is not None]
    assert len(dropped) == 1
    assert dropped[0].winner == game.box
    assert any(isinstance(entry.action, Drop) for entry in game.log)
    assert len(game.members_in) == len(game.team) - 1


def test_a_wrong_action_is_refused_and_the_table_goes_on() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=7), players=["Ann", "Ben", "Cid"])
    lines = ["99", "Zed roll", "Ann fly"]

    def reader(prompt: str) -> str:
        if lines:
            return lines.pop(0)
        raise EOFError

    output = io.StringIO()
    ChouetteConsole(table, Console(file=output, width=120), reader).run()
    text = output.getvalue()
    assert "choose a number from 1 to" in text
    assert "start with the player's name" in text
    assert "unknown action 'fly'" in text


def test_tavola_chouette_in_a_terminal_saves_and_resumes(tmp_path: Path) -> None:
    args = ["-m", "tavola", "chouette", "Ann", "Ben", "Cid", "--seed", "3"]
    child = pexpect.spawn(sys.executable, args, env=environment(tmp_path), encoding="utf-8", timeout=START)
    child.expect(r"> $")
    first = str(child.before)
    assert re.search(r"Game 1: (Ann|Ben|Cid) is the box", first)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    resumed = pexpect.spawn(
        sys.executable,
        ["-m", "tavola", "chouette", "--resume"],
        env=environment(tmp_path),
        encoding="utf-8",
        timeout=START,
    )
    resumed.expect(r"> $")
    assert "Cubes" in str(resumed.before)
    resumed.sendline("quit")
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0


def test_a_new_chouette_keeps_the_saved_one_aside(tmp_path: Path) -> None:
    def chouette(*args: str, lines: tuple[str, ...]) -> str:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "tavola", "chouette", *args],
            env=environment(tmp_path),
            encoding="utf-8",
            timeout=START,
        )
        text = ""
        for line in lines:
            child.expect(r"> $")
            text += str(child.before)
            child.sendline(line)
        child.expect(r"> $")
        text += str(child.before)
        for _ in range(START // 5):  # Ctrl-D, again where it came before the prompt's reading began
            child.sendeof()
            if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=5) == 0:
                break
        else:
            raise AssertionError(f"Ctrl-D did not end tavola chouette: {child.before!r:.300}")
        child.close()
        return text + str(child.before)

    chouette("Ann", "Ben", "Cid", "--seed", "3", lines=("1",))
    folder = tmp_path / "data" / "tavola"
    first = (folder / "chouette.json").read_text()
    said = chouette("Xa", "Yb", "Zc", lines=())
    assert "The chouette saved before was kept in" in said
    chouette("Ann", "Ben", lines=())  # too few players: the empty table is saved, the others kept
    kept = sorted(folder.glob("chouette-*.json"))
    assert len(kept) == 2
    assert first in [path.read_text() for path in kept]
    assert Chouette.load(kept[0]).players or Chouette.load(kept[1]).players


def test_the_board_is_drawn_from_the_boxs_side_to_the_last_play() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=4), players=["Ann", "Ben", "Cid"])
    text = run(table, TablePlayer(table, []))
    found = re.search(r"Game 1: (\w+) is the box", text)
    assert found is not None
    box = found.group(1)
    notes = re.findall(r"\|   ([^|]* pips \d+)\s*$", text, re.MULTILINE)
    assert len(notes) >= 20
    far, near = notes[::2], notes[1::2]
    assert all(note.startswith(f"{box} (X)") for note in near), near
    assert all(note.startswith("team (") and "(O)" in note for note in far), far
    assert far[-1].endswith("pips 0") or near[-1].endswith("pips 0")  # the final board, after the last play


def test_R4_the_opening_roll_is_announced_with_who_plays_first() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=4), players=["Ann", "Ben", "Cid"])
    text = run(table, TablePlayer(table, []))
    game = table.games[0]
    opening = next(entry.action for entry in game.log if isinstance(entry.action, OpeningRoll))
    box_die, team_die = opening.dice
    first = game.box if box_die > team_die else game.captain
    dice = f"{max(opening.dice)}-{min(opening.dice)}"
    assert f"Opening roll {dice}: {first} plays first." in text


def test_help_and_hint_at_the_move_prompt_answer_them() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=4), players=["Ann", "Ben", "Cid"])
    typed: list[str] = []

    def reader(prompt: str) -> str:
        game = table.game_in_progress
        if game is not None and game.phase is Phase.MOVE and len(typed) < 2:
            typed.append(["help", "hint"][len(typed)])
            return typed[-1]
        if len(typed) == 2:
            raise EOFError
        return TablePlayer(table, [])(prompt)

    output = io.StringIO()
    ChouetteConsole(table, Console(file=output, width=120), reader).run()
    text = output.getvalue()
    assert "a move is possible" not in text
    assert "take back the last checker moved this turn" in text  # the help
    assert "Equity" in text  # the hint table
    assert "Lose gammon" in text


def test_H5_a_double_waiting_for_its_answer_is_shown_in_the_cube_table() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=6), players=["Ann", "Ben", "Cid"])
    seen: list[str] = []
    output = io.StringIO()

    def reader(prompt: str) -> str:
        game = table.game_in_progress
        assert game is not None
        if game.phase is Phase.ROLL and game.to_act == (game.box,) and not seen:
            seen.append(game.team[0])
            return f"{game.box} double {game.team[0]}"
        if game.phase is Phase.ANSWER:
            raise EOFError
        return TablePlayer(table, [])(prompt)

    ChouetteConsole(table, Console(file=output, width=120), reader).run()
    assert re.search(rf"doubled to 2, {seen[0]} to answer", output.getvalue())


def test_H3_names_with_spaces_join_quoted_or_not_and_act_by_name() -> None:
    table = Chouette(ChouetteSettings(), RandomDice(seed=4), players=["Mary Ann", "Ben"])
    lines = ['join "Cid Vega"', "join Dee   Dee", "leave dee dee", ""]

    def reader(prompt: str) -> str:
        if lines:
            return lines.pop(0)
        game = table.game_in_progress
        if game is not None and not any(isinstance(entry.action, OpeningRoll) for entry in game.log):
            rolling = next(name for name in game.to_act if " " in name)
            return f"{rolling.lower()} roll"  # the name in any case, spaces and all
        raise EOFError

    output = io.StringIO()
    ChouetteConsole(table, Console(file=output, width=120), reader).run()
    assert sorted(table.players) == ["Ben", "Cid Vega", "Mary Ann"]
    assert "Dee Dee leaves the table." in output.getvalue()
    assert any(isinstance(entry.action, OpeningRoll) for entry in table.games[0].log)
