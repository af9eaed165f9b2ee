"""Text IDs for positions and matches: gnubg's Position ID and Match ID, and XGIDs.

Three formats are read and written here:

* the GNU Backgammon **Position ID**, 14 base64 characters for the checkers;
* the GNU Backgammon **Match ID**, 12 base64 characters for the cube, the
  dice, the score and whose turn it is (:class:`MatchState`);
* eXtreme Gammon's **XGID**, which holds both in one line of text
  (:class:`XgidState`).

Every malformed ID raises :class:`~tavola.errors.InvalidIdError`, which says
what is wrong with it.

>>> from tavola.position import Position
>>> encode_position_id(Position.start())
'4HPwATDgc/ABMA'
>>> decode_match_id('cAkgAQAAAAAE').match_length
9
>>> parse_position('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10') == Position.start()
True
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tavola.errors import InvalidIdError, InvalidPositionError
from tavola.i18n import N_, _
from tavola.position import CHECKERS, Position

__all__ = [
    "GameState",
    "MatchState",
    "XgidSide",
    "XgidStage",
    "XgidState",
    "decode_match_id",
    "decode_position_id",
    "decode_tavola_id",
    "decode_xgid",
    "encode_match_id",
    "encode_position_id",
    "encode_tavola_id",
    "encode_xgid",
    "parse_position",
]

# --- base64, as gnubg writes it ------------------------------------------------
#
# gnubg packs its keys little-endian: bit k of a key is bit k % 8 of byte k // 8.
# The bytes are then written in standard base64 without "=" padding. Keys are
# handled here as Python ints whose bit k is bit k of the key.

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SEXTETS = {char: value for value, char in enumerate(_ALPHABET)}

POSITION_ID_LENGTH = 14
"""Characters in a gnubg Position ID (an 80-bit key, 10 bytes)."""
MATCH_ID_LENGTH = 12
"""Characters in a gnubg Match ID (a 72-bit key, 9 bytes)."""

_POSITION_KEY_BYTES = 10
_MATCH_KEY_BYTES = 9


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut short when long."""
    return repr(text) if len(text) <= 80 else repr(text[:80]) + "..."


_BASE64_ERRORS: dict[str, tuple[str, str]] = {
    "position ID": (
        N_("position ID {id}: {char} (character {index}) is not a base64 character (A-Z, a-z, 0-9, + or /)"),
        N_("position ID {id}: bits left over in its last character (the last {padding} bits must be zero)"),
    ),
    "match ID": (
        N_("match ID {id}: {char} (character {index}) is not a base64 character (A-Z, a-z, 0-9, + or /)"),
        N_("match ID {id}: bits left over in its last character (the last {padding} bits must be zero)"),
    ),
}
"""What is wrong with the base64 text of an ID, by the kind of ID: a stray character, bits left over."""


def _key_from_base64(text: str, key_bytes: int, what: str) -> int:
    """The little-endian key that ``text`` encodes, checking every character.

    The bits that pad the last character beyond the key must be zero. ``what``
    is the kind of ID, a key of :data:`_BASE64_ERRORS`.
    """
    value = 0
    for index, char in enumerate(text):
        sextet = _SEXTETS.get(char)
        if sextet is None:
            message = _(_BASE64_ERRORS[what][0])
            raise InvalidIdError(message.format(id=_shown(text), char=repr(char), index=index + 1))
        value = value << 6 | sextet
    padding = 6 * len(text) - 8 * key_bytes
    if value & ((1 << padding) - 1):
        raise InvalidIdError(_(_BASE64_ERRORS[what][1]).format(id=_shown(text), padding=padding))
    return int.from_bytes((value >> padding).to_bytes(key_bytes, "big"), "little")


def _base64_from_key(key: int, key_bytes: int, length: int) -> str:
    """Write a little-endian key of ``key_bytes`` bytes as ``length`` base64 characters."""
    value = int.from_bytes(key.to_bytes(key_bytes, "little"), "big") << (6 * length - 8 * key_bytes)
    return "".join(_ALPHABET[(value >> (6 * (length - 1 - index))) & 0x3F] for index in range(length))


def _checked_text(text: object, what: str) -> str:
    """``text`` without surrounding white space, or an error if it is not a string."""
    if not isinstance(text, str):
        raise InvalidIdError(f"{what} is text, not {type(text).__name__} {text!r}")
    return text.strip()


# --- checks shared by the formats ------------------------------------------------


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


def _checked_cube(value: object, what: str) -> int:
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


# --- the Position ID ------------------------------------------------------------


