"""Saved matches and sessions: the .mat format other programs read, Tavola's JSON, and gnubg round trips."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gnubg_oracle import GNUBG, gnubg_available
from tavola import WinKind
from tavola.actions import Beaver, ChooseDouble, Double, Drop, Entry, OpeningRoll, Played, Resign, Roll, Take
from tavola.dicesource import RandomDice
from tavola.errors import RecordError
from tavola.game import Game, Phase
from tavola.match import Match, MoneySession, Series
from tavola.records import (
    from_json,
    load,
    mat_text,
    parse_mat,
    read_json,
    read_mat,
    save,
    to_json,
    write_json,
    write_mat,
)
from tavola.rules import Rules
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, Variant

DATA = Path(__file__).parent / "data"


# --- playing series to save ------------------------------------------------------------


def advance(game: Game, turns: int = 1) -> None:
    """Roll and make the first legal play, ``turns`` times (the opening roll counts as one)."""
    for _ in range(turns):
        game.roll()
        while game.phase is Phase.OPENING:  # a tied opening roll
            game.roll()
        game.play(game.turn.legal[0])


def random_action(game: Game, rng: random.Random, *, double: float = 0.1, resign: float = 0.01) -> None:
    """One random legal action: a whole play, a cube decision, sometimes a resignation."""
    phase = game.phase
    if phase is Phase.MOVE:
        game.play(rng.choice(game.turn.legal))
    elif phase is Phase.ROLL:
        after_a_play = isinstance(game.log[-1].action, Played)
        if after_a_play and rng.random() < resign:
            game.apply(rng.choice([action for action in game.legal_actions() if isinstance(action, Resign)]))
        elif game.may_double() and game.cube.value < 16 and rng.random() < double:
            game.double()
        else:
            game.roll()
    elif phase is Phase.DOUBLED:
        answers = [game.take, game.take, game.drop]
        if Beaver() in game.legal_actions():
            answers.append(game.beaver)
        rng.choice(answers)()
    elif phase is Phase.RESIGNATION:
        (game.accept_resignation if rng.random() < 0.7 else game.decline_resignation)()
    elif phase is Phase.CHOOSE_DOUBLE:
        game.choose_double(rng.randint(1, 6))  # after an Acey-Deucey 1-2 (V2)
    else:
        game.roll()


def play_randomly(series: Series, seed: int, *, games: int | None = None, **odds: float) -> Series:
    rng = random.Random(seed)
    while not series.is_over and (games is None or len(series.games) < games):
        game = series.new_game()
        while not game.is_over:
            random_action(game, rng, **odds)
    return series


def without_ties(log: tuple[Entry, ...]) -> list[Entry]:
    """A log as a .mat file keeps it: tied opening rolls are not written."""
    return [
        entry
        for entry in log
        if not (isinstance(entry.action, OpeningRoll) and entry.action.dice[0] == entry.action.dice[1])
    ]


def merge_automatic_beavers(log: list[Entry]) -> list[Entry]:
    """A log as a .mat file keeps it under automatic beavers (M6): a take that beavers is a beaver."""
    merged: list[Entry] = []
    for entry in log:
        if isinstance(entry.action, Beaver) and merged and merged[-1] == Entry(entry.player, Take()):
            merged.pop()
        merged.append(entry)
    return merged


def as_mat_keeps(log: tuple[Entry, ...]) -> list[Entry]:
    return merge_automatic_beavers(without_ties(log))


def assert_same_series(
    original: Series, read: Series, *, log: Callable[[tuple[Entry, ...]], object] = tuple
) -> None:
    """The same players, rules, games (logs compared as ``log`` shows them), outcomes and score."""
    assert type(read) is type(original)
    assert read.players == original.players
    assert read.rules == original.rules
    assert len(read.games) == len(original.games)
    for mine, theirs in zip(original.games, read.games, strict=True):
        assert log(theirs.log) == log(mine.log)
        assert theirs.outcome == mine.outcome
        assert theirs.crawford == mine.crawford
        assert theirs.phase == mine.phase
    assert read.score == original.score
    assert read.is_over == original.is_over


def money_session() -> MoneySession:
    """A money session with every cube action and resignation a .mat file can show."""
    session = MoneySession(
        Rules(jacoby=True, beavers=2), RandomDice(seed=4), stake=2.5, players=("Ann", "Ben Bo")
    )
    game = session.new_game()  # double, take; redouble, drop
    advance(game, 2)
    game.double()
    game.take()
    advance(game)
    game.double()
    game.drop()
    game = session.new_game()  # double, beaver, take; a gammon resigned later
    advance(game)
    game.double()
    game.beaver()
    game.take()
    advance(game, 3)
    game.resign(WinKind.GAMMON)
    game.accept_resignation()
    game = session.new_game()  # double, beaver, raccoon, drop
    advance(game, 2)
    game.double()
    game.beaver()
    game.beaver()
    game.drop()
    game = session.new_game()  # a declined resignation, then one in the middle of a turn
    advance(game, 3)
    game.resign(WinKind.BACKGAMMON)
    game.decline_resignation()
    game.roll()
    game.resign(WinKind.GAMMON)  # counts single: the Jacoby rule, the cube never turned (M5)
    game.accept_resignation()
    return session


# --- .mat and JSON round trips ------------------------------------------------------------


def test_P1_a_whole_match_round_trips_through_mat_and_json(tmp_path: Path) -> None:
    match = play_randomly(Match(7, dice=RandomDice(seed=11), players=("Ann Lee", "Ben")), seed=11)
    assert match.is_over
    write_mat(match, tmp_path / "match.mat")
    write_json(match, tmp_path / "match.json")
    assert_same_series(match, read_mat(tmp_path / "match.mat"), log=without_ties)
    assert_same_series(match, read_json(tmp_path / "match.json"))
    text = (tmp_path / "match.mat").read_text()
    assert " 7 point match" in text
    assert text.rstrip().endswith("and the match")
    assert "Ann Lee : 0" in text


@pytest.mark.parametrize("seed", range(6))
def test_random_series_round_trip_including_unfinished_games(seed: int) -> None:
    if seed % 2:
        series: Series = Match(5, Rules(holland=True), RandomDice(seed=seed))
        play_randomly(series, seed, double=0.2, resign=0.05)
    else:
        rules = Rules(jacoby=True, beavers=3) if seed % 4 else Rules(beavers=1, automatic_beavers=True)
        series = play_randomly(
            MoneySession(rules, RandomDice(seed=seed)), seed, games=3, double=0.3, resign=0.05
        )
    if not series.is_over:  # leave a game in the middle
        game = series.new_game()
        rng = random.Random(seed)
        for _ in range(seed * 7 + 3):
            if not game.is_over:
                random_action(game, rng, double=0.3, resign=0.05)
    assert_same_series(series, parse_mat(mat_text(series)), log=as_mat_keeps)
    assert_same_series(series, from_json(json.loads(json.dumps(to_json(series)))))


def test_M1_money_session_with_cube_actions_and_resignations(tmp_path: Path) -> None:
    session = money_session()
    text = mat_text(session)
    assert " 0 point match" in text
    assert '; [Jacoby "On"]' in text
    assert '; [Beaver "On"]' in text
    assert '; [Stake "2.5"]' in text
    assert '; [Rules "jacoby=True, beavers=2"]' in text
    games = text.split(" Game ")[1:]
    assert "Doubles => 2" in games[0]
    assert "Takes" in games[0]
    assert "Doubles => 4" in games[0]
    assert "Drops" in games[0]
    assert "Wins 2 points" in games[0]
    assert "Beavers => 4" in games[1]
    assert "Takes" not in games[1]
    assert "Wins 8 points" in games[1]  # a gammon at 4
    assert "Beavers => 4" in games[2]
    assert "Raccoons => 8" in games[2]
    assert "Wins 4 points" in games[2]
    assert "Resigns backgammon (declined)" in games[3]
    assert "Resigns gammon" in games[3]
    assert "Wins 1 point" in games[3]
    save(session, tmp_path / "session.mat")
    save(session, tmp_path / "session.json")
    assert_same_series(session, load(tmp_path / "session.mat"), log=without_ties)
    assert_same_series(session, load(tmp_path / "session.json"))
    assert load(tmp_path / "session.mat").stake == 2.5  # type: ignore[union-attr]


def test_M3_a_dropped_beaver_is_written_so_gnubg_expects_no_roll() -> None:
    session = MoneySession(Rules(beavers=1), RandomDice(seed=2))
    game = session.new_game()
    advance(game)
    game.double()
    game.beaver()
    game.drop()
    text = mat_text(session)
    assert "Raccoons => 4" in text
    assert "Drops" in text
    assert "Wins 2 points" in text
    assert_same_series(session, parse_mat(text), log=without_ties)


def test_M6_automatic_beavers_are_written_as_beavers() -> None:
    session = MoneySession(Rules(beavers=1, automatic_beavers=True), RandomDice(seed=2))
    game = session.new_game()
    advance(game)
    game.double()
    game.take()  # beavers at once: the doubler answers
    game.take()
    advance(game)
    text = mat_text(session)
    assert "Beavers => 4" in text
    assert "Takes" not in text
    assert '; [Rules "beavers=1, automatic_beavers=True"]' in text
    assert_same_series(session, parse_mat(text), log=as_mat_keeps)


def test_M2_a_cube_doubled_by_a_tied_opening_roll_is_refused_by_mat_but_kept_in_json() -> None:
    session = MoneySession(Rules(automatic_doubles=1), RandomDice(seed=5))
    while True:
        game = session.new_game()
        advance(game)
        game.resign()
        game.accept_resignation()
        if game.cube.value == 2:
            break
    with pytest.raises(RecordError, match="tied opening roll doubled the cube"):
        mat_text(session)
    assert_same_series(session, from_json(to_json(session)))


def test_M6_no_gammons_is_refused_by_mat_only_where_it_changed_a_result() -> None:
    session = MoneySession(Rules(gammons=False), RandomDice(seed=1))
    game = session.new_game()
    advance(game)
    game.resign(WinKind.SINGLE)
    game.accept_resignation()
    assert_same_series(session, parse_mat(mat_text(session)), log=without_ties)
    game = session.new_game()
    advance(game)
    game.resign(WinKind.GAMMON)
    game.accept_resignation()
    assert game.outcome is not None
    assert game.outcome.points == 1
    with pytest.raises(RecordError, match="game 2: a gammon counted single"):
        mat_text(session)


def crawford_match() -> Match:
    """A 3-point match: a gammon to 2-0, then the Crawford game."""
    match = Match(3, dice=RandomDice(seed=8), players=("Ann", "Ben"))
    for kind in (WinKind.GAMMON, WinKind.SINGLE):
        game = match.new_game()
        advance(game, 2)
        game.resign(kind)
        game.accept_resignation()
    return match


def test_P2_crawford_game_is_marked_in_mat() -> None:
    match = crawford_match()
    text = mat_text(match)
    score_lines = [line for line in text.splitlines() if "Ann :" in line]
    assert not score_lines[0].endswith("(Crawford)")
    assert score_lines[1].endswith("(Crawford)")
    assert '; [Crawford "On"]' in text
    read = parse_mat(text)
    assert [game.crawford for game in read.games] == [False, True]
    assert_same_series(match, read, log=without_ties)


def test_P2_a_crawford_mark_on_the_wrong_game_is_refused() -> None:
    text = mat_text(crawford_match()).replace("Ben : 0\n", "Ben : 0 (Crawford)\n", 1)
    with pytest.raises(RecordError, match=r"line 8: game 1 is marked as the Crawford game") as error:
        parse_mat(text)
    assert error.value.line == 8


def test_P2_P3_rules_without_crawford_or_with_holland_round_trip() -> None:
    for rules in (Rules(crawford=False), Rules(holland=True)):
        match = play_randomly(Match(3, rules, RandomDice(seed=3)), seed=3)
        text = mat_text(match)
        assert ('; [Crawford "Off"]' in text) is not rules.crawford
        assert ('; [Rules "holland=True"]' in text) is rules.holland
        assert_same_series(match, parse_mat(text), log=without_ties)


def test_C6_resignations_declined_in_the_middle_of_a_turn_round_trip() -> None:
    match = Match(5, dice=RandomDice(seed=6))
    game = match.new_game()
    advance(game, 2)
    game.roll()
    game.resign(WinKind.GAMMON)
    game.decline_resignation()
    game.play(game.turn.legal[-1])
    game.resign(WinKind.SINGLE)
    game.decline_resignation()
    game.double()
    game.take()
    text = mat_text(match)
    assert "Resigns gammon (declined)" in text
    assert "Resigns single (declined)" in text
    assert_same_series(match, parse_mat(text), log=without_ties)


@pytest.mark.parametrize("stop", ["rolled", "doubled", "resigned", "beavered"])
def test_an_unfinished_game_round_trips_and_plays_on_with_the_dice_given(stop: str) -> None:
    session = MoneySession(Rules(beavers=1), RandomDice(seed=9))
    game = session.new_game()
    advance(game, 3)
    if stop == "rolled":
        game.roll()
    elif stop == "resigned":
        game.resign(WinKind.GAMMON)
    else:
        game.double()
        if stop == "beavered":
            game.beaver()
            game.take()
    for read in (parse_mat(mat_text(session), dice=RandomDice(seed=1)), from_json(to_json(session))):
        assert_same_series(session, read, log=without_ties)
        replayed = read.games[-1]
        rng = random.Random(1)
        for _ in range(5):
            if not replayed.is_over:
                random_action(replayed, rng)  # the game goes on with new dice
        assert len(replayed.log) > len(game.log)


def test_a_match_with_no_games_yet_round_trips() -> None:
    match = Match(9, players=("Ann", "Ben"))
    for read in (parse_mat(mat_text(match)), from_json(to_json(match))):
        assert isinstance(read, Match)
        assert (read.length, read.players, read.games) == (9, ("Ann", "Ben"), [])


@pytest.mark.parametrize("variant", [NACKGAMMON, HYPERGAMMON])
def test_V4_V5_nackgammon_and_hypergammon_round_trip_with_gnubgs_variation_tag(variant: Variant) -> None:
    session = MoneySession(Rules(jacoby=True), RandomDice(seed=2), variant=variant)
    play_randomly(session, seed=2, games=2)
    text = mat_text(session)
    tag = "NackGammon" if variant is NACKGAMMON else "HyperGammon (3)"
    assert f'; [Variation "{tag}"]' in text
    read = parse_mat(text)
    assert read.variant is variant
    assert_same_series(session, read, log=without_ties)
    assert_same_series(session, from_json(to_json(session)))


@pytest.mark.parametrize("variant", [DUTCH, ACEY_DEUCEY, ACEY_DEUCEY.with_options(acey_deucey_roll=False)])
def test_V1_V2_dutch_and_acey_deucey_are_kept_in_json_and_refused_by_mat(variant: Variant) -> None:
    match = play_randomly(Match(3, dice=RandomDice(seed=4), variant=variant), seed=4, resign=0.0)
    with pytest.raises(RecordError, match=f"not {variant.name}: save it as JSON"):
        mat_text(match)
    read = from_json(json.loads(json.dumps(to_json(match))))
    assert read.variant == variant
    assert_same_series(match, read)
    if variant.acey_deucey_roll:
        chosen = [
            entry for game in match.games for entry in game.log if isinstance(entry.action, ChooseDouble)
        ]
        assert chosen  # the 1-2 came up, and the double chosen after it is in the record
        assert all(game.outcome and game.outcome.checkers_left for game in read.games)


@pytest.mark.parametrize("name", ["A: B", "A\tB", "A\x1cB", "A\x85B", "A\u2028B", "A\x00B", " A"])
def test_player_names_a_mat_file_cannot_hold_are_refused(name: str) -> None:
    with pytest.raises(RecordError, match=r"cannot be written to a \.mat file"):
        mat_text(Match(3, players=(name, "C")))


# --- files gnubg wrote -------------------------------------------------------------------


def test_a_match_gnubg_played_and_exported_replays_to_its_score() -> None:
    match = read_mat(DATA / "gnubg-5-point-match.mat")
    assert isinstance(match, Match)
    assert (match.length, match.players, match.score, match.winner) == (5, ("gnubg", "root"), (3, 5), 1)
    assert [game.crawford for game in match.games] == [False] * 5 + [True]  # root reached 4-3
    results = [(game.outcome.winner, game.outcome.points) for game in match.games if game.outcome]
    assert results == [(1, 1), (0, 2), (0, 1), (1, 1), (1, 2), (1, 1)]


def test_M3_M4_beavers_gnubg_wrote_replay_with_their_implied_takes() -> None:
    session = read_mat(DATA / "gnubg-money-beavers.mat")
    assert isinstance(session, MoneySession)
    assert session.rules == Rules(beavers=2)  # gnubg writes no rule tags: found from the file
    assert session.score.points == (18, -18)  # gnubg: "Ann 24, Ben 6"
    first = session.games[0]
    assert first.outcome is not None
    assert (first.outcome.winner, first.outcome.points) == (0, 24)
    assert first.cube.value == 8  # doubled, beavered, raccooned, taken
    assert not session.games[-1].is_over
    assert session.games[-1].phase is Phase.MOVE


# --- malformed files ---------------------------------------------------------------------

GOOD = """\
; [Player 1 "Ann"]

 3 point match

 Game 1
 Ann : 0                        Ben : 0
  1)                             31: 8/5 6/5
  2) 64: 24/18 13/9               Doubles => 2
  3)  Takes                      52: 13/8 13/11
  4)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Ann : 2                        Ben : 0 (Crawford)
  1) 43: 24/20 13/10             62: 24/18 13/11
