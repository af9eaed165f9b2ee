"""The clocks of a table with a time control: a delay on every turn, then a bank that runs down.

A table created with ``"clock": {"delay": 12, "bank": 60}``
(:class:`~tavola.web.options.ClockOptions`) gives each player a bank of 60
seconds per point of the match (``bank`` times the length, for the whole
match), or of 60 seconds for each game of money play (both banks full again
when a game starts). Whenever the game waits for a player, their clock
runs until it waits for the other player; on each turn of the game (from
one play to the next) the first ``delay`` seconds a player's clock runs do
not count, once: the roll or double and the play of the player on roll are
one span, and the answer to a double or a resignation is the other
player's, with its own delay; a player whose clock runs again in the same
turn (after the answer to their double) gets no second delay. After the
delay their bank runs down. A player whose bank is empty loses on time: the
table forfeits for them (:meth:`LiveTable.forfeit
<tavola.web.live.LiveTable.forfeit>`), and the other player wins the match.

The server is the only keeper of the time, by its own clock (Unix seconds).
:class:`Clock` is the clocks after an action: each bank as it was when the
running clock started, whose clock runs and since when, and the turn in
which each player last had their delay. It is stored with every action of
the table, in the action's own transaction (``tavola_clocks``), so a table
read again (another process, a restart) has its clocks as they were at its
last action, and the time that passed since, the server stopped or not,
counts. The bot's turns are not
timed: while the bot is to act, or between games, no clock runs.

A clock may be stopped (:meth:`Clock.paused`, a tournament paused by its
director): its time stands still at the moment it stopped, so nobody's bank
or delay runs down and nobody loses on time; actions done meanwhile count as
done at that moment (the next player's delay waits for them whole). Started
again (:meth:`Clock.resumed`), each clock goes on from where it stood.

>>> clock = Clock.start(ClockOptions(delay=12, bank=60), length=3)
>>> clock = clock.after(0, game=1, turn=0, now=1000.0)  # seat 0 to act
>>> clock.left(0, 1010.0), clock.left(0, 1042.0)        # in the delay, then 30 s past it
(180.0, 150.0)
>>> clock = clock.after(1, game=1, turn=1, now=1042.0)  # seat 0 is done: 30 s of the bank spent
>>> clock.banks, clock.expired(1042.0 + 12 + 180)
((150.0, 180.0), 1)
>>> stopped = clock.paused(1050.0)                      # 8 s of seat 1's delay gone, 4 s left
>>> stopped.left(1, 5000.0), stopped.expired(5000.0)
(180.0, None)
>>> clock.resumed(2000.0) is clock, stopped.resumed(2000.0).left(1, 2000.0 + 4 + 30)
(True, 150.0)
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import Any

from tavola.errors import TavolaError
from tavola.match import FORFEIT_REASONS, Forfeit
from tavola.web.options import ClockOptions, GameOptions

__all__ = ["Clock", "ForfeitError", "clock_of", "forfeit_action", "read_forfeit", "time_text"]


class ForfeitError(TavolaError):
    """A stored forfeit that does not have the shape of one."""


@dataclass(frozen=True)
class Clock:
    """Both players' clocks: ``banks`` (seconds, each as it was when the running clock started), ``seat``
    whose clock runs since ``since`` (None: nobody's clock runs; a clock started without its delay, given
    once a turn, counts from ``delay`` seconds before it started), ``game`` the game (from 1) they are
    for, ``delayed`` the game and turn in which each seat had its delay last; ``per_game``: the banks are
    full again at every game (money play); ``paused_at``: when the clocks were stopped (None: they run),
    their time standing still at that moment."""

    delay: float
    bank: float
    per_game: bool
    banks: tuple[float, float]
    seat: int | None = None
    since: float | None = None
    game: int = 0
    delayed: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)
    paused_at: float | None = None

    @classmethod
    def start(cls, options: ClockOptions, *, length: int | None) -> Clock:
        """The clocks before the first action: ``bank`` per point of a match of ``length`` points, or
        per game of money play (``length`` None)."""
        bank = options.bank * (length or 1)
        return cls(options.delay, bank, length is None, (bank, bank))

    def left(self, seat: int, now: float) -> float:
        """What is left of ``seat``'s bank at ``now`` (never below 0)."""
        now = self._time(now)
        spent = 0.0
        if seat == self.seat and self.since is not None:
            spent = max(0.0, now - self.since - self.delay)
        return max(0.0, self.banks[seat] - spent)

    def _time(self, now: float) -> float:
        """The clocks' own time at ``now``: the moment they stopped, while they are stopped."""
        return now if self.paused_at is None else min(now, self.paused_at)

    def paused(self, now: float) -> Clock:
        """These clocks stopped at ``now`` (as they are, where they are stopped already)."""
        return self if self.paused_at is not None else replace(self, paused_at=now)

    def resumed(self, now: float) -> Clock:
        """These clocks started again at ``now``, each where it stood when they stopped: the running
        clock's start put off by the time they stood still (as they are, where they run)."""
        if self.paused_at is None:
            return self
        since = None if self.since is None else self.since + max(0.0, now - self.paused_at)
        return replace(self, since=since, paused_at=None)

    def expired(self, now: float) -> int | None:
        """The seat whose bank is empty at ``now``, if any (only the running clock runs out)."""
        if self.seat is not None and self.left(self.seat, now) <= 0:
            return self.seat
        return None

    def after(self, seat: int | None, *, game: int, turn: int, now: float) -> Clock:
        """The clocks once the table, at ``now``, waits for ``seat`` (None: for nobody timed: the bot, or
        between games) in turn ``turn`` (the plays made so far) of game ``game``. The clock that ran
        stops, its time past the delay taken from its bank, unless the same seat goes on acting in the
        same game; the new one starts with its delay if its seat has not had it in this turn."""
        if seat == self.seat and game == self.game:
            return self
        now = self._time(now)  # while stopped, every action counts as done when they stopped
        banks = self.banks
        if self.seat is not None:
            spent = list(banks)
            spent[self.seat] = self.left(self.seat, now)
            banks = (spent[0], spent[1])
        if self.per_game and game != self.game:
            banks = (self.bank, self.bank)
        if seat is None:
            return replace(self, banks=banks, seat=None, since=None, game=game)
        delayed = list(self.delayed)
        since = now if delayed[seat] != (game, turn) else now - self.delay  # the delay once a turn
        delayed[seat] = (game, turn)
        return replace(self, banks=banks, seat=seat, since=since, game=game, delayed=(delayed[0], delayed[1]))

    def to_json(self) -> dict[str, Any]:
        """What is stored with an action: the banks, whose clock runs, since when, the game, the delays."""
        delayed = [None if key is None else list(key) for key in self.delayed]
        return {
            "banks": list(self.banks),
            "seat": self.seat,
            "since": self.since,
            "game": self.game,
            "delayed": delayed,
            "paused_at": self.paused_at,
        }

    def stored(self, data: object) -> Clock:
        """These clocks as :meth:`to_json` stored them; a stored value of another shape leaves them as
        they are."""
        if not isinstance(data, dict):
            return self
        banks, seat, since, game = (data.get(key) for key in ("banks", "seat", "since", "game"))
        delayed, paused_at = data.get("delayed"), data.get("paused_at")
        if (
            not isinstance(banks, list)
            or len(banks) != 2
            or not all(isinstance(value, int | float) for value in banks)
            or seat not in (None, 0, 1)
            or not (since is None or isinstance(since, int | float))
            or not isinstance(game, int)
            or not isinstance(delayed, list)
            or len(delayed) != 2
            or not all(key is None or _is_turn(key) for key in delayed)
            or not (paused_at is None or isinstance(paused_at, int | float))
        ):
            return self
        turns = tuple(None if key is None else (key[0], key[1]) for key in delayed)
        return replace(
            self,
            banks=(float(banks[0]), float(banks[1])),
            seat=seat,
            since=since,
            game=game,
            delayed=(turns[0], turns[1]),
            paused_at=None if paused_at is None else float(paused_at),
        )

    def state_json(self, now: float) -> dict[str, Any]:
        """The clocks as a page shows them, counting down by itself: the delay, each bank left now,
        whose clock runs, since when and the server's ``now`` (Unix seconds, so that a page may tell
        its own clock's difference), each bank as it was when the running turn began, and whether the
        clocks are stopped (``paused``, since ``paused_at``: no clock counts down, ``left`` stands as it
        is, and the running clock's delay stands at what it was at ``paused_at``)."""
        return {
            "delay": self.delay,
            "left": [self.left(0, now), self.left(1, now)],
            "banks": list(self.banks),
            "running": self.seat,
            "since": self.since,
            "now": now,
            "paused": self.paused_at is not None,
            "paused_at": self.paused_at,
        }