def encode_position_id(position: Position) -> str:
    """The gnubg Position ID of ``position``, its mover being the player on roll.

    The key is a bit string: for each side, for each of its points 1 to 24
    and then its bar, as many 1s as it has checkers there followed by a 0;
    padded with 0s to 80 bits. The side **not** on roll comes first. (gnubg's
    manual says the player on roll comes first, but gnubg 1.07 itself puts
    the opponent first: ``set board AAAAAQAAAgAAAA`` leaves the player on
    roll with a checker on its 24-point and the opponent with one on the bar,
    and so does this module.)

    >>> encode_position_id(Position.start())
    '4HPwATDgc/ABMA'
    >>> encode_position_id(Position([0] * 23 + [1], bar=(0, 1)))
    'AAAAAQAAAgAAAA'
    """
    if not isinstance(position, Position):
        raise InvalidIdError(f"only a Position has a position ID, not {type(position).__name__}")
    _refuse_waiting(position, "a gnubg Position ID")
    mover, opponent = position.sides()
    key = 0
    bit = 0
    for count in opponent + mover:
        key |= ((1 << count) - 1) << bit
        bit += count + 1
    if bit > 8 * _POSITION_KEY_BYTES:
        raise InvalidIdError(
            _(
                "a position ID holds at most 30 checkers on the board and bars; this position has {count}"
            ).format(count=bit - 50)
        )
    return _base64_from_key(key, _POSITION_KEY_BYTES, POSITION_ID_LENGTH)


def decode_position_id(text: str, *, checkers: int = CHECKERS) -> Position:
    """The position a gnubg Position ID describes, seen from the player on roll.

    ``checkers`` is the number of checkers per side (15, or 3 in
    Hypergammon); checkers missing from the board are borne off. White space
    around the ID is ignored.

    >>> decode_position_id('4HPwATDgc/ABMA') == Position.start()
    True
    >>> decode_position_id('4HPwATDgc/ABM')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: a position ID has 14 characters, not 13: '4HPwATDgc/ABM'
    """
    text = _checked_text(text, "a position ID")
    _checked_int(checkers, "the number of checkers per side", 1, 127)
    if len(text) != POSITION_ID_LENGTH:
        raise InvalidIdError(
            _("a position ID has {length} characters, not {count}: {id}").format(
                length=POSITION_ID_LENGTH, count=len(text), id=_shown(text)
            )
        )
    key = _key_from_base64(text, _POSITION_KEY_BYTES, "position ID")
    counts: list[int] = []
    run = 0
    bit = 0
    while len(counts) < 50:
        if bit == 8 * _POSITION_KEY_BYTES:
            raise InvalidIdError(
                _(
                    "position ID {id}: its bits run out after {count} of the 50 points and bars "
                    "(more than 30 checkers on the board)"
                ).format(id=_shown(text), count=len(counts))
            )
        if key >> bit & 1:
            run += 1
        else:
            counts.append(run)
            run = 0
        bit += 1
    if key >> bit:
        raise InvalidIdError(
            _(
                "position ID {id}: bits left over after both sides' points and bars "
                "(bits {first} to 80 must be zero)"
            ).format(id=_shown(text), first=bit + 1)
        )
    opponent, mover = counts[:25], counts[25:]
    for side_counts, too_many in (
        (
            mover,
            N_(
                "position ID {id}: the player on roll has {count} checkers on the board, more than {checkers}"
            ),
        ),
        (
            opponent,
            N_("position ID {id}: the opponent has {count} checkers on the board, more than {checkers}"),
        ),
    ):
        if sum(side_counts) > checkers:
            raise InvalidIdError(
                _(too_many).format(id=_shown(text), count=sum(side_counts), checkers=checkers)
            )
    try:
        return Position.from_sides(mover, opponent, checkers=checkers)
    except InvalidPositionError as error:
        raise InvalidIdError(_("position ID {id}: {error}").format(id=_shown(text), error=error)) from error


# --- the Match ID -----------------------------------------------------------------


class GameState(enum.IntEnum):
    """The state of the game in a Match ID (bits 9-11), as gnubg numbers it."""

    NONE = 0
    """No game started yet."""
    PLAYING = 1
    OVER = 2
    """Ended by bearing off."""
    RESIGNED = 3
    """Ended by an accepted resignation."""
    DROPPED = 4
    """Ended by a dropped (passed) double."""


# (first bit, bits) of each field of the match key, bit 0 first.
_CUBE = (0, 4)
_CUBE_OWNER = (4, 2)
_ON_ROLL = (6, 1)
_CRAWFORD = (7, 1)
_GAME_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGNATION = (13, 2)
_DIE_1 = (15, 3)
_DIE_2 = (18, 3)
_MATCH_LENGTH = (21, 15)
_SCORE_0 = (36, 15)
_SCORE_1 = (51, 15)
_NO_JACOBY = (66, 1)
_MATCH_KEY_BITS = 67
_CENTRED = 3  # the cube owner field of a centred cube
_MAX_FIELD_15 = (1 << 15) - 1


