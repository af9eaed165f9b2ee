"""The terminal view of ``tavola play``: it draws, asks and renders a :class:`~tavola.table.GameTable`.

:class:`ConsoleGame` puts a :class:`~tavola.console.session.PlaySession` on a
table and shows what happens there: the table makes the bot's actions,
forced rolls, forced plays and passes, and announces every action as an
event, which a :class:`~tavola.console.events.TableView` says and draws; a
person's seat is asked for a command or a move, passed to the table as an
action. After every action the table calls
the session's autosave, so an interrupted game goes on with
``tavola play --resume``. With a :class:`~tavola.console.tutor.Tutor`, a
person's play or cube action is judged before it goes to the table, and
made only once confirmed when the tutor warns; after a game, ``analyze``
shows the games' analysis. Every text goes through :mod:`tavola.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tavola.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Commit,
    DeclineResignation,
    Double,
    Drop,
    MoveCheckers,
    Played,
    Resign,
    Roll,
    Take,
    Undo,
)
from tavola.analysis.analyze import analyze_series
from tavola.analysis.model import Decision
from tavola.analysis.summary import analysis_summary
from tavola.analysis.words import skill_name
from tavola.bot.advice import NoAdviceError, ask
from tavola.bot.levels import ANALYSIS_LEVEL, HINT_LEVEL, analysis_level, level_title
from tavola.bot.player import Bot
from tavola.console.commands import (
    ANSWERS,
    HELP,
    RESIGN_KINDS,
    SWITCH_WORDS,
    YES_WORDS,
    Command,
    read_command,
)
from tavola.console.engine_ready import prepare_engine, warm_up
from tavola.console.events import TableView
from tavola.console.session import PlaySession
from tavola.console.tutor import Tutor
from tavola.console.view import (
    advice_view,
    help_table,
    pip_line,
    play_lines,
    progress_bar,
    score_line,
    tutor_warning,
)
from tavola.dice import Dice
from tavola.errors import AmbiguousPlayError, IllegalPlayError, TavolaError
from tavola.game import Game, Phase
from tavola.i18n import _, ngettext
from tavola.match import Match
from tavola.play import Play
from tavola.position import WinKind
from tavola.records import save
from tavola.table import GameTable
from tavola.table.events import Event

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
        tutor: Tutor | None = None,
    ) -> None:
        self.session = session
        self.tutor = tutor
        self.console = console
        self.read = read
        self.autosave = autosave
        self.bots = bots or {}
        self._hint_bot: Bot | None = None
        self.view = TableView(session, console)
        self.table = GameTable(
            session.series,
            session.seats,
            bots=self.bots,
            autosave=self._save if autosave is not None else None,
            before_roll=self._before_roll,
        )
        self.table.listen(self._render)

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the series ends or the player quits; returns the exit status."""
        self.console.print(self._welcome())
        seated_bot = next(iter(self.bots.values()), None)
        prepare_engine(self.console, lambda: warm_up(seated_bot))
        series = self.session.series
        try:
            if self.table.game.phase is Phase.MOVE and not self._is_bot(self.table.seat_to_act):
                self.view.draw(self.table.game)  # a turn saved with its dice rolled goes on
            while True:
                if series.is_over:
                    if not self.view.series_announced:
                        self.view.announce_series_end()
                    self._last_words()
                    return 0
                game = self.table.game
                if game.is_over:
                    game = self.table.start_game()
                self.table.advance()
                seat = game.player_to_act
                if seat is not None:
                    self._person_acts(game, seat)
                if game.is_over and not series.is_over and not self._another_game():
                    raise QuitRequest
        except (QuitRequest, EOFError, KeyboardInterrupt):
            self._save()
            self.console.print()
            if self.autosave is not None and not series.is_over:
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
            level = bots[0].bot_level
            assert level is not None
            opponent = _("{name} (the bot, {level})").format(name=bots[0].name, level=level_title(level))
        else:
            opponent = seats[1].name
        return _("Tavola: {first} against {second}, {what}. Type help for the commands.").format(
            first=seats[0].name if not seats[0].is_bot else seats[1].name, second=opponent, what=what
        )

    def _save(self) -> None:
        if self.autosave is not None:
            self.session.save(self.autosave)

    def _name(self, player: int) -> str:
        return self.session.seats[player].name

    def _is_bot(self, player: int | None) -> bool:
        return player is not None and self.session.seats[player].is_bot

    # --- a person -------------------------------------------------------------------------

    def _person_acts(self, game: Game, player: int) -> None:
        self.view.draw(game)
        command = read_command(self.read(self._prompt(game, player)))
        try:
            self._obey(game, player, command)
        except TavolaError as error:
            self._complain(_("Not allowed: {reason}").format(reason=self.table.refusal(error)))

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
            elif turn.moves:
                left = "-".join(str(die) for die in turn.remaining)
                text = _("{name} ({dice}, {left} to play): your move").format(name=name, dice=dice, left=left)
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
            self.view.draw(game, force=True)
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
        elif name == "tutor":
            self._switch_tutor(argument)
        elif name == "analyze":
            self.console.print(_("The analysis comes once the game is over: type analyze after it."))
        elif name == "resign":
            kind = RESIGN_KINDS.get(argument.lower() or "single")
            if kind is None:
                self.console.print(_("Resign a single game, a gammon or a backgammon: resign gammon"))
                return
            self.table.act(player, Resign(WinKind(kind)))
        elif phase is Phase.ROLL:
            self._answer_roll_phase(game, player, name)
        elif phase is Phase.DOUBLED:
            self._answer_double(game, player, name)
        elif phase is Phase.RESIGNATION:
            self._answer_resignation(player, name)
        elif phase is Phase.CHOOSE_DOUBLE:
            self._choose_double(player, command)
        elif phase is Phase.MOVE:
            self._move(game, player, command)

    def _answer_roll_phase(self, game: Game, player: int, name: str) -> None:
        if name in ("enter", "roll"):
            if self._tutor_allows_cube(game, player, None):
                self.table.act(player, Roll())
        elif name == "double":
            if self._tutor_allows_cube(game, player, Double()):
                self.table.act(player, Double())
        elif name in ANSWERS:
            self.console.print(_("No double or resignation is waiting for an answer."))
        else:
            self.console.print(_("Roll (Enter) or double; type help for more."))

    def _answer_double(self, game: Game, player: int, name: str) -> None:
        actions: dict[str, Action] = {"take": Take(), "drop": Drop(), "beaver": Beaver()}
        if name not in actions:
            self.console.print(_("Answer the double: take, drop or beaver."))
            return
        if self._tutor_allows_cube(game, player, actions[name]):
            self.table.act(player, actions[name])

    def _answer_resignation(self, player: int, name: str) -> None:
        actions: dict[str, Action] = {"take": AcceptResignation(), "drop": DeclineResignation()}
        if name not in actions:
            self.console.print(_("Answer the resignation: accept or decline."))
            return
        self.table.act(player, actions[name])

    def _choose_double(self, player: int, command: Command) -> None:
        text = command.argument if command.name == "move" else ""
        if not (text.isdigit() and 1 <= int(text) <= 6):
            self.console.print(_("Type a number from 1 to 6: the double you will play."))
            return
        self.table.act(player, ChooseDouble(int(text)))

    def _move(self, game: Game, player: int, command: Command) -> None:
        turn = game.turn
        assert turn is not None
        if command.name in ("enter", "commit"):
            if turn.is_complete and turn.moves:
                if self._tutor_allows_play(game, player, turn.play):
                    self.table.act(player, Commit())
            else:
                self.console.print(_("Type your move, such as 24/18 13/10 (help lists the commands)."))
            return
        if command.name == "undo":
            self.table.act(player, Undo())
            return
        if command.name == "double":
            self.console.print(_("Doubling comes before the roll: play this roll first."))
            return
        if command.name == "roll":
            self.console.print(_("The dice are rolled: play them."))
            return
        if command.name in ANSWERS:
            self.console.print(_("No double or resignation is waiting for an answer."))
            return
        if command.name != "move":
            self.console.print(_("Move your checkers first (help lists the commands)."))
            return
        text = command.argument
        if turn.moves:
            self.table.act(player, MoveCheckers(text))
            return
        try:
            play = turn.parse_play(text)
        except AmbiguousPlayError:
            raise
        except IllegalPlayError as error:
            # Not a whole play: perhaps the first checkers of one, to finish later.
            try:
                self.table.act(player, MoveCheckers(text))
            except TavolaError:
                raise error from None
            return
        if self._tutor_allows_play(game, player, play):
            self.table.act(player, Played(play))

    # --- the tutor ----------------------------------------------------------------------------

    def _switch_tutor(self, argument: str) -> None:
        """``tutor on`` or ``tutor off``; ``tutor`` alone says whether it is on."""
        word = argument.strip().lower()
        if word:
            if word not in SWITCH_WORDS:
                self.console.print(_("Type tutor on or tutor off."))
                return
            if self.tutor is None:
                self.tutor = Tutor(evaluator=self._advisor().evaluator)
            self.tutor.on = SWITCH_WORDS[word]
        if self.tutor is not None and self.tutor.on:
            self.console.print(
                _("The tutor is on: it warns before a {skill} play or cube action, or a worse one.").format(
                    skill=skill_name(self.tutor.warns_from)
                )
            )
        else:
            self.console.print(_("The tutor is off."))

    def _tutor_allows_play(self, game: Game, player: int, play: Play) -> bool:
        """Whether to make ``play``: the tutor finds nothing to warn about, or the person confirms."""
        if self.tutor is None or not self.tutor.on:
            return True
        try:
            with self.console.status(_("The tutor is thinking...")):
                decision = self.tutor.check_move(game, play, self.table.cube_context(player))
        except TavolaError as error:
            return self._unjudged(error)
        return self._confirmed(decision)

    def _tutor_allows_cube(self, game: Game, player: int, action: Action | None) -> bool:
        """Whether to make a cube ``action`` (None: rolling without doubling), as for a play.

        Rolling is judged only where the person may double.
        """
        if self.tutor is None or not self.tutor.on:
            return True
        if action is None and not game.may_double(player):
            return True
        try:
            with self.console.status(_("The tutor is thinking...")):
                decision = self.tutor.check_cube(game, action, self.table.cube_context(player))
        except TavolaError as error:
            return self._unjudged(error)
        return self._confirmed(decision)

    def _unjudged(self, error: TavolaError) -> bool:
        """What the tutor cannot judge is made without its word (the person decides alone)."""
        self.console.print(Text(_("The tutor cannot judge this: {reason}").format(reason=error), style="dim"))
        return True

    def _confirmed(self, decision: Decision | None) -> bool:
        """No warning, or the warning shown and the person still wants to go on."""
        if decision is None:
            return True
        self.console.print(tutor_warning(decision))
        answer = self.read(_("Do it anyway? yes: go on; no or Enter: think again > ")).strip().lower()
        if answer in YES_WORDS or read_command(answer).name == "take":
            return True
        self.console.print(_("Think again: nothing was done."))
        return False

    def _before_roll(self, player: int, opening: bool) -> None:
        """Typed dice are asked for before the table rolls them."""
        manual = self.session.manual_dice
        if manual is None or manual.pending:
            return
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

    def _complain(self, text: str) -> None:
        self.console.print(Text(text, style="red"))

    # --- what happens at the table ----------------------------------------------------------

    def _render(self, event: Event) -> None:
        """Say what happened and draw the board where a person will play (:class:`TableView`)."""
        self.view.show(event, self.table.game)

    def _another_game(self) -> bool:
        """Between games: go on (Enter), stop, or save the series first."""
        while True:
            if isinstance(self.session.series, Match):
                prompt = _("Enter: the next game; analyze; save FILE: export the match; quit: stop > ")
            else:
                prompt = _("Enter: another game; analyze; save FILE: export the session; quit: stop > ")
            command = read_command(self.read(prompt))
            if command.name == "save":
                self._export(command.argument)
            elif command.name == "analyze":
                self._analyze(command.argument)
            elif command.name == "tutor":
                self._switch_tutor(command.argument)
            elif command.name == "quit":
                return False
            elif command.name in ("enter", "take", "roll"):
                return True

    def _last_words(self) -> None:
        """After the match: saving it is still possible."""
        while True:
            command = read_command(
                self.read(_("The match is over. analyze; save FILE: export it; Enter: leave > "))
            )
            if command.name in ("enter", "quit"):
                return
            if command.name == "save":
                self._export(command.argument)
            elif command.name == "analyze":
                self._analyze(command.argument)
            else:
                self._complain(_("Type save FILE to export the match, or Enter to leave."))

    # --- help, hints, lists, files ------------------------------------------------------------

    def _help(self) -> None:
        self.console.print(help_table(HELP))

    def _hint(self, game: Game, player: int) -> None:
        try:
            question = ask(game, player, self.table.cube_context(player))
        except NoAdviceError:
            self.console.print(_("No hint here."))
            return
        self.console.print(advice_view(self._advisor().advise(question)))

    def _advisor(self) -> Bot:
        """The bot that gives hints: the strongest level, sharing the evaluator of any bot seat."""
        if self._hint_bot is None:
            seated = next(iter(self.bots.values()), None)
            self._hint_bot = Bot(seated.evaluator if seated else None, HINT_LEVEL)
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
        for line in play_lines(plays, self.console.width):
            self.console.print(line, highlight=False, soft_wrap=True)

    def _analyze(self, level: str) -> None:
        """The games played so far analysed (at ``level``, the analysis's strongest if empty) and shown as
        ``tavola analyze`` shows them."""
        try:
            chosen = analysis_level(level) if level else ANALYSIS_LEVEL
        except TavolaError as error:
            self._complain(str(error))
            return
        seated = next(iter(self.bots.values()), None)
        names = (self._name(0), self._name(1))
        with progress_bar(self.console, _("Analysing...")) as progress:
            analysis = analyze_series(
                self.session.series,
                level=chosen,
                evaluator=seated.evaluator if seated else None,
                names=names,
                progress=progress,
            )
        self.console.print(analysis_summary(analysis))

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
