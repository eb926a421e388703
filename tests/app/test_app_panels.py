"""The docked panels: the Position panel's NVR box in a small window, the Edit panel's boxes per unit
type and its refusals in words, the Explanation and Starshell panels naming a Prep Fire marker."""
from __future__ import annotations

from app_testing import settle
from PySide6.QtCore import QPoint, QRect, Qt

import engine


def test_the_nvr_box_stays_whole_and_in_place_when_the_panel_scrolls(window, qtbot):
    """In a small window the Position panel gets its scrollbar: the NVR box used to follow the
    panel's right edge (it shifted when the scrollbar came), and with the dock made narrow (the
    other docks of its side closed) the panel ran on under the scrollbar, hiding the box's
    arrows.  Now the box keeps its size and place, the dock goes no narrower than its panel,
    and the panel never runs under the scrollbar: the whole box shows."""
    dock, nvr = window.dock("position"), window.scenario_panel.nvr
    scroll = dock.widget()

    def place():
        return QRect(nvr.mapTo(scroll.widget(), QPoint(0, 0)), nvr.size())
    assert not scroll.verticalScrollBar().isVisible()
    before = place()
    window.document.select("L1")                     # the unit's text below: a longer panel
    settle(qtbot, window.document)
    for name in ("explanation", "legend", "starshell"):
        window.dock(name).close()                    # the Position dock alone on its side
    window.resize(640, 360)
    qtbot.waitUntil(lambda: window.width() <= 700 and dock.height() < 300)
    window.resizeDocks([dock], [120], Qt.Orientation.Horizontal)   # narrower than it may go
    # as narrow as its pile lets it (no panel of the pile wider than the dock)
    narrowest = max(d.widget().minimumWidth() for d in [dock, *window.tabifiedDockWidgets(dock)])
    qtbot.waitUntil(lambda: dock.width() < narrowest + 30
                    and scroll.verticalScrollBar().isVisible())
    assert place() == before                         # same size, same place
    assert scroll.widget().width() <= scroll.viewport().width()     # nothing under the scrollbar
    shown = QRect(nvr.mapTo(scroll.viewport(), QPoint(0, 0)), nvr.size())
    assert scroll.viewport().rect().contains(shown)
    assert nvr.visibleRegion().boundingRect() == nvr.rect()         # the whole box shows


def test_the_edit_panel_offers_only_what_the_unit_type_has(window, qtbot):
    """A leader has no BU, CE, tracked or IR box; an AFV has BU, CE and tracked; a refusal
    names the field in words."""
    doc, ed = window.document, window.editor
    doc.select("L1")
    for flag in ("bu", "ce", "tracked", "ir"):
        assert ed.flags[flag].isHidden(), flag
    for flag in ("broken", "concealed", "pinned"):
        assert not ed.flags[flag].isHidden(), flag
    doc.select("T1")
    for flag in ("bu", "ce", "tracked"):
        assert not ed.flags[flag].isHidden(), flag
    assert ed.flags["ir"].isHidden()
    ed.flags["ce"].setChecked(True)                 # T1 is buttoned up
    text = ed.error.text()
    assert "both buttoned up" in text and "units[" not in text
    assert text.startswith("Unit T1")
    settle(qtbot, doc)


def test_a_refusal_names_the_field_in_words(window, qtbot, monkeypatch):
    from app.night.panels.piece_editor import refusal
    e = engine.ScenarioError("only vehicles are tracked, not a leader", place="units[0].tracked")
    assert refusal(e, "unit", window.document.scenario.unit("L1")) == \
        "tracked: only vehicles are tracked, not a leader"


def test_a_prep_fire_marker_is_named_and_counts_as_a_gunflash(window, qtbot):
    """The default position: axis Prep Fire marker in 2CC8.  Seen only by it, the Explanation
    panel names the marker and says it counts as a Gunflash (E1.8)."""
    doc = window.document
    s = doc.scenario
    flash = next(mk for mk in s.markers if mk.type == "prep_fire")
    viewer = next(u.id for u in s.units if u.side != flash.side
                  and engine.visibility_from(s, u.id).sight_at(s.map.index(flash.hex))
                  == "gunflash")
    doc.select(viewer)
    settle(qtbot, doc)
    window.explanation.show_hex(s.map.index(flash.hex))
    text = window.explanation.toPlainText()
    assert "Prep Fire marker (it counts as a Gunflash, E1.8)" in text
    doc.select("L1")                                   # the Starshell panel's reasons too
    window.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    window.starshell_panel.show_options()
    assert "Prep Fire marker (it counts as a Gunflash, E1.8)" in \
        window.starshell_panel.options.text()
