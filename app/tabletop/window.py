"""The tabletop window: the table, a panel with the engine's answer for the chosen shooter and
for the element under the pointer, undo, atomic save and PNG export (``RoomWindow``'s)."""
from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QImage, QKeySequence
from PySide6.QtWidgets import QDockWidget, QPushButton, QScrollArea, QTextBrowser

from app.file_filters import TABLE_FILTER
from app.file_kinds import TABLE_FILE
from app.map_view import ZoomView
from app.render import render_view, write_png
from app.room_window import RoomWindow, bundled_examples, edit_menu
from engine import api

from .document import Document
from .editor import EditorPanel
from .recovery import TABLE
from .scene import TableScene, from_scene

HELP = ("Click an element to see whom it may and must shoot; drag to move (it snaps into "
        "contact), turn it with the yellow knob, the wheel while dragging, or Q/E (15°), R "
        "(face the enemy), T (as a friend). P: place elements by clicking the table, Esc ends. "
        "A chosen terrain piece: drag it, its corners, its knob (turn) or its corner box "
        "(size).")


def bundled_folder() -> Path:
    return (api.assets_dir() / "tables").resolve()


def worked_examples() -> list[tuple[str, Path]]:
    """(menu text, path) of every bundled table, in name order."""
    return bundled_examples(bundled_folder())


class TableView(ZoomView):
    """The table on the shared ``ZoomView``; the wheel turns an element being dragged."""

    def __init__(self, scene: TableScene):
        super().__init__(scene)
        if scene.parent() is None:
            # a view does not own its scene: one made for it alone (``render``) would be
            # destroyed whenever Python's collector frees it, even in the middle of a paint
            scene.setParent(self)
        self.setDragMode(ZoomView.DragMode.NoDrag)

    def wheelEvent(self, event):
        if self.scene().dragging is not None:          # turns the element being dragged
            super(ZoomView, self).wheelEvent(event)
            return
        super().wheelEvent(event)

    def fit_rect(self):
        return self.scene().table_rect(0.4)


def report_html(doc: Document, hovered: str = "") -> str:
    """The panel's text: the chosen shooter's answer, then the hovered element's reasons."""
    esc = html.escape
    rep = doc.report
    if rep is None:
        parts = [f"<p>{esc(HELP)}</p>"]
    else:
        s = rep["shooter"]
        heading = (f"{s} supports {rep['supports']}" if rep["supports"] is not None
                   else f"{s} does not shoot" if rep["range"] is None else f"{s} shoots")
        parts = [f"<h3>{esc(heading)}</h3>",
                 "<ul>" + "".join(f"<li>{esc(r)}</li>" for r in rep["reasons"]) + "</ul>"]
        legal = [t for t, v in rep["targets"].items() if v["legal"]]
        parts.append(f"<p><b>Legal targets:</b> {esc(', '.join(legal) or 'none')}<br>"
                     f"<b>Must shoot:</b> {esc(' or '.join(rep['must_shoot']) or 'nothing')}</p>")
        if rep["supports"] is not None:
            parts.append(f"<p><b>{esc(s)} supports {esc(rep['supports'])}</b>: a rear rank never "
                         "shoots on its own; the rolls are the front rank's</p>")
        for t in rep["resolution"]:
            sup = rep["supporters"].get(t, [])
            parts.append(f"<p><b>At {esc(t)}</b>: supporters {esc(', '.join(sup) or 'none')}"
                         f" ({-len(sup)} to {esc(t)}'s factor)</p><ol>"
                         + "".join(f"<li>{esc(st['text'])}</li>"
                                   for st in rep["resolution"][t]["steps"]) + "</ol>")
    if rep is not None and hovered in rep["targets"]:
        v = rep["targets"][hovered]
        verdict = "legal target" if v["legal"] else "not a legal target"
        parts.append(f"<h4>{esc(hovered)}: {verdict}</h4><ul>"
                     + "".join(f"<li>{esc(r)}</li>" for r in v["reasons"]) + "</ul>")
    elif hovered in doc.table.ids() and rep is not None and hovered != rep["shooter"]:
        notes = [f"supports the shot at {esc(t)} (-1)" for t, ids in rep["supporters"].items()
                 if hovered in ids]
        notes += [esc(why) for t, d in rep["not_supporting"].items() for h, why in d.items()
                  if h == hovered]
        parts.append(f"<h4>{esc(hovered)} (friend)</h4><ul>"
                     + "".join(f"<li>{n}</li>" for n in notes or ["does not shoot here"])
                     + "</ul>")
    if hovered.startswith("terrain:"):
        i = int(hovered.split(":", 1)[1])
        if i < len(doc.table.terrain):
            kind = api.tabletop.TERRAIN_KINDS[doc.table.terrain[i].type]
            parts.append(f"<h4>{esc(kind.name)}</h4><p>"
                         f"{esc(api.tabletop.terrain_effect(doc.table, i))}</p>")
    elif hovered and hovered in doc.table.ids():
        about = api.tabletop.about_element(doc.table, hovered)
        parts.append(f"<h4>{esc(about[0])}</h4><ul>"
                     + "".join(f"<li>{esc(a)}</li>" for a in about[1:]) + "</ul>")
    return "".join(parts)


