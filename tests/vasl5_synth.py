"""Synthetic VASL 5 board archives (a board image in VASL's colours, a ``colors`` file naming
them, a ``data`` file), painted hex by hex so that every hex's terrain, level and hexsides are
known.  We never ship VASL's boards: tests draw their own.

The colour names and values are VASL's (its colour table); a hex is painted in its level's hill
colour, its terrain as a patch over the centre, hex centre dots and hexside features as thick
lines along the side.
"""
from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from engine.hexes import board_hexes, column_name, parse_local

HEX_W, HEX_H = 56.25, 64.5
A1 = (0.0, 32.25)

# VASL colour name -> RGB (facts of VASL's table)
COLOURS = {
    "Level_1": (119, 146, 74), "Level0": (175, 188, 106), "Level1": (176, 147, 70),
    "Level2": (147, 111, 31), "Level3": (118, 80, 0),
    "WoodsGreen": (85, 95, 45), "WoodsBlack": (44, 42, 22),
    "WoodBldg3": (45, 31, 15), "StoneBldg17": (126, 126, 126),
    "GrainL_1": (255, 240, 110), "GrainL0": (255, 240, 111), "GrainL1": (255, 240, 112),
    "GrainL2": (255, 240, 113), "GrainL3": (255, 240, 114),
    "BrushL_1": (123, 165, 84), "BrushL0": (123, 165, 85), "BrushL1": (123, 165, 86),
    "BrushL2": (123, 165, 87), "BrushL3": (123, 165, 88),
    "OrchTrees": (82, 98, 46), "StoneRubble": (115, 115, 116),
    "WallGrey1": (158, 157, 157), "HedgeGreen": (62, 91, 47), "BocageGreen": (62, 90, 47),
    "Cliff": (35, 20, 10),
    "DuttyWhiteHexDots": (255, 254, 253), "Black": (0, 0, 0),
    "Water": (135, 190, 220), "StreamWater": (131, 190, 240), "GullyBrown1": (156, 120, 51),
    "BridgeGrey1": (159, 157, 157), "SunkRoad1": (146, 110, 30),
}
LEVEL_COLOUR = {-1: "Level_1", 0: "Level0", 1: "Level1", 2: "Level2", 3: "Level3"}
SIDE_COLOUR = {"wall": "WallGrey1", "hedge": "HedgeGreen", "bocage": "BocageGreen",
               "cliff": "Cliff"}


def centre(col: int, row: int, a1=A1, hex_w=HEX_W, hex_h=HEX_H) -> tuple[float, float]:
    odd = col % 2
    return a1[0] + hex_w * col, a1[1] + hex_h * (row - 1 + odd) - hex_h / 2 * odd


def corners(col: int, row: int, **geo) -> list[tuple[float, float]]:
    """VASL's hexagon, corners from the top left clockwise (sides 1..6 = N, NE, SE, S, SW, NW
    run from corner k to corner k+1)."""
    x, y = centre(col, row, **geo)
    hex_w = geo.get("hex_w", HEX_W)
    hex_h = geo.get("hex_h", HEX_H)
    a, h = hex_w * 2 / 3, hex_h / 2
    b = a / 2
    return [(x - b, y - h), (x + b, y - h), (x + a, y), (x + b, y + h), (x - b, y + h),
            (x - a, y)]


