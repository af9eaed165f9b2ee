"""What a table is created with: the kind of play, every rule Tavola has, and the seats.

Two kinds of table:

* ``{"kind": "game", ...}``: two seats at a single game, a money session or a
  match (``series``), with a ``variant``, the ``rules`` (each field of
  :class:`~tavola.rules.Rules`, as Tavola's records write them), the
  ``length`` of a match and the ``stake`` of money play, and whether the
  players may ask for ``hints``;
* ``{"kind": "chouette", ...}``: three to eight seats, with the ``settings``
  of the chouette as its record writes them (:mod:`tavola.chouette.record`);
  a setting left out keeps its default.

A seat is a person (``{"name": null}``, named when they sit down, or
``{"name": "Ann"}``) or the bot at a level (``{"bot": "expert"}``, any name
:func:`tavola.bot.levels.level` knows, kept as the ladder's name). Whether
the options make sense together is for the rules to say: :func:`read_options`
builds the series once to let them.

>>> options = read_options({"kind": "game", "series": "match", "length": 3,
...                         "seats": [{"name": "Ann"}, {"bot": "advanced"}]})
>>> options.seats[1]
SeatOptions(name=None, bot='advanced', account=None)
>>> read_options({"kind": "game", "series": "match", "rules": {"jacoby": True},
...               "seats": [{}, {}]})
Traceback (most recent call last):
...
tavola.web.options.OptionsError: the Jacoby rule is for money play, not matches (P4)
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from tavola.bot.levels import UnknownLevelError, level
from tavola.chouette import MAX_PLAYERS, MIN_PLAYERS, Chouette, ChouetteSettings
from tavola.chouette.settings import SettingsShape, settings_json, settings_of
from tavola.dicesource import DiceSource
from tavola.errors import RecordError, TavolaError
from tavola.i18n import _
from tavola.match import Match, MoneySession
from tavola.records.mat import unwritable_in_mat
from tavola.rules import Rules
from tavola.schema import RulesShape, Says, Shape, read_shape
from tavola.variants import find_variant

__all__ = [
    "NAME_LENGTH",
    "ChouetteOptions",
    "ClockOptions",
    "GameOptions",
    "OptionsError",
    "SeatOptions",
    "TableOptions",
    "build_chouette",
    "build_series",
    "chouette_settings",
    "read_options",
    "seat_name",
]

NAME_LENGTH = 40
"""The longest name a seat takes."""

_UNSEEN = frozenset({"Co", "Cn"})
"""The kinds of character a name never holds besides those no ``.mat`` file can hold
(:func:`~tavola.records.mat.unwritable_in_mat`): private and unassigned code points."""
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters that turn the direction of the text around them, which could make one name look like
another."""


class OptionsError(TavolaError):
    """Options a table cannot be created with: the message names the field, or the rule, at fault."""


class NameRefusedError(TavolaError):
    """A seat's name that cannot be shown, stored and written to the table's records as it is."""


def seat_name(text: str) -> str:
    """The name ``text`` gives a seat, spaces around it stripped; refused with a message saying why
    when it is empty, longer than :data:`NAME_LENGTH`, or holds a character that names never hold (a
    control, a line break, a lone surrogate, a character turning the text's direction, or ``:``, which
    ``.mat`` files reserve).

    >>> seat_name("  Ann ")
    'Ann'
    >>> seat_name("Ann\u2028Bo")
    Traceback (most recent call last):
    ...
    tavola.web.options.NameRefusedError: a name cannot hold the character U+2028
    """
    name = text.strip()
    if not 1 <= len(name) <= NAME_LENGTH:
        raise NameRefusedError(
            _("a name has 1 to {most} characters, not {count}").format(most=NAME_LENGTH, count=len(name))
        )
    for character in name:
        if unwritable_in_mat(character) or character in _BIDI or unicodedata.category(character) in _UNSEEN:
            code = f"U+{ord(character):04X}"
            shown = f"'{character}' ({code})" if character.isprintable() else code
            raise NameRefusedError(_("a name cannot hold the character {code}").format(code=shown))
    return name


def _checked_name(text: str) -> str:
    try:
        return seat_name(text)
    except NameRefusedError as error:
        raise ValueError(str(error)) from None


class SeatOptions(Shape):
    """One seat: a person (``bot`` null), named now or when they sit down, or the bot at a level.
    ``account``: the account (by name) the seat is kept for: only that account, logged in, takes it."""

    name: Annotated[str, Field(max_length=4 * NAME_LENGTH), AfterValidator(_checked_name)] | None = None
    bot: Annotated[
        str | None,
        Says("{field}: a level's name or null, not {value}"),
        Field(max_length=20),
    ] = None
    account: Annotated[str, Field(max_length=4 * NAME_LENGTH), AfterValidator(_checked_name)] | None = None


