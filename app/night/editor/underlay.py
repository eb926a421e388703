"""Underlays: a player's own scan of a board, shown on its board to trace over.

The image is never copied into our files: its path, its calibration and its opacity are kept in
the program's settings (QSettings, under ``underlays/<board id>``), and the image comes back
whenever that board is on the map.  Calibration: the player clicks a point of the image and
names the hex whose centre dot it is, twice (``CalibrationClicks`` stands in for the hand on
the map meanwhile); ``calibration.from_two_points`` does the maths.  The image lies over the
terrain and under the grid and the overlays, at the opacity the player chooses.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QPen, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem, QGraphicsRectItem, QInputDialog

from app import style
from app.hex_geometry import placement_rect
from engine.api import COLUMN_NAMES, HexIdError, parse_local

from .calibration import Similarity, fitted, from_two_points, hex_centre, placement

Z_UNDERLAY = 2          # over the terrain (0), under the grid (5) and the overlays (10 and up)
DEFAULT_OPACITY = 0.5


@dataclass
class UnderlaySpec:
    image: str
    points: list = field(default_factory=list)     # [[x, y, "C3"], [x, y, "Y8"]]: image pixels
    opacity: float = DEFAULT_OPACITY


def local_hex(text: str, board_id: str) -> tuple[int, int]:
    """The (col, row) the player named: "C3", "c3", or with the board's id, "2C3"."""
    t = text.strip()
    prefixed = t[len(board_id):] if t.lower().startswith(board_id.lower()) else ""
    for candidate in (t, prefixed):
        try:
            return parse_local(candidate.upper())
        except HexIdError:
            pass
    raise HexIdError(f"{t!r} is not a hex of board {board_id} (e.g. C3 or {board_id}C3)")


def local_name(col: int, row: int) -> str:
    return f"{COLUMN_NAMES[col]}{row}"


def calibration_of(spec: UnderlaySpec, width: int, height: int, board_id: str) -> Similarity:
    """Image pixels -> board-local map units: from the two named points, else a first guess."""
    if len(spec.points) == 2:
        (x1, y1, h1), (x2, y2, h2) = spec.points
        return from_two_points((x1, y1), (x2, y2), hex_centre(*local_hex(h1, board_id)),
                               hex_centre(*local_hex(h2, board_id)))
    return fitted(width, height)