def _is_turn(key: object) -> bool:
    """Whether ``key`` is a game's turn as stored: [game, turn]."""
    return isinstance(key, list) and len(key) == 2 and all(isinstance(part, int) for part in key)


def clock_of(options: object) -> Clock | None:
    """The clocks a table's options start with; None for a table without a time control.

    >>> from tavola.web.options import read_options
    >>> options = read_options({"kind": "game", "series": "money", "clock": {"delay": 8, "bank": 30},
    ...                         "seats": [{}, {}]})
    >>> clock_of(options).banks, clock_of(options).per_game
    ((30.0, 30.0), True)
    """
    if not isinstance(options, GameOptions) or options.clock is None:
        return None
    return Clock.start(options.clock, length=options.length if options.series == "match" else None)


def time_text(moment: float) -> str:
    """A time in ISO 8601, in UTC, to the second, as records write it.

    >>> time_text(0)
    '1970-01-01T00:00:00Z'
    """
    return datetime.datetime.fromtimestamp(int(moment), datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def forfeit_action(forfeit: Forfeit) -> dict[str, Any]:
    """A forfeit as the table's own action in its log (``seat`` null: nobody did it).

    >>> forfeit_action(Forfeit(1, "time", "2026-05-01T12:00:00Z"))
    {'action': 'forfeit', 'player': 1, 'reason': 'time', 'at': '2026-05-01T12:00:00Z'}
    """
    return {"action": "forfeit", "player": forfeit.player, "reason": forfeit.reason, "at": forfeit.at}


def read_forfeit(data: object) -> Forfeit | None:
    """The forfeit a stored action is (None where it is another action); one of a bad shape raises
    :class:`ForfeitError`."""
    if not isinstance(data, dict) or data.get("action") != "forfeit":
        return None
    player, reason, at = data.get("player"), data.get("reason"), data.get("at")
    if player not in (0, 1) or isinstance(player, bool) or reason not in FORFEIT_REASONS:
        raise ForfeitError(f"a forfeit names player 0 or 1 and one of {', '.join(FORFEIT_REASONS)}")
    if not (at is None or isinstance(at, str)):
        raise ForfeitError("a forfeit's time is text")
    return Forfeit(player, reason, at)
