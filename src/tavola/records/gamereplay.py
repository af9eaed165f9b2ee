r"""Replaying a record's games through the game API: what the ``.mat`` and SGF readers share.

Each reader turns its text into :class:`GameText`\ s, one per game, each a
list of :class:`Cell`\ s (a roll and its play, a cube action, a resignation,
the result), and :func:`replay_games` makes every one of them with the
game's own methods on a new match or session, so Tavola's rules check the
file: whatever breaks them raises :class:`~tavola.errors.RecordError` naming
the line. A cell may carry a note (an SGF comment): :func:`replay_games`
says where in each game's log it was made.

>>> from tavola.dice import Dice
>>> from tavola.match import Match
>>> from tavola.records.replay import ReplayDice
>>> manual = ManualDice()
>>> match = Match(3, dice=ReplayDice(manual))
>>> cells = [Cell(2, 1, "31: 8/5 6/5", "roll", Dice(3, 1), "8/5 6/5", note="the best"),
...          Cell(3, 0, "Doubles => 2", "double"), Cell(3, 1, "Drops", "drop"),
...          Cell(4, 0, "Wins 1 point", "wins", value=1)]
>>> replay_games(match, manual, [GameText(1, 1, 1, match.players, (0, 0), False, cells)])
(Note(game=0, after=2, text='the best'),)
>>> match.score
(1, 0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from tavola.actions import Double
from tavola.dice import Dice
from tavola.dicesource import ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Ending, Game, Phase
from tavola.i18n import _, ngettext
from tavola.match import Forfeit, Match, Series, scores_before
from tavola.position import WinKind
from tavola.records.outcomes import forfeit_points
from tavola.records.replay import play_text
from tavola.rules import Rules, checked_stake

__all__ = [
    "Cell",
    "GameText",
    "Note",
    "longest_beaver_chain",
    "parse_flag",
    "parse_rules",
    "read_stake",
    "replay_forfeited",
    "replay_games",
    "rules_text",
]


@dataclass(frozen=True)
class Cell:
    """One thing done, as read: its line, the player, its text and what it says.

    ``kind`` is ``roll``, ``double``, ``beaver``, ``take``, ``drop``, ``resign``, ``wins``, or
    ``note`` for a place that only carries a note.
    """

    line: int
    player: int
    text: str
    kind: str
    dice: Dice | None = None
    moves: str | None = None  # None: rolled, not played ("???")
    value: int | None = None  # the cube offered, or the points won
    win_kind: WinKind | None = None
    flag: bool = False  # a declined resignation; a win of the match
    note: str | None = None  # a comment made here (SGF)


@dataclass
class GameText:
    """One game as read: its number, lines, players, score before it, Crawford mark and cells.

    ``result_required``: a game over by the replay must end with a ``wins`` cell (``.mat``).
    """

    number: int
    line: int
    score_line: int
    names: tuple[str, str]
    score: tuple[int, int] | None  # None: not written, not checked
    crawford: bool
    cells: list[Cell] = field(default_factory=list)
    result_required: bool = True


@dataclass(frozen=True)
class Note:
    """A note read with a game: the game's index, how many entries its log held then, and the text."""

    game: int
    after: int
    text: str


def replay_games(series: Series, manual: ManualDice, games: Sequence[GameText]) -> tuple[Note, ...]:
    """Replay ``games`` through ``series``, whose dice are a :class:`ReplayDice` reading ``manual``;
    the notes of their cells, each with where it was made."""
    notes: list[Note] = []
    for index, text in enumerate(games):
        _check_heading(series, index, text)
        try:
            game = series.new_game()
        except TavolaError as error:
            message = _("line {line}: game {number} cannot start: {error}")
            raise RecordError(
                message.format(line=text.line, number=text.number, error=error), text.line
            ) from None
        if text.crawford and not game.crawford:
            message = _("line {line}: game {number} is marked as the Crawford game, but it is not (P2)")
            raise RecordError(message.format(line=text.score_line, number=text.number), text.score_line)
        notes += (Note(index, after, note) for after, note in _GameReplay(series, game, text, manual).run())
    return tuple(notes)


