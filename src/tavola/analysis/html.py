"""The analysis of a match or money session as one self-contained HTML page, for reading and printing.

:func:`report_html` writes the header (players, match length or money,
level, result), each player's figures side by side, a chart of player 0's
equity or match winning chances through the record with the errors marked,
the games, and every decision classed doubtful or worse with its board (as
the decider saw it, dice and cube drawn), the play made against the better
ones, and the luck of the roll where it was notable. Everything is inline
(style, SVG; no script, font or picture is fetched), every text from a file
is escaped, and the page speaks the language in use (:mod:`tavola.i18n`).

>>> from tavola.analysis.model import Analysis, PlayerFigures, Rating
>>> figures = PlayerFigures(
...     "Ann", 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, {}, {}, {}, 0.0, 0.0, 0, 0, 0, 0, 0.0, 0.0,
...     Rating.SUPERNATURAL,
... )
>>> page = report_html(Analysis("m.mat", 3, "standard", "0-ply", (figures, figures), (), ()))
>>> page.startswith("<!DOCTYPE html>"), '<html lang="en">' in page
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from tavola.analysis.htmlchart import equity_chart
from tavola.analysis.htmlstyle import STYLE
from tavola.analysis.model import (
    Alternative,
    Analysis,
    CubeError,
    Decision,
    GameSummary,
    LuckClass,
    PlayerFigures,
    Skill,
)
from tavola.analysis.words import (
    RESIGNATION_CHOICES,
    choice_name,
    cube_error_name,
    level_name,
    luck_name,
    rating_name,
    skill_name,
)
from tavola.cube import Cube
from tavola.errors import TavolaError
from tavola.i18n import _, language
from tavola.render import svg_board

CHECKER_COLOURS = ("#f6f1e3", "#262626")
"""Player 0's and player 1's checkers, the same on every board of the report."""
BOARD_SIZE = 340
"""The width of a board in pixels."""
SHOWN_ALTERNATIVES = 5
"""How many of the best choices a decision lists (the one played is added where it is not among them)."""

ERROR_CLASSES = (Skill.DOUBTFUL, Skill.BAD, Skill.VERY_BAD)


def report_html(analysis: Analysis) -> str:
    """The whole report as one HTML document (UTF-8 text), in the language in use."""
    names = tuple(player.name for player in analysis.players)
    title = _("Analysis: {first} against {second}").format(first=names[0], second=names[1])
    made = _("Made with Tavola from {source}.").format(source=analysis.source)
    body = [
        _header(analysis),
        _figures_section(analysis),
        _chart_section(analysis),
        _games_section(analysis),
        _errors_section(analysis),
        _decisions_section(analysis),
        f"<footer><p>{escape(made)}</p></footer>",
    ]
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(language())}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


# The header and the player's figures.


def _header(analysis: Analysis) -> str:
    if analysis.length:
        what = _("a match to {length}").format(length=analysis.length)
    elif len(analysis.games) == 1:  # a one-game table, or a session that stopped after its first game
        what = _("a single game")
    else:
        what = _("a money session")
    about = _("Analysis of {what} at {level}").format(what=what, level=level_name(analysis.level))
    if analysis.variant != "standard":
        about += f" · {analysis.variant}"
    names = [player.name for player in analysis.players]
    heading = " \u2013 ".join(f"{_swatch(player)} {escape(name)}" for player, name in enumerate(names))
    links = [
        ("figures", _("Figures")),
        ("chart", _chart_heading(analysis)),
        ("games", _("Games")),
        ("errors", _("Errors")),
    ]
    nav = "".join(f'<li><a href="#{anchor}">{escape(text)}</a></li>' for anchor, text in links)
    contents = _("Contents")
    return (
        f"<header>\n<h1>{heading}</h1>\n"
        f'<p class="subtitle">{escape(about)}</p>\n'
        f'<p class="result">{escape(_result_line(analysis))}</p>\n'
        f'<nav aria-label="{escape(contents)}"><ul>{nav}</ul></nav>\n</header>'
    )


def _result_line(analysis: Analysis) -> str:
    """The score at the end of the record, and who won the match."""
    names = [player.name for player in analysis.players]
    final = _score_after(analysis.games[-1]) if analysis.games else (0, 0)
    if not analysis.length:
        points = _money_points(analysis.games, len(analysis.games))
        return _("Money session · {first} {first_points:+d}, {second} {second_points:+d}").format(
            first=names[0], first_points=points[0], second=names[1], second_points=points[1]
        )
    line = _("Match to {length} · {first} {first_score}, {second} {second_score}").format(
        length=analysis.length, first=names[0], first_score=final[0], second=names[1], second_score=final[1]
    )
    winner = next((player for player in (0, 1) if final[player] >= analysis.length), None)
    if winner is not None:
        score = f"{final[winner]}-{final[1 - winner]}"
        line += " · " + _("{name} wins the match {score}.").format(name=names[winner], score=score)
    return line


def _score_after(game: GameSummary) -> tuple[int, int]:
    score = list(game.score_before)
    if game.winner is not None:
        score[game.winner] += game.points
    return score[0], score[1]


def _money_points(games: Sequence[GameSummary], count: int) -> tuple[int, int]:
    """Each player's points over the first ``count`` games of a money session."""
    won = [0, 0]
    for game in games[:count]:
        if game.winner is not None:
            won[game.winner] += game.points
            won[1 - game.winner] -= game.points
    return won[0], won[1]