"""


def test_the_good_example_reads() -> None:
    match = parse_mat(GOOD)
    assert isinstance(match, Match)
    assert match.score == (2, 0)
    assert match.games[1].crawford


@pytest.mark.parametrize(
    ("old", "new", "line", "says"),
    [
        (" 3 point match", " 3 points of a match", 3, "expected the match length"),
        ("; [Player 1", "[Player 1", 1, "expected the match length"),
        ("13/8 13/11", "13/8 13/12", 9, "13/8 13/12"),  # an impossible move
        ("64: 24/18", "74: 24/18", 8, "a die shows 1 to 6, not 7"),
        ("Ann : 2 ", "Ann : 1 ", 14, "the score before game 2 is 2-0"),
        ("Wins 2 points", "Wins 4 points", 11, "wins 2 points"),
        ("Drops", "Dropz", 10, "cannot read 'Dropz'"),
        ("Doubles => 4", "Doubles => 8", 10, "the cube goes to 4, not 8"),
        (" Game 2", " Game 3", 13, "expected game 2, not game 3"),
        ("Ben : 0 (Crawford)", "Bob : 0 (Crawford)", 14, "the players are 'Ann' and 'Ben'"),
        ("  1)                             31: 8/5 6/5", "  1) 31: 8/5 6/5", 8, "player 1's turn"),
        ("  1) 43: 24/20 13/10", "  1) 44: 24/20 13/10", 15, "an opening roll is never a double"),
        ("      Wins 2 points\n", "", 10, "'Wins' line is missing"),
        ("  3)  Takes ", "  3)  Drops ", 9, "game 1 is over"),
    ],
)
def test_malformed_mat_files_name_the_line(old: str, new: str, line: int, says: str) -> None:
    assert old in GOOD
    with pytest.raises(RecordError, match=f"line {line}: .*{re.escape(says)}") as error:
        parse_mat(GOOD.replace(old, new, 1))
    assert error.value.line == line


@pytest.mark.parametrize(("cut", "line"), [(" Game 2\n", 13), ("52: 13/8 13", 9), (" 3 po", 3), ("", 1)])
def test_a_truncated_mat_file_is_refused(cut: str, line: int) -> None:
    text = GOOD[: GOOD.index(cut) + len(cut)]
    with pytest.raises(RecordError, match=f"line {line}: ") as error:
        parse_mat(text)
    assert error.value.line == line


@pytest.mark.parametrize(
    ("gnubg", "other"),
    [
        ("64: 24/18 13/9", "64: 13/9 24/18"),  # in any order
        ("52: 13/8 13/11", "52: 13/11 13/8"),
        ("52: 13/8 13/11", "52: 13-8 13-11"),
        ("62: 24/18 13/11", "62: 24/18 13/11*"),  # a hit marked where there is none: refused below
    ],
)
def test_plays_written_as_other_programs_write_them_are_read(gnubg: str, other: str) -> None:
    text = GOOD.replace(gnubg, other, 1)
    if other.endswith("*"):
        with pytest.raises(RecordError, match=r"line 15: .*no single opposing checker on 11"):
            parse_mat(text)
        return
    assert [game.log for game in parse_mat(text).games] == [game.log for game in parse_mat(GOOD).games]


def test_doubles_bar_and_off_as_other_programs_write_them() -> None:
    match = Match(1, dice=RandomDice(seed=12))
    game = match.new_game()
    while not game.is_over:
        advance(game)
    text = mat_text(match)
    assert re.search(r"\b25/\d+", text)  # entering from the bar
    assert re.search(r"\b\d/0\b", text)  # bearing off
    other = re.sub(r"\b25/", "bar/", text)
    other = re.sub(r"\b(\d)/0\b", r"\1/off", other)
    assert other != text
    assert parse_mat(other).games[0].log == parse_mat(text).games[0].log


def test_read_mat_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.mat"
    path.write_text(GOOD.replace("64: 24/18", "74: 24/18"))
    with pytest.raises(RecordError, match=rf"{re.escape(str(path))}: line 8: "):
        read_mat(path)


def test_malformed_json_names_the_field(tmp_path: Path) -> None:
    data = to_json(crawford_match())
    log = data["games"][0]["log"]
    roll = next(number for number, entry in enumerate(log) if entry["action"] == "roll")
    play = next(number for number, entry in enumerate(log) if entry["action"] == "play")
    bad_die = json.loads(json.dumps(data))
    bad_die["games"][0]["log"][roll]["dice"] = [7, 1]
    bad_play = json.loads(json.dumps(data))
    bad_play["games"][0]["log"][play]["play"] = "24/1"
    bad_outcome = json.loads(json.dumps(data))
    bad_outcome["games"][1]["outcome"]["points"] = 3
    bad_score = json.loads(json.dumps(data))
    bad_score["score"] = [9, 9]
    for record, says in [
        (bad_die, f"games[0].log[{roll}].dice: two dice of 1 to 6, not [7, 1]"),
        (bad_play, f"games[0].log[{play}].play: "),
        (bad_outcome, "games[1].outcome: by the replay"),
        (bad_score, f"score: the games give {data['score']}, not [9, 9]"),
        ({**data, "format": "x"}, "format/version"),
        ({**data, "rules": {"beavers": 1}}, "match: beavers are for money play"),
        ({**data, "players": ["Ann"]}, "players: two names"),
        ([], "expected a JSON object"),
    ]:
        with pytest.raises(RecordError, match=re.escape(says)):
            from_json(record)
    path = tmp_path / "broken.json"
    path.write_text('{"format": ')
    with pytest.raises(RecordError, match=rf"{re.escape(str(path))}: not valid JSON: line 1"):
        read_json(path)


def spoilt_record(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """The JSON record of :func:`crawford_match`, changed by ``change``."""
    data = json.loads(json.dumps(to_json(crawford_match())))
    change(data)
    return data


def first_index(data: dict[str, Any], action: str) -> int:
    return next(number for number, entry in enumerate(data["games"][0]["log"]) if entry["action"] == action)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda data: data.update(length="3"), "length: '3' is not a whole number"),
        (lambda data: data.update(length=True), "length: True is not a whole number"),
        (lambda data: data.update(length=3.0), "length: 3.0 is not a whole number"),
        (lambda data: data.update(type="chess"), "type: 'match' or 'money', not 'chess'"),
        (lambda data: data.pop("type"), "the record: the field 'type' is missing"),
        (lambda data: data.update(players="Ann"), "players: two names, not 'Ann'"),
        (lambda data: data.update(players=["Ann", 2]), "players: two names, not ['Ann', 2]"),
        (lambda data: data.update(rules=[]), "rules: expected a JSON object, not list"),
        (lambda data: data["rules"].update(otters=1), "rules.otters: there is no such rule"),
        (lambda data: data["rules"].update(jacoby=1), "rules.jacoby: 1 is not bool"),
        (lambda data: data["rules"].update(beavers="1"), "rules.beavers: '1' is not a whole number"),
        (lambda data: data.update(variant={"name": 3}), "variant.name: 3 is not text"),
        (lambda data: data.update(type="money", stake="1"), "stake: '1' is not a whole number or a number"),
        (lambda data: data.update(score=["1", 0]), "score[0]: '1' is not a whole number or a number"),
        (lambda data: data.update(games={}), "games: {} is not a list"),
        (lambda data: data["games"].__setitem__(0, 3), "games[0]: expected a JSON object, not int"),
        (lambda data: data["games"][0].update(log={}), "games[0].log: {} is not a list"),
        (lambda data: data["games"][0].update(crawford="no"), "games[0].crawford: 'no' is not bool"),
        (
            lambda data: data["games"][0]["log"][0].update(player="0"),
            "games[0].log[0].player: players are 0 and 1, not '0'",
        ),
        (
            lambda data: data["games"][0]["log"][0].update(player=True),
            "games[0].log[0].player: players are 0 and 1, not True",
        ),
        (
            lambda data: data["games"][0]["log"][0].update(dice=[3, "1"]),
            "games[0].log[0].dice: two dice of 1 to 6, not [3, '1']",
        ),
        (lambda data: data["games"][0]["log"][0].pop("dice"), "games[0].log[0]: the field 'dice' is missing"),
        (
            lambda data: data["games"][0]["log"][first_index(data, "play")].update(play=13),
            "].play: 13 is not text",
        ),
        (
            lambda data: data["games"][0]["log"][1].update(action="fly"),
            "games[0].log[1].action: 'fly' is not one of opening_roll, roll, play,",
        ),
        (
            lambda data: data["games"][0]["log"][1].pop("action"),
            "games[0].log[1]: the field 'action' is missing",
        ),
        (
            lambda data: data["games"][0]["log"].__setitem__(1, "13/11"),
            "games[0].log[1]: expected a JSON object, not str",
        ),
        (
            lambda data: data["games"][0]["log"].append({"player": 0, "action": "resign", "kind": 2}),
            "].kind: single, gammon or backgammon, not 2",
        ),
    ],
)
def test_a_json_record_of_the_wrong_types_is_refused_naming_the_field(
    change: Callable[[dict[str, Any]], object], says: str
) -> None:
    data = spoilt_record(change)
    with pytest.raises(RecordError, match=re.escape(says)):
        from_json(data)


def test_load_and_save_choose_the_format_by_suffix(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"use \.mat, \.sgf or \.json"):
        save(crawford_match(), tmp_path / "match.txt")
    with pytest.raises(RecordError, match=r"use \.mat, \.sgf or \.json"):
        load(tmp_path / "match.pos")


# --- atomic writing ------------------------------------------------------------------------


@pytest.mark.parametrize("write", [write_mat, write_json])
def test_writing_is_atomic_a_failure_leaves_the_old_file_and_no_temporary(
    write: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.out"
    path.write_text("the old record\n")

    def fail(descriptor: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk full"):
        write(crawford_match(), path)  # type: ignore[operator]
    assert path.read_text() == "the old record\n"
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_series_mat_cannot_hold_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        write_mat(Match(3, players=("A:B", "C")), tmp_path / "match.mat")
    assert list(tmp_path.iterdir()) == []


# --- gnubg round trips ----------------------------------------------------------------------


def gnubg_scores(output: str) -> list[str]:
    return re.findall(r"The score \(after \d+ games?\) is: (.*?) \((?:match|money)", output)


def gnubg_totals(series: Series) -> str:
    """The score line gnubg shows: each player's points won, uncapped."""
    won = [0, 0]
    for game in series.games:
        if game.outcome is not None:
            won[game.outcome.winner] += game.outcome.points
    return f"{series.players[0]} {won[0]}, {series.players[1]} {won[1]}"