def _get(key: int, field: tuple[int, int]) -> int:
    first, bits = field
    return key >> first & ((1 << bits) - 1)


def _put(value: int, field: tuple[int, int]) -> int:
    first, _bits = field
    return value << first


@dataclass(frozen=True)
class MatchState:
    """Everything a gnubg Match ID holds. Players are gnubg's 0 and 1.

    ``player_on_roll`` is the player who rolls (or rolled) the dice this
    turn; ``turn`` the one who has to act now: the same player, except when
    a double or a resignation has been offered and the other player must
    answer. ``resignation`` is 0 for none, 1 single game, 2 gammon, 3
    backgammon (offered by the player who is not ``turn``). ``dice`` is
    ``(0, 0)`` before the roll, in the order the ID gives them (gnubg
    writes the larger first). ``match_length`` is 0 for a money game; ``score`` is (player
    0, player 1). ``jacoby`` is whether the Jacoby rule applies to this game
    (a 67th bit that gnubg 1.07 writes but its manual does not describe:
    gnubg sets it when the Jacoby rule is *not* in use, so it is set in
    every match).

    >>> state = decode_match_id('QYkqAQAAAAAE')
    >>> state.cube_value, state.cube_owner, state.player_on_roll, state.dice, state.score
    (2, 0, 1, (5, 2), (0, 0))
    >>> encode_match_id(state)
    'QYkqAQAAAAAE'
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        _checked_cube(self.cube_value, "the cube value")
        if self.cube_owner is not None:
            _checked_int(self.cube_owner, "the cube owner (None when centred)", 0, 1)
        _checked_int(self.player_on_roll, "the player on roll", 0, 1)
        _checked_int(self.turn, "the player whose turn it is", 0, 1)
        _checked_bool(self.crawford, "the Crawford flag")
        _checked_bool(self.double_offered, "whether a double is offered")
        _checked_bool(self.jacoby, "whether the Jacoby rule applies")
        _checked_int(self.resignation, "the resignation offered", 0, 3)
        if isinstance(self.game_state, bool) or not isinstance(self.game_state, int):
            raise InvalidIdError(f"the game state is a GameState, not {self.game_state!r}")
        try:
            object.__setattr__(self, "game_state", GameState(self.game_state))
        except ValueError:
            raise InvalidIdError(
                _("the game state is 0 to 4, not {state}").format(state=self.game_state)
            ) from None
        object.__setattr__(self, "dice", _checked_dice(self.dice))
        length = _checked_int(self.match_length, "the match length (0 for money)", 0, _MAX_FIELD_15)
        first, second = _checked_pair(self.score, "the score")
        top = length if length else _MAX_FIELD_15
        score = (
            _checked_int(first, "player 0's score", 0, top),
            _checked_int(second, "player 1's score", 0, top),
        )
        object.__setattr__(self, "score", score)
        if self.crawford and not length:
            raise InvalidIdError(_("a money game has no Crawford game"))


def encode_match_id(state: MatchState) -> str:
    """The gnubg Match ID of ``state`` (12 characters).

    >>> encode_match_id(MatchState(player_on_roll=1, turn=1, match_length=9))
    'cAkgAQAAAAAE'
    """
    if not isinstance(state, MatchState):
        raise InvalidIdError(f"only a MatchState has a match ID, not {type(state).__name__}")
    key = (
        _put(state.cube_value.bit_length() - 1, _CUBE)
        | _put(_CENTRED if state.cube_owner is None else state.cube_owner, _CUBE_OWNER)
        | _put(state.player_on_roll, _ON_ROLL)
        | _put(int(state.crawford), _CRAWFORD)
        | _put(int(state.game_state), _GAME_STATE)
        | _put(state.turn, _TURN)
        | _put(int(state.double_offered), _DOUBLED)
        | _put(state.resignation, _RESIGNATION)
        | _put(state.dice[0], _DIE_1)
        | _put(state.dice[1], _DIE_2)
        | _put(state.match_length, _MATCH_LENGTH)
        | _put(state.score[0], _SCORE_0)
        | _put(state.score[1], _SCORE_1)
        | _put(int(not state.jacoby), _NO_JACOBY)
    )
    return _base64_from_key(key, _MATCH_KEY_BYTES, MATCH_ID_LENGTH)


def decode_match_id(text: str) -> MatchState:
    """The :class:`MatchState` a gnubg Match ID describes.

    White space around the ID is ignored.

    >>> decode_match_id('cAkgAQAAAAAE')
    MatchState(cube_value=1, cube_owner=None, player_on_roll=1, crawford=False, \
game_state=<GameState.PLAYING: 1>, turn=1, double_offered=False, resignation=0, dice=(0, 0), \
match_length=9, score=(0, 0), jacoby=False)
    """
    text = _checked_text(text, "a match ID")
    if len(text) != MATCH_ID_LENGTH:
        raise InvalidIdError(
            _("a match ID has {length} characters, not {count}: {id}").format(
                length=MATCH_ID_LENGTH, count=len(text), id=_shown(text)
            )
        )
    key = _key_from_base64(text, _MATCH_KEY_BYTES, "match ID")
    if key >> _MATCH_KEY_BITS:
        raise InvalidIdError(
            _("match ID {id}: bits left over after its {bits} bits (bits {first} to 72 must be zero)").format(
                id=_shown(text), bits=_MATCH_KEY_BITS, first=_MATCH_KEY_BITS + 1
            )
        )
    owner = _get(key, _CUBE_OWNER)
    if owner == 2:
        raise InvalidIdError(
            _("match ID {id}: the cube owner is 0, 1 or 3 (centred), not 2").format(id=_shown(text))
        )
    game_state = _get(key, _GAME_STATE)
    if game_state > max(GameState):
        raise InvalidIdError(
            _("match ID {id}: the game state is 0 to 4, not {state}").format(
                id=_shown(text), state=game_state
            )
        )
    try:
        return MatchState(
            cube_value=1 << _get(key, _CUBE),
            cube_owner=None if owner == _CENTRED else owner,
            player_on_roll=_get(key, _ON_ROLL),
            crawford=bool(_get(key, _CRAWFORD)),
            game_state=GameState(game_state),
            turn=_get(key, _TURN),
            double_offered=bool(_get(key, _DOUBLED)),
            resignation=_get(key, _RESIGNATION),
            dice=(_get(key, _DIE_1), _get(key, _DIE_2)),
            match_length=_get(key, _MATCH_LENGTH),
            score=(_get(key, _SCORE_0), _get(key, _SCORE_1)),
            jacoby=not _get(key, _NO_JACOBY),
        )
    except InvalidIdError as error:
        raise InvalidIdError(_("match ID {id}: {error}").format(id=_shown(text), error=error)) from None


# --- the XGID ---------------------------------------------------------------------


class XgidSide(enum.IntEnum):
    """A player as an XGID names it: the one at the bottom of the board or on top.

    The bottom player's checkers are the capital letters and the 24 points of
    the position field are numbered from its side; gnubg reads the bottom
    player as its player 1 (X) and the top player as its player 0 (O).
    """

    BOTTOM = 1
    TOP = -1


class XgidStage(enum.Enum):
    """Where the player on turn is in its turn: the XGID's dice field."""

    TO_ROLL = "00"
    """To roll or double."""
    ROLLED = "rolled"
    """Has rolled the dice in :attr:`XgidState.dice` and must play them."""
    DOUBLED = "D"
    """Has doubled; the opponent must take or drop."""
    BEAVERED = "B"
    """Has doubled and the opponent has beavered."""
    RACCOONED = "R"
    """Has doubled, the opponent has beavered, and the player has raccooned."""


