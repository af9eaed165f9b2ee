"""A player's figures from the decisions judged: errors, error rate, PR, luck and rating.

The definitions are in ``docs/analysis.md``; in short: the decisions
counted are the unforced checker plays and the cube decisions listed (every
double, answer and resignation, and the no-doubles that were close or
wrong); the error rate is the total normalised loss per counted decision in
thousandths (mEMG); the PR is 500 times the total loss over the non-obvious
decisions; the luck is the sum of the luck of the player's rolls; the
luck-adjusted result (GNU Backgammon's and eXtreme Gammon's) is the result
less the player's luck plus the opponent's, so that the two players' are
opposite.

>>> figures = player_figures("Ann", 0, [], result=0.0)
>>> figures.error_rate_memg, figures.pr, figures.rating
(0.0, 0.0, <Rating.SUPERNATURAL: 'supernatural'>)
>>> luck_adjusted(0.5, luck=0.25, opponent_luck=-0.125)  # won, with the dice on their side
0.125
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.analysis.model import CubeError, Decision, LuckClass, PlayerFigures, Skill, rating_of


def player_figures(name: str, player: int, decisions: Sequence[Decision], *, result: float) -> PlayerFigures:
    """The figures of ``player`` (called ``name``) over ``decisions``; ``result`` is what they won (net
    points, or match winning chances relative to 50%), adjusted for both sides' luck (:func:`luck_adjusted`:
    the other players' rolls are the opponent's)."""
    mine = [decision for decision in decisions if decision.player == player]
    moves = [decision for decision in mine if decision.kind == "move"]
    cubes = [decision for decision in mine if decision.kind == "cube" and not decision.forced]
    unforced = [decision for decision in moves if not decision.forced]
    counted = unforced + cubes
    move_error = sum(decision.equity_loss for decision in unforced)
    cube_error = sum(decision.equity_loss for decision in cubes)
    total = move_error + cube_error
    non_obvious = sum(1 for decision in counted if not decision.obvious)
    rolls = [decision for decision in mine if decision.luck is not None]
    luck = sum(decision.luck or 0.0 for decision in rolls)
    opponent_luck = sum(decision.luck_result or 0.0 for decision in decisions if decision.player != player)
    classes = [decision.luck_class for decision in rolls]
    error_rate = total / len(counted) if counted else 0.0
    return PlayerFigures(
        name=name,
        moves=len(moves),
        unforced_moves=len(unforced),
        cube_decisions=len(cubes),
        total_error=total,
        move_error=move_error,
        cube_error=cube_error,
        error_rate_memg=1000 * error_rate,
        pr=500 * total / non_obvious if non_obvious else 0.0,
        move_errors=_by_skill(unforced),
        cube_errors_by_skill=_by_skill(cubes),
        cube_errors={kind: sum(1 for decision in cubes if decision.cube_error is kind) for kind in CubeError},
        luck=luck,
        luck_per_move=luck / len(rolls) if rolls else 0.0,
        very_lucky=classes.count(LuckClass.VERY_LUCKY),
        lucky=classes.count(LuckClass.LUCKY),
        unlucky=classes.count(LuckClass.UNLUCKY),
        very_unlucky=classes.count(LuckClass.VERY_UNLUCKY),
        result=result,
        luck_adjusted_result=luck_adjusted(
            result,
            luck=sum(decision.luck_result or 0.0 for decision in rolls),
            opponent_luck=opponent_luck,
        ),
        rating=rating_of(error_rate),
    )


def luck_adjusted(result: float, *, luck: float, opponent_luck: float) -> float:
    """``result`` less the player's ``luck`` plus the opponent's, all in the result's terms (points, or
    match winning chances): what the player would have won had both had average dice."""
    return result - luck + opponent_luck


def _by_skill(decisions: Sequence[Decision]) -> dict[Skill, int]:
    return {skill: sum(1 for decision in decisions if decision.skill is skill) for skill in Skill}
