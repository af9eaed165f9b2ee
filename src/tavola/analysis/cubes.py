"""Cube decisions and resignations judged: the choices open, what each is worth, and the kind of error.

The cube model is :mod:`tavola.bot.cube`'s: :func:`~tavola.bot.cube.game_decision`
gives, for the player on roll, the values of no double, of a double taken and
of a double passed. The answers follow from them: a take leaves the cube at
twice its value with the taker, so every further immediate redouble (a
beaver, a raccoon, ... where the rules allow them, M3, M4) is worth twice the
take before it, and a pass pays the value before the offer; each player
answers at best. Values are for the player deciding, in the series' terms
(points per unit of the cube before the double, or match winning chances).

>>> from tavola.bot.cube import money_decision
>>> from tavola.rules import Rules
>>> decision = money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=1))
>>> [(text, round(value, 3)) for text, value in doubling_choices(decision, Rules(beavers=1))]
[('no double', 0.086), ('double, beaver', -0.518), ('double, take', -0.259), ('double, pass', 1.0)]
>>> [(text, round(value, 3)) for text, value in answer_choices(decision, Rules(beavers=1), 0)]
[('take', 0.259), ('pass', -1.0), ('beaver', 0.518)]
"""

from __future__ import annotations

from tavola.analysis.model import CubeError
from tavola.bot.cube import CubeDecision
from tavola.rules import Rules

Choices = list[tuple[str, float]]


def redouble_name(redoubles: int) -> str:
    """What an immediate redouble is called: the first a beaver, the later ones raccoons (M3, M4)."""
    return "beaver" if redoubles == 0 else "raccoon"


def _take(decision: CubeDecision) -> float:
    assert decision.double_take is not None
    return decision.double_take


def _offer_value(decision: CubeDecision, rules: Rules, redoubles: int) -> float:
    """The doubler's value of an offer after ``redoubles`` immediate redoubles, each answer at best."""
    return _best(_answers(decision, rules, redoubles), doubler_answers=redoubles % 2 == 1)


def _answers(decision: CubeDecision, rules: Rules, redoubles: int) -> Choices:
    """The answers to an offer after ``redoubles`` immediate redoubles, valued for the doubler."""
    assert decision.double_pass is not None
    scale = 2**redoubles
    if decision.match:  # no beavers in a match (P4)
        return [("take", _take(decision)), ("pass", decision.double_pass)]
    doubler_answers = redoubles % 2 == 1
    take = scale * _take(decision)
    passed = -float(scale) if doubler_answers else float(scale)
    answers = [("take", take), ("pass", passed)]
    if redoubles < rules.beavers:
        redoubled = _offer_value(decision, rules, redoubles + 1)
        if rules.automatic_beavers and redoubles == 0:  # every take is a beaver (M6)
            answers[0] = ("take", redoubled)
        answers.append((redouble_name(redoubles), redoubled))
    return answers


def _best(answers: Choices, *, doubler_answers: bool) -> float:
    values = [value for _, value in answers]
    return max(values) if doubler_answers else min(values)


def doubling_choices(decision: CubeDecision, rules: Rules) -> Choices:
    """The player on roll's choices, best first: no double, and a double with the best answer; then, for
    reference, the double with each other answer. Values are the doubler's."""
    answers = _answers(decision, rules, 0)
    value = _best(answers, doubler_answers=False)
    proper = next(text for text, answer in answers if answer == value)
    choices = sorted([("no double", decision.no_double), (f"double, {proper}", value)], key=lambda c: -c[1])
    return choices + [(f"double, {text}", answer) for text, answer in answers if text != proper]


def answer_choices(decision: CubeDecision, rules: Rules, redoubles: int) -> Choices:
    """The answers open to the player answering an offer after ``redoubles`` immediate redoubles (0: the
    doubled player), valued for that player."""
    answers = _answers(decision, rules, redoubles)
    if redoubles % 2 == 1:
        return answers
    return [(text, (1.0 - value) if decision.match else -value) for text, value in answers]


def doubling_error(played: str) -> CubeError:
    """The kind of a wrong double or no double."""
    return CubeError.MISSED_DOUBLE if played == "no double" else CubeError.WRONG_DOUBLE


def answer_error(played: str, best: str) -> CubeError:
    """The kind of a wrong answer to a double."""
    if played == "take":
        return CubeError.WRONG_TAKE if best == "pass" else CubeError.MISSED_BEAVER
    if played == "pass":
        return CubeError.WRONG_DROP
    return CubeError.WRONG_BEAVER
