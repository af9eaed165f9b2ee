"""The HTML analysis report: one self-contained page, escaped, accessible, with a board for each error.

The analyses here are built by hand from real positions (the plays are the
positions' legal plays, the equities made up), so the page is tested apart
from the engine; a real browser (Debian's chromium through Playwright, or its
command line) renders one and keeps a screenshot.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from builders import position
from tavola import Dice, Position
from tavola.analysis.analyze import analyze_file
from tavola.analysis.html import BOARD_SIZE, CHECKER_COLOURS, report_html
from tavola.analysis.model import (
    Alternative,
    Analysis,
    CubeError,
    Decision,
    GameSummary,
    LuckClass,
    PlayerFigures,
    Rating,
    Skill,
    luck_of,
    skill_of,
)
from tavola.cube import Cube, CubeOffer
from tavola.i18n import use_language
from tavola.render import svg_board

CHROMIUM = Path("/usr/bin/chromium")
MATCH = Path(__file__).parent / "data" / "gnubg-5-point-match.mat"


# Analyses built by hand.


def move_decision(
    game: int, move: int, player: int, where: Position, dice: str, played: int, *, luck: float = 0.0
) -> Decision:
    """A checker play among ``where``'s legal plays of ``dice``, the ``played``-th best chosen; each
    worse play loses 0.04 more than the one before."""
    roll = Dice.parse(dice)
    plays = [play.notation for play in where.legal_plays(roll)][:8]
    alternatives = tuple(Alternative(text, 0.2 - 0.04 * rank, plies=2) for rank, text in enumerate(plays))
    loss = alternatives[0].equity - alternatives[played].equity
    return Decision(
        game, move, player, "move", where, roll, Cube(), alternatives[played].text, alternatives[0].text,
        loss, None, skill_of(loss), alternatives, luck, luck_of(luck),
    )  # fmt: skip


def take_decision(game: int, move: int, player: int, where: Position, cube: Cube) -> Decision:
    """A wrong take: passing was worth 1.0, taking loses 0.15 more."""
    alternatives = (Alternative("drop", -1.0), Alternative("take", -1.15))
    return Decision(
        game, move, player, "cube", where, None, cube, "take", "drop", 0.15, None, Skill.VERY_BAD,
        alternatives, cube_error=CubeError.WRONG_TAKE,
    )  # fmt: skip


def figures(name: str, **changes: object) -> PlayerFigures:
    values: dict[str, object] = {
        "name": name, "moves": 30, "unforced_moves": 26, "cube_decisions": 3, "total_error": 0.31,
        "move_error": 0.16, "cube_error": 0.15, "error_rate_memg": 10.7, "pr": 8.2,
        "move_errors": {Skill.DOUBTFUL: 1, Skill.BAD: 1}, "cube_errors_by_skill": {Skill.VERY_BAD: 1},
        "cube_errors": {CubeError.WRONG_TAKE: 1}, "luck": 0.62, "luck_per_move": 0.0207, "very_lucky": 1,
        "lucky": 2, "unlucky": 0, "very_unlucky": 1, "result": 0.5, "luck_adjusted_result": 0.21,
        "rating": Rating.ADVANCED,
    }  # fmt: skip
    values.update(changes)
    return PlayerFigures(**values)  # type: ignore[arg-type]


def sample_analysis(names: tuple[str, str] = ("Alice", "Bob"), length: int = 5) -> Analysis:
    """Two games: three errors (a doubtful and a bad play, a very bad take) among fine decisions."""
    middle = position({6: 5, 8: 3, 13: 4, 24: 2, 4: 1}, {19: 4, 17: 3, 12: 5, 1: 2, 20: 1})
    decisions = (
        move_decision(1, 1, 0, Position.start(), "31", 0),
        move_decision(1, 2, 1, Position.start(), "64", 1, luck=0.1),
        move_decision(1, 3, 0, middle, "52", 2, luck=-0.65),
        take_decision(1, 4, 1, middle.flip(), Cube(2)),
        move_decision(2, 1, 1, Position.start(), "65", 0, luck=0.4),
        move_decision(2, 2, 0, Position.start(), "43", 1),
    )
    games = (
        GameSummary(1, (0, 0), 0, 2, (0.5, 0.52, 0.48, 0.61)),
        GameSummary(2, (2, 0), 1, 1, (0.66, 0.64)),
    )
    won, adjusted = (0.5, 0.21) if length else (1.0, 0.71)  # match winning chances against 50%, or points
    players = (
        figures(names[0], result=won, luck_adjusted_result=adjusted),
        figures(names[1], result=-won, luck_adjusted_result=-adjusted, rating=Rating.WORLD_CLASS),
    )
    return Analysis("sample.mat", length, "standard", "2-ply cubeful", players, games, decisions)


# Reading the page back.


class Page(HTMLParser):
    """The parts of a page the tests look at: its elements, attributes, texts and nesting."""

    VOID = frozenset({"meta", "br", "link", "img", "input", "hr", "col", "area", "base", "wbr", "source"})

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.open: list[str] = []
        self.mismatched: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.mismatched.append(tag)
        else:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        self.texts.append(data)

    def all(self, tag: str, **wanted: str) -> list[dict[str, str | None]]:
        return [
            attrs
            for name, attrs in self.tags
            if name == tag and all(attrs.get(k) == v for k, v in wanted.items())
        ]

    @property
    def text(self) -> str:
        return " ".join(self.texts)


@pytest.fixture(scope="module")
def sample_page() -> str:
    return report_html(sample_analysis())


@pytest.fixture(scope="module")
def match_analysis() -> Analysis:
    """GNU Backgammon's 5-point match against a person, analysed at 0-ply."""
    return analyze_file(MATCH, level="0-ply")


