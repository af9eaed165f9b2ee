"""The ``.mat`` text format that GNU Backgammon, eXtreme Gammon and Jellyfish exchange.

A ``.mat`` file is a header of ``; [Tag "value"]`` comments, the length
(`` 7 point match``; ``0`` for a money session), then each game: `` Game N``,
a score line (each player's name and score before the game) and numbered
lines holding the two players' actions side by side, player 0 on the left::

     Game 1
     Ann : 0                        Ben : 0
      1)                             53: 8/3 6/3
      2) 62: 24/18 18/16              Doubles => 2
      3)  Takes                      31: 25/22 6/5
     ...
          Wins 2 points

A roll is written ``53: 8/3 6/3``: the dice, then each die's move in the
mover's own numbering, the bar as 25 and off as 0, hits marked ``*``; no move
is a roll that cannot be played. Cube actions are ``Doubles => 2``,
``Takes``, ``Drops`` and ``Beavers => 4``; ``Wins N points`` ends a game
(after the last checker is borne off, a drop, or the loser's resignation).

What Tavola writes, and why
---------------------------
* The header carries ``[Player 1]``/``[Player 2]``, and the rules as the tags
  other programs know: ``[Crawford "On"]`` for matches, ``[Jacoby]`` and
  ``[Beaver]`` for money (gnubg reads neither: set them in gnubg to match).
  Rules those tags cannot say (the Holland rule, no cube, two or more
  beavers, automatic beavers) go in a ``[Rules "..."]`` tag, and a money
  session's stake in ``[Stake "2.5"]``; other programs keep them as comments.
* The Crawford game is marked ``(Crawford)`` after the score line's last
  score, where gnubg's reader ignores it (P2).
* The game that ends a match ends ``Wins N points and the match``.
* Beavers and raccoons are ``Beavers => N`` and the take after them is left
  out (the next roll implies it), as gnubg writes and reads them. Where no
  roll follows the take, or the redouble is dropped, the last redouble is
  ``Raccoons => N`` and ``Takes``/``Drops`` are spelt out: after ``Beavers``
  gnubg's reader takes the next roll it meets for the take and loses that
  roll (in gnubg 1.07 even when it is the next game's first).
* A resignation is only ``Wins N points``, unless the points would not tell
  what was offered (the Jacoby rule), it was declined, or it waits for an
  answer: then a ``Resigns gammon`` cell (``Resigns gammon (declined)``)
  says so. gnubg skips such cells.
* A roll not (yet) played is ``53:`` before a resignation, and ``53: ???``
  at the end of a record when it cannot be played (so it is not read as a pass).
  A roll played after a declined resignation appears twice: ``53:`` before
  the resignation, ``53: 8/3 6/3`` after it (gnubg reads that as one roll),
  except a forced play (or pass): gnubg plays that from ``53:`` itself, so it
  is written once, and Tavola plays it when the other player acts.

What a .mat file cannot hold
----------------------------
* Tied opening rolls: they are left out (they change nothing) -- unless
  they doubled the cube under automatic doubles (M2): other programs would
  start those games at 1, so the writer refuses such a series.
* Games won as a single only because ``Rules(gammons=False)``: other programs
  would count the gammon, so the writer refuses those too.
* Variants other than nackgammon and hypergammon (``[Variation "NackGammon"]``,
  ``[Variation "HyperGammon (3)"]``, as gnubg writes them): Dutch backgammon
  and Acey-Deucey are refused.
* Dice sources, undone moves and the time of play are not recorded.
* With automatic beavers (M6), a beaver and a take (which beavers at once)
  are both written ``Beavers``, and read back as the take.
* gnubg plays a roll left unplayed before a resignation when it has only one
  legal play, then takes the resignation out of turn; reading such a file,
  Tavola leaves the forced play unplayed so the resignation comes in turn
  (C6). Other resignations out of turn are refused.

Reading
-------
:func:`parse_mat` replays every game through :class:`~tavola.game.Game`, so
Tavola's rules check the file: a move that is not legal, a cube action out of
turn, a die out of range, a score line or a ``Wins`` line that disagrees with
the replay, a file cut short, all raise :class:`~tavola.errors.RecordError`
naming the line. Files from other programs that carry no rule tags are read
with the Crawford rule for matches; money sessions allow as many beavers as
the file uses and, if the points need it, the Jacoby rule (gnubg's default).

>>> from tavola.dicesource import RandomDice
>>> session = MoneySession(dice=RandomDice(seed=3), players=("Ann", "Ben"))
>>> game = session.new_game()
>>> game.roll() and game.play("13/11 13/8")
>>> game.double()
>>> game.drop()
>>> text = mat_text(session)
>>> print(text[text.index(" Game 1") :], end="")
 Game 1
 Ann : 0                        Ben : 0
  1)                             52: 13/8 13/11
  2)  Doubles => 2                Drops
      Wins 1 point
>>> parse_mat(text).score.points
(1, -1)
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tavola.actions import (
    AcceptResignation,
    Beaver,
    DeclineResignation,
    Double,
    Drop,
    OpeningRoll,
    Played,
    Resign,
    Roll,
    Take,
)
from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Ending, Game, Phase
from tavola.match import Match, MoneySession
from tavola.play import Play
from tavola.position import WinKind
from tavola.records._common import ReplayDice, Series, play_text, scores_before, write_atomically
from tavola.rules import Rules
from tavola.variants import HYPERGAMMON, NACKGAMMON, STANDARD, Variant

__all__ = ["mat_text", "parse_mat", "read_mat", "write_mat"]

_RIGHT_START = 33  # gnubg writes "%3d) %-27s ": the right column starts at index 33
_VARIATIONS = {"Backgammon": STANDARD, "NackGammon": NACKGAMMON, "HyperGammon (3)": HYPERGAMMON}


# --- writing -----------------------------------------------------------------------


def write_mat(series: Series, path: str | os.PathLike[str]) -> None:
    """Save ``series`` as a ``.mat`` file, atomically (see :func:`mat_text`)."""
    write_atomically(path, mat_text(series))


def mat_text(series: Series) -> str:
    """The ``.mat`` text of a match or money session.

    Raises :class:`RecordError` for what the format cannot hold (see the
    module documentation) rather than writing something other programs
    would read differently.
    """
    _check_writable(series)
    lines = _header(series)
    for index, game in enumerate(series.games):
        lines += ["", f" Game {index + 1}", _score_line(series, index)]
        lines += _layout(_cells(series, index, game))
    return "\n".join(lines) + "\n"


def _check_writable(series: Series) -> None:
    if series.variant not in _VARIATIONS.values():
        raise RecordError(
            f"a .mat file holds standard backgammon, nackgammon or hypergammon, not {series.variant.name}: "
            "save it as JSON"
        )
    for name in series.players:
        if name != name.strip() or any(char in name for char in ":\r\n\t"):
            raise RecordError(
                f"player name {name!r} cannot be written to a .mat file: "
                "no ':', tabs, line breaks, or spaces at either end"
            )
    for number, game in enumerate(series.games, start=1):
        _check_game_writable(series.rules, number, game)


def _check_game_writable(rules: Rules, number: int, game: Game) -> None:
    ties = sum(1 for entry in game.log if isinstance(entry.action, OpeningRoll) and _is_tie(entry.action))
    if ties and rules.cube and rules.automatic_doubles:
        raise RecordError(
            f"game {number}: a tied opening roll doubled the cube (automatic doubles, M2), which a .mat "
            "file cannot show (other programs would start the game at 1): save it as JSON"
        )
    if not rules.gammons and game.outcome is not None and _raw_kind(game) is not WinKind.SINGLE:
        raise RecordError(
            f"game {number}: a {_raw_kind(game).name.lower()} counted single because these rules have "
            "no gammons, which other programs reading a .mat file would not know: save it as JSON"
        )


def _is_tie(action: OpeningRoll) -> bool:
    return action.dice[0] == action.dice[1]


def _raw_kind(game: Game) -> WinKind:
    """How big the win was before the rules' counting (M5, M6)."""
    last = game.log[-1].action
    if isinstance(last, Played):
        result = last.play.after.result()
        return result.kind if result else WinKind.SINGLE
    if isinstance(last, AcceptResignation):
        offered = game.log[-2].action
        assert isinstance(offered, Resign)
        return offered.kind
    return WinKind.SINGLE


