"""Money cube decisions against GNU Backgammon 2-ply's cube hint, on positions from real play.

Run: python benchmarks/cube_agreement.py [--refresh] [--games 80] [--seed 1] [--margin 0.15] [--fit]

**Positions.** Tavola's shipped networks at 0-ply play ``--games`` cubeless
money games against gnubg at 0-ply (PyPI's ``gnubg`` module, see
``benchmarks/gnubg_player.py``), each bot in either seat in turn, through the
self-play kernel with keyed dice (``--seed``). Every position before a roll
after the opening one is a candidate, contact and race alike (the first time
it occurs), once with the cube centred at 1 and once owned by the player on
roll at 2; money, Jacoby off, no beavers.

**gnubg's reference.** Every candidate goes into one script for the gnubg
CLI (``/usr/games/gnubg -t -q``, :func:`gnubg_analysis.run_gnubg`): ``set
board`` with its Position ID, the cube set, and ``hint`` with ``set
evaluation cubedecision evaluation plies 2``; :func:`parse_hints` reads each
hint's cubeless probabilities, the cubeful equities of no double,
double/take and double/pass, and its proper cube action. The parsed
reference is kept in ``benchmarks/data/gnubg-cube.json`` (:data:`CACHE`),
so later runs only rerun Tavola; ``--refresh`` plays the games and asks
gnubg again.

**Selection: near the double, take or pass points**, by gnubg's figures
(not Tavola's, so that the choice favours neither): a position is kept when
gnubg's ``|ND - min(DT, DP)| < margin`` (near the double point, or near the
too-good point where the double would be dropped) or ``|DT - DP| < margin``
(near the take point), with ``margin`` 0.15 (``--margin``); but not at a
tie: where either decision's two sides are worth the same to within 0.005
(:data:`TIE`), mostly races already won, where double/pass and too good/pass
both collect one point, the choice costs nothing and gnubg's printed
equities (to 0.001) cannot even tell which it prefers.

**Comparison.** Tavola's money decision (:func:`tavola.bot.cube.money_decisions`,
each position's cube efficiency by :func:`tavola.bot.cube.efficiencies`)
from the shipped evaluator at 0-ply and at 2-ply (the depth of ``Bot``'s
default level, ``world-class``), and the cube model alone on gnubg's own
2-ply cubeless probabilities (what the model adds, whatever the networks
say). Printed for each: agreement with gnubg on the action (no double,
double, too good), on the answer (take, pass) and on both, a confusion
table of the classes, and the mean absolute difference of the cubeful
equities of no double and double/take, over all positions, over each half
of the games (even and odd: a change fitted on one is checked on the
other), and over contact and race positions apart. And the case
``qE/wATCwz+BBIA`` both ways.

``--fit`` prints instead the agreement of each judge, on each half, for a
range of Janowski's ``x`` in contact positions and in races (the other
class at its shipped figure): how :data:`tavola.bot.measured.CONTACT_EFFICIENCY`
and :data:`~tavola.bot.measured.RACE_EFFICIENCY` are fitted, on the model
run on gnubg's probabilities and the even games.

Times on two shared cores: the games and gnubg's hints of about 4,000
positions for both cubes, two minutes; Tavola's 0-ply and 2-ply evaluations
of the 1,561 stored positions, one to two minutes.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from gnubg_analysis import DATA, GnubgError, gnubg_available, gnubg_version, run_gnubg
from gnubg_player import GnubgPlayer
from tavola.bot.cube import CENTRED, CubeDecisions, efficiencies, money_decisions
from tavola.bot.evaluate import Evaluator, contact
from tavola.bot.levels import CUBE_LEVEL
from tavola.bot.policies import GreedyPolicy
from tavola.bot.search import evaluate_ply
from tavola.ids.position_id import decode_position_id, encode_position_id
from tavola.position import Position
from tavola.rules import Rules
from tavola.selfplay import key_of, play

FloatArray = npt.NDArray[np.float64]

CACHE = DATA / "gnubg-cube.json"
"""gnubg's parsed cube hints of the candidates, and how they were made."""
CASE = "qE/wATCwz+BBIA"
"""A position where Tavola and gnubg once disagreed: Tavola "Double, drop", gnubg "Double, take"."""
PLIES = 2
"""gnubg's depth for the reference."""
MARGIN = 0.15
"""How near a decision point a position must be, in gnubg's cubeful equity, to be kept."""
TIE = 0.005
"""Two sides of a decision worth the same to within this (gnubg prints equities to 0.001) are a tie."""
STORED_MARGIN = 0.25
"""The candidates kept in :data:`CACHE`: within this of a decision point for either cube."""
GAMES = 80
"""The games played for the reference (``--games``)."""
CUBES = ("centred", "owned")
"""The cube states asked: centred at 1, and owned by the player on roll at 2."""
RULES = Rules()  # money, Jacoby off, no beavers: gnubg's session as the script sets it
CLASSES = ("no double/take", "double/take", "double/pass", "too good/pass", "too good/take")
"""The classes of a decision (action and answer), as in the confusion table."""
_CLASS_CODES = ((0, 0), (1, 0), (1, 1), (2, 1), (2, 0))
"""Each class's codes into :data:`tavola.bot.cube.ACTIONS` and :data:`tavola.bot.cube.RESPONSES`."""


