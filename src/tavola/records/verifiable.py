"""Verifiable dice in a record: what a record holds of them, the dice it shows were used, and their check.

A match, session or chouette played with :class:`~tavola.dicesource.VerifiableDice`
(as at ``tavola serve``'s tables) is written with a ``dice`` field
(:func:`dice_json`)::

    "dice": {"scheme": "tavola-dice-v1", "commitment": "66687a...", "used": 212,
             "secret": "9f3c..."}          # the secret once revealed (the table finished), else no field

``used`` counts every die the table took from the stream. The dice
themselves are in the log, in the order taken: each game's opening rolls
(ties included) and rolls, and at a chouette the draw for the order
(``draw_order``'s rounds) and for a partner (``partner_drawn``). A turn's
roll is written larger die first, so it is checked in either order; the
others are written as rolled. :func:`revealed_dice` gathers them from a
record (as its format lists them), or from the JSON of a table's ``/dice``
address (``{"commitment", "secret", "dice"}``, every die in the order
taken), and
:func:`check_revealed_dice` checks them against the secret and the
commitment, and their number against ``used``: dice left off the end are
noticed, not taken for honest.

>>> from tavola.dicesource import VerifiableDice
>>> from tavola.match import Match
>>> from tavola.records.jsonfmt import to_json
>>> dice = VerifiableDice(bytes(32))
>>> match = Match(3, dice=dice, players=("Ann", "Ben"))
>>> game = match.new_game()
>>> game.roll() is None  # the first opening roll ties, 4-4
True
>>> game.roll()  # the second gives player 0 a 1 and player 1 a 5
Dice(5, 1)
>>> secret = dice.reveal()
>>> from tavola.records.jsonfmt import dice_drawn
>>> revealed = revealed_dice(to_json(match), dice_drawn)
>>> [(draw.where, draw.dice) for draw in revealed.draws]
[('games[0].log[0].dice', (4, 4)), ('games[0].log[1].dice', (1, 5))]
>>> check_revealed_dice(revealed)
4
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tavola.dicesource import VerifiableDice, derive_dice, verify
from tavola.errors import DiceVerificationError, TavolaError
from tavola.i18n import _, ngettext
from tavola.schema import Shape, read_shape

__all__ = [
    "SCHEME",
    "Draw",
    "NoRevealedDiceError",
    "RevealedDice",
    "UncheckedDiceError",
    "check_revealed_dice",
    "dice_json",
    "revealed_dice",
]

SCHEME = "tavola-dice-v1"
"""The scheme of :class:`~tavola.dicesource.VerifiableDice`, as records and the server name it."""


class NoRevealedDiceError(TavolaError):
    """JSON with no revealed verifiable dice to check: no commitment (dice not verifiable), no secret
    yet (a table not finished), or neither a record nor a table's dice."""


class UncheckedDiceError(DiceVerificationError):
    """Dice whose number is not the number the table used: those given are honest, but some the table
    used are not there to check (or more are given than it used)."""

    def __init__(self, message: str, count: int, used: int) -> None:
        super().__init__(message)
        self.count = count
        self.used = used


@dataclass(frozen=True, slots=True)
class Draw:
    """Dice taken from the stream together, as a record shows them: ``where`` names the field (empty
    for a list of every die), ``in_order`` is False for a turn's roll (written larger die first, so
    either order is right)."""

    where: str
    dice: tuple[int, ...]
    in_order: bool = True


@dataclass(frozen=True, slots=True)
class RevealedDice:
    """Revealed verifiable dice to check: the commitment, the secret, the dice in the order taken, and
    how many dice the table used where the JSON says (``None`` where it does not)."""

    commitment: str
    secret: str
    draws: tuple[Draw, ...]
    used: int | None = None

    @property
    def count(self) -> int:
        """How many dice there are to check."""
        return sum(len(draw.dice) for draw in self.draws)