def _header(series: Series) -> list[str]:
    rules = series.rules
    tags = [("Player 1", series.players[0]), ("Player 2", series.players[1])]
    if series.variant is not STANDARD:
        tags.append(("Variation", next(key for key, value in _VARIATIONS.items() if value == series.variant)))
    if isinstance(series, Match):
        tags.append(("Crawford", _on(rules.crawford)))
        plain = Rules(crawford=rules.crawford)
        length = series.length
    else:
        tags += [("Jacoby", _on(rules.jacoby)), ("Beaver", _on(bool(rules.beavers)))]
        tags.append(("Stake", repr(series.stake)))
        plain = Rules(jacoby=rules.jacoby, beavers=min(rules.beavers, 1))
        length = 0
    if rules != plain:
        tags.append(("Rules", _rules_text(rules)))
    return [*(f'; [{key} "{value}"]' for key, value in tags), "", f" {length} point match"]


def _on(value: bool) -> str:
    return "On" if value else "Off"


def _rules_text(rules: Rules) -> str:
    """The rules that differ from the defaults, as ``name=value, ...``.

    >>> _rules_text(Rules(beavers=2, holland=True))
    'beavers=2, holland=True'
    """
    return ", ".join(
        f"{item.name}={getattr(rules, item.name)!r}"
        for item in dataclasses.fields(rules)
        if getattr(rules, item.name) != item.default
    )


