"""The bot's levels: one ladder of settings, from ``beginner`` to ``world-class``, and the roles they play.

A :class:`Level` says how deep the search looks (plies), how wide (its
:class:`~tavola.bot.search.MoveFilter`), whether plays are ranked with the
cube, and how much noise blurs the bot's judgement. :data:`LEVELS` is the
ladder; each noiseless level also answers to the name of its depth
(``0-ply`` is ``advanced``, ``1-ply`` ``expert``, ``2-ply`` ``world-class``),
the names an analysis goes by. :func:`level` finds a level by either name,
and every front end (the command line, the engine protocol, the server,
the tutor, the analysis) refuses an unknown one with the same
:class:`UnknownLevelError`. The roles (:data:`CUBE_LEVEL`, :data:`HINT_LEVEL`,
:data:`BOT_LEVEL`, :data:`ANALYSIS_LEVEL`, :data:`LIVE_ANALYSIS_LEVEL`,
:data:`ROLLOUT_LEVEL`) are levels of the ladder.

>>> level("2-ply") is level("world-class") is ANALYSIS_LEVEL
True
>>> ANALYSIS_LEVEL.title, LIVE_ANALYSIS_LEVEL.title
('2-ply cubeful', '1-ply cubeful')
>>> level("grandmaster")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavola.bot.levels.UnknownLevelError: no level called 'grandmaster'; known: beginner, casual, ..., 2-ply
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tavola.bot.evaluate import Evaluator
from tavola.bot.search import DEFAULT_FILTER, MoveFilter, SearchChooser
from tavola.errors import TavolaError
from tavola.i18n import LANGUAGES, N_, _, use_language


class UnknownLevelError(TavolaError):
    """A level's name that is none of :data:`LEVELS` nor of :data:`DEPTHS`."""


class NoisyLevelError(TavolaError):
    """A level with noise where only a noiseless one judges: an analysis, the tutor, a rollout."""


@dataclass(frozen=True)
class Level:
    """How the bot searches: ``plies`` deep, as wide as ``filter`` lets it, ``noise`` blurring its choice.

    ``noise`` is the standard deviation, in cubeless equity, of the normal
    draw added to each play's equity before the choice (see
    :class:`~tavola.bot.search.SearchChooser`); ``cubeful`` says whether
    plays are ranked with the cube (in a match, by match winning chances at
    the cube's value) rather than by cubeless equity.

    >>> level("expert")
    Level(name='expert', plies=1, noise=0.0, cubeful=True)
    """

    name: str
    plies: int
    noise: float
    description: str = field(repr=False)
    filter: MoveFilter = field(default=DEFAULT_FILTER, repr=False)
    cubeful: bool = True

    @property
    def depth(self) -> str:
        """How deep the level looks, as analyses name it.

        >>> level("casual").depth
        '0-ply'
        """
        return f"{self.plies}-ply"

    @property
    def title(self) -> str:
        """How the level is named in an analysis (:attr:`tavola.analysis.model.Analysis.level`).

        >>> level("0-ply").title, level("beginner").title
        ('0-ply cubeful', '0-ply cubeful, noise 0.2')
        """
        title = f"{self.depth} {'cubeful' if self.cubeful else 'cubeless'}"
        return f"{title}, noise {self.noise:g}" if self.noise else title

    def chooser(self, evaluator: Evaluator, rng: np.random.Generator | int | None = None) -> SearchChooser:
        """A chooser that plays at this level with ``evaluator``; ``rng`` draws its noise.

        >>> level("beginner").chooser(Evaluator.untrained(hidden=8, seed=1), rng=7)
        SearchChooser(plies=0, noise=0.2)
        """
        return SearchChooser(evaluator, self.plies, self.filter, self.noise, rng)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 0, 0.20, "0-ply with noise 0.20: often misses the clearly better play"),
        Level("casual", 0, 0.10, "0-ply with noise 0.10: sound in plain positions, loose in the rest"),
        Level("intermediate", 0, 0.05, "0-ply with noise 0.05: errs mostly between close plays"),
        Level("advanced", 0, 0.0, "0-ply without noise: the network's own choice, under a millisecond"),
        Level("expert", 1, 0.0, "1-ply: every reply to each of its best plays, a few milliseconds"),
        Level("world-class", 2, 0.0, "2-ply with move filtering: the strongest, tens of milliseconds"),
    )
}
"""The ladder, weakest first.

What the noise costs, measured with a 128-unit network on 400 positions
from random games, in equity lost a move against the best play at 1-ply:
about 0.015 without noise, 0.024 with 0.05, 0.045 with 0.10 and 0.094 with
0.20 (how much depends on the network and on the positions). Looking
deeper gains: against a wide 2-ply search the same network lost about
0.012 a move at 0-ply, 0.008 at 1-ply and 0.001 at 2-ply.
"""

