"""The rules explained for players, by topic, in English, Italian and Spanish.

Each topic is a Markdown text per language, ``guide/{language}/{topic}.md``.
A line ``{{board: NAME}}`` in a text stands for the picture of an example
position (see :mod:`tavola.guide.boards`): :func:`topic_text` replaces it
with the engine's board in a code block. Topics are named in English; the
names players type in their own language are in :data:`ALIASES`.

>>> [topic.name for topic in TOPICS]  # doctest: +NORMALIZE_WHITESPACE
['game', 'cube', 'money', 'match', 'chouette', 'dutch', 'acey-deucey', 'nackgammon', 'hypergammon']
>>> find_topic("olandese").name, find_topic("Holandés").name, find_topic("partido").name
('dutch', 'dutch', 'match')
>>> find_topic("cube").title("it")
'Il cubo del raddoppio'
>>> topic_text("hypergammon", "es").splitlines()[0]
'# Hypergammon'
>>> find_topic("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavola.guide.UnknownTopicError: no rules topic 'chess': game, cube, money, match, chouette, dutch, ...
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tavola.errors import TavolaError
from tavola.guide.boards import BOARDS, UnknownBoardError, picture
from tavola.i18n import _
from tavola.i18n import language as current_language

__all__ = [
    "ALIASES",
    "BOARDS",
    "DEFAULT_LANGUAGE",
    "TOPICS",
    "Topic",
    "UnknownBoardError",
    "UnknownTopicError",
    "board_names",
    "fill_boards",
    "find_topic",
    "source_text",
    "topic_text",
]

DEFAULT_LANGUAGE = "en"
"""The language every topic is written in, and the one a missing translation falls back to."""

BOARD_LINE = re.compile(r"^\{\{\s*board:\s*(?P<name>[^}]*?)\s*\}\}$", re.MULTILINE)
"""A line that asks for an example board: ``{{board: start}}``."""


class UnknownTopicError(TavolaError):
    """A rules topic that does not exist; the message names the ones that do."""


@dataclass(frozen=True)
class Topic:
    """A rules topic: its English name, and a title and a one-line summary per language."""

    name: str
    titles: dict[str, str]
    summaries: dict[str, str]

    def title(self, language: str | None = None) -> str:
        """The title in ``language`` (the one in use by default), English where there is none."""
        return _localised(self.titles, language)

    def summary(self, language: str | None = None) -> str:
        """What the topic covers, in one line, in ``language`` (English where there is none)."""
        return _localised(self.summaries, language)


def _localised(texts: dict[str, str], language: str | None) -> str:
    return texts.get(language or current_language(), texts[DEFAULT_LANGUAGE])


TOPICS: tuple[Topic, ...] = (
    Topic(
        "game",
        {"en": "The standard game", "it": "Il gioco standard", "es": "El juego estándar"},
        {
            "en": "Setting up, moving, hitting, the bar, bearing off, winning and the notation.",
            "it": "Disposizione, movimento, colpire, il bar, portare fuori, vincere e la notazione.",
            "es": "Colocación, movimiento, golpear, la barra, sacar fichas, ganar y la notación.",
        },
    ),
    Topic(
        "cube",
        {"en": "The doubling cube", "it": "Il cubo del raddoppio", "es": "El cubo de doblar"},
        {
            "en": "Doubling, taking and dropping, who owns the cube, redoubles and resigning.",
            "it": "Raddoppiare, accettare o rifiutare, chi possiede il cubo, i redouble e l'abbandono.",
            "es": "Doblar, aceptar o rechazar, quién tiene el cubo, redoblar y rendirse.",
        },
    ),
    Topic(
        "money",
        {"en": "Money play", "it": "Il gioco a soldi", "es": "El juego por dinero"},
        {
            "en": "The stake and the optional rules: Jacoby, beavers, automatic doubles, no gammons.",
            "it": "La posta e le regole facoltative: Jacoby, beaver, raddoppi automatici, niente gammon.",
            "es": "La apuesta y las reglas opcionales: Jacoby, beavers, dobles automáticos, sin gammons.",
        },
    ),
    Topic(
        "match",
        {"en": "Match play", "it": "Il match a punti", "es": "El match a puntos"},
        {
            "en": "Matches to N points, the Crawford rule and the Holland rule.",
            "it": "Match a N punti, la regola di Crawford e la regola Holland.",
            "es": "Matches a N puntos, la regla Crawford y la regla Holland.",
        },
    ),
    Topic(
        "chouette",
        {"en": "The chouette", "it": "La chouette", "es": "La chouette"},
        {
            "en": "Three or more players: the box, the captain, the team and the ledger.",
            "it": "Tre o più giocatori: il box, il capitano, la squadra e il registro.",
            "es": "Tres o más jugadores: el box, el capitán, el equipo y el registro.",
        },
    ),
    Topic(
        "dutch",
        {"en": "Dutch backgammon", "it": "Backgammon olandese", "es": "Backgammon holandés"},
        {
            "en": "Every checker starts off the board; no hitting until one of yours is home.",
            "it": "Tutte le pedine partono fuori dal tavoliere; niente colpi finché una tua non è a casa.",
            "es": "Todas las fichas empiezan fuera del tablero; no se golpea hasta tener una en casa.",
        },
    ),
    Topic(
        "acey-deucey",
        {"en": "Acey-Deucey", "it": "Acey-Deucey", "es": "Acey-Deucey"},
        {
            "en": "Enter and move in any order, the 1-2 roll, and a price per checker left.",
            "it": "Entrare e muovere in qualsiasi ordine, il tiro 1-2 e un prezzo per pedina rimasta.",
            "es": "Entrar y mover en cualquier orden, la tirada 1-2 y un precio por ficha que queda.",
        },
    ),
    Topic(
        "nackgammon",
        {"en": "Nackgammon", "it": "Nackgammon", "es": "Nackgammon"},
        {
            "en": "The standard game from a start with four back checkers instead of two.",
            "it": "Il gioco standard con quattro pedine arretrate invece di due.",
            "es": "El juego estándar con cuatro fichas atrasadas en lugar de dos.",
        },
    ),
    Topic(
        "hypergammon",
        {"en": "Hypergammon", "it": "Hypergammon", "es": "Hypergammon"},
        {
            "en": "Three checkers each, on the 24-, 23- and 22-points.",
            "it": "Tre pedine a testa, sulle punte 24, 23 e 22.",
            "es": "Tres fichas cada uno, en los puntos 24, 23 y 22.",
        },
    ),
)
"""The topics in the order ``tavola rules`` lists them."""

ALIASES: dict[str, str] = {
    # the standard game
    "standard": "game",
    "basics": "game",
    "gioco": "game",
    "partita": "game",
    "base": "game",
    "juego": "game",
    "partida": "game",
    "reglas": "game",
    "regole": "game",
    # the cube
    "doubling": "cube",
    "double": "cube",
    "cubo": "cube",
    "raddoppio": "cube",
    "doblar": "cube",
    "doblaje": "cube",
    # money play
    "money-play": "money",
    "soldi": "money",
    "denaro": "money",
    "dinero": "money",
    "apuesta": "money",
    # match play
    "match-play": "match",
    "crawford": "match",
    "incontro": "match",
    "partita-a-punti": "match",
    "torneo": "match",
    "partido": "match",
    # variants
    "olandese": "dutch",
    "holandes": "dutch",
    "dutch-backgammon": "dutch",
    "acey": "acey-deucey",
    "aceydeucey": "acey-deucey",
    "nack": "nackgammon",
    "hyper": "hypergammon",
}
"""Other names a player may type for a topic: local words, short forms; accents and case do not matter."""


def _key(name: str) -> str:
    """A name as looked up: lower case, no accents, dashes for spaces and underscores."""
    plain = unicodedata.normalize("NFKD", name.strip().lower())
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    return "-".join(plain.replace("_", " ").replace("-", " ").split())


def find_topic(name: str) -> Topic:
    """The topic called ``name``, in English or by one of its :data:`ALIASES`."""
    key = _key(name)
    wanted = ALIASES.get(key, key)
    for topic in TOPICS:
        if topic.name == wanted:
            return topic
    known = ", ".join(topic.name for topic in TOPICS)
    raise UnknownTopicError(_("no rules topic {name}: {known}").format(name=repr(name), known=known))


@cache
def _read(name: str, language: str) -> str | None:
    """The Markdown file of a topic in a language, ``None`` where it is missing."""
    path = resources.files(__name__).joinpath(language, f"{name}.md")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def source_text(topic: str, language: str | None = None) -> str:
    """A topic's Markdown as written, board lines unfilled; English where the language has none."""
    name = find_topic(topic).name
    text = _read(name, language or current_language())
    if text is None:
        text = _read(name, DEFAULT_LANGUAGE)
    if text is None:
        raise UnknownTopicError(_("the rules topic {name} has no text").format(name=repr(name)))
    return text


