"""Chart packs (``format: "starshell-fire-charts"``, version 1; SPEC.md, rules.md 8).

A chart pack is a game's own tables as plain JSON: the Fire Effects chart (fire rows), the
defence chart (defence rows), the odds columns, the target-size bands, the combat results per
column, the terrain table for LOS, and optional extras (DRM rows, enfilade).  Players write one
for their title; the bundled ``sample`` pack is ours and says so in its title.

Every lookup is "first matching row wins", ``"*"`` matching anything.  Values are kept exact
(``fractions.Fraction``).

Long: ``_charts`` is kept whole (over 80 lines): it reads the pack's sections in file order, a few
lines each.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..boards import assets_dir
from ..errors import ScenarioError, shown
from ..jsonio import check_format, is_int, read_json, type_name

CHARTS_FORMAT = "starshell-fire-charts"
MAX_ROWS = 2000
MAX_COLUMNS = 40
MAX_NAME = 60
MAX_VALUE = 10**6
MAX_DRM = 35                        # more than this steps across the whole 11..66 track
_ID_RE = re.compile(r"^[a-z][a-z0-9_-]{0,40}\Z")
_NUMBER_RE = re.compile(r"^(?:0|[1-9][0-9]{0,6})(?:\.[0-9]{1,4})?\Z")
# a factor "1/2", "0.5", "2": no exponent ("1e99999999" would make Fraction work for ever)
_FACTOR_RE = re.compile(r"^[0-9]{1,6}(?:/[0-9]{1,6}|\.[0-9]{1,6})?\Z")
_RANGE_RE = re.compile(r"^([1-6][1-6])(?:-([1-6][1-6]))?\Z")

# the 36 readings of two dice read as tens and units, in order (rules.md 8: 11..66)
READINGS: tuple[int, ...] = tuple(10 * t + u for t in range(1, 7) for u in range(1, 7))
_INDEX = {r: i for i, r in enumerate(READINGS)}


def reading_index(reading: int) -> int:
    return _INDEX[reading]


@dataclass(frozen=True)
class FireRow:
    nation: str
    troop: str
    formation: str
    arm: str
    multiplier: Fraction | None       # None: PRINTED

    @property
    def text(self) -> str:
        return "printed" if self.multiplier is None else f"x{_num(self.multiplier)}"


@dataclass(frozen=True)
class DefenceRow:
    arm: str
    formation: str
    terrain: str
    value: Fraction


@dataclass(frozen=True)
class SizeBand:
    min: int
    max: int
    drm: int


@dataclass(frozen=True)
class DrmRow:
    why: str
    arm: str
    formation: str
    terrain: str
    drm: int


@dataclass(frozen=True)
class TerrainRow:
    name: str
    height: int
    hindrance: bool


@dataclass(frozen=True)
class Enfilade:
    formations: tuple[str, ...]
    factor: Fraction                  # the defence is multiplied by this


@dataclass(frozen=True)
class RangeBand:
    max: int                          # up to this many hexes ...
    factor: Fraction                  # ... the fire value is multiplied by this


@dataclass(frozen=True)
class RangeRow:
    arm: str
    formation: str
    troop: str
    max: int                          # the farthest a firer of the row reaches, in hexes
    bands: tuple[RangeBand, ...]      # empty: its full value at every range


@dataclass(frozen=True)
class Column:
    name: str                         # "2.5:1"
    ratio: Fraction
    results: tuple[str, ...]          # by reading index 0..35 (11..66)


@dataclass(frozen=True)
class ChartPack:
    id: str
    title: str
    fire: tuple[FireRow, ...]
    defence: tuple[DefenceRow, ...]
    columns: tuple[Column, ...]
    size_drm: tuple[SizeBand, ...]
    drms: tuple[DrmRow, ...]
    terrain: dict                     # name -> TerrainRow
    enfilade: Enfilade | None
    path: str | None = None
    ranges: tuple[RangeRow, ...] = ()
    units_block: bool = False         # units in an intervening hex block the line
    front: tuple[str, ...] = ()       # formations that fire only through their front

    def range_row(self, arm: str, formation: str, troop: str) -> tuple[int, RangeRow] | None:
        """The first ``range`` row matching the firer; None: no limit."""
        for k, r in enumerate(self.ranges):
            if _m(r.arm, arm) and _m(r.formation, formation) and _m(r.troop, troop):
                return k, r
        return None

    def fire_row(self, nation: str, troop: str, formation: str, arm: str) -> tuple[int, FireRow] | None:
        """rules.md 8: (nationality, troop type, formation) in the Fire Effects chart."""
        for k, r in enumerate(self.fire):
            if _m(r.nation, nation) and _m(r.troop, troop) and _m(r.formation, formation) \
                    and _m(r.arm, arm):
                return k, r
        return None

    def defence_row(self, arm: str, formation: str, terrain: str) -> tuple[int, DefenceRow] | None:
        """rules.md 8: (unit type, formation, terrain), in that order."""
        for k, r in enumerate(self.defence):
            if _m(r.arm, arm) and _m(r.formation, formation) and _m(r.terrain, terrain):
                return k, r
        return None

    def size_band(self, increments: int) -> SizeBand | None:
        for b in self.size_drm:
            if b.min <= increments <= b.max:
                return b
        return None

    def extra_drms(self, arm: str, formation: str, terrain: str) -> list[DrmRow]:
        return [r for r in self.drms
                if _m(r.arm, arm) and _m(r.formation, formation) and _m(r.terrain, terrain)]

    def column_for(self, ratio: Fraction) -> Column | None:
        """The column at or below the ratio (rounded down); the last one above it; None below
        the first column (rules.md 8: below 1:3 no attack)."""
        best = None
        for c in self.columns:
            if c.ratio <= ratio:
                best = c
        return best

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)


def _m(pattern: str, value: str) -> bool:
    return pattern == "*" or pattern == value


def _num(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    return f"{float(v):g}" if (10**6 * v).denominator == 1 else str(v)


def _name(obj: dict, key: str, place: str, default: str | None = None) -> str:
    v = obj.get(key, default)
    if not isinstance(v, str) or not v or len(v) > MAX_NAME:
        raise ScenarioError(f"must be a name (a non-empty string of at most {MAX_NAME} "
                            f"characters), or \"*\" for anything, not {v!r}", place=f"{place}.{key}")
    return v


def number(value: Any, place: str) -> Fraction:
    """A non-negative number written as a JSON number or a decimal string ("2.5")."""
    if is_int(value) and 0 <= value <= MAX_VALUE:
        return Fraction(value)
    if isinstance(value, float) and 0 <= value <= MAX_VALUE:
        return Fraction(str(value))
    if isinstance(value, str) and _NUMBER_RE.match(value):
        return Fraction(value)
    raise ScenarioError(f"must be a number from 0 to {MAX_VALUE}, not {value!r}", place=place)


def _rows(data: dict, key: str, required: bool = True) -> list:
    v = data.get(key)
    if v is None and not required:
        return []
    if not isinstance(v, list) or (required and not v):
        raise ScenarioError(f"must be a non-empty list of rows, not {type_name(v)}", place=key)
    if len(v) > MAX_ROWS:
        raise ScenarioError(f"at most {MAX_ROWS} rows, not {len(v)}", place=key)
    for i, r in enumerate(v):
        if not isinstance(r, dict):
            raise ScenarioError(f"must be an object, not {type_name(r)}", place=f"{key}[{i}]")
    return v


def _fire_value(v: Any, place: str) -> Fraction | None:
    if isinstance(v, str) and v.lower() == "printed":
        return None
    if isinstance(v, str) and v[:1] in ("x", "X"):
        return number(v[1:], place)
    raise ScenarioError(f"must be \"xN\" (a multiplier, e.g. \"x3\") or \"printed\", not {v!r}",
                        place=place)


def _ratio(name: Any, place: str) -> Fraction:
    if not isinstance(name, str) or name.count(":") != 1:
        raise ScenarioError(f"a column is named \"A:B\" (e.g. \"1:3\", \"2.5:1\"), not {name!r}",
                            place=place)
    a, b = (number(s, place) for s in name.split(":"))
    if a == 0 or b == 0:
        raise ScenarioError(f"a column's sides must be above 0, not {name!r}", place=place)
    return a / b


def _results(obj: Any, place: str) -> tuple[str, ...]:
    """Roll ranges ("11-45") to results; together they cover 11..66 exactly once."""
    if not isinstance(obj, dict) or not obj:
        raise ScenarioError(f"must be an object of roll ranges (\"11-45\": \"\"), not "
                            f"{type_name(obj)}", place=place)
    out: list[str | None] = [None] * 36
    for key, res in obj.items():
        m = _RANGE_RE.match(key) if isinstance(key, str) else None
        if not m:
            raise ScenarioError("a roll range is two dice readings 11..66 joined by '-' "
                                f"(\"11-45\") or one reading, not {key!r}", place=f"{place}.{key}")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo > hi:
            raise ScenarioError(f"the range runs backwards: {key!r}", place=f"{place}.{key}")
        if not isinstance(res, str) or len(res) > MAX_NAME:
            raise ScenarioError(f"a result is a short string (\"\" no effect, \"1\", \"1/L\"...), "
                                f"not {res!r}", place=f"{place}.{key}")
        for i in range(_INDEX[lo], _INDEX[hi] + 1):
            if out[i] is not None:
                raise ScenarioError(f"roll {READINGS[i]} is in two ranges", place=f"{place}.{key}")
            out[i] = res
    missing = [str(READINGS[i]) for i, r in enumerate(out) if r is None]
    if missing:
        raise ScenarioError(f"no result for roll(s) {', '.join(missing[:6])}"
                            f"{'...' if len(missing) > 6 else ''}", place=place)
    return tuple(out)  # type: ignore[arg-type]


def charts_from_json(data: Any, file: str | None = None, pack_id: str = "custom") -> ChartPack:
    """Validate a parsed chart pack; ScenarioError naming the file and the place."""
    try:
        return _charts(data, pack_id)
    except ScenarioError as e:
        raise e.at(file=file) from None


def _charts(data: Any, pack_id: str) -> ChartPack:
    check_format(data, CHARTS_FORMAT, (1,), kind="a chart pack")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200:
        raise ScenarioError("must be a string of at most 200 characters", place="title")
    fire = []
    for i, r in enumerate(_rows(data, "fire")):
        p = f"fire[{i}]"
        fire.append(FireRow(_name(r, "nation", p), _name(r, "troop", p), _name(r, "formation", p),
                            _name(r, "arm", p, "*"), _fire_value(r.get("value"), f"{p}.value")))
    defence = []
    for i, r in enumerate(_rows(data, "defence")):
        p = f"defence[{i}]"
        value = number(r.get("value"), f"{p}.value")
        if value == 0:
            raise ScenarioError("a defence must be above 0 (the odds divide by it)",
                                place=f"{p}.value")
        defence.append(DefenceRow(_name(r, "arm", p), _name(r, "formation", p),
                                  _name(r, "terrain", p), value))
    names = data.get("columns")
    if not isinstance(names, list) or not names or len(names) > MAX_COLUMNS:
        raise ScenarioError(f"must be a list of 1..{MAX_COLUMNS} odds columns, ascending "
                            "(\"1:3\" .. \"10:1\")", place="columns")
    ratios = [_ratio(n, f"columns[{i}]") for i, n in enumerate(names)]
    for i in range(1, len(ratios)):
        if ratios[i] <= ratios[i - 1]:
            raise ScenarioError(f"columns must ascend: {names[i]!r} is not above {names[i - 1]!r}",
                                place=f"columns[{i}]")
    results = data.get("results")
    if not isinstance(results, dict):
        raise ScenarioError(f"must be an object: column -> roll ranges, not {type_name(results)}",
                            place="results")
    for key in results:
        if key not in names:
            raise ScenarioError(f"{key!r} is not one of the columns", place=f"results.{key}")
    columns = []
    for n, ratio in zip(names, ratios):
        if n not in results:
            raise ScenarioError(f"no results for column {n!r}", place="results")
        columns.append(Column(n, ratio, _results(results[n], f"results.{n}")))
    bands = []
    for i, r in enumerate(_rows(data, "size_drm", required=False)):
        p = f"size_drm[{i}]"
        lo, hi, drm = r.get("min"), r.get("max"), r.get("drm")
        if not (is_int(lo) and is_int(hi) and 0 <= lo <= hi <= MAX_VALUE):
            raise ScenarioError(f"min and max are whole numbers, 0 <= min <= max, not {lo!r}, {hi!r}",
                                place=p)
        if not is_int(drm) or abs(drm) > MAX_DRM:
            raise ScenarioError(f"drm must be a whole number from {-MAX_DRM} to {MAX_DRM}, not {drm!r}",
                                place=f"{p}.drm")
        for j, b in enumerate(bands):
            if lo <= b.max and b.min <= hi:
                raise ScenarioError(f"overlaps size_drm[{j}]", place=p)
        bands.append(SizeBand(lo, hi, drm))
    drms = []
    for i, r in enumerate(_rows(data, "drm", required=False)):
        p = f"drm[{i}]"
        drm = r.get("drm")
        if not is_int(drm) or abs(drm) > MAX_DRM:
            raise ScenarioError(f"must be a whole number from {-MAX_DRM} to {MAX_DRM}, not {drm!r}",
                                place=f"{p}.drm")
        drms.append(DrmRow(_name(r, "why", p), _name(r, "arm", p, "*"), _name(r, "formation", p, "*"),
                           _name(r, "terrain", p, "*"), drm))
    terrain = {}
    for i, r in enumerate(_rows(data, "terrain", required=False)):
        p = f"terrain[{i}]"
        name = _name(r, "name", p)
        h = r.get("height", 0)
        if not is_int(h) or not 0 <= h <= 10:
            raise ScenarioError(f"must be a whole number of levels 0..10, not {h!r}", place=f"{p}.height")
        hind = r.get("hindrance", False)
        if not isinstance(hind, bool):
            raise ScenarioError(f"must be true or false, not {hind!r}", place=f"{p}.hindrance")
        if name in terrain:
            raise ScenarioError(f"terrain {name!r} is named twice", place=f"{p}.name")
        terrain[name] = TerrainRow(name, h, hind)
    enf = data.get("enfilade")
    enfilade = None
    if enf is not None:
        if not isinstance(enf, dict):
            raise ScenarioError(f"must be an object, not {type_name(enf)}", place="enfilade")
        forms = enf.get("formations", ["*"])
        if not isinstance(forms, list) or not all(isinstance(f, str) and f for f in forms):
            raise ScenarioError("must be a list of formation names", place="enfilade.formations")
        enfilade = Enfilade(tuple(forms), factor_of(enf.get("defence"), "enfilade.defence"))
    units_block = data.get("units_block", False)
    if not isinstance(units_block, bool):
        raise ScenarioError(f"must be true or false, not {units_block!r}", place="units_block")
    return ChartPack(pack_id, title, tuple(fire), tuple(defence), tuple(columns), tuple(bands),
                     tuple(drms), terrain, enfilade, ranges=_ranges(data),
                     units_block=units_block, front=_front(data))


def _ranges(data: dict) -> tuple[RangeRow, ...]:
    """``range`` rows: arm, formation, troop (``"*"`` by default), ``max`` hexes and optional
    ``bands`` (``{"max": 3, "factor": "1/2"}``, ascending; the last band's max is the row's)."""
    out = []
    for i, r in enumerate(_rows(data, "range", required=False)):
        p = f"range[{i}]"
        bands = []
        raw = r.get("bands", [])
        if not isinstance(raw, list) or len(raw) > MAX_COLUMNS:
            raise ScenarioError(f"must be a list of at most {MAX_COLUMNS} bands", place=f"{p}.bands")
        for j, b in enumerate(raw):
            q = f"{p}.bands[{j}]"
            if not isinstance(b, dict) or not is_int(b.get("max")) or not 0 < b["max"] <= 1000:
                raise ScenarioError("a band is {\"max\": hexes 1..1000, \"factor\": \"1/2\"}", place=q)
            if bands and b["max"] <= bands[-1].max:
                raise ScenarioError(f"bands must ascend: {b['max']} is not above {bands[-1].max}",
                                    place=f"{q}.max")
            bands.append(RangeBand(b["max"], factor_of(b.get("factor"), f"{q}.factor")))
        top = r.get("max", bands[-1].max if bands else None)
        if not is_int(top) or not 0 <= top <= 1000:
            raise ScenarioError(f"must be a whole number of hexes 0..1000, not {top!r}", place=f"{p}.max")
        if bands and bands[-1].max != top:
            raise ScenarioError(f"the last band reaches {bands[-1].max}, the row's max is {top}",
                                place=f"{p}.max")
        out.append(RangeRow(_name(r, "arm", p, "*"), _name(r, "formation", p, "*"),
                            _name(r, "troop", p, "*"), top, tuple(bands)))
    return tuple(out)


def factor_of(text: Any, place: str) -> Fraction:
    """A factor above 0 and at most 10 (an enfilade's, a range band's): a string "1/2", "0.5",
    "2" or a whole number; read for what it is (``_FACTOR_RE``: no exponent, so no number of a
    million digits ever reaches Fraction)."""
    written = isinstance(text, str) and _FACTOR_RE.match(text) is not None
    try:
        f = Fraction(text) if written or (is_int(text) and 0 < text <= 10) else None
    except ZeroDivisionError:          # "1/0"
        f = None
    if f is None or not 0 < f <= 10:
        raise ScenarioError(f"must be a factor above 0 and at most 10 as a string, e.g. "
                            f"\"1/2\", not {shown(text)}", place=place)
    return f


def _front(data: dict) -> tuple[str, ...]:
    """``front``: ``{"formations": [...]}``, the formations that fire only through their front."""
    front = data.get("front")
    if front is None:
        return ()
    forms = front.get("formations") if isinstance(front, dict) else None
    if not isinstance(forms, list) or len(forms) > MAX_ROWS or \
            not all(isinstance(f, str) and 0 < len(f) <= MAX_NAME for f in forms):
        raise ScenarioError("must be {\"formations\": [formation names]}", place="front")
    return tuple(forms)


def bundled_charts_dir() -> Path:
    return assets_dir() / "fire" / "charts"


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` (links resolved) lies in ``folder`` or below it."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, ValueError, RuntimeError):
        return False


def load_charts(ref: str, folder: Path | None = None) -> ChartPack:
    """A bundled pack id (``sample``) or a path ending in .json (relative to ``folder``)."""
    if not isinstance(ref, str) or not ref:
        raise ScenarioError(f"must name a chart pack (a bundled id or a .json path), not {ref!r}")
    if ref.endswith(".json"):
        path = Path(ref)
        if not path.is_absolute() and folder is not None:
            path = folder / path
        elif folder is not None and not within(path, folder):   # SPEC: relative to the position
            raise ScenarioError(f"chart pack file {str(path)!r}: an absolute path outside the "
                                "position's folder (write it relative to the position)")
        pack_id = path.stem
        if not path.is_file():
            raise ScenarioError(f"chart pack file {str(path)!r} not found")
    else:
        if not _ID_RE.match(ref):
            raise ScenarioError(f"{ref!r} is not a bundled chart pack id (or a path ending in .json)")
        path = bundled_charts_dir() / f"{ref}.json"
        if not path.is_file():
            known = sorted(p.stem for p in bundled_charts_dir().glob("*.json"))
            raise ScenarioError(f"no bundled chart pack {ref!r} (bundled: {', '.join(known)}; "
                                "or give a path ending in .json)")
        pack_id = ref
    data = read_json(path)
    pack = charts_from_json(data, file=str(path), pack_id=pack_id)
    return ChartPack(**{**pack.__dict__, "path": str(path)})
