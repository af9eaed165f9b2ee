"""Text IDs for positions and matches: gnubg's Position ID and Match ID, XGIDs and Tavola IDs.

Four formats are read and written here, each in its own module:

* the GNU Backgammon **Position ID**, 14 base64 characters for the checkers
  (:mod:`tavola.ids.position_id`);
* the GNU Backgammon **Match ID**, 12 base64 characters for the cube, the
  dice, the score and whose turn it is (:class:`MatchState`,
  :mod:`tavola.ids.match_id`);
* eXtreme Gammon's **XGID**, which holds both in one line of text
  (:class:`XgidState`, :mod:`tavola.ids.xgid`);
* Tavola's own **Tavola ID**, which holds any position of any variant
  (:mod:`tavola.ids.tavola_id`).

:func:`parse_position` reads a position from any of them, and
:func:`position_text` writes the one that holds it (:mod:`tavola.ids.parse`).

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

from tavola.ids._checks import MATCH_ID_LENGTH, POSITION_ID_LENGTH
from tavola.ids.match_id import GameState, MatchState, decode_match_id, encode_match_id
from tavola.ids.parse import gnubg_match_state, is_xgid, parse_position, position_text
from tavola.ids.position_id import decode_position_id, encode_position_id
from tavola.ids.tavola_id import decode_tavola_id, encode_tavola_id
from tavola.ids.xgid import XgidSide, XgidStage, XgidState, decode_xgid, encode_xgid

__all__ = [
    "MATCH_ID_LENGTH",
    "POSITION_ID_LENGTH",
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
    "gnubg_match_state",
    "is_xgid",
    "parse_position",
    "position_text",
]
