"""gnubg's SGF: files gnubg saved read as their ``.mat`` does, Tavola's round trips, bad files named.

The files in ``tests/data`` come from GNU Backgammon 1.07 (Debian's gnubg):

* ``gnubg-5-point-match.sgf``: ``import mat tests/data/gnubg-5-point-match.mat``, then ``save match``;
* ``gnubg-7-point-3-game-1-analysed.sgf``: ``import mat benchmarks/data/gnubg-7-point-3.mat``, then
  ``first game``, ``analyse game`` (chequer play and cube decisions at 0 plies) and ``save game``.

The tests that run gnubg itself are in ``test_sgf_gnubg.py``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tavola import WinKind
from tavola.actions import OpeningRoll, Played
from tavola.cli import main
from tavola.dicesource import RandomDice
from tavola.errors import RecordError
from tavola.game import Ending
from tavola.match import Match, MoneySession, Series
from tavola.records import (
    load,
    parse_mat,
    parse_sgf,
    read_mat,
    read_series,
    read_sgf,
    read_sgf_record,
    record_kind,
    save,
    sgf_text,
    write_sgf,
)
from tavola.records.gamereplay import Note
from tavola.records.sgf import parse_sgf_record
from tavola.rules import Rules
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, Variant
from terminal import Terminal
from test_records import (
    advance,
    as_mat_keeps,
    assert_same_series,
    money_session,
    play_randomly,
    random_action,
    without_ties,
)
from web_helpers import client_on, create, play_on, sit

DATA = Path(__file__).parent / "data"
GNUBG_SGF = DATA / "gnubg-5-point-match.sgf"
ANALYSED = DATA / "gnubg-7-point-3-game-1-analysed.sgf"


def as_sgf_keeps(series: Series) -> list[list[object]]:
    """Each game's log as SGF keeps it (as .mat does: no tied opening rolls, an automatic beaver merged)."""
    return [as_mat_keeps(game.log) for game in series.games]


# --- files gnubg saved --------------------------------------------------------------------------


def test_a_match_gnubg_saved_as_sgf_reads_as_its_mat_does() -> None:
    record = read_sgf_record(GNUBG_SGF)
    match, mat = record.series, read_mat(DATA / "gnubg-5-point-match.mat")
    assert isinstance(match, Match)
    assert (match.length, match.players, match.score, match.winner) == (5, ("gnubg", "root"), (3, 5), 1)
    assert as_sgf_keeps(match) == as_sgf_keeps(mat)
    assert [game.outcome for game in match.games] == [game.outcome for game in mat.games]
    assert [game.crawford for game in match.games] == [game.crawford for game in mat.games]
    assert record.date == "2026-11-21"


def test_an_analysed_sgf_reads_past_gnubgs_evaluations_marks_and_luck() -> None:
    text = ANALYSED.read_text(encoding="utf-8")
    assert all(f";{name}[" in text or f"]{name}[" in text for name in ("A", "DA", "BM", "LU", "MR", "GS"))
    match = read_sgf(ANALYSED)
    [game] = match.games
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.points, game.outcome.ending) == (0, 1, Ending.DROP)
    plays = [entry for entry in game.log if isinstance(entry.action, Played)]
    assert len(plays) == 9  # W[66mgmggaga] and B[66]: a double played, and one that could not be
    assert str(plays[1].action.play) == "13/7*/1* 13/1"  # hits are not written: the replay finds them


def test_comments_are_kept_where_they_were_made_and_written_back() -> None:
    text = GNUBG_SGF.read_text(encoding="utf-8")
    text = text.replace(";B[63aggj]", ";B[63aggj]C[why not 24/18 13/10\\]?]", 1)
    text = text.replace("RU[Crawford]RE[B+1]", "RU[Crawford]RE[B+1]C[the first game]", 1)
    record = parse_sgf_record(text)
    assert record.comments == (Note(0, 0, "the first game"), Note(0, 2, "why not 24/18 13/10]?"))
    again = parse_sgf_record(sgf_text(record.series, date=record.date, comments=record.comments))
    assert (again.comments, again.date) == (record.comments, "2026-11-21")


