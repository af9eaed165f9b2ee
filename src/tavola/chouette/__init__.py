"""Chouette: backgammon for 3 to 8 players, the box against a team led by its captain (H1-H10).

A :class:`Chouette` is the table: players join and leave, the order is
drawn with dice, games are started one after another, and the seats rotate
after each one. A :class:`ChouetteGame` is one game; every action names its
player, and :meth:`ChouetteGame.legal_actions` says who may do what now.

>>> from tavola.dicesource import RandomDice
>>> table = Chouette(ChouetteSettings(stake=2), RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
>>> game = table.start_game()  # draws the order first (H1)
>>> game.box, game.captain, game.legal_actions()
('Cid', 'Ann', [PlayerAction('Cid', Roll()), PlayerAction('Ann', Roll())])
>>> game.roll("Ann"), game.roller  # the opening roll: the team plays first
(Dice(6, 3), 'Ann')
>>> game.play("Ann", "24/15")
>>> game.double("Cid", ["Ann", "Ben"])  # the box doubles both members
>>> game.to_act  # each answers for themselves
('Ann', 'Ben')
>>> game.take("Ann")
>>> game.drop("Ben")  # Ben pays 1 and is out of this game
>>> game.members_in, game.cube("Ann")
(('Ann',), Cube(2, owner=1))
>>> game.roll("Cid")
Dice(6, 6)
>>> game.play("Cid", "24/18(2) 13/7(2)")
>>> game.double("Ann")  # Ann redoubles the box to 4...
>>> game.drop("Cid")  # ...and the box drops: Ann wins 2
>>> table.ledger.totals, table.ledger.money("Ann")
({'Cid': -1, 'Ann': 2, 'Ben': -1}, 4)
>>> table.seating  # the captain beat the box: Ann takes the box, Cid waits at the end (H2)
Seating(box='Ann', queue=('Ben', 'Cid'))
"""

from tavola.chouette.actions import (
    AcceptPartnership,
    Beaver,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    GiveExtra,
    LogEntry,
    PlayerAction,
    Suggest,
    Take,
)
from tavola.chouette.bets import Bet, Offer, Side
from tavola.chouette.game import ChouetteGame, Phase, Suggestion
from tavola.chouette.ledger import GameSettlement, Ledger, Payment
from tavola.chouette.seating import Seating
from tavola.chouette.session import Chouette
from tavola.chouette.settings import MAX_PLAYERS, MIN_PLAYERS, ChouetteSettings, Consultation, CubeMode

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "AcceptPartnership",
    "Beaver",
    "Bet",
    "Chouette",
    "ChouetteGame",
    "ChouetteSettings",
    "Consultation",
    "CubeMode",
    "DeclineExtra",
    "DeclinePartnership",
    "Double",
    "Drop",
    "GameSettlement",
    "GiveExtra",
    "Ledger",
    "LogEntry",
    "Offer",
    "Payment",
    "Phase",
    "PlayerAction",
    "Seating",
    "Side",
    "Suggest",
    "Suggestion",
    "Take",
]
