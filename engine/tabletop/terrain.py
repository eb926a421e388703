"""Terrain pieces on a table (SPEC.md turn three, "Tabletop": ``terrain``, polygons in BW) and
which of them stop a shot (rules.md 10: terrain that blocks sight; DBA 3.0, not in the seed).

Rule tag: "DBA 3.0 terrain".  What blocks, as we read DBA 3.0 (readings, named so, kept here):
- woods, oases and built-up areas block sight through them;
- a hill blocks a shot between two elements that are both off it (two lower elements); when one
  of them stands on the hill, its crest (a line, optional) blocks when it crosses the shot;
- an element standing in or on a piece sees out of it and is seen in it: a piece one of the two
  elements overlaps does not block their shot (our reading);
- rivers, marsh, rough going and roads do not block sight.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from ..errors import ScenarioError

TERRAIN_RULE = "DBA 3.0 terrain"
MAX_PIECES = 200
MAX_POINTS = 200
MAX_COORD = 10000.0
SAVED_DECIMALS = 9          # a coordinate as a table file keeps it, and as it is read back


def as_saved(value: float) -> float:
    """``value`` as a table file writes it: what is read is what a save writes again."""
    return round(value, SAVED_DECIMALS) + 0.0     # + 0.0: never -0.0


@dataclass(frozen=True)
class Kind:
    code: str
    name: str
    blocks: bool            # blocks sight through it (woods, oasis, BUA)
    hill: bool = False      # blocks between two elements off it; its crest when one is on it


KINDS: dict[str, Kind] = {k.code: k for k in (
    Kind("woods", "Woods", True), Kind("oasis", "Oasis", True),
    Kind("bua", "Built-up area", True), Kind("hill", "Hill", False, hill=True),
    Kind("river", "River", False), Kind("marsh", "Marsh", False),
    Kind("rough", "Rough going", False), Kind("road", "Road", False),
)}


@dataclass(frozen=True)
class TerrainPiece:
    type: str
    polygon: tuple[tuple[float, float], ...]
    crest: tuple[tuple[float, float], ...] | None = None     # hills only

    @property
    def kind(self) -> Kind:
        return KINDS[self.type]

    def shape(self) -> Polygon:
        return Polygon(self.polygon)


def _points(value, file, place, least: int) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or not least <= len(value) <= MAX_POINTS:
        raise ScenarioError(f"must be a list of {least} to {MAX_POINTS} [x, y] points in BW",
                            file=file, place=place)
    out = []
    for k, p in enumerate(value):
        ok = isinstance(p, list) and len(p) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            and abs(v) <= MAX_COORD for v in p)
        if not ok:
            raise ScenarioError(f"must be [x, y], two numbers from {-MAX_COORD:g} to "
                                f"{MAX_COORD:g}", file=file, place=f"{place}[{k}]")
        out.append((as_saved(float(p[0])), as_saved(float(p[1]))))
    return tuple(out)


def piece_from_json(obj, file: str | None, place: str) -> TerrainPiece:
    if not isinstance(obj, dict):
        raise ScenarioError("must be an object with type and polygon", file=file, place=place)
    for k in obj:
        if k not in ("type", "polygon", "crest"):
            raise ScenarioError("unknown key (known: crest, polygon, type)", file=file,
                                place=f"{place}.{k}")
    kind = obj.get("type")
    if kind not in KINDS:
        raise ScenarioError(f"unknown terrain {kind!r} (known: {', '.join(KINDS)})", file=file,
                            place=f"{place}.type")
    polygon = _points(obj.get("polygon"), file, f"{place}.polygon", 3)
    shape = Polygon(polygon)
    if not shape.is_valid or shape.area <= 1e-9:
        raise ScenarioError("the polygon crosses itself or has no area", file=file,
                            place=f"{place}.polygon")
    crest = None
    if "crest" in obj:
        if kind != "hill":
            raise ScenarioError("only a hill has a crest", file=file, place=f"{place}.crest")
        crest = _points(obj["crest"], file, f"{place}.crest", 2)
    return TerrainPiece(kind, polygon, crest)


def terrain_from_json(value, file: str | None) -> tuple[TerrainPiece, ...]:
    if not isinstance(value, list) or len(value) > MAX_PIECES:
        raise ScenarioError(f"must be a list of at most {MAX_PIECES} pieces", file=file,
                            place="terrain")
    return tuple(piece_from_json(p, file, f"terrain[{i}]") for i, p in enumerate(value))


def piece_to_json(piece: TerrainPiece) -> dict:
    d = {"type": piece.type, "polygon": [[as_saved(x), as_saved(y)] for x, y in piece.polygon]}
    if piece.crest is not None:
        d["crest"] = [[as_saved(x), as_saved(y)] for x, y in piece.crest]
    return d


def local_pieces(pieces, to_local) -> list[tuple[Polygon, LineString | None]]:
    """The pieces in a shooter's own frame (``to_local`` maps a table point into it)."""
    out = []
    for p in pieces:
        shape = Polygon([to_local(q) for q in p.polygon])
        crest = None if p.crest is None else LineString([to_local(q) for q in p.crest])
        out.append((shape, crest))
    return out