def board_names(text: str) -> list[str]:
    """The example boards a Markdown text asks for, in order.

    >>> board_names("# Start\\n\\n{{board: start}}\\n")
    ['start']
    """
    return [match["name"] for match in BOARD_LINE.finditer(text)]


def fill_boards(text: str) -> str:
    """``text`` with each ``{{board: NAME}}`` line replaced by the board in a code block.

    A marker that is not on a line of its own, or names no example, is an error.

    >>> print(fill_boards("{{board: hypergammon-start}}").splitlines()[0])
    ```text
    >>> fill_boards("see {{board: start}}")
    Traceback (most recent call last):
    ...
    tavola.guide.boards.UnknownBoardError: a board must be a line of its own: {{board: start}}
    """
    filled = BOARD_LINE.sub(lambda match: f"```text\n{picture(match['name'])}\n```", text)
    stray = re.search(r"\{\{.*?\}\}", filled)
    if stray is not None:
        raise UnknownBoardError(f"a board must be a line of its own: {stray.group()}")
    return filled


def topic_text(topic: str, language: str | None = None) -> str:
    """A topic in ``language`` (the one in use by default) as Markdown, its boards drawn.

    ``topic`` is a topic's name or alias; a language the topic is not written
    in gets the English text.
    """
    return fill_boards(source_text(topic, language))
