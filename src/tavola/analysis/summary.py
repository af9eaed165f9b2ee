"""An analysis as the terminal shows it: each player's figures and the errors, for ``tavola analyze``,
the terminal game's ``analyze`` and the chouette's.

Every value is named in the language in use (:mod:`tavola.analysis.words`);
plays stay in Tavola's notation.

>>> from rich.console import Console
>>> from tavola.analysis.figures import player_figures
>>> from tavola.analysis.model import Analysis
>>> players = (player_figures("Ann", 0, [], result=0.0), player_figures("Ben", 1, [], result=0.0))
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as captured:
...     console.print(analysis_summary(Analysis("a.mat", 5, "standard", "0-ply cubeful", players, (), ())))
>>> lines = [line.rstrip() for line in captured.get().splitlines()]
>>> lines[0], lines[-1]
('a.mat (0-ply cubeful)', 'No decision was doubtful or worse.')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tavola.analysis.model import Analysis, PlayerFigures, Skill
from tavola.analysis.words import choice_name, level_name, rating_name, skill_name
from tavola.i18n import _, ngettext

if TYPE_CHECKING:
    from tavola.analysis.chouette import ChouetteAnalysis

__all__ = ["analysis_summary", "chouette_analysis_view"]


def analysis_summary(analysis: Analysis) -> RenderableType:
    """Each player's figures side by side, then the decisions from doubtful up."""
    return Group(_figures(analysis), _errors(analysis))


def _figures(analysis: Analysis) -> Table:
    level = level_name(analysis.level)
    title = f"{analysis.source} ({level})" if analysis.source else level
    table = Table(title=title, title_justify="left")
    table.add_column("")
    for player in analysis.players:
        table.add_column(player.name, justify="right")
    one, two = analysis.players
    rows: list[tuple[str, Callable[[PlayerFigures], str]]] = [
        (_("checker plays (unforced)"), lambda p: f"{p.moves} ({p.unforced_moves})"),
        (_("cube decisions"), lambda p: str(p.cube_decisions)),
        (_("total error"), lambda p: f"{p.total_error:.3f}"),
        (_("error rate (mEMG)"), lambda p: f"{p.error_rate_memg:.1f}"),
        (_("PR"), lambda p: f"{p.pr:.1f}"),
        (_("rating"), lambda p: rating_name(p.rating)),
        (_("luck per move"), lambda p: f"{p.luck_per_move:+.3f}"),
        (_("result"), lambda p: f"{p.result:+.3f}"),
        (_("luck-adjusted result"), lambda p: f"{p.luck_adjusted_result:+.3f}"),
    ]
    for heading, show in rows:
        table.add_row(heading, show(one), show(two))
    return table


def _errors(analysis: Analysis) -> RenderableType:
    """The decisions from doubtful up: where, who, what was played, the best, the loss, the class."""
    errors = analysis.errors()
    if not errors:
        return Text(_("No decision was doubtful or worse."))
    table = Table(title=_("Errors"), title_justify="left")
    for column in (_("game"), _("move"), _("player"), _("played"), _("best"), _("loss"), _("class")):
        table.add_column(column)
    for decision in errors:
        table.add_row(
            str(decision.game),
            str(decision.move),
            analysis.players[decision.player].name,
            choice_name(decision.played),
            choice_name(decision.best),
            f"{decision.equity_loss:.3f}",
            skill_name(decision.skill),
        )
    return table


def chouette_analysis_view(analysis: ChouetteAnalysis) -> RenderableType:
    """A chouette's analysis: the file it came from, each player's figures, then every decision of theirs
    that was bad or worse."""
    games = ngettext("{count} game", "{count} games", analysis.games).format(count=analysis.games)
    level = level_name(analysis.level)
    table = Table(
        title=_("Analysis of the chouette ({games}, {level})").format(games=games, level=level),
        title_justify="left",
    )
    table.add_column(_("Player"))
    table.add_column(_("Moves"), justify="right")
    table.add_column(_("Cube decisions"), justify="right")
    table.add_column(_("Errors (bad)"), justify="right")
    table.add_column(_("Error rate (mEMG)"), justify="right")
    table.add_column(_("PR"), justify="right")
    table.add_column(_("Rating"))
    table.add_column(_("Points"), justify="right")
    for figures in analysis.players:
        bad = sum(
            counts.get(skill, 0)
            for counts in (figures.move_errors, figures.cube_errors_by_skill)
            for skill in (Skill.BAD, Skill.VERY_BAD)
        )
        table.add_row(
            figures.name,
            str(figures.unforced_moves),
            str(figures.cube_decisions),
            str(bad),
            f"{figures.error_rate_memg:.1f}",
            f"{figures.pr:.1f}",
            rating_name(figures.rating),
            f"{figures.result:+g}",
        )
    lines: list[RenderableType] = [Text(analysis.source, style="bold")] if analysis.source else []
    lines.append(table)
    said = _("Game {game}, turn {turn}: {name} {played} loses {loss:.3f} ({skill}); better: {best}.")
    for decision in analysis.decisions:
        if decision.skill not in (Skill.BAD, Skill.VERY_BAD):
            continue
        lines.append(
            Text(
                said.format(
                    game=decision.game,
                    turn=decision.move,
                    name=analysis.names[decision.player],
                    played=choice_name(decision.played),
                    loss=decision.equity_loss,
                    skill=skill_name(decision.skill),
                    best=choice_name(decision.best),
                )
            )
        )
    return Group(*lines)