_XGID_PREFIX = "XGID="
_XGID_FIELDS = 10
_XGID_NUMBER = re.compile(r"-?[0-9]{1,9}")
_XGID_DICE = re.compile(r"[1-6]{2}")
_XGID_MAX_PER_POINT = 16  # "A".."P" and "a".."p"
_MAX_CUBE_POWER = 15


@dataclass(frozen=True)
class XgidState:
    """Everything an XGID holds.

    ``position`` is seen from the player on turn (``turn``): its mover is
    that player. When ``turn`` is :attr:`XgidSide.BOTTOM` the mover's
    checkers are the XGID's capital letters. In a doubled, beavered or
    raccooned state the player on turn is the one who doubled (and who will
    roll): gnubg 1.07 reads ``D`` that way, stepping back to that player's
    cube decision.

    ``cube_value`` and ``max_cube`` are values (1, 2, 4, ...); the XGID writes
    their base-2 logarithms. ``cube_owner`` is ``None`` when the cube is
    centred. ``dice`` is ``(0, 0)`` unless ``stage`` is
    :attr:`XgidStage.ROLLED`, and keeps the order the XGID writes the dice in.
    ``crawford_jacoby`` is the XGID's Crawford/Jacoby field: in a match 1 for
    the Crawford game, else 0; in a money game 1 for the Jacoby rule plus 2
    for beavers. ``match_length`` is 0 for a money game.

    >>> state = decode_xgid('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10')
    >>> state.turn, state.stage, state.dice, state.jacoby, state.beavers, state.max_cube
    (<XgidSide.BOTTOM: 1>, <XgidStage.ROLLED: 'rolled'>, (5, 2), True, True, 1024)
    """

    position: Position
    turn: XgidSide = XgidSide.BOTTOM
    stage: XgidStage = XgidStage.TO_ROLL
    dice: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: XgidSide | None = None
    score_bottom: int = 0
    score_top: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 1 << 10

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise InvalidIdError(f"the position is a Position, not {type(self.position).__name__}")
        mover, opponent = self.position.sides()
        if max(mover + opponent) > _XGID_MAX_PER_POINT:
            raise InvalidIdError(
                _("an XGID holds at most {most} checkers on a point or a bar, not {count}").format(
                    most=_XGID_MAX_PER_POINT, count=max(mover + opponent)
                )
            )
        object.__setattr__(self, "turn", _checked_side(self.turn, "the player on turn"))
        if self.cube_owner is not None:
            object.__setattr__(self, "cube_owner", _checked_side(self.cube_owner, "the cube owner"))
        if not isinstance(self.stage, XgidStage):
            raise InvalidIdError(f"the stage is an XgidStage, not {self.stage!r}")
        dice = _checked_dice(self.dice)
        if (self.stage is XgidStage.ROLLED) != (dice != (0, 0)):
            raise InvalidIdError(
                _("the dice are rolled exactly when the stage is ROLLED, not {stage} with {dice}").format(
                    stage=self.stage, dice=dice
                )
            )
        _checked_cube(self.cube_value, "the cube value")
        _checked_cube(self.max_cube, "the maximum cube")
        length = _checked_int(self.match_length, "the match length (0 for money)", 0, _MAX_FIELD_15)
        top = length - 1 if length else _MAX_FIELD_15
        _checked_int(self.score_bottom, "the bottom player's score", 0, top)
        _checked_int(self.score_top, "the top player's score", 0, top)
        if length:
            _checked_int(self.crawford_jacoby, "the Crawford flag in a match", 0, 1)
        else:
            _checked_int(self.crawford_jacoby, "the Jacoby/beaver field in a money game", 0, 3)

    @property
    def crawford(self) -> bool:
        """Whether this is the Crawford game of a match."""
        return bool(self.match_length and self.crawford_jacoby)

    @property
    def jacoby(self) -> bool:
        """Whether the Jacoby rule applies (money games only)."""
        return not self.match_length and bool(self.crawford_jacoby & 1)

    @property
    def beavers(self) -> bool:
        """Whether beavers are allowed (money games only)."""
        return not self.match_length and bool(self.crawford_jacoby & 2)


