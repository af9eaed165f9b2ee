"""The translations: complete catalogues, the same placeholders, a current template, compiled files
that match their sources, and the language chosen as :mod:`tavola.i18n` documents.

The template and catalogues are kept with Babel (docs/translations.md); these tests fail when a new
message has no catalogue entry, when a translation is missing, fuzzy or loses a placeholder, and
when a ``.mo`` file was not compiled again after its ``.po`` changed.
"""

from __future__ import annotations

import asyncio
import re
import string
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tavola import Dice, Position
from tavola.cube import Cube
from tavola.errors import IllegalPlayError, NotationError, OutOfTurnError
from tavola.game import Game
from tavola.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    UnknownLanguageError,
    _,
    detect_language,
    language,
    ngettext,
    set_language,
    use_language,
)
from tavola.notation import parse_play
from tavola.render.text import ascii_board

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "src" / "tavola"
TEMPLATE = LOCALE_DIR / "tavola.pot"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}
"""The same keywords as ``pybabel extract --no-default-keywords -k _ -k ngettext:1,2 -k N_``."""
NOTATION = re.compile(r"\b(?:\d{1,2}|bar)/(?:\d{1,2}|off)\b\*?")

MessageId = str | tuple[str, ...]


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    """Whatever a test speaks, the next one starts in English."""
    yield
    set_language("en")


