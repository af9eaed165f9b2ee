"""A chouette at one terminal: the board, every cube, the ledger, and each player typing in turn.

:class:`ChouetteConsole` is the terminal view of a
:class:`~tavola.table.ChouetteTable`, for players sharing a keyboard (and
bots in the seats they fill). Before each action it draws the board, always
from the box's side (its checkers X), the cubes (one line per bet) and what
is waiting; then it lists the actions allowed now, numbered, with who may
take them. A player types
the number, or the action in words (``Cid double``, ``Cid double Ann Ben``,
``Ben take``, ``Dee suggest 13/7 8/7``); the roller types the checker play
(``24/18 13/10``, one checker at a time with ``undo``, Enter to commit).
Everything that happens is rendered from the table's events; after every
action the table saves the session, so ``tavola chouette --resume`` goes on
after a crash. Between games, ``analyze`` shows the games analysed cube by
cube (:mod:`tavola.analysis.chouette`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from tavola.actions import Commit, MoveCheckers, OpeningRoll, Played, Roll, Undo
from tavola.analysis.chouette import analyze_chouette
from tavola.analysis.summary import chouette_analysis_view
from tavola.bot.advice import ask_chouette
from tavola.bot.levels import ANALYSIS_LEVEL, HINT_LEVEL, analysis_level
from tavola.bot.player import Bot
from tavola.chouette import (
    AcceptPartnership,
    Beaver,
    Chouette,
    ChouetteGame,
    DeclineExtra,
    DeclinePartnership,
    Double,
    Drop,
    GiveExtra,
    Phase,
    PlayerAction,
    Side,
    Suggest,
    Take,
)
from tavola.chouette.actions import ChouetteAction, Join, Leave
from tavola.console.commands import MOVE_HELP, read_command
from tavola.console.engine_ready import prepare_engine, warm_up
from tavola.console.view import (
    advice_view,
    help_table,
    play_lines,
    progress_bar,
)
from tavola.errors import TavolaError
from tavola.i18n import _, ngettext
from tavola.render.text import rich_board
from tavola.table import ChouetteTable
from tavola.table.events import (
    CheckersMoved,
    ChouetteActed,
    ChouetteGameOver,
    ChouetteGameStarted,
    Event,
    MoveUndone,
    OrderDrawn,
    PlayMade,
)

Reader = Callable[[str], str]


class ChouetteConsole:
    """Plays the chouette ``table`` at a terminal: ``console`` shows, ``read`` asks; ``bots`` plays for
    the players it names."""

    def __init__(
        self,
        table: Chouette,
        console: Console,
        read: Reader,
        *,
        autosave: Path | None = None,
        bots: dict[str, Bot] | None = None,
    ) -> None:
        self.chouette = table
        self.console = console
        self.read = read
        self.autosave = autosave
        self._shown: object = None  # what the board last drawn showed, not to draw it twice
        self._hint_bot: Bot | None = None
        self.table = ChouetteTable(table, bots=bots, autosave=self._save if autosave is not None else None)
        self.table.listen(self._render)

    def run(self) -> int:
        """Play games until the players stop; returns the exit status."""
        prepare_engine(self.console, lambda: warm_up(next(iter(self.table.bots.values()), None)))
        try:
            while True:
                game = self.chouette.game_in_progress
                if game is None:
                    if self.chouette.games and not self._between_games():
                        break
                    while not self.chouette.can_start():
                        if not self._between_games():
                            raise EOFError
                    game = self.table.start_game()
                self.table.advance()
                if not game.is_over:
                    self._step(game)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
        self._save()
        self.console.print(self._ledger_table())
        if self.autosave is not None:
            self.console.print(_("Saved. Type `tavola chouette --resume` to go on."))
        return 0

    def _analyze(self, level: str) -> None:
        """The games played so far analysed, cube by cube, with every player's figures."""
        if not self.chouette.games:
            self.console.print(_("No game has been played yet."))
            return
        try:
            chosen = analysis_level(level) if level else ANALYSIS_LEVEL
        except TavolaError as error:
            self._complain(str(error))
            return
        seated = next(iter(self.table.bots.values()), None)
        with progress_bar(self.console, _("Analysing...")) as progress:
            analysis = analyze_chouette(
                self.chouette,
                level=chosen,
                evaluator=seated.evaluator if seated else None,
                progress=progress,
            )
        self.console.print(chouette_analysis_view(analysis))

    def _advisor(self) -> Bot:
        """The bot that gives hints: the strongest level, sharing the evaluator of any bot seat."""
        if self._hint_bot is None:
            seated = next(iter(self.table.bots.values()), None)
            self._hint_bot = Bot(seated.evaluator if seated else None, HINT_LEVEL)
        return self._hint_bot

    def _save(self) -> None:
        if self.autosave is not None:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            self.chouette.save(self.autosave)

    def _complain(self, text: str) -> None:
        self.console.print(Text(text, style="red"))

    # --- between games -----------------------------------------------------------------

    def _between_games(self) -> bool:
        """Players join and leave; Enter starts the next game, quit stops."""
        while True:
            if self.chouette.can_start():
                prompt = _("Enter: next game; join NAME, leave NAME, ledger, analyze, quit > ")
            else:
                prompt = _("A chouette needs 3 to 8 players; join NAME, leave NAME, quit > ")
            line = self.read(prompt).strip()
            command = read_command(line)
            verb, _sep, name = line.partition(" ")
            name = name.strip()
            try:
                if command.name == "enter" and self.chouette.can_start():
                    return True
                if command.name == "quit" and not name:
                    return False
                if verb.lower() in ("join", "entra", "unirse"):
                    self.table.join(typed_name(name))
                elif verb.lower() in ("leave", "esce", "salir", "retirar"):
                    found = split_name(name, self.chouette.players)
                    self.table.leave(found[0] if found is not None and not found[1] else typed_name(name))
                elif verb.lower() in ("ledger", "conti", "cuentas"):
                    self.console.print(self._ledger_table())
                elif command.name == "analyze":
                    self._analyze(command.argument)
            except TavolaError as error:
                self._complain(self.table.refusal(error))

    # --- what happens at the table -------------------------------------------------------------

    def _render(self, event: Event) -> None:
        """Say what happened, in the language in use."""
        match event:
            case OrderDrawn(rounds):
                for number, rolled in enumerate(rounds, start=1):
                    dice = ", ".join(f"{name} {die}" for name, die in rolled)
                    self.console.print(
                        _("Roll {number} for the order: {dice}").format(number=number, dice=dice)
                    )
            case ChouetteGameStarted(number, box, team, captain):
                self.console.print(
                    Text(
                        _("Game {number}: {box} is the box against {team}; {captain} is the captain.").format(
                            number=number, box=box, team=", ".join(team), captain=captain
                        ),
                        style="bold",
                    )
                )
            case ChouetteGameOver():
                game = self.chouette.game
                assert game is not None
                self._announce_end(game)
            case PlayMade(player, play, forced):
                notation = play.notation or _("(no move)")
                if forced:
                    text = _("{name} rolls {dice}: the only legal play is {play}").format(
                        name=player, dice=f"{play.dice.high}-{play.dice.low}", play=notation
                    )
                else:
                    text = _("{name} plays {play}").format(name=player, play=notation)
                self.console.print(text)
            case CheckersMoved() | MoveUndone():
                pass
            case ChouetteActed(player, Join()):
                self.console.print(_("{name} joins the table.").format(name=player))
            case ChouetteActed(player, Leave()):
                self.console.print(_("{name} leaves the table.").format(name=player))
            case ChouetteActed(player, Suggest(play)):
                shown = play if isinstance(play, str) else play.notation
                self.console.print(_("{name} suggests {play}.").format(name=player, play=shown))
            case ChouetteActed(_player, OpeningRoll((first, second))):
                self._announce_opening(first, second)
            case ChouetteActed(player, action) if player is not None and isinstance(action, _SHOWN):
                self.console.print(f"{player}: {self._describe(action)}")
                game = self.chouette.game_in_progress
                if isinstance(action, Roll | OpeningRoll) and game is not None:
                    self._show(game)  # the dice rolled, before they are played

    def _announce_opening(self, box_die: int, team_die: int) -> None:
        """The opening roll: a tie is rolled again, else the higher die's side plays both dice (R4)."""
        game = self.chouette.game_in_progress
        assert game is not None
        if box_die == team_die:
            self.console.print(_("Both players rolled the same number: the opening roll is rolled again."))
            return
        first = game.box if box_die > team_die else game.captain
        dice = f"{max(box_die, team_die)}-{min(box_die, team_die)}"
        self.console.print(_("Opening roll {dice}: {name} plays first.").format(dice=dice, name=first))
        self._show(game)

    def _announce_end(self, game: ChouetteGame) -> None:
        self.console.print(self._view(game))
        settlement = game.settlement
        assert settlement is not None
        parts = [f"{name} {points:+d}" for name, points in settlement.points.items()]
        self.console.print(Text(_("Game over: {results}.").format(results=", ".join(parts)), style="bold"))
        seating = self.chouette.seating
        if seating is not None:
            self.console.print(
                _("Next: {box} is the box; the queue is {queue}.").format(
                    box=seating.box, queue=", ".join(seating.queue)
                )
            )

    # --- a game --------------------------------------------------------------------------

    def _show(self, game: ChouetteGame) -> None:
        """Draw the board and the cubes, unless they are drawn as they are already."""
        state = (len(self.chouette.games), len(game.log), game.position, game.dice, game.phase, game.bets)
        if state != self._shown:
            self._shown = state
            self.console.print(self._view(game))

    def _step(self, game: ChouetteGame) -> None:
        self._show(game)
        if game.phase is Phase.MOVE:
            self._move(game)
            return
        actions = game.legal_actions()
        for number, item in enumerate(actions, start=1):
            self.console.print(f"  {number:>2}  {item.player}: {self._describe(item.action)}")
        line = self.read(
            _("Type a number or an action such as '{example}' > ").format(example=_example(actions))
        )
        try:
            chosen = self._choose(game, actions, line)
            if chosen is None:
                return
            self.table.act(self.table.seat_of(chosen.player), chosen.action)
        except TavolaError as error:
            self._complain(self.table.refusal(error))

    def _choose(self, game: ChouetteGame, actions: list[PlayerAction], line: str) -> PlayerAction | None:
        """The action a typed line picks: a number from the list, or ``NAME VERB [NAMES]``."""
        text = line.strip()
        command = read_command(text)
        if command.name == "quit":
            raise EOFError
        if command.name == "help":
            self.console.print(_choosing_help())
            return None
        if command.name == "enter":
            return None
        if text.isdigit():
            index = int(text) - 1
            if not 0 <= index < len(actions):
                raise TavolaError(_("choose a number from 1 to {count}").format(count=len(actions)))
            return actions[index]
        found = split_name(text, game.players)
        if found is None or not found[1]:
            raise TavolaError(
                _("start with the player's name: {names}").format(names=", ".join(game.players))
            )
        player, rest = found
        words = [player, *rest.split()]
        verb = read_command(rest).name
        names = split_names(" ".join(words[2:]), game.players)
        action: ChouetteAction
        if verb == "roll":
            action = Roll()
        elif verb == "double":
            action = Double(names)
        elif verb == "take":
            action = AcceptPartnership() if game.phase is Phase.PARTNER else Take(names)
        elif verb == "drop":
            action = DeclinePartnership() if game.phase is Phase.PARTNER else Drop(names)
        elif verb == "beaver":
            action = Beaver(names)
        elif words[1].lower() in ("extra", "give"):
            action = GiveExtra()
        elif words[1].lower() in ("noextra", "keep"):
            action = DeclineExtra()
        elif words[1].lower() == "partner":
            action = AcceptPartnership()
        elif words[1].lower() == "nopartner":
            action = DeclinePartnership()
        elif words[1].lower() == "suggest":
            action = Suggest(" ".join(words[2:]))
        else:
            raise TavolaError(_("unknown action {word!r}; type help").format(word=words[1]))
        return PlayerAction(player, action)

    def _move(self, game: ChouetteGame) -> None:
        roller = game.roller
        turn = game.turn
        assert roller is not None
        assert turn is not None
        for suggestion in game.suggestions:
            self.console.print(
                _("{name} suggests {play}").format(name=suggestion.member, play=suggestion.play.notation)
            )
        dice = f"{turn.dice.high}-{turn.dice.low}"
        line = self.read(_("{name} ({dice}): your move > ").format(name=roller, dice=dice))
        command = read_command(line)
        try:
            if command.name == "quit":
                raise EOFError
            if command.name in ("enter", "commit"):
                if turn.moves and turn.is_complete:
                    self.table.act(self.table.seat_of(roller), Commit())
                return
            if command.name == "undo":
                self.table.act(self.table.seat_of(roller), Undo())
                return
            if command.name == "help":
                self.console.print(help_table(MOVE_HELP))
                self.console.print(_choosing_help())
                return
            if command.name == "hint":
                self.console.print(advice_view(self._advisor().advise(ask_chouette(game, roller))))
                return
            if command.name == "board":
                self.console.print(self._view(game))
                return
            if command.name == "moves":
                for text in play_lines([play.notation for play in turn.legal], self.console.width):
                    self.console.print(text, highlight=False, soft_wrap=True)
                return
            if command.name == "move" and split_name(command.argument, game.players) is not None:
                chosen = self._choose(game, game.legal_actions(), command.argument)
                if chosen is not None:
                    self.table.act(self.table.seat_of(chosen.player), chosen.action)
                return
            text = command.argument
            if not turn.moves:
                try:
                    play = turn.parse_play(text)
                except TavolaError as error:
                    try:
                        self.table.act(self.table.seat_of(roller), MoveCheckers(text))
                    except TavolaError:
                        raise error from None
                    return
                self.table.act(self.table.seat_of(roller), Played(play))
                return
            self.table.act(self.table.seat_of(roller), MoveCheckers(text))
        except TavolaError as error:
            self._complain(self.table.refusal(error))

    # --- what is shown -----------------------------------------------------------------------

    def _describe(self, action: object) -> str:
        match action:
            case Roll() | OpeningRoll():
                return _("roll")
            case Double(against):
                return _("double {names}").format(names=", ".join(against)) if against else _("double")
            case Take(against):
                return _("take") + (f" ({', '.join(against)})" if against else "")
            case Drop(against):
                return _("drop") + (f" ({', '.join(against)})" if against else "")
            case Beaver(against):
                return _("beaver") + (f" ({', '.join(against)})" if against else "")
            case GiveExtra():
                return _("give an extra cube")
            case DeclineExtra():
                return _("no extra")
            case AcceptPartnership():
                return _("become the box's partner")
            case DeclinePartnership():
                return _("decline the partnership")
        return str(action)

    def _view(self, game: ChouetteGame) -> RenderableType:
        on_roll = game.side_on_roll
        names = {Side.BOX: game.box, Side.TEAM: _("team ({captain})").format(captain=game.captain)}
        box_on_roll = on_roll is Side.BOX
        board = rich_board(
            game.position,
            mover_name=names[on_roll],
            opponent_name=names[on_roll.other],
            dice=game.dice,
            viewer_is_mover=box_on_roll,
            glyphs=("X", "O") if box_on_roll else ("O", "X"),
        )  # always from the box's side, the box's checkers X
        cubes = Table(title=_("Cubes"), title_justify="left", box=None)
        cubes.add_column(_("Box side"))
        cubes.add_column(_("Team side"))
        cubes.add_column(_("Cube"), justify="right")
        cubes.add_column(_("Owner"))
        cubes.add_column(_("State"))
        offers = {offer.bet: offer for offer in game.offers}
        for bet in game.bets:
            owner = "-" if bet.cube.owner is None else bet.player(Side(bet.cube.owner))
            offer = offers.get(bet.key)
            if offer is not None:
                state = _("doubled to {value}, {name} to answer").format(
                    value=offer.value, name=bet.player(offer.answering)
                )
            elif bet.outcome is None:
                state = _("in play")
            else:
                state = _("{winner} won {points}").format(winner=bet.winner, points=bet.outcome.points)
            label = f"{bet.box_side}" + (" " + _("(extra)") if bet.extra else "")
            cubes.add_row(label, bet.team_side, str(bet.cube.value), owner, state)
        return Group(board, cubes)

    def _ledger_table(self) -> Table:
        games = len(self.chouette.ledger.games)
        title = ngettext("Ledger after {count} game", "Ledger after {count} games", games).format(count=games)
        table = Table(title=title, title_justify="left")
        table.add_column(_("Player"))
        table.add_column(_("Points"), justify="right")
        table.add_column(_("Money"), justify="right")
        for name, points in self.chouette.ledger.totals.items():
            table.add_row(name, f"{points:+d}", f"{self.chouette.ledger.money(name):+g}")
        return table