def _checked_side(value: object, what: str) -> XgidSide:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (1, -1):
        raise InvalidIdError(f"{what} is XgidSide.BOTTOM (1) or XgidSide.TOP (-1), not {value!r}")
    return XgidSide(value)


def _xgid_letter(count: int, bottom: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if bottom else ord("a")) + count - 1)


def _board_letters(bottom: Sequence[int], top: Sequence[int]) -> str:
    """The 26-letter board of an XGID: index 0 the top player's bar, 1-24 the points numbered
    from the bottom player's side, 25 the bottom player's bar; capitals are the bottom player's."""
    letters = [_xgid_letter(top[24], bottom=False)]
    for point in range(1, 25):
        mine, theirs = bottom[point - 1], top[24 - point]
        letters.append(_xgid_letter(mine, bottom=True) if mine else _xgid_letter(theirs, bottom=False))
    letters.append(_xgid_letter(bottom[24], bottom=True))
    return "".join(letters)


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


def encode_xgid(state: XgidState) -> str:
    """The XGID of ``state``, with its ``XGID=`` prefix.

    >>> encode_xgid(XgidState(Position.start(), stage=XgidStage.ROLLED, dice=(5, 2), crawford_jacoby=3))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
    """
    if not isinstance(state, XgidState):
        raise InvalidIdError(f"only an XgidState has an XGID, not {type(state).__name__}")
    _refuse_waiting(state.position, "an XGID")
    mover, opponent = state.position.sides()
    bottom, top = (mover, opponent) if state.turn is XgidSide.BOTTOM else (opponent, mover)
    rolled = state.stage is XgidStage.ROLLED
    dice = f"{state.dice[0]}{state.dice[1]}" if rolled else state.stage.value
    fields = [
        _board_letters(bottom, top),
        str(state.cube_value.bit_length() - 1),
        "0" if state.cube_owner is None else str(int(state.cube_owner)),
        str(int(state.turn)),
        dice,
        str(state.score_bottom),
        str(state.score_top),
        str(state.crawford_jacoby),
        str(state.match_length),
        str(state.max_cube.bit_length() - 1),
    ]
    return _XGID_PREFIX + ":".join(fields)