# --- positions from real play -------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A position before a roll from game ``game`` (from 0) at ``turn`` (plays made before it), seen from
    the player on roll, by its gnubg Position ID."""

    game: int
    turn: int
    position_id: str


def play_candidates(games: int, seed: int) -> list[Candidate]:
    """The positions before a roll of ``games`` games of Tavola 0-ply against gnubg 0-ply, each first time
    it occurs, opening positions left out."""
    tavola = GreedyPolicy.of(Evaluator.default())
    gnubg = GnubgPlayer(0)
    seating = np.arange(games) % 2  # each bot in either seat in turn
    seen: set[str] = set()
    found = []
    for step in play((tavola, gnubg), games, key_of(seed), seating=seating):
        for game, turn, board in zip(step.game, step.turn, step.boards, strict=True):
            if turn == 0:  # the opening roll: no cube decision before it
                continue
            position_id = encode_position_id(Position.from_array(board))
            if position_id not in seen:
                seen.add(position_id)
                found.append(Candidate(int(game), int(turn), position_id))
    return found


# --- gnubg's cube hints -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GnubgCube:
    """gnubg's cube hint for one position and cube: its cubeless ``probabilities`` (Tavola's order: win,
    win gammon, win backgammon, lose gammon, lose backgammon), the cubeful equities of no double,
    double/take and double/pass (per unit of the cube), and its ``proper`` cube action in its words."""

    probabilities: tuple[float, float, float, float, float]
    no_double: float
    double_take: float
    double_pass: float
    proper: str


def hint_commands(position_ids: Sequence[str], cube: str, *, plies: int = PLIES) -> list[str]:
    """The gnubg script that prints the cube hint of every position, each after a line ``@@ index``.

    ``cube`` is "centred" (at 1) or "owned" (at 2, by the player on roll). The player on roll is gnubg's
    player 1, the other seat is a human so that gnubg never plays by itself.
    """
    setting = ["set cube centre", "set cube value 1"] if cube == "centred" else []
    setting = setting or ["set cube value 2", "set cube owner 1"]
    commands = [
        "set jacoby off",
        "set beavers 0",
        "set player 0 human",
        "set player 1 human",
        "new session",
        f"set evaluation cubedecision evaluation plies {plies}",
        "set turn 1",
    ]
    for index, position_id in enumerate(position_ids):
        commands += [f'>print("@@ {index}")', f"set board {position_id}", *setting, "hint"]
    return commands


_EQUITY = re.compile(r"^\d\. (No double|No redouble|Double, take|Redouble, take|Double, pass|Redouble, pass)"
                     r"\s+([-+]\d+\.\d+)", re.MULTILINE)  # fmt: skip
_PROPER = re.compile(r"^Proper cube action: ([^(\n]*?)\s*(\(.*\))?$", re.MULTILINE)
_PROBABILITIES = re.compile(
    r"cubeless equity [-+]\d+\.\d+\n\s*([\d.]+) ([\d.]+) ([\d.]+) - ([\d.]+) ([\d.]+) ([\d.]+)"
)
_KEYS = {"No double": 0, "No redouble": 0, "Double, take": 1, "Redouble, take": 1}
_KEYS |= {"Double, pass": 2, "Redouble, pass": 2}


def parse_hint(text: str) -> GnubgCube:
    """One cube hint as gnubg prints it.

    >>> hint = '''Cube analysis
    ... 2-ply cubeless equity +0.573
    ...   0.662 0.280 0.038 - 0.338 0.067 0.002
    ... Cubeful equities:
    ... 1. Double, take        +0.917
    ... 2. Double, pass        +1.000  (+0.083)
    ... 3. No double           +0.840  (-0.077)
    ... Proper cube action: Double, take
    ... '''
    >>> parse_hint(hint)
    GnubgCube(probabilities=(0.662, 0.28, 0.038, 0.067, 0.002), no_double=0.84, double_take=0.917, \
double_pass=1.0, proper='Double, take')
    """
    chances = _PROBABILITIES.search(text)
    proper = _PROPER.search(text)
    equities = {_KEYS[name]: float(value) for name, value in _EQUITY.findall(text)}
    if chances is None or proper is None or len(equities) != 3:
        raise GnubgError(f"no cube hint in gnubg's answer:\n{text[-1500:]}")
    win, win_gammon, win_backgammon, _, lose_gammon, lose_backgammon = map(float, chances.groups())
    return GnubgCube(
        (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon),
        equities[0],
        equities[1],
        equities[2],
        proper.group(1).strip(),
    )


def parse_hints(text: str, count: int) -> list[GnubgCube]:
    """The ``count`` cube hints of a script made by :func:`hint_commands`, in order."""
    parts = re.split(r"^@@ (\d+)$", text, flags=re.MULTILINE)
    found = {int(index): parse_hint(body) for index, body in zip(parts[1::2], parts[2::2], strict=True)}
    if sorted(found) != list(range(count)):
        raise GnubgError(f"gnubg answered {len(found)} of {count} cube hints")
    return [found[index] for index in range(count)]


def gnubg_hints(position_ids: Sequence[str], cube: str, *, batch: int = 2000) -> list[GnubgCube]:
    """gnubg's 2-ply cube hints of ``position_ids``, ``batch`` positions a script."""
    hints: list[GnubgCube] = []
    for start in range(0, len(position_ids), batch):
        part = position_ids[start : start + batch]
        hints += parse_hints(run_gnubg(hint_commands(part, cube), timeout=3600.0), len(part))
    return hints


