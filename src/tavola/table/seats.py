"""Who sits in a seat: a person, or the bot at a level.

>>> Seat("Ann"), Seat("Tavola", "expert").is_bot
(Seat(name='Ann', bot_level=None), True)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Seat"]


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person (``bot_level`` None) or the bot at a level."""

    name: str
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None
