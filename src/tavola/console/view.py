"""What the terminal shows: the board from a player's side, the score line, the IDs, hints.

>>> from tavola.console.session import PlaySession, Seat
>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> session = PlaySession(Match(5, dice=RandomDice(seed=2), players=("Ann", "Bo")), (Seat("Ann"), Seat("Bo")))
>>> print(score_line(session))
Match to 5 · Ann 0, Bo 0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from tavola.analysis.model import Decision
from tavola.analysis.words import choice_name, skill_name
from tavola.bot.advice import Advice, Asked
from tavola.bot.cube import CubeDecision, CubeResponse, answer, answering_values
from tavola.bot.player import Choice
from tavola.console.commands import help_examples
from tavola.console.session import PlaySession
from tavola.game import Game
from tavola.i18n import _, ngettext
from tavola.match import Match, MoneySession, match_id_text
from tavola.render import rich_board
from tavola.rules import Rules


def board(session: PlaySession, game: Game, viewer: int, x_seat: int | None = None) -> RenderableType:
    """The board seen from ``viewer``'s side with the names, pips, dice, cube and score around it.

    ``x_seat``'s checkers are ``X`` whoever is on roll (the viewer's by default), the other's ``O``.
    """
    mover = game.player_on_roll
    x_seat = viewer if x_seat is None else x_seat
    viewer_is_mover = viewer == mover
    seats = session.seats
    colors = session.view.colors
    picture = rich_board(
        game.position,
        home=session.view.home,
        mover_name=seats[mover].name,
        opponent_name=seats[1 - mover].name,
        dice=game.dice,
        cube=game.cube if game.rules.cube and game.variant.cube else None,
        mover=mover,
        viewer_is_mover=viewer_is_mover,
        colors=(colors[mover], colors[1 - mover]),
        glyphs=("X", "O") if mover == x_seat else ("O", "X"),
    )
    footer = Text(ids_line(session, game), style="dim")
    return Group(Text(score_line(session), style="bold"), picture, footer)


def score_line(session: PlaySession) -> str:
    """The match and its score, or the money session's standing."""
    names = [seat.name for seat in session.seats]
    series = session.series
    if isinstance(series, Match):
        score = series.score
        line = _("Match to {length} · {first} {first_score}, {second} {second_score}").format(
            length=series.length, first=names[0], first_score=score[0], second=names[1], second_score=score[1]
        )
        game = series.game
        if game is not None and game.crawford and not game.is_over:
            line += " · " + _("Crawford game")
        return line
    assert isinstance(series, MoneySession)
    points = series.score.points
    return _("Money session · {first} {first_points:+d}, {second} {second_points:+d}").format(
        first=names[0], first_points=points[0], second=names[1], second_points=points[1]
    )


def ids_line(session: PlaySession, game: Game) -> str:
    """The gnubg Position ID and Match ID, for pasting into other programs.

    A position with checkers waiting to enter (Acey-Deucey), which gnubg cannot
    hold, shows its Tavola ID instead.
    """
    if game.position.waiting != (0, 0):
        return _("Tavola ID: {position}").format(position=game.position.tavola_id())
    return _("Position ID: {position}   Match ID: {match}").format(
        position=game.position.position_id(), match=match_id_text(session.series)
    )


def pip_line(session: PlaySession, game: Game) -> str:
    """The pip counts, and who leads the race by how many pips (fewer pips lead).

    >>> from tavola.console.session import PlaySession, Seat
    >>> from tavola.dicesource import RandomDice
    >>> from tavola.game import Game
    >>> from tavola.match import MoneySession
    >>> from tavola.position import Position
    >>> session = PlaySession(MoneySession(dice=RandomDice(seed=1)), (Seat("Ann"), Seat("Bo")))
    >>> pip_line(session, Game(position=Position([2] * 6 + [0] * 12 + [-2] * 2 + [0] * 4), player_on_roll=1))
    'Pips: Ann 22, Bo 42 · Ann leads by 20'
    """
    mine, theirs = game.position.pip_counts()
    mover = game.player_on_roll
    pips = {mover: mine, 1 - mover: theirs}
    names = [seat.name for seat in session.seats]
    line = _("Pips: {first} {first_pips}, {second} {second_pips}").format(
        first=names[0], first_pips=pips[0], second=names[1], second_pips=pips[1]
    )
    if pips[0] == pips[1]:
        return line + " · " + _("even")
    leader = 0 if pips[0] < pips[1] else 1
    return line + " · " + _("{name} leads by {pips}").format(name=names[leader], pips=abs(pips[0] - pips[1]))


