"""The bot's checker play: one generation of the legal plays per decision, and the same choices as ranking them."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tavola.movegen
from tavola import Dice, Position
from tavola.bot.actor import choose_action
from tavola.bot.context import CubeContext, money
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import level
from tavola.bot.met import table_for
from tavola.bot.player import Bot, Choice
from tavola.bot.search import rank_plays
from tavola.cube import Cube
from tavola.dicesource import RandomDice
from tavola.errors import TavolaError
from tavola.game import Game, Phase
from tavola.match import MatchScore
from tavola.play import Play
from tavola.rules import Rules
from tavola.sampling import random_positions
from tavola.variants import DUTCH, STANDARD, Variant


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator.default()


def questions(count: int, seed: int) -> Iterator[tuple[Position, Dice]]:
    """``count`` seeded positions from random games, each with a seeded roll."""
    rng = np.random.default_rng(seed)
    for start in random_positions(count, seed=seed):
        yield start, Dice(int(rng.integers(1, 7)), int(rng.integers(1, 7)))


def ranked_choices(
    evaluator: Evaluator,
    start: Position,
    dice: Dice,
    level_name: str,
    variant: Variant = STANDARD,
    match: MatchScore | None = None,
    cube_value: int = 1,
) -> list[Choice]:
    """A hint the long way: the legal plays, then :func:`rank_plays` generating and judging them on its own."""
    chosen = level(level_name)
    plays = start.legal_plays(dice, variant)
    ranked = rank_plays(evaluator.for_variant(variant), start, dice, chosen.plies, chosen.filter)
    choices = [
        Choice(plays[item.index], tuple(float(p) for p in item.probabilities), item.equity, item.plies)
        for item in ranked
    ]
    if match is None:
        return choices
    table = table_for(*match.away)
    for index, choice in enumerate(choices):
        mwc = table.cubeless(choice.probabilities, *match.away, cube_value, match.crawford)
        equity = table.to_equity(mwc, *match.away, cube_value, match.crawford)
        choices[index] = Choice(choice.play, choice.probabilities, equity, choice.plies)
    return sorted(choices, key=lambda choice: (-choice.plies, -choice.equity))


def blurred_choice(choices: list[Choice], noise: float, rng: np.random.Generator) -> Choice:
    """The best of ``choices`` once each equity has a normal draw added, drawn in the order of the ranking."""
    if noise == 0 or len(choices) == 1:
        return choices[0]
    blurred = [choice.equity + rng.normal(0.0, noise) for choice in choices]
    return choices[int(np.argmax(blurred))]


@pytest.mark.parametrize(
    ("level_name", "count"), [("advanced", 300), ("intermediate", 300), ("beginner", 300), ("expert", 60)]
)
def test_the_bot_plays_the_play_that_ranks_first_once_its_noise_is_drawn(
    evaluator: Evaluator, level_name: str, count: int
) -> None:
    bot = Bot(evaluator, level_name, rng=7)
    reference = np.random.default_rng(7)
    noise = level(level_name).noise
    for start, dice in questions(count, seed=11):
        expected = blurred_choice(ranked_choices(evaluator, start, dice, level_name), noise, reference)
        assert bot.play(start, dice) == expected


def test_in_a_match_the_bot_plays_and_hints_by_match_equity_as_ranked_before(evaluator: Evaluator) -> None:
    bot = Bot(evaluator, "beginner", rng=3)
    reference = np.random.default_rng(3)
    match = MatchScore(7, (3, 5))
    for start, dice in questions(200, seed=12):
        expected = ranked_choices(evaluator, start, dice, "beginner", match=match, cube_value=2)
        context = CubeContext(0, Cube(2, owner=0), Rules(), away=match.away, crawford=match.crawford)
        assert bot.hint(start, dice, context) == expected
        assert bot.play(start, dice, context) == blurred_choice(expected, 0.2, reference)


@pytest.mark.parametrize("level_name", ["advanced", "expert"])
@pytest.mark.parametrize("variant", [STANDARD, DUTCH], ids=lambda variant: variant.name)
def test_a_hint_is_every_play_ranked_as_rank_plays_ranks_them(
    evaluator: Evaluator, level_name: str, variant: Variant
) -> None:
    bot = Bot(evaluator, level_name)
    for start, dice in questions(40, seed=13):
        assert bot.hint(start, dice, money(variant)) == ranked_choices(
            evaluator, start, dice, level_name, variant
        )


class Counts:
    """How often the move generator, the evaluator and the making of a Play are called."""

    def __init__(self) -> None:
        self.generated: list[tuple[int, ...]] = []
        self.evaluated = 0
        self.plays_made = 0


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch, evaluator: Evaluator) -> Counts:
    counted = Counts()
    generate_dice = tavola.movegen.generate_dice
    evaluate = evaluator.evaluate
    trusted = Play._trusted.__func__  # type: ignore[attr-defined]

    def generating(board: np.ndarray, dice: tuple[int, ...], flags: int = 0) -> tuple[np.ndarray, np.ndarray]:
        counted.generated.append(dice)
        return generate_dice(board, dice, flags)

    def evaluating(boards: np.ndarray) -> np.ndarray:
        counted.evaluated += 1
        return evaluate(boards)

    def making(cls: type[Play], *args: object) -> Play:
        counted.plays_made += 1
        return trusted(cls, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(tavola.movegen, "generate_dice", generating)
    monkeypatch.setattr(evaluator, "evaluate", evaluating)
    monkeypatch.setattr(Play, "_trusted", classmethod(making))
    return counted


def test_a_zero_ply_play_is_one_generation_one_evaluation_and_one_play_made(
    evaluator: Evaluator, counts: Counts
) -> None:
    bot = Bot(evaluator, "advanced")
    for start, dice in questions(20, seed=14):
        counts.generated.clear()
        counts.evaluated = counts.plays_made = 0
        bot.play(start, dice)
        assert (counts.generated, counts.evaluated, counts.plays_made) == ([dice.moves], 1, 1)


@pytest.mark.parametrize("level_name", ["beginner", "expert", "world-class"])
def test_a_play_or_a_hint_generates_the_legal_plays_once_at_any_level(
    evaluator: Evaluator, counts: Counts, level_name: str
) -> None:
    bot = Bot(evaluator, level_name, rng=1)
    start, dice = Position.start(), Dice(4, 2)
    bot.play(start, dice, CubeContext(0, Cube(), Rules(), away=MatchScore(5, (1, 3)).away))
    assert counts.generated == [(4, 2)]
    counts.generated.clear()
    hint = bot.hint(start, dice)
    assert counts.generated == [(4, 2)]
    assert counts.plays_made == 1 + len(hint)


def test_plays_already_generated_are_used_and_must_be_those_of_the_question(
    evaluator: Evaluator, counts: Counts
) -> None:
    bot = Bot(evaluator, "advanced")
    start, dice = Position.start(), Dice(6, 1)
    legal = start.legal_plays(dice)
    counts.generated.clear()
    assert bot.play(start, dice, legal=legal).play == legal.by_result(bot.play(start, dice).play.after)
    assert all(choice.play in legal for choice in bot.hint(start, dice, legal=legal))
    assert counts.generated == [(6, 1)]  # only the call without ``legal``
    with pytest.raises(TavolaError, match="not of 62"):
        bot.play(start, Dice(6, 2), legal=legal)
    with pytest.raises(TavolaError, match=r"\(standard\), not of 61 .* \(dutch\)"):
        bot.hint(start, dice, money(DUTCH), legal=legal)


def test_a_bot_seat_chooses_and_plays_with_one_generation_of_the_turn(
    evaluator: Evaluator, counts: Counts
) -> None:
    bot = Bot(evaluator, "advanced")
    game, moves = Game(dice=RandomDice(seed=8)), 0
    while moves < 30:
        if game.is_over:
            game = Game(dice=RandomDice(seed=8 + moves))
        elif game.phase is Phase.MOVE:
            counts.generated.clear()
            turn = game.turn
            assert turn is not None
            game.apply(choose_action(bot, game))
            assert counts.generated == [turn.dice.moves]
            assert game.log[-1].action.play.before == turn.start
            moves += 1
        else:
            game.apply(choose_action(bot, game))
