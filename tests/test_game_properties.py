"""Invariants of whole games driven by random legal actions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from builders import play_randomly
from tavola.actions import MoveCheckers, OpeningRoll, Roll, Undo
from tavola.dicesource import RandomDice, VerifiableDice, verify
from tavola.game import Game, Phase
from tavola.rules import Rules

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
