"""Reading ``.mat`` files by replaying them through the game (see :mod:`tavola.records.mat`)."""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.i18n import _
from tavola.match import Forfeit, Match, MoneySession, Series
from tavola.position import WinKind
from tavola.records.gamereplay import (
    Cell,
    GameText,
    longest_beaver_chain,
    parse_flag,
    parse_rules,
    read_stake,
    replay_forfeited,
    replay_games,
)
from tavola.records.matformat import VARIATIONS
from tavola.records.outcomes import read_forfeit_tag
from tavola.records.replay import ReplayDice
from tavola.rules import Rules
from tavola.variants import Variant

__all__ = ["parse_mat", "read_mat"]


# --- reading -------------------------------------------------------------------------


def read_mat(path: str | os.PathLike[str], *, dice: DiceSource | None = None) -> Series:
    """Read a ``.mat`` file (see :func:`parse_mat`); errors name the file and the line."""
    raw = Path(path).read_bytes()
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in raw[:200]:
        message = _("{path}: the file is UTF-16 text (or not text at all): save it as UTF-8 to read it")
        raise RecordError(message.format(path=path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        return parse_mat(text, dice=dice)
    except RecordError as error:
        raise RecordError(_("{path}: {error}").format(path=path, error=error), error.line) from None


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


# Numbers are read up to 600 digits, which int() reads whatever Python's limit on digits is set to
# (640 at the least); a longer one is no number a record holds, and its line is refused as it stands.
_TAG = re.compile(r'^[;#]\s*\[(?P<key>[A-Za-z][\w ]*?)\s+"(?P<value>.*)"\]\s*$')
_LENGTH = re.compile(r"^(?P<length>\d{1,600})\s+point\s+match$", re.IGNORECASE)
_GAME = re.compile(r"^Game\s+(?P<number>\d{1,600})$", re.IGNORECASE)
_SCORE = re.compile(
    r"^(?P<name0>[^:]+?)\s*:\s*(?P<score0>\d{1,600})\s+(?P<name1>[^:]+?)\s*:\s*(?P<score1>\d{1,600})"
    r"(?P<crawford>\s*\(Crawford\))?$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"^\s*\d+\)")
_ROLL = re.compile(r"^(?P<die0>\d)(?P<die1>\d):\s*(?P<moves>.*)$")
_CUBE = re.compile(
    r"^(?P<what>doubles|beavers|raccoons|otters|takes|drops)(?:\s*=>\s*(?P<value>\d{1,600}))?$", re.IGNORECASE
)
_RESIGN = re.compile(
    r"^resigns\s+(?:an?\s+)?(?P<kind>single|gammon|backgammon)(?:\s+game)?(?P<declined>\s*\(declined\))?$",
    re.IGNORECASE,
)
_WINS = re.compile(r"^wins\s+(?P<points>\d{1,600})\s+points?(?P<match>\s+and\s+the\s+match)?$", re.IGNORECASE)


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
            message = _(
                "line {line}: expected the match length (such as ' 7 point match') or a "
                "'; [Tag \"value\"]' comment, not {text}"
            )
            raise RecordError(message.format(line=index + 1, text=repr(stripped)), index + 1)
        return _Header(tags, int(length.group("length")), index + 1, index + 1)
    last = max(len(lines), 1)
    message = _("line {line}: no ' N point match' line: not a .mat file, or one cut short")
    raise RecordError(message.format(line=last), last)


def _read_games(lines: Sequence[str], start: int) -> Iterator[GameText]:
    index = start
    game: GameText | None = None
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
            message = _("line {line}: expected ' Game 1', not {text}")
            raise RecordError(message.format(line=index, text=repr(stripped)), index)
        else:
            game.cells += _read_line(lines[index - 1], index)
    if game is not None:
        yield game


def _read_score(lines: Sequence[str], index: int, number: int) -> tuple[GameText, int]:
    heading = index
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines):
        message = _("line {line}: game {number} has no score line (the file is cut short)")
        raise RecordError(message.format(line=heading, number=number), heading)
    score = _SCORE.match(lines[index].strip())
    if score is None:
        message = _("line {line}: expected game {number}'s score line ('Name : 0    Name : 0'), not {text}")
        raise RecordError(
            message.format(line=index + 1, number=number, text=repr(lines[index].strip())), index + 1
        )
    game = GameText(
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


def _read_line(line: str, number: int) -> list[Cell]:
    left, right = _split(line)
    left = _NUMBER.sub("", left, count=1)
    cells = [(0, left), (1, right or "")]
    return [_read_cell(text.strip(), player, number) for player, text in cells if text.strip()]


def _read_cell(text: str, player: int, line: int) -> Cell:
    roll = _ROLL.match(text)
    if roll:
        return _read_roll(text, roll, player, line)
    cube = _CUBE.match(text)
    if cube:
        what = cube.group("what").lower()
        kind = {"doubles": "double", "takes": "take", "drops": "drop"}.get(what, "beaver")
        value = int(cube.group("value")) if cube.group("value") else None
        return Cell(line, player, text, kind, value=value)
    resign = _RESIGN.match(text)
    if resign:
        win_kind = WinKind[resign.group("kind").upper()]
        return Cell(line, player, text, "resign", win_kind=win_kind, flag=bool(resign.group("declined")))
    wins = _WINS.match(text)
    if wins:
        points, match = int(wins.group("points")), bool(wins.group("match"))
        return Cell(line, player, text, "wins", value=points, flag=match)
    message = _(
        "line {line}: cannot read {text}: expected a roll ('53: 8/3 6/3'), 'Doubles => 2', "
        "'Takes', 'Drops', 'Beavers => 4' or 'Wins 1 point'"
    )
    raise RecordError(message.format(line=line, text=repr(text)), line)


def _read_roll(text: str, roll: re.Match[str], player: int, line: int) -> Cell:
    die0, die1 = int(roll.group("die0")), int(roll.group("die1"))
    for die in (die0, die1):
        if not 1 <= die <= 6:
            message = _("line {line}: {text}: a die shows 1 to 6, not {die}")
            raise RecordError(message.format(line=line, text=repr(text), die=die), line)
    moves: str | None = roll.group("moves").strip()
    if moves == "???":
        moves = None
    elif moves is not None and moves.lower().startswith("cannot move"):
        moves = ""
    elif moves is not None and moves.lower().startswith("illegal play"):
        raise RecordError(
            _("line {line}: Snowie's 'Illegal play' records cannot be replayed").format(line=line), line
        )
    return Cell(line, player, text, "roll", dice=Dice(die0, die1), moves=moves)


def _rule_candidates(header: _Header, games: Sequence[GameText]) -> list[Rules]:
    """The rules to replay with: from the tags, else the likely ones (gnubg writes none)."""
    tags = header.tags
    if "Rules" in tags:
        return [parse_rules(*tags["Rules"])]
    crawford = _tag_flag(tags, "Crawford", default=True)
    if header.length:
        return [Rules(crawford=crawford)]
    beavers = max(1 if _tag_flag(tags, "Beaver", default=False) else 0, longest_beaver_chain(games))
    if "Jacoby" in tags:
        return [Rules(jacoby=_tag_flag(tags, "Jacoby", default=False), beavers=beavers)]
    return [Rules(beavers=beavers), Rules(jacoby=True, beavers=beavers)]


def _tag_flag(tags: dict[str, tuple[int, str]], key: str, *, default: bool) -> bool:
    if key not in tags:
        return default
    line, value = tags[key]
    try:
        return parse_flag(value)
    except ValueError:
        message = _("line {line}: the [{key}] tag is On or Off, not {value}")
        raise RecordError(message.format(line=line, key=key, value=repr(value)), line) from None


class _Replay:
    """Replays the games of a .mat text through a new match or session."""

    def __init__(
        self, header: _Header, games: Sequence[GameText], rules: Rules, dice: DiceSource | None
    ) -> None:
        self.header = header
        self.games = games
        self.rules = rules
        self.manual = ManualDice()
        self.series = self._series(ReplayDice(self.manual, dice))

    def _series(self, dice: ReplayDice) -> Series:
        names = self.games[0].names if self.games else self._tag_names()
        line, variant = self.header.line, self._variant()
        stake = 1.0 if self.header.length else self._stake()
        try:
            if self.header.length:
                return Match(self.header.length, self.rules, dice, players=names, variant=variant)
            return MoneySession(self.rules, dice, stake=stake, players=names, variant=variant)
        except TavolaError as error:
            raise RecordError(_("line {line}: {error}").format(line=line, error=error), line) from None

    def _tag_names(self) -> tuple[str, str]:
        tags = self.header.tags
        first = tags.get("Player 1", (0, "Player 0"))[1]
        second = tags.get("Player 2", (0, "Player 1"))[1]
        return first, second

    def _variant(self) -> Variant:
        line, name = self.header.tags.get("Variation", (0, "Backgammon"))
        if name not in VARIATIONS:
            known = ", ".join(repr(key) for key in VARIATIONS)
            message = _("line {line}: Tavola plays the variations {known}, not {name}")
            raise RecordError(message.format(line=line, known=known, name=repr(name)), line)
        return VARIATIONS[name]

    def _stake(self) -> float:
        line, value = self.header.tags.get("Stake", (0, "1"))
        return read_stake(value, line)

    def run(self) -> Series:
        forfeit = self._forfeit()
        if forfeit is None:
            replay_games(self.series, self.manual, self.games)
            return self.series
        line, _value = self.header.tags["Forfeit"]
        replay_forfeited(self.series, self.manual, self.games, forfeit, line)
        return self.series

    def _forfeit(self) -> Forfeit | None:
        """The ``[Forfeit "Player 2 time 2026-05-01T12:00:00Z"]`` tag's forfeit, if there is one."""
        if "Forfeit" not in self.header.tags:
            return None
        line, value = self.header.tags["Forfeit"]
        return read_forfeit_tag(value, line)
