"""The language players read: English, Italian or Spanish, from gettext catalogues.

Every text a player reads goes through :func:`_` (or :func:`ngettext` where a
number decides the form); the catalogues live in ``tavola/locale`` and are
kept with Babel (see ``docs/translations.md``). English is the source text,
so a message with no translation falls back to English.

The language is chosen, first to last, by :func:`set_language`'s argument
(``--lang`` on the command line), the ``TAVOLA_LANG`` environment variable,
``lang = "it"`` in the settings file (``~/.config/tavola/settings.toml``),
and the system locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``);
anything else gives English.

That choice is the process's default. A server speaking to several people
at once gives each request its own language with :func:`use_language`: the
language lives in a context variable, so every thread and every asyncio
task inside such a block reads its own, and the messages (errors included,
which are translated where they are raised) come out in it.

>>> with use_language("es"):
...     _("roll the dice")
'tira los dados'

>>> set_language("it")
'it'
>>> _("roll the dice")
'tira i dadi'
>>> set_language("en")
'en'
>>> _("roll the dice")
'roll the dice'
>>> detect_language({"LANG": "es_ES.UTF-8"}, settings_file=None)
'es'
"""

from __future__ import annotations

import gettext as _gettext
import os
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from tavola.errors import TavolaError

LANGUAGES: dict[str, str] = {"en": "English", "it": "Italiano", "es": "Español"}
"""The languages Tavola speaks, by code, each named in itself."""
DOMAIN = "tavola"
LOCALE_DIR = Path(__file__).parent / "locale"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguageError(TavolaError):
    """A language code Tavola has no texts for."""


def settings_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the settings file is: ``$XDG_CONFIG_HOME/tavola/settings.toml`` (``~/.config`` by default)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tavola" / "settings.toml"


def detect_language(
    environ: Mapping[str, str] | None = None, settings_file: Path | bool | None = True
) -> str:
    """The language the environment asks for: ``TAVOLA_LANG``, the settings file, then the locale.

    ``settings_file`` is the file to read, ``True`` for the usual place or ``None`` for none.

    >>> detect_language({"LANGUAGE": "fr:it", "LANG": "C"}, settings_file=None)
    'it'
    >>> detect_language({"LANG": "C.UTF-8"}, settings_file=None)
    'en'
    """
    environ = os.environ if environ is None else environ
    chosen = environ.get("TAVOLA_LANG", "").strip().lower()
    if chosen:
        return _checked(chosen, "TAVOLA_LANG")
    path = settings_path(environ) if settings_file is True else settings_file
    if isinstance(path, Path):
        setting = _setting(path)
        if setting:
            return _checked(setting, str(path))
    for variable in LOCALE_VARIABLES:
        for entry in environ.get(variable, "").split(":"):
            code = entry.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if entry and variable != "LANGUAGE":
                return "en"  # the first locale variable that is set decides
    return "en"


def _setting(path: Path) -> str:
    """The ``lang`` of a settings file, or "" where there is none; a broken file is an error."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    try:
        value = tomllib.loads(text).get("lang", "")
    except tomllib.TOMLDecodeError as error:
        raise UnknownLanguageError(f"{path}: not a valid settings file ({error})") from error
    if not isinstance(value, str):
        raise UnknownLanguageError(f'{path}: lang must be a string such as "it", not {value!r}')
    return value.strip().lower()


def _checked(code: str, where: str) -> str:
    if code not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise UnknownLanguageError(f"{where}: unknown language {code!r}; Tavola speaks {known}")
    return code


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """The catalogue of one language (English is the source text, so it has none)."""
    _checked(code, "language")
    if code == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)


_default_code = "en"
_context_code: ContextVar[str | None] = ContextVar("tavola_language", default=None)
"""The language of the current thread or task where :func:`use_language` set one; else the default."""


def set_language(code: str | None = None) -> str:
    """Make ``code`` the process's default language (``None``: what :func:`detect_language` finds).

    Returns the code. Code running inside :func:`use_language` keeps that block's language.
    """
    global _default_code
    chosen = detect_language() if code is None else _checked(code.strip().lower(), "language")
    translations(chosen)  # load it now, so a broken catalogue shows at once
    _default_code = chosen
    return chosen


@contextmanager
def use_language(code: str) -> Iterator[str]:
    """Speak ``code`` inside the block, in this thread or asyncio task only; yields the code.

    Other threads and tasks keep their own language, so two requests in two
    languages served at once never mix their messages.

    >>> with use_language("it"):
    ...     language()
    'it'
    >>> language()
    'en'
    """
    chosen = _checked(code.strip().lower(), "language")
    token = _context_code.set(chosen)
    try:
        yield chosen
    finally:
        _context_code.reset(token)


def language() -> str:
    """The code of the language in use here: this block's (:func:`use_language`), else the default."""
    return _context_code.get() or _default_code


def _(message: str) -> str:
    """``message`` in the language in use."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` things, in the language in use.

    >>> ngettext("{count} checker", "{count} checkers", 2).format(count=2)
    '2 checkers'
    """
    return translations(language()).ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Mark ``message`` for translation where it is defined; :func:`_` translates it where it is shown."""
    return message
