"""Matches to N points and money sessions."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from gnubg_oracle import GNUBG
from tavola import WinKind
from tavola.cube import Cube
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import IllegalActionError, InvalidIdError, InvalidRulesError
from tavola.game import Game
from tavola.ids import GameState, decode_match_id, encode_match_id
from tavola.match import MAX_MATCH_LENGTH, Match, MatchScore, MoneySession, match_id_text
from tavola.position import Position
from tavola.rules import Rules


def win(game: Game, winner: int, kind: WinKind = WinKind.SINGLE) -> None:
    """End ``game`` quickly: the loser resigns ``kind`` on their turn."""
    if game.phase.value == "opening":
        game.roll()
    loser = 1 - winner
    while game.player_on_roll != loser or game.phase.value != "roll":
        if game.phase.value == "move":
            game.play(game.turn.legal[0])
        else:
            game.roll()
    game.resign(kind)
    game.accept_resignation()


def test_P1_first_to_n_wins_and_points_past_n_count_for_nothing():
    match = Match(3, dice=RandomDice(seed=1))
    win(match.new_game(), 0, WinKind.GAMMON)
    assert match.score == (2, 0)
    win(match.new_game(), 1)  # Crawford game
    win(match.new_game(), 0, WinKind.BACKGAMMON)
    assert match.score == (3, 1)
    assert match.is_over
    assert match.winner == 0
    with pytest.raises(IllegalActionError, match="match is over"):
        match.new_game()


def test_P1_a_game_must_end_before_the_next_one_starts():
    match = Match(5, dice=RandomDice(seed=1))
    match.new_game()
    with pytest.raises(IllegalActionError, match="must end"):
        match.new_game()


def test_P2_no_doubling_in_the_crawford_game_and_the_cube_is_back_after():
    match = Match(3, dice=RandomDice(seed=2))
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0: player 0 reaches N-1
    crawford = match.new_game()
    assert crawford.crawford
    crawford.roll()
    crawford.play(crawford.turn.legal[0])
    assert not crawford.may_double()
    with pytest.raises(IllegalActionError, match="Crawford"):
        crawford.double()
    assert decode_match_id(match.match_id()).crawford
    win(crawford, 1)  # 2-1
    after = match.new_game()
    assert not after.crawford
    assert not decode_match_id(match.match_id()).crawford
    after.roll()
    after.play(after.turn.legal[0])
    assert after.may_double()


def test_P2_a_later_game_at_n_minus_1_is_not_another_crawford_game():
    match = Match(5, dice=RandomDice(seed=3))
    win(match.new_game(), 0, WinKind.BACKGAMMON)  # 3-0
    win(match.new_game(), 0)  # 4-0, next is Crawford
    assert match.new_game().crawford
    win(match.game, 1, WinKind.BACKGAMMON)  # 4-3
    assert not match.new_game().crawford


def test_P3_holland_restricts_nobody_at_equal_scores():
    """Post-Crawford at 2-2 of a 3-point match: nobody trails, so both may double at once."""
    dice = ManualDice()
    match = Match(3, Rules(holland=True), dice)
    dice.enter_opening(6, 1)
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0, the next game is the Crawford game
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # Crawford game: 2-1
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # post-Crawford: 2-2
    game = match.new_game()
    assert match.score == (2, 2)
    assert game.holland is None
    dice.enter_opening(6, 1)
    dice.enter("21")
    game.roll()
    game.play(game.turn.legal[0])
    assert game.player_on_roll == 1
    assert game.may_double()


def test_P3_holland_the_trailer_doubles_from_their_third_turn():
    dice = ManualDice()
    match = Match(3, Rules(holland=True), dice)
    dice.enter_opening(6, 1)
    win(match.new_game(), 0, WinKind.GAMMON)  # 2-0
    dice.enter_opening(1, 6)
    win(match.new_game(), 1)  # Crawford game: 2-1
    dice.enter_opening(6, 1)  # player 0 (the leader) starts; player 1 trails
    game = match.new_game()
    assert game.holland == 1
    turns_of_player_1 = 0
    for roll in ["21", "43", "21", "43", "21", "43"]:
        dice.enter(roll)
    game.roll()
    game.play(game.turn.legal[0])
    while turns_of_player_1 < 3:
        assert game.player_on_roll == 1
        assert game.may_double() == (turns_of_player_1 >= 2)
        game.roll()
        turns_of_player_1 += 1
        game.play(game.turn.legal[0])
        game.roll()
        game.play(game.turn.legal[0])


def test_P4_money_options_are_refused_in_a_match():
    for rules in (Rules(jacoby=True), Rules(beavers=1), Rules(automatic_doubles=1)):
        with pytest.raises(InvalidRulesError, match="P4"):
            Match(7, rules)


@pytest.mark.parametrize(
    "length", [0, -1, True, 1.5, MAX_MATCH_LENGTH + 1, 10**20, pytest.param(10**5000, id="5000-digits")]
)
def test_P1_match_length_is_checked(length):
    with pytest.raises(InvalidRulesError):
        Match(length)


def test_P5_the_match_id_holds_score_length_and_state():
    match = Match(7, dice=RandomDice(seed=5))
    assert decode_match_id(match.match_id()).game_state is GameState.NONE
    win(match.new_game(), 1, WinKind.GAMMON)
    state = decode_match_id(match.match_id())
    assert (state.match_length, state.score, state.game_state) == (7, (0, 2), GameState.RESIGNED)
    game = match.new_game()
    while game.roll() is None:  # opening ties
        pass
    state = decode_match_id(match.match_id())
    assert (state.score, state.game_state, state.player_on_roll) == (
        (0, 2),
        GameState.PLAYING,
        game.player_on_roll,
    )
    assert state.dice == tuple(game.dice)


def test_M1_a_money_session_keeps_a_zero_sum_running_score_at_the_stake():
    session = MoneySession(Rules(jacoby=True), RandomDice(seed=6), stake=5)
    win(session.new_game(), 0, WinKind.GAMMON)  # Jacoby: counts single
    win(session.new_game(), 1)
    win(session.new_game(), 1)
    assert session.score.points == (-1, 1)
    assert session.score.money == (-5, 5)
    assert not session.is_over


@pytest.mark.parametrize("stake", [0, -2, "1", float("nan"), float("inf"), -float("inf"), True])
def test_M1_the_stake_is_a_positive_amount(stake):
    with pytest.raises(InvalidRulesError, match="stake"):
        MoneySession(stake=stake)


def test_players_have_names():
    with pytest.raises(InvalidRulesError):
        Match(5, players=("Ann", ""))
    assert Match(5, players=("Ann", "Bruno")).players == ("Ann", "Bruno")


# --- P5: the Match ID at the end of a game, as gnubg writes it ----------------------------------------

BEAR_OFF_SINGLE = "AQAABAAAAAAAAA"  # the player on roll's last checker on its 1-point; the opponent's too
BEAR_OFF_GAMMON = "4P8PAAABAAAAAA"  # the same, the opponent's 15 checkers all on its 6-point


@dataclass(frozen=True)
class Ending:
    """A game ending at a score, and the Match ID gnubg 1.07 writes once it is over.

    ``gnubg`` are the commands that play it in gnubg (after ``set automatic game off``,
    ``set automatic roll off`` and both players human); ``score`` and ``crawford`` are the match
    before the game, ``on_roll`` its player on roll, ``cube`` its cube (value, owner).
    """

    length: int
    score: tuple[int, int]
    on_roll: int
    actions: tuple[str, ...]
    match_id: str
    crawford: bool = False
    cube: tuple[int, int | None] = (1, None)
    board: str = ""

    def position_id(self) -> str:
        """The board gnubg was set up with: the start, or two checkers left for a bear-off."""
        return self.board or (BEAR_OFF_SINGLE if "bear off" in self.actions else "4HPwATDgc/ABMA")

    def gnubg(self) -> list[str]:
        setup = [f"new match {self.length}", f"set score {self.score[0]} {self.score[1]}"]
        setup.append(f"set crawford {'on' if self.crawford else 'off'}" if 1 in self.away() else "")
        if self.cube[1] is not None:
            setup += [f"set cube value {self.cube[0]}", f"set cube owner {self.cube[1]}"]
        setup += [f"set turn {self.on_roll}", f"set board {self.position_id()}"]
        commands = {"bear off": ["set dice 2 1", "move 1/off"], "roll 31": ["set dice 3 1"]}
        return [c for c in setup if c] + [
            c for action in self.actions for c in commands.get(action, [action])
        ]

    def away(self) -> tuple[int, int]:
        return self.length - self.score[0], self.length - self.score[1]


GNUBG_ENDINGS = {
    "bear-off": Ending(7, (0, 0), 0, ("bear off",), "cArgABAAAAAE"),
    "bear-off-to-the-crawford-game": Ending(5, (3, 0), 0, ("bear off",), "8AqgAEAAAAAE"),
    "crawford-game-won-by-the-trailer": Ending(5, (4, 0), 1, ("bear off",), "MAKgAEAACAAE", crawford=True),
    "crawford-game-won-by-the-leader": Ending(5, (4, 0), 0, ("bear off",), "cAqgAFAAAAAE", crawford=True),
    "gammon-past-the-length": Ending(
        7, (0, 0), 1, ("bear off",), "BALgAAAAAAEE", cube=(16, 0), board=BEAR_OFF_GAMMON
    ),
    "resigned-to-the-crawford-game": Ending(5, (0, 3), 0, ("resign single", "accept"), "sCugAAAAIAAE"),
    "dropped-to-the-crawford-game": Ending(5, (3, 0), 0, ("double", "drop"), "sAygAEAAAAAE"),
    "resigned-after-the-roll": Ending(7, (0, 0), 1, ("roll 31", "resign single", "accept"), "cKPlABAAAAAE"),
    "backgammon-resigned-past-the-length": Ending(
        7, (0, 0), 1, ("resign backgammon", "accept"), "RGPgAAADAAAE", cube=(16, 0)
    ),
}


def reach(match: Match, score: tuple[int, int]) -> None:
    """Play games to ``score``, each won by a resignation (a gammon while two points or more are wanted)."""
    while match.score != score:
        winner = 0 if match.score[0] < score[0] else 1
        wanted = score[winner] - match.score[winner]
        win(match.new_game(), winner, WinKind.GAMMON if wanted >= 2 else WinKind.SINGLE)


def play_ending(ending: Ending) -> Match:
    match = Match(ending.length, dice=RandomDice(seed=7))
    reach(match, ending.score)
    dice = ManualDice()
    index = len(match.games)
    assert match.is_crawford_game(index) == ending.crawford
    game = Game(
        match.rules,
        dice,
        crawford=ending.crawford,
        position=Position.from_position_id(ending.position_id()),
        player_on_roll=ending.on_roll,
        cube=Cube(*ending.cube),
    )
    match.games.append(game)  # the game gnubg was set up with, in the place of the next one
    for action in ending.actions:
        if action == "bear off":
            dice.enter("21")
            game.roll()
            game.play(game.turn.legal[0])
        elif action == "roll 31":
            dice.enter("31")
            game.roll()
        elif action.startswith("resign"):
            game.resign(WinKind[action.split()[1].upper()])
        else:
            {"accept": game.accept_resignation, "double": game.double, "drop": game.drop}[action]()
    assert game.is_over
    return match


@pytest.mark.parametrize("ending", GNUBG_ENDINGS.values(), ids=GNUBG_ENDINGS.keys())
def test_P5_a_finished_game_gives_the_match_id_gnubg_writes(ending: Ending) -> None:
    assert play_ending(ending).match_id() == ending.match_id


@pytest.mark.parametrize("ending", GNUBG_ENDINGS.values(), ids=GNUBG_ENDINGS.keys())
def test_P5_every_match_id_gnubg_writes_at_the_end_of_a_game_reads_back(ending: Ending) -> None:
    assert encode_match_id(decode_match_id(ending.match_id)) == ending.match_id


def test_P5_the_match_id_counts_points_past_the_length_while_the_score_does_not() -> None:
    match = play_ending(GNUBG_ENDINGS["gammon-past-the-length"])
    assert match.score == (0, 7)
    assert decode_match_id(match.match_id()).score == (0, 32)


def test_P2_the_match_id_of_a_finished_game_flags_the_next_crawford_game_only() -> None:
    assert decode_match_id(play_ending(GNUBG_ENDINGS["bear-off-to-the-crawford-game"]).match_id()).crawford
    crawford_over = play_ending(GNUBG_ENDINGS["crawford-game-won-by-the-trailer"])
    assert not decode_match_id(crawford_over.match_id()).crawford
    assert not crawford_over.new_game().crawford


GNUBG_ENDINGS_SCRIPT = """
import json
import gnubg
for command in ['set automatic game off', 'set automatic roll off', 'set player 0 human',
                'set player 1 human']:
    gnubg.command(command)
