"""The game loop of ``tavola play``: draw, ask, act, save, until the match ends or the player stops.

:class:`ConsoleGame` runs a :class:`~tavola.console.session.PlaySession`:
the bot's seats act by themselves (:func:`~tavola.bot.actor.choose_action`),
a person's seat is asked for a command or a move, forced plays and passes
are made and announced, and after every action the session is saved to the
autosave file, so an interrupted game goes on with ``tavola play --resume``.
Every text goes through :mod:`tavola.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    DeclineResignation,
    Double,
    Drop,
    Played,
    Resign,
    Roll,
    Take,
)
from tavola.bot.actor import choose_action, should_resign
from tavola.bot.cube import game_decision
from tavola.bot.player import Bot
from tavola.console.commands import HELP, RESIGN_KINDS, Command, read_command
from tavola.console.session import PlaySession
from tavola.console.view import board, cube_hint, hint_table, pip_line, score_line
from tavola.dice import Dice
from tavola.errors import AmbiguousPlayError, IllegalPlayError, TavolaError
from tavola.game import Ending, Game, Phase
from tavola.i18n import _, ngettext
from tavola.match import Match, MatchScore
from tavola.position import WinKind
from tavola.records import save

Reader = Callable[[str], str]


class QuitRequest(Exception):  # noqa: N818 - a request, not an error
    """The player asked to stop (or the input ended)."""


class ConsoleGame:
    """Plays ``session`` at a terminal: ``console`` shows, ``read`` asks (it gets the prompt)."""

    def __init__(
        self,
        session: PlaySession,
        console: Console,
        read: Reader,
        *,
        autosave: Path | None = None,
        bots: dict[int, Bot] | None = None,
    ) -> None:
        self.session = session
        self.console = console
        self.read = read
        self.autosave = autosave
        self.bots = bots or {}
        self._hint_bot: Bot | None = None
        self._declined_resignation: set[int] = set()  # games where a bot's resignation was declined
        self._shown: object = None  # what the board last drawn showed, not to draw it twice

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the series ends or the player quits; returns the exit status."""
        self.console.print(self._welcome())
        try:
            while True:
                game = self.session.current_game()
                if game.is_over:  # the series is over
                    self._announce_series_end()
                    self._last_words()
                    return 0
                self._step(game)
                self._save()
                if game.is_over:
                    self._announce_game_end(game)
                    if not self.session.series.is_over and not self._another_game():
                        raise QuitRequest
        except (QuitRequest, EOFError, KeyboardInterrupt):
            self._save()
            self.console.print()
            if self.autosave is not None and not self.session.series.is_over:
                self.console.print(_("Saved. Type `tavola play --resume` to go on."))
            return 0

    def _welcome(self) -> str:
        """What is being played, and how to get help."""
        seats = self.session.seats
        series = self.session.series
        what = (
            _("a match to {length}").format(length=series.length)
            if isinstance(series, Match)
            else _("a money session")
        )
        if series.variant.name != "standard":
            what += f" ({series.variant.name})"
        bots = [seat for seat in seats if seat.is_bot]
        if bots:
            opponent = _("{name} (the bot, {level})").format(name=bots[0].name, level=bots[0].bot_level)
        else:
            opponent = seats[1].name
        return _("Tavola: {first} against {second}, {what}. Type help for the commands.").format(
            first=seats[0].name if not seats[0].is_bot else seats[1].name, second=opponent, what=what
        )

    def _step(self, game: Game) -> None:
        """One action by the player to act."""
        player = game.player_to_act
        assert player is not None
        if self.session.seats[player].is_bot:
            self._bot_acts(game, player)
        else:
            self._person_acts(game, player)

    def _save(self) -> None:
        if self.autosave is not None:
            self.session.save(self.autosave)

    def _name(self, player: int) -> str:
        return self.session.seats[player].name

    def _viewer(self, game: Game) -> int:
        """Whose side the board is drawn from: the person playing, or the player to act."""
        people = [index for index, seat in enumerate(self.session.seats) if not seat.is_bot]
        acting = game.player_to_act
        if len(people) == 1:
            return people[0]
        return acting if acting is not None else game.player_on_roll

    def _draw(self, game: Game, *, force: bool = False) -> None:
        state = (id(game), len(game.log), game.position, game.dice, game.phase)
        if state == self._shown and not force:
            return
        self._shown = state
        self.console.print()
        self.console.print(board(self.session, game, self._viewer(game)))

    # --- the bot ----------------------------------------------------------------------------

    def _bot_acts(self, game: Game, player: int) -> None:
        bot = self.bots[player]
        away = self.session.away(player)
        if game.phase is Phase.ROLL and len(self.session.series.games) not in self._declined_resignation:
            kind = should_resign(bot, game)
            if kind is not None:
                game.resign(kind)
                self.console.print(_resigns_text(self._name(player), kind))
                return
        action = choose_action(bot, game, away)
        self._apply(game, action, player)

    # --- a person -------------------------------------------------------------------------

    def _person_acts(self, game: Game, player: int) -> None:
        phase = game.phase
        if phase is Phase.OPENING:
            self._roll(game, player, opening=True)
            return
        if phase is Phase.ROLL and not game.may_double():
            self._roll(game, player)
            return
        if phase is Phase.MOVE and self._forced(game, player):
            return
        self._draw(game)
        command = read_command(self.read(self._prompt(game, player)))
        try:
            self._obey(game, player, command)
        except TavolaError as error:
            self._complain(_("Not allowed: {reason}").format(reason=error))

    def _prompt(self, game: Game, player: int) -> str:
        name = self._name(player)
        phase = game.phase
        if phase is Phase.ROLL:
            text = _("{name}: roll (Enter) or double").format(name=name)
        elif phase is Phase.DOUBLED:
            offer = game.offer
            assert offer is not None
            if game.player_on_roll == player:
                text = _("{name}: the cube is beavered to {value}; take or drop").format(
                    name=name, value=offer[0]
                )
            else:
                text = _("{name}: you are doubled to {value}; take, drop or beaver").format(
                    name=name, value=offer[0]
                )
                if Beaver() not in game.legal_actions():
                    text = _("{name}: you are doubled to {value}; take or drop").format(
                        name=name, value=offer[0]
                    )
        elif phase is Phase.RESIGNATION:
            resignation = game.resignation
            assert resignation is not None
            text = _("{name}: accept or decline the resignation").format(name=name)
        elif phase is Phase.CHOOSE_DOUBLE:
            text = _("{name}: choose the double to play (1-6)").format(name=name)
        else:
            turn = game.turn
            assert turn is not None
            dice = f"{turn.dice.high}-{turn.dice.low}"
            if turn.is_complete and turn.moves:
                text = _("{name} ({dice}): Enter to commit, or undo").format(name=name, dice=dice)
            else:
                text = _("{name} ({dice}): your move").format(name=name, dice=dice)
        return f"{text} > "

    def _obey(self, game: Game, player: int, command: Command) -> None:
        name, argument = command.name, command.argument
        phase = game.phase
        if name == "help":
            self._help()
        elif name == "quit":
            raise QuitRequest
        elif name == "board":
            self._draw(game, force=True)
        elif name == "pip":
            self.console.print(pip_line(self.session, game))
        elif name == "score":
            self.console.print(score_line(self.session))
        elif name == "hint":
            self._hint(game, player)
        elif name == "moves":
            self._list_moves(game)
        elif name == "save":
            self._export(argument)
        elif name == "resign":
            kind = RESIGN_KINDS.get(argument.lower() or "single")
            if kind is None:
                self.console.print(_("Resign a single game, a gammon or a backgammon: resign gammon"))
                return
            self._apply(game, Resign(WinKind(kind)), player)
        elif phase is Phase.ROLL:
            self._answer_roll_phase(game, player, name)
        elif phase is Phase.DOUBLED:
            self._answer_double(game, player, name)
        elif phase is Phase.RESIGNATION:
            self._answer_resignation(game, player, name)
        elif phase is Phase.CHOOSE_DOUBLE:
            self._choose_double(game, player, command)
        elif phase is Phase.MOVE:
            self._move(game, player, command)

    def _answer_roll_phase(self, game: Game, player: int, name: str) -> None:
        if name in ("enter", "roll"):
            self._roll(game, player)
        elif name == "double":
            self._apply(game, Double(), player)
        else:
            self.console.print(_("Roll (Enter) or double; type help for more."))

    def _answer_double(self, game: Game, player: int, name: str) -> None:
        actions: dict[str, Action] = {"take": Take(), "drop": Drop(), "beaver": Beaver()}
        if name not in actions:
            self.console.print(_("Answer the double: take, drop or beaver."))
            return
        self._apply(game, actions[name], player)

    def _answer_resignation(self, game: Game, player: int, name: str) -> None:
        actions: dict[str, Action] = {"take": AcceptResignation(), "drop": DeclineResignation()}
        if name not in actions:
            self.console.print(_("Answer the resignation: accept or decline."))
            return
        self._apply(game, actions[name], player)

    def _choose_double(self, game: Game, player: int, command: Command) -> None:
        text = command.argument if command.name == "move" else ""
        if not (text.isdigit() and 1 <= int(text) <= 6):
            self.console.print(_("Type a number from 1 to 6: the double you will play."))
            return
        self._apply(game, ChooseDouble(int(text)), player)

    def _move(self, game: Game, player: int, command: Command) -> None:
        turn = game.turn
        assert turn is not None
        if command.name in ("enter", "commit"):
            if turn.is_complete and turn.moves:
                self._commit(game, player)
            else:
                self.console.print(_("Type your move, such as 24/18 13/10 (help lists the commands)."))
            return
        if command.name == "undo":
            game.undo(player)
            self._draw(game)
            return
        if command.name != "move":
            self.console.print(_("Move your checkers first (help lists the commands)."))
            return
        text = command.argument
        if not turn.moves:
            try:
                game.play(text, player)
            except AmbiguousPlayError:
                raise
            except IllegalPlayError as error:
                # Not a whole play: perhaps the first checkers of one, to finish later.
                try:
                    game.move(text, player)
                except TavolaError:
                    raise error from None
                self._draw(game)
                return
            self._announce_play(game, player)
            return
        game.move(text, player)
        self._draw(game)

    def _commit(self, game: Game, player: int) -> None:
        game.commit(player)
        self._announce_play(game, player)

    def _forced(self, game: Game, player: int) -> bool:
        """Make a forced play (one legal play, a pass included) and say so; False when there is a choice."""
        turn = game.turn
        assert turn is not None
        if turn.moves or len(turn.legal) != 1:
            return False
        play = next(iter(turn.legal))
        self._draw(game)
        game.play(play, player)
        dice = f"{play.dice.high}-{play.dice.low}"
        if play.moves:
            self.console.print(
                _("{name} rolls {dice}: the only legal play is {play}").format(
                    name=self._name(player), dice=dice, play=play.notation
                )
            )
        else:
            self.console.print(
                _("{name} rolls {dice} and cannot move").format(name=self._name(player), dice=dice)
            )
        return True

    def _roll(self, game: Game, player: int, *, opening: bool = False) -> None:
        """Roll for ``player``: from the dice source, or asking for typed dice when they are manual."""
        if self.session.manual_dice is not None and not self.session.manual_dice.pending:
            self._ask_dice(game, player, opening)
        dice = game.roll(player)
        if game.phase is Phase.OPENING:  # a tie on the opening roll
            self.console.print(_("Both players rolled the same number: the opening roll is rolled again."))
            if game.cube.value > 1:
                self.console.print(
                    _("Automatic double: the cube is now at {value}.").format(value=game.cube.value)
                )
            return
        assert dice is not None
        if opening:
            self.console.print(
                _("Opening roll {dice}: {name} plays first.").format(
                    dice=f"{dice.high}-{dice.low}", name=self._name(game.player_on_roll)
                )
            )

    def _ask_dice(self, game: Game, player: int, opening: bool) -> None:
        manual = self.session.manual_dice
        assert manual is not None
        while True:
            if opening:
                text = self.read(
                    _("Opening roll: {first}'s die and {second}'s die (e.g. 5 3) > ").format(
                        first=self._name(0), second=self._name(1)
                    )
                )
            else:
                text = self.read(_("{name}'s dice (e.g. 31) > ").format(name=self._name(player)))
            if read_command(text).name == "quit":
                raise QuitRequest
            try:
                if opening:
                    digits = [int(char) for char in text if char.isdigit()]
                    if len(digits) != 2:
                        raise TavolaError(_("two dice, such as 5 3"))
                    manual.enter_opening(digits[0], digits[1])
                else:
                    manual.enter(Dice.parse(text))
                return
            except TavolaError as error:
                self._complain(str(error))

    # --- acting and telling ------------------------------------------------------------------

    def _complain(self, text: str) -> None:
        self.console.print(Text(text, style="red"))

    def _apply(self, game: Game, action: Action, player: int) -> None:
        """Do ``action`` for ``player`` and say what happened."""
        name = self._name(player)
        match action:
            case Roll():
                self._roll(game, player, opening=game.phase is Phase.OPENING)
            case Played(play):
                game.apply(action, player)
                dice = f"{play.dice.high}-{play.dice.low}"
                if play.moves:
                    text = _("{name} rolls {dice} and plays {play}").format(
                        name=name, dice=dice, play=play.notation
                    )
                else:
                    text = _("{name} rolls {dice} and cannot move").format(name=name, dice=dice)
                self.console.print(text)
                self._draw(game)
                return
            case Double():
                value = game.cube.value * 2
                game.apply(action, player)
                self.console.print(_("{name} doubles to {value}.").format(name=name, value=value))
            case Take():
                resignation = game.phase is Phase.RESIGNATION
                game.apply(action, player)
                if not resignation:
                    self.console.print(_("{name} takes.").format(name=name))
                    if game.phase is Phase.DOUBLED:  # an automatic beaver
                        self.console.print(
                            _("Automatic beaver: the cube goes to {value}.").format(
                                value=game.offer[0] if game.offer else game.cube.value
                            )
                        )
            case Drop():
                game.apply(action, player)
                self.console.print(_("{name} drops.").format(name=name))
            case Beaver():
                game.apply(action, player)
                offer = game.offer
                self.console.print(
                    _("{name} beavers: the cube is at {value}.").format(
                        name=name, value=offer[0] if offer else game.cube.value
                    )
                )
            case AcceptResignation():
                game.apply(action, player)
                self.console.print(_("{name} accepts the resignation.").format(name=name))
            case DeclineResignation():
                game.apply(action, player)
                self._declined_resignation.add(len(self.session.series.games))
                self.console.print(_("{name} declines the resignation: play goes on.").format(name=name))
            case ChooseDouble(number):
                game.apply(action, player)
                self.console.print(_("{name} chooses double {number}s.").format(name=name, number=number))
            case Resign(kind):
                game.apply(action, player)
                self.console.print(_resigns_text(name, kind))
            case _:
                game.apply(action, player)

    def _announce_play(self, game: Game, player: int) -> None:
        entry = game.log[-1]
        if isinstance(entry.action, Played):
            play = entry.action.play
            self.console.print(
                _("{name} plays {play}").format(name=self._name(player), play=play.notation or _("(no move)"))
            )

    def _announce_game_end(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        self._draw(game, force=True)
        name = self._name(outcome.winner)
        how = {
            WinKind.SINGLE: _("a single game"),
            WinKind.GAMMON: _("a gammon"),
            WinKind.BACKGAMMON: _("a backgammon"),
        }[outcome.kind]
        if outcome.checkers_left is not None:
            how = ngettext("{count} checker left", "{count} checkers left", outcome.checkers_left).format(
                count=outcome.checkers_left
            )
        ending = {
            Ending.BEAR_OFF: "",
            Ending.DROP: _(" (double dropped)"),
            Ending.RESIGNATION: _(" (resignation)"),
        }[outcome.ending]
        self.console.print(
            Text(
                ngettext(
                    "{name} wins {how}{ending}: {points} point.",
                    "{name} wins {how}{ending}: {points} points.",
                    outcome.points,
                ).format(name=name, how=how, ending=ending, points=outcome.points),
                style="bold",
            )
        )
        self.console.print(score_line(self.session))

    def _announce_series_end(self) -> None:
        series = self.session.series
        if isinstance(series, Match) and series.winner is not None:
            text = _("{name} wins the match {score}.").format(
                name=self._name(series.winner), score="-".join(str(s) for s in series.score)
            )
            self.console.print(Text(text, style="bold"))

    def _another_game(self) -> bool:
        """Between games: go on (Enter), stop, or save the series first."""
        while True:
            if isinstance(self.session.series, Match):
                prompt = _("Enter: the next game; save FILE: export the match; quit: stop > ")
            else:
                prompt = _("Enter: another game; save FILE: export the session; quit: stop > ")
            command = read_command(self.read(prompt))
            if command.name == "save":
                self._export(command.argument)
            elif command.name == "quit":
                return False
            elif command.name in ("enter", "take", "roll"):
                return True

    def _last_words(self) -> None:
        """After the match: saving it is still possible."""
        while True:
            command = read_command(self.read(_("The match is over. save FILE: export it; Enter: leave > ")))
            if command.name != "save":
                return
            self._export(command.argument)

    # --- help, hints, lists, files ------------------------------------------------------------

    def _help(self) -> None:
        table = Table(title=_("Commands"), title_justify="left", show_header=False, box=None)
        table.add_column(style="bold")
        table.add_column()
        for example, meaning in HELP:
            table.add_row(Text(example), Text(_(meaning)))
        self.console.print(table)

    def _hint(self, game: Game, player: int) -> None:
        bot = self._advisor()
        if game.phase is Phase.MOVE:
            turn = game.turn
            assert turn is not None
            away = self.session.away(player)
            match = None if away is None else MatchScore.from_away(away, game.crawford)
            choices = bot.hint(turn.start, turn.dice, game.variant, match=match, cube_value=game.cube.value)
            self.console.print(hint_table(choices))
            return
        if game.phase in (Phase.ROLL, Phase.DOUBLED) and game.rules.cube and game.variant.cube:
            away = self.session.away(game.player_on_roll)
            decision = game_decision(game, bot.probabilities(game.position), away)
            self.console.print(cube_hint(decision))
            return
        self.console.print(_("No hint here."))

    def _advisor(self) -> Bot:
        """The bot that gives hints: the strongest level, sharing the evaluator of any bot seat."""
        if self._hint_bot is None:
            seated = next(iter(self.bots.values()), None)
            self._hint_bot = Bot(seated.evaluator if seated else None, "world-class")
        return self._hint_bot

    def _list_moves(self, game: Game) -> None:
        turn = game.turn
        if game.phase is not Phase.MOVE or turn is None:
            self.console.print(_("There are no dice to play yet."))
            return
        plays = [play.notation or _("(no move)") for play in turn.legal]
        self.console.print(
            ngettext("{count} legal play:", "{count} legal plays:", len(plays)).format(count=len(plays))
        )
        self.console.print("  " + "   ".join(plays), highlight=False)

    def _export(self, argument: str) -> None:
        if not argument:
            self.console.print(_("Name the file: save match.mat (or .json)"))
            return
        path = Path(argument).expanduser()
        try:
            save(self.session.series, path)
        except OSError as error:
            self._complain(_("Cannot write {path}: {reason}").format(path=path, reason=error.strerror))
            return
        except TavolaError as error:
            self._complain(str(error))
            return
        self.console.print(_("Saved to {path}.").format(path=path))


def _resigns_text(name: str, kind: WinKind) -> str:
    return {
        WinKind.SINGLE: _("{name} resigns a single game."),
        WinKind.GAMMON: _("{name} resigns a gammon."),
        WinKind.BACKGAMMON: _("{name} resigns a backgammon."),
    }[kind].format(name=name)