@pytest.fixture(scope="module")
def gnubg_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any] | None:
    """One gnubg process: it imports Tavola's files and exports them again, and plays on its own."""
    if not gnubg_available():
        return None  # the gnubg marker skips (or fails in CI)
    folder = tmp_path_factory.mktemp("gnubg")
    match = play_randomly(
        Match(5, dice=RandomDice(seed=21), players=("Ann Lee", "Ben")), seed=21, resign=0.02
    )
    session = money_session()
    variants = [
        play_randomly(Match(5, dice=RandomDice(seed=3), variant=variant), seed=3)
        for variant in (NACKGAMMON, HYPERGAMMON)
    ]
    write_mat(match, folder / "match.mat")
    write_mat(session, folder / "session.mat")
    for variant in variants:
        write_mat(variant, folder / f"{variant.variant.name}.mat")
    commands = [
        "set display off",
        "set confirm new off",
        "set confirm save off",
        f"import mat {folder / 'match.mat'}",
        "show score",
        f"export match mat {folder / 'match-again.mat'}",
        "set jacoby on",
        "set beavers 2",
        f"import mat {folder / 'session.mat'}",
        "show score",
        f"export match mat {folder / 'session-again.mat'}",
        *(
            command
            for variant in variants
            for command in (
                f"import mat {folder / variant.variant.name}.mat",
                "show score",
                f"export match mat {folder / variant.variant.name}-again.mat",
            )
        ),
        "set player 0 gnubg",
        "set player 1 gnubg",
        *(
            f"set player {player} {what} evaluation plies 0"
            for player in (0, 1)
            for what in ("chequerplay", "cubedecision")
        ),
        "set automatic game on",
        "set rng mersenne",
        "set seed 5",
        "new match 3",
        "show score",
        f"export match mat {folder / 'gnubg.mat'}",
        "set automatic game off",
        "new session",
        "new game",
        "show score",
        f"export match mat {folder / 'gnubg-session.mat'}",
        "quit",
    ]
    completed = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(folder)},
        cwd=folder,
        timeout=120,
        check=False,
    )
    scores = gnubg_scores(completed.stdout)
    assert len(scores) >= 6, f"gnubg (exit status {completed.returncode}):\n{completed.stdout[-3000:]}"
    return {"folder": folder, "match": match, "session": session, "variants": variants, "scores": scores}