def replay_forfeited(
    series: Series, manual: ManualDice, games: Sequence[GameText], forfeit: Forfeit, line: int
) -> tuple[Note, ...]:
    """Replay ``games`` (:func:`replay_games`) of a series ended by ``forfeit``, written at ``line``: the
    last game's result (its last cell, ``Wins N points``) is the forfeit's, not a resignation, and must
    give the winner the points a forfeit gives (:func:`~tavola.records.outcomes.forfeit_points`)."""
    last = games[-1] if games else None
    wins = last.cells[-1] if last is not None and last.cells and last.cells[-1].kind == "wins" else None
    if last is None or wins is None:
        message = _("line {line}: a forfeited series ends with its last game's result")
        raise RecordError(message.format(line=line), line)
    notes = replay_games(series, manual, [*games[:-1], dataclasses.replace(last, cells=last.cells[:-1])])
    try:
        series.forfeit(forfeit)
    except TavolaError as error:
        raise RecordError(_("line {line}: {error}").format(line=line, error=error), line) from None
    points = forfeit_points(series)
    if (wins.player, wins.value) != (1 - forfeit.player, points):
        message = _("line {line}: {text}: by the forfeit, {winner} wins {count} points")
        winner = series.players[1 - forfeit.player]
        raise RecordError(
            message.format(line=wins.line, text=repr(wins.text), winner=winner, count=points), wins.line
        )
    return notes


def _check_heading(series: Series, index: int, text: GameText) -> None:
    if text.number != index + 1:
        message = _("line {line}: expected game {expected}, not game {number}")
        raise RecordError(message.format(line=text.line, expected=index + 1, number=text.number), text.line)
    if text.names != series.players:
        message = _("line {line}: the players are {first} and {second}, not {named_first} and {named_second}")
        players = series.players
        raise RecordError(
            message.format(
                line=text.score_line,
                first=repr(players[0]),
                second=repr(players[1]),
                named_first=repr(text.names[0]),
                named_second=repr(text.names[1]),
            ),
            text.score_line,
        )
    expected = scores_before(series, index)
    if text.score is not None and text.score != expected:
        message = _(
            "line {line}: the score before game {number} is {first}-{second} by the games before it, "
            "not {written_first}-{written_second}"
        )
        raise RecordError(
            message.format(
                line=text.score_line,
                number=text.number,
                first=expected[0],
                second=expected[1],
                written_first=text.score[0],
                written_second=text.score[1],
            ),
            text.score_line,
        )


