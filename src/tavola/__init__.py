"""Tavola: backgammon with exact rules, standard formats and a bot.

>>> import tavola
>>> position = tavola.Position.start()
>>> plays = position.legal_plays(tavola.Dice(3, 1))
>>> len(plays)
16
>>> str(position.parse_play(tavola.Dice(3, 1), "8/5 6/5"))
'8/5 6/5'
"""

from tavola.dice import ALL_ROLLS, Dice
from tavola.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
    NotationError,
    TavolaError,
)
from tavola.play import LegalPlays, Move, Play
from tavola.position import BAR, OFF, GameResult, Position, PositionKind, WinKind

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "OFF",
    "AmbiguousPlayError",
    "Dice",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "LegalPlays",
    "Move",
    "NotationError",
    "Play",
    "Position",
    "PositionKind",
    "TavolaError",
    "WinKind",
]
