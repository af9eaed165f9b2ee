"""The terminal game's flow in-process, with scripted answers: the cube, resignations, forced plays, dice."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import pytest
from rich.console import Console

from builders import position
from tavola.bot.evaluate import Evaluator
from tavola.bot.player import Bot
from tavola.console.app import ConsoleGame
from tavola.console.session import PlaySession, Seat
from tavola.cube import Cube
from tavola.dicesource import ManualDice, RandomDice
from tavola.game import Ending, Game, Phase
from tavola.i18n import use_language
from tavola.match import Match, MoneySession
from tavola.position import Position, WinKind
from tavola.rules import Rules
from tavola.variants import ACEY_DEUCEY


class Script:
    """Answers prompts in order: each step is (a pattern the prompt must match, the line typed)."""

    def __init__(self, steps: Iterable[tuple[str, str]]) -> None:
        self.steps = list(steps)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.steps:
            raise EOFError  # the script is over: like Ctrl-D
        pattern, line = self.steps.pop(0)
        assert re.search(pattern, prompt), f"expected a prompt like {pattern!r}, got {prompt!r}"
        return line


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator.default()


def run(session: PlaySession, script: Script, bots: dict[int, Bot] | None = None) -> str:
    output = io.StringIO()
    console = Console(file=output, width=120, highlight=False, markup=False)
    ConsoleGame(session, console, script, bots=bots).run()
    return output.getvalue()


def set_up(series: Match | MoneySession, board: Position, on_roll: int, cube: Cube | None = None) -> Game:
    """Put a game from ``board`` (seen by ``on_roll``) into ``series`` as its game in progress."""
    game = Game(series.rules, series.dice, position=board, player_on_roll=on_roll, cube=cube)
    series.games.append(game)
    return game


RACE_WON = position({1: 2, 2: 2}, {19: 5, 20: 5, 21: 5})  # the mover is far ahead, no contact
RACE_DOUBLE = position({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {18: 3, 19: 3, 20: 3, 21: 3, 22: 3})  # 60 pips to 75
SURE_WIN = position({1: 2}, {19: 4, 20: 5, 21: 5})  # the mover wins next turn; the other has one off


def test_C3_the_bot_drops_a_double_in_a_lost_race(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, RACE_WON, on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"roll \(Enter\) or double", "double"), (r"another game", "quit")])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "Ann doubles to 2." in text
    assert "Tavola drops." in text
    outcome = series.games[0].outcome
    assert outcome is not None
    assert (outcome.winner, outcome.ending, outcome.points) == (0, Ending.DROP, 1)


def test_C6_the_bot_resigns_a_hopeless_race_and_the_person_accepts(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, SURE_WIN.flip(), on_roll=1)  # the bot on roll cannot win, nor lose a gammon
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"accept or decline", "accept"), (r"another game", "quit")])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "Tavola resigns a single game." in text
    outcome = series.games[0].outcome
    assert outcome is not None
    assert (outcome.winner, outcome.ending, outcome.kind) == (0, Ending.RESIGNATION, WinKind.SINGLE)


def test_C6_a_declined_resignation_is_not_offered_again_that_game(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, SURE_WIN.flip(), on_roll=1)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"accept or decline", "decline")])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert text.count("resigns") == 1
    assert "declines the resignation" in text


def test_C6_a_person_resigns_and_the_bot_accepts_a_gift(evaluator: Evaluator) -> None:
    series = Match(3, dice=RandomDice(seed=2), players=("Ann", "Tavola"))
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    steps = [(r"your move|roll \(Enter\)", "resign gammon"), (r"next game", "quit")]
    text = run(session, Script(steps), {1: Bot(evaluator, "advanced", 1)})
    assert "Ann resigns a gammon." in text
    assert "Tavola accepts the resignation." in text
    assert series.score == (0, 2)


def test_M3_hot_seat_double_beaver_and_take(evaluator: Evaluator) -> None:
    series = MoneySession(Rules(beavers=1), RandomDice(seed=3), players=("Ann", "Bo"))
    set_up(series, Position.start(), on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")))
    script = Script(
        [
            (r"Ann: roll \(Enter\) or double", "double"),
            (r"Bo: you are doubled to 2; take, drop or beaver", "beaver"),
            (r"Ann: the cube is beavered to 4; take or drop", "take"),
        ]
    )
    text = run(session, script)
    game = series.games[0]
    assert game.cube == Cube(4, 1)
    assert game.phase is Phase.MOVE
    assert "Bo beavers: the cube is at 4." in text


def test_hints_for_the_cube_and_for_a_roll(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=3), players=("Ann", "Tavola"))
    set_up(series, Position.start(), on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script(
        [(r"roll \(Enter\) or double", "hint"), (r"roll \(Enter\) or double", ""), (r"your move", "hint")]
    )
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "No double" in text
    assert "Equity" in text
    assert "Lose gammon" in text


def test_R11_forced_plays_and_passes_are_made_and_announced() -> None:
    dice = ManualDice(["66", "11"])
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    # Ann has a checker on the bar against a closed board: 6-6 cannot enter.
    closed = {point: 2 for point in range(19, 25)} | {12: 3}
    set_up(series, position({6: 14}, closed, bar=(1, 0)), on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    text = run(session, Script([(r"Ann: roll", "")]))
    assert "Ann rolls 6-6 and cannot move" in text


def test_manual_dice_are_asked_for_and_a_bad_entry_is_refused() -> None:
    dice = ManualDice()
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script(
        [
            (r"Opening roll: Ann's die and Bo's die", "7 1"),
            (r"Opening roll: Ann's die and Bo's die", "3 1"),
            (r"Ann \(3-1\): your move", "8/5 6/5"),
            (r"Bo: roll \(Enter\) or double", ""),
            (r"Bo's dice", "65"),
            (r"Bo \(6-5\): your move", "24/13"),
        ]
    )
    text = run(session, script)
    assert "Opening roll 3-1: Ann plays first." in text
    log = [str(entry.action) for entry in series.games[0].log]
    assert len(log) == 4
    assert "Ann plays 8/5(2)" in text or "Ann plays 8/5 6/5" in text


def test_V2_acey_deucey_after_the_1_2_the_player_chooses_a_double() -> None:
    dice = ManualDice()
    dice.enter_opening(2, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"), variant=ACEY_DEUCEY)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script(
        [
            (r"Ann \(2-1\): your move", "in/24 in/23"),
            (r"choose the double to play", "9"),
            (r"choose the double to play", "6"),
            (r"Ann \(6-6\): your move", "in/19(4)"),
        ]
    )
    text = run(session, script)
    assert "Ann chooses double 6s." in text
    assert "Type a number from 1 to 6" in text


def test_a_saved_session_resumes_with_the_checkers_moved_so_far(tmp_path: pytest.TempPathFactory) -> None:
    dice = ManualDice()
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script([(r"Opening roll", "6 5"), (r"Ann \(6-5\): your move", "24/18")])
    path = tmp_path / "autosave.json"  # type: ignore[operator]
    output = io.StringIO()
    ConsoleGame(session, Console(file=output, width=120), script, autosave=path).run()
    again = PlaySession.load(path)
    game = again.series.game
    assert game.turn is not None
    assert [str(move) for move in game.turn.moves] == ["24/18"]


def test_M3_a_hint_after_the_bot_beavers_advises_the_doubler(evaluator: Evaluator) -> None:
    series = MoneySession(Rules(beavers=1), RandomDice(seed=3), players=("Ann", "Tavola"))
    set_up(series, Position.start(), on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script(
        [
            (r"Ann: roll \(Enter\) or double", "double"),
            (r"Ann: the cube is beavered to 4; take or drop", "hint"),
            (r"Ann: the cube is beavered to 4; take or drop", "drop"),
            (r"another game", "quit"),
        ]
    )
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "Tavola beavers: the cube is at 4." in text
    assert re.search(r"(Take|Drop) the beaver \(play on at 4 [-+]\d\.\d{3}, drop -2\.000\)", text)
    outcome = series.games[0].outcome
    assert outcome is not None
    assert (outcome.winner, outcome.points) == (1, 2)


def test_M3_the_bot_answers_a_beaver_of_its_double(evaluator: Evaluator) -> None:
    series = MoneySession(Rules(beavers=1), RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, RACE_DOUBLE, on_roll=1)  # the bot ahead doubles; beavering it is a blunder
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"Ann: you are doubled to 2; take, drop or beaver", "beaver"), (r".", "quit")])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "Ann beavers: the cube is at 4." in text
    assert "Tavola takes." in text
    assert series.games[0].cube.value == 4


def test_a_typo_after_the_match_asks_again(tmp_path: pytest.TempPathFactory) -> None:
    series = Match(1, dice=RandomDice(seed=1), players=("Ann", "Bo"))
    set_up(series, SURE_WIN, on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")))
    script = Script([(r"roll", ""), (r"The match is over", "sve x.mat"), (r"The match is over", "")])
    text = run(session, script)
    assert "Ann wins the match" in text
    assert "Type save FILE to export the match, or Enter to leave." in text
    assert script.prompts[1:] == ["The match is over. analyze; save FILE: export it; Enter: leave > "] * 2


def boards(text: str) -> list[tuple[str, str]]:
    """Each board drawn: the far side's pips note and the near side's (the viewer's), as printed."""
    notes = re.findall(r"\|   ([^|]* pips \d+)$", text, re.MULTILINE)
    return list(zip(notes[::2], notes[1::2], strict=True))


def test_R3_the_board_stays_on_the_persons_side_when_the_bot_doubles(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, RACE_DOUBLE, on_roll=1)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"Ann: you are doubled to 2; take or drop", "take"), (r"Ann: roll", "quit")])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    assert "Tavola doubles to 2." in text
    drawn = boards(text)
    assert len(drawn) >= 2
    for far, near in drawn:
        assert far.startswith("Tavola (O)"), far
        assert near.startswith("Ann (X)"), near


