"""Board and map editing and the import of VASL boards.

``BoardEditor`` (board_editor.py) does the work; the main window builds it with its collaborators
and builds its parts from here: the *Paint on the map* action (``paint_action``) and the Map
menu (``map_menu``); the Map and Board panels are ``LayoutPanel`` and ``BoardPanel``.
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from .board_editor import BoardEditor


def paint_action(editor: BoardEditor, parent) -> QAction:
    """*Paint terrain on the map* (Ctrl+B), checked while the editor paints."""
    paint = QAction("&Paint terrain on the map", parent)
    paint.setCheckable(True)
    paint.setShortcut(QKeySequence("Ctrl+B"))
    paint.setToolTip("Paint the brush of the Board panel on the map (Ctrl+B)")
    paint.toggled.connect(editor.set_painting)
    editor.modeChanged.connect(lambda mode: paint.setChecked(mode == "paint"))
    return paint


def map_menu(editor: BoardEditor, paint: QAction, parent) -> QMenu:
    """The Map menu: painting, new and saved boards, board files, VASL boards, underlays."""
    menu = QMenu("&Map", parent)
    menu.addAction(paint)
    for text, slot in (("&New blank board\u2026", lambda: editor.new_board()),
                       ("&Save board as\u2026", lambda: editor.save_board_as()),
                       (None, None),
                       ("Add a &board file\u2026", lambda: editor.add_file()),
                       ("&Import a VASL board\u2026", editor.import_vasl),
                       (None, None),
                       ("&Load an underlay image\u2026", lambda: editor.load_underlay()),
                       ("&Calibrate the underlay\u2026", lambda: editor.start_calibration()),
                       ("&Remove the underlay", editor.remove_underlay)):
        if text is None:
            menu.addSeparator()
        else:
            menu.addAction(text).triggered.connect(slot)
    return menu
