"""The rules explained to players: ``tavola.guide`` and ``tavola rules``.

Every topic must exist in every language, its boards must be the engine's
own pictures of the registered examples, and each text must say what the
rules it covers say (checked through a few words each language must use).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources

import pytest

import tavola.guide as guide
from tavola import BAR, Position
from tavola.cli import main
from tavola.errors import TavolaError
from tavola.guide import (
    ALIASES,
    BOARDS,
    TOPICS,
    UnknownBoardError,
    UnknownTopicError,
    board_names,
    fill_boards,
    find_topic,
    source_text,
    topic_text,
)
from tavola.i18n import LANGUAGES, set_language
from tavola.render.text import ascii_board
from tavola.variants import find_variant

NAMES = [topic.name for topic in TOPICS]


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The command speaks English unless a test passes ``--lang``; the language is reset afterwards."""
    monkeypatch.setenv("TAVOLA_LANG", "en")
    yield
    set_language("en")


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def assert_mentions(topic: str, expected: dict[str, list[str]]) -> None:
    """Each language's text of ``topic`` contains each of its expected words (case ignored)."""
    assert set(expected) == set(LANGUAGES)
    for language, needed in expected.items():
        text = source_text(topic, language).lower()
        missing = [word for word in needed if word.lower() not in text]
        assert not missing, f"{topic} ({language}) never mentions {missing}"


# --- every topic, every language ---------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("name", NAMES)
def test_every_topic_is_written_in_every_language(name: str, language: str) -> None:
    path = resources.files("tavola.guide").joinpath(language, f"{name}.md")
    assert path.is_file(), f"guide/{language}/{name}.md is missing"


def test_no_text_without_a_topic() -> None:
    for language in LANGUAGES:
        folder = resources.files("tavola.guide").joinpath(language)
        files = {entry.name for entry in folder.iterdir() if entry.name.endswith(".md")}
        assert files == {f"{name}.md" for name in NAMES}


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("name", NAMES)
def test_each_text_starts_with_its_title_and_names_its_rules(name: str, language: str) -> None:
    text = source_text(name, language)
    assert text.splitlines()[0] == f"# {find_topic(name).title(language)}"
    label = {"en": "Rules", "it": "Regole", "es": "Reglas"}[language]
    assert re.search(rf"^\*{label}: [RCMPHV]\d", text, re.MULTILINE), "no line naming the rule IDs"
    assert 120 <= len(words(text)) <= 700, "a topic is a short read"


@pytest.mark.parametrize("name", NAMES)
def test_texts_are_in_their_own_language(name: str) -> None:
    common = {
        "en": {"the", "and", "you", "your", "is", "of", "with", "to"},
        "it": {"il", "gli", "di", "che", "della", "e", "è", "non", "sono", "per"},
        "es": {"el", "los", "las", "y", "que", "de", "es", "no", "por", "para"},
    }
    for language in LANGUAGES:
        counted = words(source_text(name, language))
        score = {other: sum(word in wanted for word in counted) for other, wanted in common.items()}
        assert max(score, key=score.__getitem__) == language, f"{name} ({language}) reads as {score}"


def test_titles_and_summaries_in_every_language() -> None:
    for topic in TOPICS:
        assert set(topic.titles) == set(topic.summaries) == set(LANGUAGES)
        assert all(summary.endswith(".") for summary in topic.summaries.values())


# --- boards ------------------------------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("name", NAMES)
def test_every_board_line_names_a_registered_example(name: str, language: str) -> None:
    text = source_text(name, language)
    assert set(board_names(text)) <= set(BOARDS)
    filled = topic_text(name, language)
    assert "{{" not in filled


@pytest.mark.parametrize("name", NAMES)
def test_every_language_shows_the_same_boards(name: str) -> None:
    shown = {language: board_names(source_text(name, language)) for language in LANGUAGES}
    assert shown["it"] == shown["en"] == shown["es"]


def test_every_registered_example_is_shown_somewhere() -> None:
    shown = {board for name in NAMES for board in board_names(source_text(name, "en"))}
    assert shown == set(BOARDS)


@pytest.mark.parametrize("name", NAMES)
def test_pictures_are_the_engines_boards_of_the_examples(name: str) -> None:
    filled = topic_text(name, "en")
    for board in board_names(source_text(name, "en")):
        example = BOARDS[board]
        drawn = ascii_board(example.position, dice=example.dice)
        assert f"```text\n{drawn}\n```" in filled


def test_an_unknown_board_is_an_error() -> None:
    with pytest.raises(UnknownBoardError, match="no example board 'nowhere': acey-deucey-start"):
        fill_boards("Look:\n\n{{board: nowhere}}\n")
    with pytest.raises(UnknownBoardError, match="a line of its own"):
        fill_boards("Look: {{board: start}}\n")


