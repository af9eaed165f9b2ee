"""A chouette at one terminal: the board, every cube, the ledger, and each player typing in turn.

:class:`ChouetteConsole` runs a :class:`~tavola.chouette.Chouette` for
players sharing a keyboard. Before each action it draws the board from the
team's side, the cubes (one line per bet) and what is waiting; then it lists
the actions allowed now, numbered, with who may take them. A player types
the number, or the action in words (``Cid double``, ``Cid double Ann Ben``,
``Ben take``, ``Dee suggest 13/7 8/7``); the roller types the checker play
(``24/18 13/10``, one checker at a time with ``undo``, Enter to commit).
After every action the session is saved, so ``tavola chouette --resume``
goes on after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from tavola.actions import Roll
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
    Take,
)
from tavola.console.commands import read_command
from tavola.errors import TavolaError
from tavola.i18n import _, ngettext
from tavola.render.text import rich_board

Reader = Callable[[str], str]


class ChouetteConsole:
    """Plays ``table`` at a terminal: ``console`` shows, ``read`` asks."""

    def __init__(
        self, table: Chouette, console: Console, read: Reader, *, autosave: Path | None = None
    ) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.autosave = autosave
        self._shown: object = None  # what the board last drawn showed, not to draw it twice

    def run(self) -> int:
        """Play games until the players stop; returns the exit status."""
        try:
            while True:
                game = self.table.game_in_progress
                if game is None:
                    if self.table.games and not self._between_games():
                        break
                    if self.table.seating is None:
                        self._draw_order()
                    game = self.table.start_game()
                    self._announce_start(game)
                    self._save()
                self._step(game)
                self._save()
                if game.is_over:
                    self._announce_end(game)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
        self._save()
        self.console.print(self._ledger_table())
        if self.autosave is not None:
            self.console.print(_("Saved. Type `tavola chouette --resume` to go on."))
        return 0

    def _save(self) -> None:
        if self.autosave is not None:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            self.table.save(self.autosave)

    def _draw_order(self) -> None:
        """Each player rolls a die for the order, ties again (H1); the rolls are shown."""
        while not self.table.can_start():
            if not self._between_games():
                raise EOFError
        for number, rolled in enumerate(self.table.draw_order(), start=1):
            dice = ", ".join(f"{name} {die}" for name, die in rolled)
            self.console.print(_("Roll {number} for the order: {dice}").format(number=number, dice=dice))

    def _complain(self, text: str) -> None:
        self.console.print(Text(text, style="red"))

    # --- between games -----------------------------------------------------------------

    def _between_games(self) -> bool:
        """Players join and leave; Enter starts the next game, quit stops."""
        while True:
            if self.table.can_start():
                prompt = _("Enter: next game; join NAME, leave NAME, ledger, quit > ")
            else:
                prompt = _("A chouette needs 3 to 8 players; join NAME, leave NAME, quit > ")
            line = self.read(prompt).strip()
            command = read_command(line)
            verb, _sep, name = line.partition(" ")
            name = name.strip()
            try:
                if command.name == "enter" and self.table.can_start():
                    return True
                if command.name == "quit" and not name:
                    return False
                if verb.lower() in ("join", "entra", "unirse"):
                    self.table.join(name)
                    self.console.print(_("{name} joins the table.").format(name=name))
                elif verb.lower() in ("leave", "esce", "salir", "retirar"):
                    self.table.leave(name)
                    self.console.print(_("{name} leaves the table.").format(name=name))
                elif verb.lower() in ("ledger", "conti", "cuentas"):
                    self.console.print(self._ledger_table())
            except TavolaError as error:
                self._complain(str(error))

    def _announce_start(self, game: ChouetteGame) -> None:
        team = ", ".join(game.team)
        self.console.print(
            Text(
                _("Game {number}: {box} is the box against {team}; {captain} is the captain.").format(
                    number=len(self.table.games), box=game.box, team=team, captain=game.captain
                ),
                style="bold",
            )
        )

    def _announce_end(self, game: ChouetteGame) -> None:
        self.console.print(self._view(game))
        settlement = game.settlement
        assert settlement is not None
        parts = [f"{name} {points:+d}" for name, points in settlement.points.items()]
        self.console.print(Text(_("Game over: {results}.").format(results=", ".join(parts)), style="bold"))
        seating = self.table.seating
        if seating is not None:
            self.console.print(
                _("Next: {box} is the box; the queue is {queue}.").format(
                    box=seating.box, queue=", ".join(seating.queue)
                )
            )

    # --- a game --------------------------------------------------------------------------

    def _step(self, game: ChouetteGame) -> None:
        state = (len(self.table.games), len(game.log), game.position, game.dice, game.phase, game.bets)
        if state != self._shown:
            self._shown = state
            self.console.print(self._view(game))
        if game.phase is Phase.MOVE:
            self._move(game)
            return
        actions = game.legal_actions()
        for number, item in enumerate(actions, start=1):
            self.console.print(f"  {number:>2}  {item.player}: {self._describe(item)}")
        line = self.read(
            _("Type a number or an action such as '{example}' > ").format(example=_example(actions))
        )
        try:
            chosen = self._choose(game, actions, line)
            if chosen is None:
                return
            game.apply(chosen)
            self.console.print(f"{chosen.player}: {self._describe(chosen)}")
        except TavolaError as error:
            self._complain(str(error))

    def _choose(self, game: ChouetteGame, actions: list[PlayerAction], line: str) -> PlayerAction | None:
        """The action a typed line picks: a number from the list, or ``NAME VERB [NAMES]``."""
        text = line.strip()
        command = read_command(text)
        if command.name == "quit":
            raise EOFError
        if command.name == "help":
            self.console.print(
                _(
                    "Pick a number from the list, or type NAME and an action: roll, double [NAMES], "
                    "take, drop, beaver, extra, noextra, suggest PLAY"
                )
            )
            return None
        if command.name == "enter":
            return None
        if text.isdigit():
            index = int(text) - 1
            if not 0 <= index < len(actions):
                raise TavolaError(_("choose a number from 1 to {count}").format(count=len(actions)))
            return actions[index]
        words = text.split()
        players = {name.lower(): name for name in game.players}
        if len(words) < 2 or words[0].lower() not in players:
            raise TavolaError(
                _("start with the player's name: {names}").format(names=", ".join(game.players))
            )
        player = players[words[0].lower()]
        verb = read_command(" ".join(words[1:])).name
        names = tuple(players.get(word.lower(), word) for word in words[2:])
        action: object
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
            game.suggest(player, " ".join(words[2:]))
            self.console.print(_("{name} suggests {play}.").format(name=player, play=" ".join(words[2:])))
            return None
        else:
            raise TavolaError(_("unknown action {word!r}; type help").format(word=words[1]))
        return PlayerAction(player, action)

    def _move(self, game: ChouetteGame) -> None:
        roller = game.roller
        turn = game.turn
        assert roller is not None
        assert turn is not None
        if not turn.moves and len(turn.legal) == 1:
            play = next(iter(turn.legal))
            game.play(roller, play)
            self.console.print(
                _("{name} rolls {dice}: the only legal play is {play}").format(
                    name=roller,
                    dice=f"{turn.dice.high}-{turn.dice.low}",
                    play=play.notation or _("(no move)"),
                )
            )
            return
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
                    game.commit(roller)
                return
            if command.name == "undo":
                game.undo(roller)
                return
            if command.name == "moves":
                self.console.print("  " + "   ".join(play.notation for play in turn.legal))
                return
            if command.name == "move" and command.argument.split()[0].lower() in {
                name.lower() for name in game.players
            }:
                chosen = self._choose(game, game.legal_actions(), command.argument)
                if chosen is not None:
                    game.apply(chosen)
                return
            text = command.argument
            if not turn.moves:
                try:
                    game.play(roller, text)
                    self.console.print(_("{name} plays {play}").format(name=roller, play=text))
                    return
                except TavolaError as error:
                    try:
                        game.move(roller, text)
                    except TavolaError:
                        raise error from None
                    return
            game.move(roller, text)
        except TavolaError as error:
            self._complain(str(error))

    # --- what is shown -----------------------------------------------------------------------

    def _describe(self, item: PlayerAction) -> str:
        action = item.action
        match action:
            case Roll():
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
        board = rich_board(
            game.position,
            mover_name=names[on_roll],
            opponent_name=names[on_roll.other],
            dice=game.dice,
        )  # from the side on roll, so the points are numbered for whoever moves
        cubes = Table(title=_("Cubes"), title_justify="left", box=None)
        cubes.add_column(_("Box side"))
        cubes.add_column(_("Team side"))
        cubes.add_column(_("Cube"), justify="right")
        cubes.add_column(_("Owner"))
        cubes.add_column(_("State"))
        for bet in game.bets:
            owner = "-" if bet.cube.owner is None else bet.player(Side(bet.cube.owner))
            if bet.outcome is None:
                state = _("in play")
            else:
                state = _("{winner} won {points}").format(winner=bet.winner, points=bet.outcome.points)
            label = f"{bet.box_side}" + (" " + _("(extra)") if bet.extra else "")
            cubes.add_row(label, bet.team_side, str(bet.cube.value), owner, state)
        return Group(board, cubes)

    def _ledger_table(self) -> Table:
        games = len(self.table.ledger.games)
        title = ngettext("Ledger after {count} game", "Ledger after {count} games", games).format(count=games)
        table = Table(title=title, title_justify="left")
        table.add_column(_("Player"))
        table.add_column(_("Points"), justify="right")
        table.add_column(_("Money"), justify="right")
        for name, points in self.table.ledger.totals.items():
            table.add_row(name, f"{points:+d}", f"{self.table.ledger.money(name):+g}")
        return table


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


def _example(actions: list[PlayerAction]) -> str:
    """A line the player could type for the first action listed."""
    if not actions:
        return "Ann roll"
    first = actions[0]
    return f"{first.player} {_TYPED.get(type(first.action), 'roll')}"
