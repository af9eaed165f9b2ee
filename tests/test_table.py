"""The tables on their own, with no terminal: seats, turns, the bot in its seat, events and autosave."""

from __future__ import annotations

import pytest

from builders import position
from tavola.actions import Double, MoveCheckers, Played, Roll, Take, Undo
from tavola.bot.evaluate import Evaluator
from tavola.bot.player import Bot
from tavola.chouette import Chouette, ChouetteSettings, CubeMode
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.dicesource import ManualDice, RandomDice
from tavola.errors import OutOfTurnError
from tavola.game import Game, Phase
from tavola.match import Match, MoneySession
from tavola.position import Position
from tavola.rules import Rules
from tavola.table import ChouetteTable, GameTable, Seat
from tavola.table.events import (
    AutomaticBeaver,
    CheckersMoved,
    ChouetteActed,
    ChouetteGameOver,
    ChouetteGameStarted,
    DiceRolled,
    DoubleOffered,
    DoubleTaken,
    Event,
    GameOver,
    GameStarted,
    MoveUndone,
    OpeningRolled,
    OpeningTie,
    OrderDrawn,
    PlayMade,
    SeriesOver,
)

BOTS = (Seat("Ann", "beginner"), Seat("Bo", "beginner"))
PEOPLE = (Seat("Ann"), Seat("Bo"))


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator.default()


def bots(evaluator: Evaluator, *seats: int) -> dict[int, Bot]:
    return {seat: Bot(evaluator, "beginner", seat) for seat in seats}


def set_up(series: Match | MoneySession, board: Position, on_roll: int, cube: Cube | None = None) -> Game:
    """Put a game from ``board`` (seen by ``on_roll``) into ``series`` as its game in progress."""
    game = Game(series.rules, series.dice, position=board, player_on_roll=on_roll, cube=cube)
    series.games.append(game)
    return game


def check_game_events(events: list[Event], game: Game) -> None:
    """The events of one game follow its log: the opening roll, then each turn's dice before its play."""
    assert isinstance(events[0], GameStarted)
    assert isinstance(events[-1], GameOver)
    assert events[-1].outcome == game.outcome
    first = next(index for index, event in enumerate(events) if isinstance(event, OpeningRolled))
    assert all(isinstance(event, OpeningTie) for event in events[1:first])
    plays = [event for event in events if isinstance(event, PlayMade)]
    assert [event.play for event in plays] == [
        entry.action.play for entry in game.log if isinstance(entry.action, Played)
    ]
    for index, event in enumerate(events):
        if isinstance(event, DiceRolled):  # the next checker event is the same seat playing those dice
            after = next(later for later in events[index + 1 :] if isinstance(later, PlayMade))
            assert (after.seat, after.play.dice) == (event.seat, event.dice)


# --- the two-player table ---------------------------------------------------------------------


def test_a_bot_against_a_bot_money_game_played_through_the_table_to_its_end(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=11), players=("Ann", "Bo"))
    table = GameTable(series, BOTS, bots=bots(evaluator, 0, 1))
    heard: list[Event] = []
    table.listen(heard.append)
    table.advance()
    game = series.games[0]
    assert game.is_over
    assert table.seat_to_act is None
    assert table.legal_actions(0) == table.legal_actions(1) == []
    assert heard == list(table.events)[1:]  # everything after the listener came
    check_game_events(list(table.events), game)
    assert not any(isinstance(event, SeriesOver) for event in table.events)  # money goes on


def test_P1_a_bot_against_a_bot_match_played_to_its_end_through_the_table(evaluator: Evaluator) -> None:
    series = Match(3, dice=RandomDice(seed=5), players=("Ann", "Bo"))
    table = GameTable(series, BOTS, bots=bots(evaluator, 0, 1))
    while True:
        table.advance()
        if series.is_over:
            break
        table.start_game()
    events = list(table.events)
    assert events[-1] == SeriesOver(series.winner, series.score)
    starts = [index for index, event in enumerate(events) if isinstance(event, GameStarted)]
    assert [events[index] for index in starts] == [
        GameStarted(number) for number in range(1, len(series.games) + 1)
    ]
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(events) - 1], strict=True)):
        check_game_events(events[start:end], series.games[number])
    assert [event.number for event in events if isinstance(event, GameOver)] == list(
        range(1, len(series.games) + 1)
    )


def test_R21_a_person_acting_out_of_turn_is_refused_and_nothing_changes() -> None:
    saves: list[int] = []
    series = MoneySession(dice=RandomDice(seed=3), players=("Ann", "Bo"))
    set_up(series, Position.start(), on_roll=0)
    table = GameTable(series, PEOPLE, autosave=lambda: saves.append(1))
    before = (series.game.log, series.game.phase, table.events, table.legal_actions(0))
    with pytest.raises(OutOfTurnError, match="player 0's turn"):
        table.act(1, Roll())
    with pytest.raises(OutOfTurnError):
        table.act(1, Double())
    assert (series.game.log, series.game.phase, table.events, table.legal_actions(0)) == before
    assert table.legal_actions(1) == []
    assert saves == []


