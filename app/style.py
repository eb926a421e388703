"""Every colour, size and font of the program, in one place (a night palette).

Scene coordinates are map units times ``SCALE``: one hex circumradius is ``SCALE`` pixels at
zoom 1.  Colours with an alpha are overlays painted over the terrain; ``over`` composes them the
way the scene does, so tests can predict a pixel.
"""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPalette

SCALE = 40.0                     # scene pixels per map unit (hex circumradius)
FONT_FAMILY = "DejaVu Sans"


def rgba(hex_rgb: str, alpha: float = 1.0) -> QColor:
    c = QColor(hex_rgb)
    c.setAlphaF(alpha)
    return c


def over(*layers: QColor) -> QColor:
    """The colour of ``layers`` painted bottom first (source-over), as an opaque colour."""
    r = g = b = 0.0
    for c in layers:
        a = c.alphaF()
        r = c.redF() * a + r * (1 - a)
        g = c.greenF() * a + g * (1 - a)
        b = c.blueF() * a + b * (1 - a)
    return QColor.fromRgbF(r, g, b)


def font(size_px: float, bold: bool = False) -> QFont:
    f = QFont(FONT_FAMILY)
    f.setPixelSize(max(1, round(size_px)))
    f.setBold(bold)
    return f


def label_font(painter, hexes: float, min_px: float) -> tuple[float, QFontMetricsF]:
    """Set a bold map label font ``hexes`` hex radii high, but never below ``min_px`` screen
    pixels at the painter's zoom; returns (size in scene units, its metrics)."""
    scale = max(painter.worldTransform().m11(), 1e-6)
    size = max(hexes * SCALE, min_px / scale)
    painter.setFont(font(size, bold=True))
    return size, QFontMetricsF(painter.font())


# ----------------------------------------------------------------------------- the table
BACKGROUND = QColor("#080b11")            # around the map
BOARD_EDGE = QColor("#05070b")

# ground by hill level (E: level 0 is open ground); deeper levels darker, hills warmer and lighter
# (a clear step of lightness per level, so that the levels still differ under the night veil)
GROUND = {-2: QColor("#34402e"), -1: QColor("#44523b"), 0: QColor("#52613f"),
          1: QColor("#85703f"), 2: QColor("#ad9356"), 3: QColor("#c8ae70"),
          4: QColor("#dac48a"), 5: QColor("#e6d4a2")}
HILL_EDGE = QColor("#1b150b")             # contour between two levels
HILL_EDGE_LIGHT = rgba("#e8d7a4", 0.35)   # its highlight on the higher side

WOODS = QColor("#2b5a31")
WOODS_CANOPY = QColor("#3f7d42")
FOREST = QColor("#234f2b")
PINE = QColor("#24503c")
ORCHARD_TREE = QColor("#3f8444")
ORCHARD_TRUNK = QColor("#121c10")
GRAIN = QColor("#8d7a37")
GRAIN_LINE = QColor("#bda553")
BRUSH = QColor("#5e6f37")
BRUSH_TUFT = QColor("#a2ba62")
DENSE_JUNGLE = QColor("#18463a")
DENSE_JUNGLE_LEAF = QColor("#2a7157")
LIGHT_JUNGLE = QColor("#3b6f39")
LIGHT_JUNGLE_LEAF = QColor("#5d9a52")
BAMBOO = QColor("#5a7830")
BAMBOO_STALK = QColor("#d0e484")
SWAMP = QColor("#36585c")
SWAMP_LINE = QColor("#7fb0b8")
KUNAI = QColor("#8f8844")
MARSH = QColor("#3f5d57")
PLOWED = QColor("#6b5a3a")
PLOWED_LINE = QColor("#8c7650")
WATER = QColor("#2d5878")
WATER_LINE = QColor("#7fb4d8")
GULLY = QColor("#4a4030")
GULLY_LINE = QColor("#766a4f")
RUBBLE = QColor("#6c6a66")
RUBBLE_STONE = QColor("#9a968e")
HUTS = QColor("#7d6a48")
HUT_ROOF = QColor("#b39a66")
BARE_TREE = QColor("#6f5f44")
BUILDING = QColor("#8a93a2")
BUILDING_EDGE = QColor("#eef1f5")
BUILDING_GROUND = QColor("#4f5560")       # the whole hex of a building, around its walls
BUILDING_LEVEL = rgba("#3b4350", 0.85)    # one inner outline per upper level

GRID = rgba("#c9d3c0", 0.30)
GRID_DOT = rgba("#e7eddf", 0.55)
COORDINATE = rgba("#e7eddf", 0.70)
BOARD_LABEL = QColor("#f1ead2")
BOARD_LABEL_BACK = rgba("#0b0e14", 0.80)
EDGE_LABEL_BACK = rgba("#0b0e14", 0.62)   # column letters and row numbers along board edges
HILL_CONTOUR = rgba("#f0dfa8", 0.55)      # over the night veil: hills read in the dark
LEVEL_TEXT = rgba("#f6e7b8", 0.90)        # a hill's level number

