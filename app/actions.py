"""The actions of play and their keys: tools, placement methods, the stack, deleting, view as
side, export, help.  The Help menu's list of shortcuts is made from the same actions, so it is
always complete."""
from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDialog, QFileDialog, QTextBrowser, QVBoxLayout

from .export import export_png, export_svg
from .hand import AUTO

MOUSE = (("Click a unit", "select it: its night field is shown; click again: the next unit "
          "of its stack"),
         ("Click a marker", "pick it for editing"),
         ("Click empty ground", "clear the selection"),
         ("Drag a unit or marker", "move it; the overlays follow; one undo step"),
         ("Right-drag, or Shift + drag", "the LOS thread from one hex to another"),
         ("Starshell tool: hover / drag", "the drift preview; release to fire (the dice roll)"),
         ("Palette, then a hex", "put down a new unit or marker"),
         ("Wheel", "zoom"), ("Middle button, or Space + drag", "pan"))


def add(window, menu, text: str, slot, keys=(), checkable=False, view_only=False) -> QAction:
    a = QAction(text, window)
    a.setCheckable(checkable)
    a.triggered.connect(slot)
    if keys:
        a.setShortcuts([QKeySequence(k) for k in keys])
    if view_only:                       # Tab belongs to the map; elsewhere it moves the focus
        a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        window.view.addAction(a)
    else:
        window.addAction(a)
    menu.addAction(a)
    window.play_actions.append(a)
    return a


def build(window) -> None:
    """The Edit, Tools and Help menus' play actions, and Export in the File menu."""
    w, hand = window, window.hand
    w.play_actions = []
    e = w.edit_menu
    e.addSeparator()
    add(w, e, "&Delete the picked piece", hand.delete_picked, ("Del", "Backspace"))
    add(w, e, "&Next unit of the stack", lambda: hand.cycle(+1), ("Tab",), view_only=True)
    add(w, e, "&Previous unit of the stack", lambda: hand.cycle(-1), ("Shift+Tab", "Backtab"),
        view_only=True)
    add(w, e, "&Cancel: drop the drag, tool and thread", hand.cancel, ("Esc",))

    tools = w.tools_menu
    group = QActionGroup(w)
    w.tool_actions = {}
    for name, text, key in (("select", "&Select and move", "M"),
                            ("starshell", "Place a &starshell (selected unit)", "S"),
                            ("thread", "LOS &thread", "T")):
        a = add(w, tools, text, lambda on, n=name: on and hand.set_tool(n), (key,), True)
        group.addAction(a)
        w.tool_actions[name] = a
    w.tool_actions["select"].setChecked(True)
    hand.toolChanged.connect(lambda n: w.tool_actions[n].setChecked(True))
    tools.addSeparator()
    methods = QActionGroup(w)
    w.method_actions = {}
    for method, text, key in ((AUTO, "Method: first &legal", "A"), ("1", "Method &1: own hex", "1"),
                              ("2", "Method &2: along a LOS", "2"),
                              ("3", "Method &3: three hexes away", "3"),
                              ("ir-los", "&IR along a LOS", "I"),
                              ("ir-6", "IR at 6, 12\u2026 hexes", "Shift+I")):
        a = add(w, tools, text, lambda on, m=method: on and w.choose_method(m), (key,), True)
        methods.addAction(a)
        w.method_actions[method] = a
    w.method_actions[AUTO].setChecked(True)
    tools.addSeparator()
    for text, keys, d_start, d_end in (("Thread start one level up", "Alt+Up", 1, 0),
                                       ("Thread start one level down", "Alt+Down", -1, 0),
                                       ("Thread end one level up", "Alt+Shift+Up", 0, 1),
                                       ("Thread end one level down", "Alt+Shift+Down", 0, -1)):
        add(w, tools, text, lambda _=False, a=d_start, b=d_end: hand.set_thread_levels(
            hand.thread_levels[0] + a, hand.thread_levels[1] + b), (keys,))

    v = w.view_menu
    v.addSeparator()
    w.side_menu = v.addMenu("View as &side")
    w.side_menu.aboutToShow.connect(lambda: fill_sides(w))
    add(w, v, "View as the next side", lambda: next_side(w), ("W",))

    f = w.file_menu
    for text, kind, key in (("&Export the view as PNG\u2026", "png", "Ctrl+E"),
                            ("Export the view as S&VG\u2026", "svg", "Ctrl+Shift+E")):
        a = add(w, f, text, lambda _=False, k=kind: export_dialog(w, k), (key,))
        f.removeAction(a)
        f.insertAction(w.quit_action, a)
    f.insertSeparator(w.quit_action)

    add(w, w.help_menu, "&Keyboard shortcuts and mouse", lambda: show_help(w), ("F1",))


def fill_sides(w) -> None:
    w.side_menu.clear()
    group = QActionGroup(w.side_menu)
    for side in [None] + w.document.scenario.sides:
        a = w.side_menu.addAction("every unit (no side)" if side is None else side)
        a.setCheckable(True)
        a.setChecked(side == w.document.view_side)
        a.triggered.connect(lambda _=False, s=side: w.document.set_view_side(s))
        group.addAction(a)


def next_side(w) -> None:
    order = [None] + w.document.scenario.sides
    k = order.index(w.document.view_side) if w.document.view_side in order else 0
    side = order[(k + 1) % len(order)]
    w.document.set_view_side(side)
    w.statusBar().showMessage(f"Viewing the map as {side} sees it at night" if side
                              else "Viewing every unit", 5000)


def export_dialog(w, kind: str) -> bool:
    doc = w.document
    base = os.path.splitext(doc.path)[0] if doc.path else os.path.join(
        os.path.expanduser("~"), "starshell-view")
    path, _ = QFileDialog.getSaveFileName(w, f"Export the view as {kind.upper()}",
                                          f"{base}.{kind}", f"{kind.upper()} (*.{kind})")
    if not path:
        return False
    if not path.lower().endswith("." + kind):
        path += "." + kind
    try:
        (export_png if kind == "png" else export_svg)(w.view, path)
    except OSError as e:
        w.show_error("Cannot export", str(e))
        return False
    w.statusBar().showMessage(f"Exported {path}", 5000)
    return True


def shortcut_rows(w) -> list[tuple[str, str]]:
    """(keys, what) for every action of the menus that has keys, in menu order."""
    rows, seen = [], set()

    def walk(menu):
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu())
                continue
            keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText)
                             for k in a.shortcuts())
            if keys and id(a) not in seen:
                seen.add(id(a))
                rows.append((keys, a.property("help") or a.text().replace("&", "").rstrip("\u2026")))
    for action in w.menuBar().actions():
        if action.menu() is not None:
            walk(action.menu())
    return rows


def show_help(w) -> QDialog:
    """A window (not modal) listing every key and mouse gesture."""
    html = "<h3>Keys</h3><table cellspacing=4>" + "".join(
        f"<tr><td><b>{k}</b></td><td>{t}</td></tr>" for k, t in shortcut_rows(w)) + "</table>"
    html += "<h3>Mouse</h3><table cellspacing=4>" + "".join(
        f"<tr><td><b>{k}</b></td><td>{t}</td></tr>" for k, t in MOUSE) + "</table>"
    dialog = getattr(w, "help_dialog", None)
    if dialog is None:
        dialog = QDialog(w)
        dialog.setWindowTitle("Starshell: keys and mouse")
        dialog.text = QTextBrowser()
        QVBoxLayout(dialog).addWidget(dialog.text)
        dialog.resize(560, 640)
        w.help_dialog = dialog
    dialog.text.setHtml(html)
    dialog.show()
    dialog.raise_()
    return dialog

