"""What a match analysis finds: each decision judged, each roll's luck, and each player's figures.

These are immutable values; :mod:`tavola.analysis.analyze` makes them, and
the terminal summary, the JSON and the HTML report only read them. Every
equity is *normalised*: points per game at a cube of 1, seen by the player
who decided (in a match, converted from match winning chances at the score,
whose own figures are kept beside it). The definitions are written out in
``docs/analysis.md``.

>>> skill_of(0.02), skill_of(0.07), skill_of(0.2)
(<Skill.NONE: 'none'>, <Skill.BAD: 'bad'>, <Skill.VERY_BAD: 'very bad'>)
>>> luck_of(0.45), luck_of(-0.7)
(<LuckClass.LUCKY: 'lucky'>, <LuckClass.VERY_UNLUCKY: 'very unlucky'>)
>>> rating_of(0.004)
<Rating.WORLD_CLASS: 'world class'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from tavola.cube import Cube, CubeOffer
from tavola.dice import Dice
from tavola.position import Position

DOUBTFUL, BAD, VERY_BAD = 0.03, 0.06, 0.12
"""The smallest normalised equity losses marked doubtful, bad and very bad (GNU Backgammon's thresholds)."""
LUCKY, VERY_LUCKY = 0.3, 0.6
"""The smallest normalised luck marked lucky and very lucky (their negatives: unlucky, very unlucky)."""
CLOSE_CUBE = 0.16
"""A cube decision not taken counts as *close* (and is judged) when the double's best answer is worth at
least this much less than no double, normalised: beyond it the double is so wrong nobody thinks of it."""
OBVIOUS = 0.2
"""A checker play is *obvious* when every play but the best loses at least this much, normalised: such plays
count as decisions in the error rate but not in the PR's non-obvious decisions."""


class Skill(enum.Enum):
    """How bad a decision's loss is: below doubtful, doubtful, bad, very bad."""

    NONE = "none"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


class LuckClass(enum.Enum):
    """How lucky a roll was."""

    VERY_UNLUCKY = "very unlucky"
    UNLUCKY = "unlucky"
    NONE = "none"
    LUCKY = "lucky"
    VERY_LUCKY = "very lucky"


class CubeError(enum.Enum):
    """What kind of wrong a cube decision was (for a decision whose loss is above zero)."""

    MISSED_DOUBLE = "missed double"
    """No double where a double was right (whether the answer is a take or a pass)."""
    WRONG_DOUBLE = "wrong double"
    """A double where no double was right, or a double too good to double (playing on for the gammon)."""
    WRONG_TAKE = "wrong take"
    WRONG_DROP = "wrong drop"
    WRONG_BEAVER = "wrong beaver"
    """A beaver (or raccoon) where a take was right."""
    MISSED_BEAVER = "missed beaver"
    """A take where a beaver was right."""
    WRONG_RESIGNATION = "wrong resignation"
    """A resignation offered or answered wrongly (offered worse than the game, accepted too little, ...)."""


class Rating(enum.Enum):
    """A label for a player's error rate, as GNU Backgammon gives it (:func:`rating_of`)."""

    SUPERNATURAL = "supernatural"
    WORLD_CLASS = "world class"
    EXPERT = "expert"
    ADVANCED = "advanced"
    INTERMEDIATE = "intermediate"
    CASUAL = "casual player"
    BEGINNER = "beginner"
    AWFUL = "awful"


_RATINGS = (
    (0.002, Rating.SUPERNATURAL),
    (0.005, Rating.WORLD_CLASS),
    (0.008, Rating.EXPERT),
    (0.012, Rating.ADVANCED),
    (0.018, Rating.INTERMEDIATE),
    (0.026, Rating.CASUAL),
    (0.035, Rating.BEGINNER),
)


def skill_of(loss: float) -> Skill:
    """The class of a normalised equity loss (:data:`DOUBTFUL`, :data:`BAD`, :data:`VERY_BAD`)."""
    if loss >= VERY_BAD:
        return Skill.VERY_BAD
    if loss >= BAD:
        return Skill.BAD
    if loss >= DOUBTFUL:
        return Skill.DOUBTFUL
    return Skill.NONE


def luck_of(luck: float) -> LuckClass:
    """The class of a roll's normalised luck (:data:`LUCKY`, :data:`VERY_LUCKY`)."""
    if luck >= VERY_LUCKY:
        return LuckClass.VERY_LUCKY
    if luck >= LUCKY:
        return LuckClass.LUCKY
    if luck <= -VERY_LUCKY:
        return LuckClass.VERY_UNLUCKY
    if luck <= -LUCKY:
        return LuckClass.UNLUCKY
    return LuckClass.NONE


def rating_of(error_rate: float) -> Rating:
    """The label of an error rate in normalised equity per decision (0.004 is 4 mEMG a decision)."""
    for below, rating in _RATINGS:
        if error_rate < below:
            return rating
    return Rating.AWFUL


@dataclass(frozen=True)
class Alternative:
    """One choice open at a decision and what it is worth to the player deciding.

    ``text`` is a play in Tavola's notation or a cube action ("no double",
    "double, take", "double, drop", "take", "drop", "beaver", ...);
    ``equity`` is normalised; ``mwc`` the match winning chances (in a match);
    ``plies`` how deep it was judged (-1 for a rollout); ``probabilities``, for a checker play, the
    chances after it of the player deciding: win, win a gammon, win a backgammon, lose a gammon, lose a
    backgammon (the gammons counting the backgammons), cubeless. A ``reference`` choice is not open to
    the player and is shown for comparison: a double answered otherwise than at best.
    """

    text: str
    equity: float
    mwc: float | None = None
    plies: int = 0
    probabilities: tuple[float, float, float, float, float] | None = None
    reference: bool = False


@dataclass(frozen=True)
class Decision:
    """One decision of a game, judged.

    ``game`` and ``move`` count from 1 (``move``: the turn in the game);
    ``kind`` is "move" (a checker play) or "cube" (a double or not, an answer,
    a beaver, a resignation); ``position`` is seen by ``player`` (on roll or
    answering), with the ``dice`` rolled for a move and the ``cube`` as it
    stood; ``played`` and ``best`` are the texts of the choice made and of
    the best one; ``equity_loss`` is normalised (0 when the best was
    played), ``mwc_loss`` its match-winning-chance form in a match;
    ``alternatives`` are the choices judged, best first, the played one among
    them. A move's ``luck`` is the luck of its roll (normalised, for the
    player who rolled; None for a cube decision), ``luck_result`` the same
    luck in the terms of the result: points at the cube's value (money) or
    match winning chances. ``forced`` marks a move with one legal play (or
    none) and a cube decision nobody had to think about: such decisions are
    listed but not counted in the error rates. ``obvious`` marks a decision
    left out of the PR's count (:data:`OBVIOUS`). An answer to a double
    (a take, a pass, a beaver or raccoon) has the ``offer`` it answers:
    ``cube`` is the cube before that double, and the answerer sees the
    offered value on the side of the player who offered it.
    """

    game: int
    move: int
    player: int
    kind: Literal["move", "cube"]
    position: Position
    dice: Dice | None
    cube: Cube
    played: str
    best: str
    equity_loss: float
    mwc_loss: float | None
    skill: Skill
    alternatives: tuple[Alternative, ...]
    luck: float | None = None
    luck_class: LuckClass = LuckClass.NONE
    cube_error: CubeError | None = None
    forced: bool = False
    luck_result: float | None = None
    obvious: bool = False
    offer: CubeOffer | None = None


@dataclass(frozen=True)
class PlayerFigures:
    """A player's figures over an analysed match or session (see ``docs/analysis.md``).

    ``moves`` counts checker plays, ``unforced_moves`` those with a choice;
    ``cube_decisions`` the cube decisions counted (actual doubles and answers,
    and no-doubles that were close or wrong); ``total_error`` the normalised
    equity lost over all of them; ``error_rate_memg`` the total in
    thousandths per counted decision (unforced moves plus cube decisions);
    ``pr`` 500 times the total error over the non-obvious decisions;
    ``errors`` counts the decisions of each class, moves and cube apart;
    ``cube_errors`` counts the cube errors by kind; ``luck`` is the sum of the
    player's rolls' luck and ``luck_per_move`` its mean; ``result`` the
    points (or match winning chances) won, ``luck_adjusted_result`` the result
    less the luck.
    """

    name: str
    moves: int
    unforced_moves: int
    cube_decisions: int
    total_error: float
    move_error: float
    cube_error: float
    error_rate_memg: float
    pr: float
    move_errors: dict[Skill, int]
    cube_errors_by_skill: dict[Skill, int]
    cube_errors: dict[CubeError, int]
    luck: float
    luck_per_move: float
    very_lucky: int
    lucky: int
    unlucky: int
    very_unlucky: int
    result: float
    luck_adjusted_result: float
    rating: Rating


@dataclass(frozen=True)
class GameSummary:
    """One game of the analysed record: its number, the score before it, who won how many points, and the
    normalised equity (in a match, match winning chances) of player 0 before each decision, for the chart."""

    number: int
    score_before: tuple[int, int]
    winner: int | None
    points: int
    trace: tuple[float, ...]


@dataclass(frozen=True)
class Analysis:
    """A whole record analysed: its decisions in order, its games and each player's figures.

    ``length`` is the match length (0 for a money session); ``level`` names
    how the decisions were judged (e.g. "2-ply cubeful"); ``source`` is the
    file read.
    """

    source: str
    length: int
    variant: str
    level: str
    players: tuple[PlayerFigures, PlayerFigures]
    games: tuple[GameSummary, ...]
    decisions: tuple[Decision, ...]

    def errors(self, at_least: Skill = Skill.DOUBTFUL) -> tuple[Decision, ...]:
        """The decisions whose class is ``at_least`` or worse, in order."""
        order = list(Skill)
        return tuple(d for d in self.decisions if order.index(d.skill) >= order.index(at_least))