def _read_po(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _catalogue(code: str) -> Catalog:
    return _read_po(LOCALE_DIR / code / "LC_MESSAGES" / "tavola.po", code)


def _key(message: Message) -> MessageId:
    """A message's id: the text, or (singular, plural) for a message with plural forms."""
    return message.id if isinstance(message.id, str) else tuple(message.id)


def _template_ids() -> set[MessageId]:
    return {_key(message) for message in _read_po(TEMPLATE) if message.id}


def _forms(message: Message) -> list[tuple[str, str]]:
    """(English, translation) for each form of ``message``: the singular for the first plural form,
    the plural for the others."""
    if isinstance(message.id, str):
        assert isinstance(message.string, str)
        return [(message.id, message.string)]
    singular, plural = message.id[0], message.id[1]
    return [(singular if index == 0 else plural, text) for index, text in enumerate(message.string)]


def _placeholders(text: str) -> set[str]:
    """The replacement fields of a ``str.format`` text, written out: ``{count}``, ``{points:+d}``."""
    fields = set()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            fields.add(
                "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            )
    return fields


def _shown(message_id: MessageId) -> str:
    return repr(message_id if isinstance(message_id, str) else message_id[0])


# --- the catalogues -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_of_the_template_is_translated(code: str) -> None:
    catalogue = _catalogue(code)
    missing = []
    for message_id in sorted(_template_ids(), key=_shown):
        message = catalogue.get(message_id)
        if message is None:
            missing.append(f"{_shown(message_id)}: no entry")
        elif message.fuzzy:
            missing.append(f"{_shown(message_id)}: fuzzy")
        elif isinstance(message_id, tuple) and len(message.string) != catalogue.num_plurals:
            missing.append(
                f"{_shown(message_id)}: {len(message.string)} of {catalogue.num_plurals} plural forms"
            )
        elif not all(translation.strip() for _english, translation in _forms(message)):
            missing.append(f"{_shown(message_id)}: empty")
    assert not missing, f"{code}: {len(missing)} messages without a translation:\n" + "\n".join(missing)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_of_their_message(code: str) -> None:
    wrong = []
    for message in _catalogue(code):
        if not message.id or message.fuzzy:
            continue
        for english, translation in _forms(message):
            if translation and _placeholders(translation) != _placeholders(english):
                wrong.append(f"{english!r} -> {translation!r}")
    assert not wrong, f"{code}: placeholders changed:\n" + "\n".join(wrong)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_move_notation_standard(code: str) -> None:
    changed = []
    for message in _catalogue(code):
        if not message.id:
            continue
        for english, translation in _forms(message):
            lost = set(NOTATION.findall(english)) - set(NOTATION.findall(translation))
            if translation and lost:
                changed.append(f"{english!r} -> {translation!r}: {sorted(lost)} missing")
    assert not changed, f"{code}: notation changed:\n" + "\n".join(changed)


@pytest.mark.parametrize("code", TRANSLATED)
def test_board_labels_keep_three_characters(code: str) -> None:
    catalogue = _catalogue(code)
    for label in ("BAR", "OFF"):
        message = catalogue.get(label)
        assert message is not None, f"{code}: no entry for the board label {label}"
        assert len(message.string) == 3, f"{code}: {label} -> {message.string!r} does not fit the column"


def test_template_lists_every_message_in_the_sources() -> None:
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: set[MessageId] = set()
    for _filename, _line, message, _comments, _context in extract_from_dir(
        SOURCES, method_map, options_map, keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    template = _template_ids()
    new = sorted(map(_shown, found - template))
    gone = sorted(map(_shown, template - found))
    stale = "src/tavola/locale/tavola.pot is out of date: extract and update the catalogues (docs/translations.md)"
    assert not new, f"{stale}. Not in the template ({len(new)}): {', '.join(new)}"
    assert not gone, f"{stale}. No longer in the sources ({len(gone)}): {', '.join(gone)}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_compiled_catalogue_matches_its_source(code: str) -> None:
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    with (folder / "tavola.mo").open("rb") as file:
        compiled = {_key(message): message.string for message in read_mo(file) if message.id}
    source = {
        _key(message): message.string if isinstance(message.string, str) else list(message.string)
        for message in _catalogue(code)
        if message.id and message.string and not message.fuzzy
    }
    differ = sorted(
        _shown(key) for key in source.keys() | compiled.keys() if source.get(key) != compiled.get(key)
    )
    assert not differ, f"{folder / 'tavola.mo'} is stale; pybabel compile it again. Differences: {differ}"


# --- choosing the language ------------------------------------------------------------------------


def test_an_unknown_language_is_refused_and_the_language_stays() -> None:
    set_language("it")
    with pytest.raises(UnknownLanguageError, match="unknown language 'xx'"):
        set_language("xx")
    assert language() == "it"


def test_a_message_without_translation_falls_back_to_english() -> None:
    set_language("it")
    assert _("A text no catalogue has") == "A text no catalogue has"
    assert ngettext("{count} unknown thing", "{count} unknown things", 2) == "{count} unknown things"
    assert _("roll the dice") == "tira i dadi"


def test_english_is_the_source_text() -> None:
    set_language("es")
    set_language("en")
    assert _("roll the dice") == "roll the dice"
    assert ngettext("{count} legal play:", "{count} legal plays:", 1) == "{count} legal play:"


@pytest.mark.parametrize(
    ("code", "one", "two"),
    [("it", "1 mossa legale:", "2 mosse legali:"), ("es", "1 jugada legal:", "2 jugadas legales:")],
)
def test_plural_forms_follow_the_count(code: str, one: str, two: str) -> None:
    set_language(code)
    for count, expected in ((1, one), (2, two)):
        assert ngettext("{count} legal play:", "{count} legal plays:", count).format(count=count) == expected


def test_detect_language_prefers_tavola_lang_over_settings_and_locale(tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text('lang = "it"\n', encoding="utf-8")
    environ = {"TAVOLA_LANG": "es", "LANG": "it_IT.UTF-8"}
    assert detect_language(environ, settings_file=settings) == "es"


def test_detect_language_reads_the_settings_file_before_the_locale(tmp_path: Path) -> None:
    settings = tmp_path / "tavola" / "settings.toml"
    settings.parent.mkdir()
    settings.write_text('lang = "it"\n', encoding="utf-8")
    environ = {"XDG_CONFIG_HOME": str(tmp_path), "LANG": "es_ES.UTF-8"}
    assert detect_language(environ) == "it"  # the usual place, under XDG_CONFIG_HOME
    assert detect_language(environ, settings_file=settings) == "it"


def test_detect_language_follows_the_locale_without_settings(tmp_path: Path) -> None:
    nowhere = tmp_path / "missing.toml"
    assert detect_language({"LANG": "es_AR.UTF-8"}, settings_file=nowhere) == "es"
    assert detect_language({"LANGUAGE": "fr:it", "LANG": "fr_FR.UTF-8"}, settings_file=nowhere) == "it"
    assert detect_language({"LC_ALL": "fr_FR.UTF-8", "LANG": "it_IT.UTF-8"}, settings_file=nowhere) == "en"
    assert detect_language({}, settings_file=None) == "en"


def test_detect_language_refuses_unknown_or_broken_choices(tmp_path: Path) -> None:
    with pytest.raises(UnknownLanguageError, match="TAVOLA_LANG"):
        detect_language({"TAVOLA_LANG": "fr"}, settings_file=None)
    broken = tmp_path / "settings.toml"
    broken.write_text("lang = \n", encoding="utf-8")
    with pytest.raises(UnknownLanguageError, match="not a valid settings file"):
        detect_language({}, settings_file=broken)
    broken.write_text('lang = "de"\n', encoding="utf-8")
    with pytest.raises(UnknownLanguageError, match="unknown language 'de'"):
        detect_language({}, settings_file=broken)


def test_set_language_without_a_code_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("TAVOLA_LANG", "es")
    assert set_language() == "es"
    assert _("roll the dice") == "tira los dados"


# --- the texts players read -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", "24/19: point 19 is blocked (R5)"),
        ("it", "24/19: la punta 19 è bloccata (R5)"),
        ("es", "24/19: el punto 19 está bloqueado (R5)"),
    ],
)
def test_an_illegal_play_is_explained_in_the_language_in_use(code: str, expected: str) -> None:
    set_language(code)
    with pytest.raises(IllegalPlayError) as raised:
        parse_play(Position.start(), Dice(6, 5), "24/18 24/19")
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "it",
            "24/18: si possono giocare entrambi i dadi, quindi vanno giocati entrambi: 24/13 è legale (R11)",
        ),
        ("es", "24/18: se pueden jugar los dos dados, así que hay que jugar los dos: 24/13 es legal (R11)"),
    ],
)
def test_the_forced_play_rule_is_explained_in_the_language_in_use(code: str, expected: str) -> None:
    set_language(code)
    with pytest.raises(IllegalPlayError) as raised:
        parse_play(Position.start(), Dice(6, 5), "24/18")
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "it",
            "non riesco a leggere 'x': un movimento indica da dove parte e dove arriva una pedina, per es. 24/18",
        ),
        ("es", "no se puede leer 'x': un movimiento indica dónde sale y dónde llega una ficha, p. ej. 24/18"),
    ],
)
def test_notation_errors_are_translated(code: str, expected: str) -> None:
    set_language(code)
    with pytest.raises(NotationError) as raised:
        parse_play(Position.start(), Dice(6, 5), "x")
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("it", "tocca al giocatore 0, non al giocatore 1 (R21)"),
        ("es", "le toca al jugador 0, no al jugador 1 (R21)"),
    ],
)
def test_game_refusals_are_translated(code: str, expected: str) -> None:
    set_language(code)
    game = Game(position=Position.start(), player_on_roll=0)
    with pytest.raises(OutOfTurnError) as raised:
        game.double(player=1)
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    ("code", "turn", "pips"),
    [
        ("en", "X to move, rolled 3-1   cube 2", "X  pips 167"),
        ("it", "tocca a X: 3-1   cubo 2", "X  pip 167"),
        ("es", "turno de X: 3-1   cubo 2", "X  pips 167"),
    ],
)
def test_board_notes_are_translated_and_the_columns_stay(code: str, turn: str, pips: str) -> None:
    set_language("en")
    english = ascii_board(Position.start(), dice=Dice(3, 1), cube=Cube(2)).splitlines()
    set_language(code)
    lines = ascii_board(Position.start(), dice=Dice(3, 1), cube=Cube(2)).splitlines()
    assert lines[6].endswith(turn)
    assert lines[10].endswith(pips)
    board_width = len(english[0])
    assert [line[:board_width] for line in lines] == [line[:board_width] for line in english]