def boards_of(page: Page) -> list[dict[str, str | None]]:
    return [attrs for attrs in page.all("svg") if attrs.get("viewbox") == "0 0 17.2 15"]


def test_the_report_is_one_well_formed_html_document(sample_page: str) -> None:
    page = Page(sample_page)
    assert sample_page.startswith("<!DOCTYPE html>")
    assert page.mismatched == []
    assert page.open == []
    assert page.all("html")[0]["lang"] == "en"
    assert page.all("meta", charset="utf-8")


def test_the_report_fetches_nothing(sample_page: str) -> None:
    page = Page(sample_page)
    assert not page.all("script")
    assert not page.all("link")
    assert not page.all("img")
    for tag, attributes in page.tags:
        for name, value in attributes.items():
            if name != "xmlns":  # a namespace name, never fetched
                assert not re.search(r"https?:|^//", value or ""), (tag, name, value)
            if name in ("href", "src"):
                assert (value or "").startswith("#"), (tag, name, value)
    assert "url(" not in sample_page
    assert "@import" not in sample_page


def test_every_error_has_its_board_with_the_dice_and_the_cube(sample_page: str) -> None:
    analysis = sample_analysis()
    page = Page(sample_page)
    errors = analysis.errors()
    assert [d.skill for d in errors] == [Skill.DOUBTFUL, Skill.BAD, Skill.VERY_BAD, Skill.DOUBTFUL]
    sections = page.all("section")
    decisions = [s for s in sections if "decision" in (s.get("class") or "").split()]
    assert len(decisions) == len(errors)
    boards = boards_of(page)
    assert len(boards) == len(errors)
    for board in boards:  # each board is named by its caption
        label = board["aria-labelledby"]
        assert label
        assert page.all("figcaption", id=label)
    # the dice drawn on the three checker plays (64, 52, 43), none on the take
    assert sample_page.count('class="pip"') == (6 + 4) + (5 + 2) + (4 + 3)


def test_the_play_made_and_the_better_ones_are_listed_with_their_loss(sample_page: str) -> None:
    analysis = sample_analysis()
    bad = analysis.errors()[1]
    assert bad.skill is Skill.BAD
    assert bad.dice == Dice(5, 2)
    page = Page(sample_page)
    assert bad.played in page.text
    assert bad.best in page.text
    assert "0.080" in page.text  # the loss of the third best play
    assert "-0.080" in page.text  # its equity against the best in the table
    assert "very unlucky (-0.650)" in page.text
    assert "wrong take" in page.text
    assert "Choice" in page.text  # the take's choices are not plays


