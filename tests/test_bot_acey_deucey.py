"""The bot in Acey-Deucey's turns that go on (V2): a 1-2 judged by the double chosen next, a chosen double
played in full by the same player's roll, the choice of the double, and the hints that show them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from tavola import Dice, Position
from tavola.actions import ChooseDouble, Played
from tavola.analysis.judge import judge_move
from tavola.bot.actor import choose_action
from tavola.bot.context import money
from tavola.bot.continuation import AGAIN, double_choices
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import flip_probabilities
from tavola.bot.player import Bot, Choice
from tavola.bot.search import evaluate_ply
from tavola.console.session import PlaySession, Seat
from tavola.console.view import double_hint_table, hint_table
from tavola.dicesource import ManualDice
from tavola.errors import TavolaError
from tavola.game import Game, Phase
from tavola.match import MoneySession
from tavola.position import flip_array
from tavola.protocol import answer
from tavola.rules import Rules
from tavola.sampling import random_positions
from tavola.variants import ACEY_DEUCEY
from test_console_flow import Script, run
from web_helpers import auth, client_on, create, play_on, sit, state

UNTRAINED = Evaluator.untrained(hidden=8, seed=5)
JUDGE = UNTRAINED.for_variant(ACEY_DEUCEY)


def mover_value(board: np.ndarray, mover_on_roll: bool, plies: int) -> np.ndarray:
    """The probabilities of ``board`` (seen by the mover) for the mover, judged independently at ``plies``."""
    if mover_on_roll:
        return evaluate_ply(JUDGE, board[None], plies)[0]
    return flip_probabilities(evaluate_ply(JUDGE, flip_array(board[None]), plies))[0]


def continuation_value(after: Position, plies: int) -> tuple[np.ndarray, float]:
    """The best double's best play after ``after`` (a 1-2 played in full), found at 0-ply by
    ``double_choices``, valued at ``plies``: the probabilities and equity for the mover."""
    choices = double_choices(JUDGE, after.to_array()[None])
    row = int(choices.best()[0])
    probabilities = mover_value(choices.results[row], bool(choices.kinds[row] == AGAIN), plies)
    return probabilities, float(JUDGE.equity(probabilities[None])[0])


def chosen_double_game(first: str = "in/24 in/23") -> Game:
    """A game of Acey-Deucey whose player 0 has just played ``first`` with a 2-1: the double is to choose."""
    game = Game(
        dice=ManualDice([Dice(2, 1)]), position=ACEY_DEUCEY.start, player_on_roll=0, variant=ACEY_DEUCEY
    )
    game.roll()
    game.play(first)
    return game


@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_V2_every_play_of_the_opening_1_2_is_judged_by_the_double_chosen_after_it(level: str) -> None:
    bot = Bot(UNTRAINED, level=level)
    ranked = bot.hint(ACEY_DEUCEY.start, Dice(2, 1), money(ACEY_DEUCEY))
    assert {choice.play.notation for choice in ranked} == {"in/24 in/23", "in/22"}  # both use both dice
    for choice in ranked:
        probabilities, equity = continuation_value(choice.play.after, choice.plies)
        assert choice.equity == pytest.approx(equity, abs=1e-5)
        assert np.allclose(choice.probabilities, probabilities, atol=1e-6)
        opponent_next = flip_probabilities(JUDGE.evaluate(flip_array(choice.play.after.to_array()[None])))
        assert choice.equity != pytest.approx(float(JUDGE.equity(opponent_next)[0]), abs=1e-3)
    assert ranked[0].equity >= ranked[1].equity or ranked[0].plies > ranked[1].plies
    assert bot.play(ACEY_DEUCEY.start, Dice(2, 1), money(ACEY_DEUCEY)).play == ranked[0].play


def test_V2_a_1_2_with_a_die_left_unplayed_and_a_rolled_double_are_followed_by_the_opponents_roll() -> None:
    bot = Bot(UNTRAINED, level="advanced")
    for dice in (Dice(5, 5), Dice(2, 1)):
        for position in random_positions(30, seed=7, variant=ACEY_DEUCEY):
            plays = position.legal_plays(dice, ACEY_DEUCEY)
            if dice == Dice(2, 1) and all(len(play.moves) == 2 for play in plays):
                continue
            for choice in bot.hint(position, dice, money(ACEY_DEUCEY), legal=plays):
                if dice == Dice(2, 1) and len(choice.play.moves) == 2:
                    continue
                expected = mover_value(choice.play.after.to_array(), False, 0)
                assert np.allclose(choice.probabilities, expected, atol=1e-6)


@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_V2_a_chosen_double_played_in_full_is_judged_with_its_player_on_roll_again(level: str) -> None:
    bot = Bot(UNTRAINED, level=level)
    full = short = 0
    board = [0] * 24
    board[23], board[12], board[17], board[11] = 14, 1, -2, -13  # the 24 blocked: only 13/7/1 moves
    blocked = Position(board)
    for position in [blocked, *random_positions(20, seed=11, variant=ACEY_DEUCEY)]:
        for choice in bot.hint(position, Dice(6, 6), money(ACEY_DEUCEY), chosen_double=True):
            all_four = len(choice.play.moves) == 4 and choice.play.after.result() is None
            full, short = full + all_four, short + (not all_four)
            expected = mover_value(choice.play.after.to_array(), all_four, choice.plies)
            assert np.allclose(choice.probabilities, expected, atol=1e-6)
    assert full, "no play of all four 6s"
    assert short, "no play of fewer than four 6s"


def test_V2_the_same_double_rolled_is_judged_by_the_opponents_roll() -> None:
    bot = Bot(UNTRAINED, level="advanced")
    rolled = bot.hint(ACEY_DEUCEY.start, Dice(5, 5), money(ACEY_DEUCEY))
    chosen = bot.hint(ACEY_DEUCEY.start, Dice(5, 5), money(ACEY_DEUCEY), chosen_double=True)
    by_play = {choice.play.notation: choice for choice in rolled}
    for choice in chosen:
        assert choice.equity == pytest.approx(
            float(JUDGE.equity(mover_value(choice.play.after.to_array(), True, 0)[None])[0]), abs=1e-5
        )
        assert choice.equity != pytest.approx(by_play[choice.play.notation].equity, abs=1e-3)


@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_V2_the_double_hint_lists_the_six_doubles_best_first_each_by_its_best_play(level: str) -> None:
    bot = Bot(UNTRAINED, level=level)
    after = chosen_double_game().position
    doubles = bot.double_hint(after, ACEY_DEUCEY)
    assert sorted(choice.play.dice for choice in doubles) == [Dice(n, n) for n in range(1, 7)]
    assert all(choice.plies == doubles[0].plies for choice in doubles)
    equities = [choice.equity for choice in doubles]
    assert equities == sorted(equities, reverse=True)
    for choice in doubles:
        best = bot.hint(after, choice.play.dice, money(ACEY_DEUCEY), chosen_double=True)[0]
        assert (choice.play, choice.equity, choice.plies) == (
            best.play,
            pytest.approx(best.equity),
            best.plies,
        )
    if level == "advanced":  # at 0-ply the continuation a 1-2 is judged by is the double hint's first
        assert doubles[0].equity == pytest.approx(continuation_value(after, 0)[1], abs=1e-5)


def test_V2_a_double_hint_is_only_for_a_variant_with_the_acey_deucey_roll() -> None:
    with pytest.raises(TavolaError, match="no double to choose"):
        Bot(UNTRAINED).double_hint(Position.start(), ACEY_DEUCEY.with_options(acey_deucey_roll=False))


def test_V2_the_bot_chooses_the_double_its_hint_ranks_first_and_plays_it_with_its_roll_again_in_view() -> (
    None
):
    bot = Bot(UNTRAINED, level="expert")
    game = chosen_double_game()
    assert game.phase is Phase.CHOOSE_DOUBLE
    best = bot.double_hint(game.position, ACEY_DEUCEY)[0]
    action = choose_action(bot, game)
    assert action == ChooseDouble(best.play.dice.high)
    game.apply(action)
    played = choose_action(bot, game)
    assert isinstance(played, Played)
    turn = game.turn
    assert turn is not None
    assert (
        played.play
        == bot.play(turn.start, turn.dice, money(ACEY_DEUCEY), chosen_double=True).play
        == best.play
    )


def test_V2_the_game_says_when_the_turn_is_the_double_chosen_after_a_1_2() -> None:
    game = Game(
        dice=ManualDice([Dice(2, 1), Dice(6, 5)]),
        position=ACEY_DEUCEY.start,
        player_on_roll=0,
        variant=ACEY_DEUCEY,
    )
    game.roll()
    assert not game.playing_chosen_double  # the 1-2 itself
    game.play("in/24 in/23")
    assert game.phase is Phase.CHOOSE_DOUBLE
    assert not game.playing_chosen_double
    game.choose_double(5)
    assert game.phase is Phase.MOVE
    assert game.playing_chosen_double
    game.play("in/20(4)")
    assert game.phase is Phase.ROLL  # all four played: the same player rolls
    assert game.player_on_roll == 0
    assert not game.playing_chosen_double
    game.roll()
    assert game.dice == Dice(6, 5)
    assert not game.playing_chosen_double
    with pytest.raises(AttributeError):
        game.playing_chosen_double = True  # type: ignore[misc]


def rendered(table: object) -> str:
    output = io.StringIO()
    Console(file=output, width=140, highlight=False, markup=False).print(table)
    return output.getvalue()


def test_V2_the_acey_deucey_hint_shows_the_checkers_expected_not_gammon_chances() -> None:
    bot = Bot(UNTRAINED, level="advanced")
    ranked = bot.hint(ACEY_DEUCEY.start, Dice(2, 1), money(ACEY_DEUCEY))
    shown = rendered(hint_table(ranked))
    assert "Checkers won" in shown
    assert "Checkers lost" in shown
    assert "Gammon" not in shown
    assert "gammon" not in shown
    won, lost = ranked[0].expected_checkers or (0.0, 0.0)
    assert won - lost == pytest.approx(ranked[0].equity, abs=1e-5)
    assert f"{won:.2f}" in shown
    assert f"{lost:.2f}" in shown
    standard = rendered(hint_table(bot.hint(Position.start(), Dice(3, 1))))
    assert "Lose gammon" in standard
    assert "Checkers" not in standard


def test_V2_the_double_hint_table_shows_each_double_with_its_best_play() -> None:
    doubles = Bot(UNTRAINED, level="advanced").double_hint(chosen_double_game().position, ACEY_DEUCEY)
    shown = rendered(double_hint_table(doubles))
    assert "Double to play" in shown
    assert "Checkers won" in shown
    first_row = next(line for line in shown.splitlines() if line.strip().startswith("│ 1 "))
    assert f"{doubles[0].play.dice.high}-{doubles[0].play.dice.high}" in first_row
    assert str(doubles[0].play.notation) in first_row


def test_V2_a_hint_in_the_terminal_while_the_double_is_chosen_ranks_the_six_doubles() -> None:
    dice = ManualDice()
    dice.enter_opening(2, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"), variant=ACEY_DEUCEY)
    session = PlaySession(series, (Seat("Ann"), Seat("Bo")), dice_kind="manual", manual_dice=dice)
    script = Script(
        [
            (r"Ann \(2-1\): your move", "in/24 in/23"),
            (r"choose the double to play", "hint"),
            (r"choose the double to play", "6"),
            (r"Ann \(6-6\): your move", "hint"),
            (r"Ann \(6-6\): your move", "in/19(4)"),
        ]
    )
    text = run(session, script)
    choosing = text[text.index("Hint") : text.index("Ann chooses double 6s.")]
    assert "Double to play" in choosing
    for number in range(1, 7):
        assert f"{number}-{number}" in choosing
    playing = text[text.index("Ann chooses double 6s.") :]
    assert "Hint" in playing
    assert "in/19(4)" in playing
    assert "Checkers won" in playing
    assert "gammon" not in text.lower()


def test_V2_the_engine_ranks_the_doubles_and_judges_a_chosen_double_on_request() -> None:
    bot = Bot(UNTRAINED, level="advanced")
    after = chosen_double_game().position
    position = after.tavola_id()
    reply = answer(
        bot, json.dumps({"id": 3, "cmd": "doubles", "position": position, "variant": "acey-deucey"})
    )
    expected = bot.double_hint(after, ACEY_DEUCEY)
    assert [row["double"] for row in reply["doubles"]] == [choice.play.dice.high for choice in expected]
    first = reply["doubles"][0]
    assert first["play"] == expected[0].play.notation
    assert first["equity"] == round(expected[0].equity, 4)
    won, lost = first["expected_checkers"]["won"], first["expected_checkers"]["lost"]
    assert won - lost == pytest.approx(first["equity"], abs=1e-3)
    request = {"id": 4, "cmd": "hint", "position": position, "variant": "acey-deucey", "dice": [6, 6]}
    chosen = answer(bot, json.dumps({**request, "chosen_double": True}))["plays"]
    rolled = answer(bot, json.dumps(request))["plays"]
    sixes = next(row for row in reply["doubles"] if row["double"] == 6)
    assert (chosen[0]["play"], chosen[0]["equity"]) == (sixes["play"], sixes["equity"])
    assert [row["equity"] for row in chosen] != [row["equity"] for row in rolled]
    refused = answer(bot, json.dumps({"id": 5, "cmd": "doubles", "position": Position.start().position_id()}))
    assert refused == {
        "id": 5,
        "error": "variant: a double is chosen only after Acey-Deucey's 1-2 (V2), not in standard",
    }


def test_V2_a_choice_knows_the_checkers_it_expects_only_where_the_loser_pays_per_checker() -> None:
    play = ACEY_DEUCEY.start.legal_plays(Dice(6, 5), ACEY_DEUCEY)[0]
    assert Choice(play, (1.0, 1.0, 0.0, 0.0, 0.0), 15.0, 0).expected_checkers == (15.0, 0.0)
    assert Choice(play, (0.0, 0.0, 0.0, 0.0, 0.0), -1.0, 0).expected_checkers == (0.0, 1.0)


def test_V2_the_web_hint_while_the_double_is_chosen_ranks_the_six_doubles(tmp_path: Path) -> None:
    with client_on(tmp_path / "server.sqlite3") as client:
        for _attempt in range(6):  # a 1-2 comes in nearly every game; each try is a new game
            options = {
                "kind": "game",
                "series": "single",
                "variant": "acey-deucey",
                "hints": True,
                "seats": [{}, {}],
            }
            table = create(client, options)
            tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
            play_on(
                client,
                table,
                tokens,
                lambda seen: seen["status"] != "live" or seen["game"]["phase"] == "choose-double",
            )
            seen = state(client, table)
            if seen["status"] == "live":
                break
        assert seen["game"]["phase"] == "choose-double"
        chooser = seen["to_act"][0]
        hint = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[chooser]))
        assert hint.status_code == 200, hint.text
        doubles = hint.json()["doubles"]
        assert sorted(row["double"] for row in doubles) == [1, 2, 3, 4, 5, 6]
        equities = [row["equity"] for row in doubles]
        assert equities == sorted(equities, reverse=True)
        legal = state(client, table, tokens[chooser])["legal_actions"]
        assert {"action": "choose_double", "number": doubles[0]["double"]} in legal


@pytest.mark.parametrize("level", ["0-ply", "1-ply"])
def test_V2_the_analysis_judges_a_1_2_and_a_chosen_double_as_the_bot_does(level: str) -> None:
    plies = int(level[0])
    bot = Bot(UNTRAINED, level={0: "advanced", 1: "expert"}[plies])
    no_cube = Rules(cube=False)  # so the analysis's values are the cubeless equities the hint gives
    opening, chosen = (
        Game(
            no_cube,
            ManualDice([Dice(2, 1)]),
            position=ACEY_DEUCEY.start,
            player_on_roll=0,
            variant=ACEY_DEUCEY,
        )
        for _ in range(2)
    )
    for game in (opening, chosen):
        game.roll()
    chosen.play("in/24 in/23")
    chosen.choose_double(6)
    for game, hinted in (
        (opening, bot.hint(ACEY_DEUCEY.start, Dice(2, 1), money(ACEY_DEUCEY))),
        (chosen, bot.hint(chosen.position, Dice(6, 6), money(ACEY_DEUCEY), chosen_double=True)),
    ):
        decision = judge_move(game, hinted[-1].play, level=level, evaluator=UNTRAINED)
        assert decision.best == hinted[0].play.notation
        values = {alternative.text: alternative.equity for alternative in decision.alternatives}
        for choice in hinted:
            if choice.play.notation in values and choice.plies == plies:
                assert values[choice.play.notation] == pytest.approx(choice.equity, abs=1e-5)