@pytest.mark.parametrize("winner", [0, 1])
def test_R3_the_final_board_shows_the_winning_play_from_the_persons_side(
    evaluator: Evaluator, winner: int
) -> None:
    series = Match(1, dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, SURE_WIN, on_roll=winner)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    script = Script([(r"roll", "")] if winner == 0 else [])
    text = run(session, script, {1: Bot(evaluator, "advanced", 1)})
    far, near = boards(text)[-1]
    if winner == 0:
        assert (far, near) == ("Tavola (O)  pips 69", "Ann (X)  pips 0"), text
    else:
        assert (far, near) == ("Tavola (O)  pips 0", "Ann (X)  pips 69"), text


def test_the_hint_table_is_ranked_as_printed_and_as_bot_hint_ranks(evaluator: Evaluator) -> None:
    dice = ManualDice()
    dice.enter("31")
    series = MoneySession(dice=dice, players=("Ann", "Tavola"))
    game = set_up(series, Position.start(), on_roll=0)
    session = PlaySession(
        series, (Seat("Ann"), Seat("Tavola", "advanced")), dice_kind="manual", manual_dice=dice
    )
    text = run(session, Script([(r"roll", ""), (r"your move", "hint")]), {1: Bot(evaluator, "advanced", 1)})
    rows = re.findall(r"^\W*(\d+) │ ([^│]+?) +│ +([+-]\d\.\d{3}) │(?:[^│]*│){4} +(\d) │$", text, re.MULTILINE)
    assert len(rows) == 10, text
    ranked = [(-int(depth), -float(equity)) for _rank, _play, equity, depth in rows]
    assert ranked == sorted(ranked)  # deepest first, then by equity, as printed
    assert {depth for _rank, _play, _equity, depth in rows} == {"2", "1", "0"}  # the filter stops some short
    turn = game.turn
    assert turn is not None
    hinted = Bot(evaluator, "world-class").hint(turn.start, turn.dice)
    assert [play for _rank, play, _equity, _depth in rows] == [choice.play.notation for choice in hinted[:10]]