def test_a_node_with_only_a_comment_keeps_it_after_what_came_before() -> None:
    text = GNUBG_SGF.read_text(encoding="utf-8").replace(";W[65xrrm]", ";C[a pause]\n;W[65xrrm]", 1)
    assert parse_sgf_record(text).comments == (Note(0, 2, "a pause"),)  # after B's opening 6-3


def test_variations_are_read_past_the_main_line_is_the_game() -> None:
    text = GNUBG_SGF.read_text(encoding="utf-8")
    branched = text.replace(";W[drop])", ";W[drop](;B[61aggh])(;W[take]))", 1)
    assert branched != text
    with pytest.raises(RecordError, match="game 1 is over"):
        parse_sgf(branched)  # the first variation follows the drop: it is the game, and it is refused
    aside = text.replace(";B[double]\n;W[drop])", "(;B[double]\n;W[drop])(;B[double]\n;W[take]))", 1)
    assert as_sgf_keeps(parse_sgf(aside)) == as_sgf_keeps(parse_sgf(text))


# --- Tavola's round trips --------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_random_series_round_trip_through_sgf(seed: int) -> None:
    kinds: list[Series] = [
        Match(5, dice=RandomDice(seed=seed), players=("Ann Lee", "B]o")),
        MoneySession(Rules(jacoby=True, beavers=2), RandomDice(seed=seed), stake=2.5),
        MoneySession(Rules(automatic_beavers=True, beavers=1, holland=False), RandomDice(seed=seed)),
        Match(3, Rules(crawford=False, holland=True), RandomDice(seed=seed)),
    ]
    series = play_randomly(kinds[seed % 4], seed, games=3, resign=0.05, double=0.2)
    assert_same_series(series, parse_sgf(sgf_text(series)), log=as_mat_keeps)


def test_M1_M3_M4_M5_cube_actions_resignations_stake_and_rules_round_trip() -> None:
    session = money_session()
    text = sgf_text(session)
    assert "XR[jacoby=True, beavers=2]" in text
    assert "XS[2.5]" in text
    assert "XO[W:backgammon:declined]" in text or "XO[B:backgammon:declined]" in text
    read = parse_sgf(text)
    assert_same_series(session, read, log=without_ties)
    assert isinstance(read, MoneySession)
    assert read.stake == 2.5
    assert read.score == session.score


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
    assert_same_series(match, parse_sgf(sgf_text(match)), log=without_ties)


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
    read = parse_sgf(sgf_text(session), dice=RandomDice(seed=1))
    assert_same_series(session, read, log=without_ties)
    replayed, rng = read.games[-1], random.Random(1)
    for _ in range(5):
        if not replayed.is_over:
            random_action(replayed, rng)
    assert len(replayed.log) > len(game.log)


def test_every_state_of_random_games_round_trips_once_the_game_has_begun() -> None:
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        series = Match(3, dice=RandomDice(seed=seed)) if seed % 2 else MoneySession(Rules(beavers=2))
        series.dice = RandomDice(seed=seed)
        game = series.new_game()
        while not game.is_over:
            random_action(game, rng, resign=0.1, double=0.3)
            if all(isinstance(entry.action, OpeningRoll) for entry in game.log):
                continue  # only tied opening rolls: the game has not begun, and is not written
            assert_same_series(series, parse_sgf(sgf_text(series)), log=as_mat_keeps)
            checked += 1
    assert checked > 50


def test_a_game_not_begun_is_left_out_and_a_series_with_none_keeps_its_header() -> None:
    match = Match(9, players=("Ann", "Ben"))
    read = parse_sgf(sgf_text(match))
    assert isinstance(read, Match)
    assert (read.length, read.players, read.games) == (9, ("Ann", "Ben"), [])
    match.new_game()
    assert parse_sgf(sgf_text(match)).games == []


@pytest.mark.parametrize(("variant", "named"), [(NACKGAMMON, "Nackgammon"), (HYPERGAMMON, "Hypergammon3")])
def test_V4_V5_nackgammon_and_hypergammon_round_trip_named_as_gnubg_names_them(
    variant: Variant, named: str
) -> None:
    session = play_randomly(MoneySession(Rules(jacoby=True), RandomDice(seed=2), variant=variant), 2, games=2)
    text = sgf_text(session)
    assert f"RU[Jacoby:{named}]" in text
    read = parse_sgf(text)
    assert read.variant is variant
    assert_same_series(session, read, log=without_ties)


