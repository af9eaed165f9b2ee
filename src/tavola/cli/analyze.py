"""``tavola analyze FILE...``: every decision of matches and sessions judged, with each player's figures.

Reads ``.mat`` files, SGF files (gnubg's analysis in them is read past),
Tavola's JSON records, the terminal game's autosave and chouette records
(each player's decisions judged on their own cube); prints a summary per
file (each player's figures, then the errors), or ``--json`` (one object, a
list for several files), or writes the HTML report of a two-player record
(``--html OUT``). ``--workers N`` or ``--ray ADDRESS`` analyse the files side
by side. A file that cannot be read or analysed is reported and the others
still are; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tavola.i18n import _

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from tavola.analysis.analyze import Progress
    from tavola.analysis.chouette import ChouetteAnalysis
    from tavola.analysis.model import Analysis
    from tavola.bot.levels import Level
    from tavola.distribute import Spread

    Found = Analysis | ChouetteAnalysis | str
    """A file's analysis, or the message saying why there is none."""

Options = tuple["Level", list[str] | None]
"""The level and the players' names (None: the record's), the same for every file."""


def add_parser(subparsers: Any) -> None:
    from tavola.bot.levels import ANALYSIS_LEVEL, DEPTHS

    parser = subparsers.add_parser(
        "analyze",
        help=_("analyse matches and sessions: every decision judged, each player's figures"),
        description=_(
            "Judge every checker play and cube decision of matches and money sessions (.mat or SGF "
            "files, Tavola JSON records or the terminal game's autosave), with the luck of every roll."
        ),
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help=_("a .mat or SGF file, a Tavola JSON record, an autosave or a chouette record"),
    )
    parser.add_argument(
        "--level",
        default=ANALYSIS_LEVEL.depth,
        metavar="{" + ",".join(DEPTHS) + "}",
        help=_("how deep to look (default: %(default)s)"),
    )
    parser.add_argument("--names", nargs=2, metavar="NAME", help=_("the two players' names, in seat order"))
    parser.add_argument("--json", action="store_true", help=_("print the analysis as JSON"))
    parser.add_argument("--html", type=Path, metavar="OUT", help=_("write the HTML report to OUT"))
    parser.add_argument("--workers", type=int, default=1, help=_("processes to spread the files over"))
    parser.add_argument("--ray", metavar="ADDRESS", help=_("a Ray cluster to spread the files over"))
    parser.set_defaults(run=run)


def analyse_one(options: Options, path: str) -> Found:
    """The analysis of the file at ``path`` (a chouette's for a chouette record), or the message saying
    why there is none; the work :class:`~tavola.distribute.Spread` spreads."""
    return _analyse(options, path, None)


def _analyse(options: Options, path: str, progress: Progress | None) -> Found:
    from tavola.analysis.analyze import analyze_file
    from tavola.analysis.chouette import analyze_chouette_file
    from tavola.errors import TavolaError
    from tavola.records import record_kind

    level, names = options
    try:
        if record_kind(path) != "chouette":
            return analyze_file(path, level=level, names=names, progress=progress)
        if names:
            return _(
                "{path}: a chouette record names its own players; --names is for two-player records"
            ).format(path=path)
        return analyze_chouette_file(path, level=level, progress=progress)
    except (TavolaError, OSError) as error:
        return str(error)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.analysis.model import Analysis
    from tavola.bot.levels import analysis_level
    from tavola.distribute import Spread
    from tavola.errors import TavolaError

    console = Console(stderr=True, highlight=False)
    try:
        options: Options = (analysis_level(args.level), args.names)
        spread = Spread(args.workers, args.ray)
        if args.workers > 1 or args.ray:
            found = _spread_with_progress(console, spread, options, args.files)
        else:
            found = [_with_progress(console, options, path) for path in args.files]
    except TavolaError as error:
        print(f"tavola analyze: {error}", file=sys.stderr)
        return 2
    status = 0
    analyses: list[Analysis | ChouetteAnalysis] = []
    for path, result in zip(args.files, found, strict=True):
        if isinstance(result, str):
            print(f"tavola analyze: {result}", file=sys.stderr)
            status = 2
            continue
        if args.html:
            if not isinstance(result, Analysis):
                message = _("{path}: the HTML report covers two-player records, not a chouette")
                print("tavola analyze: " + message.format(path=path), file=sys.stderr)
                status = 2
                continue
            status = max(status, _write_html(result, _html_path(args.html, path, len(args.files))))
        analyses.append(result)
    if args.json:
        from tavola.schema import json_text

        data = [_json(analysis) for analysis in analyses]
        print(json_text(data[0] if len(args.files) == 1 and data else data))
    elif not args.html:
        wide = None if sys.stdout.isatty() else 120
        out = Console(highlight=False, width=wide)
        for analysis in analyses:
            out.print(_view(analysis))
    return status


def _json(analysis: Analysis | ChouetteAnalysis) -> dict[str, Any]:
    from tavola.analysis.jsonout import analysis_json, chouette_analysis_json
    from tavola.analysis.model import Analysis

    return analysis_json(analysis) if isinstance(analysis, Analysis) else chouette_analysis_json(analysis)


def _view(analysis: Analysis | ChouetteAnalysis) -> RenderableType:
    from tavola.analysis.model import Analysis
    from tavola.analysis.summary import analysis_summary, chouette_analysis_view

    return analysis_summary(analysis) if isinstance(analysis, Analysis) else chouette_analysis_view(analysis)


def _with_progress(console: Console, options: Options, path: str) -> Found:
    """:func:`analyse_one` with a progress bar on the terminal's stderr."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

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

        return _analyse(options, path, progress)


def _spread_with_progress(
    console: Console, spread: Spread, options: Options, paths: list[str]
) -> list[Found]:
    """:func:`analyse_one` for every file, spread as ``spread`` says, with a bar counting the files done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn(_("Analysing...")),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("", total=len(paths))
        found: list[Found] = []
        for result in spread.map(analyse_one, options, paths):
            found.append(result)
            bar.advance(task)
        return found


def _html_path(out: Path, source: str, count: int) -> Path:
    """Where a file's report goes: ``OUT`` itself, or with several files ``OUT``'s name and the file's."""
    return out if count == 1 else out.with_name(f"{out.stem}-{Path(source).stem}{out.suffix or '.html'}")


def _write_html(analysis: Analysis, path: Path) -> int:
    from tavola.analysis.html import report_html
    from tavola.files import write_atomically

    try:
        write_atomically(path, report_html(analysis))
    except OSError as error:
        print(f"tavola analyze: {path}: {error}", file=sys.stderr)
        return 2
    print(_("wrote {path}").format(path=path), file=sys.stderr)
    return 0
