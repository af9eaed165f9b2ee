"""Random chouettes of 3 to 8 players, random settings, random legal actions: the ledger always balances (H10)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavola.actions import MoveCheckers, Undo
from tavola.chouette import (
    AcceptPartnership,
    Chouette,
    ChouetteGame,
    ChouetteSettings,
    Consultation,
    CubeMode,
    Double,
    GiveExtra,
    Phase,
    Side,
    Take,
)
from tavola.chouette.actions import ForcedDrop
from tavola.dicesource import RandomDice
from tavola.rules import Rules
from tavola.variants import find_variant

NAMES = [
    "Ann",
    "Ben",
    "Cid",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kim",
    "Lea",
    "Max",
    "Ned",
    "Ora",
    "Pip",
]


@st.composite
def chouette_settings(draw: st.DrawFn) -> ChouetteSettings:
    cubes = draw(st.sampled_from(CubeMode))
    single = cubes is CubeMode.SINGLE
    last_taker = single and draw(st.booleans())
    extras = single and not last_taker and draw(st.booleans())
    beavers = draw(st.integers(0, 2))
    rules = Rules(
        jacoby=draw(st.booleans()),
        beavers=beavers,
        automatic_beavers=beavers > 0 and draw(st.booleans()),
        automatic_doubles=draw(st.integers(0, 2)),
        gammons=draw(st.booleans()),
    )
    return ChouetteSettings(
        cubes=cubes,
        last_taker_must_drop=last_taker,
        mandatory_extras=extras,
        box_partner_from=draw(st.none() | st.integers(4, 8)),
        consultation=draw(st.sampled_from(Consultation)),
        rules=rules,
        stake=draw(st.sampled_from([1, 0.5, 2.5, 10])),
        join_during_game=draw(st.booleans()),
        variant=find_variant(draw(st.sampled_from(["standard", "hypergammon", "nackgammon"]))),
    )


def weigher(rng: random.Random):
    """How keen this game's players are to double and to take: some games end on the cube, some at the board."""
    double = rng.choice([0.01, 0.05, 0.3])
    take = rng.choice([0.5, 1.0, 3.0])

    def weight(action: object) -> float:
        if isinstance(action, Double):
            return double
        if isinstance(action, Take | GiveExtra):
            return take
        if isinstance(action, MoveCheckers | Undo):
            return 0.05
        if isinstance(action, AcceptPartnership):
            return 0.3
        return 1.0

    return weight


def play_randomly(game: ChouetteGame, rng: random.Random, limit: int = 4000) -> None:
    """Apply random items of legal_actions (and random suggestions) until the game is over."""
    weight = weigher(rng)
    for _ in range(limit):
        if game.is_over:
            return
        turn = game.turn
        if game.phase is Phase.MOVE and turn is not None and not turn.moves and rng.random() < 0.85:
            advisers = [member for member in game.members_in if game.may_suggest(member)]
            if advisers and rng.random() < 0.2:
                game.suggest(rng.choice(advisers), rng.choice(list(turn.legal)))
            roller = game.roller
            assert roller is not None
            game.play(roller, rng.choice(list(turn.legal)))  # listing single moves is slow: mostly skip it
            continue
        items = game.legal_actions()
        assert items, f"nobody can act in phase {game.phase}"
        if game.phase is not Phase.MOVE:
            assert game.to_act == tuple(dict.fromkeys(item.player for item in items))
        game.apply(rng.choices(items, [weight(item.action) for item in items])[0])
    raise AssertionError("the game did not end")


def check_balanced(session: Chouette) -> None:
    ledger = session.ledger
    for game in ledger.games:
        assert sum(game.points.values()) == 0
        assert sum(payment.points for payment in game.payments if payment.payer == game.box) >= 0
    assert sum(ledger.totals.values()) == 0


@settings(max_examples=30, deadline=None)
@given(
    table_settings=chouette_settings(),
    players=st.integers(3, 8),
    seed=st.integers(0, 2**32 - 1),
    games=st.integers(1, 3),
)
def test_H10_the_ledger_sums_to_zero_in_random_chouettes(table_settings, players, seed, games):
    rng = random.Random(seed)
    session = Chouette(table_settings, RandomDice(seed=seed), players=NAMES[:players])
    joined = players
    for _ in range(games):
        if not session.can_start():
            session.join(NAMES[joined])
            joined += 1
        game = session.start_game()
        assert 3 <= len(game.players) <= 8
        if table_settings.join_during_game and rng.random() < 0.3 and len(session.players) < 8:
            session.join(NAMES[joined])
            joined += 1
        play_randomly(game, rng)
        assert all(not bet.is_live for bet in game.bets)
        assert set(game.settlement.points) == set(game.players)
        check_balanced(session)
        assert sorted(session.players) == sorted(set(session.players))
        if rng.random() < 0.3 and len(session.players) > 3:
            session.leave(rng.choice(session.players))
    data = session.to_json()
    assert Chouette.from_json(json.loads(json.dumps(data))).to_json() == data


@settings(max_examples=15, deadline=None)
@given(table_settings=chouette_settings(), players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_a_session_saved_at_any_point_reloads_to_the_same_state(table_settings, players, seed):
    rng = random.Random(seed)
    session = Chouette(table_settings, RandomDice(seed=seed), players=NAMES[:players])
    game = session.start_game()
    stop = rng.randrange(200)
    weight = weigher(rng)
    for _ in range(stop):
        if game.is_over:
            break
        items = game.legal_actions()
        game.apply(rng.choices(items, [weight(item.action) for item in items])[0])
    data = json.loads(json.dumps(session.to_json()))
    loaded = Chouette.from_json(data, dice=RandomDice(seed=seed + 1))
    assert loaded.to_json() == data
    copy = loaded.game
    assert copy is not None
    assert (copy.phase, copy.captains, copy.bets, copy.offers) == (
        game.phase,
        game.captains,
        game.bets,
        game.offers,
    )
    if game.turn is None or not game.turn.moves:  # checkers moved but not committed are not saved
        assert copy.turn == game.turn
        assert copy.legal_actions() == game.legal_actions()


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(3, 8),
    seed=st.integers(0, 2**32 - 1),
    extras=st.booleans(),
    beavers=st.integers(0, 2),
)
def test_H6_H7_random_single_cube_games_where_the_box_doubles_first(players, seed, extras, beavers):
    rules = Rules(beavers=beavers, jacoby=seed % 2 == 0)
    table_settings = ChouetteSettings(
        cubes=CubeMode.SINGLE, mandatory_extras=extras, last_taker_must_drop=not extras, rules=rules
    )
    rng = random.Random(seed)
    session = Chouette(table_settings, RandomDice(seed=seed), players=NAMES[:players])
    game = session.start_game()
    while game.phase is Phase.OPENING:
        game.roll(game.box)
    while not (game.phase is Phase.ROLL and game.side_on_roll is Side.BOX):
        if game.phase is Phase.ROLL:
            game.roll(game.captain)
        game.play(game.roller, rng.choice(list(game.turn.legal)))
    game.double(game.box)  # the box's initial double, answered by each member at random
    for member in game.team:
        (game.take if rng.random() < 0.3 else game.drop)(member)
    play_randomly(game, rng)
    check_balanced(session)
    if extras:
        assert not any(isinstance(entry.action, ForcedDrop) for entry in game.log)
    else:
        assert not any(bet.extra for bet in game.bets)