def _swatch(player: int) -> str:
    """A checker of ``player``'s colour, as a small inline picture."""
    return (
        '<svg class="swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">'
        f'<circle cx="7" cy="7" r="6" fill="{CHECKER_COLOURS[player]}" stroke="#000000" stroke-width="1"/>'
        "</svg>"
    )


def _figures_section(analysis: Analysis) -> str:
    players = analysis.players
    match = bool(analysis.length)
    header = "".join(
        f'<th scope="col" class="number">{_swatch(i)} {escape(p.name)}</th>' for i, p in enumerate(players)
    )
    groups: list[tuple[str, list[tuple[str, tuple[str, str]]]]] = [
        (
            _("Skill"),
            [
                (_("Error rate (mEMG)"), _both(players, lambda p: f"{p.error_rate_memg:.1f}")),
                (_("Performance rating (PR)"), _both(players, lambda p: f"{p.pr:.1f}")),
                (_("Rating"), _both(players, lambda p: rating_name(p.rating))),
                (_("Checker plays (unforced)"), _both(players, lambda p: f"{p.moves} ({p.unforced_moves})")),
                (_("Cube decisions"), _both(players, lambda p: str(p.cube_decisions))),
                (_("Equity lost in checker play"), _both(players, lambda p: f"{p.move_error:.3f}")),
                (_("Equity lost in cube decisions"), _both(players, lambda p: f"{p.cube_error:.3f}")),
            ],
        ),
        (_("Checker play errors"), _class_rows(players, "move")),
        (_("Cube errors"), _class_rows(players, "cube") + _cube_kind_rows(players)),
        (
            _("Luck"),
            [
                (_("Luck per move (mEMG)"), _both(players, lambda p: f"{p.luck_per_move * 1000:+.1f}")),
                (_("Luck in total"), _both(players, lambda p: f"{p.luck:+.3f}")),
                (luck_name(LuckClass.VERY_LUCKY), _both(players, lambda p: str(p.very_lucky))),
                (luck_name(LuckClass.LUCKY), _both(players, lambda p: str(p.lucky))),
                (luck_name(LuckClass.UNLUCKY), _both(players, lambda p: str(p.unlucky))),
                (luck_name(LuckClass.VERY_UNLUCKY), _both(players, lambda p: str(p.very_unlucky))),
            ],
        ),
        (
            _("Result"),
            [
                (_("Result"), _both(players, lambda p: _result(p.result, match))),
                (
                    _("Result adjusted for luck"),
                    _both(players, lambda p: _result(p.luck_adjusted_result, match)),
                ),
            ],
        ),
    ]
    rows = []
    for group, lines in groups:
        rows.append(f'<tbody>\n<tr><th scope="rowgroup" colspan="3">{escape(group)}</th></tr>')
        rows += [
            f'<tr><th scope="row">{escape(label)}</th><td>{escape(first)}</td><td>{escape(second)}</td></tr>'
            for label, (first, second) in lines
        ]
        rows.append("</tbody>")
    title = _("Figures")
    return (
        f'<section class="figures" id="figures" aria-labelledby="figures-heading">\n'
        f'<h2 id="figures-heading">{escape(title)}</h2>\n<table class="figures">\n'
        f"<thead><tr><td></td>{header}</tr></thead>\n" + "\n".join(rows) + "\n</table>\n</section>"
    )


