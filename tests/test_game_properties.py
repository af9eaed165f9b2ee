"""Invariants of whole games driven by random legal actions."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from builders import play_randomly
from tavola import WinKind
from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Commit,
    DeclineResignation,
    Double,
    Drop,
    MoveCheckers,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.dicesource import RandomDice, VerifiableDice, verify
from tavola.errors import TavolaError
from tavola.game import Game, Phase
from tavola.play import Move
from tavola.rules import Rules
from tavola.variants import VARIANTS, Variant

rules = st.builds(
    Rules,
    jacoby=st.booleans(),
    beavers=st.integers(0, 3),
    automatic_doubles=st.integers(0, 2),
    gammons=st.booleans(),
)


@settings(max_examples=15, deadline=None)
@given(rules, st.integers(0, 2**31))
def test_R18_random_games_end_with_a_result_worth_its_points(game_rules, seed):
    game = Game(game_rules, RandomDice(seed=seed))
    play_randomly(game, random.Random(seed))
    outcome = game.outcome
    assert outcome is not None
    assert outcome.points == int(outcome.kind) * outcome.cube
    assert game.phase is Phase.OVER
    assert game.legal_actions() == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31))
def test_R20_undo_restores_the_turn(seed):
    rng = random.Random(seed)
    game = Game(dice=RandomDice(seed=seed))
    while game.roll() is None:
        pass
    for _ in range(rng.randint(0, 6)):  # some turns in
        game.play(rng.choice(list(game.turn.legal)))
        if game.is_over:
            return
        game.roll()
    before = (game.position, game.turn, game.log)
    steps = [action for action in game.legal_actions() if isinstance(action, MoveCheckers)]
    if not steps:
        return
    game.apply(rng.choice(steps))
    game.apply(Undo())
    assert (game.position, game.turn, game.log) == before


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31))
def test_verifiable_dice_re_derive_every_roll_of_a_game(seed):
    dice = VerifiableDice(random.Random(seed).randbytes(32))
    commitment = dice.commitment
    game = Game(Rules(cube=False), dice)
    play_randomly(game, random.Random(seed))
    logged = [  # each roll of the game, in order
        sorted(entry.action.dice)
        for entry in game.log
        if isinstance(entry.action, OpeningRoll | Roll) and entry.action.dice is not None
    ]
    stream = list(dice.rolls_so_far)
    verify(commitment, dice.reveal(), stream)
    assert logged == [sorted(stream[index : index + 2]) for index in range(0, len(stream), 2)]


# --- legal_actions() lists exactly what apply() accepts ------------------------------------------

FIXED_ACTIONS = [
    Roll(),
    Double(),
    Take(),
    Drop(),
    Beaver(),
    *(Resign(kind) for kind in WinKind),
    AcceptResignation(),
    DeclineResignation(),
    *(ChooseDouble(number) for number in range(1, 7)),
    Undo(),
    Commit(),
]


def _candidates(game: Game, rng: random.Random) -> list[Action]:
    """Every action a player could try now: the fixed ones, every single-die move, some whole plays."""
    found = list(FIXED_ACTIONS)
    turn = game.turn
    if game.phase is Phase.MOVE and turn is not None:
        board = game.position.to_array()
        for die in set(turn.remaining):
            for source in range(1, 27):
                target = max(min(source, 25) - die, 0)
                found.append(MoveCheckers((Move(source, target, bool(target and board[target] == -1)),)))
        plays = list(turn.legal)
        found += [Played(play) for play in rng.sample(plays, min(len(plays), 8))]
    return found


def _accepted(game: Game, action: Action) -> bool:
    trial = copy.deepcopy(game)
    try:
        trial.apply(action)
    except TavolaError:
        assert (trial.phase, trial.position, trial.log) == (game.phase, game.position, game.log)
        return False
    return True


def _rules_for(variant: Variant) -> st.SearchStrategy[Rules]:
    if not variant.cube:
        return st.builds(Rules, gammons=st.booleans())
    return rules


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(VARIANTS).flatmap(lambda v: st.tuples(st.just(v), _rules_for(v))), st.integers(0, 2**31)
)
def test_R21_legal_actions_list_exactly_what_apply_accepts(variant_and_rules, seed):
    """In every phase of random games of every variant: an action is listed if and only if it is accepted."""
    variant, game_rules = variant_and_rules
    rng = random.Random(seed)
    game = Game(game_rules, RandomDice(seed=seed), variant=variant)
    for _ in range(80):
        if game.is_over:
            break
        legal = game.legal_actions()
        for action in _candidates(game, rng):
            assert _accepted(game, action) == (action in legal), (game.phase, action, legal)
        game.apply(rng.choice(legal))