# --- a language per thread or task ------------------------------------------------------------------

BLOCKED = {
    "en": "24/19: point 19 is blocked (R5)",
    "it": "24/19: la punta 19 è bloccata (R5)",
    "es": "24/19: el punto 19 está bloqueado (R5)",
}


def _refusal() -> str:
    try:
        parse_play(Position.start(), Dice(6, 5), "24/18 24/19")
    except IllegalPlayError as error:
        return str(error)
    raise AssertionError("24/18 24/19 with 6-5 was accepted")


def test_two_threads_in_two_languages_each_read_their_own() -> None:
    """Two requests served at once in different languages never mix: the language is per thread."""
    set_language("en")
    both_inside = threading.Barrier(2, timeout=30)
    seen: dict[str, list[str]] = {}

    def serve(code: str) -> None:
        with use_language(code):
            both_inside.wait()  # both threads have set their language before either reads
            first = _refusal()
            both_inside.wait()
            seen[code] = [first, _refusal(), language()]

    threads = [threading.Thread(target=serve, args=(code,)) for code in ("it", "es")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"it": [BLOCKED["it"], BLOCKED["it"], "it"], "es": [BLOCKED["es"], BLOCKED["es"], "es"]}
    assert language() == "en"
    assert _refusal() == BLOCKED["en"]


def test_two_asyncio_tasks_in_two_languages_each_read_their_own() -> None:
    async def serve(code: str, step: asyncio.Event, other: asyncio.Event) -> str:
        with use_language(code):
            step.set()
            await other.wait()  # the other task has set its language in between
            return _refusal()

    async def both() -> list[str]:
        italian, spanish = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(serve("it", italian, spanish), serve("es", spanish, italian))

    assert asyncio.run(both()) == [BLOCKED["it"], BLOCKED["es"]]


def test_the_default_language_does_not_override_a_block() -> None:
    with use_language("es"):
        set_language("it")  # the process's default changes, this block keeps its own
        assert language() == "es"
        assert _("roll the dice") == "tira los dados"
    assert language() == "it"
    assert _("roll the dice") == "tira i dadi"


def test_use_language_refuses_an_unknown_code_and_keeps_the_language() -> None:
    with pytest.raises(UnknownLanguageError, match="unknown language 'xx'"), use_language("xx"):
        pass
    assert language() == "en"
