"""The actions of play and their keys: tools, placement methods, the stack, deleting, view as
side, export, help.  The Help menu's list of shortcuts is made from the same actions, so it is
always complete."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QTextBrowser, QVBoxLayout

from engine import api

MOUSE = (("Click a unit", "select it: its night field is shown; click again: the next unit "
          "of its stack"),
         ("Click a marker", "pick it for editing"),
         ("Click empty ground", "clear the selection"),
         ("Drag a unit or marker", "move it; the overlays follow; one undo step"),
         ("Right-drag, or Shift + drag", "the LOS thread from one hex to another"),
         ("Starshell tool: hover / drag", "the drift preview; release to fire (the dice roll)"),
         ("Route tool: drag from a unit to a hex", "the dark way: unseen hexes, else the fewest "
          "sightings; seen steps ringed, named in the Explanation panel"),
         ("Palette, then a hex", "put down a new unit or marker"),
         ("Wheel", "zoom"), ("Middle button, or Space + drag", "pan"))


@dataclass(frozen=True)
class Menus:
    """The window's menus the play actions go in; Export goes before ``quit_action``."""
    file: QMenu
    edit: QMenu
    view: QMenu
    tools: QMenu
    help: QMenu
    quit_action: QAction


@dataclass(frozen=True)
class Speech:
    """How the actions speak: ``say(text)`` in the status bar, ``error(title, text)`` in a
    message box, ``show_help()`` the list of keys."""
    say: Callable[..., None]
    error: Callable[[str, str], None]
    show_help: Callable[[], None]


@dataclass
class PlayActions:
    """What ``build`` makes: every play action, the tools' and methods' actions by name, and the
    View as side menu."""
    actions: list[QAction] = field(default_factory=list)
    tools: dict[str, QAction] = field(default_factory=dict)
    methods: dict[str, QAction] = field(default_factory=dict)
    side_menu: QMenu | None = None


def add(owner, view, menu, text: str, slot, keys=(), checkable=False, view_only=False,
        into: list | None = None) -> QAction:
    """An action of ``owner`` (the window: its keys work everywhere in it), or of the map
    ``view`` alone (``view_only``), put in ``menu``."""
    a = QAction(text, owner)
    a.setCheckable(checkable)
    a.triggered.connect(slot)
    if keys:
        a.setShortcuts([QKeySequence(k) for k in keys])
    if view_only:                       # Tab belongs to the map; elsewhere it moves the focus
        a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        view.addAction(a)
    else:
        owner.addAction(a)
    menu.addAction(a)
    if into is not None:
        into.append(a)
    return a