def gnubg_class(proper: str) -> tuple[int, int]:
    """gnubg's proper cube action as Tavola's codes into :data:`tavola.bot.cube.ACTIONS` (no double,
    double, too good) and :data:`tavola.bot.cube.RESPONSES` (take, drop).

    >>> [gnubg_class(text) for text in ["No redouble, take", "Double, take", "Too good to double, pass"]]
    [(0, 0), (1, 0), (2, 1)]
    """
    action_text, _, answer = proper.partition(", ")
    action_text = action_text.replace("Redouble", "Double").replace("redouble", "double")
    actions = {"No double": 0, "Double": 1, "Optional double": 1, "Too good to double": 2}
    answers = {"take": 0, "pass": 1, "beaver": 0}
    if action_text not in actions or answer not in answers:
        raise GnubgError(f"unknown cube action {proper!r}")
    return actions[action_text], answers[answer]


# --- the stored reference ------------------------------------------------------------------------------


def near(equities: npt.ArrayLike, margin: float) -> npt.NDArray[np.bool_]:
    """Which rows of (no double, double/take, double/pass) are near the double, take or pass points (see
    the module doc).

    >>> near([[0.84, 0.917, 1.0], [0.105, -0.171, 1.0], [0.5, 0.9, 1.0]], 0.15).tolist()
    [True, False, True]
    """
    nd, dt, dp = np.asarray(equities, dtype=np.float64).reshape(-1, 3).T
    kept: npt.NDArray[np.bool_] = (np.abs(nd - np.minimum(dt, dp)) < margin) | (np.abs(dt - dp) < margin)
    return kept


