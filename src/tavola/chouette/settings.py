"""How a chouette is played: an immutable, checked settings value (H4-H9 and the money options).

>>> ChouetteSettings()
ChouetteSettings()
>>> ChouetteSettings(cubes=CubeMode.SINGLE, last_taker_must_drop=True, stake=5)
ChouetteSettings(cubes=CubeMode.SINGLE, last_taker_must_drop=True, stake=5)
>>> ChouetteSettings(mandatory_extras=True)
Traceback (most recent call last):
...
tavola.errors.InvalidRulesError: mandatory extras are a single-cube rule (H7): use cubes=CubeMode.SINGLE
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from pydantic import ConfigDict

from tavola.errors import InvalidRulesError, RecordError, TavolaError
from tavola.i18n import N_, _
from tavola.rules import Rules, checked_stake
from tavola.schema import RulesShape, Shape
from tavola.variants import STANDARD, Scoring, Variant, find_variant

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ChouetteSettings",
    "Consultation",
    "CubeMode",
    "SettingsShape",
    "settings_json",
    "settings_of",
]

MIN_PLAYERS = 3
"""A chouette needs a box and at least two team members."""

MAX_PLAYERS = 8
"""The most players at one chouette table."""


class CubeMode(enum.Enum):
    """One cube for the whole team (H5) or one cube per team member (H8)."""

    SINGLE = "single"
    MULTI = "multi"

    def __repr__(self) -> str:
        return f"CubeMode.{self.name}"


class Consultation(enum.Enum):
    """When team members may suggest plays to the captain (H4)."""

    FREE = "free"  # at any time
    NONE = "none"  # never
    AFTER_CUBE = "after-cube"  # once someone has doubled in this game

    def __repr__(self) -> str:
        return f"Consultation.{self.name}"


@dataclass(frozen=True)
class ChouetteSettings:
    """The rules a chouette table agrees on.

    - ``cubes``: :attr:`CubeMode.MULTI` (the default), every team member has
      a cube of their own against the box (H8); :attr:`CubeMode.SINGLE`, the
      captain doubles for the whole team and members only answer the box's
      doubles, each for themselves (H5).
    - ``last_taker_must_drop``: when every member answering a double of the
      box but one drops, the last one must drop too (H6; single cube).
    - ``mandatory_extras``: when a single member takes the box's initial
      double, each teammate who dropped may give that taker an extra cube,
      which the taker must accept (H7; single cube).
    - ``box_partner_from``: with at least this many players the box takes a
      partner from the team (H9); ``None``, never.
    - ``consultation``: when team members may suggest plays (H4).
    - ``rules``: the money options of the two-player game that apply to every
      cube: the Jacoby rule, beavers, automatic beavers, automatic doubles
      with their cap, and whether gammons count (M2-M6).
    - ``stake``: what a point is worth.
    - ``join_during_game``: whether a player may join while a game is being
      played (H3; they wait at the end of the queue).
    - ``variant``: the game played by the box and the captain; it must use
      the cube and the usual scoring.
    """

    cubes: CubeMode = CubeMode.MULTI
    last_taker_must_drop: bool = False
    mandatory_extras: bool = False
    box_partner_from: int | None = None
    consultation: Consultation = Consultation.FREE
    rules: Rules = field(default_factory=Rules)
    stake: float = 1
    join_during_game: bool = True
    variant: Variant = STANDARD

    def __post_init__(self) -> None:
        self._check_types()
        single = self.cubes is CubeMode.SINGLE
        if self.mandatory_extras and not single:
            raise InvalidRulesError(
                _("mandatory extras are a single-cube rule (H7): use cubes=CubeMode.SINGLE")
            )
        if self.last_taker_must_drop and not single:
            raise InvalidRulesError(
                _("the last taker dropping is a single-cube rule (H6): use cubes=CubeMode.SINGLE")
            )
        if self.last_taker_must_drop and self.mandatory_extras:
            raise InvalidRulesError(
                _(
                    "last_taker_must_drop (H6) and mandatory_extras (H7) exclude each other: "
                    "under H6 nobody is ever left as a single taker to receive extras"
                )
            )
        if not self.rules.cube and (self.last_taker_must_drop or self.mandatory_extras):
            raise InvalidRulesError(_("the last taker dropping (H6) and extras (H7) need the doubling cube"))
        if self.rules.holland:
            raise InvalidRulesError(_("the Holland rule is for matches (P3), not a chouette"))
        if self.box_partner_from is not None and not 4 <= self.box_partner_from <= MAX_PLAYERS:
            raise InvalidRulesError(
                _(
                    "a box partner needs at least 4 players (the box, the partner and a team of two), "
                    "at most {most}: box_partner_from is 4 to {most} or None, not {value}"
                ).format(most=MAX_PLAYERS, value=repr(self.box_partner_from))
            )
        if not self.variant.cube or self.variant.scoring is not Scoring.STANDARD:
            raise InvalidRulesError(
                _(
                    "a chouette is played for cubes and points: {variant} has no cube or scores otherwise"
                ).format(variant=self.variant.name)
            )

    def _check_types(self) -> None:
        checks: tuple[tuple[str, object, type | tuple[type, ...], str], ...] = (
            ("cubes", self.cubes, CubeMode, "a CubeMode"),
            ("consultation", self.consultation, Consultation, "a Consultation"),
            ("rules", self.rules, Rules, "a Rules value"),
            ("variant", self.variant, Variant, "a Variant"),
            ("last_taker_must_drop", self.last_taker_must_drop, bool, "True or False"),
            ("mandatory_extras", self.mandatory_extras, bool, "True or False"),
            ("join_during_game", self.join_during_game, bool, "True or False"),
        )
        for name, value, kind, described in checks:
            if not isinstance(value, kind):
                raise InvalidRulesError(f"{name} is {described}, not {value!r}")
        partner = self.box_partner_from
        if partner is not None and (isinstance(partner, bool) or not isinstance(partner, int)):
            raise InvalidRulesError(f"box_partner_from is a number of players or None, not {partner!r}")
        checked_stake(self.stake)

    @property
    def single_cube(self) -> bool:
        """Whether the team plays with one cube (H5)."""
        return self.cubes is CubeMode.SINGLE

    def partner_for(self, players: int) -> bool:
        """Whether a game of ``players`` players has a box partner (H9)."""
        return self.box_partner_from is not None and players >= self.box_partner_from

    def __repr__(self) -> str:
        changed = []
        for item in fields(self):
            value = getattr(self, item.name)
            default = item.default_factory() if callable(item.default_factory) else item.default
            if value != default:
                changed.append(f"{item.name}={value!r}")
        return f"ChouetteSettings({', '.join(changed)})"


# --- as JSON ------------------------------------------------------------------------------------


def settings_json(settings: ChouetteSettings) -> dict[str, Any]:
    """The settings as JSON data, as a chouette's record and the server's table options write them.

    >>> data = settings_json(ChouetteSettings(stake=5))
    >>> data["cubes"], data["stake"]
    ('multi', 5)
    >>> settings_of(SettingsShape.model_validate(data))
    ChouetteSettings(stake=5)
    """
    return {
        "cubes": settings.cubes.value,
        "last_taker_must_drop": settings.last_taker_must_drop,
        "mandatory_extras": settings.mandatory_extras,
        "box_partner_from": settings.box_partner_from,
        "consultation": settings.consultation.value,
        "stake": settings.stake,
        "join_during_game": settings.join_during_game,
        "variant": settings.variant.name,
        "rules": {item.name: getattr(settings.rules, item.name) for item in dataclasses.fields(Rules)},
    }


class SettingsShape(Shape):
    """The shape of the settings' JSON (:func:`settings_json`); :func:`settings_of` reads it."""

    model_config = ConfigDict(extra="forbid")
    unknown: ClassVar[str] = N_("settings.{name}: there is no such setting")

    cubes: str
    last_taker_must_drop: bool
    mandatory_extras: bool
    box_partner_from: int | None
    consultation: str
    stake: int | float
    join_during_game: bool
    variant: str
    rules: RulesShape


def settings_of(shape: SettingsShape) -> ChouetteSettings:
    """The settings JSON of their shape holds; :class:`~tavola.errors.RecordError` naming the setting
    whose value is unknown or breaks a rule (``settings.cubes``)."""
    values: dict[str, Any] = {name: getattr(shape, name) for name in SettingsShape.model_fields}
    enums: tuple[tuple[str, Callable[[str], object]], ...] = (
        ("cubes", CubeMode),
        ("consultation", Consultation),
        ("variant", find_variant),
    )
    for name, make in enums:
        try:
            values[name] = make(values[name])
        except (ValueError, TavolaError):
            message = _("settings.{name}: {value} is not a known value")
            raise RecordError(message.format(name=name, value=repr(values[name]))) from None
    try:
        values["rules"] = shape.rules.rules()
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="settings.rules", error=error)) from None
    try:
        return ChouetteSettings(**values)
    except TavolaError as error:
        raise RecordError(_("{where}: {error}").format(where="settings", error=error)) from None
