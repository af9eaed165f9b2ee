"""The bot's hint for the roll being played at a table, as JSON data.

A hint is :meth:`tavola.bot.player.Bot.hint` on the turn in progress: the
legal plays, best first, with their equities for the player on roll (in a
match, judged at the score and the cube's value); or, after an Acey-Deucey
1-2 (V2), while the double to play is being chosen,
:meth:`~tavola.bot.player.Bot.double_hint`, the six doubles best first.

Who may ask (:func:`hint_question`): only a table created with hints gives
them, and only for the roll of the seat's own side:

* at a two-player table, the player whose roll it is;
* at a chouette, the box and its partner for the box's roll, the captain for
  the team's, and the other team members still in the game for the team's
  roll where the table's consultation setting lets them suggest plays then
  (H4): a hint is the bot consulted, so it follows the same policy.

The question is read from the table under its lock (:class:`HintQuestion`);
the search itself runs outside it, in the server's search pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavola.bot.player import Choice
from tavola.chouette.bets import Side
from tavola.game import Phase
from tavola.i18n import _
from tavola.match import MatchScore
from tavola.web.live import LiveTable, StateError, TokenError

__all__ = ["HINT_LEVEL", "MOST_PLAYS", "HintQuestion", "hint_json", "hint_question"]

HINT_LEVEL = "world-class"
"""The level whose search ranks the plays of a hint."""

MOST_PLAYS = 8
"""How many of the best plays a hint lists."""


@dataclass(frozen=True)
class HintQuestion:
    """What to ask the bot: ``method`` (``"hint"`` or ``"double_hint"``) of :class:`~tavola.bot.player.Bot`
    with these arguments, at :data:`HINT_LEVEL`; ``dice`` of the roll, for the answer."""

    method: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    dice: tuple[int, int] | None = None


def hint_question(table: LiveTable, seat: int | None) -> HintQuestion:
    """What seat ``seat`` may ask the bot now, or a refusal saying why not (hold the table's lock)."""
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    if not table.options.hints:
        raise StateError(_("this table gives no hints: it was created without them"))
    if table.status != "live":
        raise StateError(_("there are no dice to play: a hint is for a roll being played"))
    if table.game_table is not None:
        return _game_question(table, seat)
    return _chouette_question(table, seat)


def _game_question(table: LiveTable, seat: int) -> HintQuestion:
    assert table.game_table is not None
    game = table.game_table.game
    if game.phase is Phase.CHOOSE_DOUBLE:
        _own_roll(seat == game.player_on_roll)
        return HintQuestion("double_hint", (game.position, game.variant))
    turn = game.turn
    if game.phase is not Phase.MOVE or turn is None:
        raise StateError(_("there are no dice to play: a hint is for a roll being played"))
    _own_roll(seat == game.player_on_roll)
    away = table.game_table.away(game.player_on_roll)
    match = None if away is None else MatchScore.from_away(away, game.crawford)
    kwargs = {"match": match, "cube_value": game.cube.value, "chosen_double": game.playing_chosen_double}
    return HintQuestion(
        "hint", (turn.start, turn.dice, game.variant), kwargs, (turn.dice.high, turn.dice.low)
    )


def _chouette_question(table: LiveTable, seat: int) -> HintQuestion:
    assert table.chouette_table is not None
    chouette = table.chouette_table.chouette
    game = chouette.game
    turn = game.turn if game is not None else None
    if game is None or turn is None or game.is_over:
        raise StateError(_("there are no dice to play: a hint is for a roll being played"))
    player = table.names[seat]
    if player not in game.players:
        raise StateError(_("{player} is not playing this game").format(player=player))
    side = game.side_of(player)
    _own_roll(side is game.side_on_roll)
    if side is Side.TEAM and player != game.captain and not game.may_suggest(player):
        raise StateError(
            _("at this table a team member consults only when the consultation setting allows it (H4)")
        )
    variant = chouette.settings.variant
    return HintQuestion("hint", (turn.start, turn.dice, variant), {}, (turn.dice.high, turn.dice.low))


def _own_roll(own: bool) -> None:
    if not own:
        raise StateError(_("a hint is for the roll of your own side, not the other side's"))


def hint_json(question: HintQuestion, answer: list[Choice]) -> dict[str, Any]:
    """The bot's ``answer`` to ``question`` as JSON: ``{"dice": [6, 5], "plays": [{"play": "24/13",
    "equity": 0.012, "plies": 1}, ...]}``; while a double is chosen, ``{"doubles": [{"double": 6,
    "play": "in/19(4)", "equity": 1.604, "plies": 2}, ...]}``."""
    if question.method == "double_hint":
        return {"doubles": [{"double": choice.play.dice.high, **_choice_json(choice)} for choice in answer]}
    return {
        "dice": list(question.dice or ()),
        "plays": [_choice_json(choice) for choice in answer[:MOST_PLAYS]],
    }


def _choice_json(choice: Choice) -> dict[str, Any]:
    return {"play": choice.play.notation, "equity": round(choice.equity, 3), "plies": choice.plies}
