"""What the terminal shows: the board from a player's side, the score line, the IDs, hints.

>>> from tavola.console.session import PlaySession, Seat
>>> from tavola.dicesource import RandomDice
>>> from tavola.match import Match
>>> session = PlaySession(Match(5, dice=RandomDice(seed=2), players=("Ann", "Bo")), (Seat("Ann"), Seat("Bo")))
>>> print(score_line(session))
Match to 5 · Ann 0, Bo 0
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tavola.bot.cube import CubeDecision
from tavola.bot.player import Choice
from tavola.console.session import PlaySession
from tavola.game import Game
from tavola.i18n import _, ngettext
from tavola.match import Match, MoneySession, match_id_text
from tavola.render._view import CubeOwner
from tavola.render.text import rich_board


def board(session: PlaySession, game: Game, viewer: int) -> RenderableType:
    """The board seen from ``viewer``'s side with the names, pips, dice, cube and score around it."""
    mover = game.player_on_roll
    viewer_is_mover = viewer == mover
    seats = session.seats
    colors = session.view.colors
    owner: CubeOwner = (
        "center" if game.cube.owner is None else "mover" if game.cube.owner == mover else "opponent"
    )
    picture = rich_board(
        game.position,
        home=session.view.home,
        mover_name=seats[mover].name,
        opponent_name=seats[1 - mover].name,
        dice=game.dice,
        cube=(game.cube.value, owner) if game.rules.cube and game.variant.cube else None,
        viewer_is_mover=viewer_is_mover,
        colors=(colors[mover], colors[1 - mover]),
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
    mine, theirs = game.position.pip_counts()
    mover = game.player_on_roll
    pips = {mover: mine, 1 - mover: theirs}
    names = [seat.name for seat in session.seats]
    return _("Pips: {first} {first_pips}, {second} {second_pips} (difference {difference:+d})").format(
        first=names[0],
        first_pips=pips[0],
        second=names[1],
        second_pips=pips[1],
        difference=pips[0] - pips[1],
    )


def hint_table(choices: list[Choice], limit: int = 10) -> Table:
    """The bot's ranked plays: equity, the loss against the best, and the win and gammon chances."""
    table = Table(title=_("Hint"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(_("Play"))
    table.add_column(_("Equity"), justify="right")
    table.add_column(_("Loss"), justify="right")
    table.add_column(_("Win"), justify="right")
    table.add_column(_("Gammon"), justify="right")
    table.add_column(_("Lose gammon"), justify="right")
    best = choices[0].equity
    for rank, choice in enumerate(choices[:limit], start=1):
        p = choice.probabilities
        table.add_row(
            str(rank),
            choice.play.notation or _("(no move)"),
            f"{choice.equity:+.3f}",
            f"{choice.equity - best:+.3f}" if rank > 1 else "",
            f"{100 * p[0]:.1f}%",
            f"{100 * p[1]:.1f}%",
            f"{100 * p[3]:.1f}%",
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


def _number(decision: CubeDecision, value: float) -> str:
    return f"{100 * value:.1f}%" if decision.match else f"{value:+.3f}"
