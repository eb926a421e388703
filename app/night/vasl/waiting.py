"""The "Waiting" dock: the counters of a VASL save that wait in the map's margins (a set-up not
yet placed), listed by their counter names.  Drag one onto a hex of the map, or click it and then
the hex: it is put there (one undo step, the engine's ``place_waiting``) and leaves the list.
Below, the save's support weapons and Guns on their hexes, listed (they are not viewers)."""
from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from engine import api

from ..tools.pieces import PIECE_PREFIX, Piece

WAITING_MIME = "application/x-starshell-waiting"     # a drag's data: the counter's unit id


def waiting_id(mime: QMimeData) -> str | None:
    """The waiting counter a drag carries, or None."""
    if not mime.hasFormat(WAITING_MIME):
        return None
    uid = bytes(mime.data(WAITING_MIME).data()).decode("utf-8", "replace")
    return uid or None


class WaitingList(QListWidget):
    """The list of waiting counters; an item dragged carries its unit id (``WAITING_MIME``)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)

    def mimeTypes(self) -> list[str]:
        return [WAITING_MIME]

    def mimeData(self, items) -> QMimeData:
        mime = QMimeData()
        if items:
            mime.setData(WAITING_MIME, str(items[0].data(Qt.ItemDataRole.UserRole)).encode())
        return mime


def waiting_text(entry: dict) -> str:
    """One line of the list: the counter's name, its side and kind, its id."""
    name = entry.get("name") or entry["type"].replace("_", " ")
    return f"{name}  \u2013  {entry['side']} {entry['type'].replace('_', ' ')} ({entry['id']})"


def waiting_piece_text(piece: dict) -> str:
    """One line of the list for a waiting support weapon or Gun: name, kind, side."""
    side = f"{piece['side']} " if piece.get("side") else ""
    kind = "Gun" if piece.get("kind") == "gun" else "support weapon"
    return f"{piece['name']}  \u2013  {side}{kind} (not a viewer)"


def kept_text(piece: dict) -> str:
    """One line of the support weapons and Guns: name, hex, side."""
    side = f", {piece['side']}" if piece.get("side") else ""
    kind = "Gun" if piece.get("kind") == "gun" else "support weapon"
    return f"{piece['name']} in {piece['hex']} ({kind}{side})"


class WaitingPanel(QWidget):
    picked = Signal(object)          # a tools.pieces.Piece with ``waiting`` set

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.list = WaitingList()
        self.list.setObjectName("waiting_list")
        self.list.itemClicked.connect(self._pick)
        self.list.itemPressed.connect(self._pick)       # a drag starts with a press
        # the row the keyboard moves to (arrows, typing its name) is the one the next click
        # on a hex puts down: what is highlighted is what is placed
        self.list.currentItemChanged.connect(self._current_moved)
        self._refreshing = False
        self.kept_title = QLabel()
        self.kept_title.setWordWrap(True)
        self.kept = QListWidget()
        self.kept.setObjectName("kept_list")
        box = QVBoxLayout(self)
        box.addWidget(self.title)
        box.addWidget(self.list, 1)
        box.addWidget(self.kept_title)
        box.addWidget(self.kept)
        document.changed.connect(self.refresh)
        self.refresh()

    def entries(self) -> list[dict]:
        return api.vasl.waiting_units(self.document.scenario)

    def refresh(self) -> None:
        entries = self.entries()
        self._refreshing = True
        try:
            self._fill(entries)
        finally:
            self._refreshing = False

    def _fill(self, entries: list[dict]) -> None:
        self.list.clear()
        for e in entries:
            item = QListWidgetItem(waiting_text(e))
            item.setData(Qt.ItemDataRole.UserRole, e["id"])
            item.setToolTip("Drag it onto a hex of the map, or click it, then the hex")
            self.list.addItem(item)
        pieces = api.vasl.waiting_pieces(self.document.scenario)
        for p in pieces:
            item = QListWidgetItem(waiting_piece_text(p))
            item.setData(Qt.ItemDataRole.UserRole, PIECE_PREFIX + p["vasl_id"])
            item.setToolTip("Drag it onto a hex of the map, or click it, then the hex (it "
                            "stays a piece there, not a viewer)")
            self.list.addItem(item)
        count = len(entries) + len(pieces)
        self.title.setText(f"{count} counter(s) of the VASL save wait off the boards: "
                           "drag one onto a hex (or click it, then the hex)" if count
                           else "No counter waits off the boards.")
        kept = api.vasl.kept_pieces(self.document.scenario)
        self.kept.clear()
        for p in kept:
            self.kept.addItem(kept_text(p))
        self.kept_title.setText(f"On the map, not viewers ({len(kept)} support weapon(s) and "
                                "Gun(s)):" if kept else "")
        self.kept.setVisible(bool(kept))

    def _current_moved(self, item: QListWidgetItem | None, _previous=None) -> None:
        if item is not None and not self._refreshing and self.list.hasFocus():
            self._pick(item)

    def _pick(self, item: QListWidgetItem) -> None:
        uid = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(uid, str) and uid.startswith(PIECE_PREFIX):
            self.picked.emit(Piece("unit", "support weapon", None, waiting=uid))
            return
        entry = next((e for e in self.entries() if e["id"] == uid), None)
        if entry is not None:
            self.picked.emit(Piece("unit", entry["type"], entry["side"], waiting=uid))
