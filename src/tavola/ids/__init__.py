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

:func:`parse_position` reads a position from any of them (and from a Snowie
text position), and :func:`position_text` writes the one that holds it
(:mod:`tavola.ids.parse`).

The position files players exchange are read and written here too: Snowie's
text position (:mod:`tavola.ids.snowie`) and Jellyfish's ``.pos``
(:mod:`tavola.ids.jellyfish`), each a :class:`PositionRecord`
(:mod:`tavola.ids.positionfile`); a file that cannot be read raises
:class:`PositionFileError`, naming the field or the byte.

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
from tavola.ids.jellyfish import decode_jellyfish, encode_jellyfish
from tavola.ids.match_id import GameState, MatchState, decode_match_id, encode_match_id
from tavola.ids.parse import gnubg_match_state, is_xgid, parse_position, position_text
from tavola.ids.position_id import decode_position_id, encode_position_id
from tavola.ids.positionfile import PositionFileError, PositionRecord, read_position_file, write_position_file
from tavola.ids.snowie import decode_snowie, encode_snowie, is_snowie
from tavola.ids.tavola_id import decode_tavola_id, encode_tavola_id
from tavola.ids.xgid import XgidSide, XgidStage, XgidState, decode_xgid, encode_xgid

__all__ = [
    "MATCH_ID_LENGTH",
    "POSITION_ID_LENGTH",
    "GameState",
    "MatchState",
    "PositionFileError",
    "PositionRecord",
    "XgidSide",
    "XgidStage",
    "XgidState",
    "decode_jellyfish",
    "decode_match_id",
    "decode_position_id",
    "decode_snowie",
    "decode_tavola_id",
    "decode_xgid",
    "encode_jellyfish",
    "encode_match_id",
    "encode_position_id",
    "encode_snowie",
    "encode_tavola_id",
    "encode_xgid",
    "gnubg_match_state",
    "is_snowie",
    "is_xgid",
    "parse_position",
    "position_text",
    "read_position_file",
    "write_position_file",
]
