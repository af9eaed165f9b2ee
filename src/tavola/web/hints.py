"""The bot's advice to a seat at a table, as JSON data.

A hint is the bot's advice (:meth:`tavola.bot.player.Bot.advise`) on what
the seat decides now, as the table asks it (:meth:`tavola.table.Table.question`):
the legal plays of the roll being played, best first, with their equities
for the player on roll (in a match, judged at the score and the cube's
value); after an Acey-Deucey 1-2 (V2), while the double to play is being
chosen, the six doubles best first; before the roll, the cube decision; and
to the side answering a double, a beaver or a raccoon, its answer with the
equities behind it. The JSON is :func:`tavola.bot.advice.advice_json`'s; each
play is written as the engine protocol writes it (:func:`tavola.bot.advice.choice_json`).

Who may ask (:func:`hint_question`): only a table created with hints gives
them, and only to the seat deciding:

* at a two-player table, the player whose roll or answer it is;
* at a chouette, the box and its partner for the box's roll, the captain for
  the team's, and the other team members still in the game for the team's
  roll where the table's consultation setting lets them suggest plays then
  (H4): a hint is the bot consulted, so it follows the same policy; and each
  player answering a double, for their own cube.

The question is read from the table under its lock; the search itself runs
outside it, in the server's search pool.
"""

from __future__ import annotations

from typing import Any

from tavola.bot.advice import Advice, NoAdviceError, Question, advice_json
from tavola.i18n import _
from tavola.web.live import LiveTable, StateError, TokenError

__all__ = ["MOST_PLAYS", "hint_json", "hint_question"]

MOST_PLAYS = 8
"""How many of the best plays a hint lists."""


def hint_question(table: LiveTable, seat: int | None) -> Question:
    """What seat ``seat`` may ask the bot now, or a refusal saying why not (hold the table's lock)."""
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    if not table.options.hints:
        raise StateError(_("this table gives no hints: it was created without them"))
    if table.status != "live" or table.served is None:
        raise StateError(_("there is nothing to decide: a hint is for a game in play"))
    try:
        return table.served.table.question(seat)
    except NoAdviceError as error:
        raise StateError(str(error)) from None


def hint_json(advice: Advice) -> dict[str, Any]:
    """The bot's ``advice`` as JSON (:func:`tavola.bot.advice.advice_json`), the best :data:`MOST_PLAYS`
    plays of a roll: ``{"kind": "plays", "dice": [6, 5], "plays": [{"play": "24/13", "equity": 0.0123,
    "loss": 0.0, ...}, ...]}``; ``{"kind": "doubles", "doubles": [...]}``; ``{"kind": "cube", "cube":
    {"action": "double", "response": "take", ...}}``; ``{"kind": "answer", "cube": {...}, "answer":
    "take", "redoubles": 0, "answers": {"take": 0.31, "drop": -1.0}}``, each answer valued for the side
    answering."""
    return advice_json(advice, MOST_PLAYS)