def test_P2_the_crawford_game_is_named_and_a_wrong_mark_is_refused() -> None:
    match = Match(2, dice=RandomDice(seed=5))
    play_randomly(match, 5)
    text = sgf_text(match)
    crawford = [index for index in range(len(match.games)) if match.is_crawford_game(index)]
    assert text.count("RU[Crawford:CrawfordGame]") == len(crawford)
    wrong = text.replace("RU[Crawford]", "RU[Crawford:CrawfordGame]", 1)
    with pytest.raises(RecordError, match=r"^line 1: game 1 is marked as the Crawford game, but it is not"):
        parse_sgf(wrong)


@pytest.mark.parametrize("variant", [DUTCH, ACEY_DEUCEY])
def test_V1_V2_dutch_and_acey_deucey_are_refused(variant: Variant) -> None:
    match = play_randomly(Match(3, dice=RandomDice(seed=4), variant=variant), seed=4, resign=0.0)
    with pytest.raises(RecordError, match=f"not {variant.name}: save it as JSON"):
        sgf_text(match)


def test_M2_M6_what_gnubg_would_count_otherwise_is_refused() -> None:
    tied = next(
        session
        for seed in range(100)
        for session in [MoneySession(Rules(automatic_doubles=1), RandomDice(seed=seed))]
        if session.new_game().roll() is None and session.games[0].cube.value == 2
    )
    with pytest.raises(RecordError, match="automatic doubles"):
        sgf_text(tied)
    single = MoneySession(Rules(gammons=False), RandomDice(seed=1))
    game = single.new_game()
    advance(game)
    game.resign(WinKind.GAMMON)
    game.accept_resignation()
    with pytest.raises(RecordError, match="no gammons"):
        sgf_text(single)


@pytest.mark.parametrize("name", ["A\tB", "A\x1cB", "A\u2028B", "A\x00B", " A"])
def test_player_names_an_sgf_file_cannot_hold_are_refused(name: str) -> None:
    with pytest.raises(RecordError, match=r"cannot be written to an SGF file"):
        sgf_text(Match(3, players=(name, "C")))


def test_load_save_and_the_commands_take_sgf_by_its_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_randomly(Match(3, dice=RandomDice(seed=3), players=("Ann", "Ben")), 3)
    save(match, tmp_path / "match.SGF")
    assert record_kind(tmp_path / "match.SGF") == "sgf"
    assert_same_series(match, load(tmp_path / "match.SGF"), log=without_ties)
    assert_same_series(match, read_series(tmp_path / "match.SGF"), log=without_ties)
    assert main(["match", str(tmp_path / "match.SGF"), "--json"]) == 0
    assert '"players": ["Ann", "Ben"]' in capsys.readouterr().out
    assert main(["match", str(GNUBG_SGF), "--to", str(tmp_path / "again.mat")]) == 0
    assert main(["match", str(tmp_path / "again.mat"), "--to", str(tmp_path / "again.sgf")]) == 0
    assert as_sgf_keeps(read_sgf(tmp_path / "again.sgf")) == as_sgf_keeps(read_sgf(GNUBG_SGF))


def test_tavola_match_from_sgf_to_sgf_keeps_the_date_and_the_comments(tmp_path: Path) -> None:
    text = GNUBG_SGF.read_text(encoding="utf-8").replace(";B[63aggj]", ";B[63aggj]C[a fine start]", 1)
    (tmp_path / "commented.sgf").write_text(text, encoding="utf-8")
    assert main(["match", str(tmp_path / "commented.sgf"), "--to", str(tmp_path / "copy.sgf")]) == 0
    copy = read_sgf_record(tmp_path / "copy.sgf")
    assert copy.comments == (Note(0, 2, "a fine start"),)
    assert copy.date == "2026-11-21"