def build(owner, hand, document, view, menus: Menus, speech: Speech) -> PlayActions:
    """The Edit, Tools and Help menus' play actions, and Export in the File menu: actions of
    ``owner`` (the window), working on ``hand``'s tools, ``document`` and the map ``view``."""
    w, made = owner, PlayActions()
    threads, starshell = hand.threads, hand.starshell

    def put(menu, text, slot, keys=(), checkable=False, view_only=False) -> QAction:
        return add(w, view, menu, text, slot, keys, checkable, view_only, made.actions)

    e = menus.edit
    e.addSeparator()
    put(e, "&Delete the picked piece", hand.pieces.delete_picked, ("Del", "Backspace"))
    put(e, "&Next unit of the stack", lambda: hand.select.cycle(+1), ("Tab",), view_only=True)
    put(e, "&Previous unit of the stack", lambda: hand.select.cycle(-1), ("Shift+Tab", "Backtab"),
        view_only=True)
    put(e, "&Cancel: drop the drag, tool and thread", hand.cancel, ("Esc",))

    tools = menus.tools
    group = QActionGroup(w)
    for name, text, key in (("select", "&Select and move", "M"),
                            ("starshell", "Place a &starshell (selected unit)", "S"),
                            ("thread", "LOS &thread", "T"),
                            ("route", "&Route: the dark way (drag from a unit)", "R")):
        a = put(tools, text, lambda on, n=name: on and hand.set_tool(n), (key,), True)
        group.addAction(a)
        made.tools[name] = a
    made.tools["select"].setChecked(True)
    hand.toolChanged.connect(lambda n: made.tools[n].setChecked(True))
    tools.addSeparator()
    methods = QActionGroup(w)
    keys = {api.night.AUTO: "A", "1": "1", "2": "2", "3": "3", "ir-los": "I", "ir-6": "Shift+I"}
    texts = {api.night.AUTO: "Method: first &legal"} | {
        m.key: f"Method &{m.key}: {m.label}" if m.flare == "starshell"
        else f"{'&' if keys[m.key] == 'I' else ''}IR: {m.label}" for m in api.night.METHODS}
    for method, text in texts.items():
        key = keys[method]
        a = put(tools, text, lambda on, m=method: on and starshell.set_method(m), (key,), True)
        methods.addAction(a)
        made.methods[method] = a
    made.methods[api.night.AUTO].setChecked(True)
    tools.addSeparator()
    for text, keys, d_start, d_end in (("Thread start one level up", "Alt+Up", 1, 0),
                                       ("Thread start one level down", "Alt+Down", -1, 0),
                                       ("Thread end one level up", "Alt+Shift+Up", 0, 1),
                                       ("Thread end one level down", "Alt+Shift+Down", 0, -1)):
        put(tools, text, lambda _=False, a=d_start, b=d_end: threads.raise_levels(a, b), (keys,))

    v = menus.view
    v.addSeparator()
    made.side_menu = side_menu = v.addMenu("View as &side")
    side_menu.aboutToShow.connect(lambda: fill_sides(side_menu, document))
    put(v, "View as the next side", lambda: next_view_side(speech.say, document), ("W",))

    f = menus.file                          # File > Export: the window base's (RoomWindow)
    made.actions += owner.add_export_actions(f, before=menus.quit_action)
    f.insertSeparator(menus.quit_action)

    put(menus.help, "&Keyboard shortcuts and mouse", speech.show_help, ("F1",))
    return made


def fill_sides(menu: QMenu, document) -> None:
    menu.clear()
    group = QActionGroup(menu)
    for side in [None] + document.scenario.sides:
        a = menu.addAction("every unit (no side)" if side is None else side)
        a.setCheckable(True)
        a.setChecked(side == document.view_side)
        a.triggered.connect(lambda _=False, s=side: document.set_view_side(s))
        group.addAction(a)


def next_view_side(say, document) -> None:
    order = [None] + document.scenario.sides
    k = order.index(document.view_side) if document.view_side in order else 0
    side = order[(k + 1) % len(order)]
    document.set_view_side(side)
    say(f"Viewing the map as {side} sees it at night" if side else "Viewing every unit")


def shortcut_rows(menu_bar) -> list[tuple[str, str]]:
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
    for action in menu_bar.actions():
        if action.menu() is not None:
            walk(action.menu())
    return rows


def show_help(parent, menu_bar, dialog: QDialog | None = None) -> QDialog:
    """A window (not modal) listing every key of ``menu_bar``'s actions and every mouse gesture:
    ``dialog`` shown again, or a new one of ``parent``."""
    html = "<h3>Keys</h3><table cellspacing=4>" + "".join(
        f"<tr><td><b>{k}</b></td><td>{t}</td></tr>" for k, t in shortcut_rows(menu_bar)) + "</table>"
    html += "<h3>Mouse</h3><table cellspacing=4>" + "".join(
        f"<tr><td><b>{k}</b></td><td>{t}</td></tr>" for k, t in MOUSE) + "</table>"
    if dialog is None:
        dialog = QDialog(parent)
        dialog.setWindowTitle("Starshell: keys and mouse")
        dialog.text = QTextBrowser()
        QVBoxLayout(dialog).addWidget(dialog.text)
        dialog.resize(560, 640)
    dialog.text.setHtml(html)
    dialog.show()
    dialog.raise_()
    return dialog

