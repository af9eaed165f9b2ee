"""Series of games: a match to N points (P1-P5) and a money session (M1).

Both keep their games in order; the scores and the Crawford state are worked
out from the finished games, so they can never disagree with them.

>>> from tavola.dicesource import RandomDice
>>> match = Match(3, dice=RandomDice(seed=3))
>>> game = match.new_game()
>>> game.roll(), game.player_on_roll
(Dice(5, 2), 1)
>>> game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> match.score, match.is_over
((1, 0), False)
>>> match.match_id()
'MAxgABAAAAAE'
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.actions import AcceptResignation, DeclineResignation, Entry, OpeningRoll, Resign, Roll
from tavola.dicesource import DiceSource, default_dice
from tavola.errors import IllegalActionError, InvalidIdError, InvalidRulesError
from tavola.game import Ending, Game, Phase
from tavola.i18n import _
from tavola.ids import GameState, MatchState, encode_match_id
from tavola.matchrules import MAX_MATCH_LENGTH, check_match_length, check_match_score
from tavola.rules import Rules, checked_stake
from tavola.variants import STANDARD, Variant

__all__ = [
    "FORFEIT_REASONS",
    "MAX_MATCH_LENGTH",
    "Forfeit",
    "Match",
    "MatchScore",
    "MoneySession",
    "Series",
    "Settlement",
    "match_id_text",
    "scores_before",
]


@dataclass(frozen=True)
class MatchScore:
    """A match seen by the player on roll: the length, both scores (its own first), the Crawford flag.

    Only a score a match can reach is accepted (P1, P2; :mod:`tavola.matchrules`):

    >>> MatchScore(2, (1, 1), crawford=True)
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidRulesError: at 1-1 in a 2-point match there is no Crawford game: it follows the \
game in which one player, and only one, reaches 1 points (P2)
    """

    length: int
    score: tuple[int, int]
    crawford: bool = False

    def __post_init__(self) -> None:
        check_match_length(self.length)
        score = self.score
        if (
            not isinstance(score, tuple)
            or len(score) != 2
            or not all(isinstance(points, int) and not isinstance(points, bool) for points in score)
        ):
            raise InvalidRulesError(f"a match's score is two whole numbers, not {score!r:.80}")
        if not isinstance(self.crawford, bool):
            raise InvalidRulesError(f"the Crawford flag is True or False, not {self.crawford!r}")
        check_match_score(self.length, score, self.crawford)

    @property
    def away(self) -> tuple[int, int]:
        """Points each player still needs: (player on roll, opponent)."""
        return self.length - self.score[0], self.length - self.score[1]

    @classmethod
    def from_away(cls, away: tuple[int, int], crawford: bool = False) -> MatchScore:
        """The score from the points each player still needs (the match as long as the larger).

        >>> MatchScore.from_away((2, 5)).away
        (2, 5)
        """
        length = max(away)
        return cls(length, (length - away[0], length - away[1]), crawford)


FORFEIT_REASONS = ("time", "absent", "left", "award")
"""Why a player forfeits: out of time on the clock, never came to play, left the table, or the match
given to the other player by a tournament's director."""


@dataclass(frozen=True)
class Forfeit:
    """A series given up by ``player`` for ``reason`` (one of :data:`FORFEIT_REASONS`), at ``at`` (a
    time as text, ISO 8601 in UTC, where it is known).

    >>> Forfeit(1, "time", "2026-05-01T12:00:00Z")
    Forfeit(player=1, reason='time', at='2026-05-01T12:00:00Z')
    >>> Forfeit(2, "time")
    Traceback (most recent call last):
    ...
    tavola.errors.IllegalActionError: players are 0 and 1, not 2
    """

    player: int
    reason: str
    at: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.player, bool) or self.player not in (0, 1):
            raise IllegalActionError(_("players are 0 and 1, not {player}").format(player=repr(self.player)))
        if self.reason not in FORFEIT_REASONS:
            raise IllegalActionError(
                _("a forfeit is for {reasons}, not {reason}").format(
                    reasons=", ".join(FORFEIT_REASONS), reason=repr(self.reason)
                )
            )
        if self.at is not None and (not isinstance(self.at, str) or len(self.at) > 40):
            raise IllegalActionError(_("a forfeit's time is text such as 2026-05-01T12:00:00Z"))