def test_tavola_analyze_judges_an_analysed_sgf(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--level", "0-ply", "--json", str(ANALYSED)]) == 0
    analysis = capsys.readouterr().out
    assert '"players": [{"name": "Elena"' in analysis


def test_play_load_goes_on_with_an_sgf_file(tmp_path: Path) -> None:
    match = Match(3, dice=RandomDice(seed=8), players=("Ann", "Bo"))
    game = match.new_game()
    advance(game)
    game.double()
    game.drop()
    write_sgf(match, tmp_path / "match.sgf")
    terminal = Terminal(tmp_path, "--load", str(tmp_path / "match.sgf"), "--seed", "2")
    text = terminal.next_prompt()
    assert re.search(rf"Match to 3 · Ann {match.score[0]}, Bo {match.score[1]}", text)
    terminal.send("quit")
    assert terminal.finish() == 0


def test_a_tables_record_downloads_as_sgf_with_the_games_of_its_mat(tmp_path: Path) -> None:
    with client_on(tmp_path / "server.sqlite3") as client:
        table = create(client, {"kind": "game", "series": "single", "seats": [{}, {}]})
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
        sgf = client.get(f"/api/tables/{table}/record.sgf")
        mat = client.get(f"/api/tables/{table}/record.mat")
    assert sgf.status_code == 200
    assert sgf.headers["content-disposition"].startswith("attachment")
    assert f"tavola-{table}.sgf" in sgf.headers["content-disposition"]
    read = parse_sgf(sgf.text)
    assert read.players == ("Ann", "Bob")
    assert as_sgf_keeps(read) == as_sgf_keeps(parse_mat(mat.text))


# --- bad files: a RecordError naming the line (or the byte), never another error ----------------

GOOD = GNUBG_SGF.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("GM[6]", "GM[1]", r"^line 1: GM\[1\]: expected GM\[6\], a game of backgammon"),
        ("GM[6]", "", r"^line 1: no GM property: expected GM\[6\]"),
        (
            "RU[Crawford]RE[B+1]",
            "RU[Crawford:Otters]RE[B+1]",
            r"^line 1: RU: Tavola does not know the rule 'Otters'",
        ),
        ("RU[Crawford]RE[B+1]", "RU[Crawford:Hypergammon2]RE[B+1]", r"rule 'Hypergammon2'"),
        ("RE[B+1]", "RE[B wins]", r"^line 1: RE\[B wins\]: expected the winner and the points"),
        ("RE[B+1]", "RE[W+1]", r"^line 1: 'RE\[W\+1\]': by the replay, root wins 1 point \(a drop\)"),
        (
            "RE[B+1]",
            "RE[B+1R]",
            r"^line 1: RE: the result says a resignation \(R\), but the game ended otherwise",
        ),
        (
            "[ws:0][bs:1]",
            "[ws:1][bs:0]",
            r"^line 24: the score before game 2 is 0-1 by the games before it, not 1-0",
        ),
        (
            "MI[length:5][game:0]",
            "MI[length:five][game:0]",
            r"^line 1: MI: expected a whole number, not 'five'",
        ),
        (";B[63aggj]", ";B[63agga]", r"^line 2: 'B\[63agga\]': "),
        (";B[63aggj]", ";B[73aggj]", r"^line 2: B\[73aggj\]: expected a roll and its moves"),
        (";B[63aggj]", ";B[resign]", r"^line 2: B\[resign\]: expected a roll"),
        (";B[63aggj]", ";B[63aggj]W[65xrrm]", r"^line 2: a node holds one player's move, not both W and B"),
        (";B[63aggj]", ";AB[a][b]", r"^line 2: AB\[...\] sets up a position"),
        (";W[65xrrm]", ";CP[b]", r"^line 3: CP\[...\] sets up a position"),
        (";W[65xrrm]", ";CV[2]", r"^line 3: CV\[...\] sets up a position"),
        (
            "RU[Crawford]RE[B+1]",
            "RU[Crawford]CV[4]RE[B+1]",
            r"^line 1: CV\[4\]: the game starts with the cube at 4 \(gnubg's automatic doubles\)",
        ),
        (
            "RU[Crawford]RE[B+1]",
            "RU[Crawford:Nackgammon:Hypergammon3]RE[B+1]",
            r"^line 1: RU names two variants, Nackgammon and Hypergammon3: a game is played as one",
        ),
        (";B[63aggj]", ";PL[B]DI[7]", r"^line 2: DI\[7\]: expected dice such as DI\[52\]"),
        (";B[63aggj]", ";XO[B:everything]", r"^line 2: XO\[B:everything\]: expected who resigns and what"),
        (";B[double]\n;W[drop])", ";W[double]\n;B[drop])", r"^line 22: 'W\[double\]': it is player 1's turn"),
        ("PB[root]", "PB[Rooted]", r"^line 24: the players are 'gnubg' and 'Rooted', not 'gnubg' and 'root'"),
        (";W[drop])", ";W[drop]", r"^line 1, column 1: this game tree is not closed by '\)'"),
        ("(;FF[4]", "x(;FF[4]", r"^line 1, column 1: expected '\(', ';', '\)'"),
        (
            "RU[Crawford]RE[B+1]",
            "RU[Crawford]RE[B+1]XR[otters=1]",
            r"^line 1: the \[Rules\] tag names no rule",
        ),
    ],
)
def test_malformed_sgf_files_name_the_line(old: str, new: str, says: str) -> None:
    assert old in GOOD
    with pytest.raises(RecordError, match=says):
        parse_sgf(GOOD.replace(old, new, 1))