def test_the_header_names_the_match_the_level_and_the_result(sample_page: str) -> None:
    text = Page(sample_page).text
    assert "Analysis of a match to 5 at 2-ply cubeful" in text
    assert "Match to 5 · Alice 2, Bob 1" in text
    assert "Error rate (mEMG)" in text
    assert "10.7" in text
    assert "world class" in text
    assert "advanced" in text
    assert "+50.0%" in text  # the chances of winning the match against the 50% of the start: Alice won it
    assert "-50.0%" in text
    assert "+21.0%" in text  # less her luck, plus Bob's
    assert "-21.0%" in text


def test_a_money_session_reports_points_and_equity() -> None:
    page = Page(report_html(sample_analysis(length=0)))
    assert "Money session · Alice +1, Bob -1" in page.text
    assert "Equity of Alice" in page.text
    assert "+1.00" in page.text
    assert "+0.71" in page.text
    assert "-0.71" in page.text  # the luck-adjusted results are opposite


def test_the_chart_draws_each_game_and_marks_each_error(sample_page: str) -> None:
    page = Page(sample_page)
    chart = page.all("svg", **{"class": "chart"})
    assert len(chart) == 1
    assert len(page.all("polyline")) == 2
    marks = page.all("g", **{"class": "mark"})
    assert len(marks) == 4
    anchors = {attrs["href"] for attrs in page.all("a") if (attrs["href"] or "").startswith("#decision-")}
    assert anchors == {"#decision-2", "#decision-3", "#decision-4", "#decision-6"}
    ids = {attrs.get("id") for _, attrs in page.tags}
    assert {anchor[1:] for anchor in anchors} <= ids


def test_names_from_a_file_are_escaped() -> None:
    names = ("<script>alert(1)</script>", 'Bob "&" <b>')
    text = report_html(sample_analysis(names=names))
    page = Page(text)
    assert not page.all("script")
    assert not page.all("b")
    assert "<script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert names[0] in page.text
    assert names[1] in page.text


def test_the_page_speaks_the_language_in_use() -> None:
    with use_language("it"):
        text = report_html(sample_analysis())
    page = Page(text)
    assert page.all("html")[0]["lang"] == "it"
    assert "Perdita" in page.text
    assert "vincitore" in page.text


def test_a_record_without_errors_says_so() -> None:
    analysis = sample_analysis()
    clean = Analysis(
        analysis.source, analysis.length, analysis.variant, analysis.level, analysis.players,
        analysis.games, tuple(d for d in analysis.decisions if d.skill is Skill.NONE),
    )  # fmt: skip
    page = Page(report_html(clean))
    assert "No decision was doubtful or worse." in page.text
    assert not boards_of(page)


def test_C3_an_answer_to_a_double_shows_the_cube_offered_on_the_doublers_side() -> None:
    middle = position({6: 5, 8: 3, 13: 4, 24: 2, 4: 1}, {19: 4, 17: 3, 12: 5, 1: 2, 20: 1})
    answer = replace(
        take_decision(1, 4, 1, middle.flip(), Cube(2, owner=1)), offer=CubeOffer(4, doubler=0)
    )  # Bob owns the cube at 2; Alice redoubles to 4 and Bob answers
    analysis = replace(sample_analysis(), decisions=(answer,))
    page = report_html(analysis)

    def board(cube: Cube) -> str:
        drawn = svg_board(answer.position, size=BOARD_SIZE, colors=CHECKER_COLOURS[::-1], cube=cube, mover=1)
        return drawn.replace(' role="img"', ' role="img" aria-labelledby="decision-1-board"', 1)

    assert board(Cube(4, owner=0)) in page
    assert board(Cube(2, owner=1)) not in page


