"""The chouette's ledger: what every player won or paid, game by game, and the running totals (H10).

Every game is settled as payments from one player to another, so its
points always sum to zero; the :class:`Ledger` checks this again for every
game it holds and raises :class:`~tavola.errors.LedgerError` if not.

>>> from tavola.scoring import Ending, Outcome
>>> from tavola.position import WinKind
>>> gammon = Outcome(0, WinKind.GAMMON, 1, Ending.BEAR_OFF)
>>> game = GameSettlement(0, "Ann", None, ("Ann", "Ben", "Cid"), (
...     Payment("Ben", "Ann", 2, gammon), Payment("Cid", "Ann", 2, gammon)))
>>> game.points
{'Ann': 4, 'Ben': -2, 'Cid': -2}
>>> ledger = Ledger([game], stake=2.5)
>>> ledger.totals, ledger.money("Ann")
({'Ann': 4, 'Ben': -2, 'Cid': -2}, 10.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tavola.chouette.bets import Bet
from tavola.errors import LedgerError
from tavola.i18n import _
from tavola.scoring import Outcome

__all__ = ["GameSettlement", "Ledger", "Payment", "partner_share"]


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``points``: a cube's result (``outcome``), or the box partner's share."""

    payer: str
    payee: str
    points: int
    outcome: Outcome | None = None  # None: the partner's share of the box's result (H9)
    extra: bool = False  # the cube was an extra (H7)

    def __post_init__(self) -> None:
        if isinstance(self.points, bool) or not isinstance(self.points, int) or self.points < 0:
            raise LedgerError(
                _("a payment is a whole number of points from 0 up, not {points}").format(
                    points=repr(self.points)
                )
            )
        if self.payer == self.payee:
            raise LedgerError(_("{player} cannot pay themselves").format(player=self.payer))


def partner_share(box_points: int) -> int:
    """The box partner's half of the box's result; an odd point goes to the box (H9).

    >>> partner_share(5), partner_share(-5), partner_share(4)
    (2, -2, 2)
    """
    return abs(box_points) // 2 * (1 if box_points >= 0 else -1)


@dataclass(frozen=True)
class GameSettlement:
    """One game's payments, the players who took part (the box first) and each one's net points."""

    number: int
    box: str
    partner: str | None
    players: tuple[str, ...]
    payments: tuple[Payment, ...]

    def __post_init__(self) -> None:
        for payment in self.payments:
            for name in (payment.payer, payment.payee):
                if name not in self.players:
                    raise LedgerError(
                        _("game {number}: {player} did not play, so cannot pay or be paid").format(
                            number=self.number, player=name
                        )
                    )
        if sum(self.points.values()) != 0:
            raise LedgerError(
                _("game {number}: the points do not sum to zero: {points}").format(
                    number=self.number, points=self.points
                )
            )

    @property
    def points(self) -> dict[str, int]:
        """Net points per player: positive won, negative paid."""
        points = dict.fromkeys(self.players, 0)
        for payment in self.payments:
            points[payment.payer] -= payment.points
            points[payment.payee] += payment.points
        return points

    @classmethod
    def from_bets(
        cls, number: int, box: str, partner: str | None, team: Sequence[str], bets: Iterable[Bet]
    ) -> GameSettlement:
        """The payments of a finished game's cubes, with the partner's share of the box's result (H9)."""
        payments = []
        for bet in bets:
            if bet.outcome is None or bet.winner is None or bet.loser is None:
                raise LedgerError(
                    _("game {number}: the cube of {box_side} and {team_side} is not settled").format(
                        number=number, box_side=bet.box_side, team_side=bet.team_side
                    )
                )
            payments.append(Payment(bet.loser, bet.winner, bet.outcome.points, bet.outcome, bet.extra))
        players = (box, *((partner,) if partner else ()), *team)
        if partner is not None:
            box_points = sum(
                payment.points if payment.payee == box else -payment.points
                for payment in payments
                if box in (payment.payer, payment.payee)
            )
            share = partner_share(box_points)
            if share > 0:
                payments.append(Payment(box, partner, share))
            elif share < 0:
                payments.append(Payment(partner, box, -share))
        return cls(number, box, partner, players, tuple(payments))


class Ledger:
    """Every settled game in order, the running totals, and their worth at the stake (H10)."""

    def __init__(self, games: Iterable[GameSettlement] = (), stake: float = 1) -> None:
        self.games = tuple(games)
        self.stake = stake
        totals: dict[str, int] = {}
        for game in self.games:
            points = game.points
            if sum(points.values()) != 0:
                raise LedgerError(
                    _("game {number}: the points do not sum to zero: {points}").format(
                        number=game.number, points=points
                    )
                )
            for name, value in points.items():
                totals[name] = totals.get(name, 0) + value
        self._totals = totals

    @property
    def totals(self) -> dict[str, int]:
        """Net points per player over every game, in the order players first played."""
        return dict(self._totals)

    def money(self, player: str) -> float:
        """What ``player`` has won (positive) or lost, at the stake per point."""
        return self._totals.get(player, 0) * self.stake

    def __len__(self) -> int:
        return len(self.games)

    def __repr__(self) -> str:
        return f"<Ledger {len(self.games)} games, totals {self._totals}>"
