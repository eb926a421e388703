"""The kinds the night rules speak of, with their facts, in one place.

- ``Sight``: a location's (or a unit's) night verdict: within NVR or lit, Gunflash only, none
  (E1.1, E1.101, E1.81); ``Fire``: what fire at a unit seen so may do (E1.81).
- ``MarkerKind`` (``MARKER_KINDS``): per marker type its light (a starshell's or IR's light
  reaches no building interior, E1.923; a fire's does, E1.9), its radius (starshell 3, E1.923;
  IR 6, E1.933; Blaze and Flame: the marker's own), whether it carries the side that fired
  (Gunflash and fire markers, E1.8; FFE, E1.91) and whether it counts as a Gunflash (E1.8).
- ``Method`` (``METHODS``): how a starshell (E1.922) or an IR (E1.932) is placed, in the order
  "the first legal one" tries them.
- ``StarshellOptions``: whether and where a unit may place a starshell or IR now.

The values are the strings of the file format and of the command line's JSON: ``Sight`` and
``Fire`` are ``str`` enums, so ``verdict.sight == "nvr"`` holds and JSON prints ``"nvr"``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Sight(str, Enum):
    NONE = "none"            # no LOS at night
    NVR = "nvr"              # within NVR, or lit (E1.1, E1.101)
    GUNFLASH = "gunflash"    # only through a Gunflash or fire marker (E1.81)

    @property
    def code(self) -> int:
        """The verdict's number in a night field's ``codes`` array."""
        return _SIGHT_ORDER.index(self)

    @classmethod
    def of_code(cls, code: int) -> "Sight":
        return _SIGHT_ORDER[int(code)]

    def __str__(self) -> str:
        return self.value


_SIGHT_ORDER = (Sight.NONE, Sight.NVR, Sight.GUNFLASH)


class Fire(str, Enum):
    NORMAL = "normal"
    HALVED = "halved"        # at a unit seen only by its Gunflash, or not Known (E1.81)
    NONE = "none"            # no LOS

    def __str__(self) -> str:
        return self.value


class Light(str, Enum):
    STAR = "star"            # starshell and IR: no building interior, jungle, bamboo (E1.923)
    FIRE = "fire"            # Blaze and Flame (E1.9)


DEFAULT_FIRE_RADIUS = 2      # rules.md 4: the texts give none; W-20 needs 2


@dataclass(frozen=True)
class MarkerKind:
    type: str
    label: str
    light: Light | None = None
    radius: int | None = None    # a fixed light radius; None for fires: the marker's own
    sided: bool = False          # carries the side that fired
    gunflash: bool = False       # counts as a Gunflash (E1.8)
    rule: str = ""
    default_radius: int | None = None    # a light of its own radius: when the marker says none

    @property
    def own_radius(self) -> bool:
        """A light whose radius the marker gives (Blaze, Flame; rules.md 4)."""
        return self.light is not None and self.radius is None


MARKER_KINDS: dict[str, MarkerKind] = {k.type: k for k in (
    MarkerKind("starshell", "starshell", Light.STAR, 3, rule="E1.923"),
    MarkerKind("ir", "Illuminating Round", Light.STAR, 6, rule="E1.933"),
    MarkerKind("blaze", "Blaze", Light.FIRE, rule="E1.9"),
    MarkerKind("flame", "Flame", Light.FIRE, rule="E1.9"),
    # rules.md 10: a trip flare lights jungle as fires do (seed 001), radius its own (default
    # 1); its shadows follow a fire's: an assumption, the texts say nothing of them
    MarkerKind("trip_flare", "Trip Flare", Light.FIRE, rule="rules.md 10", default_radius=1),
    MarkerKind("gunflash", "Gunflash", sided=True, gunflash=True, rule="E1.8"),
    # every fire marker VASL has counts as a Gunflash location (E1.8)
    MarkerKind("prep_fire", "Prep Fire marker", sided=True, gunflash=True, rule="E1.8"),
    MarkerKind("bounding_fire", "Bounding Fire marker", sided=True, gunflash=True, rule="E1.8"),
    MarkerKind("opportunity_fire", "Opportunity Fire marker", sided=True, gunflash=True,
               rule="E1.8"),
    MarkerKind("advancing_fire", "Advancing Fire marker", sided=True, gunflash=True,
               rule="E1.8"),
    MarkerKind("first_fire", "First Fire marker", sided=True, gunflash=True, rule="E1.8"),
    MarkerKind("final_fire", "Final Fire marker", sided=True, gunflash=True, rule="E1.8"),
    MarkerKind("intensive_fire", "Intensive Fire marker", sided=True, gunflash=True,
               rule="E1.8"),
    MarkerKind("ffe", "FFE", sided=True, rule="E1.91"),
    # counters in LOS (rules.md 11.4): smoke (A24), wrecks, rubble, entrenchments
    MarkerKind("smoke", "Smoke", rule="A24"),
    MarkerKind("wreck", "Wreck", rule="rules.md 11.4"),
    MarkerKind("rubble", "Rubble", rule="B24"),
    MarkerKind("foxhole", "Foxhole", rule="B27"),
    MarkerKind("trench", "Trench", rule="B27"),
    MarkerKind("ad_ditch", "A-T Ditch", rule="B27"),
)}


def light_radius(marker_type: str, own: int | None = None) -> int:
    """The radius of the light of a marker of ``marker_type`` (-1: it gives none): starshell 3
    (E1.923), IR 6 (E1.933), Blaze and Flame ``own`` or DEFAULT_FIRE_RADIUS (rules.md 4), a
    trip flare ``own`` or 1 (rules.md 10)."""
    kind = MARKER_KINDS.get(marker_type)
    if kind is None or kind.light is None:
        return -1
    if kind.radius is not None:
        return kind.radius
    if own is not None:
        return own
    return DEFAULT_FIRE_RADIUS if kind.default_radius is None else kind.default_radius


@dataclass(frozen=True)
class Method:
    key: str                     # the command line's and the app's name
    flare: str                   # "starshell" or "ir": the marker it places
    label: str
    rule: str


METHODS: tuple[Method, ...] = (
    Method("1", "starshell", "its own hex", "E1.922"),
    Method("2", "starshell", "along a LOS", "E1.922"),
    Method("3", "starshell", "three hexes away", "E1.922"),
    Method("ir-los", "ir", "along a LOS", "E1.932"),
    Method("ir-6", "ir", "6, 12\u2026 hexes away", "E1.932"),
)
METHOD_KEYS = tuple(m.key for m in METHODS)
FLARE_OF = {m.key: m.flare for m in METHODS}     # method -> the marker it places
AUTO = "auto"                    # the first legal method, in METHODS' order


@dataclass(frozen=True)
class StarshellOptions:
    """Whether and where a unit may place a starshell (``starshell``) and an IR (``ir``): each
    a ``starshells.FireOptions`` (may_fire, usage_dr_max, reasons, methods: method -> hexes)."""
    starshell: object
    ir: object

    @property
    def legal(self) -> dict[str, list[str]]:
        """Method -> the hexes where it may place its flare."""
        return {**self.starshell.methods, **self.ir.methods}

    def method_for(self, hex_id: str, chosen: str = AUTO) -> str | None:
        """The method that places a flare in ``hex_id``: ``chosen`` when legal there; on AUTO
        the first legal in METHODS' order; None when none is."""
        legal = self.legal
        if chosen != AUTO:
            return chosen if hex_id in legal.get(chosen, []) else None
        return next((k for k in METHOD_KEYS if hex_id in legal.get(k, [])), None)

    def why_not(self) -> str:
        """Why no method is legal: the last reason of a refusal, or "not a legal hex"."""
        return self.starshell.reasons[-1] if not self.starshell.may_fire else "not a legal hex"

    def as_json(self) -> dict:
        """The ``starshell`` command's document (SPEC.md)."""
        out = self.starshell.as_json()
        out["ir"] = self.ir.as_json()
        return out


@dataclass(frozen=True)
class Nvr:
    """A viewer's own NVR: the scenario's, halved for a buttoned-up AFV (E1.14)."""
    value: int
    halved: bool