class SynthBoard:
    """Paint a board: ``hex_`` sets one hex, ``side`` a hexside, ``building`` joins hexes."""

    def __init__(self, size=(33, 10), a1=A1, hex_w=HEX_W, hex_h=HEX_H, pixels=None):
        self.size = size
        self.geo = {"a1": a1, "hex_w": hex_w, "hex_h": hex_h}
        w = pixels[0] if pixels else int(round(a1[0] + hex_w * (size[0] - 1)))
        h = pixels[1] if pixels else int(round(a1[1] - hex_h / 2 + hex_h * size[1]))
        self.image = Image.new("RGB", (w, h), COLOURS["Level0"])
        self.draw = ImageDraw.Draw(self.image)
        self.hexes = {}         # "C4" -> (terrain, level)
        self.sides = {}         # "C4/2" -> name
        self.buildings = []     # [["C4", "C5"], ...]
        self.dots = True
        self.frame = False      # VASL's black frame: the picture's outermost pixel rows, columns
        self.extra = []         # [(colour, [(x, y), ...] polygon or (x0, y0, x1, y1) box)]

    def _hexagon(self, col, row, colour):
        self.draw.polygon(corners(col, row, **self.geo), fill=COLOURS[colour])

    def _disc(self, col, row, radius, colour):
        x, y = centre(col, row, **self.geo)
        self.draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=COLOURS[colour])

    def hex_(self, hex_id: str, terrain: str = "open", level: int = 0) -> None:
        self.hexes[hex_id] = (terrain, level)

    def side(self, hex_id: str, direction: int, name: str) -> None:
        self.sides[f"{hex_id}/{direction}"] = name

    def building(self, hex_ids, level: int = 0) -> None:
        for h in hex_ids:
            self.hexes[h] = ("building", level)
        self.buildings.append(list(hex_ids))

    def render(self) -> Image.Image:
        hh = self.geo["hex_h"]
        # hills first, every hex (the board's ground), then the terrain over them
        for col, row in board_hexes(self.size):
            name = f"{column_name(col)}{row}"
            level = self.hexes.get(name, ("open", 0))[1]
            self._hexagon(col, row, LEVEL_COLOUR[level])
        for name, (terrain, level) in self.hexes.items():
            col, row = parse_local(name, self.size)
            if terrain == "woods":
                self._disc(col, row, 0.36 * hh, "WoodsBlack")
                self._disc(col, row, 0.33 * hh, "WoodsGreen")
            elif terrain == "grain":
                self._disc(col, row, 0.36 * hh, f"GrainL{level}".replace("-", "_"))
            elif terrain == "brush":
                self._disc(col, row, 0.36 * hh, f"BrushL{level}".replace("-", "_"))
            elif terrain == "orchard":
                x, y = centre(col, row, **self.geo)
                for dx, dy in ((-9, -7), (8, -6), (0, 9), (-3, 0)):
                    r = 0.07 * hh
                    self.draw.ellipse([x + dx - r, y + dy - r, x + dx + r, y + dy + r],
                                      fill=COLOURS["OrchTrees"])
            elif terrain == "rubble":
                self._disc(col, row, 0.12 * hh, "StoneRubble")
            elif terrain == "building" and not any(name in b for b in self.buildings):
                self._disc(col, row, 0.3 * hh, "WoodBldg3")
        for hexes in self.buildings:
            points = [centre(*parse_local(h, self.size), **self.geo) for h in hexes]
            for h, (x, y) in zip(hexes, points):
                r = 0.28 * hh
                self.draw.rectangle([x - r, y - r, x + r, y + r], fill=COLOURS["StoneBldg17"])
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                self.draw.line([(x0, y0), (x1, y1)], fill=COLOURS["StoneBldg17"],
                               width=int(0.4 * hh))
        for key, name in self.sides.items():
            hex_id, d = key.split("/")
            c = corners(*parse_local(hex_id, self.size), **self.geo)
            k = int(d) - 1
            self.draw.line([c[k], c[(k + 1) % 6]], fill=COLOURS[SIDE_COLOUR[name]], width=5)
        for colour, shape in self.extra:
            if len(shape) == 4 and not isinstance(shape[0], tuple):
                self.draw.rectangle(list(shape), fill=COLOURS[colour])
            else:
                self.draw.polygon(shape, fill=COLOURS[colour])
        if self.frame:
            w, h = self.image.size
            self.draw.rectangle([0, 0, w - 1, h - 1], outline=COLOURS["Black"])
        if self.dots:
            for col, row in board_hexes(self.size):
                x, y = centre(col, row, **self.geo)
                self.draw.ellipse([x - 2, y - 2, x + 2, y + 2],
                                  fill=COLOURS["DuttyWhiteHexDots"])
        return self.image

    def write(self, path: str | Path, *, kind: str = "gif", colors: bool | str = True,
              data: str = "version 5.4\nsynthetic\n", image_name: str | None = None,
              metadata: bytes | None = None) -> Path:
        """The archive; ``colors``: True (name every colour), False (no colors file) or the
        file's text; ``metadata``: a ``BoardMetadata.xml`` to put in it."""
        path = Path(path)
        image = self.render()
        buf = io.BytesIO()
        if kind == "gif":
            _paletted(image).save(buf, "GIF")
        else:
            image.save(buf, "PNG")
        name = image_name or f"{path.name}.{kind}"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(name, buf.getvalue())
            if colors is True:
                z.writestr("colors", colors_file())
            elif isinstance(colors, str):
                z.writestr("colors", colors)
            if data is not None:
                z.writestr("data", data)
            if metadata is not None:
                z.writestr("BoardMetadata.xml", metadata)
        return path