# overlays: what the selected unit sees (SPEC: none / nvr / gunflash)
SIGHT_NVR = rgba("#a8d8ff", 0.14)         # within NVR or lit: a faint moonlight tint
SIGHT_GUNFLASH = rgba("#ff9a2e", 0.34)    # only by Gunflash: amber, dashed edge
SIGHT_GUNFLASH_EDGE = QColor("#ffb04d")
SIGHT_NONE = rgba("#02040a", 0.64)        # nothing: a dark veil

LIT = rgba("#ffc75a", 0.40)               # hexes a light reaches: warm
LIGHT_CIRCLE = QColor("#ffd77a")          # a light's circle
LIGHT_CIRCLE_FIRE = QColor("#ff8a4c")     # a blaze's or flame's circle
BLAZE_SHADOW = QColor("#ff7a45")          # hatching: blind hexes of a blaze/flame circle
VIEWER_BLIND = QColor("#c3b6ff")          # hatching: the viewer's A6.4 blind hexes
GUNFLASH_LOCATION = QColor("#ffa640")
NVR_RING = QColor("#7fd6ff")
MOVING_RING = QColor("#6fb7dd")
SELECTION = QColor("#ffffff")
HOVER = rgba("#ffffff", 0.75)

# placing a starshell (E1.922) or IR (E1.932): each method its own colour and dash
METHOD_STYLE = {"1": (QColor("#ffffff"), None, 0.92), "2": (QColor("#66e0ff"), [4, 2], 0.80),
                "3": (QColor("#ff7ad9"), [1, 2], 0.68), "ir-los": (QColor("#9dff7a"), [4, 2], 0.80),
                "ir-6": (QColor("#c8ff5a"), [1, 2], 0.68)}   # colour, dashes, inset
DRIFT_END = QColor("#ff4d3d")             # where the flare may end: alpha grows with chance
DRIFT_LIT = QColor("#ffd35a")             # chance a hex ends up lit
DRIFT_LABEL = QColor("#fff4d6")

# the LOS thread: a player's string
THREAD = QColor("#f4f1e6")
THREAD_BLOCKED = QColor("#ff5a4a")
THREAD_CROSSED = rgba("#f4f1e6", 0.55)

# view as side: an enemy seen only by its Gunflash
SEEN_GUNFLASH = QColor("#ffa640")

# counters: the two sides (first side of the scenario, second side)
SIDE_FILL = (QColor("#d9c48b"), QColor("#9fb6cf"))
SIDE_INK = (QColor("#2a2212"), QColor("#0f1a27"))
SIDE_EDGE = (QColor("#7d6b3d"), QColor("#4f6680"))
COUNTER_SHADOW = rgba("#000000", 0.55)
BADGE_BROKEN = QColor("#c8352b")
BADGE_INFO = QColor("#243041")
BADGE_TEXT = QColor("#f4f1e6")
BADGE_CE = QColor("#2f7d46")
BADGE_MOVING = QColor("#2a63b8")
MARKER_DARK = QColor("#141a26")           # light and Gunflash markers
MARKER_STAR = QColor("#ffe27a")
MARKER_FLAME = QColor("#ff7a2e")
MARKER_FLAME_CORE = QColor("#ffd05a")
MARKER_FIRE = QColor("#efeadb")           # prep/first/final fire counters
MARKER_FIRE_INK = QColor("#1b1b1b")
MARKER_FFE = QColor("#c73a2f")

# counter sizes, in map units, and their smallest size on screen (pixels) when zoomed out
UNIT_SIZE = 0.90
MARKER_SIZE = 0.70
STACK_STEP = 0.32                 # offset of each counter of a stack, as a share of its size
MIN_UNIT_PX = 30.0
MIN_MARKER_PX = 24.0
MIN_LABEL_PX = 11.0                # ring labels

# level of detail: pixels per map unit below which details are left out
LOD_COORDINATES = 22.0
LOD_TEXTURE = 9.0
LOD_GRID = 5.0

# panels
TEXT_DIM = "#8c96a6"
PANEL_SIGHT = {"nvr": "#9fd3ff", "gunflash": "#ffb04d", "none": "#8c96a6"}


def apply_theme(app) -> None:
    """A dark Fusion palette for the whole window, to match the night map."""
    app.setStyle("Fusion")
    pal = QPalette()
    roles = {QPalette.ColorRole.Window: "#1b2029", QPalette.ColorRole.WindowText: "#dfe3ea",
             QPalette.ColorRole.Base: "#12161d", QPalette.ColorRole.AlternateBase: "#1b2029",
             QPalette.ColorRole.Text: "#dfe3ea", QPalette.ColorRole.Button: "#252b36",
             QPalette.ColorRole.ButtonText: "#dfe3ea", QPalette.ColorRole.Highlight: "#3d6fa8",
             QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#252b36",
             QPalette.ColorRole.ToolTipText: "#dfe3ea", QPalette.ColorRole.Link: "#8cc4ff",
             QPalette.ColorRole.PlaceholderText: TEXT_DIM}
    for role, colour in roles.items():
        pal.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(TEXT_DIM))
    app.setPalette(pal)
