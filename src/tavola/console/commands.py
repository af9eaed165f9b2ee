"""What a player types at the terminal: a command word (in English, Italian or Spanish) or a move.

>>> read_command("double")
Command(name='double', argument='')
>>> read_command("Raddoppio"), read_command("acepto")
(Command(name='double', argument=''), Command(name='take', argument=''))
>>> read_command("save match.mat")
Command(name='save', argument='match.mat')
>>> read_command("24/18 13/10")
Command(name='move', argument='24/18 13/10')
>>> read_command("")
Command(name='enter', argument='')
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.i18n import N_, _, language

WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    # name: the words of each language; the first is the one the help shows.
    "help": {"en": ("help", "h", "?"), "it": ("aiuto",), "es": ("ayuda",)},
    "hint": {"en": ("hint",), "it": ("suggerimento", "consiglio"), "es": ("pista", "sugerencia")},
    "moves": {"en": ("moves", "legal"), "it": ("mosse",), "es": ("jugadas",)},
    "pip": {"en": ("pip", "pips"), "it": ("conta",), "es": ("cuenta",)},
    "board": {"en": ("board",), "it": ("tavoliere",), "es": ("tablero",)},
    "score": {"en": ("score",), "it": ("punteggio",), "es": ("marcador", "punteo")},
    "undo": {"en": ("undo", "u"), "it": ("annulla",), "es": ("deshacer",)},
    "commit": {"en": ("commit", "ok"), "it": ("conferma",), "es": ("confirmar",)},
    "roll": {"en": ("roll", "r"), "it": ("tira", "lancia"), "es": ("tirar", "tiro")},
    "double": {"en": ("double", "d"), "it": ("raddoppia", "raddoppio"), "es": ("doblar", "doblo", "dobla")},
    "take": {
        "en": ("take", "t", "yes", "y"),
        "it": ("accetta", "accetto", "prendo", "si", "sì"),
        "es": ("acepto", "aceptar"),
    },
    "accept": {"en": ("accept",), "it": ("accetta",), "es": ("acepto",)},
    "drop": {
        "en": ("drop", "pass", "no", "n"),
        "it": ("rifiuta", "rifiuto", "lascio"),
        "es": ("rechazo", "paso"),
    },
    "decline": {"en": ("decline",), "it": ("rifiuta",), "es": ("rechazo",)},
    "beaver": {"en": ("beaver",), "it": ("beaver", "castoro"), "es": ("beaver", "castor")},
    "resign": {
        "en": ("resign",),
        "it": ("abbandona", "abbandono"),
        "es": ("abandono", "abandonar", "rendirse"),
    },
    "save": {"en": ("save",), "it": ("salva",), "es": ("guardar",)},
    "tutor": {"en": ("tutor",), "it": ("tutore",), "es": ("tutor",)},
    "analyze": {"en": ("analyze", "analyse"), "it": ("analizza", "analisi"), "es": ("analizar", "analiza")},
    "quit": {"en": ("quit", "exit", "q"), "it": ("esci",), "es": ("salir",)},
}
"""Each command and the words that name it in each language; every word works in every language."""

MEANS = {"accept": "take", "decline": "drop"}
"""Commands that are another's words: accepting a resignation is a take, declining it a drop."""

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
    ("{undo}", N_("take back the last checker moved this turn")),
    ("{moves}", N_("list the legal plays of this roll")),
    ("{hint}", N_("the bot's ranked plays, or its cube advice")),
    ("{roll} / {enter}", N_("roll the dice")),
    ("{double}", N_("offer the cube")),
    ("{take} / {drop} / {beaver}", N_("answer a double")),
    ("{resign} [gammon|backgammon]", N_("offer to give up the game")),
    ("{accept} / {decline}", N_("answer a resignation")),
    ("{pip}", N_("the pip counts")),
    ("{board}", N_("draw the board again")),
    ("{score}", N_("the score")),
    ("{save} FILE.mat | FILE.json", N_("export the match (gnubg reads .mat)")),
    ("{tutor} on|off", N_("warn before a play or cube action that loses much, or stop warning")),
    ("{analyze} [0-ply|1-ply|2-ply]", N_("after a game: each decision judged, and each player's figures")),
    ("{quit}", N_("stop; the game is saved and `tavola play --resume` goes on")),
)
"""What ``help`` lists: an example of each command (``{name}``: its word in the language in use) and
what it does."""

MOVE_HELP = HELP[:5]
"""The part of the help about moving checkers."""


def help_examples(entries: tuple[tuple[str, str], ...] = HELP) -> list[tuple[str, str]]:
    """The help's examples with the command words of the language in use, and what they do (translated).

    >>> from tavola.i18n import use_language
    >>> with use_language("it"):
    ...     [example for example, _meaning in help_examples(HELP[6:10])]
    ['raddoppia', 'accetta / rifiuta / beaver', 'abbandona [gammon|backgammon]', 'accetta / rifiuta']
    """
    shown = {
        name: (by_language.get(language()) or by_language["en"])[0] for name, by_language in WORDS.items()
    }
    shown["enter"] = _("Enter")
    return [(example.format(**shown), _(meaning)) for example, meaning in entries]


SWITCH_WORDS: dict[str, bool] = {
    **dict.fromkeys(("on", "yes", "y", "si", "sì", "sí", "attivo", "acceso", "activo"), True),
    **dict.fromkeys(("off", "no", "n", "spento", "apagado"), False),
}
"""The words that turn something on or off (``tutor on``, ``tutore spento``), in every language."""

YES_WORDS = frozenset(word for word, on in SWITCH_WORDS.items() if on) | {"ok", "vale"}
"""The words that say yes to a question such as the tutor's "do it anyway?"."""


_BY_WORD = {
    word: MEANS.get(name, name)
    for name, by_language in WORDS.items()
    for words in by_language.values()
    for word in words
}


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