def _score_line(series: Series, index: int) -> str:
    score = scores_before(series, index)
    left = f"{series.players[0]} : {score[0]}"
    left = left.ljust(31) if len(left) < 30 else left + "  "
    crawford = isinstance(series, Match) and series.is_crawford_game(index)
    return f" {left}{series.players[1]} : {score[1]}" + (" (Crawford)" if crawford else "")


@dataclass(frozen=True)
class _Cell:
    """One entry in a player's column: a roll and its play, a cube action, a resignation or a win."""

    player: int
    text: str
    wins: bool = False


def _cells(series: Series, index: int, game: Game) -> list[_Cell]:
    cells = _GameWriter(game).cells()
    outcome = game.outcome
    if outcome is not None:
        points = outcome.points
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        if isinstance(series, Match) and series.is_over and index == len(series.games) - 1:
            text += " and the match"
        cells.append(_Cell(outcome.winner, text, wins=True))
    return cells


class _GameWriter:
    """Turns a game's log into cells, following the cube as it goes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.log = game.log
        self.out: list[_Cell] = []
        self.cube = 1
        self.unplayed: Dice | None = None  # a roll whose play comes after a declined resignation

    def cells(self) -> list[_Cell]:
        index = 0
        while index < len(self.log):
            index = self._entry(index)
        return self.out

    def _entry(self, index: int) -> int:
        entry = self.log[index]
        action = entry.action
        if isinstance(action, OpeningRoll):
            if _is_tie(action):
                return index + 1
            mover = 0 if action.dice[0] > action.dice[1] else 1
            return self._roll(mover, Dice(*action.dice), index + 1)
        if isinstance(action, Roll):
            assert action.dice is not None
            return self._roll(entry.player, action.dice, index + 1)
        if isinstance(action, Double):
            return self._cube_action(entry.player, index)
        if isinstance(action, Resign):
            return self._resignation(entry.player, action.kind, index)
        if isinstance(action, Played) and self.unplayed is not None:
            if _is_forced(action.play) and index + 1 < len(self.log):
                self.unplayed = None
                return index + 1  # played when the other player acts: gnubg reads "53:" so
            return self._roll(entry.player, self.unplayed, index)
        raise AssertionError(f"unexpected {action!r} in a game's log")  # pragma: no cover

    def _roll(self, player: int, dice: Dice, index: int) -> int:
        following = self.log[index].action if index < len(self.log) else None
        if isinstance(following, Played):
            self.out.append(_Cell(player, f"{dice}: {_moves_text(following.play)}".rstrip()))
            self.unplayed = None
            return index + 1
        self.unplayed = dice
        turn = self.game.turn
        unplayable = following is None and turn is not None and turn.legal[0].is_pass
        self.out.append(_Cell(player, f"{dice}: ???" if unplayable else f"{dice}:"))
        return index

    def _cube_action(self, player: int, index: int) -> int:
        """A double, the redoubles after it (beavers, raccoons) and the answer, as gnubg reads them."""
        offer = self.cube * 2
        self.out.append(_Cell(player, f" Doubles => {offer}"))
        redoublers, index = self._redoubles(index + 1)
        offer *= 2 ** len(redoublers)
        answer = self.log[index] if index < len(self.log) else None
        implied_take = (
            answer is not None
            and isinstance(answer.action, Take)
            and index + 1 < len(self.log)
            and isinstance(self.log[index + 1].action, Roll)
        )
        for number, redoubler in enumerate(redoublers, start=1):
            name = "Beavers" if implied_take or number < len(redoublers) else "Raccoons"
            self.out.append(_Cell(redoubler, f" {name} => {offer >> (len(redoublers) - number)}"))
        if answer is None:
            return index
        if isinstance(answer.action, Take):
            self.cube = offer
            if not (redoublers and implied_take):
                self.out.append(_Cell(answer.player, " Takes"))
        else:
            assert isinstance(answer.action, Drop), answer
            self.out.append(_Cell(answer.player, " Drops"))
        return index + 1

    def _redoubles(self, index: int) -> tuple[list[int], int]:
        """Who redoubled, in turn, from ``index`` on, and the index after the last redouble."""
        redoublers: list[int] = []
        while index < len(self.log):
            step = self._redouble_at(index)
            if step is None:
                break
            redoublers.append(self.log[index].player)
            index += step
        return redoublers, index

    def _redouble_at(self, index: int) -> int | None:
        """How many log entries the redouble at ``index`` takes (a beaver 1, an automatic one 2), if any."""
        entry = self.log[index]
        if isinstance(entry.action, Beaver):
            return 1
        after = self.log[index + 1] if index + 1 < len(self.log) else None
        if isinstance(entry.action, Take) and after and isinstance(after.action, Beaver):
            return 2 if after.player == entry.player else None  # an automatic beaver (M6)
        return None

    def _resignation(self, player: int, kind: WinKind, index: int) -> int:
        answer = self.log[index + 1].action if index + 1 < len(self.log) else None
        name = kind.name.lower()
        if isinstance(answer, DeclineResignation):
            self.out.append(_Cell(player, f" Resigns {name} (declined)"))
            return index + 2
        if answer is None:
            self.out.append(_Cell(player, f" Resigns {name}"))
            return index + 1
        assert isinstance(answer, AcceptResignation)
        outcome = self.game.outcome
        if outcome is not None and outcome.kind is not kind:  # the points would not tell what was offered
            self.out.append(_Cell(player, f" Resigns {name}"))
        return index + 2


def _is_forced(play: Play) -> bool:
    """Whether ``play`` was the only legal play of its roll (the pass included)."""
    return len(play.before.legal_plays(play.dice)) == 1


def _moves_text(play: Play) -> str:
    """A play as gnubg writes it in .mat files: every die's move, bar 25, off 0.

    >>> from tavola import Position
    >>> _moves_text(Position.start().parse_play(Dice(6, 4), "24/14"))
    '24/18 18/14'
    """
    return " ".join(f"{move.source}/{move.destination}{'*' if move.hit else ''}" for move in play.moves)


def _layout(cells: Sequence[_Cell]) -> list[str]:
    """Lay the cells out in numbered lines, player 0 on the left, as gnubg does."""
    lines: list[str] = []
    row: list[str | None] = [None, None]

    def flush() -> None:
        if row != [None, None]:
            lines.append(_row_text(len([line for line in lines if ")" in line[:5]]) + 1, row[0], row[1]))
            row[:] = [None, None]

    for cell in cells:
        if cell.wins and not (cell.player == 1 and row[0] is not None):
            flush()
            lines.append(" " * (6 if cell.player == 0 else _RIGHT_START + 1) + cell.text)
        elif cell.player == 0:
            flush()
            row[0] = cell.text
        else:
            row[1] = cell.text
            flush()
    flush()
    return lines


def _row_text(number: int, left: str | None, right: str | None) -> str:
    text = f"{number:3d}) {left or ''}"
    if right is not None:
        text = text + "  " if len(text) >= _RIGHT_START - 1 else text.ljust(_RIGHT_START)
        text += right
    return text.rstrip()


# --- reading -------------------------------------------------------------------------


def read_mat(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """Read a ``.mat`` file (see :func:`parse_mat`); errors name the file and the line."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        return parse_mat(text, dice=dice)
    except RecordError as error:
        raise RecordError(f"{path}: {error}", error.line) from None