def plays_and_cube(series: Series) -> list[list[Entry]]:
    """What gnubg keeps of a game: rolls, plays and cube actions (it drops 'Resigns' cells)."""
    kept = (OpeningRoll, Roll, Played, Double, Take, Drop, Beaver)
    return [
        [entry for entry in without_ties(game.log) if isinstance(entry.action, kept)] for game in series.games
    ]


@pytest.mark.gnubg
def test_a_match_tavola_wrote_imports_into_gnubg_with_the_same_moves_and_score(gnubg_run: dict) -> None:
    match = gnubg_run["match"]
    assert gnubg_run["scores"][0] == gnubg_totals(match)
    again = read_mat(gnubg_run["folder"] / "match-again.mat")
    assert plays_and_cube(again) == plays_and_cube(match)
    assert again.score == match.score
    assert again.is_over


@pytest.mark.gnubg
def test_M1_a_session_tavola_wrote_imports_into_gnubg_with_the_same_cube_and_score(gnubg_run: dict) -> None:
    session = gnubg_run["session"]
    assert gnubg_run["scores"][1] == gnubg_totals(session)
    again = read_mat(gnubg_run["folder"] / "session-again.mat")
    assert plays_and_cube(again) == plays_and_cube(session)
    assert again.score == session.score
    assert [game.cube for game in again.games] == [game.cube for game in session.games]


