"""Checks the ID formats share: text, numbers in range, the cube, the dice, positions an ID cannot hold."""

from __future__ import annotations

from tavola.errors import InvalidIdError, TavolaError
from tavola.i18n import N_, _
from tavola.matchrules import check_match_score
from tavola.position import Position

POSITION_ID_LENGTH = 14
"""Characters in a gnubg Position ID (an 80-bit key, 10 bytes)."""
MATCH_ID_LENGTH = 12
"""Characters in a gnubg Match ID (a 72-bit key, 9 bytes)."""
_MAX_FIELD_15 = (1 << 15) - 1
"""The largest match length or score the IDs hold (a 15-bit field of the Match ID)."""


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut short when long."""
    return repr(text) if len(text) <= 80 else repr(text[:80]) + "..."


def _checked_text(text: object, what: str) -> str:
    """``text`` without surrounding white space, or an error if it is not a string."""
    if not isinstance(text, str):
        raise InvalidIdError(f"{what} is text, not {type(text).__name__} {text!r}")
    return text.strip()


_OUT_OF_RANGE: dict[str, str] = {
    "the number of checkers per side": N_("the number of checkers per side is {low} to {high}, not {value}"),
    "a die": N_("a die is {low} to {high}, not {value}"),
    "the cube value": N_("the cube value is {low} to {high}, not {value}"),
    "the maximum cube": N_("the maximum cube is {low} to {high}, not {value}"),
    "the cube owner (None when centred)": N_(
        "the cube owner (None when centred) is {low} to {high}, not {value}"
    ),
    "the player on roll": N_("the player on roll is {low} to {high}, not {value}"),
    "the player whose turn it is": N_("the player whose turn it is is {low} to {high}, not {value}"),
    "the resignation offered": N_("the resignation offered is {low} to {high}, not {value}"),
    "the match length (0 for money)": N_("the match length (0 for money) is {low} to {high}, not {value}"),
    "player 0's score": N_("player 0's score is {low} to {high}, not {value}"),
    "player 1's score": N_("player 1's score is {low} to {high}, not {value}"),
    "the bottom player's score": N_("the bottom player's score is {low} to {high}, not {value}"),
    "the top player's score": N_("the top player's score is {low} to {high}, not {value}"),
    "the Crawford flag in a match": N_("the Crawford flag in a match is {low} to {high}, not {value}"),
    "the Jacoby/beaver field in a money game": N_(
        "the Jacoby/beaver field in a money game is {low} to {high}, not {value}"
    ),
}
"""The sentence that refuses a number out of its range, by what the number is."""

_NOT_A_POWER_OF_TWO: dict[str, str] = {
    "the cube value": N_("the cube value is a power of two, not {value}"),
    "the maximum cube": N_("the maximum cube is a power of two, not {value}"),
}


def _checked_int(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else an InvalidIdError.

    ``what`` names the number, a key of :data:`_OUT_OF_RANGE`. A value that is not a whole number
    comes from a program, never from an ID, and is refused in English.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidIdError(f"{what} is a whole number, not {value!r}")
    if not low <= value <= high:
        raise InvalidIdError(_(_OUT_OF_RANGE[what]).format(low=low, high=high, value=value))
    return value


def _checked_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidIdError(f"{what} is True or False, not {value!r}")
    return value


def _checked_pair(value: object, what: str) -> tuple[object, object]:
    if not isinstance(value, tuple) or len(value) != 2:
        raise InvalidIdError(f"{what} should be a pair, not {value!r}")
    return value[0], value[1]


_TOO_BIG: dict[str, str] = {
    "a Match ID": N_("the cube at {value} is more than a Match ID can hold"),
    "an XGID": N_("the cube at {value} is more than an XGID can hold"),
}
"""The sentence that refuses a cube past 32768 (C4: redoubles have no limit), by the ID it is for."""


def _checked_cube(value: object, what: str, holder: str | None = None) -> int:
    """``value`` if it is a cube's value an ID holds, 1 to 32768; ``holder`` names the ID that holds it."""
    if (
        holder is not None
        and isinstance(value, int)
        and not isinstance(value, bool)
        and value > 1 << 15
        and not value & (value - 1)
    ):
        raise InvalidIdError(_(_TOO_BIG[holder]).format(value=value))
    cube = _checked_int(value, what, 1, 1 << 15)
    if cube & (cube - 1):
        raise InvalidIdError(_(_NOT_A_POWER_OF_TWO[what]).format(value=cube))
    return cube


def _checked_dice(value: object) -> tuple[int, int]:
    first, second = _checked_pair(value, "the dice")
    dice = (
        _checked_int(first, "a die", 0, 6),
        _checked_int(second, "a die", 0, 6),
    )
    if (dice[0] == 0) != (dice[1] == 0):
        raise InvalidIdError(
            _("the dice are two numbers 1-6, or (0, 0) when not rolled, not {dice}").format(dice=dice)
        )
    return dice


def _check_match_state(
    length: int, score: tuple[int, int], crawford: bool, *, finished: bool = False
) -> None:
    """Refuse a score and Crawford flag no match of ``length`` points reaches (P1, P2); 0 is money.

    ``finished``: the game is over, the score counts it, and the flag is the
    next game's (as gnubg writes them).
    """
    if not length:
        if crawford:
            raise InvalidIdError(_("a money game has no Crawford game"))
        return
    try:
        check_match_score(length, score, crawford, finished=finished)
    except TavolaError as error:
        raise InvalidIdError(str(error)) from None


def _check_cube_state(value: int, owned: bool, doubled: bool, crawford_game: bool) -> None:
    """Refuse a cube no game reaches: owned at 1, or turned or offered in the Crawford game (C3, P2)."""
    if owned and value == 1:
        raise InvalidIdError(_("the cube is owned only once a double is taken, so never at 1"))
    if crawford_game and (owned or value != 1 or doubled):
        raise InvalidIdError(_("no doubling in the Crawford game (P2): the cube stays at 1 in the middle"))


_NO_WAITING: dict[str, str] = {
    "a gnubg Position ID": N_(
        "a gnubg Position ID cannot hold checkers waiting to enter (Acey-Deucey); "
        "use the Tavola ID (tavola_id())"
    ),
    "an XGID": N_(
        "an XGID cannot hold checkers waiting to enter (Acey-Deucey); use the Tavola ID (tavola_id())"
    ),
}


def _refuse_waiting(position: Position, what: str) -> None:
    """Refuse checkers waiting to enter, which ``what`` (a key of :data:`_NO_WAITING`) cannot hold."""
    if position.waiting != (0, 0):
        raise InvalidIdError(_(_NO_WAITING[what]))