class _Series:
    """Games played one after another by the same two players, with one dice source."""

    def __init__(
        self, rules: Rules | None, dice: DiceSource | None, players: tuple[str, str], variant: Variant
    ) -> None:
        if len(players) != 2 or not all(isinstance(name, str) and name.strip() for name in players):
            raise InvalidRulesError(_("two players with names, not {players}").format(players=repr(players)))
        self.variant = variant
        self.rules = rules or Rules()
        self.rules.check_for_variant(variant)
        self.dice = dice or default_dice()
        self.players = players
        self.games: list[Game] = []
        self.forfeited: Forfeit | None = None
        """The forfeit that ended the series, if one did (:meth:`forfeit`)."""

    @property
    def game(self) -> Game | None:
        """The game in progress, or the last one played."""
        return self.games[-1] if self.games else None

    def new_game(self) -> Game:
        """Start the next game; the one before must be over."""
        if self.games and not self.games[-1].is_over:
            raise IllegalActionError(_("the game in progress must end before the next one starts"))
        if self.is_over:
            raise IllegalActionError(_("the match is over"))
        game = self._create_game()
        self.games.append(game)
        return game

    def _create_game(self) -> Game:
        return Game(self.rules, self.dice, variant=self.variant)

    def forfeit(self, forfeit: Forfeit) -> None:
        """End the series by ``forfeit``: its player loses the game in progress (:meth:`Game.forfeit
        <tavola.game.Game.forfeit>`) and the series, which is over. In a match the other player wins the
        match, every point still missing (P1); a money session counts the game lost and ends.

        >>> match = Match(5)
        >>> game = match.new_game()
        >>> match.forfeit(Forfeit(0, "time"))
        >>> match.is_over, match.winner, match.score, game.is_over
        (True, 1, (0, 5), True)
        """
        if not isinstance(forfeit, Forfeit):
            raise IllegalActionError(
                _("a forfeit is a Forfeit value, not {value}").format(value=repr(forfeit))
            )
        if self.is_over:
            raise IllegalActionError(_("the match is over"))
        game = self.game
        self.forfeited = forfeit  # first: the game's end is heard with the series over
        if game is not None and not game.is_over:
            game.forfeit(forfeit.player)

    @property
    def is_over(self) -> bool:
        return self.forfeited is not None


