"""The engine protocol, and a bot that only ever answers with legal plays and cube actions."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import dice
from tavola import Dice, Position
from tavola.bot.advice import PROBABILITY_NAMES
from tavola.bot.bearoff import default_database
from tavola.bot.context import CubeContext
from tavola.bot.cube import CubeAction
from tavola.bot.encode import INPUTS
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import Network
from tavola.bot.player import Bot
from tavola.cube import Cube
from tavola.matchrules import MAX_MATCH_LENGTH
from tavola.protocol import answer, read_request, serve
from tavola.rules import Rules
from tavola.sampling import random_positions

START = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def bot() -> Bot:
    net = Network.random([INPUTS, 16, 5], seed=1)
    return Bot(
        Evaluator(net, Network.random([INPUTS, 16, 5], seed=2), default_database()), level="expert", rng=1
    )


def ask(bot: Bot, request: dict) -> dict:
    return answer(bot, json.dumps(request))


def test_play_answers_a_legal_play_and_the_position_it_reaches(bot):
    reply = ask(bot, {"id": 1, "cmd": "play", "position": START, "dice": [6, 5]})
    assert reply["id"] == 1
    play = Position.start().parse_play(Dice(6, 5), reply["play"])
    assert reply["position_id"] == play.after.position_id()
    assert isinstance(reply["equity"], float)


def test_hint_ranks_every_legal_play(bot):
    reply = ask(bot, {"id": "h", "cmd": "hint", "position": START, "dice": [3, 1], "level": "advanced"})
    plays = reply["plays"]
    assert len(plays) == 16
    assert {entry["play"] for entry in plays} == {
        play.notation for play in Position.start().legal_plays(Dice(3, 1))
    }
    equities = [entry["equity"] for entry in plays]
    assert equities == sorted(equities, reverse=True)
    assert set(plays[0]["probabilities"]) == {
        "win",
        "win_gammon",
        "win_backgammon",
        "lose_gammon",
        "lose_backgammon",
    }


def test_evaluate_gives_probabilities_and_cubeless_and_cubeful_equity(bot):
    reply = ask(bot, {"id": 2, "cmd": "evaluate", "position": START})
    assert set(reply) == {"id", "probabilities", "cubeless_equity", "cubeful_equity"}
    in_match = ask(
        bot, {"id": 3, "cmd": "evaluate", "position": START, "match": {"length": 7, "score": [2, 4]}}
    )
    assert 0 <= in_match["match_winning_chance"] <= 1


def test_cube_answers_for_the_player_on_roll_and_for_the_doubled_player(bot):
    on_roll = ask(bot, {"id": 4, "cmd": "cube", "position": START, "cube": {"value": 2, "owner": "opponent"}})
    assert on_roll["action"].startswith("no redouble") or on_roll["action"].startswith("no double")
    doubled = ask(bot, {"id": 5, "cmd": "cube", "position": START, "doubled": True})
    assert doubled["action"] in {"take", "drop"}  # no beavers unless the rules allow them


def test_P2_no_double_in_the_crawford_game(bot):
    reply = ask(
        bot,
        {
            "id": 6,
            "cmd": "cube",
            "position": START,
            "match": {"length": 5, "score": [4, 2], "crawford": True},
        },
    )
    assert reply["action"].startswith("no double")


@pytest.mark.parametrize(
    ("request_text", "says"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"id": 1, "cmd": "fly", "position": "4HPwATDgc/ABMA"}', "cmd"),
        ('{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA"}', "dice"),
        ('{"id": 1, "cmd": "play", "position": "nonsense", "dice": [3, 1]}', "position"),
        ('{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [7, 1]}', "dice"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "cube": {"value": 3}}', "cube"),
        (
            '{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "match": {"length": 5, "score": [7, 1]}}',
            "match.score",
        ),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "rules": {"beavers": -1}}', "rules"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "rules": {"otters": 1}}', "rules"),
        (
            '{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [3, 1], "level": "godlike"}',
            "level",
        ),
        (
            '{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [3, 1], "variant": "chess"}',
            "variant",
        ),
        ('{"id": 1, "cmd": "play", "dice": [3, 1]}', "the field 'position' is missing"),
        ('{"id": 1, "position": "4HPwATDgc/ABMA"}', "the field 'cmd' is missing"),
        ('{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": [3, "1"]}', "dice: "),
        ('{"id": 1, "cmd": "play", "position": "4HPwATDgc/ABMA", "dice": "31"}', "dice: "),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "match": {"length": "7"}}', "match.length"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "match": {"length": true}}', "match.length"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "cube": {"value": true}}', "cube.value"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "rules": {"jacoby": 1}}', "rules.jacoby"),
        ('{"id": 1, "cmd": "cube", "position": "4HPwATDgc/ABMA", "doubled": 1}', "doubled"),
        ('{"id": 1, "cmd": "cube", "position": 5}', "position"),
    ],
)
def test_bad_requests_get_an_error_naming_the_problem(bot, request_text, says):
    reply = answer(bot, request_text)
    assert says in reply["error"]


class CountingBot(Bot):
    """A bot that counts the work it is asked to do."""

    calls = 0

    def hint(self, *arguments, **options):
        CountingBot.calls += 1
        return super().hint(*arguments, **options)

    def evaluate(self, *arguments, **options):
        CountingBot.calls += 1
        return super().evaluate(*arguments, **options)


def test_a_bad_request_gets_one_error_line_and_the_next_request_is_answered(bot):
    lines = [
        json.dumps({"id": 1, "cmd": "play", "position": START, "dice": [3, 1]}),
        json.dumps({"id": 2, "cmd": "play", "position": START, "dice": "31"}),
        "not json",
        "",
        json.dumps({"id": 4, "cmd": "evaluate", "position": START, "match": {"length": 7, "score": [7, 0]}}),
        json.dumps({"id": 5, "cmd": "evaluate", "position": START}),
    ]
    output = io.StringIO()
    failures = serve(bot, lines, output)
    replies = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [reply["id"] for reply in replies] == [1, 2, None, 4, 5]
    assert ["error" in reply for reply in replies] == [False, True, True, True, False]
    assert failures == 3
    assert replies[1]["error"].startswith("dice: ")
    assert replies[3]["error"].startswith("match.score: ")
    assert Position.start().parse_play(Dice(3, 1), replies[0]["play"])
    assert set(replies[4]["probabilities"]) == set(PROBABILITY_NAMES)


@pytest.mark.parametrize(
    "request_data",
    [
        {"cmd": "hint", "position": START, "dice": [3, 1], "level": "godlike"},
        {"cmd": "hint", "position": START, "dice": [3, 1], "rules": {"beavers": -1}},
        {"cmd": "evaluate", "position": START, "cube": {"value": 3}},
        {"cmd": "evaluate", "position": START, "match": {"length": 5, "crawford": True}},
    ],
)
def test_every_field_is_checked_before_the_bot_starts_work(request_data):
    counting = CountingBot(Evaluator.untrained(hidden=4, seed=1), level="advanced")
    CountingBot.calls = 0
    reply = answer(counting, json.dumps({"id": 8, **request_data}))
    assert set(reply) == {"id", "error"}
    assert CountingBot.calls == 0


def test_read_request_fills_in_the_defaults():
    request = read_request({"id": 9, "cmd": "evaluate", "position": START})
    assert (request.cube, request.match, request.variant.name, request.level) == (
        Cube(),
        None,
        "standard",
        None,
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), dice)
def test_the_bot_never_returns_an_illegal_play(bot, seed, roll):
    position = random_positions(1 + seed % 30, seed=seed)[-1]
    chosen = bot.play(position, roll, level="advanced")
    assert chosen.play in position.legal_plays(roll)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from([None, 0, 1]), st.sampled_from([1, 2, 4]))
def test_C2_the_bot_never_doubles_a_cube_it_does_not_own(bot, seed, owner, value):
    position = random_positions(1 + seed % 30, seed=seed)[-1]
    cube = Cube(value, owner)
    decision = bot.evaluate(position, CubeContext(0, cube, Rules()), level="advanced").cube
    if cube.owner == 1:
        assert decision.action is CubeAction.NO_DOUBLE
        assert decision.reason is not None


def test_the_engine_command_serves_line_by_line(tmp_path):
    Network.random([INPUTS, 8, 5], seed=1).save(tmp_path / "w.npz")
    Network.random([INPUTS, 8, 5], seed=2).save(tmp_path / "w-race.npz")
    lines = [
        json.dumps({"id": 1, "cmd": "play", "position": START, "dice": [3, 1]}),
        "garbage",
        json.dumps({"id": 3, "cmd": "evaluate", "position": START}),
    ]
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
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [reply.get("id") for reply in replies] == [1, None, 3]
    assert "error" in replies[1]
    assert "play" in replies[0]
    assert 0 <= replies[2]["probabilities"]["win"] <= 1
    assert -3 <= replies[2]["cubeless_equity"] <= 3
    assert result.returncode == 0


# --- requests that once killed the engine: one error line each, and the next line answered -----------

KILLERS = {
    "28-checker-tavola-id": {
        "cmd": "play",
        "position": "TVL=-----A-B-AAAA-AA-ACABBACC-:3:1:28",
        "dice": [1, 1],
    },
    "20-checker-tavola-id": {
        "cmd": "play",
        "position": "TVL=------A------------a------:0:0:20",
        "dice": [3, 1],
    },
    "P2-crawford-in-a-1-point-match": {
        "cmd": "evaluate",
        "position": START,
        "match": {"length": 1, "score": [0, 0], "crawford": True},
    },
    "P2-crawford-at-1-1-of-2": {
        "cmd": "cube",
        "position": START,
        "match": {"length": 2, "score": [1, 1], "crawford": True},
    },
    "P1-a-million-points": {"cmd": "evaluate", "position": START, "match": {"length": 1_000_000}},
    "P1-20-digit-length": {"cmd": "cube", "position": START, "match": {"length": 10**20}},
    "P1-longer-than-the-longest-match": {"cmd": "evaluate", "position": START, "match": {"length": 65}},
}
KILLER_LINES = {
    "deep-nesting": "[" * 100_000 + "]" * 100_000,
    "5000-digit-id": '{"id": ' + "7" * 5000 + ', "cmd": "evaluate", "position": "4HPwATDgc/ABMA"}',
    "nan-id": '{"id": NaN, "cmd": "evaluate", "position": "4HPwATDgc/ABMA"}',
    **{name: json.dumps({"id": name, **request}) for name, request in KILLERS.items()},
}


@pytest.mark.parametrize(("name", "line"), KILLER_LINES.items(), ids=KILLER_LINES.keys())
def test_a_request_that_killed_the_engine_gets_one_error_line_and_the_next_is_answered(bot, name, line):
    good = json.dumps({"id": "next", "cmd": "evaluate", "position": START})
    output = io.StringIO()
    assert serve(bot, [line, good], output) == 1
    first, second = (json.loads(text) for text in output.getvalue().splitlines())
    assert set(first) == {"id", "error"}
    assert first["id"] in (None, name)
    assert second["id"] == "next"
    assert "error" not in second


def test_P1_the_longest_match_is_answered_at_once(bot):
    reply = ask(bot, {"id": 1, "cmd": "cube", "position": START, "match": {"length": MAX_MATCH_LENGTH}})
    assert "error" not in reply
    crawford = {"length": MAX_MATCH_LENGTH, "score": [MAX_MATCH_LENGTH - 1, 0], "crawford": True}
    assert "error" not in ask(bot, {"id": 2, "cmd": "evaluate", "position": START, "match": crawford})


class FailingBot(Bot):
    """A bot that fails while it works, as a bug would."""

    def evaluate(self, *arguments, **options):
        raise RuntimeError("a bug")


def test_a_failure_while_the_bot_works_is_one_error_line_and_the_engine_goes_on():
    failing = FailingBot(Evaluator.untrained(hidden=4, seed=1), level="advanced")
    lines = [
        json.dumps({"id": 1, "cmd": "evaluate", "position": START}),
        json.dumps({"id": 2, "cmd": "play", "position": START, "dice": [3, 1]}),
    ]
    output = io.StringIO()
    assert serve(failing, lines, output) == 1
    first, second = (json.loads(text) for text in output.getvalue().splitlines())
    assert first == {"id": 1, "error": "internal error: RuntimeError: a bug"}
    assert "play" in second