class TableWindow(RoomWindow):
    """The table, the Shooting and Elements panels; save, the title, close, autosave and
    recovery are ``RoomWindow``'s."""
    document_class = Document
    view_class = TableView
    file_filter = TABLE_FILTER
    format = TABLE_FILE.format
    recovery = TABLE
    default_name = "table.json"
    save_title = "Save table"
    room_title = "Starshell tabletop"
    unsaved_title = "Unsaved table"
    unsaved_text = "Save the changes to this table?"

    def __init__(self, document: Document, *, open_other=None, settings=None):
        super().__init__(document, open_other=open_other, settings=settings)
        self.scene = TableScene(document)
        self.view = self.view_class(self.scene)
        self.setCentralWidget(self.view)
        self.panel = QTextBrowser()
        dock = QDockWidget("Shooting", self)
        dock.setObjectName("shooting")
        dock.setWidget(self.panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.panel.setFocusPolicy(Qt.FocusPolicy.NoFocus)   # keys stay with the table
        self.editor = EditorPanel(document, self.view_centre,
                                  lambda m: self.statusBar().showMessage(m, 6000),
                                  self.scene.start_crest)
        self.scene.palette = self.editor.palette
        for button in self.editor.findChildren(QPushButton):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elements = QDockWidget("Elements", self)
        elements.setObjectName("elements")
        scroller = QScrollArea()            # a low screen scrolls the panel, never clips it
        scroller.setWidget(self.editor)
        scroller.setWidgetResizable(True)
        scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroller.setMinimumWidth(self.editor.minimumSizeHint().width()
                                 + scroller.verticalScrollBar().sizeHint().width() + 4)
        elements.setWidget(scroller)
        elements.setMaximumWidth(440)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, elements)
        self.hovered = ""
        self.scene.hovered.connect(self.hover)
        self.scene.status.connect(lambda m: self.statusBar().showMessage(m, 6000))
        document.changed.connect(self.refresh)
        self._menus()
        self.resize(1300, 800)
        self.refresh()
        self.statusBar().showMessage(HELP)
        self.start()

    def _menus(self) -> None:
        doc = self.document
        file_menu = self.menuBar().addMenu("&File")
        new = QAction("&New table", self)
        new.setShortcut(QKeySequence.StandardKey.New)
        new.triggered.connect(self.new_table)
        file_menu.addAction(new)
        self.examples_menu = file_menu.addMenu("Open &worked example")
        for title, path in worked_examples():
            act = self.examples_menu.addAction(title.replace("&", "&&"))
            act.triggered.connect(lambda _=False, p=str(path): self.open_path(p))
        for text, keys, slot in (("&Open...", QKeySequence.StandardKey.Open, self.open_dialog),
                                 ("&Save", QKeySequence.StandardKey.Save, self.save),
                                 ("Save &as...", QKeySequence.StandardKey.SaveAs, self.save_as)):
            act = QAction(text, self)
            act.setShortcut(keys)
            act.triggered.connect(slot)
            file_menu.addAction(act)
        self.add_export_actions(file_menu)
        self.add_recent_menu(file_menu)
        edit_menu(self, doc.undo_stack)
        delete = QAction("&Delete the chosen element", self)
        delete.setShortcut(QKeySequence.StandardKey.Delete)
        delete.triggered.connect(self.editor.delete)
        self.menuBar().actions()[-1].menu().addAction(delete)
        self._element_menu()
        view = self.menuBar().addMenu("&View")
        fit = QAction("&Fit the table", self)
        fit.setShortcut(QKeySequence("F"))
        fit.triggered.connect(self.view.fit)
        view.addAction(fit)

    def _element_menu(self) -> None:
        """Turning the chosen element by keys, and leaving the placing or crest mode."""
        menu = self.menuBar().addMenu("E&lement")
        for text, key, kwargs in (("Turn &left 15°", "Q", {"degrees": -15.0}),
                                  ("Turn &right 15°", "E", {"degrees": 15.0}),
                                  ("Face the nearest &enemy", "R", {"towards": "enemy"}),
                                  ("Face as the nearest &friend", "T", {"towards": "friend"})):
            act = QAction(text, self)
            act.setShortcut(QKeySequence(key))
            act.triggered.connect(lambda _=False, k=kwargs: self.turn_chosen(**k))
            menu.addAction(act)
        stop = QAction("&Stop placing", self)
        stop.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        stop.triggered.connect(self.stop_mode)
        menu.addAction(stop)
        place = QAction("&Place by clicking", self)
        place.setShortcut(QKeySequence("P"))
        place.triggered.connect(lambda: self.editor.place_button.setChecked(True))
        menu.addAction(place)
        self.element_menu = menu

    def stop_mode(self) -> None:
        """Esc: a crest being drawn is dropped, else placing by clicks ends."""
        if self.scene.crest is not None:
            self.scene.end_crest(False)
            self.statusBar().showMessage("crest dropped", 6000)
        else:
            self.editor.place_button.setChecked(False)

    def turn_chosen(self, degrees: float = 0.0, towards: str | None = None) -> None:
        chosen = self.document.shooter
        if chosen is None:
            self.statusBar().showMessage("Click an element first, then turn it", 6000)
            return
        message = self.document.turn(chosen, degrees, towards)
        if message:
            self.statusBar().showMessage(message, 6000)

    def refresh(self) -> None:
        self.panel.setHtml(report_html(self.document, self.hovered))

    def title_name(self) -> str:
        return self.document.table.title or super().title_name()

    def hover(self, element_id: str) -> None:
        self.hovered = element_id
        self.panel.setHtml(report_html(self.document, element_id))

    def view_centre(self) -> tuple[float, float]:
        """The middle of the view, in BW (where the palette puts a new element)."""
        return from_scene(self.view.mapToScene(self.view.viewport().rect().center()))

    def new_table(self) -> None:
        """A window on an empty table (File > New table)."""
        self.another(Document.new())