class Underlays(QObject):
    changed = Signal(str)            # the underlay of this board changed

    def __init__(self, scene, settings, parent=None):
        super().__init__(parent)
        self.scene, self.settings = scene, settings
        self.items: dict[str, QGraphicsPixmapItem] = {}     # the images, by board id
        self._frames: dict[str, QGraphicsRectItem] = {}     # their boards' rectangles
        scene.mapChanged.connect(self.follow_map)
        self.follow_map()

    # ------------------------------------------------------------------------ settings
    def spec(self, board_id: str) -> UnderlaySpec | None:
        raw = self.settings.value(f"underlays/{board_id}")
        if not raw:
            return None
        try:
            data = json.loads(raw)
            return UnderlaySpec(str(data["image"]), list(data.get("points", [])),
                                float(data.get("opacity", DEFAULT_OPACITY)))
        except (ValueError, KeyError, TypeError):
            return None

    def _store(self, board_id: str, spec: UnderlaySpec | None) -> None:
        if spec is None:
            self.settings.remove(f"underlays/{board_id}")
        else:
            self.settings.setValue(f"underlays/{board_id}", json.dumps(asdict(spec)))
        self.settings.sync()

    # ------------------------------------------------------------------------ the player's acts
    def load(self, board_id: str, path: str) -> None:
        """Show the image ``path`` on board ``board_id`` (uncalibrated: laid across the board).
        Raises ValueError when it is not an image Qt can read."""
        if QPixmap(path).isNull():
            raise ValueError(f"{path}: not an image this program can read")
        old = self.spec(board_id)
        self._store(board_id, UnderlaySpec(path, [], old.opacity if old else DEFAULT_OPACITY))
        self._drop(board_id)
        self.follow_map()
        self.changed.emit(board_id)

    def remove(self, board_id: str) -> None:
        self._store(board_id, None)
        self._drop(board_id)
        self.changed.emit(board_id)

    def set_opacity(self, board_id: str, opacity: float) -> None:
        spec = self.spec(board_id)
        if spec is None:
            return
        spec.opacity = max(0.0, min(1.0, opacity))
        self._store(board_id, spec)
        frame = self._frames.get(board_id)
        if frame is not None:
            frame.setOpacity(spec.opacity)
        self.changed.emit(board_id)

    def calibrate(self, board_id: str, points: list) -> None:
        """Two [x, y, hex] points: image pixel (x, y) is the centre of that hex of the board.
        Raises ValueError (or HexIdError) for points that cannot calibrate."""
        spec = self.spec(board_id)
        if spec is None:
            raise ValueError(f"board {board_id} has no underlay")
        spec = UnderlaySpec(spec.image, [list(p) for p in points], spec.opacity)
        calibration_of(spec, 1, 1, board_id)          # raises for bad points
        self._store(board_id, spec)
        self.follow_map()
        self.changed.emit(board_id)

    def image_point(self, board_id: str, scene_point: QPointF) -> tuple[float, float] | None:
        """The image pixel shown at ``scene_point``, or None when the board has no image shown."""
        item = self.items.get(board_id)
        if item is None or item.scene() is None:
            return None
        inverse, ok = item.sceneTransform().inverted()
        if not ok:
            return None
        p = inverse.map(scene_point)
        return p.x(), p.y()

    # ------------------------------------------------------------------------ drawing
    def _drop(self, board_id: str) -> None:
        self.items.pop(board_id, None)
        frame = self._frames.pop(board_id, None)
        if frame is not None and frame.scene() is not None:
            frame.scene().removeItem(frame)

    def follow_map(self) -> None:
        """Every board on the map that has an underlay shows it where the board now lies (the
        scene empties itself when the map changes).  A calibrated image is cut to its board's
        edges (a scan's margins would cover the next board); before calibration it is shown
        whole, so that every dot can be clicked."""
        m = self.scene.map
        where = {p.board.id: p for p in m.placements} if m is not None else {}
        for board_id in list(self.items):
            if board_id not in where:
                self._drop(board_id)
        for board_id, p in sorted(where.items()):
            spec = self.spec(board_id)
            if spec is None:
                continue
            item = self.items.get(board_id)
            if item is None:
                pixmap = QPixmap(spec.image)
                if pixmap.isNull():
                    continue                    # the scan was moved or deleted: nothing shown
                item = QGraphicsPixmapItem(pixmap)
                item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
                item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                frame = QGraphicsRectItem()
                frame.setPen(QPen(Qt.PenStyle.NoPen))
                frame.setZValue(Z_UNDERLAY)
                frame.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.items[board_id], self._frames[board_id] = item, frame
            frame = self._frames[board_id]
            frame.setRect(placement_rect(m, m.placements.index(p)))
            frame.setFlag(QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape,
                          len(spec.points) == 2)
            pm = item.pixmap()
            item.setTransform(QTransform(*self._chain(p, spec, pm.width(), pm.height()).matrix))
            frame.setOpacity(spec.opacity)
            if frame.scene() is not self.scene:
                self.scene.addItem(frame)
            if item.parentItem() is not frame:      # the scene let go of it with the old map
                item.setParentItem(frame)

    @staticmethod
    def _chain(p, spec: UnderlaySpec, width: int, height: int) -> Similarity:
        """Image pixels -> scene pixels for the board placed as ``p``."""
        try:
            image_to_board = calibration_of(spec, width, height, p.board.id)
        except (ValueError, HexIdError):
            image_to_board = fitted(width, height)
        return (image_to_board.then(placement(p.at, p.rotated))
                .then(Similarity(complex(style.SCALE, 0))))


class CalibrationClicks(QObject):
    """Stands in for the hand while the player calibrates an underlay: each left click on the
    image asks which hex's centre dot it is; after two, the underlay is calibrated.  Other
    buttons go to the hand."""
    told = Signal(str)
    done = Signal(bool)              # True: calibrated; False: given up

    def __init__(self, underlays: Underlays, board_id: str, view, hand, parent=None):
        super().__init__(parent)
        self.underlays, self.board_id, self.view, self.hand = underlays, board_id, view, hand
        self.points: list = []

    def ask_hex(self, first: bool) -> tuple[str, bool]:
        which = "first" if first else "second"
        return QInputDialog.getText(self.view.window(), "Calibrate the underlay",
                                    f"The {which} point: which hex of board {self.board_id} has "
                                    "its centre dot there? (e.g. C3)")

    def press(self, event) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return self.hand.press(event)
        at = self.underlays.image_point(self.board_id,
                                        self.view.mapToScene(event.position().toPoint()))
        if at is None:
            self.done.emit(False)
            return True
        text, ok = self.ask_hex(not self.points)
        if not ok or not text.strip():
            self.told.emit("Calibration given up")
            self.done.emit(False)
            return True
        try:
            name = local_name(*local_hex(text, self.board_id))
        except HexIdError as e:
            self.told.emit(f"{e}: click the point again")
            return True
        self.points.append([at[0], at[1], name])
        if len(self.points) < 2:
            self.told.emit("Now click a second hex centre, far from the first")
            return True
        try:
            self.underlays.calibrate(self.board_id, self.points)
        except ValueError as e:
            self.told.emit(f"Cannot calibrate: {e}")
            self.done.emit(False)
            return True
        self.told.emit(f"The underlay of board {self.board_id} is calibrated")
        self.done.emit(True)
        return True

    def move(self, event) -> bool:
        return self.hand.move(event)

    def release(self, event) -> bool:
        if event.button() == Qt.MouseButton.LeftButton:
            return True
        return self.hand.release(event)