_SHOWN = (
    Roll,
    OpeningRoll,
    Double,
    Take,
    Drop,
    Beaver,
    GiveExtra,
    DeclineExtra,
    AcceptPartnership,
    DeclinePartnership,
)
"""The actions of the log said as ``NAME: action`` (what happens by itself is seen on the board)."""

_TYPED = {
    Roll: "roll",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    GiveExtra: "extra",
    DeclineExtra: "noextra",
    AcceptPartnership: "partner",
    DeclinePartnership: "nopartner",
}
"""The word a player types for each kind of action."""


def _choosing_help() -> str:
    return _(
        "Pick a number from the list, or type NAME and an action: roll, double [NAMES], "
        "take, drop, beaver, extra, noextra, suggest PLAY"
    )


def _example(actions: list[PlayerAction]) -> str:
    """A line the player could type for the first action listed."""
    if not actions:
        return "Ann roll"
    first = actions[0]
    return f"{first.player} {_TYPED.get(type(first.action), 'roll')}"


def typed_name(text: str) -> str:
    """A player's name as typed after ``join``: in quotes or not, as on the command line.

    >>> typed_name(' "Mary  Ann" '), typed_name("Mary   Ann"), typed_name("O'Brien")
    ('Mary  Ann', 'Mary Ann', "O'Brien")
    """
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return " ".join(text.split())