def dice_json(source: object) -> dict[str, Any] | None:
    """What a record holds of dice from ``source``: for :class:`~tavola.dicesource.VerifiableDice`, the
    scheme, the commitment, how many dice were used and, once revealed, the secret; None for any other
    source (dice nobody committed to).

    >>> dice = VerifiableDice(bytes(32))
    >>> dice.roll()
    Dice(4, 4)
    >>> data = dice_json(dice)
    >>> data["scheme"], data["commitment"][:16], data["used"], "secret" in data
    ('tavola-dice-v1', '66687aadf862bd77', 2, False)
    >>> secret = dice.reveal()
    >>> dice_json(dice)["secret"] == "00" * 32
    True
    """
    if not isinstance(source, VerifiableDice):
        return None
    data: dict[str, Any] = {
        "scheme": SCHEME,
        "commitment": source.commitment,
        "used": len(source.rolls_so_far),
    }
    if source.revealed:
        data["secret"] = source.reveal()
    return data


def revealed_dice(data: object, listed: Callable[[object], list[Draw]] | None = None) -> RevealedDice:
    """The dice to check in ``data``: a Tavola record with verifiable dice, whose format's ``listed``
    gives the dice its log shows (:func:`tavola.records.jsonfmt.dice_drawn` for a match's or session's,
    :func:`tavola.chouette.record.dice_drawn` for a chouette's), or, with no ``listed``, the JSON of a
    finished table's ``/dice`` address.

    Raises :class:`NoRevealedDiceError` where there are none to check (no commitment, no secret yet,
    neither form), and :class:`~tavola.errors.RecordError` naming the field of a record at fault.

    >>> commitment = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    >>> revealed_dice({"commitment": commitment, "secret": "00" * 32, "dice": [4, 4, 1, 5]}).used
    4
    >>> from tavola.records.jsonfmt import dice_drawn
    >>> try:
    ...     revealed_dice({"format": "tavola-record", "version": 1, "games": []}, dice_drawn)
    ... except NoRevealedDiceError as error:
    ...     print(str(error)[:44])
    the record holds no verifiable dice (no comm
    """
    if not isinstance(data, dict):
        raise NoRevealedDiceError(_not_dice(data))
    if listed is not None:
        commitment, secret, used = _record_dice(data.get("dice"))
        return RevealedDice(commitment, secret, tuple(listed(data)), used)
    if "commitment" in data or "dice" in data or "secret" in data:
        return _table_dice(data)
    raise NoRevealedDiceError(_not_dice(data))


def _not_dice(data: object) -> str:
    if isinstance(data, dict) and "format" in data:
        kind = f"format {data['format']!r}"
    else:
        kind = type(data).__name__
    return _(
        "expected a Tavola record (a table's record.json) or the JSON of a finished table's dice "
        "(its /dice address), not {kind}"
    ).format(kind=kind)


def _record_dice(block: object) -> tuple[str, str, int]:
    """A record's ``dice`` field: the commitment, the secret and how many dice the table used."""
    if block is None:
        raise NoRevealedDiceError(
            _(
                "the record holds no verifiable dice (no commitment): its dice were not committed to "
                "before the play, as at the terminal; a table of tavola serve writes them in its record"
            )
        )
    bad = _("dice: the scheme, commitment and secret as text and used as a number, not {dice}")
    shape: _RecordDice = _shaped(_RecordDice, block, bad.format(dice=repr(block)))
    _check_scheme(shape.scheme)
    if shape.secret is None:
        raise NoRevealedDiceError(
            _(
                "the record's dice are not revealed (no secret): the table was not finished when it was "
                "written; download its record again once it is"
            )
        )
    return shape.commitment, shape.secret, shape.used


def _table_dice(data: dict[str, Any]) -> RevealedDice:
    """The JSON of a table's ``/dice`` address: every die in the order taken, and how many the table used
    (``used``; the dice given where it is missing)."""
    _check_scheme(data.get("scheme", SCHEME))
    if "secret" in data and data["secret"] is None:
        raise NoRevealedDiceError(
            _(
                "the dice are not revealed yet (the secret is null): the table is not finished; "
                "ask for its dice again once it is"
            )
        )
    bad = _("expected the JSON of a finished table's dice: commitment and secret as text, dice as numbers")
    shape: _TableDice = _shaped(_TableDice, data, bad)
    counted = len(shape.dice) if shape.used is None else shape.used
    return RevealedDice(shape.commitment, shape.secret, (Draw("", tuple(shape.dice)),), counted)


class _RecordDice(Shape):
    """A record's ``dice`` field; ``secret`` missing until the table is finished."""

    scheme: str = SCHEME
    commitment: str
    used: int
    secret: str | None = None


