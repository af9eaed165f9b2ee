"""GNU Backgammon's Match ID: 12 base64 characters for the cube, the dice, the score and the turn."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavola.errors import InvalidIdError
from tavola.i18n import _
from tavola.ids._base64 import _base64_from_key, _key_from_base64
from tavola.ids._checks import (
    _MAX_FIELD_15,
    MATCH_ID_LENGTH,
    _check_cube_state,
    _check_match_state,
    _checked_bool,
    _checked_cube,
    _checked_dice,
    _checked_int,
    _checked_pair,
    _checked_text,
    _shown,
)

_MATCH_KEY_BYTES = 9


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

    Once a game is over, gnubg writes the score with the game counted (past
    the match length when it won the match: ``UwrgAAABAAAE`` is 16-0 in a
    7-point match), the Crawford flag of the *next* game, and the
    resignation that was accepted; after a bear-off the loser is on roll and
    on turn, with no dice. A state no match reaches is refused: a score at
    or past the length while a game is played, a Crawford flag at a score
    with no Crawford game (P2), a cube owned at 1 (C3), a cube turned or
    offered in the Crawford game, a double offered in a game that is over.

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
        _checked_cube(self.cube_value, "the cube value", "a Match ID")
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
        score = (
            _checked_int(first, "player 0's score", 0, _MAX_FIELD_15),
            _checked_int(second, "player 1's score", 0, _MAX_FIELD_15),
        )
        object.__setattr__(self, "score", score)
        playing = self.game_state in (GameState.NONE, GameState.PLAYING)
        _check_match_state(length, score, self.crawford, finished=not playing)
        if self.double_offered and self.game_state is not GameState.PLAYING:
            raise InvalidIdError(_("a double is offered only while a game is played"))
        crawford_game = self.crawford and playing
        _check_cube_state(self.cube_value, self.cube_owner is not None, self.double_offered, crawford_game)


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