def test_a_file_cut_short_in_a_value_names_where_the_value_starts() -> None:
    lines = GOOD.count("\n")
    with pytest.raises(RecordError, match=rf"^line {lines + 1}, column 9: a value in \[ \] is not closed"):
        parse_sgf(GOOD + "(;GM[6]C[cut sho")


def test_read_sgf_names_the_file_and_refuses_utf16_and_unknown_character_sets(tmp_path: Path) -> None:
    path = tmp_path / "match.sgf"
    path.write_text(GOOD.replace("RE[B+1]", "RE[B+9]", 1), encoding="utf-8")
    with pytest.raises(RecordError, match=rf"^{re.escape(str(path))}: line 1: 'RE\[B\+9\]'"):
        read_sgf(path)
    path.write_text(GOOD, encoding="utf-16")
    with pytest.raises(RecordError, match="UTF-16"):
        read_sgf(path)
    path.write_bytes(GOOD.replace("CA[UTF-8]", "CA[KLINGON-7]").encode())
    with pytest.raises(RecordError, match=r"CA\[KLINGON-7\]: no character set Tavola knows"):
        read_sgf(path)
    path.write_bytes(GOOD.encode().replace(b"PW[gnubg]", b"PW[gn\xffbg]"))
    with pytest.raises(RecordError, match=r"byte \d+: not UTF-8 text, as CA\[UTF-8\] says"):
        read_sgf(path)
    path.write_bytes(GOOD.replace("CA[UTF-8]", "").replace("gnubg", "gnübg").encode("latin-1"))
    assert read_sgf(path).players == ("gnübg", "root")


def test_a_root_cv_of_1_is_the_cube_every_game_starts_with() -> None:
    assert parse_sgf(GOOD.replace("RU[Crawford]RE[B+1]", "RU[Crawford]CV[1]RE[B+1]", 1)).score == (
        parse_sgf(GOOD).score
    )


@pytest.mark.parametrize("order", ["Nackgammon:Hypergammon3", "Hypergammon3:Nackgammon"])
def test_two_variants_in_one_ru_are_refused_whatever_the_order(order: str) -> None:
    session = play_randomly(MoneySession(dice=RandomDice(seed=4), variant=NACKGAMMON), 1, games=1)
    text = sgf_text(session).replace("RU[Nackgammon]", f"RU[{order}]")
    assert order in text
    first, second = order.split(":")
    with pytest.raises(RecordError, match=rf"^line 1: RU names two variants, {first} and {second}"):
        parse_sgf(text)


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_errors_name_the_line_whatever_ends_the_lines(end: str) -> None:
    text = GOOD.replace("\n", end)
    assert parse_sgf(text).score == parse_sgf(GOOD).score
    with pytest.raises(RecordError, match=r"^line 3: 'W\[65xrrx\]': "):
        parse_sgf(text.replace(";W[65xrrm]", ";W[65xrrx]", 1))
    with pytest.raises(RecordError, match=r"^line 4, column 1: expected '\(', ';', '\)'"):
        parse_sgf(text.replace(";B[11jkklstst]", "!B[11jkklstst]", 1))
