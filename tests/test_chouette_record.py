"""A chouette session saved as JSON and replayed through the rules on load (H10)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from builders import position
from tavola.chouette import Chouette, ChouetteGame, ChouetteSettings, CubeMode, Phase, Side
from tavola.chouette.record import VERSION
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import RecordError
from tavola.records.formats import CHOUETTE_FORMAT
from tavola.rules import Rules

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def first_play(game: ChouetteGame) -> None:
    """The roller plays the first legal play of the roll."""
    assert game.turn is not None
    roller = game.roller
    assert roller is not None
    game.play(roller, game.turn.legal[0])


def rich_session(rng: random.Random | None = None) -> Chouette:
    """Two games: one over, with drops, a new captain and a new box; one in progress after a take."""
    settings = ChouetteSettings(cubes=CubeMode.SINGLE, rules=Rules(beavers=1, automatic_doubles=1), stake=2.5)
    session = Chouette(settings, RandomDice(rng=rng or random.Random(21)), players=NAMES[:4])
    game = session.start_game()
    while game.phase is Phase.OPENING:
        game.roll(game.box)
    first_play(game)
    if game.side_on_roll is Side.TEAM:
        game.roll(game.captain)
        first_play(game)
    game.double(game.box)
    captain, *others = game.team
    game.drop(captain)
    game.take(others[0])
    for member in others[1:]:
        game.drop(member)
    game.roll(game.box)
    first_play(game)
    game.double(game.captain)
    game.drop(game.box)
    assert game.is_over
    session.join("Eve")
    game = session.start_game()
    while game.phase is Phase.OPENING:
        game.roll(game.captain)
    first_play(game)
    game.roll(game.roller)
    if game.side_on_roll is Side.TEAM:
        game.suggest(game.team[1], game.turn.legal[-1])
    first_play(game)
    return session


def test_H10_a_session_saved_mid_game_loads_to_the_same_state_and_plays_on_alike(tmp_path):
    rng = random.Random(21)
    session = rich_session(rng)
    path = tmp_path / "chouette.json"
    session.save(path)
    same_rolls = random.Random()
    same_rolls.setstate(rng.getstate())
    loaded = Chouette.load(path, dice=RandomDice(rng=same_rolls))
    assert loaded.to_json() == session.to_json()
    assert loaded.ledger.totals == session.ledger.totals
    assert loaded.seating == session.seating
    assert loaded.game.legal_actions() == session.game.legal_actions()
    for game in (session.game, loaded.game):
        while not game.is_over:
            if game.phase is Phase.MOVE:
                first_play(game)
            else:
                game.apply(game.legal_actions()[-1])  # roll, or drop
    assert loaded.game.settlement == session.game.settlement
    assert loaded.to_json() == session.to_json()


def test_the_file_holds_one_log_entry_a_line_and_is_replaced_whole(tmp_path):
    session = rich_session()
    path = tmp_path / "chouette.json"
    path.write_text("old", encoding="utf-8")
    session.save(path)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["format"] == CHOUETTE_FORMAT
    assert text.count("\n") > len(session.log)
    assert list(tmp_path.iterdir()) == [path]


def test_a_set_up_game_and_a_drawn_partner_round_trip():
    dice = ManualDice()
    session = Chouette(ChouetteSettings(box_partner_from=4), dice, players=NAMES[:4])
    for die in (6, 5, 4, 3):
        dice.enter_die(die)
    game = session.start_game(position=position({1: 1}, {19: 15}), side_on_roll=Side.BOX)
    game.decline_partnership("Ben")
    game.decline_partnership("Cid")
    dice.enter_die(2)
    game.decline_partnership("Dee")
    data = session.to_json()
    assert data["log"][-1] == {"player": "Cid", "action": "partner_drawn", "dice": [2]}
    assert data["log"][5]["action"] == "start_game"
    assert "position" in data["log"][5]
    loaded = Chouette.from_json(data)
    assert loaded.to_json() == data
    assert loaded.game.partner == "Cid"
    assert loaded.game.position == game.position


def test_an_empty_session_round_trips():
    session = Chouette(players=["Ann"])
    data = session.to_json()
    assert data["seating"] is None
    assert Chouette.from_json(data).players == ("Ann",)


# --- malformed records --------------------------------------------------------------------------------


def record() -> dict:
    return json.loads(json.dumps(rich_session().to_json()))


def index_of(data: dict, action: str, nth: int = 0) -> int:
    return [number for number, entry in enumerate(data["log"]) if entry["action"] == action][nth]


def spoil(change) -> dict:
    data = record()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(format="tavola-record"), "format/version"),
        (lambda data: data.update(version=VERSION + 1), "format/version"),
        (lambda data: data.pop("settings"), "the field 'settings' is missing"),
        (lambda data: data["settings"].update(colour="red"), r"settings\.colour: there is no such setting"),
        (lambda data: data["settings"].update(cubes="many"), r"settings\.cubes: 'many'"),
        (lambda data: data["settings"].update(stake="1"), r"settings\.stake: '1' is not"),
        (lambda data: data["settings"]["rules"].update(beavers=-1), r"settings\.rules: beavers"),
        (lambda data: data["settings"]["rules"].update(otters=1), r"settings\.rules\.otters"),
        (
            lambda data: data["settings"].update(mandatory_extras=True, cubes="multi"),
            "settings: mandatory extras",
        ),
        (lambda data: data["settings"].update(variant="chess"), r"settings\.variant"),
        (lambda data: data.update(log={}), "log: {} is not a list"),
        (lambda data: data["log"].__setitem__(2, "join"), r"log\[2\]: expected a JSON object"),
        (lambda data: data["log"][2].update(action="shout"), r"log\[2\]\.action: 'shout'"),
        (lambda data: data["log"][2].update(player=7), r"log\[2\]\.player"),
        (lambda data: data["log"][0].update(player="Ben"), "at the table already"),
    ],
)
def test_a_malformed_record_raises_an_error_naming_the_field(change, message):
    with pytest.raises(RecordError, match=message):
        Chouette.from_json(spoil(change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(settings=[]), "settings: expected a JSON object, not list"),
        (lambda data: data["settings"].update(cubes=5), r"settings\.cubes: 5 is not text"),
        (
            lambda data: data["settings"].update(join_during_game=1),
            r"settings\.join_during_game: 1 is not bool",
        ),
        (
            lambda data: data["settings"].update(box_partner_from="2"),
            r"settings\.box_partner_from: '2' is not a whole number or NoneType",
        ),
        (lambda data: data["settings"].pop("stake"), "settings: the field 'stake' is missing"),
        (
            lambda data: data["settings"]["rules"].update(jacoby="no"),
            r"settings\.rules\.jacoby: 'no' is not bool",
        ),
        (lambda data: data["log"][0].pop("player"), r"log\[0\]: the field 'player' is missing"),
        (
            lambda data: data["log"][index_of(data, "draw_order")].update(rounds=[[["Ann", "5"]]]),
            r"\.rounds\[0\]: a list of \[player, die\] pairs, not \[\['Ann', '5'\]\]",
        ),
        (
            lambda data: data["log"][index_of(data, "double")].update(against="Cid"),
            r"\.against: a list of players' names, not 'Cid'",
        ),
        (lambda data: data["log"][index_of(data, "play")].update(play=24), r"\.play: 24 is not text"),
    ],
)
def test_a_record_of_the_wrong_types_is_refused_naming_the_field(change, message):
    with pytest.raises(RecordError, match=message):
        Chouette.from_json(spoil(change))


def test_an_illegal_play_is_named_by_its_place_in_the_log():
    data = record()
    number = index_of(data, "play")
    data["log"][number]["play"] = "24/1"
    with pytest.raises(RecordError, match=rf"log\[{number}\]\.play: "):
        Chouette.from_json(data)


def test_bad_dice_are_named():
    data = record()
    number = index_of(data, "roll")
    data["log"][number]["dice"] = [7, 1]
    with pytest.raises(RecordError, match=rf"log\[{number}\]\.dice: two dice of 1 to 6"):
        Chouette.from_json(data)


def test_a_cube_action_against_nobody_there_is_refused():
    data = record()
    number = index_of(data, "double")
    data["log"][number]["against"] = ["Zed"]
    with pytest.raises(RecordError, match=rf"log\[{number}\]: "):
        Chouette.from_json(data)


def test_an_automatic_entry_must_follow_from_the_actions_before_it():
    data = record()
    data["log"].insert(4, {"player": "Ben", "action": "new_captain"})
    with pytest.raises(RecordError, match=r"log\[4\]: 'new_captain' happens by itself"):
        Chouette.from_json(data)


def test_an_automatic_entry_left_out_is_found():
    data = record()
    number = index_of(data, "new_captain")
    del data["log"][number]
    with pytest.raises(RecordError, match=rf"log\[{number}\]: the rules log .*new_captain"):
        Chouette.from_json(data)


@pytest.mark.parametrize("field", ["seating", "ledger", "totals"])
def test_results_that_disagree_with_the_replay_are_refused(field):
    data = record()
    spoilt = copy.deepcopy(data)
    if field == "seating":
        spoilt["seating"]["queue"].reverse()
    elif field == "ledger":
        spoilt["ledger"][0]["points"]["Ann"] += 1
    else:
        spoilt["totals"]["Ann"] -= 1
    with pytest.raises(RecordError, match=f"{field}: by the replay"):
        Chouette.from_json(spoilt)
    assert Chouette.from_json(data).to_json() == data


def test_a_file_that_is_not_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "format": "tavola-chouette",\n oops\n}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json: not valid JSON: line 3") as caught:
        Chouette.load(path)
    assert caught.value.line == 3
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(RecordError, match="not UTF-8"):
        Chouette.load(path)
    path.write_text(json.dumps({"format": CHOUETTE_FORMAT, "version": VERSION}), encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json: the record: the field 'settings' is missing"):
        Chouette.load(path)
