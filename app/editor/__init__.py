"""Board and map editing (issue 10) and the import of VASL boards (issue 9's app part).

``install(window)`` adds them to the main window: the Map menu, File > Import VASL board, the
Map and Board panels, and the check that edited boards are saved before the position.
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from .board_editor import BoardEditor
from .board_panel import BoardPanel
from .layout_panel import LayoutPanel
from .vasl_import import import_vasl_board


def install(window) -> BoardEditor:
    editor = BoardEditor(window)
    window.board_editor = editor
    vasl = lambda: import_vasl_board(editor)        # noqa: E731

    paint = QAction("&Paint terrain on the map", window)
    paint.setCheckable(True)
    paint.setShortcut(QKeySequence("Ctrl+B"))
    paint.setToolTip("Paint the brush of the Board panel on the map (Ctrl+B)")
    paint.toggled.connect(editor.set_painting)
    editor.modeChanged.connect(lambda mode: paint.setChecked(mode == "paint"))
    window.addAction(paint)

    menu = window.map_menu = QMenu("&Map", window)
    window.menuBar().insertMenu(window.tools_menu.menuAction(), menu)
    menu.addAction(paint)
    for text, slot in (("&New blank board\u2026", lambda: editor.new_board()),
                       ("&Save board as\u2026", lambda: editor.save_board_as()),
                       (None, None),
                       ("Add a &board file\u2026", lambda: editor.add_file()),
                       ("&Import a VASL board\u2026", vasl),
                       (None, None),
                       ("&Load an underlay image\u2026", lambda: editor.load_underlay()),
                       ("&Calibrate the underlay\u2026", lambda: editor.start_calibration()),
                       ("&Remove the underlay", editor.remove_underlay)):
        if text is None:
            menu.addSeparator()
        else:
            menu.addAction(text).triggered.connect(slot)

    f = window.file_menu
    window.import_vasl_action = QAction("&Import VASL board\u2026", window)
    window.import_vasl_action.triggered.connect(vasl)
    actions = f.actions()
    save_as = next(k for k, a in enumerate(actions) if a.text().startswith("Save &As"))
    f.insertAction(actions[save_as + 1], window.import_vasl_action)

    window.layout_panel = LayoutPanel(editor, vasl)
    window.board_panel = BoardPanel(editor, paint)
    first = window.docks[0]
    for title, panel, name in (("Map", window.layout_panel, "map_layout"),
                               ("Board", window.board_panel, "board_editor")):
        dock = window._dock(title, panel, name)
        window.tabifyDockWidget(first, dock)
        window.view_menu.addAction(dock.toggleViewAction())
    first.raise_()
    return editor