def open_window(path: str, *, select: str | None = None, recover: bool = False,
                open_other=None) -> TableWindow:
    """A window on the table file ``path`` (raises api.ScenarioError naming file and place);
    ``open_other``: how File > Open reaches the other rooms.  ``select`` and ``recover`` are
    the door's: this room opens with no shooter chosen; ``recover``: first offer the unsaved
    table a crash left (it opens instead of ``path`` when restored)."""
    window = TableWindow.recovered(open_other=open_other) if recover else None
    window = window or TableWindow(Document.open_file(path), open_other=open_other)
    window.view.fit()
    return window


def open_recovered(*, open_other=None) -> TableWindow | None:
    """A window on the table a crash left unsaved, if the player restores it (``app.rooms``)."""
    window = TableWindow.recovered(open_other=open_other)
    if window is not None:
        window.view.fit()
    return window


def render(document: Document, width: int, height: int) -> QImage:
    view = TableView(TableScene(document))
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return render_view(view, width, height, view.fit, antialias=True)


def save_screenshot(path: str, out: str, width: int, height: int,
                    select: str | None = None) -> None:
    """The table with ``select``'s shots drawn, headless, to a PNG of width x height pixels."""
    document = Document.open_file(path)
    if select:
        document.select(select)
    write_png(render(document, width, height), out)


__all__ = ["TableWindow", "open_recovered", "open_window", "save_screenshot", "report_html"]