def parse_mat(text: str, *, dice: DiceSource | None = None) -> Series:
    """The match or money session a ``.mat`` text records, replayed through the game API.

    Every roll is fed to the games through :class:`~tavola.dicesource.ManualDice`
    and every play, cube action and resignation made with the game's own
    methods, so a file that breaks the rules is refused. Once replayed, the
    series rolls with ``dice`` (OS entropy by default), so an unfinished match
    can be played on.

    Raises :class:`RecordError` naming the line and what is wrong.
    """
    lines = text.removeprefix("\ufeff").splitlines()
    header = _read_header(lines)
    games = list(_read_games(lines, header.end))
    candidates = _rule_candidates(header, games)
    failure: RecordError | None = None
    for rules in candidates:
        try:
            return _Replay(header, games, rules, dice).run()
        except RecordError as error:
            failure = failure or error
    assert failure is not None
    raise failure


_TAG = re.compile(r'^[;#]\s*\[(?P<key>[A-Za-z][\w ]*?)\s+"(?P<value>.*)"\]\s*$')
_LENGTH = re.compile(r"^(?P<length>\d+)\s+point\s+match$", re.IGNORECASE)
_GAME = re.compile(r"^Game\s+(?P<number>\d+)$", re.IGNORECASE)
_SCORE = re.compile(
    r"^(?P<name0>[^:]+?)\s*:\s*(?P<score0>\d+)\s+(?P<name1>[^:]+?)\s*:\s*(?P<score1>\d+)"
    r"(?P<crawford>\s*\(Crawford\))?$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"^\s*\d+\)")
