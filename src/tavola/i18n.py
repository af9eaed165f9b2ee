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
from collections.abc import Mapping
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


_current: _gettext.NullTranslations = _gettext.NullTranslations()
_current_code = "en"


def translations(code: str) -> _gettext.NullTranslations:
    """The catalogue of one language (English is the source text, so it has none)."""
    _checked(code, "language")
    if code == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)


def set_language(code: str | None = None) -> str:
    """Speak ``code`` from now on (``None``: what :func:`detect_language` finds); returns the code."""
    global _current, _current_code
    chosen = detect_language() if code is None else _checked(code.strip().lower(), "language")
    _current, _current_code = translations(chosen), chosen
    return chosen


def language() -> str:
    """The code of the language in use."""
    return _current_code


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` things, in the language in use.

    >>> ngettext("{count} checker", "{count} checkers", 2).format(count=2)
    '2 checkers'
    """
    return _current.ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Mark ``message`` for translation where it is defined; :func:`_` translates it where it is shown."""
    return message