def _both(players: Sequence[PlayerFigures], show: Callable[[PlayerFigures], str]) -> tuple[str, str]:
    return show(players[0]), show(players[1])


def _class_rows(players: Sequence[PlayerFigures], kind: str) -> list[tuple[str, tuple[str, str]]]:
    """The count of doubtful, bad and very bad decisions of one kind ("move" or "cube")."""

    counts = [player.move_errors if kind == "move" else player.cube_errors_by_skill for player in players]
    return [
        (skill_name(skill), (str(counts[0].get(skill, 0)), str(counts[1].get(skill, 0))))
        for skill in ERROR_CLASSES
    ]


def _cube_kind_rows(players: Sequence[PlayerFigures]) -> list[tuple[str, tuple[str, str]]]:
    """The count of each kind of cube error that either player made."""
    return [
        (
            cube_error_name(kind),
            (str(players[0].cube_errors.get(kind, 0)), str(players[1].cube_errors.get(kind, 0))),
        )
        for kind in CubeError
        if any(player.cube_errors.get(kind, 0) for player in players)
    ]


def _result(value: float, match: bool) -> str:
    """Points won (money) or the match winning chances gained from the 50% of the start (in percent; +50%
    for the match's winner)."""
    return f"{value * 100:+.1f}%" if match else f"{value:+.2f}"


# The chart and the games.


def _chart_heading(analysis: Analysis) -> str:
    """What the chart shows: player 0's match winning chances, or equity in a money session."""
    name = analysis.players[0].name
    if analysis.length:
        return _("Match winning chances of {name}").format(name=name)
    return _("Equity of {name}").format(name=name)


def _chart_section(analysis: Analysis) -> str:
    title = _chart_heading(analysis)
    chart = equity_chart(
        analysis.games,
        analysis.decisions,
        match=bool(analysis.length),
        title=title,
        describe=lambda decision: (
            _decision_title(analysis, decision)
            + f" · {skill_name(decision.skill)} ({decision.equity_loss:.3f})"
        ),
        anchor=lambda decision: _anchor(analysis, decision),
    )
    whose = [_("errors of {name}").format(name=figures.name) for figures in analysis.players]
    legend = [
        *(f"<span>{_mark_sample(player)} {escape(text)}</span>" for player, text in enumerate(whose)),
        *(
            f'<span><span class="skill {_css(skill)}">{escape(skill_name(skill))}</span></span>'
            for skill in ERROR_CLASSES
        ),
    ]
    return (
        f'<section class="chart-section" id="chart" aria-labelledby="chart-heading">\n'
        f'<h2 id="chart-heading">{escape(title)}</h2>\n{chart}\n'
        f'<p class="legend">{"".join(legend)}</p>\n</section>'
    )


def _mark_sample(player: int) -> str:
    colour = "#5a6270"
    shape = (
        f'<circle cx="7" cy="7" r="5" fill="{colour}"/>'
        if player == 0
        else f'<polygon points="7,1 13,7 7,13 1,7" fill="{colour}"/>'
    )
    return f'<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">{shape}</svg>'


def _games_section(analysis: Analysis) -> str:
    names = [player.name for player in analysis.players]
    rows = []
    for count, game in enumerate(analysis.games, start=1):
        winner = escape(names[game.winner]) if game.winner is not None else "—"
        if analysis.length:
            after = "{}-{}".format(*_score_after(game))
        else:
            after = "{:+d}, {:+d}".format(*_money_points(analysis.games, count))
        rows.append(
            f'<tr><td class="number">{game.number}</td><td>{winner}</td>'
            f'<td class="number">{game.points if game.winner is not None else 0}</td>'
            f'<td class="number">{escape(after)}</td></tr>'
        )
    headers = _column_headers(
        ((_("game"), True), (_("winner"), False), (_("points"), True), (_("score after"), True))
    )
    title = _("Games")
    return (
        '<section id="games" aria-labelledby="games-heading">\n'
        f'<h2 id="games-heading">{escape(title)}</h2>\n'
        f'<table class="games">\n<thead><tr>{headers}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>\n</section>"
    )


# The errors: a list, then each with its board.