_ROLL = re.compile(r"^(?P<die0>\d)(?P<die1>\d):\s*(?P<moves>.*)$")
_CUBE = re.compile(
    r"^(?P<what>doubles|beavers|raccoons|otters|takes|drops)(?:\s*=>\s*(?P<value>\d+))?$", re.IGNORECASE
)
_RESIGN = re.compile(
    r"^resigns\s+(?:an?\s+)?(?P<kind>single|gammon|backgammon)(?:\s+game)?(?P<declined>\s*\(declined\))?$",
    re.IGNORECASE,
)
_WINS = re.compile(r"^wins\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?$", re.IGNORECASE)


@dataclass
class _Header:
    tags: dict[str, tuple[int, str]]
    length: int
    line: int  # the length line
    end: int  # index of the first line after it


def _read_header(lines: Sequence[str]) -> _Header:
    tags: dict[str, tuple[int, str]] = {}
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith((";", "#")):
            tag = _TAG.match(stripped)
            if tag:
                tags[tag.group("key")] = (index + 1, tag.group("value"))
            continue
        length = _LENGTH.match(stripped)
        if length is None:
            raise RecordError(
                f"line {index + 1}: expected the match length (such as ' 7 point match') or a "
                f"'; [Tag \"value\"]' comment, not {stripped!r}",
                index + 1,
            )
        return _Header(tags, int(length.group("length")), index + 1, index + 1)
    last = max(len(lines), 1)
    raise RecordError(f"line {last}: no ' N point match' line: not a .mat file, or one cut short", last)


@dataclass(frozen=True)
class _Record:
    """One cell as read: its line, the player's column and what it says."""

    line: int
    player: int
    text: str
    kind: str  # roll, double, beaver, take, drop, resign, wins
    dice: Dice | None = None
    moves: str | None = None  # None: rolled, not played ("???")
    value: int | None = None  # the cube offered, or the points won
    win_kind: WinKind | None = None
    flag: bool = False  # a declined resignation; a win of the match


@dataclass
class _GameText:
    number: int
    line: int
    score_line: int
    names: tuple[str, str]
    score: tuple[int, int]
    crawford: bool
    records: list[_Record] = field(default_factory=list)


def _read_games(lines: Sequence[str], start: int) -> Iterator[_GameText]:
    index = start
    game: _GameText | None = None
    while index < len(lines):
        stripped = lines[index].strip()
        index += 1
        if not stripped or stripped.startswith((";", "#")):
            continue
        heading = _GAME.match(stripped)
        if heading:
            if game is not None:
                yield game
            game, index = _read_score(lines, index, int(heading.group("number")))
        elif game is None:
            raise RecordError(f"line {index}: expected ' Game 1', not {stripped!r}", index)
        else:
            game.records += _read_line(lines[index - 1], index)
    if game is not None:
        yield game


def _read_score(lines: Sequence[str], index: int, number: int) -> tuple[_GameText, int]:
    heading = index
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines):
        raise RecordError(f"line {heading}: game {number} has no score line (the file is cut short)", heading)
    score = _SCORE.match(lines[index].strip())
    if score is None:
        raise RecordError(
            f"line {index + 1}: expected game {number}'s score line ('Name : 0    Name : 0'), "
            f"not {lines[index].strip()!r}",
            index + 1,
        )
    game = _GameText(
        number,
        heading,
        index + 1,
        (score.group("name0"), score.group("name1")),
        (int(score.group("score0")), int(score.group("score1"))),
        bool(score.group("crawford")),
    )
    return game, index + 1