class _TableDice(Shape):
    """The JSON of a finished table's ``/dice`` address (its other fields are not read)."""

    scheme: str = SCHEME
    commitment: str
    secret: str
    dice: list[int]
    used: int | None = None


def _shaped(kind: Any, data: object, bad: str) -> Any:
    """``data`` read as the shape ``kind``, or :class:`NoRevealedDiceError` saying ``bad`` and what the
    shape found wrong."""
    try:
        return read_shape(kind, data, NoRevealedDiceError, "dice")
    except NoRevealedDiceError as error:
        raise NoRevealedDiceError(f"{bad} ({error})") from None


def _check_scheme(scheme: object) -> None:
    if scheme != SCHEME:
        raise NoRevealedDiceError(
            _("the dice follow the scheme {scheme}; this check knows {known}").format(
                scheme=repr(scheme), known=SCHEME
            )
        )


def check_revealed_dice(revealed: RevealedDice) -> int:
    """Check revealed dice: the secret against the commitment, every die against the stream the secret
    gives, and their number against the number the table used. Returns how many dice were checked.

    Raises :class:`~tavola.errors.DiceVerificationError` naming the first die (and the field) that is
    not the secret's, and :class:`UncheckedDiceError` when the dice are honest but fewer (or more) than
    the table used.

    >>> commitment = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    >>> check_revealed_dice(RevealedDice(commitment, "00" * 32, (Draw("", (4, 4, 1, 5)),), 4))
    4
    >>> check_revealed_dice(RevealedDice(commitment, "00" * 32, (Draw("", (4, 4, 1)),), 4))
    Traceback (most recent call last):
    ...
    tavola.records.verifiable.UncheckedDiceError: the 3 dice given come from the secret, but the table \
used 4: the last one is not there to check
    >>> roll = Draw("games[0].log[3].dice", (5, 1), in_order=False)
    >>> check_revealed_dice(RevealedDice(commitment, "00" * 32, (roll,)))
    Traceback (most recent call last):
    ...
    tavola.errors.DiceVerificationError: games[0].log[3].dice: the roll was [5, 1], but the secret gives \
[4, 4] there (dice 0 and 1, counting from 0, in either order)
    """
    verify(revealed.commitment, revealed.secret, [])  # the secret against its commitment
    stream = derive_dice(revealed.secret, revealed.count)
    position = 0
    for draw in revealed.draws:
        taken = tuple(stream[position : position + len(draw.dice)])
        if draw.dice != taken and (draw.in_order or sorted(draw.dice) != sorted(taken)):
            raise _wrong(draw, taken, position)
        position += len(draw.dice)
    used = revealed.used
    if used is not None and used != revealed.count:
        raise UncheckedDiceError(_miscounted(revealed.count, used), revealed.count, used)
    return revealed.count


def _wrong(draw: Draw, taken: Sequence[int], position: int) -> DiceVerificationError:
    """The error for a draw that is not what the secret gives at ``position`` of the stream."""
    if not draw.in_order:
        message = _(
            "{where}: the roll was {seen}, but the secret gives {derived} there "
            "(dice {first} and {second}, counting from 0, in either order)"
        )
        text = message.format(
            where=draw.where, seen=list(draw.dice), derived=list(taken), first=position, second=position + 1
        )
        return DiceVerificationError(text, position)
    offset = next(
        index for index, (seen, derived) in enumerate(zip(draw.dice, taken, strict=True)) if seen != derived
    )
    values = {"index": position + offset, "seen": repr(draw.dice[offset]), "derived": taken[offset]}
    if not draw.where:  # every die in one list: the die's number says where
        text = _("die {index} (counting from 0) was {seen}, but the secret gives {derived}").format(**values)
    else:
        text = _("{where}: die {index} (counting from 0) was {seen}, but the secret gives {derived}").format(
            where=draw.where, **values
        )
    return DiceVerificationError(text, position + offset)


def _miscounted(count: int, used: int) -> str:
    if count < used:
        return ngettext(
            "the {count} dice given come from the secret, but the table used {used}: "
            "the last one is not there to check",
            "the {count} dice given come from the secret, but the table used {used}: "
            "the last {missing} are not there to check",
            used - count,
        ).format(count=count, used=used, missing=used - count)
    return _("{count} dice are given, but the table used only {used}").format(count=count, used=used)
