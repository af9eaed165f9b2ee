"""Who plays whom in a tournament: knockout brackets and Swiss rounds, and the final standings.

Pure functions over players' ids; nothing here reads a database or a table.

**Seeding.** Players are ranked by rating, highest first; equal ratings by
who entered first (:func:`ranked`). A knockout bracket has room for the next
power of two; seed 1 meets the last seed, seed 2 the last but one, and the
bracket is laid out so that seeds 1 and 2 can meet only in the final, 1 to 4
only in the semi-finals, and so on (:func:`seed_positions`). Where the field
is smaller than the bracket, the missing seeds are the lowest, so the top
seeds get the byes (:func:`first_round`). Winners meet in bracket order: the
winners of matches 0 and 1 of a round meet in match 0 of the next
(:func:`next_round`).

**Consolation.** The losers of the first round's played matches (a bye is
no loss) play a knockout of their own, seeded in the order of the main
bracket's seeds (:func:`consolation_field`).

**Swiss.** Every round pairs players with the same score where it can: the
players are ranked by points, then Buchholz (the sum of the points of the
opponents met), then rating, then who entered first (:func:`swiss_standings`).
The top player meets the highest-ranked player they have not met yet, and so
on down; where that leaves someone without a partner, the pairing goes back
and tries the next candidate (:func:`swiss_pairings`). With an odd field the
lowest-ranked player who has not had a bye gets one, worth a win. No two
players meet twice; where no such pairing is left, there is none
(:class:`PairingError`).

>>> seed_positions(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(["A", "B", "C", "D", "E", "F"])
[('A', None), ('D', 'E'), ('B', None), ('C', 'F')]
>>> next_round(["A", "D", "B", "C"])
[('A', 'D'), ('B', 'C')]
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tavola.errors import TavolaError
from tavola.i18n import _

__all__ = [
    "Entrant",
    "PairingError",
    "Result",
    "Standing",
    "bracket_size",
    "consolation_field",
    "first_round",
    "knockout_places",
    "knockout_rounds",
    "next_round",
    "ranked",
    "seed_positions",
    "swiss_pairings",
    "swiss_standings",
]

_Player = TypeVar("_Player", bound=Hashable)


class PairingError(TavolaError):
    """No pairing is possible: too few players, or no Swiss round left without a repeat."""


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: their id, their rating when it started, and when they entered (0 first)."""

    id: int
    rating: float
    order: int


@dataclass(frozen=True)
class Result:
    """A Swiss match: its two players (``second`` None: a bye for ``first``) and its winner (None: nobody
    won, both forfeited)."""

    first: int
    second: int | None
    winner: int | None


@dataclass(frozen=True)
class Standing:
    """A player's line of a Swiss table: place (from 1), points, Buchholz, wins, rating."""

    place: int
    id: int
    points: float
    buchholz: float
    wins: int
    rating: float


def ranked(entrants: Sequence[Entrant]) -> list[int]:
    """The players' ids by seed: highest rating first, equal ratings by who entered first.

    >>> ranked([Entrant(1, 1500, 0), Entrant(2, 1600, 1), Entrant(3, 1500, 2)])
    [2, 1, 3]
    """
    return [entrant.id for entrant in sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.order))]


def bracket_size(players: int) -> int:
    """The room in a knockout bracket for ``players``: the next power of two (at least 2)."""
    if players < 2:
        raise PairingError(_("a knockout needs at least 2 players, not {count}").format(count=players))
    size = 2
    while size < players:
        size *= 2
    return size


def knockout_rounds(players: int) -> int:
    """How many rounds a knockout of ``players`` has.

    >>> knockout_rounds(2), knockout_rounds(5), knockout_rounds(8)
    (1, 3, 3)
    """
    return bracket_size(players).bit_length() - 1


def seed_positions(size: int) -> list[int]:
    """The seeds (from 1) down a bracket of ``size`` (a power of two): each pair meets in the first round,
    and each seed's path meets a better seed's only as late as the standard draw has it."""
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        positions = [seed for top in positions for seed in (top, total - top)]
    return positions


def first_round(seeds: Sequence[_Player]) -> list[tuple[_Player, _Player | None]]:
    """The first round's matches of a knockout of ``seeds`` (best first), in bracket order; a match with
    None is a bye for its first player."""
    size = bracket_size(len(seeds))
    positions = seed_positions(size)
    slots = [seeds[seed - 1] if seed <= len(seeds) else None for seed in positions]
    matches = []
    for top, bottom in zip(slots[::2], slots[1::2], strict=True):
        assert top is not None, "the better seed of a first-round pair is always in the field"
        matches.append((top, bottom))
    return matches


def next_round(winners: Sequence[_Player]) -> list[tuple[_Player, _Player]]:
    """The next round of a knockout: the winners of a round's matches, in bracket order, meet in pairs."""
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError(
            _("a knockout round pairs an even number of winners, not {count}").format(count=len(winners))
        )
    return list(zip(winners[::2], winners[1::2], strict=True))