@pytest.mark.gnubg
def test_V4_V5_nackgammon_and_hypergammon_tavola_wrote_import_into_gnubg(gnubg_run: dict) -> None:
    for index, match in enumerate(gnubg_run["variants"], start=2):
        assert gnubg_run["scores"][index] == gnubg_totals(match)
        again = read_mat(gnubg_run["folder"] / f"{match.variant.name}-again.mat")
        assert again.variant is match.variant
        assert plays_and_cube(again) == plays_and_cube(match)


@pytest.mark.gnubg
def test_a_match_gnubg_plays_against_itself_replays_in_tavola_to_its_score(gnubg_run: dict) -> None:
    match = read_mat(gnubg_run["folder"] / "gnubg.mat")
    assert isinstance(match, Match)
    assert match.length == 3
    assert match.is_over
    assert gnubg_totals(match) in gnubg_run["scores"][4:]  # gnubg shows the score after every game


@pytest.mark.gnubg
def test_M1_a_session_gnubg_plays_against_itself_replays_in_tavola_to_its_score(gnubg_run: dict) -> None:
    session = read_mat(gnubg_run["folder"] / "gnubg-session.mat")
    assert isinstance(session, MoneySession)
    assert len(session.games) == 2
    assert gnubg_run["scores"][-1] == gnubg_totals(session)