def _errors_section(analysis: Analysis) -> str:
    errors = analysis.errors()
    title = _("Errors")
    heading = f'<h2 id="errors-heading">{escape(title)}</h2>'
    if not errors:
        text = escape(_("No decision was doubtful or worse."))
        return f'<section id="errors" aria-labelledby="errors-heading">\n{heading}\n<p>{text}</p>\n</section>'
    match = any(d.mwc_loss is not None for d in errors)
    columns = [(_("game"), True), (_("move"), True), (_("Player"), False), (_("played"), False)]
    columns += [
        (_("best"), False),
        (_("Loss"), True),
        *([(_("MWC"), True)] if match else []),
        (_("class"), False),
    ]
    rows = []
    for d in errors:
        mwc = f'<td class="number">{_percent(d.mwc_loss, 2)}</td>' if match else ""
        rows.append(
            f'<tr><td class="number">{d.game}</td>'
            f'<td class="number"><a href="#{_anchor(analysis, d)}">{d.move}</a></td>'
            f"<td>{escape(analysis.players[d.player].name)}</td><td>{escape(choice_name(d.played))}</td>"
            f'<td>{escape(choice_name(d.best))}</td><td class="number">{d.equity_loss:.3f}</td>{mwc}'
            f"<td>{_skill_badge(d.skill)}</td></tr>"
        )
    headers = _column_headers(columns)
    return (
        f'<section id="errors" aria-labelledby="errors-heading">\n{heading}\n'
        f'<table class="errors">\n<thead><tr>{headers}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>\n</section>"
    )


def _decisions_section(analysis: Analysis) -> str:
    return "\n".join(_decision(analysis, decision) for decision in analysis.errors())


def _decision(analysis: Analysis, decision: Decision) -> str:
    anchor = _anchor(analysis, decision)
    name = analysis.players[decision.player].name
    caption = _board_caption(analysis, decision, name)
    board = svg_board(
        decision.position,
        size=BOARD_SIZE,
        colors=(CHECKER_COLOURS[decision.player], CHECKER_COLOURS[1 - decision.player]),
        dice=decision.dice,
        cube=_cube_shown(decision),
        mover=decision.player,
    ).replace(' role="img"', f' role="img" aria-labelledby="{anchor}-board"', 1)
    facts = [
        (_("played"), escape(choice_name(decision.played))),
        (_("best"), escape(choice_name(decision.best))),
        (_("Loss"), _loss(decision)),
    ]
    if decision.cube_error is not None:
        facts.append((_("cube error"), escape(cube_error_name(decision.cube_error))))
    if decision.luck is not None and decision.luck_class is not LuckClass.NONE:
        tone = "lucky" if decision.luck > 0 else "unlucky"
        luck = f"{escape(luck_name(decision.luck_class))} ({decision.luck:+.3f})"
        facts.append((_("luck of the roll"), f'<span class="{tone}">{luck}</span>'))
    listed = "".join(f"<dt>{escape(label)}</dt><dd>{value}</dd>" for label, value in facts)
    return (
        f'<section class="decision {_css(decision.skill)}" id="{anchor}" '
        f'aria-labelledby="{anchor}-heading">\n'
        f'<h3 id="{anchor}-heading">{escape(_decision_title(analysis, decision))} '
        f"{_skill_badge(decision.skill)}</h3>\n"
        f'<div class="decision-body">\n<figure>\n{board}'
        f'<figcaption id="{anchor}-board">{caption}</figcaption>\n</figure>\n'
        f'<div class="judgement">\n<dl class="facts">{listed}</dl>\n'
        f"{_alternatives_table(analysis, decision)}\n</div>\n</div>\n</section>"
    )


def _board_caption(analysis: Analysis, decision: Decision, name: str) -> str:
    """What the board shows, in words (also the board's accessible name), with the score and the ID."""
    if decision.dice is not None:
        what = _("{name} to play {dice}").format(name=name, dice=decision.dice)
    elif any(choice.text in RESIGNATION_CHOICES for choice in decision.alternatives):
        what = _("{name} to decide on a resignation").format(name=name)
    else:
        what = _("{name} to decide on the cube").format(name=name)
    lines = [escape(what)]
    game = next((game for game in analysis.games if game.number == decision.game), None)
    if game is not None:
        lines.append(escape(_score_before(analysis, game)))
    lines.append(f'<span class="id">{escape(_position_id(decision))}</span>')
    return "<br>".join(lines)


