"""The words players read for an analysis's values, in the language in use.

An analysis keeps its values in English (:mod:`tavola.analysis.model`'s
enums, the choice texts of :mod:`tavola.analysis.cubes` and
:mod:`tavola.analysis.decisions`, the level's title), so the JSON stays
stable; every view (the terminal summary, the HTML report, the tutor, the
chouette's analysis) shows them through the functions here. A play stays
in Tavola's notation in every language.

>>> from tavola.analysis.model import Rating, Skill
>>> from tavola.i18n import use_language
>>> skill_name(Skill.VERY_BAD), rating_name(Rating.CASUAL), choice_name("double, take"), choice_name("24/20")
('very bad', 'casual player', 'double, take', '24/20')
>>> level_name("2-ply cubeful")
'2-ply cubeful'
"""

from __future__ import annotations

from tavola.analysis.model import CubeError, LuckClass, Rating, Skill
from tavola.bot.levels import DEPTHS
from tavola.i18n import N_, _

__all__ = [
    "CHOICE_NAMES",
    "CUBE_ERROR_NAMES",
    "LUCK_NAMES",
    "RATING_NAMES",
    "RESIGNATION_CHOICES",
    "SKILL_NAMES",
    "choice_name",
    "cube_error_name",
    "level_name",
    "luck_name",
    "rating_name",
    "skill_name",
]

# TRANSLATORS: how bad a decision was (a play or a cube decision: feminine in Italian and Spanish).
SKILL_NAMES = {
    Skill.NONE: N_("fine"),
    Skill.DOUBTFUL: N_("doubtful"),
    Skill.BAD: N_("bad"),
    Skill.VERY_BAD: N_("very bad"),
}
# TRANSLATORS: how lucky a roll was.
LUCK_NAMES = {
    LuckClass.VERY_LUCKY: N_("very lucky"),
    LuckClass.LUCKY: N_("lucky"),
    LuckClass.NONE: N_("ordinary"),
    LuckClass.UNLUCKY: N_("unlucky"),
    LuckClass.VERY_UNLUCKY: N_("very unlucky"),
}
CUBE_ERROR_NAMES = {
    CubeError.MISSED_DOUBLE: N_("missed double"),
    CubeError.WRONG_DOUBLE: N_("wrong double"),
    CubeError.WRONG_TAKE: N_("wrong take"),
    CubeError.WRONG_DROP: N_("wrong drop"),
    CubeError.WRONG_BEAVER: N_("wrong beaver"),
    CubeError.MISSED_BEAVER: N_("missed beaver"),
    CubeError.WRONG_RESIGNATION: N_("wrong resignation"),
}
# TRANSLATORS: a player's rating from their error rate, as GNU Backgammon names it.
RATING_NAMES = {
    Rating.SUPERNATURAL: N_("supernatural"),
    Rating.WORLD_CLASS: N_("world class"),
    Rating.EXPERT: N_("expert"),
    Rating.ADVANCED: N_("advanced"),
    Rating.INTERMEDIATE: N_("intermediate"),
    Rating.CASUAL: N_("casual player"),
    Rating.BEGINNER: N_("beginner"),
    Rating.AWFUL: N_("awful"),
}
# TRANSLATORS: the choices of a cube decision or a resignation; beaver and raccoon stay English.
CHOICE_NAMES = {
    "no double": N_("no double"),
    "double, take": N_("double, take"),
    "double, drop": N_("double, drop"),
    "double, beaver": N_("double, beaver"),
    "take": N_("take"),
    "drop": N_("drop"),
    "beaver": N_("beaver"),
    "raccoon": N_("raccoon"),
    "resign": N_("resign"),
    "play on": N_("play on"),
    "accept": N_("accept"),
    "decline": N_("decline"),
}
"""Every choice text of a cube decision (:func:`tavola.analysis.cubes.doubling_choices`,
:func:`~tavola.analysis.cubes.answer_choices`) and of a resignation
(:class:`tavola.analysis.decisions.Resignation`); a play's text is its notation."""
RESIGNATION_CHOICES = frozenset({"resign", "play on", "accept", "decline"})
"""The choices of a resignation offered or answered."""


def skill_name(skill: Skill) -> str:
    """How bad a decision was, in words."""
    return _(SKILL_NAMES[skill])


def luck_name(luck: LuckClass) -> str:
    """How lucky a roll was, in words."""
    return _(LUCK_NAMES[luck])


def cube_error_name(error: CubeError) -> str:
    """The kind of a cube error, in words."""
    return _(CUBE_ERROR_NAMES[error])


def rating_name(rating: Rating) -> str:
    """A player's rating, in words."""
    return _(RATING_NAMES[rating])


def choice_name(text: str) -> str:
    """A choice of a decision as players read it: a cube or resignation choice in words, a play in its
    notation (no play at all: "(no move)").

    >>> choice_name("raccoon"), choice_name("13/7 8/7"), choice_name("")
    ('raccoon', '13/7 8/7', '(no move)')
    """
    if text in CHOICE_NAMES:
        return _(CHOICE_NAMES[text])
    return text or _("(no move)")


def level_name(level: str) -> str:
    """An analysis level (its name, "expert" or "1-ply", or its title, "1-ply cubeful") as its title in words.

    >>> level_name("expert")
    '1-ply cubeful'
    """
    for depth, known in DEPTHS.items():
        if level in (depth, known.name, known.title):
            # TRANSLATORS: an analysis level, e.g. "2-ply cubeful": {level} is "0-ply", "1-ply" or "2-ply".
            return _("{level} cubeful").format(level=depth)
    return level