def colors_file() -> str:
    lines = ["// synthetic board colours (VASL's names)"]
    lines += [f"{n} {r},{g},{b}" for n, (r, g, b) in COLOURS.items()]
    return "\n".join(lines) + "\n"


def _paletted(image: Image.Image) -> Image.Image:
    """The image as a GIF stores it: a palette of its exact colours (PIL's quantizer merges
    VASL's near-identical level colours)."""
    rgb = np.asarray(image).astype(np.uint32)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    values, index = np.unique(packed, return_inverse=True)
    assert len(values) <= 256
    p = Image.fromarray(index.reshape(packed.shape).astype(np.uint8), "P")
    p.putpalette([int(v >> s) & 255 for v in values.tolist() for s in (16, 8, 0)])
    return p


def random_board(seed: int, size=(33, 10)) -> SynthBoard:
    """A board with random terrain, levels and hexsides, none of them touching ambiguously:
    terrain patches sit inside their hexes, hexsides between hexes of one level."""
    rng = np.random.default_rng(seed)
    b = SynthBoard(size)
    hexes = board_hexes(size)
    inner = [(c, n) for c, n in hexes if 0 < c < size[0] - 1 and 1 <= n <= size[1] - 1]
    for c, n in inner:
        name = f"{column_name(c)}{n}"
        terrain = rng.choice(["open", "open", "woods", "grain", "brush", "orchard", "rubble",
                              "building"])
        level = int(rng.choice([-1, 0, 1, 2, 3]))
        if terrain == "rubble":
            level = 0               # VASL paints rubble in a level-0 colour
        b.hex_(name, str(terrain), level)
    picks = rng.choice(len(inner), size=30, replace=False)
    for p in picks:
        c, n = inner[int(p)]
        d = int(rng.integers(1, 7))
        b.side(f"{column_name(c)}{n}", d, str(rng.choice(["wall", "hedge", "bocage", "cliff"])))
    return b


def distance(here, there) -> float:
    return math.hypot(here[0] - there[0], here[1] - there[1])


def board_metadata(building_types=(), has_hills: bool = True, name: str = "77") -> bytes:
    """A ``BoardMetadata.xml`` as VASL's boards carry it: ``building_types`` [(hex, VASL
    building type name)]."""
    rows = "".join(f'    <buildingType hexName="{h}" buildingTypeName="{t}" />\n'
                   for h, t in building_types)
    return (f'<?xml version="1.0"?>\n<boardMetadata name="{name}" version="1" '
            f'hasHills="{"TRUE" if has_hills else "FALSE"}" width="33" height="10">\n'
            f'  <buildingTypes>\n{rows}  </buildingTypes>\n</boardMetadata>\n').encode()