found = {}
for name, commands in json.load(open(CASES)).items():
    for command in commands:
        gnubg.command(command)
    found[name] = gnubg.matchid()
json.dump(found, open(OUT, 'w'))
"""


@pytest.mark.gnubg
def test_P5_gnubg_writes_these_match_ids_at_the_end_of_a_game(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({name: ending.gnubg() for name, ending in GNUBG_ENDINGS.items()}))
    out = tmp_path / "out.json"
    script = tmp_path / "endings.py"
    script.write_text(f"CASES = {str(cases)!r}\nOUT = {str(out)!r}\n" + GNUBG_ENDINGS_SCRIPT)
    subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)], stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    assert json.loads(out.read_text()) == {name: ending.match_id for name, ending in GNUBG_ENDINGS.items()}


def test_C4_a_cube_past_32768_has_no_match_id_and_says_so() -> None:
    match = Match(7, dice=ManualDice(["21"]))
    game = Game(match.rules, match.dice, position=Position.start(), player_on_roll=1, cube=Cube(32768, 1))
    match.games.append(game)
    assert decode_match_id(match.match_id()).cube_value == 32768
    game.double()
    game.take()  # redoubles have no limit (C4)
    assert game.cube == Cube(65536, 0)
    with pytest.raises(InvalidIdError, match="the cube at 65536 is more than a Match ID can hold"):
        match.match_id()
    assert match_id_text(match) == "none (the cube at 65536 is more than a Match ID can hold)"


def test_P1_the_longest_match_is_gnubgs() -> None:
    assert MAX_MATCH_LENGTH == 64
    assert Match(MAX_MATCH_LENGTH).length == 64


@pytest.mark.parametrize(
    ("length", "score", "crawford", "says"),
    [
        pytest.param(1, (0, 0), True, "no Crawford game", id="P2-1-point-match"),
        pytest.param(2, (1, 1), True, "no Crawford game", id="P2-1-1-of-2"),
        pytest.param(5, (3, 0), True, "no Crawford game", id="P2-3-0-of-5"),
        pytest.param(5, (5, 0), False, "0 to 4 while a game is played", id="P1-match-won"),
        pytest.param(5, (-1, 0), False, "0 to 4", id="negative"),
        pytest.param(65, (0, 0), False, "1 to 64 points", id="P1-too-long"),
        pytest.param(5, (4.0, 0), False, "two whole numbers", id="a-float"),
        pytest.param(5, (4, 0), 1, "True or False", id="crawford-int"),
    ],
)
def test_P1_P2_a_match_score_no_match_reaches_is_refused(length, score, crawford, says) -> None:
    with pytest.raises(InvalidRulesError, match=says):
        MatchScore(length, score, crawford)


def test_P2_the_crawford_game_is_at_one_player_one_point_away() -> None:
    assert MatchScore(5, (4, 2), crawford=True).away == (1, 3)
    assert MatchScore(5, (0, 4), crawford=True).crawford


@pytest.mark.parametrize(
    "settings",
    [{"automatic_doubles": 99999999999999999999}, {"beavers": 10**4000}, {"automatic_doubles": -1}],
)
def test_M2_M3_counted_rules_have_a_documented_maximum(settings):
    with pytest.raises(InvalidRulesError, match="from 0 to 16"):
        Rules(**settings)
    assert Rules(automatic_doubles=16, beavers=16).automatic_doubles == 16