def _score_before(analysis: Analysis, game: GameSummary) -> str:
    names = [player.name for player in analysis.players]
    if analysis.length:
        first, second = game.score_before
        return _("Match to {length} · {first} {first_score}, {second} {second_score}").format(
            length=analysis.length, first=names[0], first_score=first, second=names[1], second_score=second
        )
    points = _money_points(analysis.games, analysis.games.index(game))
    return _("Money session · {first} {first_points:+d}, {second} {second_points:+d}").format(
        first=names[0], first_points=points[0], second=names[1], second_points=points[1]
    )


def _position_id(decision: Decision) -> str:
    """The gnubg Position ID, or Tavola's own where gnubg cannot hold the position."""
    position = decision.position
    if position.waiting == (0, 0):
        try:
            return _("Position ID: {position}").format(position=position.position_id())
        except TavolaError:
            pass
    return _("Tavola ID: {position}").format(position=position.tavola_id())


def _alternatives_table(analysis: Analysis, decision: Decision) -> str:
    """The best choices with their equities and losses, the one played marked (added if not among them)."""
    alternatives = list(enumerate(decision.alternatives, start=1))
    shown = alternatives[:SHOWN_ALTERNATIVES]
    shown += [(rank, alt) for rank, alt in alternatives[SHOWN_ALTERNATIVES:] if alt.text == decision.played]
    if not shown:
        return ""
    best = decision.alternatives[0]
    match = bool(analysis.length) and any(alt.mwc is not None for alt in decision.alternatives)
    choice = _("Play") if decision.kind == "move" else _("Choice")
    columns = [("#", True), (choice, False), (_("Equity"), True), (_("Loss"), True)]
    if match:
        columns.append((_("MWC"), True))
    headers = _column_headers(columns)
    rows = [_alternative_row(rank, alt, best, decision, match) for rank, alt in shown]
    return (
        f'<table class="alternatives">\n<thead><tr>{headers}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>"
    )


def _alternative_row(rank: int, alt: Alternative, best: Alternative, decision: Decision, match: bool) -> str:
    played = alt.text == decision.played
    classes = [name for name, is_it in (("best", rank == 1), ("played", played)) if is_it]
    said = _("played")
    tag = f' <span class="played-tag">({escape(said)})</span>' if played else ""
    loss = f"{alt.equity - best.equity:+.3f}" if rank > 1 else ""
    cells = [
        f'<td class="number">{rank}</td>',
        f"<td>{escape(choice_name(alt.text))}{tag}</td>",
        f'<td class="number">{alt.equity:+.3f}</td>',
        f'<td class="number">{loss}</td>',
    ]
    if match:
        cells.append(f'<td class="number">{_percent(alt.mwc, 1)}</td>')
    attribute = f' class="{" ".join(classes)}"' if classes else ""
    return f"<tr{attribute}>{''.join(cells)}</tr>"


# Small pieces.


def _column_headers(columns: Sequence[tuple[str, bool]]) -> str:
    """A table's column headers from (title, whether the column holds numbers)."""
    numbers = ' class="number"'
    return "".join(
        f'<th scope="col"{numbers if numeric else ""}>{escape(title)}</th>' for title, numeric in columns
    )


def _anchor(analysis: Analysis, decision: Decision) -> str:
    """The id of a decision's part of the page: its place in the analysis."""
    number = next(n for n, listed in enumerate(analysis.decisions, start=1) if listed is decision)
    return f"decision-{number}"


def _decision_title(analysis: Analysis, decision: Decision) -> str:
    return _("Game {game}, move {move}: {name}").format(
        game=decision.game, move=decision.move, name=analysis.players[decision.player].name
    )


def _loss(decision: Decision) -> str:
    loss = f"{decision.equity_loss:.3f}"
    if decision.mwc_loss is not None:
        in_mwc = _("({mwc} match winning chances)").format(mwc=_percent(decision.mwc_loss, 2))
        loss += " " + escape(in_mwc)
    return loss


def _percent(chances: float | None, digits: int) -> str:
    """Chances as a percentage with ``digits`` decimals ("" for none)."""
    return "" if chances is None else f"{chances * 100:.{digits}f}%"


def _skill_badge(skill: Skill) -> str:
    return f'<span class="skill {_css(skill)}">{escape(skill_name(skill))}</span>'


def _css(skill: Skill) -> str:
    return skill.value.replace(" ", "-")


def _cube_shown(decision: Decision) -> Cube:
    """The cube on the board as the player deciding sees it: where it stands, or, for an answer to a
    double, the value offered on the side of the player who offered it."""
    if decision.offer is not None:
        return Cube(decision.offer.value, owner=1 - decision.player)
    return decision.cube