def tied(equities: npt.ArrayLike, tie: float = TIE) -> npt.NDArray[np.bool_]:
    """Which rows have a decision whose two sides are worth the same, to within ``tie``: doubling or not
    (``|ND - min(DT, DP)|``), taking or passing (``|DT - DP|``).

    >>> tied([[1.0, 1.998, 1.0], [0.84, 0.917, 1.0]]).tolist()  # a won race: double/pass and too good
    [True, False]
    """
    return near(equities, tie)


def selected(equities: npt.ArrayLike, margin: float = MARGIN) -> npt.NDArray[np.bool_]:
    """The rows the comparison keeps: near a decision point (:func:`near`) but not at a tie (:func:`tied`)."""
    kept: npt.NDArray[np.bool_] = near(equities, margin) & ~tied(equities)
    return kept


def make_reference(games: int, seed: int) -> dict[str, Any]:
    """Play the games, ask gnubg for every candidate's hints, and return the reference to store: the
    candidates near a decision point within :data:`STORED_MARGIN` for either cube, one row each."""
    started = time.perf_counter()
    candidates = play_candidates(games, seed)
    played = time.perf_counter() - started
    print(f"{games} games played in {played:.0f} s: {len(candidates)} candidate positions")
    ids = [candidate.position_id for candidate in candidates]
    hints = {}
    for cube in CUBES:
        started = time.perf_counter()
        hints[cube] = gnubg_hints([*ids, CASE], cube)
        print(f"gnubg's {PLIES}-ply cube hints, cube {cube}: {time.perf_counter() - started:.0f} s")
    stored = np.zeros(len(candidates), dtype=bool)
    for cube in CUBES:
        equities = [(hint.no_double, hint.double_take, hint.double_pass) for hint in hints[cube][:-1]]
        stored |= near(equities, STORED_MARGIN)

    def row(candidate: Candidate, index: int) -> dict[str, Any]:
        found = {cube: hints[cube][index] for cube in CUBES}
        return {
            "game": candidate.game,
            "turn": candidate.turn,
            "id": candidate.position_id,
            "probabilities": found["centred"].probabilities,
            **{
                cube: [hint.no_double, hint.double_take, hint.double_pass, hint.proper]
                for cube, hint in found.items()
            },
        }

    return {
        "gnubg": gnubg_version(),
        "settings": {
            "games": f"{games} cubeless money games, Tavola 0-ply against gnubg 0-ply, seed {seed}",
            "commands": [*hint_commands(["ID"], "centred")[:-4], "set board ID", "(the cube)", "hint"],
            "cubes": {"centred": "centred at 1", "owned": "at 2, owned by the player on roll"},
            "rules": "money, Jacoby off, no beavers",
            "row": "game (from 0), turn, Position ID, gnubg's cubeless probabilities (win, win gammon, win "
            "backgammon, lose gammon, lose backgammon), and for each cube: no double, double/take, "
            "double/pass, proper cube action",
            "stored": f"the {int(stored.sum())} of {len(candidates)} candidates within {STORED_MARGIN} of a "
            "decision point for either cube",
        },
        "games": games,
        "seed": seed,
        "margin": STORED_MARGIN,
        "positions": [row(candidate, index) for index, candidate in enumerate(candidates) if stored[index]],
        "case": row(Candidate(-1, -1, CASE), len(candidates)),
    }