_XGID_FIELD_ERRORS: dict[str, tuple[str, str]] = {
    "the cube (a power of two)": (
        N_("XGID {id}: the cube (a power of two) is a whole number, not {field}"),
        N_("XGID {id}: the cube (a power of two) is {low} to {high}, not {value}"),
    ),
    "the cube position": (
        N_("XGID {id}: the cube position is a whole number, not {field}"),
        N_("XGID {id}: the cube position is {low} to {high}, not {value}"),
    ),
    "the player on turn": (
        N_("XGID {id}: the player on turn is a whole number, not {field}"),
        N_("XGID {id}: the player on turn is {low} to {high}, not {value}"),
    ),
    "the bottom player's score": (
        N_("XGID {id}: the bottom player's score is a whole number, not {field}"),
        N_("XGID {id}: the bottom player's score is {low} to {high}, not {value}"),
    ),
    "the top player's score": (
        N_("XGID {id}: the top player's score is a whole number, not {field}"),
        N_("XGID {id}: the top player's score is {low} to {high}, not {value}"),
    ),
    "the Crawford/Jacoby field": (
        N_("XGID {id}: the Crawford/Jacoby field is a whole number, not {field}"),
        N_("XGID {id}: the Crawford/Jacoby field is {low} to {high}, not {value}"),
    ),
    "the match length": (
        N_("XGID {id}: the match length is a whole number, not {field}"),
        N_("XGID {id}: the match length is {low} to {high}, not {value}"),
    ),
    "the maximum cube (power of two)": (
        N_("XGID {id}: the maximum cube (power of two) is a whole number, not {field}"),
        N_("XGID {id}: the maximum cube (power of two) is {low} to {high}, not {value}"),
    ),
}
"""What is wrong with a numeric field of an XGID, by the field: not a number, out of range."""


def _xgid_number(text: str, field: str, what: str, low: int, high: int) -> int:
    """The number in a field of an XGID; ``what`` names the field, a key of :data:`_XGID_FIELD_ERRORS`."""
    not_a_number, out_of_range = _XGID_FIELD_ERRORS[what]
    if not _XGID_NUMBER.fullmatch(field):
        raise InvalidIdError(_(not_a_number).format(id=_shown(text), field=repr(field)))
    value = int(field)
    if not low <= value <= high:
        raise InvalidIdError(_(out_of_range).format(id=_shown(text), low=low, high=high, value=value))
    return value


_BOARD_ERRORS: dict[str, tuple[str, str, str, str]] = {
    "XGID": (
        N_("XGID {id}: its position field has 26 characters, not {count}"),
        N_(
            "XGID {id}: the first character is the top player's bar, "
            "so it cannot hold the bottom player's {char}"
        ),
        N_(
            "XGID {id}: the last character is the bottom player's bar, "
            "so it cannot hold the top player's {char}"
        ),
        N_("XGID {id}: {char} (character {index} of the position) is not '-', A-P or a-p"),
    ),
    "Tavola ID": (
        N_("Tavola ID {id}: its position field has 26 characters, not {count}"),
        N_(
            "Tavola ID {id}: the first character is the top player's bar, "
            "so it cannot hold the bottom player's {char}"
        ),
        N_(
            "Tavola ID {id}: the last character is the bottom player's bar, "
            "so it cannot hold the top player's {char}"
        ),
        N_("Tavola ID {id}: {char} (character {index} of the position) is not '-', A-P or a-p"),
    ),
}
"""What is wrong with the 26-letter board of an XGID or a Tavola ID: its length, a checker on the
wrong bar (top, then bottom), a stray character."""


