"""Troop types in one table: base depth at 15 mm scale and shooting range (rules.md 9).

Depths are community figures in millimetres at 15 mm (1 BW = 40 mm by default: the BW size is
a setting, ``bw_mm`` of a table).  Ranges are DBA 3.0's, in BW, and are not in the seed.
The types an army list needs beyond the digest's (DBA 3.0 element types, depths cited in
docs/rules.md "Element types"):
- chariots (HCh heavy, LCh light, SCh scythed) on 40 mm: the DBA basing table gives every
  chariot, whatever it counts as, the chariot base (tabletopinzuerich.ch, DBA "Das Basieren");
- 3- and 4-figure knights on 30 mm (same table: knights and cataphracts 30 mm, 3 or 4 figures);
- 4-figure (solid) bows on 15 mm and 3-figure (fast) bows on 20 mm (same table: bows 15 mm with
  4 figures, loose formation 20 mm with 3 or 4), crossbows and longbows alike;
- double-based foot (8Sp, 8Bw, 8Cb, 8Lb) on 30 mm (DBM basing, "double based close foot ... 30 mm");
- double-based mounted (6Kn, 6Cv) on 40 mm: our reading (one rank deeper than a single mounted
  element), said so in docs/rules.md.
"""
from __future__ import annotations

from dataclasses import dataclass

BW_MM = 40.0          # 1 base width at 15 mm scale


@dataclass(frozen=True)
class Troop:
    code: str
    name: str
    depth_mm: float
    range_bw: float | None = None     # None: does not shoot
    archer: bool = False              # Bw, Cb, Lb: rear ranks shoot too (DBA 3.0 rear rank)
    needs_still: bool = False         # shoots only if it did not move (artillery)


def _t(code, name, depth, rng=None, archer=False, still=False) -> Troop:
    return Troop(code, name, float(depth), None if rng is None else float(rng), archer, still)


# rules.md 9: depths (mm at 15 mm); bows 3 BW, artillery 5 BW if it did not move, war wagons 3 BW.
TROOPS: dict[str, Troop] = {t.code: t for t in (
    _t("Sp", "Spears", 15), _t("Pk", "Pikes", 15), _t("4Pk", "Pikes", 15),
    _t("Bd", "Blades", 15), _t("4Bd", "Blades", 15), _t("Wb", "Warband", 15),
    _t("4Wb", "Warband", 15),
    _t("3Bd", "Fast blades", 20), _t("3Pk", "Fast pikes", 20), _t("3Wb", "Fast warband", 20),
    _t("Ax", "Auxilia", 20), _t("Ps", "Psiloi", 20),
    _t("Bw", "Bows", 20, 3, archer=True), _t("Cb", "Crossbows", 20, 3, archer=True),
    _t("Lb", "Longbows", 20, 3, archer=True),
    _t("Kn", "Knights", 30), _t("Cv", "Cavalry", 30), _t("LH", "Light horse", 30),
    _t("Cm", "Camelry", 30), _t("Hd", "Hordes", 30),
    _t("El", "Elephants", 40), _t("Art", "Artillery", 40, 5, still=True),
    _t("WWg", "War wagons", 40, 3), _t("6Bd", "Blades (6)", 40), _t("7Hd", "Hordes (7)", 40),
    # DBA 3.0 element types an army list needs (depths: this module's docstring)
    _t("HCh", "Heavy chariots", 40), _t("LCh", "Light chariots", 40),
    _t("SCh", "Scythed chariots", 40),
    _t("3Kn", "Knights (3)", 30), _t("4Kn", "Knights (4)", 30), _t("6Kn", "Knights (6)", 40),
    _t("6Cv", "Cavalry (6)", 40),
    _t("4Bw", "Bows (4, solid)", 15, 3, archer=True), _t("3Bw", "Bows (3, fast)", 20, 3, archer=True),
    _t("4Cb", "Crossbows (4, solid)", 15, 3, archer=True),
    _t("3Cb", "Crossbows (3, fast)", 20, 3, archer=True),
    _t("4Lb", "Longbows (4, solid)", 15, 3, archer=True),
    _t("3Lb", "Longbows (3, fast)", 20, 3, archer=True),
    _t("8Sp", "Spears (8, double)", 30), _t("8Bw", "Bows (8, double)", 30, 3, archer=True),
    _t("8Cb", "Crossbows (8, double)", 30, 3, archer=True),
    _t("8Lb", "Longbows (8, double)", 30, 3, archer=True),
)}


def troop(code: str) -> Troop:
    return TROOPS[code]


def depth_bw(code: str, bw_mm: float = BW_MM) -> float:
    """The element's depth in BW for its type."""
    return TROOPS[code].depth_mm / bw_mm
