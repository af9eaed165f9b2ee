"""The report's chart: player 0's equity (money) or match winning chances (match) through the record.

An inline SVG: one polyline a game, the games parted by dashed lines and
numbered along the top, and each error marked where it was made, linked to
its place in the report. Player 0's errors are circles, player 1's
diamonds; the colour is the error's class.

>>> from tavola.analysis.model import GameSummary
>>> games = (GameSummary(1, (0, 0), 0, 1, (0.5, 0.6, 0.4)), GameSummary(2, (1, 0), 1, 2, (0.55, 0.3)))
>>> chart = equity_chart(games, (), match=True, title="Alice's winning chances")
>>> chart.count("<polyline"), chart.count('class="game-line"')
(2, 1)
>>> begun = GameSummary(3, (1, 2), None, 0, ())
>>> equity_chart((*games, begun), (), match=True, title="").count('class="game-number"')
2
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

from tavola.analysis.model import Decision, GameSummary, Skill

WIDTH, HEIGHT = 760.0, 240.0
LEFT, RIGHT, TOP, BOTTOM = 48.0, 12.0, 22.0, 18.0
"""The margins around the plotting area: the axis labels on the left, the game numbers on top."""
MONEY_LIMIT = 3.0
"""The most a money equity can be at a cube of 1 (a backgammon); the money axis goes no further."""
SKILL_COLOURS = {Skill.DOUBTFUL: "#c9a400", Skill.BAD: "#e07000", Skill.VERY_BAD: "#c62828"}
MARK_SIZE = {Skill.DOUBTFUL: 3.5, Skill.BAD: 4.5, Skill.VERY_BAD: 5.5}


def equity_chart(
    games: Sequence[GameSummary],
    decisions: Sequence[Decision],
    *,
    match: bool,
    title: str,
    describe: Callable[[Decision], str] = lambda decision: "",
    anchor: Callable[[Decision], str] = lambda decision: "",
) -> str:
    """The chart as an ``<svg>`` element for an HTML page.

    ``games`` give the traces (player 0's match winning chances from 0 to 1
    when ``match``, else normalised money equity); the errors among
    ``decisions`` (all of them, in order) are marked at their place in their
    game's trace (the n-th decision of a game at the n-th point), with
    ``describe(decision)`` as the mark's tooltip and ``anchor(decision)``
    the id it links to.
    """
    points = sum(len(game.trace) for game in games)
    low, high = (0.0, 1.0) if match else _money_range(games)
    step = (WIDTH - LEFT - RIGHT) / max(points - 1, 1)

    def y_of(value: float) -> float:
        value = min(max(value, low), high)
        return TOP + (high - value) / (high - low) * (HEIGHT - TOP - BOTTOM)

    parts = [f"<title>{escape(title)}</title>", *_grid(low, high, match, y_of)]
    start = 0
    firsts: dict[int, int] = {}
    for game in games:
        firsts[game.number] = start
        if not game.trace:  # a game with no decision (one just begun) takes no room
            continue
        x0 = LEFT + start * step
        if start:
            parts.append(
                f'<line class="game-line" x1="{x0 - step / 2:.1f}" y1="{TOP}" '
                f'x2="{x0 - step / 2:.1f}" y2="{HEIGHT - BOTTOM}"/>'
            )
        label_x = x0 + (len(game.trace) - 1) * step / 2
        parts.append(f'<text class="game-number" x="{label_x:.1f}" y="{TOP - 7}">{game.number}</text>')
        line = " ".join(f"{x0 + i * step:.1f},{y_of(v):.1f}" for i, v in enumerate(game.trace))
        parts.append(f'<polyline class="trace" points="{line}"/>')
        start += len(game.trace)
    parts += _marks(games, decisions, firsts, step, y_of, describe, anchor)
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" role="group" '
        f'preserveAspectRatio="xMidYMid meet">\n' + "\n".join(parts) + "\n</svg>"
    )


def _money_range(games: Sequence[GameSummary]) -> tuple[float, float]:
    """A symmetric range around 0 holding every equity: at least ±1, at most ±3, in half points."""
    largest = max((abs(value) for game in games for value in game.trace), default=1.0)
    bound = min(max(math.ceil(largest * 2) / 2, 1.0), MONEY_LIMIT)
    return -bound, bound


def _grid(low: float, high: float, match: bool, y_of: Callable[[float], float]) -> list[str]:
    """The horizontal lines with their labels: every 25% for a match, every half point for money."""
    if match:
        ticks = [(value, f"{round(value * 100)}%") for value in (0.0, 0.25, 0.5, 0.75, 1.0)]
    else:
        count = round((high - low) * 2)
        ticks = [(low + i / 2, f"{low + i / 2:+g}".replace("+0", "0")) for i in range(count + 1)]
    middle = 0.5 if match else 0.0
    parts = []
    for value, label in ticks:
        y = y_of(value)
        kind = "axis" if value == middle else "grid"
        parts.append(f'<line class="{kind}" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}">{escape(label)}</text>')
    return parts


def _marks(
    games: Sequence[GameSummary],
    decisions: Sequence[Decision],
    firsts: dict[int, int],
    step: float,
    y_of: Callable[[float], float],
    describe: Callable[[Decision], str],
    anchor: Callable[[Decision], str],
) -> list[str]:
    """A mark for each error at the point of its game's trace where it was made."""
    traces = {game.number: game.trace for game in games}
    parts = []
    counted: dict[int, int] = {}
    for decision in decisions:
        index = counted.get(decision.game, 0)
        counted[decision.game] = index + 1
        trace = traces.get(decision.game, ())
        if decision.skill is Skill.NONE or index >= len(trace):
            continue
        x, y = LEFT + (firsts[decision.game] + index) * step, y_of(trace[index])
        size, colour = MARK_SIZE[decision.skill], SKILL_COLOURS[decision.skill]
        if decision.player == 0:
            shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size}" fill="{colour}"/>'
        else:
            size += 1
            corners = " ".join(
                f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in ((0, -size), (size, 0), (0, size), (-size, 0))
            )
            shape = f'<polygon points="{corners}" fill="{colour}"/>'
        mark = f'<g class="mark"><title>{escape(describe(decision))}</title>{shape}</g>'
        target = anchor(decision)
        parts.append(f'<a href="#{escape(target)}">{mark}</a>' if target else mark)
    return parts