# --- bad input: a RecordError naming where, never another error --------------------------------------

MONEY_HEADER = '; [Player 1 "Ann"]\n; [Player 2 "Ben"]\n; [Stake "{stake}"]\n\n 0 point match\n'


@pytest.mark.parametrize("stake", ["nan", "NaN", "inf", "-Infinity", "1e999", "0", "-2", "9" * 5000])
def test_M1_a_mat_stake_that_is_not_a_positive_finite_amount_is_refused_on_its_line(stake: str) -> None:
    with pytest.raises(RecordError, match=r"^line 3: the stake is ") as refused:
        parse_mat(MONEY_HEADER.format(stake=stake))
    assert refused.value.line == 3


def money_record(stake: str) -> str:
    return (
        '{"format": "tavola-record", "version": 1, "type": "money", "players": ["Ann", "Ben"], '
        f'"rules": {{}}, "games": [], "stake": {stake}}}'
    )


@pytest.mark.parametrize("stake", ["NaN", "Infinity", "-Infinity", "1e999", "0", "9" * 400])
def test_M1_a_json_stake_that_is_not_a_positive_finite_amount_is_refused_naming_the_field(
    tmp_path: Path, stake: str
) -> None:
    path = tmp_path / "money.json"
    path.write_text(money_record(stake))
    with pytest.raises(RecordError, match=r"money\.json: stake: "):
        load(path)
    with pytest.raises(RecordError, match=r"^stake: "):
        from_json(json.loads(money_record(stake)))