MOST_DELAY = 600
"""The longest delay a move may have, in seconds."""
MOST_BANK = 3600
"""The largest bank per match point (or per game of money play), in seconds."""


class ClockOptions(Shape):
    """A time control (:mod:`tavola.web.clocks`): on each of a player's turns the first ``delay`` seconds
    do not count, then their bank runs down; ``bank`` seconds per point of a match (``bank`` times the
    length for the whole match), or for each game of money play."""

    delay: Annotated[
        float, Field(ge=0, le=MOST_DELAY), Says(f"{{field}}: 0 to {MOST_DELAY} seconds, not {{value}}")
    ]
    bank: Annotated[
        float,
        Field(gt=0, le=MOST_BANK),
        Says(f"{{field}}: more than 0 and up to {MOST_BANK} seconds, not {{value}}"),
    ]


class GameOptions(Shape):
    """Two seats at a single game, a money session or a match."""

    kind: Literal["game"]
    series: Literal["single", "money", "match"] = "money"
    length: int = 5
    stake: int | float = 1
    variant: Annotated[str, Field(max_length=40)] = "standard"
    rules: RulesShape = RulesShape()
    hints: bool = False
    """Whether the players may ask the bot for hints (never in a rated match)."""
    clock: ClockOptions | None = None
    """The time control; None: no clock (the default)."""
    rated: bool = False
    """Whether the match counts for the ratings where both players have accounts, or one is a bot
    (:mod:`tavola.web.ratings`): only a match, and one without hints; False (the default): a friendly
    game, its seats the accounts' all the same."""
    seats: Annotated[list[SeatOptions], Field(min_length=2, max_length=2)]


class ChouetteOptions(Shape):
    """Three to eight seats at a chouette; ``settings`` as the chouette's record writes them."""

    kind: Literal["chouette"]
    settings: dict[str, Any] = Field(default_factory=dict)
    hints: bool = False
    """Whether the players may ask the bot for hints."""
    seats: Annotated[list[SeatOptions], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]


TableOptions = Annotated[GameOptions | ChouetteOptions, Field(discriminator="kind")]


def read_options(data: object) -> GameOptions | ChouetteOptions:
    """The options ``data`` gives, checked: their shape, the levels, and the rules by building the series."""
    if isinstance(data, dict) and data.get("kind") == "chouette" and data.get("clock") is not None:
        raise OptionsError(_("clock: a chouette is played without a clock"))
    options: GameOptions | ChouetteOptions = read_shape(TableOptions, data, OptionsError, "the options")
    seats = list(options.seats)
    for index, seat in enumerate(seats):
        if seat.bot is not None and seat.account is not None:
            raise OptionsError(_("seats[{index}]: a bot's seat is kept for no account").format(index=index))
        if seat.bot is not None:
            try:
                seats[index] = seat.model_copy(update={"bot": level(seat.bot).name})
            except UnknownLevelError as error:
                raise OptionsError(f"seats[{index}].bot: {error}") from None
    options = options.model_copy(update={"seats": seats})
    if isinstance(options, GameOptions) and options.rated:
        if options.series != "match":
            raise OptionsError(_("rated: only a match is rated; choose a match, or leave it unrated"))
        if options.hints:
            raise OptionsError(_("rated: a rated match gives no hints; choose one or the other"))
    names = [seat.name or f"Player {index}" for index, seat in enumerate(options.seats)]
    try:
        if isinstance(options, GameOptions):
            build_series(options, (names[0], names[1]), None)
        else:
            build_chouette(options, names, None)
    except TavolaError as error:
        raise OptionsError(str(error)) from None
    return options


def build_series(
    options: GameOptions, names: tuple[str, str], dice: DiceSource | None
) -> Match | MoneySession:
    """The match or money session (a single game is a session of one) the options ask for."""
    variant = find_variant(options.variant)
    rules: Rules = options.rules.rules()
    if options.series == "match":
        return Match(options.length, rules, dice, names, variant)
    return MoneySession(rules, dice, stake=options.stake, players=names, variant=variant)


def chouette_settings(options: ChouetteOptions) -> ChouetteSettings:
    """The chouette's settings: those given over the defaults, read as its record reads them."""
    defaults = settings_json(ChouetteSettings())
    given = options.settings
    rules = given.get("rules", {})
    merged = {
        **defaults,
        **given,
        "rules": {**defaults["rules"], **rules} if isinstance(rules, dict) else rules,
    }
    shape = read_shape(SettingsShape, merged, OptionsError, "settings")
    try:
        return settings_of(shape)
    except RecordError as error:
        raise OptionsError(str(error)) from None


def build_chouette(options: ChouetteOptions, names: list[str], dice: DiceSource | None) -> Chouette:
    """The chouette the options ask for, its players seated in order."""
    return Chouette(chouette_settings(options), dice, players=names)
