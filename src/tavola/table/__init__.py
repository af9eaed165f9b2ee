"""Tables: the series being played, who sits where, whose turn it is, the bot in its seat, and events.

A table knows nothing of terminals or networks: a view asks it who may act
and what they may do, passes a person's actions in, lets it make the
actions that need nobody's decision (``advance``), and renders the events
it announces. Every table is a :class:`Table`, seats numbered from 0:
:class:`GameTable` seats two players at a match or a money session;
:class:`ChouetteTable` seats a chouette.
"""

from tavola.table.chouette_table import ChouetteTable
from tavola.table.game_table import GameTable
from tavola.table.protocol import ActionHook, Listener, Table
from tavola.table.seats import Seat

__all__ = ["ActionHook", "ChouetteTable", "GameTable", "Listener", "Seat", "Table"]