def test_R2_start_example_is_the_start() -> None:
    assert BOARDS["start"].position == Position.start()


@pytest.mark.parametrize("variant", ["dutch", "acey-deucey", "nackgammon", "hypergammon"])
def test_V1_V5_variant_starts_are_the_variants_own(variant: str) -> None:
    example = BOARDS[f"{variant}-start"]
    assert example.variant is find_variant(variant)
    assert example.position == find_variant(variant).start


def test_E3_bar_entry_example_must_enter_with_the_4() -> None:
    example = BOARDS["bar-entry"]
    assert example.dice is not None
    plays = example.position.legal_plays(example.dice)
    assert plays
    for play in plays:
        assert (play.moves[0].source, play.moves[0].destination) == (BAR, 21), play


def test_E4_bearoff_example_6_bears_off_from_the_4_point() -> None:
    example = BOARDS["bearoff"]
    assert example.dice is not None
    notations = {play.notation for play in example.position.legal_plays(example.dice)}
    assert "4/off 1/off" in notations
    assert all("4/off" in notation for notation in notations)


def test_V1_dutch_example_has_no_hit_but_the_standard_game_would() -> None:
    example = BOARDS["dutch-no-hit"]
    assert example.dice is not None
    dutch = {play.notation for play in example.position.legal_plays(example.dice, example.variant)}
    standard = {play.notation for play in example.position.legal_plays(example.dice)}
    assert "23/15" in dutch
    assert not any("*" in notation for notation in dutch)
    assert {"24/18*/16", "20/14*/12"} <= standard


# --- what each topic says ----------------------------------------------------------


def test_R1_R21_game_topic_in_every_language() -> None:
    assert_mentions(
        "game",
        {
            "en": ["checker", "point", "bar", "home board", "bear off", "gammon", "backgammon", "larger"],
            "it": ["pedine", "punta", "bar", "tavoliere", "casa", "portare fuori", "gammon", "backgammon"],
            "es": ["fichas", "punto", "barra", "tablero", "casa", "sacar", "gammon", "backgammon"],
        },
    )
    for language in LANGUAGES:
        text = source_text("game", language)
        for notation in ("24/18 13/10", "bar/22", "6/off", "13/7*", "8/5(2)"):
            assert notation in text


def test_C1_C6_cube_topic_in_every_language() -> None:
    assert_mentions(
        "cube",
        {
            "en": ["cube", "double", "take", "drop", "redouble", "64", "resign", "beaver"],
            "it": ["cubo", "raddoppi", "accettare", "rifiutare", "redouble", "64", "abbandon", "beaver"],
            "es": ["cubo", "doblar", "aceptar", "rechazar", "redoble", "64", "rendirse", "beaver"],
        },
    )


def test_M1_M6_money_topic_in_every_language() -> None:
    assert_mentions(
        "money",
        {
            "en": ["stake", "automatic double", "no gammons", "match"],
            "it": ["posta", "raddoppi automatici", "niente gammon", "match"],
            "es": ["apuesta", "dobles automáticos", "sin gammons", "match"],
        },
    )
    assert_mentions("money", {language: ["Jacoby", "beaver", "raccoon", "otter"] for language in LANGUAGES})


def test_P1_P5_match_topic_in_every_language() -> None:
    assert_mentions(
        "match",
        {
            "en": ["match", "Crawford", "post-Crawford", "Holland", "third turn", "Jacoby", "beaver"],
            "it": ["match", "Crawford", "post-Crawford", "Holland", "terzo turno", "Jacoby", "beaver"],
            "es": ["match", "Crawford", "post-Crawford", "Holland", "tercer turno", "Jacoby", "beaver"],
        },
    )


def test_H1_H10_chouette_topic_in_every_language() -> None:
    assert_mentions(
        "chouette",
        {
            "en": ["box", "captain", "team", "queue", "single cube", "multiple cubes", "extra", "partner"],
            "it": ["box", "capitano", "squadra", "coda", "cubo unico", "più cubi", "extra", "compagno"],
            "es": ["box", "capitán", "equipo", "cola", "cubo único", "varios cubos", "extra", "compañero"],
        },
    )
    assert_mentions("chouette", {"en": ["ledger"], "it": ["registro"], "es": ["registro"]})


def test_V1_dutch_topic_in_every_language() -> None:
    assert_mentions(
        "dutch",
        {
            "en": ["checkers", "bar/22", "home board", "hit", "--variant dutch"],
            "it": ["pedine", "bar/22", "casa", "colpire", "--variant dutch"],
            "es": ["fichas", "bar/22", "casa", "golpear", "--variant dutch"],
        },
    )


