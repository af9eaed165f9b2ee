"""What a player types at the terminal: a command word (in English, Italian or Spanish) or a move.

>>> read_command("double")
Command(name='double', argument='')
>>> read_command("Raddoppio")
Command(name='double', argument='')
>>> read_command("save match.mat")
Command(name='save', argument='match.mat')
>>> read_command("24/18 13/10")
Command(name='move', argument='24/18 13/10')
>>> read_command("")
Command(name='enter', argument='')
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.i18n import N_

WORDS: dict[str, tuple[str, ...]] = {
    # name: the English words first, then Italian and Spanish ones.
    "help": ("help", "h", "?", "aiuto", "ayuda"),
    "hint": ("hint", "suggerimento", "consiglio", "pista", "sugerencia"),
    "moves": ("moves", "legal", "mosse", "jugadas"),
    "pip": ("pip", "pips", "conta", "cuenta"),
    "board": ("board", "tavoliere", "tablero"),
    "score": ("score", "punteggio", "punteo", "marcador"),
    "undo": ("undo", "u", "annulla", "deshacer"),
    "commit": ("commit", "ok", "conferma", "confirmar"),
    "roll": ("roll", "r", "tira", "lancia", "tirar", "tiro"),
    "double": ("double", "d", "raddoppio", "raddoppia", "doblo", "doblar", "dobla"),
    "take": (
        "take",
        "t",
        "accept",
        "yes",
        "y",
        "prendo",
        "accetto",
        "accetta",
        "si",
        "sì",
        "acepto",
        "aceptar",
    ),
    "drop": ("drop", "pass", "decline", "no", "n", "lascio", "rifiuto", "rifiuta", "paso", "rechazo"),
    "beaver": ("beaver", "castoro", "castor"),
    "resign": ("resign", "abbandono", "abbandona", "abandono", "abandonar", "rendirse"),
    "save": ("save", "salva", "guardar"),
    "quit": ("quit", "exit", "q", "esci", "salir"),
}
"""Each command and the words that name it; ``take`` and ``drop`` also answer a resignation."""

ANSWERS = frozenset({"take", "drop", "beaver"})
"""The commands that answer an offer: a double, or a resignation (``take`` and ``drop``)."""

RESIGN_KINDS: dict[str, int] = {
    **dict.fromkeys(("single", "s", "semplice", "simple", "sencillo"), 1),
    **dict.fromkeys(("gammon", "g"), 2),
    **dict.fromkeys(("backgammon", "b", "bg"), 3),
}
"""The words that name what a resignation offers: a single game, a gammon or a backgammon."""

HELP: tuple[tuple[str, str], ...] = (
    ("24/18 13/10", N_("move checkers (bar/22, 6/off; '*' for a hit is optional)")),
    ("24/18", N_("move one checker at a time; Enter commits the whole play")),
    ("undo", N_("take back the last checker moved this turn")),
    ("moves", N_("list the legal plays of this roll")),
    ("hint", N_("the bot's ranked plays, or its cube advice")),
    ("roll / Enter", N_("roll the dice")),
    ("double", N_("offer the cube")),
    ("take / drop / beaver", N_("answer a double")),
    ("resign [gammon|backgammon]", N_("offer to give up the game")),
    ("accept / decline", N_("answer a resignation")),
    ("pip", N_("the pip counts")),
    ("board", N_("draw the board again")),
    ("score", N_("the score")),
    ("save FILE.mat | FILE.json", N_("export the match (gnubg reads .mat)")),
    ("quit", N_("stop; the game is saved and `tavola play --resume` goes on")),
)
"""What ``help`` lists: an example of each command and what it does."""

_BY_WORD = {word: name for name, words in WORDS.items() for word in words}


@dataclass(frozen=True)
class Command:
    """A line typed by a player: the command's name and the rest of the line.

    ``enter`` is an empty line; ``move`` is anything that is not a command word.
    """

    name: str
    argument: str = ""


def read_command(line: str) -> Command:
    """The command a typed line asks for."""
    text = line.strip()
    if not text:
        return Command("enter")
    word, _, rest = text.partition(" ")
    name = _BY_WORD.get(word.lower())
    if name is None:
        return Command("move", text)
    return Command(name, rest.strip())
