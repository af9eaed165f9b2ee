"""Every cube of one chouette game: doubles, answers, drops, beavers and extras (C2-C5, M2-M6, H5-H8).

A :class:`CubeTable` keeps one :class:`~tavola.chouette.bets.Bet` per team
member against the box, plus the extras (H7), and the doubles waiting for
an answer. It checks who may double or answer what, and logs through the
``record`` function it is given. Whose turn it is comes from the game: the
table is told which side is on roll and who the captain is.

Offers made by one action form a group, settled when every offer of the
group has its answer: that is when the last taker must drop (H6) and when a
lone taker of the box's initial double is due extras (H7). A member whose
cube against the box is settled (a drop either way) is out of the game
(H5); their extras are settled with it, in the same direction.

>>> from tavola.chouette.settings import ChouetteSettings
>>> table = CubeTable(ChouetteSettings(), "Ann", ("Ben", "Cid"), lambda player, action: None)
>>> table.may_double("Ann", Side.BOX, captain="Ben")
('Ben', 'Cid')
>>> table.double("Ann", ("Ben",), Side.BOX, captain="Ben")
>>> table.answer("Ben", Answer.DROP, ())
>>> table.members_in, table.main("Ben").outcome.points
(('Cid',), 1)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

from tavola.chouette.actions import (
    AutomaticBeaver,
    Beaver,
    DeclineExtra,
    Double,
    Drop,
    ForcedDrop,
    GiveExtra,
    LogAction,
    Take,
)
from tavola.chouette.bets import Bet, BetKey, Offer, Side
from tavola.chouette.settings import ChouetteSettings
from tavola.cube import Cube, CubeOffer
from tavola.errors import IllegalActionError, NotInGameError, OutOfTurnError, WrongSideError
from tavola.i18n import N_, _
from tavola.position import WinKind
from tavola.scoring import Ending, Outcome, score_drop, score_win

__all__ = ["Answer", "CubeTable"]

Record = Callable[[str | None, LogAction], None]


class Answer(enum.Enum):
    """An answer to a double (C3, M3)."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"

    def action(self, against: tuple[str, ...]) -> Take | Drop | Beaver:
        if self is Answer.TAKE:
            return Take(against)
        return Drop(against) if self is Answer.DROP else Beaver(against)


_NOTHING_TO_ANSWER: dict[Answer, str] = {
    Answer.TAKE: N_("no double waits for an answer: {player} cannot take"),
    Answer.DROP: N_("no double waits for an answer: {player} cannot drop"),
    Answer.BEAVER: N_("no double waits for an answer: {player} cannot beaver"),
}
"""What an answer with no double waiting is told, by the answer."""