def test_a_json_record_is_written_as_strict_json(tmp_path: Path) -> None:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} written")

    path = tmp_path / "money.json"
    save(money_session(), path)
    assert json.loads(path.read_text(), parse_constant=refuse)["stake"] == money_session().stake


@pytest.mark.parametrize("value", ['"yes please"', "1", 'null, "extra": 1', "[true]"])
def test_V2_variant_options_in_a_json_record_are_type_checked(value: str) -> None:
    record = to_json(MoneySession(variant=ACEY_DEUCEY))
    text = json.dumps(record).replace('"acey_deucey_roll": true', f'"acey_deucey_roll": {value}')
    with pytest.raises(RecordError, match=r"^variant\."):
        from_json(json.loads(text))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("[" * 100_000 + "]" * 100_000, "nested too deeply", id="deep"),
        pytest.param('{"length": ' + "9" * 5000 + "}", "more than", id="5000-digits"),
        pytest.param(
            '{"format": "tavola-record", "version": 1, "type": "match", "players": ["a", "b"], '
            '"rules": {}, "games": [], "length": 99999999999999999999}',
            "length: a match is to 1 to 64 points",
            id="P1-20-digit-length",
        ),
        pytest.param(
            '{"format": "tavola-record", "version": 1, "type": "match", "players": ["a", "b"], '
            '"rules": {}, "games": [], "length": 1000000}',
            "length: a match is to 1 to 64 points",
            id="P1-million-points",
        ),
    ],
)
def test_json_records_that_would_kill_the_reader_are_refused(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=says):
        load(path)


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        pytest.param(f" {'9' * 5000} point match\n", 1, "expected the match length", id="5000-digit-length"),
        pytest.param(" 99999999999999999999 point match\n", 1, "a match is to 1 to 64", id="P1-20-digits"),
        pytest.param(" 1000000 point match\n", 1, "a match is to 1 to 64", id="P1-million-points"),
        pytest.param(f" 7 point match\n Game {'9' * 5000}\n", 2, "expected ' Game 1'", id="5000-digit-game"),
        pytest.param(
            f" 7 point match\n Game 1\n Ann : {'9' * 5000}   Ben : 0\n",
            3,
            "score line",
            id="5000-digit-score",
        ),
    ],
)
def test_mat_numbers_too_large_are_refused_on_their_line(text: str, line: int, says: str) -> None:
    with pytest.raises(RecordError, match=says) as refused:
        parse_mat(text)
    assert refused.value.line == line


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_mat_file_says_it_is_utf16(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "match.mat"
    path.write_text(mat_text(crawford_match()), encoding=encoding)
    with pytest.raises(RecordError, match="UTF-16"):
        load(path)