def _split(line: str) -> tuple[str, str | None]:
    """A move line's two columns, found the way gnubg finds them.

    With two rolls, the right one starts two characters before the second
    colon; otherwise at the first double space from the 16th character.

    >>> _split("  2) 62: 24/18 18/16             55: 13/8 13/8 6/1* 6/1")
    ('  2) 62: 24/18 18/16            ', '55: 13/8 13/8 6/1* 6/1')
    >>> _split("  3)  Takes                      31: 8/7 7/4*")
    ('  3)  Takes    ', '                 31: 8/7 7/4*')
    """
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if first >= 0 and second > 3:
        return line[: second - 3], line[second - 2 :]
    if len(line) > 15:
        gap = line.find("  ", 15)
        if gap >= 0:
            return line[:gap], line[gap + 1 :]
    return line, None


def _read_line(line: str, number: int) -> list[_Record]:
    left, right = _split(line)
    left = _NUMBER.sub("", left, count=1)
    cells = [(0, left), (1, right or "")]
    return [_read_cell(text.strip(), player, number) for player, text in cells if text.strip()]


def _read_cell(text: str, player: int, line: int) -> _Record:
    roll = _ROLL.match(text)
    if roll:
        return _read_roll(text, roll, player, line)
    cube = _CUBE.match(text)
    if cube:
        what = cube.group("what").lower()
        kind = {"doubles": "double", "takes": "take", "drops": "drop"}.get(what, "beaver")
        value = int(cube.group("value")) if cube.group("value") else None
        return _Record(line, player, text, kind, value=value)
    resign = _RESIGN.match(text)
    if resign:
        win_kind = WinKind[resign.group("kind").upper()]
        return _Record(line, player, text, "resign", win_kind=win_kind, flag=bool(resign.group("declined")))
    wins = _WINS.match(text)
    if wins:
        points, match = int(wins.group("points")), bool(wins.group("match"))
        return _Record(line, player, text, "wins", value=points, flag=match)
    raise RecordError(
        f"line {line}: cannot read {text!r}: expected a roll ('53: 8/3 6/3'), 'Doubles => 2', "
        "'Takes', 'Drops', 'Beavers => 4' or 'Wins 1 point'",
        line,
    )


def _read_roll(text: str, roll: re.Match[str], player: int, line: int) -> _Record:
    die0, die1 = int(roll.group("die0")), int(roll.group("die1"))
    for die in (die0, die1):
        if not 1 <= die <= 6:
            raise RecordError(f"line {line}: {text!r}: a die shows 1 to 6, not {die}", line)
    moves: str | None = roll.group("moves").strip()
    if moves == "???":
        moves = None
    elif moves is not None and moves.lower().startswith("cannot move"):
        moves = ""
    elif moves is not None and moves.lower().startswith("illegal play"):
        raise RecordError(f"line {line}: Snowie's 'Illegal play' records cannot be replayed", line)
    return _Record(line, player, text, "roll", dice=Dice(die0, die1), moves=moves)


def _rule_candidates(header: _Header, games: Sequence[_GameText]) -> list[Rules]:
    """The rules to replay with: from the tags, else the likely ones (gnubg writes none)."""
    tags = header.tags
    if "Rules" in tags:
        return [_parse_rules(*tags["Rules"])]
    crawford = _tag_flag(tags, "Crawford", default=True)
    if header.length:
        return [Rules(crawford=crawford)]
    beavers = max(1 if _tag_flag(tags, "Beaver", default=False) else 0, _longest_beaver_chain(games))
    if "Jacoby" in tags:
        return [Rules(jacoby=_tag_flag(tags, "Jacoby", default=False), beavers=beavers)]
    return [Rules(beavers=beavers), Rules(jacoby=True, beavers=beavers)]


def _tag_flag(tags: dict[str, tuple[int, str]], key: str, *, default: bool) -> bool:
    if key not in tags:
        return default
    line, value = tags[key]
    try:
        return _flag(value)
    except ValueError:
        raise RecordError(f"line {line}: the [{key}] tag is On or Off, not {value!r}", line) from None