DEPTHS: dict[str, Level] = {level.depth: level for level in LEVELS.values() if not level.noise}
"""The noiseless levels by the name of their depth: ``0-ply``, ``1-ply``, ``2-ply``."""


def level(name: str | Level) -> Level:
    """The level called ``name`` in :data:`LEVELS` or :data:`DEPTHS` (a level is given back as it is).

    >>> level("expert") is level("1-ply") is level(level("expert"))
    True
    """
    if isinstance(name, Level):
        return name
    found = LEVELS.get(name) or DEPTHS.get(name)
    if found is None:
        raise UnknownLevelError(
            _("no level called {name}; known: {known}").format(
                name=repr(name), known=", ".join([*LEVELS, *DEPTHS])
            )
        )
    return found


def analysis_level(name: str | Level) -> Level:
    """:func:`level`, refusing a level with noise: an analysis (and the tutor) judges without it.

    >>> analysis_level("1-ply").name
    'expert'
    >>> analysis_level("casual")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tavola.bot.levels.NoisyLevelError: an analysis judges at a level without noise (...), not casual (...)
    """
    chosen = level(name)
    if chosen.noise:
        known = [noiseless.name for noiseless in DEPTHS.values()]
        raise NoisyLevelError(
            _("an analysis judges at a level without noise ({known}), not {name} (noise {noise:g})").format(
                known=", ".join([*known, *DEPTHS]), name=chosen.name, noise=chosen.noise
            )
        )
    return chosen


def level_at(plies: int) -> Level:
    """The noiseless level that looks ``plies`` ahead (:data:`DEPTHS`).

    >>> level_at(0).name
    'advanced'
    >>> level_at(5)
    Traceback (most recent call last):
    ...
    tavola.bot.levels.UnknownLevelError: no level looks 5 plies ahead; known: 0-ply, 1-ply, 2-ply
    """
    found = DEPTHS.get(f"{plies}-ply")
    if found is None:
        known = ", ".join(DEPTHS)
        raise UnknownLevelError(
            _("no level looks {plies} plies ahead; known: {known}").format(plies=plies, known=known)
        )
    return found


CUBE_LEVEL = LEVELS["world-class"]
"""The level whose depth judges every cube decision and resignation, whatever level the bot plays at.

Hints are given at this depth, and a cube decision seen at another depth can
differ from it: in Dutch backgammon's entering phase (V1) the estimates of
one ply and of two can differ by half a point, so a bot judging its cube at
its own level would double where the hint says no double.
"""
HINT_LEVEL = LEVELS["world-class"]
"""The level whose search ranks the plays of a hint: ``tavola hint``, the terminal's and the server's."""
BOT_LEVEL = LEVELS["world-class"]
"""The bot's level unless told: :class:`~tavola.bot.player.Bot`, ``tavola engine``."""
ANALYSIS_LEVEL = LEVELS["world-class"]
"""An analysis's level unless told: the strongest, 2-ply cubeful."""
LIVE_ANALYSIS_LEVEL = LEVELS["expert"]
"""The level of what is judged while people wait: the server's report of a table, the tutor (1-ply)."""
ROLLOUT_LEVEL = LEVELS["advanced"]
"""The level a rollout plays its checkers at unless told (0-ply; a rollout plays at 0 or 1 ply)."""


LEVEL_NAMES: dict[str, str] = {
    # TRANSLATORS: the bot's levels, typed after --level: one word each, a hyphen for a space.
    "beginner": N_("beginner"),
    "casual": N_("casual"),
    "intermediate": N_("intermediate"),
    "advanced": N_("advanced"),
    "expert": N_("expert"),
    "world-class": N_("world-class"),
}
"""What players call each level of :data:`LEVELS`: its name, translated where it is shown."""


def level_title(name: str) -> str:
    """The name of level ``name`` in the language in use.

    >>> from tavola.i18n import use_language
    >>> with use_language("en"):
    ...     level_title("world-class")
    'world-class'
    """
    return _(LEVEL_NAMES[name]) if name in LEVEL_NAMES else name


def level_named(text: str) -> str:
    """The name of the level a player names, in English, by its depth or in any language Tavola speaks;
    ``text`` itself where it names none (for the caller to refuse).

    >>> level_named("Expert"), level_named("2-ply"), level_named("grandmaster")
    ('expert', 'world-class', 'grandmaster')
    """
    wanted = text.strip().lower()
    if wanted in DEPTHS:
        return DEPTHS[wanted].name
    for code in LANGUAGES:
        with use_language(code):
            for name, said in LEVEL_NAMES.items():
                if _(said).lower() == wanted:
                    return name
    return text
