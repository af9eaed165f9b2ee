"""``tavola analyze FILE...``: every decision of matches and sessions judged, with each player's figures.

Reads ``.mat`` files, Tavola's JSON records and the terminal game's
autosave; prints a summary per file (each player's figures, then the errors
from doubtful up), or ``--json`` (one object, a list for several files), or
writes the HTML report (``--html OUT``). A file that cannot be read or
analysed is reported and the others still are; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tavola.i18n import _

if TYPE_CHECKING:
    from rich.table import Table

    from tavola.analysis.model import Analysis, PlayerFigures


def add_parser(subparsers: Any) -> None:
    from tavola.analysis.levels import DEFAULT_LEVEL, LEVELS

    parser = subparsers.add_parser(
        "analyze",
        help=_("analyse matches and sessions: every decision judged, each player's figures"),
        description=_(
            "Judge every checker play and cube decision of matches and money sessions (.mat files, "
            "Tavola JSON records or the terminal game's autosave), with the luck of every roll."
        ),
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help=_("a .mat file, a Tavola JSON record or an autosave")
    )
    parser.add_argument(
        "--level",
        choices=list(LEVELS),
        default=DEFAULT_LEVEL,
        help=_("how deep to look (default: %(default)s)"),
    )
    parser.add_argument("--names", nargs=2, metavar="NAME", help=_("the two players' names, in seat order"))
    parser.add_argument("--json", action="store_true", help=_("print the analysis as JSON"))
    parser.add_argument("--html", type=Path, metavar="OUT", help=_("write the HTML report to OUT"))
    parser.add_argument("--workers", type=int, default=1, help=_("processes to spread the files over"))
    parser.add_argument("--ray", metavar="ADDRESS", help=_("a Ray cluster to spread the files over"))
    parser.set_defaults(run=run)


def analyse_one(options: tuple[str, list[str] | None], path: str) -> Analysis | str:
    """The analysis of the file at ``path``, or the message saying why there is none (for spreading)."""
    from tavola.analysis.analyze import analyze_file
    from tavola.errors import TavolaError

    level, names = options
    try:
        return analyze_file(path, level=level, names=names)
    except (TavolaError, OSError) as error:
        return str(error)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.distribute import Spread

    console = Console(stderr=True, highlight=False)
    options = (args.level, args.names)
    if args.workers > 1 or args.ray:
        found = Spread(args.workers, args.ray).map(analyse_one, options, args.files)
    else:
        found = [_with_progress(console, options, path, quiet=args.json) for path in args.files]
    status = 0
    analyses = []
    for path, result in zip(args.files, found, strict=True):
        if isinstance(result, str):
            print(f"tavola analyze: {result}", file=sys.stderr)
            status = 2
            continue
        analyses.append(result)
        if args.html:
            status = max(status, _write_html(result, _html_path(args.html, path, len(args.files))))
    if args.json:
        from tavola.analysis.jsonout import analysis_json
        from tavola.schema import json_text

        data = [analysis_json(analysis) for analysis in analyses]
        print(json_text(data[0] if len(args.files) == 1 and data else data))
    elif not args.html:
        wide = None if sys.stdout.isatty() else 120
        out = Console(highlight=False, width=wide)
        for analysis in analyses:
            out.print(_summary(analysis))
            out.print(_errors(analysis))
    return status


def _with_progress(
    console: Any, options: tuple[str, list[str] | None], path: str, *, quiet: bool
) -> Analysis | str:
    """:func:`analyse_one` with a progress bar on the terminal's stderr."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from tavola.analysis.analyze import analyze_file
    from tavola.errors import TavolaError

    level, names = options
    with Progress(
        TextColumn(_("Analysing {file}").format(file=Path(path).name)),
        BarColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            return analyze_file(path, level=level, names=names, progress=progress)
        except (TavolaError, OSError) as error:
            return str(error)


def _html_path(out: Path, source: str, count: int) -> Path:
    """Where a file's report goes: ``OUT`` itself, or with several files ``OUT``'s name and the file's."""
    return out if count == 1 else out.with_name(f"{out.stem}-{Path(source).stem}{out.suffix or '.html'}")


def _write_html(analysis: Analysis, path: Path) -> int:
    from tavola.files import write_atomically

    try:
        html = importlib.import_module("tavola.analysis.html")  # the report, written on its own
        write_atomically(path, html.report_html(analysis))
    except (ImportError, OSError) as error:
        print(f"tavola analyze: {path}: {error}", file=sys.stderr)
        return 2
    print(_("wrote {path}").format(path=path), file=sys.stderr)
    return 0


def _summary(analysis: Analysis) -> Table:
    """Each player's figures, side by side."""
    from rich.table import Table

    title = f"{analysis.source} ({analysis.level})"
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
        (_("rating"), lambda p: p.rating.value),
        (_("luck per move"), lambda p: f"{p.luck_per_move:+.3f}"),
        (_("result"), lambda p: f"{p.result:+.3f}"),
        (_("luck-adjusted result"), lambda p: f"{p.luck_adjusted_result:+.3f}"),
    ]
    for title, show in rows:
        table.add_row(title, show(one), show(two))
    return table


def _errors(analysis: Analysis) -> Table:
    """The decisions from doubtful up: where, who, what was played, the best, the loss."""
    from rich.table import Table

    table = Table(title=_("Errors"), title_justify="left")
    for column in (_("game"), _("move"), _("player"), _("played"), _("best"), _("loss"), _("class")):
        table.add_column(column)
    for decision in analysis.errors():
        table.add_row(
            str(decision.game),
            str(decision.move),
            analysis.players[decision.player].name,
            decision.played,
            decision.best,
            f"{decision.equity_loss:.3f}",
            decision.skill.value,
        )
    return table