def split_name(text: str, players: tuple[str, ...]) -> tuple[str, str] | None:
    """The player a typed line starts with (quoted or not, in any case; the longest name that fits) and
    the rest of the line; None when it starts with no player's name.

    >>> split_name("mary ann double Bo", ("Mary", "Mary Ann", "Bo"))
    ('Mary Ann', 'double Bo')
    >>> split_name("'Mary' take", ("Mary", "Mary Ann")), split_name("Zed roll", ("Mary",))
    (('Mary', 'take'), None)
    """
    text = text.strip()
    if text[:1] in ("'", '"'):
        closing = text.find(text[0], 1)
        if closing > 0:
            wanted = typed_name(text[: closing + 1]).lower()
            found = [name for name in players if name.lower() == wanted]
            return (found[0], text[closing + 1 :].strip()) if found else None
    words = text.split()
    fitting = [
        name
        for name in players
        if [word.lower() for word in words[: len(name.split())]] == [word.lower() for word in name.split()]
    ]
    if not fitting:
        return None
    name = max(fitting, key=lambda player: len(player.split()))
    return name, " ".join(words[len(name.split()) :])


def split_names(text: str, players: tuple[str, ...]) -> tuple[str, ...]:
    """The players a typed list names (``double Ann "Mary Ann"``); a word naming nobody is kept as typed.

    >>> split_names('ann Mary Ann "Bo"', ("Ann", "Mary Ann", "Bo"))
    ('Ann', 'Mary Ann', 'Bo')
    """
    names: list[str] = []
    while text.strip():
        found = split_name(text, players)
        if found is None:
            word, _space, text = text.strip().partition(" ")
            names.append(word)
        else:
            names.append(found[0])
            text = found[1]
    return tuple(names)