def _xgid_sides(text: str, board: str, what: str = "XGID") -> tuple[list[int], list[int]]:
    """Each side's counts from its own side, (bottom, top), from the 26-letter position field.

    ``what`` is the kind of ID, a key of :data:`_BOARD_ERRORS`.
    """
    wrong_length, bottom_on_top_bar, top_on_bottom_bar, stray = _BOARD_ERRORS[what]
    if len(board) != 26:
        raise InvalidIdError(_(wrong_length).format(id=_shown(text), count=len(board)))
    bottom = [0] * 25
    top = [0] * 25
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "P":
            if index == 0:
                raise InvalidIdError(_(bottom_on_top_bar).format(id=_shown(text), char=repr(char)))
            bottom[index - 1] = ord(char) - ord("A") + 1  # index 25 is bottom[24], its bar
        elif "a" <= char <= "p":
            if index == 25:
                raise InvalidIdError(_(top_on_bottom_bar).format(id=_shown(text), char=repr(char)))
            top[24 if index == 0 else 24 - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidIdError(_(stray).format(id=_shown(text), char=repr(char), index=index + 1))
    return bottom, top


def decode_xgid(text: str, *, checkers: int = CHECKERS) -> XgidState:
    """The :class:`XgidState` an XGID describes; the ``XGID=`` prefix is optional.

    The ten fields, separated by colons, are: the position (26 characters:
    the top player's bar, the points 1-24 numbered from the bottom player's
    side, the bottom player's bar; ``-`` empty, ``A``-``P`` one to sixteen of
    the bottom player's checkers, ``a``-``p`` the top player's), the cube as
    a power of two, the cube's position (1 bottom, 0 centred, -1 top), the
    player on turn (1 bottom, -1 top), the dice (two digits, ``00`` to roll,
    ``D`` doubled, ``B`` beavered, ``R`` raccooned), the bottom and the top
    player's scores, the Crawford/Jacoby field, the match length and the
    maximum cube as a power of two. Checkers missing from the board are
    borne off (``checkers`` per side).

    >>> decode_xgid('-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10').position == Position.start()
    True
    >>> decode_xgid('-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: XGID '-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7': it has 10 fields \
separated by colons, not 9
    """
    text = _checked_text(text, "an XGID")
    _checked_int(checkers, "the number of checkers per side", 1, 127)
    body = text[len(_XGID_PREFIX) :] if text[: len(_XGID_PREFIX)].upper() == _XGID_PREFIX else text
    fields = body.split(":")
    if len(fields) != _XGID_FIELDS:
        raise InvalidIdError(
            _("XGID {id}: it has {fields} fields separated by colons, not {count}").format(
                id=_shown(text), fields=_XGID_FIELDS, count=len(fields)
            )
        )
    board, cube, owner, turn, dice_text, score_bottom, score_top, rules, length, max_cube = fields
    bottom, top = _xgid_sides(text, board)
    cube_power = _xgid_number(text, cube, "the cube (a power of two)", 0, _MAX_CUBE_POWER)
    owner_value = _xgid_number(text, owner, "the cube position", -1, 1)
    turn_value = _xgid_number(text, turn, "the player on turn", -1, 1)
    if turn_value == 0:
        raise InvalidIdError(
            _("XGID {id}: the player on turn is 1 (bottom) or -1 (top), not 0").format(id=_shown(text))
        )
    dice = (0, 0)
    if dice_text == "00":
        stage = XgidStage.TO_ROLL
    elif dice_text in ("D", "B", "R"):
        stage = XgidStage(dice_text)
    elif _XGID_DICE.fullmatch(dice_text):
        stage = XgidStage.ROLLED
        dice = (int(dice_text[0]), int(dice_text[1]))
    else:
        raise InvalidIdError(
            _("XGID {id}: the dice field is two dice 1-6, 00, D, B or R, not {dice}").format(
                id=_shown(text), dice=repr(dice_text)
            )
        )
    side = XgidSide(turn_value)
    mover, opponent = (bottom, top) if side is XgidSide.BOTTOM else (top, bottom)
    for counts, too_many in (
        (bottom, N_("XGID {id}: the bottom player has {count} checkers on the board, more than {checkers}")),
        (top, N_("XGID {id}: the top player has {count} checkers on the board, more than {checkers}")),
    ):
        if sum(counts) > checkers:
            raise InvalidIdError(_(too_many).format(id=_shown(text), count=sum(counts), checkers=checkers))
    try:
        position = Position.from_sides(mover, opponent, checkers=checkers)
    except InvalidPositionError as error:
        raise InvalidIdError(_("XGID {id}: {error}").format(id=_shown(text), error=error)) from error
    bottom_score = _xgid_number(text, score_bottom, "the bottom player's score", 0, _MAX_FIELD_15)
    top_score = _xgid_number(text, score_top, "the top player's score", 0, _MAX_FIELD_15)
    crawford_jacoby = _xgid_number(text, rules, "the Crawford/Jacoby field", 0, 3)
    match_length = _xgid_number(text, length, "the match length", 0, _MAX_FIELD_15)
    max_power = _xgid_number(text, max_cube, "the maximum cube (power of two)", 0, _MAX_CUBE_POWER)
    try:
        return XgidState(
            position=position,
            turn=side,
            stage=stage,
            dice=dice,
            cube_value=1 << cube_power,
            cube_owner=None if owner_value == 0 else XgidSide(owner_value),
            score_bottom=bottom_score,
            score_top=top_score,
            crawford_jacoby=crawford_jacoby,
            match_length=match_length,
            max_cube=1 << max_power,
        )
    except InvalidIdError as error:
        raise InvalidIdError(_("XGID {id}: {error}").format(id=_shown(text), error=error)) from None


# --- either -----------------------------------------------------------------------

_GNUBG_ID = re.compile(r"([A-Za-z0-9+/]{14}):([A-Za-z0-9+/]{12})")


def parse_position(text: str, *, checkers: int = CHECKERS) -> Position:
    """The position in a gnubg Position ID, an XGID or a Tavola ID, seen from the player on roll.

    A gnubg ID (``POSITIONID:MATCHID``, as ``show gnubgid`` writes it) is
    also read; its match ID is checked but otherwise ignored. For an XGID the
    mover is the player on turn (see :class:`XgidState`).

    >>> parse_position('4HPwATDgc/ABMA') == Position.start()
    True
    >>> parse_position('-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10') == Position.start()
    True
    >>> parse_position('start')
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidIdError: 'start' is neither a gnubg Position ID (14 characters) nor an XGID
    """
    text = _checked_text(text, "a position ID or XGID")
    if text[: len(_TAVOLA_PREFIX)].upper() == _TAVOLA_PREFIX:
        return decode_tavola_id(text)
    if text[: len(_XGID_PREFIX)].upper() == _XGID_PREFIX or text.count(":") >= 2:
        return decode_xgid(text, checkers=checkers).position
    gnubg_id = _GNUBG_ID.fullmatch(text)
    if gnubg_id is not None:
        decode_match_id(gnubg_id.group(2))
        return decode_position_id(gnubg_id.group(1), checkers=checkers)
    if len(text) == POSITION_ID_LENGTH:
        return decode_position_id(text, checkers=checkers)
    raise InvalidIdError(
        _("{id} is neither a gnubg Position ID ({length} characters) nor an XGID").format(
            id=_shown(text), length=POSITION_ID_LENGTH
        )
    )


# --- the Tavola ID -------------------------------------------------------------------

_TAVOLA_PREFIX = "TVL="
_TAVOLA_ID = re.compile(r"(?P<board>[^:]*):(?P<mine>\d{1,3}):(?P<theirs>\d{1,3}):(?P<checkers>\d{1,3})")


def encode_tavola_id(position: Position) -> str:
    """Tavola's own ID, which holds every position of every variant.

    ``TVL=`` then the 26-letter board of an XGID with the mover as the
    bottom player (capitals), then the mover's and the opponent's checkers
    waiting to enter (Acey-Deucey), then the checkers per side; the
    checkers borne off are the rest.

    >>> encode_tavola_id(Position.start())
    'TVL=-b----E-C---eE---c-e----B-:0:0:15'
    >>> encode_tavola_id(Position([0] * 24, waiting=(15, 15)))
    'TVL=--------------------------:15:15:15'
    """
    if not isinstance(position, Position):
        raise InvalidIdError(f"only a Position has a Tavola ID, not {type(position).__name__}")
    mover, opponent = position.sides()
    mine, theirs = position.waiting
    return f"{_TAVOLA_PREFIX}{_board_letters(mover, opponent)}:{mine}:{theirs}:{position.checkers}"


def decode_tavola_id(text: str) -> Position:
    """The position a Tavola ID describes, seen from the mover.

    >>> decode_tavola_id('TVL=-b----E-C---eE---c-e----B-:0:0:15') == Position.start()
    True
    """
    text = _checked_text(text, "a Tavola ID")
    body = text[len(_TAVOLA_PREFIX) :] if text[: len(_TAVOLA_PREFIX)].upper() == _TAVOLA_PREFIX else text
    match = _TAVOLA_ID.fullmatch(body)
    if match is None:
        raise InvalidIdError(
            _("Tavola ID {id}: write TVL= then 26 board letters and three numbers, such as {example}").format(
                id=_shown(text), example="TVL=-b----E-C---eE---c-e----B-:0:0:15"
            )
        )
    mover, opponent = _xgid_sides(text, match.group("board"), "Tavola ID")
    checkers = _checked_int(int(match.group("checkers")), "the number of checkers per side", 1, 127)
    waiting = (int(match.group("mine")), int(match.group("theirs")))
    try:
        return Position.from_sides(mover, opponent, waiting=waiting, checkers=checkers)
    except InvalidPositionError as error:
        raise InvalidIdError(_("Tavola ID {id}: {error}").format(id=_shown(text), error=error)) from error