def _flag(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("on", "true", "yes"):
        return True
    if lowered in ("off", "false", "no"):
        return False
    raise ValueError(value)


def _parse_rules(line: int, text: str) -> Rules:
    """Rules from a ``[Rules "beavers=2, holland=True"]`` tag."""
    known = {item.name: item for item in dataclasses.fields(Rules)}
    settings: dict[str, bool | int] = {}
    for part in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in known:
            raise RecordError(f"line {line}: the [Rules] tag names no rule {name!r}", line)
        try:
            settings[name] = int(value) if known[name].type in ("int", int) else _flag(value)
        except ValueError:
            message = f"line {line}: [Rules] {name}={value.strip()!r} is not a setting"
            raise RecordError(message, line) from None
    try:
        return Rules(**settings)  # type: ignore[arg-type]
    except TavolaError as error:
        raise RecordError(f"line {line}: [Rules]: {error}", line) from None


def _longest_beaver_chain(games: Sequence[_GameText]) -> int:
    longest = 0
    for game in games:
        chain = 0
        for record in game.records:
            chain = chain + 1 if record.kind == "beaver" else 0
            longest = max(longest, chain)
    return longest


class _Replay:
    """Replays the games of a .mat text through a new match or session."""

    def __init__(
        self, header: _Header, games: Sequence[_GameText], rules: Rules, dice: DiceSource | None
    ) -> None:
        self.header = header
        self.games = games
        self.rules = rules
        self.manual = ManualDice()
        self.series = self._series(ReplayDice(self.manual, dice))

    def _series(self, dice: ReplayDice) -> Series:
        names = self.games[0].names if self.games else self._tag_names()
        line, variant = self.header.line, self._variant()
        try:
            if self.header.length:
                return Match(self.header.length, self.rules, dice, players=names, variant=variant)
            return MoneySession(self.rules, dice, stake=self._stake(), players=names, variant=variant)
        except TavolaError as error:
            raise RecordError(f"line {line}: {error}", line) from None

    def _tag_names(self) -> tuple[str, str]:
        tags = self.header.tags
        first = tags.get("Player 1", (0, "Player 0"))[1]
        second = tags.get("Player 2", (0, "Player 1"))[1]
        return first, second

    def _variant(self) -> Variant:
        line, name = self.header.tags.get("Variation", (0, "Backgammon"))
        if name not in _VARIATIONS:
            known = ", ".join(repr(key) for key in _VARIATIONS)
            raise RecordError(f"line {line}: Tavola plays the variations {known}, not {name!r}", line)
        return _VARIATIONS[name]

    def _stake(self) -> float:
        line, value = self.header.tags.get("Stake", (0, "1"))
        try:
            return int(value) if value.strip().isdigit() else float(value)
        except ValueError:
            raise RecordError(f"line {line}: the stake is a number, not {value!r}", line) from None

    def run(self) -> Series:
        for index, text in enumerate(self.games):
            self._check_heading(index, text)
            try:
                game = self.series.new_game()
            except TavolaError as error:
                message = f"line {text.line}: game {text.number} cannot start: {error}"
                raise RecordError(message, text.line) from None
            if text.crawford and not game.crawford:
                raise RecordError(
                    f"line {text.score_line}: game {text.number} is marked as the Crawford game, but "
                    f"it is not (P2)",
                    text.score_line,
                )
            _GameReplay(self.series, game, text, self.manual).run()
        return self.series

    def _check_heading(self, index: int, text: _GameText) -> None:
        if text.number != index + 1:
            message = f"line {text.line}: expected game {index + 1}, not game {text.number}"
            raise RecordError(message, text.line)
        if text.names != self.series.players:
            raise RecordError(
                f"line {text.score_line}: the players are {self.series.players[0]!r} and "
                f"{self.series.players[1]!r}, not {text.names[0]!r} and {text.names[1]!r}",
                text.score_line,
            )
        expected = scores_before(self.series, index)
        if text.score != expected:
            raise RecordError(
                f"line {text.score_line}: the score before game {text.number} is "
                f"{expected[0]}-{expected[1]} by the games before it, not {text.score[0]}-{text.score[1]}",
                text.score_line,
            )


class _GameReplay:
    """Replays one game's records, each through the game's own methods."""

    def __init__(self, series: Series, game: Game, text: _GameText, manual: ManualDice) -> None:
        self.series = series
        self.game = game
        self.text = text
        self.manual = manual
        self.beavered = False  # the offer waiting is a beaver: a roll implies its take (gnubg)
        self.won = False

    def run(self) -> None:
        records = self.text.records
        for index, record in enumerate(records):
            following = records[index + 1] if index + 1 < len(records) else None
            try:
                self._apply(record, following)
            except RecordError:
                raise
            except TavolaError as error:
                raise RecordError(f"line {record.line}: {record.text!r}: {error}", record.line) from None
            finally:
                self.manual.clear()
        if self.game.is_over and not self.won:
            line = records[-1].line if records else self.text.score_line
            raise RecordError(
                f"line {line}: game {self.text.number} is over here, but its 'Wins' line is missing "
                "(the file is cut short)",
                line,
            )

    def _apply(self, record: _Record, following: _Record | None) -> None:
        if self.won:
            raise RecordError(f"line {record.line}: game {self.text.number} is already over", record.line)
        if self.game.is_over and record.kind != "wins":
            raise RecordError(
                f"line {record.line}: {record.text!r}: game {self.text.number} is over "
                "(the last checker is off or a double was dropped)",
                record.line,
            )
        self._implied(record)
        getattr(self, f"_{record.kind}")(record, following)

    def _implied(self, record: _Record) -> None:
        """Do what a record implies: the take after a beaver, a forced play left unwritten (see above)."""
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

    def _roll(self, record: _Record, following: _Record | None) -> None:
        game, dice, player = self.game, record.dice, record.player
        assert dice is not None
        if game.phase is Phase.MOVE and game.dice == dice and game.player_on_roll == player:
            pass  # the play of a roll written before a declined resignation
        elif game.phase is Phase.OPENING:
            if dice.is_double:
                message = f"line {record.line}: {record.text!r}: an opening roll is never a double (R4)"
                raise RecordError(message, record.line)
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

    def _stays_unplayed(self, record: _Record, following: _Record | None) -> bool:
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
        if record.moves and turn.start.parse_play(turn.dice, record.moves, self.game.variant) != forced:
            return False  # not the forced play: game.play says why
        return resigning

    def _double(self, record: _Record, following: _Record | None) -> None:
        self.game.double(record.player)
        self._check_offer(record)

    def _beaver(self, record: _Record, following: _Record | None) -> None:
        game = self.game
        automatic = game.rules.automatic_beavers and isinstance(game.log[-1].action, Double)
        if automatic:
            game.take(record.player)  # every take is a beaver (M6)
        else:
            game.beaver(record.player)
        self.beavered = True
        self._check_offer(record)

    def _check_offer(self, record: _Record) -> None:
        offer = self.game.offer
        assert offer is not None
        if record.value is not None and record.value != offer[0]:
            raise RecordError(
                f"line {record.line}: {record.text!r}: the cube goes to {offer[0]}, not {record.value}",
                record.line,
            )

    def _take(self, record: _Record, following: _Record | None) -> None:
        self.game.take(record.player)
        self.beavered = False

    def _drop(self, record: _Record, following: _Record | None) -> None:
        self.game.drop(record.player)

    def _resign(self, record: _Record, following: _Record | None) -> None:
        assert record.win_kind is not None
        self.game.resign(record.win_kind, record.player)
        if record.flag:
            self.game.decline_resignation()

    def _wins(self, record: _Record, following: _Record | None) -> None:
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
            raise RecordError(
                f"line {record.line}: {record.text!r}: by the replay, {self.series.players[outcome.winner]} "
                f"wins {outcome.points} point{'s' if outcome.points != 1 else ''} ({_how(outcome.ending)})",
                record.line,
            )
        if record.flag and not (isinstance(self.series, Match) and self.series.is_over):
            raise RecordError(f"line {record.line}: {record.text!r}: the match is not over", record.line)
        self.won = True

    def _check_resigner(self, record: _Record) -> None:
        if self.game.player_to_act == record.player:
            loser = self.series.players[1 - record.player]
            raise RecordError(
                f"line {record.line}: {record.text!r}: {loser} resigns here, on the other player's turn; "
                "Tavola takes a resignation only from the player whose turn it is (C6)",
                record.line,
            )

    def _resigned_kind(self, record: _Record) -> WinKind:
        """What the loser resigned, from the points won and the cube (gnubg's way)."""
        assert record.value is not None
        cube = self.game.cube.value
        if record.value % cube or not 1 <= record.value // cube <= 3:
            raise RecordError(
                f"line {record.line}: {record.text!r}: with the cube at {cube}, a resignation gives "
                f"{cube}, {2 * cube} or {3 * cube} points",
                record.line,
            )
        return WinKind(record.value // cube)


def _how(ending: Ending) -> str:
    names = {Ending.BEAR_OFF: "bearing off", Ending.DROP: "a drop", Ending.RESIGNATION: "a resignation"}
    return names[ending]
