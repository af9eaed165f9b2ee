"""An analysis as one JSON-ready object: the players' figures, the games, every decision.

Enum values are their English names (stable keys: ``"very bad"``,
``"wrong take"``); positions are written as Tavola IDs with their GNU
Backgammon position IDs (seen by the player deciding) and as a ``board``
seen by player 0 (for a page to draw), dice as ``[high, low]``, the cube as
its value and owner, and an answer's offer as its value, first doubler and
redoubles. A checker play's alternatives carry the chances after them
(win, win a gammon, win a backgammon, lose a gammon, lose a backgammon); a
double's alternatives after no double and the double answered at best are
marked ``reference`` (the double answered otherwise, not a choice open).

>>> from tavola.analysis.model import Analysis, PlayerFigures
>>> from tavola.analysis.figures import player_figures
>>> players = (player_figures("Ann", 0, [], result=0.0), player_figures("Ben", 1, [], result=0.0))
>>> data = analysis_json(Analysis("a.mat", 5, "standard", "2-ply cubeful", players, (), ()))
>>> data["players"][0]["name"], data["players"][0]["error_rate_memg"], data["decisions"]
('Ann', 0.0, [])
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from tavola.analysis.model import Alternative, Analysis, Decision, GameSummary, PlayerFigures
from tavola.cube import CubeOffer
from tavola.errors import TavolaError

if TYPE_CHECKING:
    from tavola.analysis.chouette import ChouetteAnalysis

FORMAT = "tavola-analysis"
CHOUETTE_FORMAT = "tavola-chouette-analysis"
VERSION = 1


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """``analysis`` as plain dicts, lists, strings and numbers."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": analysis.source,
        "length": analysis.length,
        "variant": analysis.variant,
        "level": analysis.level,
        "players": [_player(player) for player in analysis.players],
        "games": [_game(game) for game in analysis.games],
        "decisions": [_decision(decision) for decision in analysis.decisions],
    }


def _plain(value: object) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _player(player: PlayerFigures) -> dict[str, Any]:
    return {name: _plain(value) for name, value in vars(player).items()}


def _game(game: GameSummary) -> dict[str, Any]:
    return {name: _plain(value) for name, value in vars(game).items()}


def _alternative(alternative: Alternative) -> dict[str, Any]:
    return {
        "text": alternative.text,
        "equity": alternative.equity,
        "mwc": alternative.mwc,
        "plies": alternative.plies,
        "probabilities": None if alternative.probabilities is None else list(alternative.probabilities),
        "reference": alternative.reference,
    }


def _board(decision: Decision) -> dict[str, Any]:
    """The board before ``decision`` as player 0 sees it, for a page to draw: the 24 points of player 0's
    numbering (player 0's checkers positive), and the bar, the checkers off, Acey-Deucey's checkers
    waiting to enter and the pip counts as pairs, player 0's first."""
    position = decision.position if decision.player == 0 else decision.position.flip()
    return {
        "points": list(position.board),
        "bar": list(position.bar),
        "off": list(position.off),
        "waiting": list(position.waiting),
        "pips": list(position.pip_counts()),
    }


def _position_id(decision: Decision) -> str | None:
    """GNU Backgammon's position ID, where it holds the position (15 checkers a side)."""
    try:
        return decision.position.position_id()
    except TavolaError:
        return None


def _offer(offer: CubeOffer | None) -> dict[str, int] | None:
    """The double an answer answers: the value offered, the first doubler, the redoubles since."""
    if offer is None:
        return None
    return {"value": offer.value, "doubler": offer.doubler, "redoubles": offer.redoubles}


def _decision(decision: Decision) -> dict[str, Any]:
    return {
        "game": decision.game,
        "move": decision.move,
        "player": decision.player,
        "kind": decision.kind,
        "played": decision.played,
        "best": decision.best,
        "equity_loss": decision.equity_loss,
        "mwc_loss": decision.mwc_loss,
        "skill": decision.skill.value,
        "cube_error": None if decision.cube_error is None else decision.cube_error.value,
        "forced": decision.forced,
        "obvious": decision.obvious,
        "luck": decision.luck,
        "luck_class": decision.luck_class.value,
        "luck_result": decision.luck_result,
        "position": decision.position.tavola_id(),
        "position_id": _position_id(decision),
        "board": _board(decision),
        "dice": None if decision.dice is None else [decision.dice.high, decision.dice.low],
        "cube": {"value": decision.cube.value, "owner": decision.cube.owner},
        "offer": _offer(decision.offer),
        "alternatives": [_alternative(alternative) for alternative in decision.alternatives],
    }


def chouette_analysis_json(analysis: ChouetteAnalysis) -> dict[str, Any]:
    """A chouette's ``analysis`` as plain data: like :func:`analysis_json`, with everyone who played
    (``names``, which a decision's ``player`` and the ``players`` follow) and the number of games.

    >>> from tavola.analysis.chouette import ChouetteAnalysis
    >>> analysis = ChouetteAnalysis("c.json", "0-ply cubeful", ("Ann", "Ben", "Cid"), 0, (), ())
    >>> data = chouette_analysis_json(analysis)
    >>> data["format"], data["names"], data["games"]
    ('tavola-chouette-analysis', ['Ann', 'Ben', 'Cid'], 0)
    """
    return {
        "format": CHOUETTE_FORMAT,
        "version": VERSION,
        "source": analysis.source,
        "level": analysis.level,
        "names": list(analysis.names),
        "games": analysis.games,
        "players": [_player(player) for player in analysis.players],
        "decisions": [_decision(decision) for decision in analysis.decisions],
    }
