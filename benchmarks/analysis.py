"""Match analysis against GNU Backgammon's: its speed, and how far the two agree on the reference matches.

Run: python benchmarks/analysis.py [--speed-only | --agreement-only] [--file NAME]

(a) Speed: one 7-point reference match (``benchmarks/data/``, made by
gnubg: see ``benchmarks/gnubg_analysis.py``) analysed by Tavola at its
default level (:func:`tavola.analysis.analyze.analyze_file`) and by gnubg's
``analyse match`` at 2-ply, in the same run, on one core (the process, and
gnubg started from it, pinned to one CPU; BLAS one thread). gnubg's time is
that of its script less the same script without ``analyse match`` (its
start-up and the import); Tavola's first analysis of a small file, before
the timing, compiles and loads what it needs. Printed: seconds, the checker
plays of the match, each program's decisions and milliseconds a decision.

(b) Agreement: for each reference file, each player's error rate (mEMG a
decision) by Tavola and by gnubg (stored in
``benchmarks/data/gnubg-analysis.json``), how many of gnubg's very bad
decisions Tavola marks at least bad, and how many of Tavola's very bad ones
gnubg marks at least bad; decisions are matched by (game, move, player,
kind).
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # before NumPy loads its BLAS: one thread

import argparse  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from gnubg_analysis import (  # noqa: E402
    DATA,
    REFERENCE_FILES,
    Agreement,
    GnubgAnalysis,
    GnubgError,
    agreement,
    analysis_settings,
    gnubg_available,
    read_reference,
    run_gnubg,
    totals,
)
from tavola.analysis.analyze import analyze_file  # noqa: E402
from tavola.analysis.model import Analysis  # noqa: E402

SPEED_FILE = "gnubg-7-point-1.mat"
WARM_UP = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg-money-beavers.mat"


# --- (a) speed ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """One program's analysis of one file: seconds, the decisions it judged, and the start-up left out."""

    seconds: float
    decisions: int
    startup: float = 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000.0 * self.seconds / self.decisions if self.decisions else float("nan")


def gnubg_timing(path: Path, reference: GnubgAnalysis, *, plies: int = 2, repeats: int = 3) -> Timing:
    """gnubg's ``analyse match`` of ``path`` at ``plies``, less its start-up (the best of ``repeats``)."""
    script = [f'import mat "{path.resolve()}"', *analysis_settings(plies)]
    startup = min(_seconds(lambda: run_gnubg(script)) for _ in range(repeats))
    analysing = _seconds(lambda: run_gnubg([*script, "analyse match"]))
    decisions = sum(figures.moves + figures.all_cube_decisions for figures in reference.players)
    return Timing(analysing - startup, decisions, startup)


def tavola_timing(path: Path) -> tuple[Timing, Analysis]:
    """Tavola's analysis of ``path`` at its default level (after a warm-up on a small file), and the
    analysis."""
    analyze_file(WARM_UP)
    began = time.perf_counter()
    analysis = analyze_file(path)
    return Timing(time.perf_counter() - began, len(analysis.decisions)), analysis


def _seconds(action: Callable[[], object]) -> float:
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def speed_table(file: str, plays: int, timings: dict[str, Timing]) -> Table:
    startup = "; ".join(
        f"{name}: start-up {t.startup:.2f} s not counted" for name, t in timings.items() if t.startup
    )
    table = Table(title=f"Analysis speed: {file} ({plays} checker plays), one core", caption=startup or None)
    for column in ("analysis", "seconds", "decisions", "ms / decision"):
        table.add_column(column, justify="left" if column == "analysis" else "right")
    for name, timing in timings.items():
        table.add_row(name, f"{timing.seconds:.2f}", str(timing.decisions), f"{timing.ms_per_decision:.1f}")
    return table


# --- (b) agreement --------------------------------------------------------------------------------


def agreement_table(rows: Sequence[Agreement], level: str) -> Table:
    table = Table(title=f"Agreement with gnubg 2-ply (Tavola: {level})")
    columns = (
        "file",
        "player",
        "gnubg mEMG",
        "Tavola mEMG",
        "gnubg very bad",
        "Tavola ≥ bad on them",
        "Tavola very bad",
        "gnubg ≥ bad on them",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in ("file", "player") else "right")
    for row in rows:
        table.add_row(
            row.file,
            row.player,
            f"{row.gnubg_rate:.1f}",
            f"{row.tavola_rate:.1f}",
            str(row.gnubg_very_bad),
            _share(row.tavola_at_least_bad, row.gnubg_very_bad),
            str(row.tavola_very_bad),
            _share(row.gnubg_at_least_bad, row.tavola_very_bad),
        )
    total = totals(rows)
    table.add_row(
        "all",
        "",
        "",
        "",
        str(total.gnubg_very_bad),
        _share(total.tavola_at_least_bad, total.gnubg_very_bad),
        str(total.tavola_very_bad),
        _share(total.gnubg_at_least_bad, total.tavola_very_bad),
        style="bold",
    )
    return table


def _share(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.0f}%)" if whole else "0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-only", action="store_true", help="time the analyses, skip the agreement")
    parser.add_argument("--agreement-only", action="store_true", help="compare the analyses, skip the timing")
    parser.add_argument("--file", default=SPEED_FILE, help=f"the match to time (default {SPEED_FILE})")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # gnubg, started from here, inherits it
    console = Console(width=160)
    references = read_reference()
    analyses: dict[str, Analysis] = {}
    if not args.agreement_only:
        path = DATA / args.file
        timings: dict[str, Timing] = {}
        timings["Tavola (default level)"], analyses[args.file] = tavola_timing(path)
        if gnubg_available():
            timings["gnubg (analyse match, 2-ply)"] = gnubg_timing(path, references[args.file])
        plays = sum(figures.moves for figures in references[args.file].players)
        console.print(speed_table(args.file, plays, timings))
    if args.speed_only:
        return
    rows: list[Agreement] = []
    level = ""
    for file in REFERENCE_FILES:
        analysis = analyses.get(file) or analyze_file(DATA / file)
        level = analysis.level
        rows += agreement(references[file], analysis)
    console.print(agreement_table(rows, level))


if __name__ == "__main__":
    try:
        main()
    except GnubgError as error:
        raise SystemExit(f"gnubg: {error}") from None
