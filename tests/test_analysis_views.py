"""How an analysis is shown: its values in the players' words, the terminal summary, and ``tavola analyze``
on a chouette record and spread over processes."""

from __future__ import annotations

import gettext
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import tavola.i18n
from tavola.analysis.analyze import analyze_file
from tavola.analysis.model import Analysis, CubeError, LuckClass, Rating, Skill
from tavola.analysis.summary import analysis_summary
from tavola.analysis.words import (
    CHOICE_NAMES,
    CUBE_ERROR_NAMES,
    LUCK_NAMES,
    RATING_NAMES,
    SKILL_NAMES,
    choice_name,
    level_name,
)
from tavola.bot.evaluate import Evaluator
from tavola.chouette import Chouette, ChouetteSettings
from tavola.cli import main
from tavola.dicesource import RandomDice

DATA = Path(__file__).parent / "data"
MATCH = DATA / "gnubg-5-point-match.mat"
MONEY = DATA / "gnubg-money-beavers.mat"


class Marked(gettext.NullTranslations):
    """A catalogue that gives every message back in angle brackets, to see which texts are translated."""

    def gettext(self, message: str) -> str:
        return f"<{message}>"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"<{singular if n == 1 else plural}>"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tavola.i18n, "translations", lambda code: Marked())


@pytest.fixture(scope="module")
def money_analysis() -> Analysis:
    return analyze_file(MONEY, level="0-ply", evaluator=Evaluator.default())


def shown(renderable: object) -> str:
    output = io.StringIO()
    Console(file=output, width=220, color_system=None).print(renderable)
    return output.getvalue()


def test_every_value_an_analysis_names_has_its_words() -> None:
    assert set(SKILL_NAMES) == set(Skill)
    assert set(LUCK_NAMES) == set(LuckClass)
    assert set(CUBE_ERROR_NAMES) == set(CubeError)
    assert set(RATING_NAMES) == set(Rating)


def test_M3_M4_every_cube_and_resignation_choice_judged_has_its_words(money_analysis: Analysis) -> None:
    choices = {
        alternative.text
        for decision in money_analysis.decisions
        if decision.kind == "cube"
        for alternative in decision.alternatives
    }
    assert {"beaver", "raccoon", "double, beaver", "resign", "play on"} <= choices
    assert choices <= set(CHOICE_NAMES)


def test_a_play_stays_in_its_notation_and_a_choice_is_translated(marked: None) -> None:
    assert choice_name("24/18 13/9") == "24/18 13/9"
    assert choice_name("double, take") == "<double, take>"
    assert choice_name("") == "<(no move)>"
    assert level_name("1-ply") == level_name("1-ply cubeful") == "<1-ply cubeful>"
    assert level_name("a rollout") == "a rollout"


def test_the_terminal_summary_names_ratings_classes_and_choices_in_the_language_in_use(
    money_analysis: Analysis, marked: None
) -> None:
    text = shown(analysis_summary(money_analysis))
    assert "<awful>" in text  # both players' rating
    assert "awful" not in text.replace("<awful>", "")
    for words in ("<very bad>", "<doubtful>", "<raccoon>", "<double, beaver>", "<resign>", "<play on>"):
        assert words in text
    assert "24/18 13/9" in text  # a play in Tavola's notation
    assert "<24/18 13/9>" not in text
    assert "<Errors>" in text


def test_an_answer_to_a_double_knows_the_double_it_answers(money_analysis: Analysis) -> None:
    answers = [d for d in money_analysis.decisions if d.played in ("take", "drop", "beaver", "raccoon")]
    assert answers
    for decision in answers:
        assert decision.offer is not None
        assert decision.offer.answering == decision.player
        assert decision.offer.value == decision.cube.value * 2 ** (decision.offer.redoubles + 1)
    others = [d for d in money_analysis.decisions if d not in answers]
    assert all(decision.offer is None for decision in others)


# tavola analyze on a chouette record, and spread over processes.


def saved_chouette(path: Path) -> Path:
    """Cid, the box, doubles Ann and Ben; Ann takes and Ben drops; Ann redoubles and Cid drops."""
    table = Chouette(ChouetteSettings(), RandomDice(seed=5), players=["Ann", "Ben", "Cid"])
    game = table.start_game()
    game.roll("Ann")
    game.play("Ann", "24/15")
    game.double("Cid", ["Ann", "Ben"])
    game.take("Ann")
    game.drop("Ben")
    game.roll("Cid")
    game.play("Cid", "24/18(2) 13/7(2)")
    game.double("Ann")
    game.drop("Cid")
    table.save(path)
    return path


def test_H5_tavola_analyze_judges_a_saved_chouette_cube_by_cube(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_chouette(tmp_path / "chouette.json")
    assert main(["analyze", str(path), "--level", "0-ply"]) == 0
    text = capsys.readouterr().out
    assert "Analysis of the chouette (1 game, 0-ply cubeful)" in text
    assert all(name in text for name in ("Ann", "Ben", "Cid"))

    assert main(["analyze", str(path), "--level", "0-ply", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "tavola-chouette-analysis"
    assert sorted(data["names"]) == ["Ann", "Ben", "Cid"]
    assert data["games"] == 1
    assert [player["name"] for player in data["players"]] == data["names"]
    answers = {(data["names"][d["player"]], d["played"]) for d in data["decisions"] if d["offer"]}
    assert {("Ann", "take"), ("Ben", "drop"), ("Cid", "drop")} <= answers  # each on their own cube


def test_the_html_report_of_a_chouette_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_chouette(tmp_path / "chouette.json")
    out = tmp_path / "report.html"
    assert main(["analyze", str(path), "--level", "0-ply", "--html", str(out)]) == 2
    assert "the HTML report covers two-player records, not a chouette" in capsys.readouterr().err
    assert not out.exists()
    assert main(["analyze", str(path), "--names", "A", "B"]) == 2
    assert "--names is for two-player records" in capsys.readouterr().err


def test_two_files_spread_over_two_processes_are_analysed_as_in_this_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = [str(MATCH), str(MONEY), "--level", "0-ply", "--json"]
    assert main(["analyze", *files]) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(["analyze", *files, "--workers", "2"]) == 0
    spread = json.loads(capsys.readouterr().out)
    assert [entry["length"] for entry in spread] == [5, 0]
    assert spread == here


def test_a_bad_number_of_workers_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(MONEY), "--workers", "0"]) == 2
    assert "1 process or more, not 0" in capsys.readouterr().err