class CubeTable:
    """The cubes of one game between ``box`` and the team ``members`` (in queue order, captain first)."""

    def __init__(self, settings: ChouetteSettings, box: str, members: Sequence[str], record: Record) -> None:
        self.settings = settings
        self.box = box
        self.members = tuple(members)
        self._order = {name: index for index, name in enumerate((box, *members))}
        self._record = record
        self._bets: dict[BetKey, Bet] = {(box, member): Bet(box, member, Cube()) for member in members}
        self._pending: list[Offer] = []  # offers waiting for an answer
        self._answered: list[tuple[Offer, Answer]] = []  # answers waiting for the rest of their group
        self._groups = 0
        self._doubled = False  # someone has doubled in this game
        self._doubled_this_turn: set[str] = set()
        self._initial_group: int | None = None  # the box's first double, for extras (H7)
        self._extras_due: tuple[str, int] | None = None  # the lone taker and the extra's value (H7)
        self._extra_givers: list[str] = []  # who may still give an extra
        self._extras_given: list[str] = []

    # --- reading ------------------------------------------------------------------------

    @property
    def bets(self) -> tuple[Bet, ...]:
        """Every cube of the game, settled or not: the members' against the box first, then the extras."""
        return tuple(self._bets.values())

    def bet(self, key: BetKey) -> Bet:
        """The cube between ``key``'s players (the box's side first)."""
        return self._bets[key]

    def main(self, member: str) -> Bet:
        """``member``'s cube against the box."""
        return self._bets[(self.box, member)]

    def in_game(self, member: str) -> bool:
        """Whether ``member`` still plays the box (has not dropped, nor been dropped, H5)."""
        return (self.box, member) in self._bets and self.main(member).is_live

    @property
    def members_in(self) -> tuple[str, ...]:
        """The team members still in the game, in queue order."""
        return tuple(member for member in self.members if self.in_game(member))

    def live_bets(self, player: str) -> list[Bet]:
        """The cubes ``player`` still plays for."""
        return [bet for bet in self._bets.values() if bet.is_live and player in bet.key]

    @property
    def pending(self) -> tuple[Offer, ...]:
        """The doubles waiting for an answer."""
        return tuple(self._pending)

    @property
    def has_doubled(self) -> bool:
        """Whether anyone has doubled in this game (automatic doubles do not count)."""
        return self._doubled

    def answering(self, offer: Offer) -> str:
        """The player who must answer ``offer``."""
        return self._bets[offer.bet].player(offer.answering)

    def answers_due(self, player: str) -> list[Offer]:
        """The offers ``player`` must answer."""
        return [offer for offer in self._pending if self.answering(offer) == player]

    @property
    def extras_waiting(self) -> tuple[str, ...]:
        """Who still decides whether to give the lone taker an extra (H7), once no double waits."""
        if self._extras_due is None or self._pending or not self.in_game(self._extras_due[0]):
            return ()
        return tuple(self._extra_givers)

    # --- the cube on the opening roll and at the end ------------------------------------------

    def automatic_double(self) -> int:
        """A tie on the opening roll: every cube is doubled and stays in the middle (M2)."""
        for member in self.members:
            bet = self.main(member)
            self._bets[bet.key] = bet.with_cube(bet.cube.automatic_double())
        return self.main(self.members[0]).cube.value

    def settle_all(self, winner: Side, kind: WinKind) -> None:
        """The checker game is over: every live cube is paid at the result (C5), Jacoby cube by cube (M5)."""
        for bet in list(self._bets.values()):
            if bet.is_live:
                outcome = score_win(int(winner), kind, bet.cube, self.settings.rules, Ending.BEAR_OFF)
                self._bets[bet.key] = bet.settled(outcome)

    def turn_over(self) -> None:
        """A roll: the doubles of the next turn are made afresh."""
        self._doubled_this_turn.clear()

    # --- doubling ---------------------------------------------------------------------------

    def may_double(self, player: str, on_roll: Side, captain: str | None) -> tuple[str, ...]:
        """The opponents ``player`` may double now, before the roll of the side ``on_roll`` (C2, H5, H8).

        In a single-cube game the box doubles every member still in at once,
        and the captain doubles the box for all of them (named as the box).
        """
        if not self.settings.rules.cube or player in self._doubled_this_turn:
            return ()
        offered = {offer.bet for offer in self._pending}

        def free(bet: Bet, side: Side) -> bool:
            return side is on_roll and bet.cube.may_double(side) and bet.key not in offered

        found: list[str] = []
        team_cubes = [self.main(member) for member in self.members_in]
        for bet in self.live_bets(player):
            side = bet.side_of(player)
            if bet.extra or not self.settings.single_cube:
                if free(bet, side):
                    found.append(bet.opponent(player))
            elif player in (self.box, captain) and all(free(other, side) for other in team_cubes):
                found.append(bet.opponent(player))
        return tuple(sorted(found, key=self._order.__getitem__))

    def double(self, player: str, against: Sequence[str], on_roll: Side, captain: str | None) -> None:
        """``player`` doubles the opponents named (all they may double, if none is named)."""
        live = self.live_bets(player)
        if not self.settings.rules.cube:
            raise IllegalActionError(_("these rules have no doubling cube"))
        if not live:
            raise NotInGameError(
                _("{player} has no cube left in this game, so cannot double").format(player=player)
            )
        if all(bet.side_of(player) is not on_roll for bet in live):
            if on_roll is Side.BOX:
                message = _("the box side is on roll: {player} doubles before their own side rolls (C2)")
            else:
                message = _("the team side is on roll: {player} doubles before their own side rolls (C2)")
            raise WrongSideError(message.format(player=player))
        if player in self._doubled_this_turn:
            raise IllegalActionError(
                _("{player} has doubled this turn already: a turn's doubles are made at once").format(
                    player=player
                )
            )
        allowed = self.may_double(player, on_roll, captain)
        names = tuple(against) or allowed
        member = self.settings.single_cube and self.in_game(player) and player not in (self.box, captain)
        if member and (self.box in names or not names):
            raise OutOfTurnError(
                _(
                    "one cube for the team: the captain, {captain}, doubles the box for everyone; "
                    "{player} only answers the box's doubles (H5)"
                ).format(captain=captain, player=player)
            )
        if not names:
            raise IllegalActionError(
                _("{player} has no cube to double now: {reason}").format(
                    player=player, reason=self._why_not(player, on_roll)
                )
            )
        for name in names:
            if name not in allowed or names.count(name) > 1:
                raise IllegalActionError(
                    _("{player} cannot double {opponent}: {reason}").format(
                        player=player, opponent=name, reason=self._why_not(player, on_roll, name)
                    )
                )
        team = set(self.members_in)
        if self.settings.single_cube and player == self.box and team & set(names) != team & set(allowed):
            raise IllegalActionError(
                _("one cube for the team: the box doubles every member still in the game at once (H5)")
            )
        names = tuple(sorted(names, key=self._order.__getitem__))
        group = self._new_group()
        if player == self.box and not self._doubled:
            self._initial_group = group
        for name in names:
            keys = (
                [(self.box, member) for member in self.members_in]
                if name == self.box and self.settings.single_cube
                else [self._key(player, name)]
            )
            for key in keys:
                bet = self._bets[key]
                self._pending.append(Offer(key, bet.cube.offered_by(bet.side_of(name).other), group))
        self._doubled = True
        self._doubled_this_turn.add(player)
        self._record(player, Double(names))

    def _why_not(self, player: str, on_roll: Side, name: str | None = None) -> str:
        """Why ``player`` cannot double (``name``) now: the reason of a refusal, in the language in use."""
        key = None if name is None else self._find_key(player, name)
        if name is not None and key is None:
            return _("they play no cube against each other in this game")
        bets = [self._bets[key]] if key is not None else self.live_bets(player)
        for bet in bets:
            side = bet.side_of(player)
            if not bet.is_live:
                return _("that cube is settled")
            if side is not on_roll:
                if side is Side.BOX:
                    return _("{player} is on the box side, which is not on roll (C2)").format(player=player)
                return _("{player} is on the team side, which is not on roll (C2)").format(player=player)
            if not bet.cube.may_double(side):
                return _("{owner} owns that cube (C2)").format(owner=bet.opponent(player))
            if any(offer.bet == bet.key for offer in self._pending):
                return _("a double on that cube waits for an answer")
        return _("one cube for the team: the box doubles the whole team, the captain the box (H5)")

    # --- answering ----------------------------------------------------------------------------

    def answer(self, player: str, answer: Answer, against: Sequence[str]) -> None:
        """``player`` takes, drops or beavers the doubles of the opponents named (all, if none is named)."""
        due = self.answers_due(player)
        if not due:
            if not self.live_bets(player):
                raise NotInGameError(_("{player} has no cube left in this game").format(player=player))
            if self._pending:
                waiting = sorted(
                    {self.answering(offer) for offer in self._pending}, key=self._order.__getitem__
                )
                raise OutOfTurnError(
                    _("no double waits for {player}'s answer; {waiting} must answer").format(
                        player=player, waiting=", ".join(waiting)
                    )
                )
            raise IllegalActionError(_(_NOTHING_TO_ANSWER[answer]).format(player=player))
        chosen = due if not against else []
        for name in against:
            found = [offer for offer in due if self._bets[offer.bet].opponent(player) == name]
            if not found or against.count(name) > 1:
                raise IllegalActionError(
                    _("{player} has no double from {opponent} to answer").format(player=player, opponent=name)
                )
            chosen += found
        for offer in chosen:
            whole = [other for other in due if other.group == offer.group]
            if any(other not in chosen for other in whole):
                doublers = ", ".join(self._bets[other.bet].opponent(player) for other in whole)
                raise IllegalActionError(
                    _("{player} answers the doubles made together at once: {doublers} (H5)").format(
                        player=player, doublers=doublers
                    )
                )
            reason = offer.double.why_no_beaver(self.settings.rules)
            if answer is Answer.BEAVER and reason is not None:
                raise IllegalActionError(
                    _("{player} cannot redouble now: {reason}").format(player=player, reason=reason)
                )
        names = tuple(
            sorted({self._bets[offer.bet].opponent(player) for offer in chosen}, key=self._order.__getitem__)
        )
        self._record(player, answer.action(names))
        for offer in chosen:
            self._pending.remove(offer)
            self._answered.append((offer, answer))
        for group in sorted({offer.group for offer in chosen}):
            if not any(offer.group == group for offer in self._pending):
                self._resolve(group)

    def _resolve(self, group: int) -> None:
        """Every offer of ``group`` has its answer: apply them, with H6 and H7."""
        answers = [(offer, answer) for offer, answer in self._answered if offer.group == group]
        self._answered = [item for item in self._answered if item[0].group != group]
        takers = [index for index, (_offer, answer) in enumerate(answers) if answer is not Answer.DROP]
        by_box = all(offer.answering is Side.TEAM and offer.bet[0] == self.box for offer, _answer in answers)
        if self.settings.last_taker_must_drop and by_box and len(answers) >= 2 and len(takers) == 1:
            offer, _answer = answers[takers[0]]
            answers[takers[0]] = (offer, Answer.DROP)
            self._record(offer.bet[1], ForcedDrop((self.box,)))
            takers = []
        if group == self._initial_group and self.settings.mandatory_extras and len(takers) == 1:
            givers = [offer.bet[1] for offer, answer in answers if answer is Answer.DROP]
            if givers:
                taker_offer = answers[takers[0]][0]
                self._extras_due = (taker_offer.bet[1], taker_offer.value)
                self._extra_givers = givers
        redoubled: dict[str, int] = {}  # one new group per player redoubling
        for offer, answer in answers:
            bet = self._bets[offer.bet]
            if not bet.is_live:  # an extra settled with its taker's cube in this same group
                continue
            answerer = bet.player(offer.answering)
            after = offer.double.taken(self.settings.rules) if answer is Answer.TAKE else None
            if isinstance(after, CubeOffer):  # every take is a beaver (M6)
                self._record(answerer, AutomaticBeaver((bet.opponent(answerer),)))
                answer = Answer.BEAVER
            if answer is Answer.DROP:
                self._settle(bet, score_drop(offer.double))
            elif isinstance(after, Cube):
                self._bets[bet.key] = bet.with_cube(after)
            else:
                if answerer not in redoubled:
                    redoubled[answerer] = self._new_group()
                self._pending.append(offer.beavered(redoubled[answerer]))

    def _settle(self, bet: Bet, outcome: Outcome) -> None:
        """Pay ``bet`` now; a member's cube against the box takes their extras with it (H5, H7)."""
        self._bets[bet.key] = bet.settled(outcome)
        if bet.extra:
            return
        member = bet.team_side
        for extra in list(self._bets.values()):
            if extra.extra and extra.is_live and extra.team_side == member:
                self._pending = [offer for offer in self._pending if offer.bet != extra.key]
                self._bets[extra.key] = extra.settled(
                    Outcome(outcome.winner, WinKind.SINGLE, extra.cube.value, Ending.DROP)
                )

    # --- extras -------------------------------------------------------------------------------

    def give_extra(self, player: str, give: bool) -> None:
        """A member who dropped the box's initial double gives the lone taker an extra cube, or not (H7)."""
        waiting = self.extras_waiting
        if not waiting:
            raise IllegalActionError(_("no extra cube is being offered now (H7)"))
        if player not in waiting:
            raise IllegalActionError(
                _("{player} has no extra to give: {givers} dropped the box's initial double (H7)").format(
                    player=player, givers=", ".join(waiting)
                )
            )
        assert self._extras_due is not None
        taker, value = self._extras_due
        self._record(player, GiveExtra() if give else DeclineExtra())
        self._extra_givers.remove(player)
        if give:
            self._extras_given.append(player)
        if not self._extra_givers:
            for giver in self._extras_given:
                # The taker must accept: the cube is theirs at once, as after a take (H7).
                self._bets[(giver, taker)] = Bet(giver, taker, Cube(value, int(Side.TEAM)), extra=True)
            self._extras_due = None
            self._extras_given = []

    # --- helpers --------------------------------------------------------------------------------

    def _new_group(self) -> int:
        self._groups += 1
        return self._groups

    def _find_key(self, player: str, opponent: str) -> BetKey | None:
        for key in ((player, opponent), (opponent, player)):
            if key in self._bets:
                return key
        return None

    def _key(self, player: str, opponent: str) -> BetKey:
        key = self._find_key(player, opponent)
        assert key is not None
        return key
