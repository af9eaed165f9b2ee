"""One chouette game: the box against the team, one cube per team member (H2-H9).

The checkers are played by a two-player :class:`~tavola.game.Game` whose own
cube is switched off: player 0 is the box, player 1 the team, moved by its
captain. Move legality, passes, undo within a turn and the bear-off result
all come from it. The cubes live in a
:class:`~tavola.chouette.cubes.CubeTable`, one per member against the box,
plus extras (H7).

Several players may have something to do at once (members answering a
double each for themselves), so every action names its player, and
:meth:`ChouetteGame.legal_actions` lists who may do what now.

Resignations are not part of a chouette game: every member's cube is a bet
of their own, so one resignation cannot settle the team; a member leaves a
game by dropping a double.

>>> from tavola.chouette.seating import Seating
>>> from tavola.dicesource import RandomDice
>>> game = ChouetteGame(ChouetteSettings(), Seating("Ann", ("Ben", "Cid")), RandomDice(seed=3))
>>> game.phase, game.legal_actions()
(<Phase.OPENING: 'opening'>, [PlayerAction('Ann', Roll()), PlayerAction('Ben', Roll())])
>>> game.roll("Ben"), game.side_on_roll, game.roller
(Dice(5, 2), <Side.TEAM: 1>, 'Ben')
>>> game.play("Ben", "13/11 13/8")
>>> game.double("Ann", ("Cid",))  # one cube per member: the box doubles Cid alone
>>> game.to_act
('Cid',)
>>> game.drop("Cid")
>>> game.members_in, game.cube("Ben")
(('Ben',), Cube(1))
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tavola.actions import Commit, MoveCheckers, OpeningRoll, Played, Roll, Undo
from tavola.chouette.actions import (
    AcceptPartnership,
    AutomaticDouble,
    Beaver,
    ChouetteAction,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    GiveExtra,
    LogAction,
    LogEntry,
    NewCaptain,
    PartnerDrawn,
    PlayerAction,
    Suggest,
    Take,
)
from tavola.chouette.bets import Bet, Offer, Side
from tavola.chouette.cubes import Answer, CubeTable
from tavola.chouette.ledger import GameSettlement
from tavola.chouette.seating import Seating, draw_at_random
from tavola.chouette.settings import ChouetteSettings, Consultation
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.dicesource import DiceSource
from tavola.errors import (
    ConsultationError,
    IllegalActionError,
    IllegalPlayError,
    NotInGameError,
    OutOfTurnError,
    WrongSideError,
)
from tavola.game import Game
from tavola.game import Phase as GamePhase
from tavola.i18n import N_, _
from tavola.play import Move, Play
from tavola.position import Position
from tavola.rules import Rules
from tavola.turn import Turn

__all__ = ["ChouetteGame", "Phase", "Suggestion"]


_REFUSALS: dict[str, tuple[str, str, str]] = {
    "roll": (
        N_("{player} cannot roll now: {reason}"),
        N_("it is the box's turn: {player}, on the team's side, cannot roll (R21)"),
        N_("it is the team's turn: {player}, on the box's side, cannot roll (R21)"),
    ),
    "move checkers": (
        N_("{player} cannot move checkers now: {reason}"),
        N_("it is the box's turn: {player}, on the team's side, cannot move checkers (R21)"),
        N_("it is the team's turn: {player}, on the box's side, cannot move checkers (R21)"),
    ),
    "undo": (
        N_("{player} cannot undo now: {reason}"),
        N_("it is the box's turn: {player}, on the team's side, cannot undo (R21)"),
        N_("it is the team's turn: {player}, on the box's side, cannot undo (R21)"),
    ),
    "commit a play": (
        N_("{player} cannot commit a play now: {reason}"),
        N_("it is the box's turn: {player}, on the team's side, cannot commit a play (R21)"),
        N_("it is the team's turn: {player}, on the box's side, cannot commit a play (R21)"),
    ),
    "play": (
        N_("{player} cannot play now: {reason}"),
        N_("it is the box's turn: {player}, on the team's side, cannot play (R21)"),
        N_("it is the team's turn: {player}, on the box's side, cannot play (R21)"),
    ),
}
"""Why the roller's actions are refused, by action: not now (with the reason), and the other side's
turn (the box's, then the team's)."""


class Phase(enum.Enum):
    """What a chouette game is waiting for."""

    PARTNER = "partner"  # the box's partnership is offered, in queue order (H9)
    OPENING = "opening"  # the opening roll, by the box or the captain (R4)
    ROLL = "roll"  # the side on roll may double, then its roller rolls (C2)
    ANSWER = "answer"  # doubles wait for their answers (C3)
    EXTRAS = "extras"  # members who dropped decide on extras for the lone taker (H7)
    MOVE = "move"  # the roller moves the checkers and commits (R20)
    OVER = "over"


@dataclass(frozen=True)
class Suggestion:
    """A team member's suggested play for the captain's roll (H4)."""

    member: str
    play: Play


class ChouetteGame:
    """A game between the box (and partner) and the team of the ``seating``'s queue.

    ``dice`` rolls the checker game and draws the partner. A session creates
    its games and is told when each ends (``record`` gets every log entry,
    ``on_over`` the finished game); a game also stands alone. ``position``
    and ``side_on_roll`` start from a set-up position instead of the opening
    roll.
    """

    def __init__(
        self,
        settings: ChouetteSettings,
        seating: Seating,
        dice: DiceSource,
        *,
        number: int = 0,
        record: Callable[[LogEntry], None] | None = None,
        on_over: Callable[[ChouetteGame], None] | None = None,
        position: Position | None = None,
        side_on_roll: Side | None = None,
    ) -> None:
        if len(seating.queue) < 2:
            raise IllegalActionError(
                _("a chouette game needs a team of two or more, not {team}").format(team=list(seating.queue))
            )
        self.settings = settings
        self.number = number
        self.box = seating.box
        self._queue = seating.queue
        self._dice = dice
        self._record_to = record
        self._on_over = on_over
        self._log: list[LogEntry] = []
        self._partner: str | None = None
        self._candidates = list(seating.queue) if settings.partner_for(len(seating.players)) else []
        rules = Rules(cube=False, gammons=settings.rules.gammons)
        self._game = Game(
            rules,
            dice,
            position=position,
            player_on_roll=None if side_on_roll is None else int(side_on_roll),
            variant=settings.variant,
        )
        self._cubes: CubeTable | None = None
        self._captains: list[str] = []
        self._automatic_doubles = 0
        self._copied = 0  # entries of the checker game's log copied to this one
        self._suggestions: list[Suggestion] = []
        self.settlement: GameSettlement | None = None
        if not self._candidates:
            self._seat_team()

    def _seat_team(self) -> None:
        team = tuple(player for player in self._queue if player != self._partner)
        self._cubes = CubeTable(self.settings, self.box, team, self._record)
        self._captains = [team[0]]

    @property
    def _table(self) -> CubeTable:
        if self._cubes is None:
            raise IllegalActionError(_("the box's partner is chosen first (H9): the team is not seated yet"))
        return self._cubes

    # --- who plays ------------------------------------------------------------------------

    @property
    def partner(self) -> str | None:
        """The box's partner (H9), once chosen."""
        return self._partner

    @property
    def team(self) -> tuple[str, ...]:
        """The team members this game started with, in queue order (the first captain first)."""
        return self._cubes.members if self._cubes else tuple(self._queue)

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone in this game: the box, the partner, the team."""
        return (self.box, *((self._partner,) if self._partner else ()), *self.team)

    @property
    def captain(self) -> str:
        """The captain now: the first one, or whoever took over when a captain left the game (H5)."""
        return self._captains[-1] if self._captains else self._queue[0]

    @property
    def captains(self) -> tuple[str, ...]:
        """Every captain of this game in order (H5)."""
        return tuple(self._captains)

    @property
    def members_in(self) -> tuple[str, ...]:
        """The team members still playing the box, in queue order."""
        return self._cubes.members_in if self._cubes else tuple(self._queue)

    def side_of(self, player: str) -> Side:
        """The side ``player`` plays on: the box and partner, or the team."""
        if player in (self.box, self._partner):
            return Side.BOX
        if player in self.team:
            return Side.TEAM
        raise NotInGameError(
            _("{player} is not playing this game (players: {players})").format(
                player=player, players=", ".join(self.players)
            )
        )

    # --- the board and the cubes --------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.settlement is not None:
            return Phase.OVER
        if self._cubes is None:
            return Phase.PARTNER
        game_phase = self._game.phase
        if game_phase is GamePhase.OPENING:
            return Phase.OPENING
        if self._cubes.pending:
            return Phase.ANSWER
        if self._cubes.extras_waiting:
            return Phase.EXTRAS
        return Phase.ROLL if game_phase is GamePhase.ROLL else Phase.MOVE

    @property
    def side_on_roll(self) -> Side:
        """The side whose turn it is (the box's before the opening roll)."""
        return Side(self._game.player_on_roll)

    @property
    def roller(self) -> str | None:
        """Who rolls and moves now: the box, or the team's captain (``None`` before the opening roll)."""
        if self.phase in (Phase.PARTNER, Phase.OPENING, Phase.OVER):
            return None
        return self.box if self.side_on_roll is Side.BOX else self.captain

    @property
    def position(self) -> Position:
        """The board seen from the side on roll, with the checkers moved so far this turn."""
        return self._game.position

    def position_for(self, side: Side) -> Position:
        """The board seen from ``side``."""
        return self._game.position_for(int(side))

    @property
    def dice(self) -> Dice | None:
        return self._game.dice

    @property
    def turn(self) -> Turn | None:
        """The turn being played: the dice and the checkers moved so far."""
        return self._game.turn

    @property
    def checker_game(self) -> Game:
        """The two-player game of the box against the captain; read it, never act on it directly."""
        return self._game

    @property
    def bets(self) -> tuple[Bet, ...]:
        """Every cube of the game, live and settled: each member's against the box, then extras (H7)."""
        return self._cubes.bets if self._cubes else ()

    def cube(self, member: str) -> Cube:
        """``member``'s cube against the box (player 0 of a cube is the box, 1 the member)."""
        return self._table.main(member).cube

    @property
    def offers(self) -> tuple[Offer, ...]:
        """The doubles waiting for an answer."""
        return self._cubes.pending if self._cubes else ()

    @property
    def suggestions(self) -> tuple[Suggestion, ...]:
        """The plays team members have suggested for the captain's roll now (H4)."""
        return tuple(self._suggestions)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Everything done in this game, in order; a turn's checker moves appear once, as the play."""
        return tuple(self._log)

    @property
    def is_over(self) -> bool:
        return self.settlement is not None

    @property
    def beaten_by(self) -> str | None:
        """The first of the game's captains who beat the box, if any: the next box (H2, H8)."""
        for captain in self._captains:
            if self._table.main(captain).winner == captain:
                return captain
        return None

    # --- who may do what ------------------------------------------------------------------------

    def legal_actions(self, player: str | None = None) -> list[PlayerAction]:
        """Everything that may be done now, by whom (only ``player``'s, if given).

        Suggestions (:meth:`suggest`) are left out: a member may suggest any of
        the turn's legal plays while :meth:`may_suggest` says so.
        """
        found = [item for item in self._legal_actions() if player is None or item.player == player]
        return found

    def _legal_actions(self) -> list[PlayerAction]:
        phase = self.phase
        if phase is Phase.PARTNER:
            return [
                PlayerAction(self._candidates[0], act) for act in (AcceptPartnership(), DeclinePartnership())
            ]
        if phase is Phase.OPENING:
            return [PlayerAction(self.box, Roll()), PlayerAction(self.captain, Roll())]
        table = self._table
        if phase is Phase.ROLL:
            found = []
            for player in (self.box, *self.team):
                against = table.may_double(player, self.side_on_roll, self.captain)
                singles = (
                    [] if self.settings.single_cube and player == self.box else [(name,) for name in against]
                )
                choices = singles + ([against] if len(against) > 1 or not singles else [])
                found += [PlayerAction(player, Double(names)) for names in choices if names]
            roller = self.roller
            assert roller is not None
            return [*found, PlayerAction(roller, Roll())]
        if phase is Phase.ANSWER:
            found = []
            for player in (self.box, *self.team):
                for group in sorted({offer.group for offer in table.answers_due(player)}):
                    offers = [offer for offer in table.answers_due(player) if offer.group == group]
                    names = tuple(table.bet(offer.bet).opponent(player) for offer in offers)
                    answers: list[ChouetteAction] = [Take(names), Drop(names)]
                    if all(offer.double.why_no_beaver(self.settings.rules) is None for offer in offers):
                        answers.append(Beaver(names))
                    found += [PlayerAction(player, answer) for answer in answers]
            return found
        if phase is Phase.EXTRAS:
            return [
                PlayerAction(giver, act)
                for giver in table.extras_waiting
                for act in (GiveExtra(), DeclineExtra())
            ]
        if phase is Phase.MOVE:
            roller = self.roller
            assert roller is not None
            return [
                PlayerAction(roller, action)
                for action in self._game.legal_actions()
                if isinstance(action, Played | MoveCheckers | Undo | Commit)
            ]
        return []

    @property
    def to_act(self) -> tuple[str, ...]:
        """The players who may do something now, in table order."""
        return tuple(dict.fromkeys(item.player for item in self._legal_actions()))

    def apply(self, player: str | PlayerAction, action: ChouetteAction | None = None) -> None:
        """Do ``action`` as ``player``, or an item of :meth:`legal_actions`: ``apply(item)``."""
        if isinstance(player, PlayerAction):
            item = player
            player, action = item.player, item.action
        if action is None:
            raise IllegalActionError(_("apply needs an action for {player}").format(player=player))
        match action:
            case Roll():
                self.roll(player)
            case Double(against):
                self.double(player, against)
            case Take(against):
                self.take(player, against)
            case Drop(against):
                self.drop(player, against)
            case Beaver(against):
                self.beaver(player, against)
            case MoveCheckers(moves):
                self.move(player, moves)
            case Undo():
                self.undo(player)
            case Commit():
                self.commit(player)
            case Played(play):
                self.play(player, play)
            case AcceptPartnership():
                self.accept_partnership(player)
            case DeclinePartnership():
                self.decline_partnership(player)
            case GiveExtra():
                self.give_extra(player)
            case DeclineExtra():
                self.decline_extra(player)
            case Suggest(play):
                self.suggest(player, play)
            case _:
                raise IllegalActionError(
                    _("{action} is not something a chouette player does").format(action=repr(action))
                )

    # --- the box's partner (H9) -----------------------------------------------------------------

    def accept_partnership(self, player: str) -> None:
        """Become the box's partner for this game (H9)."""
        self._check_candidate(player)
        self._record(player, AcceptPartnership())
        self._partner = player
        self._candidates = []
        self._seat_team()

    def decline_partnership(self, player: str) -> None:
        """Turn the partnership down; after the last refusal the partner is drawn at random (H9)."""
        self._check_candidate(player)
        drawn = draw_at_random(self._queue, self._dice) if len(self._candidates) == 1 else None
        self._record(player, DeclinePartnership())
        self._candidates.pop(0)
        if drawn is not None:
            self._partner, dice = drawn
            self._record(self._partner, PartnerDrawn(dice))
            self._seat_team()

    def _check_candidate(self, player: str) -> None:
        self._check_open()
        if self.phase is not Phase.PARTNER:
            raise IllegalActionError(_("the box's partner is not being chosen now (H9)"))
        if self.side_of(player) is Side.BOX:
            raise WrongSideError(
                _("the partnership is offered to the team, not to the box ({player})").format(player=player)
            )
        if player != self._candidates[0]:
            raise OutOfTurnError(
                _(
                    "the partnership is offered in queue order: {candidate} answers now, not {player} (H9)"
                ).format(candidate=self._candidates[0], player=player)
            )

    # --- rolling and moving -----------------------------------------------------------------------

    def roll(self, player: str) -> Dice | None:
        """Roll: the opening roll (the box or the captain, R4), or the roller's dice.

        A tie on the opening roll is rolled again (returning ``None``) and, with
        automatic doubles, doubles every cube (M2).
        """
        self._check_open()
        phase = self.phase
        if phase is Phase.OPENING:
            self.side_of(player)
            if player not in (self.box, self.captain):
                raise OutOfTurnError(
                    _("the box and the captain roll the opening, not {player} (R4)").format(player=player)
                )
            dice = self._game.roll()
            self._copy_from_game(player)
            if dice is None and self._automatic_doubles < self.settings.rules.automatic_doubles:
                self._automatic_doubles += 1
                self._record(None, AutomaticDouble(self._table.automatic_double()))
            return dice
        self._check_roller(player, "roll")
        if phase is not Phase.ROLL:
            raise IllegalActionError(
                _(_REFUSALS["roll"][0]).format(player=player, reason=self._waiting_for())
            )
        dice = self._game.roll(int(self.side_on_roll))
        self._copy_from_game(player)
        self._table.turn_over()
        return dice

    def move(self, player: str, moves: str | Move | Sequence[Move]) -> None:
        """Move checkers as part of this turn's play (``"24/18"``); undoable until committed (R20)."""
        self._check_mover(player, "move checkers")
        self._game.move(moves)

    def undo(self, player: str) -> None:
        """Take back the last checkers moved this turn (R20)."""
        self._check_mover(player, "undo")
        self._game.undo()

    def commit(self, player: str) -> None:
        """End the turn with the play made so far (R11, R20); the captain's play is final (H4)."""
        self._check_mover(player, "commit a play")
        self._game.commit()
        self._end_turn(player)

    def play(self, player: str, play: Play | str) -> None:
        """Make a whole play and commit it: a :class:`Play` or typed text (``"13/11 13/8"``)."""
        self._check_mover(player, "play")
        turn = self._game.turn
        assert turn is not None
        if isinstance(play, str):
            play = turn.parse_play(play)
        self._game.play(play)
        self._end_turn(player)

    def _end_turn(self, player: str) -> None:
        self._copy_from_game(player)
        self._suggestions.clear()
        outcome = self._game.outcome
        if outcome is not None:
            self._table.settle_all(Side(outcome.winner), outcome.kind)
            self._finish()

    def _check_mover(self, player: str, what: str) -> None:
        self._check_open()
        self._check_roller(player, what)
        if self.phase is not Phase.MOVE:
            raise IllegalActionError(_(_REFUSALS[what][0]).format(player=player, reason=self._waiting_for()))

    def _check_roller(self, player: str, what: str) -> None:
        """``player`` must be the one who rolls and moves for the side on roll; ``what`` is a key of
        :data:`_REFUSALS`."""
        not_now, box_turn, team_turn = _REFUSALS[what]
        side = self.side_of(player)
        if self.phase in (Phase.PARTNER, Phase.OPENING):
            raise IllegalActionError(_(not_now).format(player=player, reason=self._waiting_for()))
        if side is Side.TEAM and not self._table.in_game(player):
            raise NotInGameError(
                _("{player} is out of this game (H5): the captain, {captain}, plays on").format(
                    player=player, captain=self.captain
                )
            )
        if side is not self.side_on_roll:
            raise WrongSideError(
                _(box_turn if self.side_on_roll is Side.BOX else team_turn).format(player=player)
            )
        roller = self.roller
        if player != roller:
            if side is Side.BOX:
                message = _("{roller} rolls and moves for the box, not {player}")
            else:
                message = _("{roller} rolls and moves for the team, not {player}")
            raise OutOfTurnError(message.format(roller=roller, player=player))

    # --- the cubes ------------------------------------------------------------------------------

    def double(self, player: str, against: Sequence[str] = ()) -> None:
        """Double the opponents named, before the side on roll rolls (C2, H5, H8).

        The box names the members it doubles (in a single-cube game, all those
        still in); a member names the box (in a single-cube game only the
        captain doubles, for everyone); an extra's holders name each other. No
        names: every cube the player may double now.
        """
        self._check_open()
        self.side_of(player)
        phase = self.phase
        if phase is not Phase.ROLL:
            raise IllegalActionError(
                _("{player} cannot double now: {reason} (C2)").format(
                    player=player, reason=self._waiting_for()
                )
            )
        self._table.double(player, tuple(against), self.side_on_roll, self.captain)

    def take(self, player: str, against: Sequence[str] = ()) -> None:
        """Accept the doubles of the opponents named (all waiting for ``player``, if none, C3)."""
        self._answer(player, Answer.TAKE, against)

    def drop(self, player: str, against: Sequence[str] = ()) -> None:
        """Refuse the doubles of the opponents named: pay, and leave those cubes (C3, H5)."""
        self._answer(player, Answer.DROP, against)

    def beaver(self, player: str, against: Sequence[str] = ()) -> None:
        """Redouble at once the doubles of the opponents named, keeping the cubes (M3, M4)."""
        self._answer(player, Answer.BEAVER, against)

    def _answer(self, player: str, answer: Answer, against: Sequence[str]) -> None:
        self._check_open()
        self.side_of(player)
        if self.phase in (Phase.PARTNER, Phase.OPENING):
            raise IllegalActionError(
                _("no double waits for an answer: {reason}").format(reason=self._waiting_for())
            )
        self._table.answer(player, answer, tuple(against))
        self._after_cubes()

    def give_extra(self, player: str) -> None:
        """Having dropped the box's initial double, give the lone taker an extra cube (H7)."""
        self._extra(player, give=True)

    def decline_extra(self, player: str) -> None:
        """Having dropped the box's initial double, give the lone taker no extra cube (H7)."""
        self._extra(player, give=False)

    def _extra(self, player: str, give: bool) -> None:
        self._check_open()
        self.side_of(player)
        if self.phase is not Phase.EXTRAS:
            raise IllegalActionError(
                _("no extra cube is being offered now (H7): {reason}").format(reason=self._waiting_for())
            )
        self._table.give_extra(player, give)

    def _after_cubes(self) -> None:
        """After answers: a new captain if the captain left (H5); the end if every member has left."""
        table = self._table
        if not table.members_in:
            self._finish()
            return
        if not table.in_game(self.captain):
            captain = table.members_in[0]  # the member still in who is highest in the queue (H5)
            self._captains.append(captain)
            self._record(captain, NewCaptain())

    # --- consultation (H4) --------------------------------------------------------------------------

    def may_suggest(self, player: str) -> bool:
        """Whether ``player`` may suggest a play now (H4)."""
        try:
            self._check_suggestion(player)
        except IllegalActionError:
            return False
        return True

    def suggest(self, player: str, play: Play | str) -> Play:
        """Post a suggested play for the captain's roll; it must be a legal play of that roll (H4).

        Suggestions are data for the captain to see (:attr:`suggestions`); the
        captain's play is final.
        """
        self._check_suggestion(player)
        turn = self._game.turn
        assert turn is not None
        if isinstance(play, str):
            chosen = turn.parse_play(play)
        elif (play.before, play.dice) != (turn.start, turn.dice) or turn.legal.by_result(play.after) is None:
            raise IllegalPlayError(
                _("{play} is not one of this roll's legal plays with {dice}").format(
                    play=play, dice=turn.dice
                )
            )
        else:
            chosen = play
        self._record(player, Suggest(chosen))
        self._suggestions.append(Suggestion(player, chosen))
        return chosen

    def _check_suggestion(self, player: str) -> None:
        self._check_open()
        policy = self.settings.consultation
        side = self.side_of(player)
        if policy is Consultation.NONE:
            raise ConsultationError(_("this table plays without consultation (H4)"))
        if side is Side.BOX:
            raise WrongSideError(
                _("{player} plays for the box and cannot advise the team").format(player=player)
            )
        if not self._table.in_game(player):
            raise NotInGameError(
                _("{player} is out of this game and no longer consults (H5)").format(player=player)
            )
        if player == self.captain:
            raise ConsultationError(
                _("{player} is the captain: the captain plays, the others suggest (H4)").format(player=player)
            )
        if self.phase is not Phase.MOVE or self.side_on_roll is not Side.TEAM:
            raise ConsultationError(
                _("suggestions are plays for the team's roll: wait for the captain to roll")
            )
        if policy is Consultation.AFTER_CUBE and not self._table.has_doubled:
            raise ConsultationError(_("at this table the team consults only after someone has doubled (H4)"))

    # --- bookkeeping ------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.settlement is not None:
            raise IllegalActionError(
                _("game {number} is over: nothing more can be done in it").format(number=self.number)
            )

    def _waiting_for(self) -> str:
        """What the game waits for now: the reason an action is refused, in the language in use."""
        phase = self.phase
        if phase is Phase.ROLL:
            return _("{roller} rolls (or someone doubles) first").format(roller=self.roller)
        if phase is Phase.MOVE:
            return _("the dice are rolled: {roller} moves").format(roller=self.roller)
        return {
            Phase.PARTNER: _("the box's partner is chosen first (H9)"),
            Phase.OPENING: _("the opening roll comes first (R4)"),
            Phase.ANSWER: _("doubles wait for their answers (C3)"),
            Phase.EXTRAS: _("the members who dropped decide on extras first (H7)"),
            Phase.OVER: _("the game is over"),
        }[phase]

    def _record(self, player: str | None, action: LogAction) -> None:
        entry = LogEntry(player, action)
        self._log.append(entry)
        if self._record_to is not None:
            self._record_to(entry)

    def _copy_from_game(self, player: str) -> None:
        """Log the checker game's new entries (rolls with their dice, plays) as ``player``'s."""
        for entry in self._game.log[self._copied :]:
            action = entry.action
            assert isinstance(action, Roll | OpeningRoll | Played)  # the checker game has no cube
            self._record(player, action)
        self._copied = len(self._game.log)

    def _finish(self) -> None:
        table = self._table
        self.settlement = GameSettlement.from_bets(
            self.number, self.box, self._partner, table.members, table.bets
        )
        if self._on_over is not None:
            self._on_over(self)

    def __repr__(self) -> str:
        if self.settlement is not None:
            return f"<ChouetteGame {self.number} over: {self.settlement.points}>"
        return (
            f"<ChouetteGame {self.number} {self.phase.value}: box {self.box}, captain {self.captain}, "
            f"in {list(self.members_in)}>"
        )
