"""``tavola hint``: ranked plays for a roll, the cube decision without one, XGIDs with their score."""

from __future__ import annotations

import re

import pytest

from tavola.cli import main

START = "4HPwATDgc/ABMA"


def rows(text: str) -> list[tuple[str, float, float]]:
    """(play, equity, win %) of each row of the hint table."""
    found = re.findall(r"│\s+\d+ │ ([^│]+?)\s+│ ([+-]\d\.\d{3}) │[^│]*│\s+([\d.]+)%", text)
    return [(play, float(equity), float(win)) for play, equity, win in found]


def test_hint_ranks_every_play_of_the_roll_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", START, "31", "--level", "advanced", "--limit", "20"]) == 0
    ranked = rows(capsys.readouterr().out)
    assert len(ranked) == 16  # the 16 legal plays of 3-1 from the start
    equities = [equity for _, equity, _ in ranked]
    assert equities == sorted(equities, reverse=True)


def test_every_row_of_the_hint_shows_its_loss_against_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    """The plays judged at a shallower depth too: each loss is the row's equity less the first row's, in
    the order ranked (the terminal game's and the chouette's hints draw the same table)."""
    assert main(["hint", START, "31", "--limit", "20"]) == 0
    found = re.findall(
        r"│\s+\d+ │ [^│]+│ ([+-]\d\.\d{3}) │\s*(\S*) │[^\n]*│\s+(\d+) │", capsys.readouterr().out
    )
    assert len(found) == 16
    assert len({depth for _, _, depth in found}) > 1  # some plays were judged less deeply
    first = float(found[0][0])
    assert found[0][1] == "+0.000"
    for equity, loss, _ in found:
        assert float(loss) == pytest.approx(float(equity) - first, abs=0.0015)  # both rounded to 0.001


def test_C2_hint_without_dice_gives_the_cube_decision(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", START, "--level", "advanced"]) == 0
    assert "No double" in capsys.readouterr().out  # the opening position is no double


def test_P1_an_xgid_at_double_match_point_ranks_plays_by_their_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    dmp = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:4:0:5:10"  # 5-point match at 4-4, 5-2 to play
    assert main(["hint", dmp, "--level", "advanced", "--limit", "20"]) == 0
    ranked = rows(capsys.readouterr().out)
    assert len(ranked) == 8
    for _, equity, win in ranked:  # only winning counts: equity = 2 * wins - 1
        assert equity == pytest.approx(2 * win / 100 - 1, abs=0.0015)


def test_a_bad_position_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "nonsense", "31"]) == 2
    assert "neither a gnubg Position ID" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("xgid", "says"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:4:0:100:10", "a match is to 1 to 64 points, not 100"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:0:1:5:10", "no Crawford game"),
    ],
)
def test_P1_P2_hint_refuses_an_xgid_of_a_match_tavola_does_not_play(
    capsys: pytest.CaptureFixture[str], xgid: str, says: str
) -> None:
    assert main(["hint", xgid, "--level", "advanced"]) == 2
    assert says in capsys.readouterr().err


def test_V2_hint_reads_the_tavola_ids_the_game_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """An Acey-Deucey opening 2-1 by its Tavola ID: entering two checkers ranks above one checker moved on."""
    acey_start = "TVL=--------------------------:15:15:15"
    assert main(["hint", acey_start, "21", "--variant", "acey-deucey", "--level", "advanced"]) == 0
    ranked = [play for play, _, _ in rows(capsys.readouterr().out)]
    assert ranked.index("in/24 in/23") < ranked.index("in/22")


def test_V1_hint_plays_by_the_variant_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    # Dutch: no checker home, so the 3 cannot hit on 22 and only the 1 is played.
    dutch = "TVL=m--a----------------B-a--M:0:0:15"  # 13 checkers a side still to enter
    assert main(["hint", dutch, "31", "--variant", "dutch", "--level", "advanced"]) == 0
    assert [play for play, _, _ in rows(capsys.readouterr().out)] == ["bar/24"]


@pytest.mark.parametrize("limit", ["-5", "0", "two"])
def test_hint_limit_is_one_or_more(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["hint", START, "31", "--limit", limit])
    assert raised.value.code == 2
    assert "--limit" in capsys.readouterr().err