def test_R11_forced_plays_and_passes_are_made_by_the_table_and_announced_as_events() -> None:
    dice = ManualDice(["66", "61", "11"])
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    closed = {point: 2 for point in range(19, 25)} | {12: 3}
    set_up(series, position({6: 14}, closed, bar=(1, 0)), on_roll=0)  # Ann on the bar against a closed board
    table = GameTable(series, PEOPLE)
    table.advance()
    assert table.seat_to_act == 0  # Ann may double: the table waits for her
    table.act(0, Roll())
    table.advance()
    rolled, passed = table.events[-2:]
    assert rolled == DiceRolled(0, Dice.parse("66"))
    assert isinstance(passed, PlayMade)
    assert (passed.seat, passed.play.moves, passed.forced) == (0, (), True)
    assert table.seat_to_act == 1  # Bo may double: the table waits for him
    table.act(1, Roll())  # 6-1 for Bo: he has a choice, nothing is made for him
    assert series.game.phase is Phase.MOVE
    assert table.events[-1] == DiceRolled(1, Dice.parse("61"))


def test_moving_checkers_and_undoing_them_are_announced_and_a_play_is_chosen_not_forced() -> None:
    dice = ManualDice()
    dice.enter_opening(3, 1)
    series = MoneySession(dice=dice, players=("Ann", "Bo"))
    table = GameTable(series, PEOPLE)
    table.advance()
    assert table.events[-1] == OpeningRolled(Dice.parse("31"), 0)
    table.act(0, MoveCheckers("8/5"))
    assert isinstance(table.events[-1], CheckersMoved)
    assert [str(move) for move in table.events[-1].moves] == ["8/5"]
    table.act(0, Undo())
    assert table.events[-1] == MoveUndone(0)
    turn = series.game.turn
    table.act(0, Played(turn.start.parse_play(turn.dice, "8/5 6/5")))
    assert table.events[-1].forced is False


def test_autosave_is_called_after_every_action(evaluator: Evaluator) -> None:
    series = MoneySession(dice=RandomDice(seed=8), players=("Ann", "Bo"))
    logged: list[int] = []
    table = GameTable(
        series, BOTS, bots=bots(evaluator, 0, 1), autosave=lambda: logged.append(len(series.game.log))
    )
    table.advance()
    assert logged == list(range(1, len(series.game.log) + 1))  # one save per action, each after it


def test_M6_a_take_that_is_an_automatic_beaver_is_announced_so() -> None:
    series = MoneySession(Rules(beavers=1, automatic_beavers=True), RandomDice(seed=1), players=("Ann", "Bo"))
    set_up(series, Position.start(), on_roll=0)
    table = GameTable(series, PEOPLE)
    table.act(0, Double())
    table.act(1, Take())
    assert table.events[-3:] == (DoubleOffered(0, 2), DoubleTaken(1, Cube()), AutomaticBeaver(1, 4))


def test_a_bot_seat_needs_its_bot() -> None:
    with pytest.raises(ValueError, match="bot"):
        GameTable(MoneySession(players=("Ann", "Bo")), BOTS)


# --- the chouette table -----------------------------------------------------------------------


@pytest.mark.parametrize("cubes", [CubeMode.MULTI, CubeMode.SINGLE])
def test_H1_H10_a_chouette_table_of_bots_plays_a_game_to_its_end(
    evaluator: Evaluator, cubes: CubeMode
) -> None:
    names = ["Ann", "Ben", "Cid", "Dee"]
    chouette = Chouette(
        ChouetteSettings(cubes=cubes, rules=Rules(beavers=1)), RandomDice(seed=9), players=names
    )
    saves: list[int] = []
    table = ChouetteTable(
        chouette,
        bots={name: Bot(evaluator, "beginner", index) for index, name in enumerate(names)},
        autosave=lambda: saves.append(len(chouette.log)),
    )
    game = table.start_game()
    table.advance()
    assert game.is_over
    assert table.game is None
    assert sum(chouette.ledger.totals.values()) == 0
    events = list(table.events)
    assert isinstance(events[0], OrderDrawn)
    assert events[1] == ChouetteGameStarted(1, game.box, game.team, game.captain)
    assert events[-1] == ChouetteGameOver(1, game.settlement, chouette.seating)
    plays = [event.play for event in events if isinstance(event, PlayMade)]
    assert len(plays) > 0
    assert all(isinstance(event.player, str) for event in events if isinstance(event, ChouetteActed))
    assert saves == sorted(set(saves))  # a save after each action, none twice for the same state


def test_a_chouette_table_with_a_person_waits_for_them(evaluator: Evaluator) -> None:
    names = ["Ann", "Ben", "Cid"]
    chouette = Chouette(dice=RandomDice(seed=5), players=names)
    table = ChouetteTable(
        chouette, bots={"Ben": Bot(evaluator, "beginner", 1), "Cid": Bot(evaluator, "beginner", 2)}
    )
    game = table.start_game()  # Cid is the box, Ann the captain (see the doctest of tavola.chouette)
    table.advance()  # the box rolls the opening...
    assert not game.is_over
    assert [seat.name for seat in table.seats] == names
    assert [seat.is_bot for seat in table.seats] == [False, True, True]
    assert 0 in table.to_act
    with pytest.raises(OutOfTurnError):
        table.act(1, Roll())  # ...and Ben is no roller