class Match(_Series):
    """A match to ``length`` points (P1) with the Crawford rule (P2) and, as a setting, the Holland rule (P3).

    Money-only rules are refused (P4).
    """

    def __init__(
        self,
        length: int,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        variant: Variant = STANDARD,
    ) -> None:
        check_match_length(length)
        rules = rules or Rules()
        rules.check_for_match()
        super().__init__(rules, dice, players, variant)
        self.length = length

    def _scores_before(self, index: int) -> tuple[int, int]:
        """The score before game ``index`` (points past the length count for nothing, P1)."""
        score = [0, 0]
        for game in self.games[:index]:
            if game.outcome is not None:
                score[game.outcome.winner] = min(
                    self.length, score[game.outcome.winner] + game.outcome.points
                )
        return score[0], score[1]

    @property
    def score(self) -> tuple[int, int]:
        """Points of players 0 and 1 from the finished games; after a forfeit, the winner has the match."""
        score = self._scores_before(len(self.games))
        if self.forfeited is None:
            return score
        winner = 1 - self.forfeited.player
        return (self.length, score[1]) if winner == 0 else (score[0], self.length)

    @property
    def is_over(self) -> bool:
        return self.forfeited is not None or self.length in self.score

    @property
    def winner(self) -> int | None:
        return self.score.index(self.length) if self.is_over else None

    def is_crawford_game(self, index: int) -> bool:
        """Whether game ``index`` is the Crawford game: the first after a player reached length - 1 (P2)."""
        if not self.rules.crawford or self.length == 1:
            return False
        first = next(
            (
                number
                for number in range(len(self.games) + 1)
                if self.length - 1 in self._scores_before(number)
            ),
            None,
        )
        return first == index

    def _post_crawford(self, index: int) -> bool:
        return any(self.is_crawford_game(number) for number in range(index))

    def _create_game(self) -> Game:
        index = len(self.games)
        score = self._scores_before(index)
        holland = None
        if self.rules.holland and self._post_crawford(index) and score[0] != score[1]:
            holland = 0 if score[0] < score[1] else 1  # the trailer; at equal scores nobody trails (P3)
        crawford = self.is_crawford_game(index)
        return Game(self.rules, self.dice, crawford=crawford, holland=holland, variant=self.variant)

    def match_id(self) -> str:
        """The gnubg Match ID of the match as it stands (P5); :class:`InvalidIdError` past its cube of 32768.

        See :func:`match_id_text` for the ID or a phrase saying there is none.
        """
        return encode_match_id(self.match_state())

    def match_state(self) -> MatchState:
        """The match as gnubg's Match ID holds it, as gnubg writes it (P5).

        Once a game is over the score counts it, as won (past the length when
        it ends the match), and the Crawford flag is the next game's.
        """
        game = self.game
        if game is None:
            return MatchState(game_state=GameState.NONE, match_length=self.length, jacoby=False)
        if game.outcome is None:
            return _state_of(game, self.length, self._scores_before(len(self.games) - 1), game.crawford)
        before = list(self._scores_before(len(self.games) - 1))
        before[game.outcome.winner] += game.outcome.points
        if self.forfeited is not None:  # the winner has every point still missing
            before[game.outcome.winner] = max(before[game.outcome.winner], self.length)
        crawford_next = not self.is_over and self.is_crawford_game(len(self.games))
        return _state_of(game, self.length, (before[0], before[1]), crawford_next)


def match_id_text(series: Series) -> str:
    """The gnubg Match ID of ``series`` as it stands, or a phrase saying it has none, for showing.

    A cube past 32768 (redoubles have no limit, C4) is more than a Match ID holds.

    >>> from tavola.cube import Cube
    >>> match = Match(7)
    >>> match.games.append(Game(position=STANDARD.start, player_on_roll=0, cube=Cube(65536, 1)))
    >>> match_id_text(match)
    'none (the cube at 65536 is more than a Match ID can hold)'
    """
    try:
        return encode_match_id(series.match_state())
    except InvalidIdError as error:
        # TRANSLATORS: shown in place of a Match ID that cannot be written; {reason} says why.
        return _("none ({reason})").format(reason=error)


def _state_of(game: Game, length: int, score: tuple[int, int], crawford: bool) -> MatchState:
    """A game's state, written as gnubg writes its Match ID.

    ``score`` and ``crawford`` are the match's, as the ID holds them. A game
    in play is written as it stands; a game over as gnubg leaves it: after a
    bear-off or a forfeit, the loser on roll and on turn with no dice; after a drop or an
    accepted resignation, the turn with the player who answered, the
    resignation kept, and the dice of a turn that had rolled.
    """
    outcome = game.outcome
    if outcome is None:
        offered = game.resignation
        rolled = game.dice
        acting = game.player_to_act
        assert acting is not None
        return MatchState(
            cube_value=game.cube.value,
            cube_owner=game.cube.owner,
            player_on_roll=game.player_on_roll,
            crawford=crawford,
            game_state=GameState.PLAYING,
            turn=acting,
            double_offered=game.phase is Phase.DOUBLED,
            resignation=int(offered[1]) if offered else 0,
            dice=(rolled.high, rolled.low) if rolled else (0, 0),
            match_length=length,
            score=score,
            jacoby=game.rules.jacoby,
        )
    dice: tuple[int, int] = (0, 0)
    resignation = 0
    if outcome.ending in (Ending.BEAR_OFF, Ending.FORFEIT):  # the loser on roll and on turn, no dice
        on_roll = turn = 1 - outcome.winner
    else:
        on_roll, turn = game.player_on_roll, game.log[-1].player
    if outcome.ending is Ending.RESIGNATION:
        resignation, dice = _resignation_and_dice(game.log)
    return MatchState(
        cube_value=game.cube.value,
        cube_owner=game.cube.owner,
        player_on_roll=on_roll,
        crawford=crawford,
        game_state=_ENDED[outcome.ending],
        turn=turn,
        resignation=resignation,
        dice=dice,
        match_length=length,
        score=score,
        jacoby=game.rules.jacoby,
    )


