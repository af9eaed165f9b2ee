"""One game of backgammon from the opening roll to its end, with the cube (R1-R21, C1-C6, M2-M6).

:class:`Game` is the mutable object on top of the immutable values: it keeps
whose turn it is, the cube, the dice and the turn being played, refuses
anything out of turn or against the rules with a clear error (leaving its
state as it was), and logs every action. Players are 0 and 1.

>>> from tavola.dicesource import RandomDice
>>> game = Game(dice=RandomDice(seed=3))
>>> game.phase, game.legal_actions()
(<Phase.OPENING: 'opening'>, [Roll()])
>>> game.roll()
Dice(5, 2)
>>> game.player_on_roll, game.phase
(1, <Phase.MOVE: 'move'>)
>>> game.move("13/8")
>>> game.undo()
>>> game.move("13/11 13/8")
>>> game.commit()
>>> game.player_on_roll, game.phase
(0, <Phase.ROLL: 'roll'>)
>>> game.double(player=1)
Traceback (most recent call last):
...
tavola.errors.OutOfTurnError: it is player 0's turn to act, not player 1's (R21)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Commit,
    DeclineResignation,
    Double,
    Drop,
    Entry,
    MoveCheckers,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.cube import Cube, CubeOffer
from tavola.dice import Dice
from tavola.dicesource import DiceSource, default_dice
from tavola.errors import IllegalActionError, IllegalPlayError, InvalidRulesError, OutOfTurnError, SeatedText
from tavola.i18n import N_, _
from tavola.play import LegalPlays, Move, Play
from tavola.position import Position, WinKind
from tavola.rules import Rules
from tavola.scoring import Ending, Outcome, score_drop, score_win
from tavola.turn import Turn
from tavola.variants import STANDARD, Scoring, Variant, checkers_left, find_variant

__all__ = ["Ending", "Game", "Outcome", "Phase"]

_REFUSALS: dict[str, tuple[str, str, str]] = {
    "roll": (
        N_("the game is over: nobody can roll"),
        N_("player {player} cannot roll now: {reason}"),
        N_("{player} cannot roll now: {reason}"),
    ),
    "choose a double": (
        N_("the game is over: nobody can choose a double"),
        N_("player {player} cannot choose a double now: {reason}"),
        N_("{player} cannot choose a double now: {reason}"),
    ),
    "double": (
        N_("the game is over: nobody can double"),
        N_("player {player} cannot double now: {reason}"),
        N_("{player} cannot double now: {reason}"),
    ),
    "take": (
        N_("the game is over: nobody can take"),
        N_("player {player} cannot take now: {reason}"),
        N_("{player} cannot take now: {reason}"),
    ),
    "drop": (
        N_("the game is over: nobody can drop"),
        N_("player {player} cannot drop now: {reason}"),
        N_("{player} cannot drop now: {reason}"),
    ),
    "beaver": (
        N_("the game is over: nobody can beaver"),
        N_("player {player} cannot beaver now: {reason}"),
        N_("{player} cannot beaver now: {reason}"),
    ),
    "resign": (
        N_("the game is over: nobody can resign"),
        N_("player {player} cannot resign now: {reason}"),
        N_("{player} cannot resign now: {reason}"),
    ),
    "accept a resignation": (
        N_("the game is over: nobody can accept a resignation"),
        N_("player {player} cannot accept a resignation now: {reason}"),
        N_("{player} cannot accept a resignation now: {reason}"),
    ),
    "decline a resignation": (
        N_("the game is over: nobody can decline a resignation"),
        N_("player {player} cannot decline a resignation now: {reason}"),
        N_("{player} cannot decline a resignation now: {reason}"),
    ),
    "move checkers": (
        N_("the game is over: nobody can move checkers"),
        N_("player {player} cannot move checkers now: {reason}"),
        N_("{player} cannot move checkers now: {reason}"),
    ),
    "undo": (
        N_("the game is over: nobody can undo"),
        N_("player {player} cannot undo now: {reason}"),
        N_("{player} cannot undo now: {reason}"),
    ),
    "commit a play": (
        N_("the game is over: nobody can commit a play"),
        N_("player {player} cannot commit a play now: {reason}"),
        N_("{player} cannot commit a play now: {reason}"),
    ),
    "play": (
        N_("the game is over: nobody can play"),
        N_("player {player} cannot play now: {reason}"),
        N_("{player} cannot play now: {reason}"),
    ),
}
"""Why each action is refused (by the name :meth:`Game._check` is given): after the game, and out of
phase (naming the player by seat, then by name), where ``{reason}`` says what the game waits for."""


class Phase(enum.Enum):
    """What the game is waiting for."""

    OPENING = "opening"  # the opening roll (R4)
    ROLL = "roll"  # the player on roll doubles or rolls
    DOUBLED = "doubled"  # an answer to a double or an immediate redouble
    MOVE = "move"  # the player on roll moves checkers and commits
    CHOOSE_DOUBLE = "choose-double"  # after an Acey-Deucey 1-2, the double to play (V2)
    RESIGNATION = "resignation"  # an answer to a resignation
    OVER = "over"


class Game:
    """A game between players 0 and 1.

    ``rules`` sets the cube and the optional rules; ``dice`` is where the
    rolls come from (OS entropy by default); ``variant`` is the variant
    played (the standard game by default), which sets the starting
    position, the movement rules, the cube and the scoring. ``crawford`` forbids doubling
    (the Crawford game of a match, P2); ``holland`` names the trailer who may
    not double before their third turn (P3). A game normally starts with the
    opening roll; give ``position`` (seen from ``player_on_roll``) and the
    ``cube`` to start from a set-up position instead.

    Whoever follows the game (a table, a view) listens with two hooks, which
    may also be set later: ``record`` gets every entry of the log as it is
    made, and ``on_over`` the game once it is over, after its last entry.

    >>> from tavola.dicesource import RandomDice
    >>> heard = []
    >>> game = Game(dice=RandomDice(seed=3), record=heard.append, on_over=heard.append)
    >>> game.roll() and game.play("13/11 13/8")
    >>> game.resign()
    >>> game.accept_resignation()
    >>> [type(entry.action).__name__ for entry in heard[:-1]], heard[-1] is game
    (['OpeningRoll', 'Played', 'Resign', 'AcceptResignation'], True)
    """

    def __init__(
        self,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        crawford: bool = False,
        holland: int | None = None,
        position: Position | None = None,
        player_on_roll: int | None = None,
        cube: Cube | None = None,
        variant: Variant | str = STANDARD,
        record: Callable[[Entry], None] | None = None,
        on_over: Callable[[Game], None] | None = None,
    ) -> None:
        rules, variant = _checked_settings(rules, dice, crawford, position, cube, variant)
        if (position is None) != (player_on_roll is None):
            raise IllegalActionError(_("a set-up game needs both the position and the player on roll"))
        if player_on_roll not in (None, 0, 1) or holland not in (None, 0, 1):
            raise IllegalActionError(_("players are 0 and 1"))
        self.rules = rules
        self.variant = variant
        self.crawford = crawford
        self.holland = holland
        self._dice = dice or default_dice()
        self._position = position or variant.start
        if self._position.checkers != variant.checkers:
            raise IllegalActionError(
                _("{variant} is played with {checkers} checkers a side, not {count}").format(
                    variant=variant.name, checkers=variant.checkers, count=self._position.checkers
                )
            )
        self._on_roll = player_on_roll if player_on_roll is not None else 0
        self._phase = Phase.OPENING if position is None else Phase.ROLL
        self._cube = cube or Cube()
        self._automatic_doubles = 0
        self._offer: CubeOffer | None = None
        self._resignation: tuple[int, WinKind] | None = None
        self._before_resignation = Phase.ROLL
        self._turns: list[Turn] = []  # the turn being played, one entry per checker action, for undo
        self._turns_started = [0, 0]
        self._playing_chosen_double = False  # the second part of an Acey-Deucey 1-2 (V2)
        self._log: list[Entry] = []
        self.outcome: Outcome | None = None
        self.record = record
        """Called with every entry of the log as it is made."""
        self.on_over = on_over
        """Called with the game once it is over, after its last entry."""

    def __getstate__(self) -> dict[str, object]:
        """A copy or a pickle of a game has its state, not its listeners: they follow this game only."""
        state = self.__dict__.copy()
        state["record"] = state["on_over"] = None
        return state

    # --- reading the state ----------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def player_on_roll(self) -> int:
        """The player whose turn it is (before the opening roll: 0)."""
        return self._on_roll

    @property
    def player_to_act(self) -> int | None:
        """The player who must act now: the one on roll, or the one answering a double or resignation."""
        if self._phase is Phase.OVER:
            return None
        if self._phase is Phase.DOUBLED:
            assert self._offer is not None
            return self._offer.answering
        if self._phase is Phase.RESIGNATION:
            assert self._resignation is not None
            return 1 - self._resignation[0]
        return self._on_roll

    @property
    def position(self) -> Position:
        """The board seen from the player on roll, with the checkers moved so far this turn."""
        return self._turns[-1].current if self._turns else self._position

    def position_for(self, player: int) -> Position:
        """The board seen from ``player``."""
        return self.position if player == self._on_roll else self.position.flip()

    @property
    def cube(self) -> Cube:
        return self._cube

    @property
    def dice(self) -> Dice | None:
        """The dice of the turn being played, if rolled."""
        return self._turns[-1].dice if self._turns else None

    @property
    def turn(self) -> Turn | None:
        """The turn being played (dice rolled, checkers moved so far), if any."""
        return self._turns[-1] if self._turns else None

    @property
    def playing_chosen_double(self) -> bool:
        """Whether the turn being played is the double its player chose after an Acey-Deucey 1-2 (V2).

        All four moves of it played, the same player rolls again.
        """
        return self._playing_chosen_double

    @property
    def offer(self) -> tuple[int, int] | None:
        """A double waiting for an answer: (the value if taken, the player who must answer)."""
        return (self._offer.value, self._offer.answering) if self._offer else None

    @property
    def cube_offer(self) -> CubeOffer | None:
        """The double waiting for an answer: its value, its doubler, the immediate redoubles since (M3, M4).

        >>> game = Game(rules=Rules(beavers=1), position=Position.start(), player_on_roll=0)
        >>> game.double(); game.beaver(); game.cube_offer
        CubeOffer(4, doubler=0, redoubles=1)
        """
        return self._offer

    @property
    def resignation(self) -> tuple[int, WinKind] | None:
        """A resignation waiting for an answer: (the player resigning, the result offered)."""
        return self._resignation

    @property
    def log(self) -> tuple[Entry, ...]:
        """Everything done so far, in order; a turn's checker moves appear once, as the committed play."""
        return tuple(self._log)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def may_double(self, player: int | None = None) -> bool:
        """Whether ``player`` (by default the player on roll) may double now (C2, P2, P3)."""
        player = self._on_roll if player is None else player
        return (
            self._phase is Phase.ROLL
            and player == self._on_roll
            and self.rules.cube
            and self.variant.cube
            and not self.crawford
            and self._cube.may_double(player)
            and not (self.holland == player and self._turns_started[player] < 2)
        )

    # --- what may be done ----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Everything the player to act may do now."""
        plays, others = self.legal_actions_split()
        return [Played(play) for play in plays] + others if plays is not None else others

    def legal_actions_split(self) -> tuple[LegalPlays | None, list[Action]]:
        """:meth:`legal_actions` in two parts: the whole plays it lists first, as the roll's
        :class:`~tavola.play.LegalPlays` (None where it lists none: checkers already moved, or not a
        move), and the other actions. For a caller that lists every play by its notation
        (:meth:`LegalPlays.notations <tavola.play.LegalPlays.notations>`) without making each one.

        >>> from tavola.dicesource import RandomDice
        >>> game = Game(dice=RandomDice(seed=3))
        >>> game.roll()
        Dice(5, 2)
        >>> plays, others = game.legal_actions_split()
        >>> [Played(play) for play in plays] + others == game.legal_actions()
        True
        """
        phase = self._phase
        if phase is Phase.OPENING:
            return None, [Roll()]
        if phase is Phase.ROLL:
            return None, [Roll(), *([Double()] if self.may_double() else []), *self._resignations()]
        if phase is Phase.DOUBLED:
            assert self._offer is not None
            beaver = [Beaver()] if self._offer.why_no_beaver(self.rules) is None else []
            return None, [Take(), Drop(), *beaver]
        if phase is Phase.RESIGNATION:
            return None, [AcceptResignation(), DeclineResignation()]
        if phase is Phase.CHOOSE_DOUBLE:
            return None, [*(ChooseDouble(number) for number in range(1, 7)), *self._resignations()]
        if phase is Phase.MOVE:
            turn = self._turns[-1]
            actions: list[Action] = [MoveCheckers((move,)) for move in turn.next_moves()]
            if turn.moves:
                actions.append(Undo())
            if turn.is_complete:
                actions.append(Commit())
            return (None if turn.moves else turn.legal), actions + self._resignations()
        return None, []

    def _resignations(self) -> list[Action]:
        if self.variant.scoring is Scoring.CHECKERS_LEFT:
            return [Resign(WinKind.SINGLE)]  # the loser pays per checker whatever is offered
        return [Resign(kind) for kind in WinKind]

    def apply(self, action: Action, player: int | None = None) -> None:
        """Do ``action`` as ``player`` (by default the player to act)."""
        match action:
            case Roll():
                self.roll(player)
            case Double():
                self.double(player)
            case Take():
                self.take(player)
            case Drop():
                self.drop(player)
            case Beaver():
                self.beaver(player)
            case Resign(kind):
                self.resign(kind, player)
            case ChooseDouble(number):
                self.choose_double(number, player)
            case AcceptResignation():
                self.accept_resignation(player)
            case DeclineResignation():
                self.decline_resignation(player)
            case MoveCheckers(moves):
                self.move(moves, player)
            case Undo():
                self.undo(player)
            case Commit():
                self.commit(player)
            case Played(play):
                self.play(play, player)
            case _:
                raise IllegalActionError(
                    _("{action} is not something a player does").format(action=repr(action))
                )

    # --- the actions -------------------------------------------------------------------

    def _check(self, player: int | None, *phases: Phase, what: str) -> int:
        """The player acting, after checking it is their turn and the game is in one of ``phases``.

        ``what`` names the action in :data:`_REFUSALS`, which says why it is refused.
        """
        over, not_now, not_now_named = _REFUSALS[what]
        if self._phase is Phase.OVER:
            raise IllegalActionError(_(over))
        acting = self.player_to_act
        assert acting is not None
        if player is not None and player != acting:
            raise OutOfTurnError(
                SeatedText(
                    N_("it is player {acting}'s turn to act, not player {player}'s (R21)"),
                    N_("it is {acting}'s turn to act, not {player}'s (R21)"),
                    {"acting": acting, "player": player},
                )
            )
        if self._phase not in phases:
            raise IllegalActionError(
                SeatedText(not_now, not_now_named, {"player": acting}, {"reason": self._waiting_for()})
            )
        return acting

    def _waiting_for(self) -> str:
        return {
            Phase.OPENING: _("the opening roll comes first (R4)"),
            Phase.ROLL: _("the player on roll has to roll (or double)"),
            Phase.DOUBLED: _("a double waits for an answer: take or drop"),
            Phase.MOVE: _("the dice are rolled: move checkers and commit"),
            Phase.CHOOSE_DOUBLE: _("after the 1-2, choose the double to play (V2)"),
            Phase.RESIGNATION: _("a resignation waits for an answer: accept or decline"),
            Phase.OVER: _("the game is over"),
        }[self._phase]

    def roll(self, player: int | None = None) -> Dice | None:
        """Roll: the opening roll (R4), or the player on roll's dice. Returns the dice of the turn.

        A tie on the opening roll is rolled again (returning ``None``), and
        doubles the stake under automatic doubles (M2).
        """
        acting = self._check(player, Phase.OPENING, Phase.ROLL, what="roll")
        if self._phase is Phase.OPENING:
            return self._opening_roll()
        dice = self._dice.roll()
        self._start_turn(dice)
        self._record(Entry(acting, Roll(dice)))
        return dice

    def _opening_roll(self) -> Dice | None:
        first, second = self._dice.roll_opening()
        rolled_by = self._on_roll
        if first == second:
            if self.rules.cube and self._automatic_doubles < self.rules.automatic_doubles:
                self._automatic_doubles += 1
                self._cube = self._cube.automatic_double()
            self._record(Entry(rolled_by, OpeningRoll((first, second))))
            return None
        self._on_roll = 0 if first > second else 1
        dice = Dice(first, second)
        self._start_turn(dice)
        self._record(Entry(rolled_by, OpeningRoll((first, second))))
        return dice

    def _start_turn(self, dice: Dice) -> None:
        self._turns_started[self._on_roll] += 1
        self._turns = [Turn(self._position, dice, variant=self.variant)]
        self._phase = Phase.MOVE

    def choose_double(self, number: int, player: int | None = None) -> None:
        """After playing an Acey-Deucey 1-2, choose the double to play four times (V2)."""
        acting = self._check(player, Phase.CHOOSE_DOUBLE, what="choose a double")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 6:
            raise IllegalActionError(
                _("the double to play is 1 to 6, not {number}").format(number=repr(number))
            )
        self._playing_chosen_double = True
        self._turns = [Turn(self._position, Dice(number, number), variant=self.variant)]
        self._phase = Phase.MOVE
        self._record(Entry(acting, ChooseDouble(number)))

    def double(self, player: int | None = None) -> None:
        """Offer the cube at twice its value (C2)."""
        acting = self._check(player, Phase.ROLL, what="double")
        if not self.may_double(acting):
            raise IllegalActionError(
                SeatedText(
                    N_("player {player} cannot double: {reason}"),
                    N_("{player} cannot double: {reason}"),
                    {"player": acting},
                    {"reason": self._why_no_double(acting)},
                )
            )
        self._offer = self._cube.offered_by(acting)
        self._phase = Phase.DOUBLED
        self._record(Entry(acting, Double()))

    def _why_no_double(self, player: int) -> str | SeatedText:
        if not self.rules.cube:
            return _("these rules have no doubling cube")
        if not self.variant.cube:
            return _("{variant} is played without the doubling cube").format(variant=self.variant.name)
        if self.crawford:
            return _("nobody doubles in the Crawford game (P2)")
        if not self._cube.may_double(player):
            assert self._cube.owner is not None
            return SeatedText(
                N_("the cube belongs to player {owner} (C2)"),
                N_("the cube belongs to {owner} (C2)"),
                {"owner": self._cube.owner},
            )
        return _("the Holland rule: the trailer doubles from their third turn on (P3)")

    def take(self, player: int | None = None) -> None:
        """Accept the double: the game goes on at its value, the cube to the taker (C3)."""
        acting = self._check(player, Phase.DOUBLED, what="take")
        offer = self._offer
        assert offer is not None
        after = offer.taken(self.rules)
        if isinstance(after, CubeOffer):  # every take is a beaver (M6)
            self._offer = after
            self._record(Entry(acting, Take()))
            self._record(Entry(acting, Beaver()))
            return
        self._cube = after
        self._offer = None
        self._phase = Phase.ROLL
        self._record(Entry(acting, Take()))

    def drop(self, player: int | None = None) -> None:
        """Refuse the double: the game ends at the value before it (C3, M3)."""
        acting = self._check(player, Phase.DOUBLED, what="drop")
        offer = self._offer
        assert offer is not None
        self._offer = None
        self._finish(score_drop(offer), Entry(acting, Drop()))

    def beaver(self, player: int | None = None) -> None:
        """Redouble at once, before answering: a beaver, then a raccoon, an otter... (M3, M4)."""
        acting = self._check(player, Phase.DOUBLED, what="beaver")
        offer = self._offer
        assert offer is not None
        reason = offer.why_no_beaver(self.rules)
        if reason is not None:
            raise IllegalActionError(
                SeatedText(
                    N_("player {player} cannot redouble now: {reason}"),
                    N_("{player} cannot redouble now: {reason}"),
                    {"player": acting},
                    {"reason": reason},
                )
            )
        self._offer = offer.beavered()
        self._record(Entry(acting, Beaver()))

    def resign(self, kind: WinKind = WinKind.SINGLE, player: int | None = None) -> None:
        """Offer to give up the game as a single, gammon or backgammon (C6)."""
        acting = self._check(player, Phase.ROLL, Phase.MOVE, Phase.CHOOSE_DOUBLE, what="resign")
        if isinstance(kind, bool) or kind not in (1, 2, 3):
            raise IllegalActionError(
                _("a resignation offers a single game, a gammon or a backgammon, not {kind}").format(
                    kind=repr(kind)
                )
            )
        kind = WinKind(kind)
        if self.variant.scoring is Scoring.CHECKERS_LEFT and kind is not WinKind.SINGLE:
            raise IllegalActionError(
                _("in {variant} the loser pays per checker left: resign a single game").format(
                    variant=self.variant.name
                )
            )
        self._before_resignation = self._phase
        self._resignation = (acting, kind)
        self._phase = Phase.RESIGNATION
        self._record(Entry(acting, Resign(kind)))

    def accept_resignation(self, player: int | None = None) -> None:
        """Accept the resignation: the game ends at the result offered (C6)."""
        acting = self._check(player, Phase.RESIGNATION, what="accept a resignation")
        assert self._resignation is not None
        _resigner, kind = self._resignation
        self._resignation = None
        left = self._checkers_left(self.position_for(1 - acting))
        outcome = score_win(acting, kind, self._cube, self.rules, Ending.RESIGNATION, left)
        self._finish(outcome, Entry(acting, AcceptResignation()))

    def decline_resignation(self, player: int | None = None) -> None:
        """Decline the resignation: play goes on where it stopped (C6)."""
        acting = self._check(player, Phase.RESIGNATION, what="decline a resignation")
        self._resignation = None
        self._phase = self._before_resignation
        self._record(Entry(acting, DeclineResignation()))

    def forfeit(self, player: int) -> None:
        """``player`` loses the game without playing it out (out of time, never there, gone), whoever is
        to act: the other player wins it as the board would count now if they bore off their last
        checker, a gammon or a backgammon where the loser could still lose one (R19), counted by the
        rules and the cube (C5, M5, M6). The log gets no entry: no player did anything.

        >>> game = Game(position=Position.start(), player_on_roll=0)
        >>> game.forfeit(1)  # two of player 1's checkers are in player 0's home board
        >>> game.outcome.winner, game.outcome.kind, game.phase
        (0, <WinKind.BACKGAMMON: 3>, <Phase.OVER: 'over'>)
        """
        if isinstance(player, bool) or player not in (0, 1):
            raise IllegalActionError(_("players are 0 and 1"))
        if self._phase is Phase.OVER:
            raise IllegalActionError(_("the game is over: nobody can forfeit it"))
        loser = self.position_for(player)
        kind = WinKind.SINGLE
        if loser.off[0] == 0:
            behind = loser.bar[0] + loser.waiting[0] + sum(count for count in loser.board[18:] if count > 0)
            kind = WinKind.BACKGAMMON if behind else WinKind.GAMMON
        left = self._checkers_left(loser)
        self._offer = self._resignation = None
        self.outcome = score_win(1 - player, kind, self._cube, self.rules, Ending.FORFEIT, left)
        self._phase = Phase.OVER
        self._turns = []
        if self.on_over is not None:
            self.on_over(self)

    def move(self, moves: str | Move | Sequence[Move], player: int | None = None) -> None:
        """Move checkers as part of this turn's play (``"24/18"``, ``"bar/22 13/11"``); undoable (R20)."""
        self._check(player, Phase.MOVE, what="move checkers")
        self._turns.append(self._turns[-1].add(moves))

    def undo(self, player: int | None = None) -> None:
        """Take back the last checkers moved this turn (R20)."""
        acting = self._check(player, Phase.MOVE, what="undo")
        if len(self._turns) == 1:
            raise IllegalActionError(
                SeatedText(
                    N_("player {player} has moved nothing this turn to undo"),
                    N_("{player} has moved nothing this turn to undo"),
                    {"player": acting},
                )
            )
        self._turns.pop()

    def commit(self, player: int | None = None) -> None:
        """End the turn with the play made so far; it must be a whole legal play (R11, R20)."""
        acting = self._check(player, Phase.MOVE, what="commit a play")
        self._end_turn(acting, self._turns[-1].play)

    def play(self, play: Play | str, player: int | None = None) -> None:
        """Make a whole play and commit it: a :class:`Play` from :meth:`legal_actions` or typed text."""
        acting = self._check(player, Phase.MOVE, what="play")
        if len(self._turns) > 1:
            raise IllegalActionError(
                _("checkers are already moved this turn: move the rest and commit, or undo first (R20)")
            )
        turn = self._turns[0]
        if isinstance(play, str):
            chosen = turn.parse_play(play)
        elif not isinstance(play, Play):
            raise IllegalPlayError(
                _("a play is a Play or notation such as 8/5 6/5, not {play}").format(play=repr(play))
            )
        else:
            found = (
                turn.legal.by_result(play.after)
                if (play.before, play.dice) == (turn.start, turn.dice)
                else None
            )
            if found is None:
                raise IllegalPlayError(
                    _("{play} is not one of this turn's legal plays with {dice}").format(
                        play=play, dice=turn.dice
                    )
                )
            chosen = found  # the turn's own play, under the game's variant
        self._end_turn(acting, chosen)

    def _end_turn(self, player: int, play: Play) -> None:
        entry = Entry(player, Played(play))
        self._turns = []
        result = play.after.result()
        if result is not None:  # R18, R19
            self._position = play.after  # the final board, seen by the winner, still on roll
            left = self._checkers_left(play.after.flip())
            outcome = score_win(player, result.kind, self._cube, self.rules, Ending.BEAR_OFF, left)
            self._finish(outcome, entry)
            return
        chosen_double, self._playing_chosen_double = self._playing_chosen_double, False
        if (
            self.variant.acey_deucey_roll
            and not chosen_double
            and play.dice == Dice(2, 1)
            and len(play.moves) == 2
        ):
            self._position = play.after  # the 1 and the 2 played: now a double of the player's choice (V2)
            self._phase = Phase.CHOOSE_DOUBLE
        elif chosen_double and len(play.moves) == 4:
            self._position = play.after  # all four played: the same player rolls again (V2)
            self._phase = Phase.ROLL
        else:
            self._position = play.after.flip()
            self._on_roll = 1 - player
            self._phase = Phase.ROLL
        self._record(entry)

    def _checkers_left(self, loser: Position) -> int | None:
        """What the loser pays per checker not borne off where the variant scores so (V2)."""
        if self.variant.scoring is not Scoring.CHECKERS_LEFT:
            return None
        return checkers_left(loser)

    def _record(self, entry: Entry) -> None:
        self._log.append(entry)
        if self.record is not None:
            self.record(entry)

    def _finish(self, outcome: Outcome, entry: Entry) -> None:
        """End the game with ``outcome``, ``entry`` the action that ended it."""
        self.outcome = outcome
        self._phase = Phase.OVER
        self._turns = []
        self._record(entry)
        if self.on_over is not None:
            self.on_over(self)

    def __repr__(self) -> str:
        state = (
            f"over, player {self.outcome.winner} won {self.outcome.points}"
            if self.outcome
            else self._phase.value
        )
        return f"<Game {state}, player {self._on_roll} on roll, {self._cube!r}, {len(self._log)} actions>"


def _checked_settings(
    rules: object, dice: object, crawford: object, position: object, cube: object, variant: object
) -> tuple[Rules, Variant]:
    """The rules and variant of a new game, after refusing settings of the wrong kind."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    for value, kind, refusal in (
        (rules, Rules, N_("the rules are a Rules value such as Rules(jacoby=True), not {value}")),
        (dice, DiceSource, N_("the dice come from a dice source such as RandomDice(), not {value}")),
        (position, Position, N_("a set-up game starts from a Position, not {value}")),
        (cube, Cube, N_("the cube is a Cube value such as Cube(2, owner=0), not {value}")),
        (variant, Variant, N_("the variant is a Variant or its name, such as 'dutch', not {value}")),
    ):
        if value is not None and not isinstance(value, kind):
            raise InvalidRulesError(_(refusal).format(value=repr(value)))
    if not isinstance(crawford, bool):
        raise InvalidRulesError(_("crawford is True or False, not {value}").format(value=repr(crawford)))
    assert isinstance(variant, Variant)
    rules = rules or Rules()
    assert isinstance(rules, Rules)
    rules.check_for_variant(variant)
    return rules, variant