class _GameReplay:
    """Replays one game's cells, each through the game's own methods."""

    def __init__(self, series: Series, game: Game, text: GameText, manual: ManualDice) -> None:
        self.series = series
        self.game = game
        self.text = text
        self.manual = manual
        self.beavered = False  # the offer waiting is a beaver: a roll implies its take (gnubg)
        self.won = False

    def run(self) -> list[tuple[int, str]]:
        """Make every cell's action; the notes, each with the length of the log when it was made."""
        cells = self.text.cells
        notes: list[tuple[int, str]] = []
        for index, cell in enumerate(cells):
            following = next((later for later in cells[index + 1 :] if later.kind != "note"), None)
            try:
                self._apply(cell, following)
            except RecordError:
                raise
            except TavolaError as error:
                # TRANSLATORS: {text} is a quoted cell of a .mat file ('52: 8/3 6/4'); {error}: what is wrong.
                message = _("line {line}: {text}: {error}")
                raise RecordError(
                    message.format(line=cell.line, text=repr(cell.text), error=error), cell.line
                ) from None
            finally:
                self.manual.clear()
            if cell.note is not None:
                notes.append((len(self.game.log), cell.note))
        if self.game.is_over and not self.won and self.text.result_required:
            line = cells[-1].line if cells else self.text.score_line
            message = _(
                "line {line}: game {number} is over here, but its 'Wins' line is missing "
                "(the file is cut short)"
            )
            raise RecordError(message.format(line=line, number=self.text.number), line)
        return notes

    def _apply(self, record: Cell, following: Cell | None) -> None:
        if record.kind == "note":
            return
        if self.won:
            message = _("line {line}: game {number} is already over")
            raise RecordError(message.format(line=record.line, number=self.text.number), record.line)
        if self.game.is_over and record.kind != "wins":
            message = _(
                "line {line}: {text}: game {number} is over (the last checker is off or a double was dropped)"
            )
            raise RecordError(
                message.format(line=record.line, text=repr(record.text), number=self.text.number), record.line
            )
        self._implied(record)
        getattr(self, f"_{record.kind}")(record, following)

    def _implied(self, record: Cell) -> None:
        """Do what a cell implies: the take after a beaver, a forced play left unwritten (see
        :mod:`tavola.records.mat`)."""
        game = self.game
        if game.phase is Phase.DOUBLED and self.beavered and record.kind in ("roll", "resign", "wins"):
            game.take()  # gnubg leaves the take after a beaver to what follows
            self.beavered = False
        turn = game.turn
        if (
            game.phase is Phase.MOVE
            and turn is not None
            and len(turn.legal) == 1
            and record.player != game.player_on_roll
            and record.kind != "wins"
        ):
            game.play(turn.legal[0])  # a forced play, left unwritten after a declined resignation

    def _roll(self, record: Cell, following: Cell | None) -> None:
        game, dice, player = self.game, record.dice, record.player
        assert dice is not None
        if game.phase is Phase.MOVE and game.dice == dice and game.player_on_roll == player:
            pass  # the play of a roll written before a declined resignation
        elif game.phase is Phase.OPENING:
            if dice.is_double:
                message = _("line {line}: {text}: an opening roll is never a double (R4)")
                raise RecordError(message.format(line=record.line, text=repr(record.text)), record.line)
            low, high = dice.low, dice.high
            self.manual.enter_opening(*((high, low) if player == 0 else (low, high)))
            game.roll()
        else:
            self.manual.enter(dice)
            game.roll(player)
        self.beavered = False
        if self._stays_unplayed(record, following):
            return
        play_text(game, record.moves or "", player)

    def _stays_unplayed(self, record: Cell, following: Cell | None) -> bool:
        """Whether the roll is left unplayed: ``???``, or no move before the roller's resignation."""
        if record.moves is None:
            return True
        turn = self.game.turn
        assert turn is not None
        if following is None:
            return not record.moves and not turn.legal[0].is_pass
        resigning = (following.kind == "resign" and following.player == record.player) or (
            following.kind == "wins" and following.player != record.player
        )
        if record.moves and not (resigning and len(turn.legal) == 1):
            return False
        forced = turn.legal[0]
        if record.moves and turn.parse_play(record.moves) != forced:
            return False  # not the forced play: game.play says why
        return resigning

    def _double(self, record: Cell, following: Cell | None) -> None:
        self.game.double(record.player)
        self._check_offer(record)

    def _beaver(self, record: Cell, following: Cell | None) -> None:
        game = self.game
        automatic = game.rules.automatic_beavers and isinstance(game.log[-1].action, Double)
        if automatic:
            game.take(record.player)  # every take is a beaver (M6)
        else:
            game.beaver(record.player)
        self.beavered = True
        self._check_offer(record)

    def _check_offer(self, record: Cell) -> None:
        offer = self.game.offer
        assert offer is not None
        if record.value is not None and record.value != offer[0]:
            message = _("line {line}: {text}: the cube goes to {cube}, not {value}")
            raise RecordError(
                message.format(line=record.line, text=repr(record.text), cube=offer[0], value=record.value),
                record.line,
            )

    def _take(self, record: Cell, following: Cell | None) -> None:
        self.game.take(record.player)
        self.beavered = False

    def _drop(self, record: Cell, following: Cell | None) -> None:
        self.game.drop(record.player)

    def _resign(self, record: Cell, following: Cell | None) -> None:
        assert record.win_kind is not None
        self.game.resign(record.win_kind, record.player)
        if record.flag:
            self.game.decline_resignation()

    def _wins(self, record: Cell, following: Cell | None) -> None:
        game, winner = self.game, record.player
        assert record.value is not None
        if not game.is_over:
            if game.phase is not Phase.RESIGNATION:
                self._check_resigner(record)
                game.resign(self._resigned_kind(record), 1 - winner)
            game.accept_resignation(winner)
        outcome = game.outcome
        assert outcome is not None
        if (outcome.winner, outcome.points) != (winner, record.value):
            message = _by_the_replay(outcome.ending, outcome.points)
            raise RecordError(
                message.format(
                    line=record.line,
                    text=repr(record.text),
                    winner=self.series.players[outcome.winner],
                    count=outcome.points,
                ),
                record.line,
            )
        if record.flag and not (isinstance(self.series, Match) and self.series.is_over):
            message = _("line {line}: {text}: the match is not over")
            raise RecordError(message.format(line=record.line, text=repr(record.text)), record.line)
        self.won = True

    def _check_resigner(self, record: Cell) -> None:
        if self.game.player_to_act == record.player:
            loser = self.series.players[1 - record.player]
            message = _(
                "line {line}: {text}: {loser} resigns here, on the other player's turn; "
                "Tavola takes a resignation only from the player whose turn it is (C6)"
            )
            raise RecordError(
                message.format(line=record.line, text=repr(record.text), loser=loser), record.line
            )

    def _resigned_kind(self, record: Cell) -> WinKind:
        """What the loser resigned, from the points won and the cube (gnubg's way)."""
        assert record.value is not None
        cube = self.game.cube.value
        if record.value % cube or not 1 <= record.value // cube <= 3:
            message = _(
                "line {line}: {text}: with the cube at {cube}, a resignation gives {single}, {gammon} or "
                "{backgammon} points"
            )
            raise RecordError(
                message.format(
                    line=record.line,
                    text=repr(record.text),
                    cube=cube,
                    single=cube,
                    gammon=2 * cube,
                    backgammon=3 * cube,
                ),
                record.line,
            )
        return WinKind(record.value // cube)


def _by_the_replay(ending: Ending, points: int) -> str:
    """What the replay says a game's winner wins, by how the game ended."""
    if ending is Ending.BEAR_OFF:
        return ngettext(
            "line {line}: {text}: by the replay, {winner} wins {count} point (bearing off)",
            "line {line}: {text}: by the replay, {winner} wins {count} points (bearing off)",
            points,
        )
    if ending is Ending.DROP:
        return ngettext(
            "line {line}: {text}: by the replay, {winner} wins {count} point (a drop)",
            "line {line}: {text}: by the replay, {winner} wins {count} points (a drop)",
            points,
        )
    return ngettext(
        "line {line}: {text}: by the replay, {winner} wins {count} point (a resignation)",
        "line {line}: {text}: by the replay, {winner} wins {count} points (a resignation)",
        points,
    )


def longest_beaver_chain(games: Sequence[GameText]) -> int:
    """The most beavers in a row the games hold (the money rules they need, M3-M4)."""
    longest = 0
    for game in games:
        chain = 0
        for record in game.cells:
            chain = chain + 1 if record.kind == "beaver" else 0
            longest = max(longest, chain)
    return longest


def parse_flag(value: str) -> bool:
    """A record's On/Off setting; :class:`ValueError` for anything else.

    >>> parse_flag(" On "), parse_flag("false")
    (True, False)
    """
    lowered = value.strip().lower()
    if lowered in ("on", "true", "yes"):
        return True
    if lowered in ("off", "false", "no"):
        return False
    raise ValueError(value)


def parse_rules(line: int, text: str) -> Rules:
    """Rules from their text, as a ``.mat`` file's ``[Rules]`` tag writes them; errors name ``line``.

    >>> parse_rules(3, "beavers=2, holland=True")
    Rules(beavers=2, holland=True)
    """
    known = {item.name: item for item in dataclasses.fields(Rules)}
    settings: dict[str, bool | int] = {}
    for part in filter(None, (part.strip() for part in text.split(","))):
        name, _equals, value = part.partition("=")
        name = name.strip()
        if name not in known:
            message = _("line {line}: the [Rules] tag names no rule {name}")
            raise RecordError(message.format(line=line, name=repr(name)), line)
        try:
            settings[name] = int(value) if known[name].type in ("int", int) else parse_flag(value)
        except ValueError:
            message = _("line {line}: [Rules] {name}={value} is not a setting")
            raise RecordError(message.format(line=line, name=name, value=repr(value.strip())), line) from None
    try:
        return Rules(**settings)  # type: ignore[arg-type]
    except TavolaError as error:
        raise RecordError(_("line {line}: [Rules]: {error}").format(line=line, error=error), line) from None


def rules_text(rules: Rules) -> str:
    """The rules that differ from the defaults, as ``name=value, ...``: what :func:`parse_rules` reads.

    >>> rules_text(Rules(beavers=2, holland=True))
    'beavers=2, holland=True'
    """
    return ", ".join(
        f"{item.name}={getattr(rules, item.name)!r}"
        for item in dataclasses.fields(rules)
        if getattr(rules, item.name) != item.default
    )


def read_stake(value: str, line: int) -> float:
    """A record's stake, written at ``line``: a whole or decimal number the rules allow
    (:func:`~tavola.rules.checked_stake`), else a :class:`RecordError` naming the line.

    >>> read_stake("2", 3), read_stake("0.5", 3)
    (2, 0.5)
    """
    try:
        stake = int(value) if value.strip().isdigit() else float(value)
    except ValueError:
        message = _("line {line}: the stake is a number, not {value}")
        raise RecordError(message.format(line=line, value=repr(value)), line) from None
    try:
        return checked_stake(stake)
    except TavolaError as error:
        raise RecordError(_("line {line}: {error}").format(line=line, error=error), line) from None