def test_V2_acey_deucey_topic_in_every_language() -> None:
    assert_mentions(
        "acey-deucey",
        {
            "en": ["checkers", "in/21", "bar", "1-2", "double", "roll again", "no doubling cube"],
            "it": ["pedine", "in/21", "bar", "1-2", "doppio", "tiri di nuovo", "non c'è il cubo"],
            "es": ["fichas", "in/21", "barra", "1-2", "doble", "vuelves a tirar", "no hay cubo"],
        },
    )


def test_V4_nackgammon_topic_in_every_language() -> None:
    assert_mentions(
        "nackgammon",
        {
            "en": ["checkers", "24-point", "23", "194", "--variant nackgammon"],
            "it": ["pedine", "punta 24", "23", "194", "--variant nackgammon"],
            "es": ["fichas", "punto 24", "23", "194", "--variant nackgammon"],
        },
    )
    assert find_variant("nackgammon").start.pip_counts() == (194, 194)


def test_V5_hypergammon_topic_in_every_language() -> None:
    assert_mentions(
        "hypergammon",
        {
            "en": ["three checkers", "24-", "23-", "22-points", "69", "gammon"],
            "it": ["tre pedine", "24", "23", "22", "69", "gammon"],
            "es": ["tres fichas", "24", "23", "22", "69", "gammon"],
        },
    )
    assert find_variant("hypergammon").start.pip_counts() == (69, 69)


def test_options_the_texts_mention_exist(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    help_text = capsys.readouterr().out
    for name in NAMES:
        for language in LANGUAGES:
            for code in re.findall(r"`([^`]*)`", source_text(name, language)):
                for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", code):
                    assert flag in help_text, f"{name} ({language}) mentions {flag}"


# --- topics, aliases and languages -------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("cube", "cube"),
        ("cubo", "cube"),
        ("raddoppio", "cube"),
        ("partita", "game"),
        ("partida", "game"),
        ("incontro", "match"),
        ("partido", "match"),
        ("olandese", "dutch"),
        ("holandés", "dutch"),
        ("Holandes", "dutch"),
        ("Acey Deucey", "acey-deucey"),
        ("acey_deucey", "acey-deucey"),
        (" HYPERGAMMON ", "hypergammon"),
    ],
)
def test_topics_are_found_by_english_and_local_names(typed: str, name: str) -> None:
    assert find_topic(typed).name == name


def test_aliases_lead_to_topics_and_hide_none() -> None:
    assert set(ALIASES.values()) <= set(NAMES)
    assert not set(ALIASES) & set(NAMES)


def test_an_unknown_topic_names_the_known_ones() -> None:
    with pytest.raises(UnknownTopicError, match="no rules topic 'chess': game, cube, money") as raised:
        topic_text("chess", "en")
    assert isinstance(raised.value, TavolaError)


def test_a_missing_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    assert topic_text("cube", "fr") == topic_text("cube", "en")
    read = guide._read
    monkeypatch.setattr(
        guide, "_read", lambda name, language: None if language == "it" else read(name, language)
    )
    assert source_text("cube", "it") == source_text("cube", "en")


def test_the_language_in_use_is_the_default() -> None:
    set_language("es")
    assert topic_text("dutch") == topic_text("dutch", "es")
    assert find_topic("dutch").title() == "Backgammon holandés"


# --- the command -------------------------------------------------------------------


def test_rules_lists_the_topics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for topic in TOPICS:
        assert topic.name in out
        assert topic.title("en") in out
    assert "tavola rules cube" in out


def test_rules_lists_the_topics_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "it", "rules", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "Il cubo del raddoppio" in out
    assert "Backgammon olandese" in out
    assert "  acey-deucey  " in out


def test_rules_cube_prints_the_topic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "cube"]) == 0
    out = capsys.readouterr().out
    assert "The doubling cube" in out
    assert "Take or drop" in out
    assert "{{" not in out
    assert "```" not in out


def test_rules_in_italian_by_the_italian_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "it", "rules", "cubo"]) == 0
    out = capsys.readouterr().out
    assert "Il cubo del raddoppio" in out
    assert "Accettare o rifiutare" in out


def test_rules_chouette_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chouette", "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert "La chouette" in out
    assert "capitán" in out


def test_rules_draws_the_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "game"]) == 0
    out = capsys.readouterr().out
    for line in ascii_board(Position.start()).splitlines():
        assert line in out


def test_rules_plain_prints_the_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "es", "rules", "--plain", "holandés"]) == 0
    assert capsys.readouterr().out == topic_text("dutch", "es")


def test_rules_unknown_topic_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chess"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert 'no topic called "chess"' in captured.err
    assert "game, cube, money, match, chouette, dutch, acey-deucey" in captured.err