def reference_text(reference: dict[str, Any]) -> str:
    """The reference as JSON text, one position a line."""
    rows = [json.dumps(row, separators=(",", ":")) for row in reference["positions"]]
    head = json.dumps({**reference, "positions": []}, indent=1)
    return head.replace('"positions": []', '"positions": [\n  ' + ",\n  ".join(rows) + "\n ]") + "\n"


@dataclass(frozen=True)
class Reference:
    """The stored reference for one cube state, as arrays: one row per candidate."""

    cube: str
    games: npt.NDArray[np.int64]
    position_ids: list[str]
    boards: npt.NDArray[np.int8]
    probabilities: FloatArray
    equities: FloatArray  # no double, double/take, double/pass
    action: npt.NDArray[np.int64]
    response: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.games)

    def take(self, rows: npt.NDArray[np.int64]) -> Reference:
        """The rows ``rows`` only."""
        return Reference(
            self.cube, self.games[rows], [self.position_ids[row] for row in rows], self.boards[rows],
            self.probabilities[rows], self.equities[rows], self.action[rows], self.response[rows],
        )  # fmt: skip


def read_reference(rows: Sequence[dict[str, Any]], cube: str) -> Reference:
    """The stored ``rows`` (:data:`CACHE`'s positions) with gnubg's hints for ``cube``."""
    classes = np.array([gnubg_class(row[cube][3]) for row in rows], dtype=np.int64).reshape(-1, 2)
    return Reference(
        cube,
        np.array([row["game"] for row in rows], dtype=np.int64),
        [row["id"] for row in rows],
        np.stack([decode_position_id(row["id"]).to_array() for row in rows]),
        np.array([row["probabilities"] for row in rows], dtype=np.float64).reshape(-1, 5),
        np.array([row[cube][:3] for row in rows], dtype=np.float64).reshape(-1, 3),
        classes[:, 0],
        classes[:, 1],
    )


# --- Tavola's decisions and the comparison -------------------------------------------------------------


def tavola_decisions(
    probabilities: npt.ArrayLike,
    boards: npt.NDArray[np.int8],
    cube: str,
    efficiency: npt.ArrayLike | None = None,
) -> CubeDecisions:
    """Tavola's money decisions from ``probabilities``, each position's efficiency from its board unless
    ``efficiency`` is given."""
    owner = CENTRED if cube == "centred" else 0
    x = efficiencies(boards) if efficiency is None else efficiency
    return money_decisions(probabilities, owner, RULES, turned=cube == "owned", efficiency=x)


@dataclass(frozen=True)
class Agreement:
    """How far Tavola's decisions agree with gnubg's on some positions."""

    positions: int
    action: float
    answer: float
    both: float
    no_double_error: float
    double_take_error: float
    confusion: npt.NDArray[np.int64]  # gnubg's class by row, Tavola's by column, in CLASSES' order


