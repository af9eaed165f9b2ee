"""``tavola rollout POSITION [DICE]``: a position, or the best plays of a roll, rolled out by the bot.

POSITION is a gnubg Position ID (``POSITIONID:MATCHID`` too), an XGID or a
Tavola ID (``TVL=...``). Without dice the position is rolled out before the
roll, for the player on roll; with DICE (or an XGID's own dice) the best
``--plays`` plays are rolled out side by side on the same dice, for the
player who moves. Each figure is shown with its standard error and 95%
interval (see :mod:`tavola.analysis.rollout`); ``--json`` prints one JSON
object instead, with the settings and the seed.

Rollouts are cubeful wherever the variant has the doubling cube: the cube,
its owner, the match score and the money rules come from the ID (an
XGID's; centred at 1 for money otherwise), and before the roll the figures
are no double, double/take and double/pass with the right action.
``--cubeless`` rolls out without the cube. ``--workers N`` plays in N
processes, ``--ray ADDRESS`` (or ``auto``) on a Ray cluster; the figures
are the same, bit for bit.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tavola.i18n import _
from tavola.variants import VARIANTS

if TYPE_CHECKING:
    from rich.table import Table

    from tavola.analysis.rollout import Cubeful, PlayRollout, RolloutResult, RolloutSettings
    from tavola.analysis.stats import Estimate


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "rollout",
        help=_("roll out a position, or the best plays of a roll, with the bot"),
        description=_(
            "Play a position out many times with the bot on both sides and average the results: "
            "before the roll, or the best plays of a roll on the same dice."
        ),
    )
    parser.add_argument("position", help=_("a gnubg Position ID, an XGID or a Tavola ID"))
    parser.add_argument("dice", nargs="?", help=_("the roll, such as 31 or 3-1 (none: before the roll)"))
    parser.add_argument("--trials", default="1296", help=_("how many games to play out (default 1296)"))
    parser.add_argument(
        "--truncate",
        metavar="PLIES",
        help=_("stop each game after PLIES plays and judge it (default: never)"),
    )
    parser.add_argument("--plies", default="0", help=_("how far the bot looks ahead to play, 0 or 1"))
    parser.add_argument(
        "--no-variance-reduction",
        action="store_true",
        help=_("do not take the luck of the dice out of the results"),
    )
    parser.add_argument(
        "--no-quasi-random", action="store_true", help=_("random dice from the first roll on")
    )
    parser.add_argument("--seed", help=_("seed the dice, for a reproducible rollout"))
    parser.add_argument("--workers", default="1", help=_("how many processes play (default 1)"))
    parser.add_argument(
        "--ray", metavar="ADDRESS", help=_("play on the Ray cluster at ADDRESS, or 'auto' (needs Ray)")
    )
    parser.add_argument("--cubeless", action="store_true", help=_("roll out without the doubling cube"))
    parser.add_argument("--plays", default="5", help=_("how many of the best plays to roll out (default 5)"))
    parser.add_argument(
        "--target-se",
        metavar="X",
        help=_("stop once the deciding equity's standard error is below X"),
    )
    parser.add_argument(
        "--variant",
        default="standard",
        choices=[variant.name for variant in VARIANTS],
        help=_("the rules to play by (default: standard)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))
    parser.set_defaults(run=run)


def _whole(option: str, text: str, low: int = 1) -> int:
    """The whole number ``text`` given to ``option``, at least ``low``."""
    from tavola.analysis.rollout import RolloutError

    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        if option == "--seed":
            raise RolloutError(_("--seed takes a whole number from 0 up, not {seed}").format(seed=repr(text)))
        raise RolloutError(
            f"{option}: " + _("a whole number from 1 up, not {value}").format(value=repr(text))
        )
    return value


def _positive(option: str, text: str) -> float:
    from tavola.analysis.rollout import RolloutError

    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise RolloutError(f"{option}: " + _("a number above 0, not {value}").format(value=repr(text)))
    return value


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from tavola.analysis.rollout import RolloutSettings, rollout_plays, rollout_position
    from tavola.bot.evaluate import Evaluator
    from tavola.bot.levels import level_at
    from tavola.cli._setup import read_setup
    from tavola.dice import Dice
    from tavola.distribute import Spread
    from tavola.errors import TavolaError
    from tavola.schema import json_text
    from tavola.variants import find_variant

    try:
        variant = find_variant(args.variant)
        setup = read_setup(args.position, variant)
        dice = Dice.parse(args.dice) if args.dice else setup.dice
        settings = RolloutSettings(
            trials=_whole("--trials", args.trials),
            truncation=None if args.truncate is None else _whole("--truncate", args.truncate),
            level=level_at(_whole("--plies", args.plies, 0)),
            variance_reduction=not args.no_variance_reduction,
            quasi_random=not args.no_quasi_random,
            seed=None if args.seed is None else _whole("--seed", args.seed, 0),
            variant=variant,
            cubeful=variant.cube and setup.rules.cube and not args.cubeless,
            cube=setup.cube,
            match=setup.match,
            rules=setup.rules,
        )
        spread = Spread(_whole("--workers", args.workers), args.ray)
        count = _whole("--plays", args.plays)
        target = None if args.target_se is None else _positive("--target-se", args.target_se)
        evaluator = Evaluator.default()
        console = Console(stderr=True, highlight=False)
        with Progress(
            TextColumn(_("Rolling out")),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TextColumn("{task.fields[equity]}"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=args.json or not console.is_terminal,
        ) as bar:
            task = bar.add_task("", total=settings.trials, equity="")

            def progress(done: int, equity: Estimate) -> None:
                shown = _("equity {equity}").format(equity=_show(equity))
                bar.update(task, completed=done, equity=shown)

            options: dict[str, Any] = {"spread": spread, "target_se": target, "progress": progress}
            if dice is None:
                result = rollout_position(setup.position, settings, evaluator, **options)
                report = _position_report(result)
                seed = result.seed
            else:
                found = rollout_plays(setup.position, dice, settings, evaluator, count, **options)
                report = _plays_report(found)
                seed = found[0].result.seed
            report["settings"] = _settings_report(settings, seed, spread)
    except TavolaError as error:
        print(f"tavola rollout: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json_text(report))
    else:
        wide = None if sys.stdout.isatty() else 120  # a file or a pipe gets every column whole
        Console(highlight=False, width=wide).print(_table(report))
    return 0


_OUTCOMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def _estimate(estimate: Estimate) -> dict[str, Any]:
    low, high = estimate.interval
    return {"mean": estimate.mean, "se": estimate.standard_error, "interval": [low, high]}


def _result_report(result: RolloutResult) -> dict[str, Any]:
    report = {
        "equity": _estimate(result.equity),
        **{name: _estimate(value) for name, value in zip(_OUTCOMES, result.probabilities, strict=True)},
        "trials": result.trials,
        "seed": result.seed,
    }
    if result.mwc is not None:
        report["mwc"] = _estimate(result.mwc)
    if result.cubeful is not None:
        report["cubeful"] = _cubeful_report(result.cubeful)
    if result.normalised is not None:
        report["cubeful_normalised"] = _cubeful_report(result.normalised)
    return report


def _cubeful_report(figures: Cubeful) -> dict[str, Any]:
    """The cubeful figures: each with its error and interval, and the right action where there is one."""
    named = {
        "no_double": figures.no_double,
        "double_take": figures.double_take,
        "double_pass": figures.double_pass,
        "take_less_no_double": figures.take_less_no_double,
    }
    report: dict[str, Any] = {name: _estimate(value) for name, value in named.items() if value is not None}
    report["equity"] = _estimate(figures.equity)
    decision = figures.decision
    if decision is not None:
        report["action"] = decision.action.value
        report["response"] = None if decision.response is None else decision.response.value
        report["decision"] = decision.title
        if decision.double_beaver is not None:
            report["double_beaver"] = decision.double_beaver
    return report


def _settings_report(settings: RolloutSettings, seed: int, spread: Any) -> dict[str, Any]:
    """How the rollout was made: enough to make it again."""
    match = settings.match
    return {
        "trials": settings.trials,
        "truncation": settings.truncation,
        "plies": settings.level.plies,
        "variance_reduction": settings.variance_reduction,
        "quasi_random": settings.quasi_random,
        "seed": seed,
        "variant": settings.variant.name,
        "cubeful": settings.cubeful,
        "cube": {"value": settings.cube.value, "owner": {None: "centred", 0: "player", 1: "opponent"}[
            settings.cube.owner
        ]},
        "match": None if match is None else {
            "length": match.length, "score": list(match.score), "away": list(match.away),
            "crawford": match.crawford,
        },
        "rules": {"jacoby": settings.rules.jacoby, "beavers": settings.rules.beavers},
        "workers": spread.workers,
        "ray": spread.ray,
    }  # fmt: skip


def _position_report(result: RolloutResult) -> dict[str, Any]:
    """The JSON answer for a position rolled out before the roll."""
    return {"position": _result_report(result)}


def _plays_report(found: Sequence[PlayRollout]) -> dict[str, Any]:
    """The JSON answer for plays rolled out: best first, each with its difference to the best."""
    return {
        "plays": [
            {
                "play": entry.play.notation,
                **_result_report(entry.result),
                "difference": _estimate(entry.difference),
            }
            for entry in found
        ]
    }


def _show(estimate: Estimate, percent: bool = False) -> str:
    """A figure with its standard error: ``+0.123 ± 0.004``, or ``53.2% ± 0.4%``."""
    if percent:
        return f"{100 * estimate.mean:.1f}% ± {100 * estimate.standard_error:.1f}%"
    return f"{estimate.mean:+.3f} ± {estimate.standard_error:.3f}"


def _interval(figure: dict[str, Any], percent: bool = False) -> str:
    low, high = figure["interval"]
    return f"{100 * low:.1f}%..{100 * high:.1f}%" if percent else f"{low:+.3f} .. {high:+.3f}"


def _table(report: dict[str, Any]) -> Table:
    """The rollout as a rich table: each figure ± its standard error, and its 95% interval."""
    from rich.table import Table

    from tavola.analysis.stats import Estimate

    def shown(figure: dict[str, Any], percent: bool = False, *, compact: bool = False) -> str:
        text = _show(Estimate(figure["mean"], figure["se"]), percent)
        return text.replace(" ± ", "±").replace("%±", "±") if compact else text

    labels = (_("Win"), _("Gammon"), _("Backgammon"), _("Lose gammon"), _("Lose backgammon"))
    if "position" in report:
        figures = report["position"]
        table = Table(
            title=_("Rollout before the roll, {trials} trials").format(trials=figures["trials"]),
            title_justify="left",
        )
        table.add_column("")
        table.add_column(_("Estimate"), justify="right")
        table.add_column(_("interval at 95%"), justify="right")
        cubeful = figures.get("cubeful")
        percent = "mwc" in figures  # a match's cubeful figures are match winning chances
        if cubeful is not None:
            for label, name in ((_("no double"), "no_double"), (_("double/take"), "double_take")):
                if name in cubeful:
                    table.add_row(label, shown(cubeful[name], percent), _interval(cubeful[name], percent))
            if "double_pass" in cubeful:
                table.add_row(_("double/pass"), shown(cubeful["double_pass"], percent), "")
            table.caption = _cube_caption(report["position"])
        table.add_row(_("Equity"), shown(figures["equity"]), _interval(figures["equity"]))
        if percent:
            table.add_row(
                _("Match winning chance"), shown(figures["mwc"], True), _interval(figures["mwc"], True)
            )
        for label, name in zip(labels, _OUTCOMES, strict=True):
            table.add_row(label, shown(figures[name], True), _interval(figures[name], True))
        return table
    plays = report["plays"]
    cubeful = "cubeful" in plays[0]
    percent = "mwc" in plays[0]
    table = Table(
        title=_("Rollout of the best plays, {trials} trials").format(trials=plays[0]["trials"]),
        title_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column(_("Play"))
    if cubeful:
        table.add_column(_("Cubeful"), justify="right")
    table.add_column(_("Equity"), justify="right")
    table.add_column(_("interval at 95%"), justify="right")
    table.add_column(_("Loss"), justify="right")
    for label in (_("Win"), _("Gammon"), _("Lose gammon")):
        table.add_column(label, justify="right")
    for rank, entry in enumerate(plays, start=1):
        ranking = entry["cubeful"]["no_double"] if cubeful else entry["equity"]
        table.add_row(
            str(rank),
            entry["play"] or _("(no move)"),
            *([shown(ranking, percent, compact=True)] if cubeful else []),
            shown(entry["equity"], compact=True),
            _interval(ranking, percent and cubeful),
            "" if rank == 1 else shown(entry["difference"], compact=True),
            *(shown(entry[name], True, compact=True) for name in ("win", "win_gammon", "lose_gammon")),
        )
    table.caption = _("Backgammons, and every figure in full: --json")
    return table


def _cube_caption(figures: dict[str, Any]) -> str:
    """The right cube action from the rolled-out equities, in words (as the hint gives it)."""
    from tavola.bot.cube import CubeAction, CubeDecision, CubeResponse
    from tavola.console.view import cube_hint

    cubeful = figures["cubeful"]

    def mean(name: str) -> float | None:
        return cubeful[name]["mean"] if name in cubeful else None

    response = cubeful.get("response")
    decision = CubeDecision(
        CubeAction(cubeful["action"]),
        None if response is None else CubeResponse(response),
        cubeful["no_double"]["mean"],
        mean("double_take"),
        mean("double_pass"),
        cubeful.get("double_beaver"),
        match="mwc" in figures,
    )
    return cube_hint(decision)
