"""Reading ``.mat`` files by replaying them through the game (see :mod:`tavola.records.mat`)."""

from __future__ import annotations

import codecs
import dataclasses
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tavola.actions import (
    Double,
)
from tavola.dice import Dice
from tavola.dicesource import DiceSource, ManualDice
from tavola.errors import RecordError, TavolaError
from tavola.game import Ending, Game, Phase
from tavola.i18n import _, ngettext
from tavola.match import Match, MoneySession, Series, scores_before
from tavola.position import WinKind
from tavola.records.matformat import VARIATIONS
from tavola.records.replay import ReplayDice, play_text
from tavola.rules import Rules, checked_stake
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
            message = _("line {line}: expected ' Game 1', not {text}")
            raise RecordError(message.format(line=index, text=repr(stripped)), index)
        else:
            game.records += _read_line(lines[index - 1], index)
    if game is not None:
        yield game


def _read_score(lines: Sequence[str], index: int, number: int) -> tuple[_GameText, int]:
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
    message = _(
        "line {line}: cannot read {text}: expected a roll ('53: 8/3 6/3'), 'Doubles => 2', "
        "'Takes', 'Drops', 'Beavers => 4' or 'Wins 1 point'"
    )
    raise RecordError(message.format(line=line, text=repr(text)), line)


def _read_roll(text: str, roll: re.Match[str], player: int, line: int) -> _Record:
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
        message = _("line {line}: the [{key}] tag is On or Off, not {value}")
        raise RecordError(message.format(line=line, key=key, value=repr(value)), line) from None


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
        name, _equals, value = part.partition("=")
        name = name.strip()
        if name not in known:
            message = _("line {line}: the [Rules] tag names no rule {name}")
            raise RecordError(message.format(line=line, name=repr(name)), line)
        try:
            settings[name] = int(value) if known[name].type in ("int", int) else _flag(value)
        except ValueError:
            message = _("line {line}: [Rules] {name}={value} is not a setting")
            raise RecordError(message.format(line=line, name=name, value=repr(value.strip())), line) from None
    try:
        return Rules(**settings)  # type: ignore[arg-type]
    except TavolaError as error:
        raise RecordError(_("line {line}: [Rules]: {error}").format(line=line, error=error), line) from None


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
        try:
            stake = int(value) if value.strip().isdigit() else float(value)
        except ValueError:
            message = _("line {line}: the stake is a number, not {value}")
            raise RecordError(message.format(line=line, value=repr(value)), line) from None
        try:
            return checked_stake(stake)
        except TavolaError as error:
            raise RecordError(_("line {line}: {error}").format(line=line, error=error), line) from None

    def run(self) -> Series:
        for index, text in enumerate(self.games):
            self._check_heading(index, text)
            try:
                game = self.series.new_game()
            except TavolaError as error:
                message = _("line {line}: game {number} cannot start: {error}")
                raise RecordError(
                    message.format(line=text.line, number=text.number, error=error), text.line
                ) from None
            if text.crawford and not game.crawford:
                message = _("line {line}: game {number} is marked as the Crawford game, but it is not (P2)")
                raise RecordError(message.format(line=text.score_line, number=text.number), text.score_line)
            _GameReplay(self.series, game, text, self.manual).run()
        return self.series

    def _check_heading(self, index: int, text: _GameText) -> None:
        if text.number != index + 1:
            message = _("line {line}: expected game {expected}, not game {number}")
            raise RecordError(
                message.format(line=text.line, expected=index + 1, number=text.number), text.line
            )
        if text.names != self.series.players:
            message = _(
                "line {line}: the players are {first} and {second}, not {named_first} and {named_second}"
            )
            players = self.series.players
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
        expected = scores_before(self.series, index)
        if text.score != expected:
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
                # TRANSLATORS: {text} is a quoted cell of a .mat file ('52: 8/3 6/4'); {error}: what is wrong.
                message = _("line {line}: {text}: {error}")
                raise RecordError(
                    message.format(line=record.line, text=repr(record.text), error=error), record.line
                ) from None
            finally:
                self.manual.clear()
        if self.game.is_over and not self.won:
            line = records[-1].line if records else self.text.score_line
            message = _(
                "line {line}: game {number} is over here, but its 'Wins' line is missing "
                "(the file is cut short)"
            )
            raise RecordError(message.format(line=line, number=self.text.number), line)

    def _apply(self, record: _Record, following: _Record | None) -> None:
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
            message = _("line {line}: {text}: the cube goes to {cube}, not {value}")
            raise RecordError(
                message.format(line=record.line, text=repr(record.text), cube=offer[0], value=record.value),
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

    def _check_resigner(self, record: _Record) -> None:
        if self.game.player_to_act == record.player:
            loser = self.series.players[1 - record.player]
            message = _(
                "line {line}: {text}: {loser} resigns here, on the other player's turn; "
                "Tavola takes a resignation only from the player whose turn it is (C6)"
            )
            raise RecordError(
                message.format(line=record.line, text=repr(record.text), loser=loser), record.line
            )

    def _resigned_kind(self, record: _Record) -> WinKind:
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