def class_index(action: npt.NDArray[np.int64], response: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The index in :data:`CLASSES` of each (action, answer)."""
    return np.array([_CLASS_CODES.index((int(a), int(r))) for a, r in zip(action, response, strict=True)])


def agreement(reference: Reference, found: CubeDecisions) -> Agreement:
    """Tavola's decisions ``found`` against gnubg's on the same rows."""
    same_action = found.action == reference.action
    same_answer = found.response == reference.response
    confusion = np.zeros((len(CLASSES), len(CLASSES)), dtype=np.int64)
    theirs, ours = (
        class_index(reference.action, reference.response),
        class_index(found.action, found.response),
    )
    np.add.at(confusion, (theirs, ours), 1)
    return Agreement(
        len(found),
        float(same_action.mean()),
        float(same_answer.mean()),
        float((same_action & same_answer).mean()),
        float(np.abs(found.no_double - reference.equities[:, 0]).mean()),
        float(np.abs(found.double_take - reference.equities[:, 1]).mean()),
        confusion,
    )


def tavola_probabilities(boards: npt.NDArray[np.int8], plies: int) -> FloatArray:
    """The shipped evaluator's probabilities at ``plies``."""
    evaluator = Evaluator.default()
    return np.asarray(evaluate_ply(evaluator, boards, plies), dtype=np.float64)


def judges(reference: Reference) -> dict[str, FloatArray]:
    """The probabilities each judge gives the model: Tavola at 0-ply and at the bot's default depth, and
    gnubg's own."""
    default = CUBE_LEVEL.plies
    found = {"Tavola 0-ply": tavola_probabilities(reference.boards, 0)}
    found[f"Tavola {default}-ply (Bot)"] = tavola_probabilities(reference.boards, default)
    found["model on gnubg's 2-ply probabilities"] = reference.probabilities
    return found


# --- printing ------------------------------------------------------------------------------------------


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def summary_table(title: str, rows: Iterable[tuple[str, str, Agreement]]) -> Table:
    table = Table(title=title)
    for column in ("judge", "positions", "", "action", "answer", "both", "|ND - gnubg|", "|DT - gnubg|"):
        table.add_column(column, justify="left" if column in ("judge", "") else "right")
    for judge, part, found in rows:
        table.add_row(
            judge, str(found.positions), part, _percent(found.action), _percent(found.answer),
            _percent(found.both), f"{found.no_double_error:.3f}", f"{found.double_take_error:.3f}",
        )  # fmt: skip
    return table


def confusion_table(title: str, found: Agreement) -> Table:
    table = Table(title=title)
    table.add_column("gnubg \\ Tavola")
    for name in CLASSES:
        table.add_column(name, justify="right")
    for name, row in zip(CLASSES, found.confusion, strict=True):
        table.add_row(name, *(str(count) if count else "." for count in row))
    return table


def show_case(console: Console, case: dict[str, Any]) -> None:
    """The case :data:`CASE` both ways, cube centred."""
    no_double, double_take, _, proper = case["centred"]
    chances = case["probabilities"]
    board = decode_position_id(CASE).to_array()[None]
    console.print(f"\n[bold]{CASE}[/bold], cube centred:")
    console.print(
        f"  gnubg {PLIES}-ply: {proper} (no double {no_double:+.3f}, double/take {double_take:+.3f}), "
        f"wins {_percent(chances[0])}, gammons {_percent(chances[1])} / {_percent(chances[3])}"
    )
    for plies in (0, CUBE_LEVEL.plies):
        ours = tavola_probabilities(board, plies)
        decision = tavola_decisions(ours, board, "centred").row(0)
        console.print(
            f"  Tavola {plies}-ply: {decision}, wins {_percent(ours[0, 0])}, gammons "
            f"{_percent(ours[0, 1])} / {_percent(ours[0, 3])}"
        )
    decision = tavola_decisions(np.array([chances]), board, "centred").row(0)
    console.print(f"  the model on gnubg's probabilities: {decision}")


def compare(console: Console, reference: Reference, chances: dict[str, FloatArray]) -> None:
    """Print each judge's agreement with gnubg on ``reference``: all positions and each half, and the
    confusion tables."""
    in_contact = contact(reference.boards)
    halves = {"even games": reference.games % 2 == 0, "odd games": reference.games % 2 == 1}
    halves |= {"contact": in_contact, "race": ~in_contact}
    rows: list[tuple[str, str, Agreement]] = []
    confusions = []
    for judge, found in chances.items():
        decisions = tavola_decisions(found, reference.boards, reference.cube)
        whole = agreement(reference, decisions)
        rows.append((judge, "all", whole))
        for name, mask in halves.items():
            part = np.flatnonzero(mask)
            rows.append((judge, name, agreement(reference.take(part), _rows(decisions, part))))
        confusions.append(confusion_table(f"{judge}, cube {reference.cube}", whole))
    console.print(summary_table(f"cube {reference.cube}: {len(reference)} positions", rows))
    for table in confusions:
        console.print(table)


def fit(console: Console, references: dict[str, Reference], chances: dict[str, FloatArray]) -> None:
    """Agreement (action and answer) for a range of Janowski's ``x`` in contact positions and in races,
    the other class at its shipped figure, both cubes together, on each half of the games."""
    boards = references["centred"].boards
    in_contact = contact(boards)
    shipped = efficiencies(boards)
    for name, where in (("contact", in_contact), ("race", ~in_contact)):
        table = Table(
            title=f"Janowski's x in {name} positions against the agreement on them (action and answer)"
        )
        table.add_column("x", justify="right")
        for judge in chances:
            for parity in ("even", "odd"):
                table.add_column(f"{judge}, {parity} games", justify="right")
        for x in np.arange(0.50, 0.9001, 0.02):
            trial = np.where(where, x, shipped)
            cells = []
            for found in chances.values():
                agreed = {0: [0, 0], 1: [0, 0]}
                for reference in references.values():
                    decisions = tavola_decisions(found, boards, reference.cube, trial)
                    same = (decisions.action == reference.action) & (decisions.response == reference.response)
                    counted = selected(reference.equities) & where
                    for half in (0, 1):
                        rows = counted & (reference.games % 2 == half)
                        agreed[half][0] += int(same[rows].sum())
                        agreed[half][1] += int(rows.sum())
                cells += [_percent(agreed[half][0] / max(agreed[half][1], 1)) for half in (0, 1)]
            table.add_row(f"{x:.2f}", *cells)
        console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--refresh", action="store_true", help=f"play the games and ask gnubg again ({CACHE})"
    )
    parser.add_argument("--games", type=int, default=GAMES, help="games to play with --refresh")
    parser.add_argument("--seed", type=int, default=1, help="the dice's seed with --refresh")
    parser.add_argument("--margin", type=float, default=MARGIN, help="how near a decision point to keep")
    parser.add_argument(
        "--fit", action="store_true", help="the agreement for a range of Janowski's x in contact and in races"
    )
    args = parser.parse_args()
    if args.refresh or not CACHE.exists():
        if not gnubg_available():
            parser.error("the reference needs gnubg (apt-get install gnubg)")
        CACHE.write_text(reference_text(make_reference(args.games, args.seed)))
        print(f"wrote {CACHE}")
    stored = json.loads(CACHE.read_text())
    if args.margin > stored["margin"]:
        parser.error(f"the stored reference keeps positions within {stored['margin']} only")
    console = Console(width=150)
    console.print(f"{stored['gnubg']}; {stored['settings']['games']}; margin {args.margin}")
    references = {cube: read_reference(stored["positions"], cube) for cube in CUBES}
    started = time.perf_counter()
    chances = judges(references["centred"])
    console.print(f"Tavola's evaluations of {len(references['centred'])} positions: "
                  f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    if args.fit:
        fit(console, references, chances)
        return
    for cube, reference in references.items():
        kept = np.flatnonzero(selected(reference.equities, args.margin))
        ties = int((near(reference.equities, args.margin) & tied(reference.equities)).sum())
        console.print(f"\ncube {cube}: {len(kept)} positions kept, {ties} ties left out")
        compare(console, reference.take(kept), {judge: found[kept] for judge, found in chances.items()})
    show_case(console, stored["case"])


def _rows(decisions: CubeDecisions, rows: npt.NDArray[np.int64]) -> CubeDecisions:
    return CubeDecisions(
        decisions.action[rows], decisions.response[rows], decisions.no_double[rows],
        decisions.double_take[rows], decisions.double_pass[rows], decisions.double_beaver[rows],
    )  # fmt: skip


if __name__ == "__main__":
    main()
