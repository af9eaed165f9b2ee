"""Tavola: backgammon with exact rules, standard formats and a bot.

>>> import tavola
>>> position = tavola.Position.start()
>>> plays = position.legal_plays(tavola.Dice(3, 1))
>>> len(plays)
16
>>> str(position.parse_play(tavola.Dice(3, 1), "8/5 6/5"))
'8/5 6/5'
"""

from tavola.cube import Cube
from tavola.dice import ALL_ROLLS, Dice
from tavola.dicesource import DiceSource, ManualDice, RandomDice, VerifiableDice
from tavola.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
    NotationError,
    TavolaError,
)
from tavola.game import Ending, Game, Outcome, Phase
from tavola.match import Match, MoneySession
from tavola.play import LegalPlays, Move, Play
from tavola.position import BAR, OFF, GameResult, Position, PositionKind, WinKind
from tavola.rules import Rules

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "OFF",
    "AmbiguousPlayError",
    "Cube",
    "Dice",
    "DiceSource",
    "Ending",
    "Game",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "LegalPlays",
    "ManualDice",
    "Match",
    "MoneySession",
    "Move",
    "NotationError",
    "Outcome",
    "Phase",
    "Play",
    "Position",
    "PositionKind",
    "RandomDice",
    "Rules",
    "TavolaError",
    "VerifiableDice",
    "WinKind",
]