_ENDED = {
    Ending.BEAR_OFF: GameState.OVER,
    Ending.RESIGNATION: GameState.RESIGNED,
    Ending.DROP: GameState.DROPPED,
    Ending.FORFEIT: GameState.OVER,
}


def _resignation_and_dice(log: tuple[Entry, ...]) -> tuple[int, tuple[int, int]]:
    """The resignation a game ended with, and the dice of the turn it was offered in (none before a roll)."""
    index = len(log) - 1
    while index >= 0 and isinstance(log[index].action, Resign | AcceptResignation | DeclineResignation):
        index -= 1
    accepted = next(entry.action for entry in reversed(log) if isinstance(entry.action, Resign))
    assert isinstance(accepted, Resign)
    action = log[index].action if index >= 0 else None
    dice: tuple[int, int] = (0, 0)
    if isinstance(action, Roll) and action.dice is not None:
        dice = (action.dice.high, action.dice.low)
    elif isinstance(action, OpeningRoll) and action.dice[0] != action.dice[1]:
        dice = (max(action.dice), min(action.dice))
    return int(accepted.kind), dice


@dataclass(frozen=True)
class Settlement:
    """A money session's standing: net points per player and what they are worth at the stake."""

    points: tuple[int, int]
    stake: float

    @property
    def money(self) -> tuple[float, float]:
        return self.points[0] * self.stake, self.points[1] * self.stake


class MoneySession(_Series):
    """Independent money games with a running score at a stake per point (M1).

    >>> from tavola.dicesource import RandomDice
    >>> session = MoneySession(Rules(jacoby=True, beavers=1), RandomDice(seed=3), stake=2.5)
    >>> game = session.new_game()
    >>> game.roll() and game.play("13/11 13/8")
    >>> game.resign()
    >>> game.accept_resignation()
    >>> session.score.points, session.score.money  # player 1 moved, player 0 resigned
    ((-1, 1), (-2.5, 2.5))
    """

    def __init__(
        self,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        stake: float = 1.0,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        variant: Variant = STANDARD,
    ) -> None:
        self.stake = checked_stake(stake)
        super().__init__(rules, dice, players, variant)

    @property
    def score(self) -> Settlement:
        """Net points of players 0 and 1 over the finished games, and their worth (zero-sum)."""
        points = [0, 0]
        for game in self.games:
            if game.outcome is not None:
                points[game.outcome.winner] += game.outcome.points
                points[1 - game.outcome.winner] -= game.outcome.points
        return Settlement((points[0], points[1]), self.stake)

    def match_state(self) -> MatchState:
        """The session's current game as gnubg's Match ID holds it (a money game: length 0)."""
        game = self.game
        if game is None:
            return MatchState(game_state=GameState.NONE, jacoby=self.rules.jacoby)
        return _state_of(game, 0, (0, 0), False)


Series = Match | MoneySession
"""Games played one after another: a match to N points or a money session (what a record holds)."""


def scores_before(series: Series, index: int) -> tuple[int, int]:
    """The score line before game ``index``, as records and analyses show it.

    For a match, the match score (P1); for a money session, the points each
    player has won so far (not the net).

    >>> scores_before(MoneySession(), 0)
    (0, 0)
    """
    score = [0, 0]
    for game in series.games[:index]:
        if game.outcome is not None:
            score[game.outcome.winner] += game.outcome.points
            if isinstance(series, Match):
                score[game.outcome.winner] = min(series.length, score[game.outcome.winner])
    return score[0], score[1]