def help_table(entries: tuple[tuple[str, str], ...]) -> Table:
    """The commands of ``entries`` (see :data:`~tavola.console.commands.HELP`), with the words of the
    language in use, and what each does."""
    table = Table(title=_("Commands"), title_justify="left", show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    for example, meaning in help_examples(entries):
        table.add_row(Text(example), Text(meaning))
    return table


def play_lines(plays: list[str], width: int) -> list[str]:
    """The plays listed in lines of at most ``width`` characters, each play whole on one line.

    >>> play_lines(["24/18 13/10", "13/7 13/10", "24/15"], 30)
    ['  24/18 13/10   13/7 13/10', '  24/15']
    """
    lines: list[str] = []
    line = ""
    for play in plays:
        longer = f"{line}   {play}" if line else f"  {play}"
        if line and len(longer) > width:
            lines.append(line)
            longer = f"  {play}"
        line = longer
    return [*lines, line] if line else lines


def hint_table(choices: list[Choice], limit: int = 10) -> Table:
    """The bot's ranked plays as :meth:`~tavola.bot.player.Bot.hint` ranks them: the plays searched
    deepest first, then by equity. Each row shows its equity, its loss against the first row (the best
    play, judged deepest), the win and gammon chances (in Acey-Deucey, V2, the checkers expected to be won
    and lost instead: the equity is in checkers), and its depth in plies."""
    return _ranked_table(choices, limit, doubles=False)


def double_hint_table(choices: list[Choice]) -> Table:
    """The six doubles to choose after an Acey-Deucey 1-2 as :meth:`~tavola.bot.player.Bot.double_hint`
    ranks them, each with its best play, in the columns of :func:`hint_table`."""
    return _ranked_table(choices, len(choices), doubles=True)


def _ranked_table(choices: list[Choice], limit: int, *, doubles: bool) -> Table:
    table = Table(title=_("Hint"), title_justify="left")
    table.add_column("#", justify="right")
    if doubles:
        table.add_column(_("Double to play"), justify="center")
    table.add_column(_("Play"))
    table.add_column(_("Equity"), justify="right")
    table.add_column(_("Loss"), justify="right")
    table.add_column(_("Win"), justify="right")
    in_checkers = bool(choices) and choices[0].expected_checkers is not None
    if in_checkers:
        # TRANSLATORS: Acey-Deucey's hint: the checkers the player expects to win, and to lose, by a play.
        table.add_column(_("Checkers won"), justify="right")
        table.add_column(_("Checkers lost"), justify="right")
    else:
        table.add_column(_("Gammon"), justify="right")
        table.add_column(_("Lose gammon"), justify="right")
    # TRANSLATORS: the column of the hint table giving how many plies deep each play was judged.
    table.add_column(_("Depth"), justify="right")
    for rank, choice in enumerate(choices[:limit], start=1):
        p = choice.probabilities
        checkers = choice.expected_checkers
        chances = (
            [f"{checkers[0]:.2f}", f"{checkers[1]:.2f}"]
            if checkers
            else [f"{100 * p[1]:.1f}%", f"{100 * p[3]:.1f}%"]
        )
        dice = choice.play.dice
        table.add_row(
            str(rank),
            *([f"{dice.high}-{dice.low}"] if doubles else []),
            choice.play.notation or _("(no move)"),
            f"{choice.equity:+.3f}",
            f"{choice.equity - choices[0].equity:+.3f}",
            f"{100 * p[0]:.1f}%",
            *chances,
            str(choice.plies),
        )
    if len(choices) > limit:
        table.caption = ngettext(
            "and {count} more play", "and {count} more plays", len(choices) - limit
        ).format(count=len(choices) - limit)
    return table


def cube_hint(decision: CubeDecision) -> str:
    """The bot's cube advice in words, with the equities behind it."""
    action = {
        "no double": _("No double"),
        "double": _("Double"),
        "too good to double": _("Too good to double"),
    }[decision.action.value]
    if decision.reason is not None:
        return _("No double: {reason}").format(reason=decision.reason)
    answer = ""
    if decision.response is not None:
        answer = {"take": _("take"), "drop": _("drop"), "beaver": _("beaver")}[decision.response.value]
    parts = [(_("no double"), decision.no_double), (_("double/take"), decision.double_take)]
    parts += [(_("double/pass"), decision.double_pass), (_("double/beaver"), decision.double_beaver)]
    shown = ", ".join(f"{name} {_number(decision, value)}" for name, value in parts if value is not None)
    title = f"{action}, {answer}" if answer else action
    return f"{title} ({shown})"


def redouble_hint(decision: CubeDecision, rules: Rules, redoubles: int, value: int) -> str:
    """The advice to the side answering a beaver (``redoubles`` 1) or a raccoon (2, ...): play on at
    ``value``, give up the stake before it, or redouble at once again where the rules allow, as the one
    rule of every answer gives it (:func:`tavola.bot.cube.answer`), with each answer's value for that side.

    ``decision`` is the first doubler's; a take after ``redoubles`` redoubles is worth ``2**redoubles``
    times the double's take.

    >>> from tavola.bot.cube import money_decision
    >>> from tavola.rules import Rules
    >>> rules = Rules(beavers=1)
    >>> print(redouble_hint(money_decision([0.52, 0.15, 0.01, 0.13, 0.01], rules=rules), rules, 1, 4))
    Take the beaver (play on at 4 -0.518, drop -2.000)
    """
    found = answering_values(decision, rules, redoubles)
    chosen = answer(decision, rules, redoubles)
    beaver = redoubles == 1
    title = {
        CubeResponse.TAKE: _("Take the beaver") if beaver else _("Take the raccoon"),
        CubeResponse.DROP: _("Drop the beaver") if beaver else _("Drop the raccoon"),
        CubeResponse.BEAVER: _("Raccoon") if beaver else _("Raccoon again"),
    }[chosen]
    figures = [
        _("play on at {value} {take:+.3f}").format(value=value, take=found[CubeResponse.TAKE]),
        _("drop {drop:+.3f}").format(drop=found[CubeResponse.DROP]),
    ]
    if CubeResponse.BEAVER in found:
        figures.append(_("raccoon {value:+.3f}").format(value=found[CubeResponse.BEAVER]))
    # TRANSLATORS: advice and its figures: "Take the beaver (play on at 4 -0.518, drop -2.000)".
    return _("{advice} ({figures})").format(advice=title, figures=", ".join(figures))


def advice_view(advice: Advice) -> RenderableType:
    """The bot's advice as the terminal shows it: the hint table of a roll, the doubles to choose after
    an Acey-Deucey 1-2, the cube decision, or the answer to a beaver or raccoon."""
    question = advice.question
    if question.kind is Asked.PLAYS:
        return hint_table(list(advice.plays))
    if question.kind is Asked.DOUBLES:
        return double_hint_table(list(advice.plays))
    assert advice.cube is not None
    if question.kind is Asked.ANSWER and advice.cube.reason is not None:
        return _("Take: the double cannot help the doubler ({reason})").format(reason=advice.cube.reason)
    if question.kind is Asked.ANSWER and question.redoubles > 0:
        value = question.context.cube.value * 2 ** (question.redoubles + 1)
        return redouble_hint(advice.cube, question.context.rules, question.redoubles, value)
    return cube_hint(advice.cube)


def _number(decision: CubeDecision, value: float) -> str:
    return f"{100 * value:.1f}%" if decision.match else f"{value:+.3f}"


def tutor_warning(decision: Decision) -> Text:
    """The tutor's warning: what the choice about to be made loses, how bad that is, and the better one
    (``Tutor: take loses 0.240 (very bad); better: drop.``)."""
    text = _("Tutor: {played} loses {loss:.3f} ({skill}); better: {best}.").format(
        played=choice_name(decision.played),
        loss=decision.equity_loss,
        skill=skill_name(decision.skill),
        best=choice_name(decision.best),
    )
    if decision.mwc_loss is not None:
        text += " " + _("In match winning chances: {loss:.1f}%.").format(loss=100 * decision.mwc_loss)
    return Text(text, style="yellow")


@contextmanager
def progress_bar(console: Console, title: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar under ``title`` while the block runs; the block calls what it gets with how much is
    done and how much there is."""
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task(title, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