def consolation_field(
    matches: Sequence[tuple[_Player, _Player | None]], winners: Sequence[_Player], seeds: Sequence[_Player]
) -> list[_Player]:
    """The players of the consolation bracket, best seed first: the losers of the first round's
    ``matches`` (with their ``winners``, in order) that were played, a bye being no loss.

    >>> consolation_field([("A", None), ("D", "E"), ("B", "G"), ("C", "F")], ["A", "E", "B", "F"], "ABCDEFG")
    ['C', 'D', 'G']
    """
    losers = {
        first if winner == second else second
        for (first, second), winner in zip(matches, winners, strict=True)
        if second is not None
    }
    return [seed for seed in seeds if seed in losers]


def knockout_places(
    rounds: Sequence[Sequence[tuple[_Player, _Player | None, _Player | None]]],
) -> list[tuple[int, _Player]]:
    """The final places of a finished knockout from its ``rounds`` (each a list of (first, second,
    winner)): the champion 1, the finalist 2, the losers of the semi-finals 3, of the round before 5, and
    so on; players sharing a place in the order they appear.

    >>> knockout_places([[("A", "D", "A"), ("B", "C", "C")], [("A", "C", "C")]])
    [(1, 'C'), (2, 'A'), (3, 'D'), (3, 'B')]
    """
    places: list[tuple[int, _Player]] = []
    total = len(rounds)
    for number, matches in reversed(list(enumerate(rounds))):
        place = 2 ** (total - number - 1) + 1
        for first, second, winner in matches:
            if number == total - 1 and winner is not None:
                places.append((1, winner))
            if second is not None and winner is not None:
                places.append((place, second if winner == first else first))
    return places


def swiss_standings(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Standing]:
    """The Swiss table after ``results``: a win or a bye is a point; ranked by points, Buchholz (the points
    of the opponents met, byes counting nothing), rating, and who entered first.

    >>> players = [Entrant(1, 1500, 0), Entrant(2, 1500, 1), Entrant(3, 1500, 2)]
    >>> table = swiss_standings(players, [Result(1, 2, 2), Result(3, None, 3)])
    >>> [(line.id, line.points, line.buchholz) for line in table]
    [(2, 1.0, 0.0), (3, 1.0, 0.0), (1, 0.0, 1.0)]
    """
    points = {entrant.id: 0.0 for entrant in entrants}
    wins = dict.fromkeys(points, 0)
    opponents: dict[int, list[int]] = {player: [] for player in points}
    for result in results:
        if result.winner is not None:
            points[result.winner] += 1
            wins[result.winner] += result.second is not None
        if result.second is not None:
            opponents[result.first].append(result.second)
            opponents[result.second].append(result.first)
    buchholz = {player: sum((points[other] for other in met), 0.0) for player, met in opponents.items()}
    order = sorted(entrants, key=lambda e: (-points[e.id], -buchholz[e.id], -e.rating, e.order))
    return [
        Standing(
            place, entrant.id, points[entrant.id], buchholz[entrant.id], wins[entrant.id], entrant.rating
        )
        for place, entrant in enumerate(order, start=1)
    ]


def swiss_pairings(
    ranking: Sequence[int], played: Collection[frozenset[int]], had_bye: Collection[int]
) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round for the players of ``ranking`` (best first, :func:`swiss_standings`' order): the
    pairs, each best-ranked first, and the player with the bye (None with an even field). No pair is in
    ``played``; the bye goes to the lowest-ranked player not in ``had_bye`` that leaves a pairing (where
    all have had one, to the lowest-ranked that does). :class:`PairingError` where no pairing is left.

    >>> swiss_pairings([1, 2, 3, 4], {frozenset({1, 2})}, ())
    ([(1, 3), (2, 4)], None)
    >>> swiss_pairings([1, 2, 3], (), {3})
    ([(1, 3)], 2)
    """
    if len(ranking) < 2:
        raise PairingError(_("a round needs at least 2 players"))
    met = {pair for pair in played if len(pair) == 2}
    failed: set[frozenset[int]] = set()
    if len(ranking) % 2 == 0:
        pairs = _pair(list(ranking), met, failed)
        if pairs is None:
            raise PairingError(_("no pairing is left without two players meeting again"))
        return pairs, None
    candidates = [player for player in reversed(ranking) if player not in had_bye]
    candidates += [player for player in reversed(ranking) if player in had_bye]
    for bye in candidates:
        pairs = _pair([player for player in ranking if player != bye], met, failed)
        if pairs is not None:
            return pairs, bye
    raise PairingError(_("no pairing is left without two players meeting again"))


def _pair(
    players: list[int], met: Collection[frozenset[int]], failed: set[frozenset[int]]
) -> list[tuple[int, int]] | None:
    """Pair ``players`` (in rank order) top down, going back where a choice leaves no pairing; None where
    none exists. ``failed`` remembers the sets of players found to have none."""
    if not players:
        return []
    key = frozenset(players)
    if key in failed:
        return None
    top, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        if frozenset((top, partner)) in met:
            continue
        paired = _pair(rest[:index] + rest[index + 1 :], met, failed)
        if paired is not None:
            return [(top, partner), *paired]
    failed.add(key)
    return None
