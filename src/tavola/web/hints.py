"""The bot's hint for the roll being played at a table, as JSON data.

A hint is :meth:`tavola.bot.player.Bot.hint` on the turn in progress: the
legal plays, best first, with their equities for the player on roll (in a
match, judged at the score and the cube's value). A table gives hints when it
has a bot seat or its options allow them (:attr:`LiveTable.allows_hints`), to
its seated players only, and only while dice are being played, or, after an
Acey-Deucey 1-2 (V2), while the double to play is being chosen: then the hint is
:meth:`~tavola.bot.player.Bot.double_hint`, the six doubles best first.
"""

from __future__ import annotations

from typing import Any

from tavola.bot.player import Bot, Choice
from tavola.game import Phase
from tavola.i18n import _
from tavola.match import MatchScore
from tavola.web.live import LiveTable, StateError, TokenError

__all__ = ["HINT_LEVEL", "MOST_PLAYS", "hint_json"]

HINT_LEVEL = "world-class"
"""The level whose search ranks the plays of a hint."""

MOST_PLAYS = 8
"""How many of the best plays a hint lists."""


def hint_json(table: LiveTable, seat: int | None, bot: Bot) -> dict[str, Any]:
    """The best plays of the roll in progress, as seat ``seat`` asks for them:
    ``{"dice": [6, 5], "plays": [{"play": "24/13", "equity": 0.012, "plies": 1}, ...]}``; while a double
    is chosen, ``{"doubles": [{"double": 6, "play": "in/19(4)", "equity": 1.604, "plies": 2}, ...]}``."""
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    if not table.allows_hints:
        raise StateError(_("this table gives no hints: only tables with the bot or whose options allow them"))
    match: MatchScore | None = None
    cube_value = 1
    chosen_double = False
    if table.game_table is not None:
        game = table.game_table.game
        turn, variant = game.turn, game.variant
        chosen_double = game.playing_chosen_double
        if table.status == "live" and game.phase is Phase.CHOOSE_DOUBLE:
            doubles = bot.double_hint(game.position, variant, HINT_LEVEL)
            return {
                "doubles": [{"double": choice.play.dice.high, **_choice_json(choice)} for choice in doubles]
            }
        away = table.game_table.away(game.player_on_roll)
        match = None if away is None else MatchScore.from_away(away, game.crawford)
        cube_value = game.cube.value
    elif table.chouette_table is not None and table.chouette_table.game is not None:
        chouette_game = table.chouette_table.game
        turn, variant = chouette_game.turn, table.chouette_table.chouette.settings.variant
    else:
        turn = None
    if table.status != "live" or turn is None:
        raise StateError(_("there are no dice to play: a hint is for a roll being played"))
    choices = bot.hint(
        turn.start,
        turn.dice,
        variant,
        HINT_LEVEL,
        match=match,
        cube_value=cube_value,
        legal=turn.legal,
        chosen_double=chosen_double,
    )
    return {
        "dice": [turn.dice.high, turn.dice.low],
        "plays": [_choice_json(choice) for choice in choices[:MOST_PLAYS]],
    }


def _choice_json(choice: Choice) -> dict[str, Any]:
    return {"play": choice.play.notation, "equity": round(choice.equity, 3), "plies": choice.plies}
