"""How deep an analysis looks: the levels by name, the strongest the default.

Every level is *cubeful*: plays are ranked by their value with the cube
(Janowski's model on the search's probabilities, :mod:`tavola.bot.cube`),
cube decisions by the cube model at the score; the search looks ahead with
the bot's move filter (:data:`~tavola.bot.search.DEFAULT_FILTER`).

>>> analysis_level("1-ply")
AnalysisLevel(name='1-ply', plies=1)
>>> analysis_level(DEFAULT_LEVEL).title
'2-ply cubeful'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavola.bot.search import DEFAULT_FILTER, MoveFilter
from tavola.errors import TavolaError
from tavola.i18n import _


@dataclass(frozen=True)
class AnalysisLevel:
    """A level of analysis: its name, the plies the search looks ahead, the search's move filter."""

    name: str
    plies: int
    filter: MoveFilter = field(default=DEFAULT_FILTER, repr=False)

    @property
    def title(self) -> str:
        """How the level is named in an analysis (:attr:`tavola.analysis.model.Analysis.level`)."""
        return f"{self.name} cubeful"


LEVELS: dict[str, AnalysisLevel] = {
    level.name: level
    for level in (AnalysisLevel("0-ply", 0), AnalysisLevel("1-ply", 1), AnalysisLevel("2-ply", 2))
}
"""The levels, weakest first."""

DEFAULT_LEVEL = "2-ply"
"""The strongest level: 2-ply with the bot's move filter, cubeful."""


def analysis_level(level: str | AnalysisLevel) -> AnalysisLevel:
    """The level called ``level`` (a level is given back as it is); :class:`TavolaError` if none is."""
    if isinstance(level, AnalysisLevel):
        return level
    if level not in LEVELS:
        raise TavolaError(
            _("no analysis level called {level}; known: {known}").format(
                level=repr(level), known=", ".join(LEVELS)
            )
        )
    return LEVELS[level]