def test_pip_names_the_leader_and_the_match_score_puts_the_winner_first(evaluator: Evaluator) -> None:
    series = Match(1, dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, SURE_WIN, on_roll=1)  # Tavola, far ahead, bears off at once
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    text = run(session, Script([]), {1: Bot(evaluator, "advanced", 1)})
    assert "Tavola wins the match 1-0." in text
    series = MoneySession(dice=RandomDice(seed=1), players=("Ann", "Tavola"))
    set_up(series, SURE_WIN, on_roll=0)
    session = PlaySession(series, (Seat("Ann"), Seat("Tavola", "advanced")))
    text = run(session, Script([(r"roll", "pip")]), {1: Bot(evaluator, "advanced", 1)})
    assert "Pips: Ann 2, Tavola 69 · Ann leads by 67" in text


def test_R20_a_refused_undo_names_the_player_not_the_seat() -> None:
    dice = ManualDice()
    dice.enter_opening(3, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    text = run(session, Script([(r"Ann \(3-1\): your move", "undo")]))
    assert "Not allowed: Ann has moved nothing this turn to undo" in text
    assert "player 0" not in text


def test_R20_after_one_checker_the_prompt_names_the_dice_left() -> None:
    dice = ManualDice()
    dice.enter_opening(6, 5)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script(
        [(r"Ann \(6-5\): your move > $", "24/18"), (r"Ann \(6-5, 5 to play\): your move > $", "undo")]
    )
    run(session, script)
    assert len(script.prompts) == 3
    assert script.prompts[2] == "Ann (6-5): your move > "


def test_commands_out_of_place_say_what_is_wrong() -> None:
    dice = ManualDice()
    dice.enter_opening(6, 5)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script([(r"your move", "double"), (r"your move", "take"), (r"your move", "roll")])
    text = run(session, script)
    assert "Doubling comes before the roll: play this roll first." in text
    assert "No double or resignation is waiting for an answer." in text
    assert "The dice are rolled: play them." in text
    assert "Move your checkers first" not in text


def test_the_end_of_an_acey_deucey_game_says_the_points_and_the_checkers_left() -> None:
    dice = ManualDice(["21"])
    series = MoneySession(dice=dice, players=("Ann", "Bo"), variant=ACEY_DEUCEY)
    game = Game(series.rules, series.dice, position=SURE_WIN, player_on_roll=0, variant=ACEY_DEUCEY)
    series.games.append(game)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    text = run(session, Script([(r"another game", "quit")]))  # no cube: the roll is made at once
    assert "Ann wins: 14 points (14 checkers left)." in text


def test_the_legal_plays_wrap_between_plays_never_inside_one() -> None:
    dice = ManualDice()
    dice.enter_opening(3, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    output = io.StringIO()
    ConsoleGame(session, Console(file=output, width=50), Script([(r"your move", "moves")])).run()
    listing = output.getvalue().split("legal plays:\n")[1].split("\n\n")[0].splitlines()
    turn = series.games[0].turn
    assert turn is not None
    legal = {play.notation for play in turn.legal}
    listed = [play for line in listing for play in line.strip().split("   ")]
    assert len(listing) > 1
    assert all(len(line) <= 50 for line in listing)
    assert sorted(listed) == sorted(legal)


def test_the_help_lists_the_command_words_of_the_language_in_use() -> None:
    dice = ManualDice()
    dice.enter_opening(3, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    with use_language("it"):
        text = run(session, Script([(r"Ann \(3-1\)", "aiuto")]))
    examples = re.findall(r"^ *(\S.*?)  +\S", text.split("Comandi")[1], re.MULTILINE)
    for words in (
        "annulla",
        "mosse",
        "raddoppia",
        "accetta / rifiuta / beaver",
        "abbandona [gammon|backgammon]",
    ):
        assert words in examples, examples
    assert not {"undo", "moves", "double", "take / drop / beaver"} & set(examples)
