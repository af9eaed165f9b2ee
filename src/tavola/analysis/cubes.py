"""Cube decisions judged: the choices open, what each is worth, and the kind of error.

The cube model and the rule of every answer are :mod:`tavola.bot.cube`'s:
:func:`~tavola.bot.cube.game_decision` gives, for the player on roll, the
values of no double, of a double taken and of a double dropped, and
:func:`~tavola.bot.cube.answers` the value of each answer to a double and
to every immediate redouble after it (a beaver, a raccoon, ... where the rules
allow them, M3, M4). Here they are named as an analysis shows them. Values are
for the player deciding, in the series' terms (points per unit of the cube
before the double, or match winning chances).

>>> from tavola.bot.cube import money_decision
>>> from tavola.rules import Rules
>>> decision = money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=Rules(beavers=1))
>>> [(text, round(value, 3)) for text, value in doubling_choices(decision, Rules(beavers=1))]
[('no double', 0.086), ('double, beaver', -0.518), ('double, take', -0.259), ('double, drop', 1.0)]
>>> [(text, round(value, 3)) for text, value in answer_choices(decision, Rules(beavers=1), 0)]
[('take', 0.259), ('drop', -1.0), ('beaver', 0.518)]
"""

from __future__ import annotations

from tavola.analysis.model import CubeError
from tavola.bot.cube import CubeDecision, CubeResponse, answer, answering_values, answers
from tavola.rules import Rules

Choices = list[tuple[str, float]]


def redouble_name(redoubles: int) -> str:
    """What an immediate redouble is called: the first a beaver, the later ones raccoons (M3, M4)."""
    return "beaver" if redoubles == 0 else "raccoon"


def answer_name(response: CubeResponse, redoubles: int) -> str:
    """How an analysis names ``response`` to an offer after ``redoubles`` immediate redoubles."""
    return redouble_name(redoubles) if response is CubeResponse.BEAVER else response.value


def _named(decision: CubeDecision, rules: Rules, redoubles: int) -> Choices:
    """The answers to an offer after ``redoubles`` immediate redoubles, named, valued for the doubler."""
    found = answers(decision, rules, redoubles)
    return [(answer_name(response, redoubles), value) for response, value in found.items()]


def doubling_choices(decision: CubeDecision, rules: Rules) -> Choices:
    """The player on roll's choices, best first: no double, and a double with the answer it gets; then, for
    reference, the double with each other answer. Values are the doubler's."""
    proper = answer_name(answer(decision, rules), 0)
    named = _named(decision, rules, 0)
    value = dict(named)[proper]
    choices = sorted([("no double", decision.no_double), (f"double, {proper}", value)], key=lambda c: -c[1])
    return choices + [(f"double, {text}", other) for text, other in named if text != proper]


def answer_choices(decision: CubeDecision, rules: Rules, redoubles: int) -> Choices:
    """The answers open to the player answering an offer after ``redoubles`` immediate redoubles (0: the
    doubled player), valued for that player."""
    found = answering_values(decision, rules, redoubles)
    return [(answer_name(response, redoubles), value) for response, value in found.items()]


def doubling_error(played: str) -> CubeError:
    """The kind of a wrong double or no double."""
    return CubeError.MISSED_DOUBLE if played == "no double" else CubeError.WRONG_DOUBLE


def answer_error(played: str, best: str) -> CubeError:
    """The kind of a wrong answer to a double."""
    if played == "take":
        return CubeError.WRONG_TAKE if best == "drop" else CubeError.MISSED_BEAVER
    if played == "drop":
        return CubeError.WRONG_DROP
    return CubeError.WRONG_BEAVER