def blocking(pieces, local, region, shooter_shape, target_shape) -> list[int]:
    """Indexes of the pieces that stop a shot whose region between the lines is ``region``
    (shapes in the shooter's frame: ``local`` from ``local_pieces``).  DBA 3.0 terrain, as read in
    this module's docstring."""
    out = []
    for i, (piece, (shape, crest)) in enumerate(zip(pieces, local)):
        kind = piece.kind
        if not (kind.blocks or kind.hill) or not region.intersects(shape):
            continue
        on = [shape.buffer(-1e-6).intersects(s) for s in (shooter_shape, target_shape)]
        if kind.blocks:
            if not any(on) and region.intersection(shape).area > 1e-9:
                out.append(i)       # woods, oasis, BUA between them (DBA 3.0 terrain)
        elif not any(on):
            if region.intersection(shape).area > 1e-9:
                out.append(i)       # a hill between two lower elements (DBA 3.0 terrain)
        elif crest is not None and region.intersects(crest) and not (
                shooter_shape.intersects(crest) or target_shape.intersects(crest)):
            out.append(i)           # one on the hill, the crest between them (our reading)
    return out


def pieces_under(pieces, base: Polygon) -> list[int]:
    """Indexes of the pieces a base overlaps (more than touching)."""
    inner = base.buffer(-1e-6)
    return [i for i, p in enumerate(pieces) if inner.intersects(p.shape())]


def describe(pieces, index: int) -> str:
    return f"the {KINDS[pieces[index].type].name.lower()} (terrain[{index}])"


def checked_piece(kind: str, polygon, crest=None) -> TerrainPiece:
    """A piece made in the window (moved, reshaped, turned, its crest drawn), checked as a file's
    would be; raises ScenarioError saying what is wrong.  Points rounded as the file keeps them,
    so what is made here saves and reopens (SPEC.md "Tabletop")."""
    obj = {"type": kind, "polygon": [[round(x, 9), round(y, 9)] for x, y in polygon]}
    if crest is not None:
        obj["crest"] = [[round(x, 9), round(y, 9)] for x, y in crest]
    return piece_from_json(obj, None, "the terrain piece")


def transformed(piece: TerrainPiece, move=(0.0, 0.0), turn: float = 0.0,
                scale=(1.0, 1.0)) -> TerrainPiece:
    """The piece scaled about its centre (in the table's x and y), turned ``turn`` degrees
    clockwise about its centre, then moved by ``move`` BW; its crest goes with it."""
    c = piece.shape().centroid
    a = math.radians(-turn)
    cos, sin = math.cos(a), math.sin(a)

    def one(p):
        x, y = (p[0] - c.x) * scale[0], (p[1] - c.y) * scale[1]
        return (c.x + x * cos - y * sin + move[0], c.y + x * sin + y * cos + move[1])
    crest = None if piece.crest is None else [one(p) for p in piece.crest]
    return checked_piece(piece.type, [one(p) for p in piece.polygon], crest)