def test_a_played_choice_far_down_the_list_is_shown_with_its_rank() -> None:
    decision = move_decision(1, 1, 0, Position.start(), "21", 7)
    assert decision.skill is Skill.VERY_BAD
    analysis = sample_analysis()
    one = Analysis("x.mat", 5, "standard", "0-ply", analysis.players, analysis.games[:1], (decision,))
    page = Page(report_html(one))
    rows = [attrs for attrs in page.all("tr") if "played" in (attrs.get("class") or "")]
    assert len(rows) == 1
    assert "8" in page.text
    assert decision.played in page.text
    assert decision.luck_class is LuckClass.NONE


def test_an_analysed_match_shows_every_error_with_its_board(match_analysis: Analysis) -> None:
    text = report_html(match_analysis)
    page = Page(text)
    errors = match_analysis.errors()
    assert len(errors) >= 10
    assert page.mismatched == []
    assert len(boards_of(page)) == len(errors)
    assert len(page.all("g", **{"class": "mark"})) == len(errors)
    assert len(page.all("polyline")) == sum(1 for game in match_analysis.games if game.trace)
    assert "Match to 5 · gnubg 3, root 5 · root wins the match 5-3." in page.text
    for decision in errors:
        assert page.all("section", id=f"decision-{match_analysis.decisions.index(decision) + 1}")
    assert len(text.encode()) < 400_000


def test_an_analysed_money_session_with_beavers_and_a_resignation() -> None:
    analysis = analyze_file(MATCH.with_name("gnubg-money-beavers.mat"), level="0-ply")
    page = Page(report_html(analysis))
    assert page.mismatched == []
    assert len(boards_of(page)) == len(analysis.errors())
    assert "Money session · Ann +18, Ben -18" in page.text
    assert "raccoon" in page.text
    assert "Ben to decide on a resignation" in page.text
    assert "play on" in page.text


# In a browser.


def _artefact(path: Path) -> None:
    """Keep a copy of ``path`` where TAVOLA_ARTEFACTS says, if it says."""
    folder = os.environ.get("TAVOLA_ARTEFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


@pytest.mark.parametrize("record", ["sample", "match"])
def test_a_browser_renders_every_board_without_errors(record: str, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    analysis = sample_analysis() if record == "sample" else analyze_file(MATCH, level="0-ply")
    report = tmp_path / f"analysis-{record}.html"
    report.write_text(report_html(analysis), encoding="utf-8")
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        except sync_api.Error as error:
            pytest.skip(f"chromium does not start under Playwright: {error}")
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on(
                "console", lambda message: problems.append(message.text) if message.type == "error" else None
            )
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: problems.append(f"fetched {request.url}")
                    if not request.url.startswith("file:") else None)  # fmt: skip
            page.goto(report.as_uri())
            boards = page.locator("section.decision figure svg")
            assert boards.count() == len(analysis.errors())
            for index in range(boards.count()):
                board = boards.nth(index)
                board.scroll_into_view_if_needed()
                assert board.is_visible()
                box = board.bounding_box()
                assert box is not None
                assert box["width"] > 200
                assert box["height"] > 150
            assert page.locator("svg.chart polyline").count() == sum(
                1 for game in analysis.games if game.trace
            )
            assert page.locator("svg.chart").bounding_box()["width"] > 500  # type: ignore[index]
            shot = tmp_path / f"analysis-report-{record}.png"
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    assert problems == []
    assert shot.stat().st_size > 10_000
    _artefact(shot)
    _artefact(report)


def test_chromium_on_the_command_line_takes_a_screenshot(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    report = tmp_path / "analysis.html"
    report.write_text(report_html(sample_analysis()), encoding="utf-8")
    shot = tmp_path / "analysis-report-cli.png"
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1100,1400", f"--screenshot={shot}", report.as_uri(),
    ]  # fmt: skip
    subprocess.run(command, capture_output=True, timeout=120, check=False)
    if not shot.exists():
        pytest.skip("chromium wrote no screenshot here")
    assert shot.stat().st_size > 10_000
    _artefact(shot)
