"""Actions as JSON: every legal action written and read back is written the same."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from tavola.chouette import Chouette
from tavola.chouette import actions as chouette
from tavola.dicesource import RandomDice
from tavola.match import MoneySession
from tavola.rules import Rules
from tavola.table import Seat
from tavola.web.actions import (
    ActionError,
    action_json,
    chouette_action_json,
    read_chouette_action,
    read_game_action,
)
from tavola.web.kinds import serve
from tavola.web.options import read_options


def test_every_legal_action_of_a_game_reads_back_the_same() -> None:
    session = MoneySession(Rules(beavers=1), RandomDice(seed=11))
    game = session.new_game()
    seen = 0
    for _ in range(30):
        if game.is_over:
            break
        for action in game.legal_actions():
            data = action_json(action)
            assert action_json(read_game_action(data, game.turn)) == data
            seen += 1
        game.apply(game.legal_actions()[0])
    assert seen > 100


@pytest.mark.parametrize("seed", [5, 17])
def test_a_game_table_lists_its_legal_actions_as_written_one_by_one(seed: int) -> None:
    options = read_options({"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]})
    served = serve(options, [Seat("Ann"), Seat("Bo")], RandomDice(seed=seed), {}, lambda seat, data: None)
    listed_plays = 0
    for _ in range(300):
        table = served.table
        if table.is_over:
            break
        for seat in (0, 1):
            written = [served.write(action) for action in table.legal_actions(seat)]
            assert served.legal_json(seat) == written
            listed_plays += sum(data["action"] == "play" for data in written)
        seat = table.to_act[0]
        actions = table.legal_actions(seat)
        table.act(seat, actions[len(actions) // 2])
        table.advance()
    assert listed_plays > 200


def test_every_legal_action_of_a_chouette_reads_back_the_same() -> None:
    table = Chouette(dice=RandomDice(seed=3), players=["Ann", "Ben", "Cid"])
    game = table.start_game()
    names = set()
    for _ in range(12):
        for item in game.legal_actions():
            data = chouette_action_json(item.action)
            names.add(data["action"])
            assert chouette_action_json(read_chouette_action(data, game.turn)) == data
        game.apply(game.legal_actions()[-1] if game.phase.value == "roll" else game.legal_actions()[0])
    assert {"roll", "play", "double"} <= names
    assert read_chouette_action({"action": "take", "against": ["Ann"]}, None) == chouette.Take(("Ann",))


def test_a_play_typed_before_the_dice_is_left_for_the_game_to_refuse() -> None:
    game = MoneySession(dice=RandomDice(seed=1)).new_game()
    action = read_game_action({"action": "play", "play": "8/5 6/5"}, game.turn)
    with pytest.raises(Exception, match="cannot move checkers now"):
        game.apply(action)
    with pytest.raises(ActionError, match=r"^kind: "):
        read_game_action({"action": "resign", "kind": "all"}, None)


def test_a_tables_actions_replayed_on_the_same_dice_give_the_same_game() -> None:
    from tavola.bot.evaluate import Evaluator
    from tavola.bot.player import Bot
    from tavola.dicesource import VerifiableDice
    from tavola.match import Match
    from tavola.table import ChouetteTable, GameTable, Seat

    secret = bytes(range(32))
    done: list[tuple[int, object]] = []
    bots = {seat: Bot(Evaluator.default(), "advanced", seat) for seat in (0, 1)}
    seats = (Seat("Ann", "advanced"), Seat("Bob", "advanced"))
    played = GameTable(
        Match(1, dice=VerifiableDice(secret)),
        seats,
        bots=bots,
        on_action=lambda seat, action: done.append((seat, action)),
    )
    played.advance()
    assert played.game.is_over
    assert len(done) > 20
    again = GameTable(Match(1, dice=VerifiableDice(secret)), (Seat("Ann"), Seat("Bob")))
    for seat, action in done:
        again.act(seat, read_game_action(action_json(action), again.game.turn))  # type: ignore[arg-type]
    assert again.game.log == played.game.log
    assert again.events == played.events

    told: list[tuple[int, object]] = []
    names = ["Ann", "Ben", "Cid"]
    chouette_bots = {name: Bot(Evaluator.default(), "advanced", index) for index, name in enumerate(names)}
    table = ChouetteTable(
        Chouette(dice=VerifiableDice(secret), players=names),
        bots=chouette_bots,
        on_action=lambda seat, action: told.append((seat, action)),
    )
    table.start_game()
    table.advance()
    assert table.chouette.games[0].is_over
    replayed = ChouetteTable(Chouette(dice=VerifiableDice(secret), players=names))
    replayed.start_game()
    for seat, action in told:
        game = replayed.chouette.game
        assert game is not None
        read = read_chouette_action(chouette_action_json(action), game.turn)  # type: ignore[arg-type]
        replayed.act(seat, read)  # type: ignore[arg-type]
    assert replayed.chouette.log == table.chouette.log
